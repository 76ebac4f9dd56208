"""One game shown in two servers run by two sharded processes over one PostgreSQL database
(as a ladder match between members of two servers will be).

Two bot processes (threads with an event loop and a SimCord Discord each, as in
:mod:`tests.bot.test_shards`: each Discord holds only its own shard's server, so a process
can reach only its own channels) run shards 0 and 1 of 2. Anna (shard 0's server) and Erik
(shard 1's) play one match, each from the table in their own channel: a move made through
one process is committed there and posted to the other's channel by the other process,
told by PostgreSQL's NOTIFY (``cogs.play.delivery.Delivery.posted``). Shard 1's process is killed
and restarted mid-match: what was committed meanwhile for its channel is posted when it
starts again, and the match goes on to the end, shown in both channels.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from typing import Any

import pytest
import simcord

from bot.client import ShardedKasinoBot, make_bot
from bot.models import Game, GameOptions, Seat, Status
from bot.records.ratings import GLOBAL
from bot.stages import Stage
from tests.bot.kasino_harness import Harness, own_ids
from tests.bot.test_shards import run_shards, shard_config
from tests.bot.test_two_tables import play

RESTART_AFTER = 6  # moves into the match, shard 1's process is killed and started again
PATIENCE = 120.0  # real seconds a process waits for the other's move to reach its channel


@pytest.fixture
def backend() -> str:
    """Several processes need one shared database: PostgreSQL."""
    return "postgresql"


def hand_ids(message: Any) -> list[str]:
    """The "Your hand" custom_ids on a message (``k:hand:<game>:<version>``)."""
    return [
        c.custom_id
        for row in message.components
        for c in row.children
        if c.custom_id and c.custom_id.startswith("k:hand:")
    ]


def table_of(channel: Any, game: Game) -> Any | None:
    """The table in ``channel`` showing the game's current version, if it is there yet."""
    wanted = f"k:hand:{game.id}:{game.version}"
    return next((m for m in channel.history() if wanted in hand_ids(m)), None)


async def wait(env: Any, ready: Any) -> Any:
    """Let both processes run until ``ready()`` gives something (real time: the other
    process is a thread of its own; virtual time: this one's Discord and timers)."""
    limit = time.monotonic() + PATIENCE
    while time.monotonic() < limit:
        found = await ready()
        if found:
            return found
        await env.advance_time(0.2)
        await asyncio.sleep(0.02)
    raise AssertionError("the other process's move never reached this channel")


async def process(url: str, shard: int, meet: Any, startup: threading.Lock, shared: dict) -> dict:
    """One process: its server and member; shard 0's makes the match; each plays its
    member's moves from its own channel; shard 1's restarts once."""
    config = shard_config(url, shard)
    with startup:
        bot = make_bot(config, seed=shard)
        running = simcord.run(bot, settle_timeout=60, strict_sync=False)
        env = await running.__aenter__()
        own_ids(env, shard)
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_exit(running.__aexit__)
        harness = Harness(env, shard_id=shard)
        member, channel = harness.members[0], harness.channel
        shared[shard] = (harness.guild.id, channel.id, member.id, member.name)
        meet()
        if shard == 0:
            there = shared[1]
            cog = harness.cog
            game = await cog.games.open_table(
                harness.guild.id,
                channel.id,
                [Seat(member.id, member.name), Seat(there[2], there[3])],
                GameOptions(target=5),
                extra={"ladder": True},
                mirrors=[Stage(there[0], there[1], seats=(1,))],
            )
            async with cog.games.session(game.id) as game:
                assert game is not None
                cog.table.announce(game, lambda t: t("The cards are dealt."))
                await cog.games.save(game)
            shared["game"] = game.id
        meet()
        game_id, moves, restarted = shared["game"], 0, False

        async def current() -> Game | None:
            return await harness.cog.games.storage.get_game(game_id)

        while True:
            game = await wait(env, current)
            if game.status is not Status.PLAYING:
                break
            if game.seats[game.match.round.to_move].user_id != member.id:
                await env.advance_time(0.2)
                await asyncio.sleep(0.02)
                continue

            async def shown(game: Game = game) -> Any:
                return table_of(channel, game)

            table = await wait(env, shown)
            await play(harness, game, table, member)
            moves += 1
            if shard == 1 and moves == RESTART_AFTER and not restarted:
                restarted = True
                await harness.restart(ShardedKasinoBot(config, seed=11))

        async def ended() -> Any:
            return [m for m in channel.history() if any("k:replay:" in c for c in ids_of(m))]

        ends = await wait(env, ended)
        await env.settle()
        await env.bot.close_storage()
    return {"moves": moves, "ends": len(ends), "restarted": restarted}


def ids_of(message: Any) -> list[str]:
    return [c.custom_id for row in message.components for c in row.children if c.custom_id]


def test_one_match_on_two_shards_shows_at_both_tables(postgres_url: str) -> None:
    startup, shared = threading.Lock(), {}
    results = run_shards(
        lambda shard, meet: asyncio.run(process(postgres_url, shard, meet, startup, shared))
    )
    assert results[1]["restarted"]
    assert all(r["moves"] > 0 and r["ends"] == 1 for r in results), results
    from tests.dbrows import query

    (row,) = query(postgres_url, "SELECT * FROM games WHERE id = ?", (shared["game"],))
    assert row["status"] == "finished"
    moves = query(postgres_url, "SELECT version FROM moves WHERE game_id = ?", (row["id"],))
    assert len(moves) == len({m["version"] for m in moves})
    scopes = query(
        postgres_url, "SELECT DISTINCT guild_id FROM rating_changes WHERE game_id = ?", (row["id"],)
    )
    assert [s["guild_id"] for s in scopes] == [GLOBAL]
