"""Fixtures for the bot tests: the real bot on a real database (an SQLite file, and again a
PostgreSQL database), driven through SimCord."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot import timers
from bot.card_emojis import wanted_names
from bot.client import KasinoBot
from bot.config import Config
from tests.bot.dm_refusals import DMRefusals, dm_refusals
from tests.bot.kasino_harness import DiscordNonces, Harness, remember_nonces, settle_defaults
from tests.bot.user_installs import UserInstalls, user_installs


@pytest.fixture(scope="session", autouse=True)
def faces_drawn() -> None:
    """Draw the card faces once, before any bot starts: the bot draws them in a worker
    thread on its first start, and on a loaded machine those seconds of drawing could
    outlast SimCord's 5 s (wall-clock) wait for the start to settle."""
    wanted_names()


@pytest.fixture
def db_path(tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> Path | str:
    """A fresh database for each test, on each backend: an SQLite file, or a new database
    on the run's PostgreSQL server (its URL)."""
    if backend == "postgresql":
        return str(request.getfixturevalue("postgres_url"))
    return tmp_path / "data" / "kasino.db"


@pytest.fixture
def bot_config(db_path: Path | str) -> Config:
    """Five-minute turns, no pause between rounds, computer players that move after 0.1 s
    (hard ones and hints think for 10 ms of work)."""
    return Config(
        token=None,
        db_path=db_path,
        turn_seconds=300,
        round_pause=0,
        computer_pause=0.1,
        hard_budget_ms=10,
    )


@pytest.fixture
def simcord_bot(bot_config: Config) -> KasinoBot:
    """The bot SimCord runs (fixed shuffles)."""
    return KasinoBot(bot_config, seed=20240607)


@pytest.fixture
async def harness(  # type: ignore[no-untyped-def]
    simcord_env, discord_user_installs: UserInstalls
) -> AsyncIterator[Harness]:
    """A guild, a channel and four members, plus helpers to play through the UI (and
    group DMs and servers without the bot: ``Harness.group_dm``, ``foreign_server``).

    Closes the bot's database at the end (SimCord's shutdown does not call ``close``).
    """
    yield Harness(simcord_env, installs=discord_user_installs)
    await simcord_env.bot.close_storage()


@pytest.fixture(autouse=True)
def discord_nonces(monkeypatch: pytest.MonkeyPatch) -> DiscordNonces:
    """Every bot test runs against a Discord that checks message nonces as Discord does
    (SimCord does not): a nonce the bot sent within minutes makes no new message, the
    earlier one is the answer (``kasino_harness.DiscordNonces``)."""
    return remember_nonces(monkeypatch)


@pytest.fixture(autouse=True)
def discord_user_installs(monkeypatch: pytest.MonkeyPatch) -> UserInstalls:
    """Every bot test runs against a Discord that knows user installs, which SimCord does
    not (``user_installs.UserInstalls``): interactions carry Discord's authorizing owners,
    and group DMs and servers without the bot can be made, where the bot may only answer
    interactions."""
    return user_installs(monkeypatch)


@pytest.fixture(autouse=True)
def discord_dm_refusals(
    monkeypatch: pytest.MonkeyPatch,
    discord_nonces: DiscordNonces,
    discord_user_installs: UserInstalls,
) -> DMRefusals:
    """Every bot test runs against a Discord that refuses a DM to a person who closed
    their DMs or shares no server with the bot (403, 50007), which SimCord does not
    (``dm_refusals.DMRefusals``); installed after the nonces' check, so outside it."""
    return dm_refusals(monkeypatch, discord_user_installs)


@pytest.fixture(autouse=True)
def quick_settle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Poll SimCord's settling every millisecond instead of every 50 ms.

    SimCord sleeps ``idle`` seconds when only bookkeeping callbacks of finished tasks are
    left, which happens on most clicks; the default 50 ms would make a whole match take
    many seconds. Only the polling interval changes, not what is awaited.
    """
    for method, defaults in settle_defaults(0.001):
        monkeypatch.setattr(method, "__defaults__", defaults[0])
        monkeypatch.setattr(method, "__kwdefaults__", defaults[1])


DRAIN_SHARE = 0.5  # of SimCord's settle timeout: the most one operation may wait for timers


@pytest.fixture(autouse=True)
def drains_little(
    quick_settle: None, monkeypatch: pytest.MonkeyPatch
) -> Iterator[list[tuple[float, float, str]]]:
    """Fail a test one of whose SimCord operations (a click, a command, a settle) waited
    for the bot's timers for more than half of SimCord's settle timeout.

    SimCord runs a timer that falls due within its settle timeout (5 s of wall clock) by
    waiting for it in real time. A click that sets off three computers' moves at 1.5 s
    each waits 4.5 real seconds, and on a loaded machine the last move then does not finish
    within the 5 s: the test fails now and then. Counted in virtual seconds, that wait is
    the same on every machine, so this check fails such a test every time, on any machine.
    The cure is ``virtual_waits`` (the test advances the clock itself) or shorter pauses.
    Yields the operations over the limit: (seconds waited, the limit, what it was).
    """
    worst: list[tuple[float, float, str]] = []
    settle = simcord.Env._settle_internal  # SimCord's one settling step (private; pinned)

    async def measured(env: simcord.Env, *args: Any, **kw: Any) -> None:
        if kw.get("_deadline") is not None:  # a step of advance_time: it never waits
            return await settle(env, *args, **kw)
        start = env.now()
        try:
            return await settle(env, *args, **kw)
        finally:
            waited = (env.now() - start).total_seconds()
            limit = DRAIN_SHARE * (kw.get("timeout") or env.settle_timeout)
            if waited > limit:
                worst.append((waited, limit, kw.get("dispatch") or "settle"))

    monkeypatch.setattr(simcord.Env, "_settle_internal", measured)
    yield worst
    assert not worst, (
        "a SimCord operation waited in real time for the bot's timers (seconds, most "
        f"allowed, what): {max(worst)}; on a loaded machine it could time out. Use the "
        "virtual_waits fixture and advance the clock, or shorten the pauses."
    )


@pytest.fixture
def virtual_waits(simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's deliberate waits (a game's deadlines, such as a computer's pause, and a
    channel's or a thread's budget) pass only when the test advances SimCord's clock,
    never while SimCord waits in real time for a click to settle."""

    async def pause(seconds: float) -> None:
        await simcord_env.external_wait(asyncio.sleep(seconds), reason="the bot's pause")

    def call_later(delay: float, callback: Callable[[], None]) -> asyncio.Task[None]:
        async def wait() -> None:
            await pause(delay)
            callback()

        return asyncio.get_running_loop().create_task(wait(), name="kasino-deadline")

    monkeypatch.setattr(timers, "pause", pause)
    monkeypatch.setattr(timers, "call_later", call_later)
