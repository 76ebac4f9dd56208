"""The ladder across shard processes (issue 42's "Done when"): two people in two servers run
by two sharded processes over one PostgreSQL database each type ``/kasino queue``, are
paired at once, play a rated Swedish Kasino match to the end each at their own table, and
both see the result on their global profile.

As in :mod:`tests.bot.test_two_tables_shards`, each process is a thread with an event loop
and a SimCord Discord of its own holding only its shard's server: a process can reach only
its own channels, so the other table's posts go through the other process (told by
PostgreSQL's NOTIFY). Anna (shard 0's server) queues first; Erik (shard 1's) queues after
her, and his process pairs them at his queueing. Shard 1's process is killed and started
again mid-match; the match goes on to the end. Nobody is paired twice, no move is doubled,
and the match is rated on the global boards only.

Each Discord's calendar is its own (``own_ids`` starts shard 1's a year later, so that the
two hand out different ids): in Erik's process Anna has waited a year, her rating window
at its widest. Both begin at the same rating, so the window does not decide anything here;
the benchmark (tests/benchmarks/ladder_tables.py) keeps the two processes on one calendar.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import re
import threading
from typing import Any

import pytest
import simcord

from bot import timers
from bot.client import ShardedKasinoBot, make_bot
from bot.models import Game, Status
from bot.records.ratings import GLOBAL, START
from tests.bot.kasino_harness import Harness, own_ids
from tests.bot.test_ladder import queue
from tests.bot.test_shards import run_shards, shard_config
from tests.bot.test_two_tables_shards import ids_of, play, table_of, wait
from tests.dbrows import query

RESTART_AFTER = 5  # Erik's moves into the match before shard 1's process is killed
# An hour a move: a process waiting for the other (real seconds) advances its virtual
# clock ten times as fast, and nobody's time may run out while the other process restarts.
TURN_SECONDS = 3600


@pytest.fixture
def backend() -> str:
    """Several processes need one shared database: PostgreSQL."""
    return "postgresql"


@pytest.fixture
def envs(monkeypatch: pytest.MonkeyPatch) -> dict[asyncio.AbstractEventLoop, simcord.Env]:
    """The bot's deliberate waits (the pairing rounds' pauses, the games' deadlines) on
    the virtual clock of the SimCord Discord of the process (event loop) that waits, as
    the ``virtual_waits`` fixture does for one process: they pass only as that process's
    test advances its clock, never while SimCord settles a click in real time."""
    found: dict[asyncio.AbstractEventLoop, simcord.Env] = {}

    async def pause(seconds: float) -> None:
        env = found.get(asyncio.get_running_loop())
        if env is None:  # the process's Discord is still starting
            await asyncio.sleep(seconds)
            return
        await env.external_wait(asyncio.sleep(seconds), reason="the bot's pause")

    def call_later(delay: float, callback: Any) -> asyncio.Task[None]:
        async def wait() -> None:
            await pause(delay)
            callback()

        return asyncio.get_running_loop().create_task(wait(), name="kasino-deadline")

    monkeypatch.setattr(timers, "pause", pause)
    monkeypatch.setattr(timers, "call_later", call_later)
    return found


def text_of(message: Any) -> str:
    """A message's words: its content and its embeds'."""
    return f"{message.content} {[e.to_dict() for e in message.embeds]}"


async def global_rating(harness: Harness, member: Any) -> int | None:
    """The rating everywhere (the global one) that ``/kasino profile``, asked in the
    member's own server, shows them (``None``: it shows none)."""
    result = await harness.slash(member, "kasino profile")
    found = re.search(r"everywhere (\d+)", result.response.embeds[0].description or "")
    return int(found.group(1)) if found else None


async def process(
    url: str, shard: int, meet: Any, startup: threading.Lock, shared: dict, envs: dict
) -> dict:
    """One process: its server and its member, who queues, plays the match from their own
    channel and reads their profile; shard 1's process restarts once mid-match."""
    config = dataclasses.replace(shard_config(url, shard), turn_seconds=TURN_SECONDS)
    with startup:
        bot = make_bot(config, seed=shard)
        running = simcord.run(bot, settle_timeout=60, strict_sync=False)
        env = await running.__aenter__()
        envs[asyncio.get_running_loop()] = env
        own_ids(env, shard)
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_exit(running.__aexit__)
        harness = Harness(env, shard_id=shard)
        # Anna in shard 0's server, Erik in shard 1's
        member = harness.members[0] if shard == 0 else harness.add_members(("erik",))[0]
        channel = harness.channel
        before = await global_rating(harness, member)
        shared[shard] = member.id
        meet()
        if shard == 0:  # Anna queues first and waits
            waiting = await queue(harness, member, channel)
            assert "Looking for an opponent" in text_of(waiting)
        meet()
        if shard == 1:  # Erik queues: his process pairs them at once (no time passes)
            waiting = await queue(harness, member, channel)
            games = query(url, "SELECT id FROM games")
            assert len(games) == 1, games
            shared["game"] = games[0]["id"]
        meet()
        game_id = shared["game"]

        async def current() -> Game | None:
            return await harness.cog.games.storage.get_game(game_id)

        async def paired() -> Any:  # the waiting message says so, in this channel
            edited = next(m for m in channel.history() if m.id == waiting.id)
            return "Paired" in text_of(edited)

        await wait(env, paired)
        moves, restarted = 0, False
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

            await play(harness, game, await wait(env, shown), member)
            moves += 1
            if shard == 1 and moves == RESTART_AFTER and not restarted:
                restarted = True
                await harness.restart(ShardedKasinoBot(config, seed=11))

        async def ended() -> Any:
            return [m for m in channel.history() if any("k:replay:" in c for c in ids_of(m))]

        ends = await wait(env, ended)
        after = await global_rating(harness, member)
        await env.settle()
        await env.bot.close_storage()
    return {
        "moves": moves,
        "ends": len(ends),
        "restarted": restarted,
        "before": before,
        "after": after,
        "seats": [s.user_id for s in game.seats],
    }


def test_two_people_on_two_shards_queue_play_and_see_their_global_rating(
    postgres_url: str, envs: dict
) -> None:
    startup, shared = threading.Lock(), {}
    results = run_shards(
        lambda shard, meet: asyncio.run(process(postgres_url, shard, meet, startup, shared, envs))
    )
    anna, erik = shared[0], shared[1]
    # the winner's went up, the loser's down (shown in each one's own server)
    assert sorted(r["after"] for r in results)[0] < START < max(r["after"] for r in results)
    assert results[1]["restarted"]
    for result in results:
        assert result["moves"] > 0 and result["ends"] == 1, result
        assert sorted(result["seats"]) == sorted([anna, erik])
        # the profile in their own server: a global rating now, moved from where all begin
        assert result["before"] is None and result["after"] not in (None, START), result
    # one match, nobody paired twice, nobody left waiting
    (row,) = query(postgres_url, "SELECT * FROM games")
    assert row["status"] == "finished"
    assert query(postgres_url, "SELECT * FROM ladder_queue") == []
    # no move doubled, though shard 1's process was killed mid-match
    moves = query(postgres_url, "SELECT version, auto FROM moves WHERE game_id = ?", (row["id"],))
    assert len(moves) == len({m["version"] for m in moves})
    assert not any(m["auto"] for m in moves)  # every move a person's: nobody ran out of time
    assert sum(r["moves"] for r in results) == len(moves)
    # rated on the global boards only
    rated = query(postgres_url, "SELECT DISTINCT guild_id, user_id FROM ratings")
    assert sorted((r["guild_id"], r["user_id"]) for r in rated) == sorted(
        [(GLOBAL, anna), (GLOBAL, erik)]
    )
    changes = query(postgres_url, "SELECT DISTINCT guild_id FROM rating_changes")
    assert [c["guild_id"] for c in changes] == [GLOBAL]
