"""Thousands of waiting correspondence games on two shard processes:
``python tests/benchmarks/correspondence.py [--games 10000] [--servers 500] [--seated 50]
[--due 500] [--wait 30] [--seed 1] [--db postgresql://…]``.

``--games`` Swedish Kasino matches at one move a day (``GameOptions(pace="1d")``) are
written into one PostgreSQL database (``--db``: an empty database on a server; by default
a throwaway server is started, tests/pg_server.py), spread over ``--servers`` servers, half
of them in each of two shards; one person sits in ``--seated`` of them. Every turn has
been told (its notice sent) and waits for its warning, hours away. The games' tables were
posted before: they are written straight through the storage, not played. Then the two
bot processes (shards 0 and 1 of 2, each a thread with its own event loop and SimCord
Discord: tests/benchmarks/shards.py) start one after the other, and the figures are:

(a) start-up: each process's ``Kasino.cog_load`` (every deadline of its shard read and
    scheduled again, the games without a table looked for, the outbox read) and its whole
    start (login, every cog, SimCord's settle), wall clock, and the deadlines it holds;
(b) waiting: over ``--wait`` seconds of real time in which nothing is due, each process's
    CPU (its event loop thread's ``thread_time``), the interpreter's (``process_time``,
    both processes), the memory allocated and still held meanwhile (tracemalloc, both) and
    the RSS growth; and the memory each process's start-up added (RSS, measured while the
    other process waits) and what its timers hold (their dict and heap);
(c) ``storage.person_games`` (the rows behind ``/kasino games``) for the person seated in
    ``--seated`` games: p50/p99/max over 200 calls; and ``/kasino games`` typed by that
    person through SimCord (in a server of shard 0, their seats given the member's id)
    100 times, wall clock from the command to its answer (each skipped, and said so,
    where the bot has neither yet);
(d) fires: ``--due`` of the games, chosen at random, get a warning due within the next
    ``--wait`` seconds of real time (saved with the game and scheduled, as a move would);
    each fire's lateness (the wall clock when its handler runs minus its deadline) p50/p99/
    max, and how many did not fire. For this window the timers' clock runs in real time
    from the Discords' virtual time (the games' own clock keeps the virtual one, so a
    warning's next deadline, the turn's end, stays hours away).

The two processes share one interpreter (and its GIL) on this machine: wall-clock figures
are those of both on one core, an upper bound of two real processes'. Never asserted in
the tests. Its figures on the development machine (2 cores shared with other work; the
defaults, seeds 1 and 2, five runs):

    (a) cog_load 0.03 to 0.07 s a process, 5,000 deadlines each scheduled again (with the
        former Timers, a min() over every deadline at each schedule: 0.24 to 0.25 s, and
        growing with the square of the games); the whole start 1.5 to 1.7 s for the first
        process (the card faces drawn once), 0.06 to 0.09 s for the second; the timers
        hold about 0.7 MiB a process.
    (b) 30 s with nothing due: 1 ms of CPU each process's loop thread, 3 to 5 ms the whole
        interpreter (0.01 to 0.02 % of a core); 6 to 16 KiB allocated and kept meanwhile,
        RSS +0.0 MiB.
    (c) (three runs with /kasino games) person_games for 50 games: p50 16 to 18 ms, p99 53
        to 69 ms, max 80 to 86 ms; /kasino games (its first page of 10) p50 18.5 to 19.2
        ms, p99 66 to 67 ms, max 68 to 77 ms.
    (d) 500 warnings due over 30 s: lateness p50 1.0 to 1.1 ms, p99 2.7 to 11.9 ms, max
        5 to 71 ms; none missed, none more than 1 s late.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import logging
import random
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import simcord
from discord.ext import commands
from simcord._clock import Clock  # SimCord's calendar (pinned version): its start

from bot import timers
from bot.client import make_bot
from bot.config import Config
from bot.correspondence.clock import next_step, turn_clock
from bot.games import GameService
from bot.models import Game, GameOptions, Seat
from bot.storage import Storage
from bot.storage.base import game_steps
from bot.storage.sql import Statement
from tests.benchmarks.shards import SHARDS, distinct_ids, on_server, quantile, run_processes
from tests.bot.kasino_harness import settle_defaults
from tests.pg_server import fresh_database

GUILD0 = 1 << 30  # server n's id is (GUILD0 + n) << 22: shard n % 2
CHANNEL0 = 200_000_000_000_000_000
MESSAGE0 = 300_000_000_000_000_000
USER0 = 400_000_000_000_000_000
PERSON = USER0 - 1  # the person seated in --seated games
WRITE_CHUNK = 1_000  # games a transaction while the database is filled
MARGIN = 5.0  # real seconds between moving the due games and the first of them
PROBES = 200  # person_games calls measured
COMMANDS = 100  # /kasino games commands measured
START = Clock().now().timestamp()  # SimCord's virtual "now" when a Discord starts


@dataclass
class Seen:
    """What one process measured."""

    shard: int
    start: float = 0.0  # s, wall: its whole start
    cog_load: float = 0.0  # s, wall
    deadlines: int = 0  # games its timers hold after the start
    rss_start: int = 0  # bytes its start added
    timers_bytes: int = 0  # its timers' dict and heap
    cpu_wait: float = 0.0  # s of its loop thread's CPU while nothing is due
    due: dict[int, float] = field(default_factory=dict)  # due game id -> its deadline
    moved: float = 0.0  # s, wall: saving and scheduling its due games
    late: dict[int, float] = field(default_factory=dict)  # due game id -> lateness (s)
    cpu_due: float = 0.0  # s of its loop thread's CPU over the window with fires
    person_ms: list[float] = field(default_factory=list)
    person_rows: int | None = None  # None: no storage.person_games
    command_ms: list[float] = field(default_factory=list)  # /kasino games, wall
    command_games: int = 0  # games its first answer lists


@dataclass
class Shared:
    """What the two processes and the main thread share."""

    games: int
    due: set[int]
    wait: float
    clocks: dict[int, float] = field(default_factory=dict)
    timed: dict[int, float] = field(default_factory=dict)  # thread id -> cog_load seconds
    traced: int = 0  # bytes tracemalloc saw allocated and kept while nothing was due
    process_cpu: float = 0.0
    rss_wait: int = 0
    rss_before: int = 0


def rss() -> int:
    """This interpreter's resident memory, in bytes (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096


def timers_size(held: timers.Timers) -> int:
    """Roughly what a Timers holds: its dict and heap, their tuples and floats."""
    heap, deadlines = held._heap, held._deadlines
    each = sys.getsizeof((0.0, 0)) + sys.getsizeof(0.0) + sys.getsizeof(1 << 40)
    return sys.getsizeof(heap) + sys.getsizeof(deadlines) + len(heap) * each


def time_cog_load(shared: Shared) -> None:
    """Each process's Kasino cog's ``cog_load``, timed (by the thread that runs it). The
    extension's module is loaded afresh by each bot, so discord.py's ``Cog._inject`` (the
    cog's commands added, then its ``cog_load``) is what is wrapped."""
    inject = commands.Cog._inject

    async def timed(self: commands.Cog, *args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        result = await inject(self, *args, **kwargs)
        if type(self).__name__ == "Kasino":
            shared.timed[threading.get_ident()] = time.perf_counter() - began
        return result

    commands.Cog._inject = timed  # type: ignore[method-assign]


# ------------------------------------------------------------------- the database


def waiting(game: Game, started: float) -> Game:
    """The game with its turn started at ``started`` and its notice sent: its deadline is
    the warning's (bot.correspondence.clock)."""
    clock = {**turn_clock(started, game.options.move_seconds), "noticed": True}
    game.extra = {**game.extra, "clock": clock}
    game.deadline, game.timer = next_step(clock, started)
    return game


def seated_games(games: int, seated: int) -> set[int]:
    """The games the person sits in: spread over the servers."""
    step = max(1, games // seated)
    return {n * step for n in range(min(seated, games))}


async def fill(url: str, args: argparse.Namespace) -> None:
    """Write the games: copies of one dealt match, each in its server and channel, its
    table posted, its turn started within the last 17 hours (its warning due 1 to 18
    hours after the start)."""
    storage = await Storage.open(url)
    try:
        config = Config(token=None, db_path=url)
        service = GameService(storage, config, seed=args.seed)
        pace = GameOptions(pace="1d")
        template = service.dealt_table(1, 1, [Seat(1, "a"), Seat(2, "b")], pace, at=START)
        rng = random.Random(args.seed)
        person = seated_games(args.games, args.seated)
        batch: list[Any] = []
        for n in range(args.games):
            game = copy.copy(template)  # one match shared: only the row's columns differ
            game.guild_id = (GUILD0 + n % args.servers) << 22
            game.channel_id = CHANNEL0 + n
            game.message_id = MESSAGE0 + n
            first = PERSON if n in person else USER0 + 2 * n
            game.seats = [Seat(first, "p"), Seat(USER0 + 2 * n + 1, "q")]
            game.host_id = first
            waiting(game, START - rng.uniform(0, 17 * 3600))
            batch += game_steps(game, START)
            if len(batch) >= WRITE_CHUNK or n == args.games - 1:
                await storage.write(batch)
                batch = []
    finally:
        await storage.close()


# ------------------------------------------------------------------- a process


async def one_process(
    url: str, shard: int, shared: Shared, meet: Callable[[], Any], startup: threading.Lock
) -> Seen:
    """One shard process: start, wait, take its due games' fires, read a person's games."""
    loop = asyncio.get_running_loop()
    seen = Seen(shard)
    config = Config(
        token=None, db_path=url, turn_seconds=3600, round_pause=0, computer_pause=0.1,
        hard_budget_ms=10, shard_count=SHARDS, shard_ids=(shard,),
    )  # fmt: skip

    async def together() -> None:  # the loop runs on while this process waits for the other
        await loop.run_in_executor(None, meet)

    with startup:  # one process starts at a time (SimCord's start-up timeout)
        before, began = rss(), time.perf_counter()
        bot = make_bot(config, seed=shard)
        # SimCord waits in real time for the loop's timers due within its settle timeout:
        # under asyncpg's 300 s idle-connection check, as in ladder_tables.py
        running = simcord.run(bot, settle_timeout=120, strict_sync=False)
        env = await running.__aenter__()
        seen.start = time.perf_counter() - began
        seen.rss_start = rss() - before
        if shard:
            distinct_ids(env)
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_exit(running.__aexit__)
        cog: Any = bot.get_cog("Kasino")
        seen.cog_load = shared.timed[threading.get_ident()]
        seen.deadlines = cog.timers.count()
        seen.timers_bytes = timers_size(cog.timers)
        # one calendar: both clocks are moved to the later one's time
        shared.clocks[shard] = env.now().timestamp()
        await together()
        await env.advance_time(max(shared.clocks.values()) - shared.clocks[shard])
        await waiting_window(seen, shared, together)
        await read_person(cog, seen)
        await list_command(cog, env, seen)
        await due_window(cog, env, seen, shared, together)
        await together()
        await bot.close_storage()
    return seen


async def waiting_window(seen: Seen, shared: Shared, together: Callable[[], Any]) -> None:
    """``--wait`` real seconds with nothing due: the CPU and memory it costs."""
    if seen.shard == 0:
        shared.rss_before = rss()
        tracemalloc.start()
        shared.process_cpu = time.process_time()
    await together()
    cpu = time.thread_time()
    await asyncio.sleep(shared.wait)
    seen.cpu_wait = time.thread_time() - cpu
    await together()
    if seen.shard == 0:
        shared.process_cpu = time.process_time() - shared.process_cpu
        shared.traced = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        shared.rss_wait = rss() - shared.rss_before
    await together()


async def due_window(
    cog: Any, env: simcord.Env, seen: Seen, shared: Shared, together: Callable[[], Any]
) -> None:
    """This process's due games get a warning within the next ``--wait`` seconds (saved
    and scheduled as a move would); each fire's lateness is noted."""
    if seen.shard == 0:  # the timers' clock: the virtual one, running in real time
        virtual, real = env.now().timestamp(), time.perf_counter()
        timers.now = lambda: virtual + (time.perf_counter() - real)  # type: ignore[assignment]
    await together()
    handler = cog.timers._handler

    async def noted(game_id: int, deadline: float) -> None:
        if game_id in seen.due:
            seen.late[game_id] = timers.now() - deadline
        await handler(game_id, deadline)

    cog.timers._handler = noted
    rng = random.Random(seen.shard)
    mine = sorted(g for g in shared.due if cog.timers.pending(g))
    cpu, began = time.thread_time(), time.perf_counter()
    first = timers.now() + MARGIN
    await asyncio.gather(
        *(move_due(cog, g, first + rng.uniform(0, shared.wait), seen) for g in mine)
    )
    seen.moved = time.perf_counter() - began
    await asyncio.sleep(max(0.0, first + shared.wait + 3.0 - timers.now()))
    seen.cpu_due = time.thread_time() - cpu
    await together()


async def move_due(cog: Any, game_id: int, warn: float, seen: Seen) -> None:
    """The game's warning moved to ``warn`` (its turn's end a quarter of a day after)."""
    async with cog.games.session(game_id) as game:
        clock = dict(game.extra["clock"])
        span = float(clock["ends"]) - float(clock["warn"])
        clock["warn"], clock["ends"] = warn, warn + span
        game.extra["clock"] = clock
        game.deadline, game.timer = next_step(clock, warn)
        await cog.games.save(game)
        cog.timers.schedule(game.id, game.deadline)
        seen.due[game_id] = game.deadline


async def read_person(cog: Any, seen: Seen) -> None:
    """``storage.person_games`` for the person seated in ``--seated`` games (shard 0's
    process only: the query reads every server's)."""
    storage = cog.games.storage
    if seen.shard != 0 or not hasattr(storage, "person_games"):
        return
    for _ in range(PROBES):
        began = time.perf_counter()
        rows = await storage.person_games(PERSON)
        seen.person_ms.append((time.perf_counter() - began) * 1000)
    seen.person_rows = len(rows)


async def list_command(cog: Any, env: simcord.Env, seen: Seen) -> None:
    """``/kasino games`` typed by the person seated in ``--seated`` games, in a server of
    shard 0's Discord (their games' servers are not on it: the list names none of them):
    the person's seats and index rows are given the member's id first."""
    if seen.shard != 0 or getattr(cog, "games_list", None) is None:
        return
    guild = env.create_guild("Home", shard_id=0)
    channel = guild.create_text_channel("home")
    member = guild.add_member(env.create_user("person"))
    storage = cog.games.storage
    await storage.write(
        [
            Statement(
                "UPDATE games SET seats = REPLACE(seats, ?, ?), host_id = ? WHERE id IN"
                " (SELECT game_id FROM game_players WHERE user_id = ?)",
                (str(PERSON), str(member.id), member.id, PERSON),
            ),
            Statement("UPDATE game_players SET user_id = ? WHERE user_id = ?", (member.id, PERSON)),
        ]
    )
    for n in range(COMMANDS):
        began = time.perf_counter()
        result = await member.slash(channel, "kasino games")
        seen.command_ms.append((time.perf_counter() - began) * 1000)
        if n == 0:
            answer = result.response
            text = " ".join(str(e.description or "") for e in answer.embeds) if answer else ""
            seen.command_games = text.count("<t:")  # each listed game shows its clock


# ------------------------------------------------------------------- the report


def report(args: argparse.Namespace, seen: list[Seen], shared: Shared, filled: float) -> None:
    """Print the figures (the module docstring)."""
    mib = 1 / (1 << 20)
    print(
        f"{args.games} correspondence games (1 day a move) over {args.servers} servers on"
        f" {SHARDS} shard processes, PostgreSQL; written in {filled:.1f} s"
    )
    for s in seen:
        print(
            f"(a) shard {s.shard}: cog_load {s.cog_load:.2f} s, whole start {s.start:.2f} s,"
            f" {s.deadlines} deadlines scheduled; start-up RSS +{s.rss_start * mib:.1f} MiB,"
            f" timers hold {s.timers_bytes * mib:.2f} MiB"
        )
    cpus = ", ".join(f"shard {s.shard} {s.cpu_wait * 1000:.0f} ms" for s in seen)
    print(
        f"(b) {args.wait:g} s of waiting (nothing due): loop thread CPU {cpus};"
        f" interpreter CPU {shared.process_cpu * 1000:.0f} ms"
        f" ({shared.process_cpu / args.wait * 100:.2f} % of a core);"
        f" memory allocated and kept meanwhile {shared.traced / 1024:.0f} KiB (tracemalloc),"
        f" RSS {shared.rss_wait * mib:+.1f} MiB"
    )
    person = next((s for s in seen if s.person_rows is not None), None)
    if person is None:
        print("(c) not measured: this storage has no person_games (helper games' /kasino games)")
    else:
        ms = person.person_ms
        print(
            f"(c) storage.person_games for a person in {args.seated} games"
            f" ({person.person_rows} rows): p50 {quantile(ms, 0.5):.1f} ms,"
            f" p99 {quantile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms over {len(ms)} calls"
        )
    if person is not None and person.command_ms:
        ms = person.command_ms
        print(
            f"(c) /kasino games (its first page shows {person.command_games} clocks), typed"
            f" through SimCord: p50 {quantile(ms, 0.5):.1f} ms, p99 {quantile(ms, 0.99):.1f} ms,"
            f" max {max(ms):.1f} ms over {len(ms)} commands (wall)"
        )
    late = [v for s in seen for v in s.late.values()]
    due = sum(len(s.due) for s in seen)
    missed = due - len(late)
    moved = ", ".join(f"shard {s.shard} {len(s.due)} in {s.moved:.2f} s" for s in seen)
    cpus = ", ".join(f"shard {s.shard} {s.cpu_due * 1000:.0f} ms" for s in seen)
    print(
        f"(d) {due} warnings due over {args.wait:g} s (saved and scheduled: {moved}):"
        f" lateness p50 {quantile(late, 0.5) * 1000:.1f} ms, p99"
        f" {quantile(late, 0.99) * 1000:.1f} ms, max {max(late, default=0) * 1000:.1f} ms;"
        f" {missed} did not fire, {sum(1 for v in late if v > 1.0)} more than 1 s late;"
        f" loop thread CPU over the window {cpus}"
    )


def run(args: argparse.Namespace, server_url: str) -> None:
    """One run on a fresh database of the server."""
    # the due games' channels are not on the simulated Discords: each warning's post is
    # refused (404, one HTTP exchange as a real post) and dropped, said here only once
    logging.getLogger("cogs.play.outbox").setLevel(logging.ERROR)
    url = asyncio.run(fresh_database(server_url, "correspondence"))
    for function, (positional, named) in settle_defaults(0.001):  # as the bot tests poll
        function.__defaults__, function.__kwdefaults__ = positional, named
    began = time.perf_counter()
    asyncio.run(fill(url, args))
    filled = time.perf_counter() - began
    due = set(random.Random(args.seed + 1).sample(range(1, args.games + 1), args.due))
    shared = Shared(args.games, due, args.wait)
    time_cog_load(shared)
    seen = run_processes(
        lambda shard, meet, startup, _: one_process(url, shard, shared, meet, startup),
        timeout=900,
    )
    report(args, seen, shared, filled)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--servers", type=int, default=500)
    parser.add_argument("--seated", type=int, default=50)
    parser.add_argument("--due", type=int, default=500)
    parser.add_argument("--wait", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default=None, help="postgresql://… (default: a throwaway one)")
    args = parser.parse_args()
    on_server(lambda url: run(args, url), args.db)


if __name__ == "__main__":
    main()
