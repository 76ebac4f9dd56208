"""Fixtures for the bot tests: the real bot on a real database (an SQLite file, and again a
PostgreSQL database), driven through SimCord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.card_emojis import wanted_names
from bot.client import KasinoBot
from bot.config import Config
from tests.bot.kasino_harness import Harness, settle_defaults


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
async def harness(simcord_env) -> AsyncIterator[Harness]:  # type: ignore[no-untyped-def]
    """A guild, a channel and four members, plus helpers to play through the UI.

    Closes the bot's database at the end (SimCord's shutdown does not call ``close``).
    """
    yield Harness(simcord_env)
    await simcord_env.bot.close_storage()


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
