"""Sharded processes over one PostgreSQL database.

Two bot processes (here two threads, each with its own event loop and its own SimCord
Discord, as real processes would see only their own shards' guilds) run shards 0 and 1 of
2 over one database. Each plays a match between people and one against a computer in its
own guild; each restarts once while the other plays on. Nothing is lost or doubled, and
each process resumes only its own games. Then two storage clients race on one game.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import threading
from collections.abc import Callable
from typing import Any

import pytest
import simcord

from bot.client import ShardedKasinoBot, make_bot
from bot.config import Config, ConfigError, load_config
from bot.games import GameService
from bot.models import GameOptions, Seat
from bot.moves import auto_move
from bot.storage import Shards, Storage
from tests.bot.kasino_harness import Harness, own_ids
from tests.dbrows import query

SHARD_COUNT = 2


@pytest.fixture
def backend() -> str:
    """Several processes need one shared database: PostgreSQL."""
    return "postgresql"


def shard_config(url: str, shard: int) -> Config:
    return Config(
        token=None, db_path=url, turn_seconds=300, round_pause=0, computer_pause=0.1,
        hard_budget_ms=10, shard_count=SHARD_COUNT, shard_ids=(shard,),
    )  # fmt: skip


@dataclasses.dataclass
class Played:
    """What one process saw: its games, the moves its people made, what it resumed."""

    games: list[int] = dataclasses.field(default_factory=list)
    people_moves: dict[int, int] = dataclasses.field(default_factory=dict)
    resumed: set[int] = dataclasses.field(default_factory=set)
    versions_kept: bool = False


async def play_some(harness: Harness, channel: Any, played: Played, moves: int) -> None:
    """The people play ``moves`` moves in the channel's game (a computer answers by itself)."""
    harness.channel = channel
    for _ in range(moves):
        game = await harness.game()
        if game is None:
            return
        await harness.play_move(game)
        played.people_moves[game.id] = played.people_moves.get(game.id, 0) + 1


async def finish(harness: Harness, channel: Any, played: Played) -> None:
    await play_some(harness, channel, played, 10_000)


async def one_process(
    url: str, shard: int, meet: Callable[[], None], restart_turn: int, startup: threading.Lock
) -> Played:
    """One bot process: two games in its guild; it restarts in phase ``restart_turn``
    while the other process plays on."""
    config = shard_config(url, shard)
    played = Played()
    # one process starts at a time: SimCord gives a start-up 5 s, which two at once on a
    # busy machine may need
    with startup:
        # each process has a simulated Discord of its own, but real processes share one
        # application whose commands the first process registered (the stored hash tells
        # the others): let SimCord register them here too
        bot = make_bot(config, seed=shard)
        running = simcord.run(bot, settle_timeout=60, strict_sync=False)
        env = await running.__aenter__()
        own_ids(env, shard)
    meet()  # the other process starts while this one waits
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_exit(running.__aexit__)
        harness = Harness(env, shard_id=shard)
        people_channel = harness.channel
        people = await harness.start_game(2)
        harness.channel = computer_channel = harness.guild.create_text_channel("computers")
        lobby = await harness.open_lobby(harness.members[2])
        await harness.click(harness.members[2], lobby, label="Add normal computer")
        await harness.click(harness.members[2], lobby, label="Start")
        computer = await harness.game()
        played.games = [people.id, computer.id]
        await play_some(harness, people_channel, played, 4)
        await play_some(harness, computer_channel, played, 2)
        for turn in (0, 1):
            meet()  # both processes have reached this point
            if turn == restart_turn:
                before = {
                    gid: (await harness.cog.games.storage.game_version(gid)) for gid in played.games
                }
                await harness.restart(ShardedKasinoBot(config, seed=10 + shard))
                cog = harness.cog
                played.resumed = {gid for gid in range(1, 100) if cog.timers.pending(gid)}
                after = {gid: (await cog.games.storage.game_version(gid)) for gid in played.games}
                played.versions_kept = before == after
            else:  # the other process is restarting meanwhile
                await play_some(harness, people_channel, played, 6)
                await play_some(harness, computer_channel, played, 3)
        meet()
        await finish(harness, people_channel, played)
        await finish(harness, computer_channel, played)
        await env.settle()
        await env.bot.close_storage()
    return played


def run_in_thread(job: Callable[[], Any], barrier: threading.Barrier) -> Callable[[], Any]:
    """Start ``job`` in a thread of its own (its own event loop); returns its result getter.
    A failing job breaks ``barrier``, so the other one stops waiting at once."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = job()
        except BaseException as error:  # handed to the test thread
            box["error"] = error
            barrier.abort()

    thread = threading.Thread(target=target, daemon=True)
    thread.start()

    def result() -> Any:
        thread.join(timeout=600)
        assert not thread.is_alive(), "a process did not finish"
        if "error" in box:
            return box["error"]
        return box["result"]

    return result


def run_shards(job: Callable[[int, Callable[[], Any]], Any]) -> list[Any]:
    """``job(shard, meet)`` for every shard, each in a thread (and event loop) of its own,
    ``meet`` waiting until every shard reaches it; their results in shard order. A failure
    is raised, its cause before the broken barriers it left the others."""
    barrier = threading.Barrier(SHARD_COUNT, timeout=300)
    processes = [
        run_in_thread(lambda shard=shard: job(shard, barrier.wait), barrier)
        for shard in range(SHARD_COUNT)
    ]
    results = [get() for get in processes]
    errors = [r for r in results if isinstance(r, BaseException)]
    errors.sort(key=lambda e: isinstance(e, threading.BrokenBarrierError))  # the cause first
    if errors:
        raise errors[0]
    return results


def test_two_sharded_processes_with_restarts_lose_and_double_nothing(postgres_url: str) -> None:
    startup = threading.Lock()
    results: list[Played] = run_shards(
        lambda shard, meet: asyncio.run(one_process(postgres_url, shard, meet, shard, startup))
    )
    for shard, played in enumerate(results):
        others = {gid for i, p in enumerate(results) if i != shard for gid in p.games}
        # after its restart a process waits on its own games' deadlines, none of the other's
        assert played.resumed and played.resumed <= set(played.games), (shard, played)
        assert not played.resumed & others
        assert played.versions_kept
        for gid in played.games:
            (row,) = query(postgres_url, "SELECT * FROM games WHERE id = ?", (gid,))
            assert row["status"] == "finished"
            assert Shards(SHARD_COUNT, (shard,)).owns(row["guild_id"])
            moves = query(
                postgres_url, "SELECT * FROM moves WHERE game_id = ? ORDER BY version", (gid,)
            )
            versions = [m["version"] for m in moves]
            assert len(versions) == len(set(versions))
            people = [m for m in moves if m["seat"] != computer_seat(row)]
            assert len(people) == played.people_moves[gid], (gid, len(people))
            assert not any(m["auto"] for m in moves)  # nobody's time ran out on a lost move
        humans = sum(
            1
            for _ in query(
                postgres_url, "SELECT * FROM results WHERE game_id IN (?, ?)", played.games
            )
        )
        assert humans == 3  # two people in one match, one against the computer


def computer_seat(row: dict[str, Any]) -> int:
    """The seat index of the computer player in a game row (-1: none)."""
    seats = json.loads(row["seats"])
    return next((i for i, s in enumerate(seats) if s.get("level")), -1)


async def test_two_storage_clients_racing_on_one_game_apply_one_move(postgres_url: str) -> None:
    config = Config(token=None, db_path=postgres_url, round_pause=0)
    first, second = await Storage.open(postgres_url), await Storage.open(postgres_url)
    try:
        one, two = GameService(first, config, seed=1), GameService(second, config, seed=2)
        game = await one.open_lobby(1, 2, Seat(10, "a"), GameOptions())
        await one.join(game, Seat(11, "b"))
        await one.start(game, 10)
        start = game.version
        async with two.session(game.id) as copy:  # both processes hold a loaded copy
            assert copy is not None and copy.version == start

        async def attempt(service: GameService) -> str:
            async with service.session(game.id) as current:
                assert current is not None
                if current.version != start:
                    return "saw the move"  # the other process's move, not a stale copy
                await asyncio.sleep(0.2)  # thinking, while the other process waits
                rnd = current.match.round
                await service.play(current, rnd.to_move, auto_move(rnd))
                return "moved"

        outcomes = await asyncio.gather(attempt(one), attempt(two))
        assert sorted(outcomes) == ["moved", "saw the move"]
        assert await first.move_count(game.id) == 1
        assert await first.game_version(game.id) == start + 1
    finally:
        await first.close()
        await second.close()


def test_shard_settings() -> None:
    env = {"KASINO_DB": "postgresql://k@db/kasino", "SHARD_COUNT": "4", "SHARD_IDS": "2,3"}
    config = load_config(env, require_token=False)
    assert config.shards == Shards(4, (2, 3))
    assert isinstance(make_bot(config), ShardedKasinoBot)
    assert [Shards(4, (2, 3)).owns(n << 22) for n in range(5)] == [False, False, True, True, False]
    assert load_config({"SHARD_COUNT": "2"}, require_token=False).shards == Shards(2, (0, 1))
    for bad in (
        {"SHARD_IDS": "0"},
        {"SHARD_COUNT": "2", "SHARD_IDS": "0,2"},
        {"SHARD_COUNT": "2", "SHARD_IDS": "1,1"},
        {"SHARD_COUNT": "2", "SHARD_IDS": "x"},
        {"SHARD_COUNT": "0"},
        {"SHARD_COUNT": "2", "SHARD_IDS": "0", "KASINO_DB": "data/k.db"},  # SQLite: one process
    ):
        with pytest.raises(ConfigError) as error:
            load_config(bad, require_token=False)
        assert "\n" not in str(error.value)
