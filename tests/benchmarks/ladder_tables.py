"""The ladder end to end on two shard processes: ``python tests/benchmarks/ladder_tables.py
[--people 200] [--servers 50] [--minutes 10] [--seed 1] [--db postgresql://…]``.

Two bot processes run shards 0 and 1 of 2 over one PostgreSQL database (``--db``: an
empty database on a server; by default a throwaway server is started, tests/pg_server.py).
As in tests/bot/test_shards.py each "process" is a thread with its own event loop and its
own SimCord Discord holding only its shard's servers (its half of ``--servers``), so a
table in another shard's server is posted by that shard's process, told by NOTIFY. The
two share one Python interpreter (and its GIL) on this machine: the wall-clock figures
are those of both processes on one core, an upper bound of two real processes' figures.

``--people`` people, each in a random server and a channel of their own, with a random
global Swedish Kasino rating (normal, 1500 ± 200, written into ``ratings`` for the GLOBAL
board before anyone queues), type ``/kasino queue`` at random times over ``--minutes``
minutes of virtual time, each through their own shard's Discord. Nobody leaves the queue.
The two processes keep one virtual clock: both step it by :data:`STEP` seconds and wait
for each other between steps (the bot's deliberate waits, the pairing rounds every 5 s and
the channels' budgets, pass on it); after the last queueing they run on for
``WIDEST_AFTER`` + 60 s. Nobody's turn runs out meanwhile (an hour a move): no game is
played, the tables are only posted.

Prints: pairs made, people left waiting, anyone seated twice; for the pairs made at the
second person's ``/kasino queue`` the time from that command to both tables posted
(wall clock, ms, p50/p99/max; and the most virtual time, which holds only the bot's
deliberate waits, such as a channel's budget, and the lockstep's step);
for the pairs a later pairing round made, the time from the second person's queueing to
both tables (virtual s) and from the game's making to both tables (wall, ms); the waits of
everyone seated (virtual s, p50/p99) and how many waited past the widening
(``bot.ladder.WIDEST_AFTER``); the rating gap of the pairs (p50/p99). Never asserted in the
tests.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import asyncpg
import simcord

from bot.client import make_bot
from bot.config import Config
from bot.ladder import WIDEST_AFTER
from bot.records.ratings import GLOBAL, PEOPLE, SCALE, START
from tests.benchmarks.shards import (
    ENVS,
    SHARDS,
    distinct_ids,
    on_server,
    quantile,
    run_processes,
    virtual_waits,
)
from tests.pg_server import fresh_database

STEP = 1.0  # virtual seconds the two processes step their clocks by, together
AFTER = WIDEST_AFTER + 60.0  # virtual seconds run after the last queueing


@dataclass
class Person:
    """One person who queues: where, when (virtual seconds into the run), how strong;
    what their process saw."""

    index: int
    server: int
    at: float
    rating: int
    user_id: int = 0
    channel_id: int = 0
    queued_real: float = 0.0  # perf_counter() as their /kasino queue was sent
    queued_virtual: float = 0.0  # their process's clock (epoch seconds) then
    at_once: bool = False  # paired by their own /kasino queue

    @property
    def shard(self) -> int:
        return self.server % SHARDS


@dataclass
class Seen:
    """What one process saw: the first table posted in each channel (wall, virtual)."""

    tables: dict[int, tuple[float, float]] = field(default_factory=dict)


def plan(count: int, servers: int, minutes: float, seed: int) -> list[Person]:
    """The people, in the order they queue."""
    rng = random.Random(seed)
    people = [
        Person(
            n,
            rng.randrange(servers),
            rng.uniform(0, minutes * 60),
            round(min(2300.0, max(700.0, rng.gauss(1500, 200)))),
        )
        for n in range(count)
    ]
    return sorted(people, key=lambda p: p.at)


def tables_seen(env: simcord.Env, seen: Seen) -> None:
    """Note the first table ("Your hand" button) posted in each channel."""

    def listener(event: str, payload: Any) -> None:
        if event != "MESSAGE_CREATE":
            return
        channel = int(payload.get("channel_id") or 0)
        if channel in seen.tables or "k:hand:" not in json.dumps(payload.get("components")):
            return
        seen.tables[channel] = (time.perf_counter(), env.now().timestamp())

    env.backend.subscribers.append(listener)


async def write_ratings(url: str, people: list[Person]) -> None:
    """Each person's global Swedish Kasino rating, as if they had played 10 matches."""
    conn = await asyncpg.connect(url)
    try:
        await conn.executemany(
            "INSERT INTO ratings (guild_id, variant, board, user_id, mu, sigma, matches, wins,"
            " hinted, updated_at) VALUES ($1, 'swedish', $2, $3, $4, 3.0, 10, 5, 0, 0)",
            [(GLOBAL, PEOPLE, p.user_id, 25 + (p.rating - START) / SCALE) for p in people],
        )
    finally:
        await conn.close()


async def one_process(
    url: str, shard: int, people: list[Person], meet: Any, startup: threading.Lock, clocks: dict
) -> Seen:
    """One shard process: its servers, its people's queueings at their times, in step
    with the other process."""
    loop = asyncio.get_running_loop()
    config = Config(
        token=None, db_path=url, turn_seconds=3600, round_pause=0, computer_pause=0.1,
        hard_budget_ms=10, shard_count=SHARDS, shard_ids=(shard,),
    )  # fmt: skip
    with startup:  # one process starts at a time (SimCord's start-up timeout)
        bot = make_bot(config, seed=shard)
        running = simcord.run(bot, settle_timeout=120, strict_sync=False)
        env = await running.__aenter__()
        ENVS[loop] = env
        if shard:
            distinct_ids(env)
    seen = Seen()

    async def together() -> None:  # the loop runs on while this process waits for the other
        await loop.run_in_executor(None, meet)

    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_exit(running.__aexit__)
        mine = [p for p in people if p.shard == shard]
        guilds: dict[int, Any] = {}
        reach: dict[int, tuple[Any, Any]] = {}
        for p in mine:
            if p.server not in guilds:
                guilds[p.server] = env.create_guild(f"Server {p.server}", shard_id=shard)
            guild = guilds[p.server]
            channel = guild.create_text_channel(f"p{p.index}")
            member = guild.add_member(env.create_user(f"p{p.index}"))
            p.user_id, p.channel_id = member.id, channel.id
            reach[p.index] = (member, channel)
        await write_ratings(url, mine)
        tables_seen(env, seen)
        # one calendar: both clocks are moved to the later one's time, and on a little
        clocks[shard] = env.now().timestamp()
        await together()
        await env.advance_time(max(clocks.values()) - clocks[shard] + 1.0)
        start = env.now().timestamp()
        await together()
        steps = int((max(p.at for p in people) + AFTER) / STEP) + 1
        queue = list(mine)
        for k in range(steps):
            while queue and queue[0].at < (k + 1) * STEP:
                p = queue.pop(0)
                member, channel = reach[p.index]
                p.queued_real, p.queued_virtual = time.perf_counter(), env.now().timestamp()
                await member.slash(channel, "kasino queue")
                p.at_once = await bot.storage.ladder_entry(p.user_id) is None
            await env.advance_time(start + (k + 1) * STEP - env.now().timestamp())
            await together()
        await env.settle()
        await together()
        await env.bot.close_storage()
    return seen


async def games_of(url: str) -> tuple[list[tuple[list[int], float]], list[int]]:
    """Every game made (its seats' user ids, when it was made: virtual epoch seconds), and
    the ratings of the people who still wait."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT seats, created_at FROM games ORDER BY id")
        waiting = await conn.fetch("SELECT rating FROM ladder_queue ORDER BY rating")
    finally:
        await conn.close()
    games = [([s["user_id"] for s in json.loads(r["seats"])], r["created_at"]) for r in rows]
    return games, [round(r["rating"]) for r in waiting]


def report(
    people: list[Person], seen: list[Seen], games: list[tuple[list[int], float]], waiting: list[int]
) -> None:
    """Print the figures (the module docstring)."""
    by_user = {p.user_id: p for p in people}
    tables: dict[int, tuple[float, float]] = {}
    for process in seen:
        tables.update(process.tables)
    seated = [u for users, _ in games for u in users]
    twice = len(seated) - len(set(seated))
    at_once_ms, at_once_v, later_v, later_ms, waits, gaps, missing = [], [], [], [], [], [], 0
    for users, made in games:
        group = [by_user[u] for u in users]
        shown = [tables.get(p.channel_id) for p in group]
        gaps.append(max(p.rating for p in group) - min(p.rating for p in group))
        waits += [made - p.queued_virtual for p in group]
        if None in shown:
            missing += 1
            continue
        second = max(group, key=lambda p: p.queued_virtual)
        posted_real = max(s[0] for s in shown)
        posted_virtual = max(s[1] for s in shown)
        if second.at_once:
            at_once_ms.append((posted_real - second.queued_real) * 1000)
            at_once_v.append(posted_virtual - second.queued_virtual)
        else:
            later_v.append(posted_virtual - second.queued_virtual)
            # the game's making, on the wall clock: when the later round ran is not kept,
            # so the first table's post stands for it (a lower bound of the delay)
            later_ms.append((posted_real - min(s[0] for s in shown)) * 1000)
    past = sum(1 for w in waits if w > WIDEST_AFTER)
    print(
        f"{len(games)} pairs ({len(seated)} seated), {len(waiting)} left waiting"
        f" (ratings {', '.join(map(str, waiting)) or '-'}),"
        f" {twice} seated twice, {missing} pairs with a table never posted"
    )
    print(
        f"paired at the second /kasino queue: {len(at_once_ms)}; that command to both tables"
        f" posted: wall p50 {quantile(at_once_ms, 0.5):.0f} ms, p99"
        f" {quantile(at_once_ms, 0.99):.0f} ms, max {max(at_once_ms, default=0):.0f} ms;"
        f" virtual max {max(at_once_v, default=0):.1f} s (the other process's clock may be"
        f" one {STEP:g} s step ahead)"
    )
    print(
        f"paired by a later pairing round: {len(later_v)}; second queueing to both tables"
        f" (virtual) p50 {quantile(later_v, 0.5):.0f} s, p99 {quantile(later_v, 0.99):.0f} s;"
        f" first table to the second (wall) p50 {quantile(later_ms, 0.5):.0f} ms, p99"
        f" {quantile(later_ms, 0.99):.0f} ms"
    )
    print(
        f"waits of the seated (virtual): p50 {quantile(waits, 0.5):.0f} s, p99"
        f" {quantile(waits, 0.99):.0f} s; {past} waited past the widening"
        f" (> {WIDEST_AFTER:.0f} s); rating gap p50 {quantile(gaps, 0.5):.0f},"
        f" p99 {quantile(gaps, 0.99):.0f}, max {max(gaps, default=0):.0f}"
    )


def run(args: argparse.Namespace, server_url: str) -> None:
    """One run on a fresh database of the server."""
    url = asyncio.run(fresh_database(server_url, "tables"))
    people = plan(args.people, args.servers, args.minutes, args.seed)
    virtual_waits()
    began = time.perf_counter()
    seen = run_processes(
        lambda shard, meet, startup, clocks: one_process(url, shard, people, meet, startup, clocks)
    )
    games, waiting = asyncio.run(games_of(url))
    print(
        f"{args.people} people, {args.servers} servers on {SHARDS} shard processes, queueing"
        f" over {args.minutes:g} min (virtual); run took {time.perf_counter() - began:.0f} s"
    )
    report(people, seen, games, waiting)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--servers", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default=None, help="postgresql://… (default: a throwaway one)")
    args = parser.parse_args()
    on_server(lambda url: run(args, url), args.db)


if __name__ == "__main__":
    main()
