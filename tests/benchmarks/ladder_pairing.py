"""How the ladder's pool pairs: ``python tests/benchmarks/ladder_pairing.py [--people 200]
[--minutes 20] [--runs 3] [--one-game] [--db postgresql://… | --postgres]``.

``--people`` people queue at random times over ``--minutes`` minutes (uniformly), with
random global ratings (normal, 1500 ± 200), each for a game: Swedish Kasino for 2 (60 %),
Finnish Kasino for 2 (15 %), Krypkasino for 3 (15 %), Casino for 4 (10 %); ``--one-game``:
all Swedish Kasino for 2. Each waits between 3 and 10 minutes (random) and then leaves if
still unpaired. Pairing runs as the cog would: on every join (that game) and every
:data:`TICK` seconds (every game with enough people waiting), through the real storage
(``Storage.pair``: one transaction), time simulated, the calls timed for real.

Prints, per run and over every run: the groups made and the people seated, those who
left unpaired, the waits of those seated (p50/p99), how many waited past the widening
(longer than ``bot.ladder.WIDEST_AFTER``, 100 s, when the window reaches its cap), the
rating gap of the groups (the highest rating minus the lowest; p50/p99) and the time a
``pair()`` call takes (p50/p99/max); then the waits per game over every run. SQLite by
default (a fresh file per run); ``--db`` a PostgreSQL server (a fresh database per run on
it); ``--postgres`` starts a throwaway one (tests/pg_server.py). Never asserted in the
tests.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.ladder import WIDEST_AFTER
from bot.storage import Storage
from bot.storage.ladder import QueueEntry
from tests.pg_server import fresh_database

TICK = 5.0  # seconds between the matcher's rounds over every game
GAMES = ((("swedish", 2), 60), (("finnish", 2), 15), (("krypkasino", 3), 15), (("casino", 4), 10))
SERVERS = 50


@dataclass
class Figures:
    """What one or more runs measured."""

    groups: int = 0
    seated: int = 0
    left: int = 0
    waits: list[float] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)
    calls: list[float] = field(default_factory=list)
    by_game: dict[str, list[float]] = field(default_factory=dict)  # the seated's waits

    def add(self, other: Figures) -> None:
        self.groups += other.groups
        self.seated += other.seated
        self.left += other.left
        self.waits += other.waits
        self.gaps += other.gaps
        self.calls += other.calls
        for game, waits in other.by_game.items():
            self.by_game.setdefault(game, []).extend(waits)


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of the values (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def people(count: int, minutes: float, one_game: bool, rng: random.Random) -> list[QueueEntry]:
    """The people who will queue, in the order they come."""
    games = [game for game, _ in GAMES]
    weights = [weight for _, weight in GAMES]
    made = []
    for user in range(1, count + 1):
        variant, players = ("swedish", 2) if one_game else rng.choices(games, weights)[0]
        guild = 1_000_000_000_000_000 + rng.randrange(SERVERS) * (1 << 22)
        rating = round(min(2300.0, max(700.0, rng.gauss(1500, 200))))
        at = rng.uniform(0, minutes * 60)
        made.append(
            QueueEntry(
                user,
                variant,
                players,
                guild,
                guild + user,
                "channel",
                f"p{user}",
                rating,
                at,
                locale="en",
            )
        )
    return sorted(made, key=lambda e: e.joined_at)


async def one_run(target: str, count: int, minutes: float, one_game: bool, seed: int) -> Figures:
    """Queue everyone, pair as the cog would, measure."""
    rng = random.Random(seed)
    storage = await Storage.open(target)
    figures = Figures()
    try:
        crowd = people(count, minutes, one_game, rng)
        # (time, order, kind, entry): joins, departures and the matcher's ticks
        events: list[tuple[float, int, str, QueueEntry | None]] = []
        for n, entry in enumerate(crowd):
            heapq.heappush(events, (entry.joined_at, n, "join", entry))
            patience = rng.uniform(180, 600)
            heapq.heappush(events, (entry.joined_at + patience, n, "leave", entry))
        end = minutes * 60 + 600
        ticks = int(end / TICK)
        for k in range(1, ticks + 1):
            heapq.heappush(events, (k * TICK, -1, "tick", None))
        seated: set[int] = set()

        async def pair(variant: str, players: int, now: float) -> None:
            start = time.perf_counter()
            groups = await storage.pair(variant, players, now)
            figures.calls.append(time.perf_counter() - start)
            for group in groups:
                figures.groups += 1
                figures.seated += len(group)
                figures.waits += [now - e.joined_at for e in group]
                game = f"{variant} for {players}"
                figures.by_game.setdefault(game, []).extend(now - e.joined_at for e in group)
                ratings = [e.rating for e in group]
                figures.gaps.append(max(ratings) - min(ratings))
                seated.update(e.user_id for e in group)

        while events:
            now, _, kind, entry = heapq.heappop(events)
            if kind == "join" and entry is not None:
                await storage.join_ladder(entry, now)
                await pair(entry.variant, entry.players, now)
            elif kind == "leave" and entry is not None:
                if entry.user_id not in seated and await storage.leave_ladder(entry.user_id):
                    figures.left += 1
            else:
                for (variant, players), waiting in (await storage.ladder_counts()).items():
                    if waiting >= players:
                        await pair(variant, players, now)
    finally:
        await storage.close()
    return figures


def report(title: str, f: Figures) -> None:
    """Print one run's (or all runs') figures."""
    past = sum(1 for w in f.waits if w > WIDEST_AFTER)
    ms = [c * 1000 for c in f.calls]
    print(
        f"{title}: {f.groups} groups, {f.seated} seated, {f.left} left unpaired;"
        f" wait p50 {quantile(f.waits, 0.5):.0f} s, p99 {quantile(f.waits, 0.99):.0f} s,"
        f" {past} seated after the widening (> {WIDEST_AFTER:.0f} s);"
        f" rating gap p50 {quantile(f.gaps, 0.5):.0f}, p99 {quantile(f.gaps, 0.99):.0f};"
        f" pair() {len(ms)} calls, p50 {statistics.median(ms):.2f} ms,"
        f" p99 {quantile(ms, 0.99):.2f} ms, max {max(ms):.2f} ms"
    )


def run_all(args: argparse.Namespace, db: str | None) -> None:
    """Every run on one backend, then the totals."""
    total = Figures()
    label = "PostgreSQL" if db else "SQLite"
    for run in range(args.runs):
        if db:
            target = asyncio.run(fresh_database(db, "ladder"))
            figures = asyncio.run(one_run(target, args.people, args.minutes, args.one_game, run))
        else:
            with tempfile.TemporaryDirectory(prefix="kasino-ladder-") as folder:
                target = str(Path(folder) / "k.db")
                figures = asyncio.run(
                    one_run(target, args.people, args.minutes, args.one_game, run)
                )
        report(f"{label} run {run + 1}", figures)
        total.add(figures)
    report(f"{label} all {args.runs} runs", total)
    for game, waits in sorted(total.by_game.items()):
        print(
            f"  {game}: {len(waits)} seated, wait p50 {quantile(waits, 0.5):.0f} s,"
            f" p99 {quantile(waits, 0.99):.0f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--one-game", action="store_true")
    parser.add_argument("--db", default=None, help="postgresql://… (default SQLite)")
    parser.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL")
    parser.add_argument("--durable", action="store_true", help="it flushes every commit")
    args = parser.parse_args()
    if args.postgres:
        from tests.pg_server import PostgresServer

        server = PostgresServer(durable=args.durable).start()
        try:
            run_all(args, server.database_url("postgres"))
        finally:
            server.stop()
        return
    run_all(args, args.db)


if __name__ == "__main__":
    main()
