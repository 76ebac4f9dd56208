"""Tournaments across sharded processes on one PostgreSQL database.

Two bot processes (threads with an event loop and a SimCord Discord each, as in
:mod:`tests.bot.test_shards`) run shards 0 and 1 of 2; each has a guild with a Swiss of
four that starts at a set time. Shard 0's rounds end as its games end (idle players'
automatic moves abandon them), shard 1's at the round's deadline. Each process restarts
once while the other's timers fire (shard 1 before its start time, shard 0 in the middle
of round 1). Each runs only its own guild's tournament: its threads, deadlines, results,
standings and podium, and after its restart it takes up its own tournament and not the
other's.

Shard 1's Discord clock runs a year ahead of shard 0's (:func:`own_ids`), so a deadline of
shard 0's that shard 1 took up would fire there at once; that, and every tournament a
process's round runner opens a session on, is watched.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import threading
from collections.abc import Callable
from typing import Any

import pytest
import simcord

from bot.client import ShardedKasinoBot, make_bot
from bot.config import Config
from bot.models import Game
from bot.storage import Shards, Storage
from bot.tournaments.model import Decided, Phase
from cogs.tournaments.rounds import RoundRunner
from tests.bot.kasino_harness import Harness, own_ids
from tests.bot.test_bot_tournaments import admin, sign_up, stored
from tests.bot.test_shards import SHARD_COUNT, run_shards, shard_config

START_IN = 5  # minutes to the start time
ROUND_MINUTES = (1440, 30)  # shard 0: rounds end with their games; shard 1: at the deadline


@pytest.fixture
def backend() -> str:
    """Several processes need one shared database: PostgreSQL."""
    return "postgresql"


def config(url: str, shard: int) -> Config:
    """Shard 0: five-minute turns, and two automatic moves in a row for a seat abandon its
    game (idle players' games end within the round); shard 1: hour-long turns (its games
    wait for the round's deadline)."""
    if shard == 0:
        return dataclasses.replace(shard_config(url, shard), max_auto_moves=2)
    return dataclasses.replace(shard_config(url, shard), turn_seconds=3600)


@dataclasses.dataclass
class Seen:
    """What the round runners did, by shard: the tournaments each opened a session on,
    whose deadline fired there, whose game's end it recorded."""

    sessions: dict[int, set[int]] = dataclasses.field(default_factory=dict)
    deadlines: dict[int, set[int]] = dataclasses.field(default_factory=dict)
    ended: dict[int, set[int]] = dataclasses.field(default_factory=dict)

    def note(self, kind: dict[int, set[int]], runner: RoundRunner, tournament_id: int) -> None:
        shard_ids = runner.bot.config.shard_ids or ()
        kind.setdefault(shard_ids[0], set()).add(tournament_id)


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Seen:
    """Watch every round runner (of both processes, and after restarts)."""
    found = Seen()
    session, on_deadline, game_ended = (
        RoundRunner.session,
        RoundRunner.on_deadline,
        RoundRunner.game_ended,
    )

    def watched_session(self: RoundRunner, tournament_id: int) -> Any:
        found.note(found.sessions, self, tournament_id)
        return session(self, tournament_id)

    async def watched_deadline(self: RoundRunner, tournament_id: int, deadline: float) -> None:
        found.note(found.deadlines, self, tournament_id)
        await on_deadline(self, tournament_id, deadline)

    async def watched_end(self: RoundRunner, tournament_id: int, game: Game) -> None:
        found.note(found.ended, self, tournament_id)
        await game_ended(self, tournament_id, game)

    monkeypatch.setattr(RoundRunner, "session", watched_session)
    monkeypatch.setattr(RoundRunner, "on_deadline", watched_deadline)
    monkeypatch.setattr(RoundRunner, "game_ended", watched_end)
    return found


@dataclasses.dataclass
class Process:
    """What one process saw of its Discord and its timers."""

    guild_id: int = 0
    threads: set[int] = dataclasses.field(default_factory=set)
    standings: int = 0
    podiums: int = 0
    resumed: set[int] = dataclasses.field(default_factory=set)


def timers_of(harness: Harness, ids: dict[int, int]) -> set[int]:
    """Which of the tournaments ``ids`` this process's round runner waits on."""
    return {tid for tid in ids.values() if harness.cog.rounds.timers.pending(tid)}


async def until_finished(harness: Harness, tournament_id: int) -> None:
    for _ in range(40):
        await harness.env.advance_time(600)
        if (await stored(harness, tournament_id)).phase is Phase.FINISHED:
            return


async def one_process(
    url: str, shard: int, meet: Callable[[], None], startup: threading.Lock, ids: dict[int, int]
) -> Process:
    """One bot process: a Swiss of four in its guild, from sign-up to podium; it restarts
    while the other process's timers fire."""
    process = Process()
    with startup:  # one start at a time (SimCord's start-up wait is wall-clock)
        running = simcord.run(make_bot(config(url, shard), seed=shard), settle_timeout=60,
                              strict_sync=False)  # fmt: skip
        env = await running.__aenter__()
        own_ids(env, shard)
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_exit(running.__aexit__)
        harness = Harness(env, shard_id=shard)
        process.guild_id = harness.guild.id
        minutes = ROUND_MINUTES[shard]
        _, ids[shard] = await sign_up(
            harness, admin(harness), title=f"Cup {shard}", start_in=START_IN, round_minutes=minutes
        )
        meet()  # both tournaments wait for their start time
        assert timers_of(harness, ids) == {ids[shard]}
        restarts = (1, 0)  # shard 1 before its start, shard 0 in the middle of round 1
        for step in (0, 1):
            if restarts[step] == shard:
                await harness.restart(ShardedKasinoBot(config(url, shard), seed=10 + shard))
                process.resumed = timers_of(harness, ids)
            else:  # the other process is restarting: this one's start time comes
                await harness.env.advance_time(START_IN * 60 + 1)
                row = await stored(harness, ids[shard])
                assert row.phase is Phase.RUNNING and row.round == 1, row
            meet()
        await until_finished(harness, ids[shard])
        await env.settle()
        process.threads = {t.id for t in harness.channel.threads}
        titles = [m.embeds[0].title or "" for m in harness.public_messages() if m.embeds]
        process.standings = sum("standings after round" in title for title in titles)
        row = await stored(harness, ids[shard])
        process.podiums = sum(m.id == row.extra.get("podium_id") for m in harness.public_messages())
        await env.bot.close_storage()
    return process


def test_each_process_runs_only_its_own_guilds_tournament(
    postgres_url: str, seen: Seen, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    startup = threading.Lock()
    ids: dict[int, int] = {}
    results = run_shards(
        lambda shard, meet: asyncio.run(one_process(postgres_url, shard, meet, startup, ids))
    )
    # each round runner touched its own tournament only: no session, no deadline, no
    # game's end of the other process's, before or after its restart
    for shard in range(SHARD_COUNT):
        own = {ids[shard]}
        assert seen.sessions[shard] == own, seen
        assert seen.deadlines[shard] == own, seen  # the start time (shard 1: the rounds too)
        assert results[shard].resumed == own
        assert seen.ended.get(shard, own) == own, seen  # shard 1's: stopped at a deadline
    assert seen.ended.get(0) == {ids[0]}, seen  # shard 0's rounds end with their games
    for shard, process in enumerate(results):
        row = asyncio.run(read_back(postgres_url, ids[shard]))
        assert Shards(SHARD_COUNT, (shard,)).owns(row.guild_id) and row.guild_id == process.guild_id
        assert row.phase is Phase.FINISHED and row.round == 2
        assert {tr.result.decided for tr in row.tables} == (
            {Decided.FORFEIT} if shard == 0 else {Decided.SCORE}
        )
        # every table's thread is in this process's channel, one each
        assert {tr.thread_id for tr in row.tables} == process.threads and len(process.threads) == 4
        assert process.standings >= 2 and process.podiums == 1
    problems = [r.getMessage() for r in caplog.records if r.name.startswith(("cogs", "bot"))]
    assert not problems, problems


async def read_back(url: str, tournament_id: int) -> Any:
    """The tournament as stored (its games in its own guild's threads)."""
    storage = await Storage.open(url)
    try:
        row = await storage.get_tournament(tournament_id)
        assert row is not None
        for tr in row.tables:
            game = await storage.get_game(tr.game_id)
            assert game is not None and game.guild_id == row.guild_id
            assert game.channel_id == tr.thread_id and game.extra["tournament"]["id"] == row.id
        return row
    finally:
        await storage.close()
