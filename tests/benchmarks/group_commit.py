"""Benchmark: does group commit pay, on SQLite and on PostgreSQL? (issue 32)

Run as a script (it is not a test)::

    python tests/benchmarks/group_commit.py [--games 30] [--bursts 40] [--db postgresql://…]

``--games`` games each save a move (the game's row checked on its version, the move, a
table queued in the outbox: what a committing click writes) at the same instant, ``--bursts``
times; it prints each save's time to its commit (p50 / p99 / max) and the transactions run.

SQLite compares its group commit with one transaction per write (``MAX_GROUP`` 1, as before
issue 32). PostgreSQL compares its pool (each write its own transaction on its own
connection, as the bot does) with a group commit written here for the comparison: writes
queued while a group runs make the next group, one transaction on one connection, each
write in its own savepoint. Speed is measured here, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.models import Game, GameOptions, Seat
from bot.storage import MoveRecord, Storage
from bot.storage import sqlite as sqlite_storage
from bot.storage.records import Outgoing
from bot.storage.sql import Step
from tests.pg_server import fresh_database


def grouped_postgres(storage: Any) -> dict[str, int]:
    """Make a :class:`PostgresStorage` group its writes (for this comparison only);
    returns the counts of groups and writes it runs."""
    from bot.storage import postgres

    counts = {"groups": 0, "writes": 0}
    waiting: list[tuple[Sequence[Step], asyncio.Future[Any]]] = []
    draining: list[asyncio.Task[None]] = []

    async def drain() -> None:
        while waiting:
            members = waiting[:]
            del waiting[:]
            counts["groups"] += 1
            counts["writes"] += len(members)
            outcomes: list[Any] = []
            try:
                async with storage._pool.acquire() as conn, conn.transaction():
                    for steps, _ in members:
                        try:
                            async with conn.transaction():  # a savepoint
                                outcomes.append(
                                    [await postgres._run_statement(conn, s) for s in steps]
                                )
                        except Exception as error:
                            outcomes.append(error)
            except Exception as error:
                outcomes = [error] * len(members)
            for (_, future), outcome in zip(members, outcomes, strict=True):
                if isinstance(outcome, BaseException):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)
        draining.clear()

    async def write(steps: Sequence[Step]) -> list[Any]:
        future = asyncio.get_running_loop().create_future()
        waiting.append((steps, future))
        if not draining:
            draining.append(asyncio.create_task(drain()))
        return await future

    storage.write = write
    return counts


async def measure(target: str, games: int, bursts: int, mode: str) -> None:
    """Open ``target``, create the games, then time ``bursts`` bursts of saves."""
    storage = await Storage.open(target)
    transactions: list[int] = []
    try:
        created = []
        for n in range(games):
            game = Game(0, 1, 10_000 + n, 1, GameOptions(), [Seat(1, "anna"), Seat(2, "bo")])
            created.append(await storage.create_game(game, now=1.0))
        counts = None
        if mode == "grouped" and not isinstance(storage, sqlite_storage.SQLiteStorage):
            counts = grouped_postgres(storage)
        run = sqlite_storage._run_group

        def counted(conn: Any, members: Any) -> Any:
            transactions.append(len(members))
            return run(conn, members)

        sqlite_storage._run_group = counted
        saved: list[float] = []

        async def save(game: Game) -> None:
            begun = time.perf_counter()
            game.version += 1
            game.outbox = [Outgoing(game.id, 1, game.channel_id, "{}", True)]
            move = MoveRecord(0, "H5", (), round=1)
            await storage.save_game(game, now=2.0, move=move)
            game.outbox = []
            saved.append(time.perf_counter() - begun)

        started = time.perf_counter()
        for _ in range(bursts):
            await asyncio.gather(*(save(g) for g in created))
        elapsed = time.perf_counter() - started
        sqlite_storage._run_group = run
        if counts is not None:
            transactions = [counts["writes"] // max(counts["groups"], 1)] * counts["groups"]
        elif not isinstance(storage, sqlite_storage.SQLiteStorage):
            transactions = [1] * len(saved)
        saved.sort()
        p99 = saved[min(len(saved) - 1, int(len(saved) * 0.99))]
        kind = "SQLite" if isinstance(storage, sqlite_storage.SQLiteStorage) else "PostgreSQL"
        print(f"{kind}, {mode}: {len(saved)} saves in {elapsed:.2f} s"
              f" ({len(saved) / elapsed:.0f}/s), {len(transactions)} transactions;"
              f" a save to its commit p50 {statistics.median(saved) * 1000:.1f} ms,"
              f" p99 {p99 * 1000:.1f} ms, max {saved[-1] * 1000:.1f} ms")  # fmt: skip
    finally:
        await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--bursts", type=int, default=40)
    parser.add_argument("--db", default=None, help="postgresql://… (empty; default SQLite)")
    args = parser.parse_args()
    if args.db:
        for mode in ("pool", "grouped", "pool", "grouped"):
            asyncio.run(_fresh_postgres(args.db, args.games, args.bursts, mode))
        return
    for mode in ("grouped", "one transaction per write", "grouped", "one transaction per write"):
        sqlite_storage.MAX_GROUP = 1 if mode != "grouped" else 64
        with tempfile.TemporaryDirectory(prefix="kasino-bench-") as folder:
            asyncio.run(measure(str(Path(folder) / "k.db"), args.games, args.bursts, mode))


async def _fresh_postgres(url: str, games: int, bursts: int, mode: str) -> None:
    """Each run in a new database on ``url``'s server (the games' channels are reused)."""
    await measure(await fresh_database(url, "g"), games, bursts, mode)


if __name__ == "__main__":
    main()
