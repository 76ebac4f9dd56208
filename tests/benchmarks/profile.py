"""Benchmark: how fast a profile answers over a big history (a script, not a test).

    python tests/benchmarks/profile.py [--matches 100000] [--players 300] [--runs 300]
    python tests/benchmarks/profile.py --db postgresql://user@host/empty_db

It fills a database (a new SQLite file in a temporary folder, or the empty PostgreSQL
database given) with ``--matches`` finished matches in one server (two to four players,
a tenth against a computer, a fifth of them Finnish Kasino), with their results, lineups,
ratings and rating changes, the way the bot stores them. The players are drawn unevenly
(the busiest plays in about a tenth of all matches), as in a real server. Then it times
each query of ``/kasino profile`` (and the whole profile, ``/kasino versus`` and the
rating board) for random players and for the busiest, and prints the median and p99 of
each in milliseconds. Speed is measured here, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.records import ratings
from bot.storage import Statement, Storage
from bot.storage.copy import insert_statements
from cogs.records.profiles import ProfileFlow

GUILD = 1 << 40
VARIANTS = ("swedish", "swedish", "swedish", "swedish", "finnish")


def fill_rows(matches: int, players: int, seed: int) -> dict[str, list[tuple[Any, ...]]]:
    """The rows of ``matches`` finished matches."""
    rng = random.Random(seed)
    weights = [1 / (n + 1) ** 0.8 for n in range(players)]
    users = [10_000 + n for n in range(players)]
    games, results, changes = [], [], []
    held: dict[tuple[str, str, int], list[float]] = {}
    seqs: dict[tuple[str, str], int] = {}
    at = 1.7e9
    for game in range(1, matches + 1):
        at += rng.uniform(5, 60)
        variant = rng.choice(VARIANTS)
        count = rng.choice((2, 2, 2, 3, 4))
        seated: list[int] = []
        while len(seated) < count:
            pick = rng.choices(users, weights)[0]
            if pick not in seated:
                seated.append(pick)
        computers = rng.random() < 0.1
        if computers:
            seated = seated[: max(1, count - 1)]
        keys = [f"u{u}" for u in seated] + (["c:normal"] if computers else [])
        points = [rng.randrange(0, 16) for _ in keys]
        winner = rng.randrange(len(keys))
        points[winner] = 16
        lineup = ratings.lineup_of(list(enumerate(keys)), points, winner)
        text = lineup.dumps()
        board = lineup.board
        games.append((game, GUILD, game, seated[0], "finished", "{}", "[]", None, 1, None,
                      None, None, None, "", "{}", at, at))  # fmt: skip
        seq = seqs[(variant, board)] = seqs.get((variant, board), 0) + 1
        for side, user in enumerate(seated):
            rounds = rng.randrange(1, 6)
            results.append((game, GUILD, variant, 16, user, side, int(side == winner),
                            points[side], rng.randrange(0, 4), at, int(computers), 0, rounds,
                            rng.randrange(0, rounds + 1), rng.randrange(0, rounds + 1),
                            rng.randrange(0, 2 * rounds), text))  # fmt: skip
            mu, sigma = held.get((variant, board, user), [25.0, 25 / 3])
            after = [mu + rng.uniform(-1, 1), max(1.0, sigma * 0.98)]
            held[(variant, board, user)] = after
            changes.append((game, GUILD, variant, board, user, seq, mu, sigma, *after, at))
    rated = [
        (GUILD, variant, board, user, mu, sigma, 10, 5, 0, at)
        for (variant, board, user), (mu, sigma) in held.items()
    ]
    return {"games": games, "results": results, "rating_changes": changes, "ratings": rated}


COLUMNS = {
    "games": "id guild_id channel_id host_id status options seats state version message_id"
    " ping_id deadline timer last_move extra created_at updated_at",
    "results": "game_id guild_id variant target user_id side won points tabbar finished_at"
    " vs_computer hinted rounds storan lillan aces lineup",
    "rating_changes": "game_id guild_id variant board user_id seq mu_before sigma_before"
    " mu_after sigma_after at",
    "ratings": "guild_id variant board user_id mu sigma matches wins hinted updated_at",
}


async def fill(storage: Storage, rows: dict[str, list[tuple[Any, ...]]]) -> None:
    """Write the rows, a table at a time in chunks (one transaction each)."""
    for table in ("games", "results", "rating_changes", "ratings"):
        columns = COLUMNS[table].split()
        steps = insert_statements(table, columns, rows[table])
        for start in range(0, len(steps), 40):
            await storage.write(steps[start : start + 40])
    if storage.shared:
        await storage.write(
            [
                Statement(
                    f"SELECT setval(pg_get_serial_sequence('{t}', 'id'), MAX(id)) FROM {t}",
                    returning=True,
                )
                for t in ("games", "results", "rating_changes")
            ]
        )
        await _vacuum(storage)
    else:
        await storage.write([Statement("ANALYZE")])


async def _vacuum(storage: Storage) -> None:
    """VACUUM ANALYZE (outside a transaction), as autovacuum would have done by now."""
    async with storage._pool.acquire() as conn:  # type: ignore[attr-defined]
        await conn.execute("VACUUM ANALYZE")


async def timed(job: Callable[[], Awaitable[Any]]) -> float:
    start = time.perf_counter()
    await job()
    return (time.perf_counter() - start) * 1000


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def measure(storage: Storage, players: int, runs: int, seed: int) -> None:
    rng = random.Random(seed + 1)
    flow = ProfileFlow(storage)
    busiest = 10_000
    jobs: dict[str, Callable[[int, int], Awaitable[Any]]] = {
        "totals (per game, people/computers)": lambda u, _: storage.player_totals(GUILD, u),
        "rating and rank": lambda u, _: storage.rating(GUILD, "swedish", u),
        "rating on the computers board": lambda u, _: storage.rating(
            GUILD, "swedish", u, computers=True
        ),
        "streaks": lambda u, _: storage.player_streaks(GUILD, u),
        "last five results": lambda u, _: storage.player_results(GUILD, u, None, 5),
        "rating picture (last 30 changes)": lambda u, _: storage.rating_history(
            GUILD, "swedish", u
        ),
        "names": lambda u, o: storage.recent_names(GUILD, [u, o]),
        "the whole profile": lambda u, _: flow.profile(GUILD, u, "x", None),
        "versus (head to head)": lambda u, o: storage.meetings(GUILD, u, o),
        "rating board page": lambda u, _: storage.rating_board(GUILD, "swedish"),
    }
    for who, pick in (
        ("random players", lambda: 10_000 + rng.randrange(players)),
        ("the busiest player", lambda: busiest),
    ):
        print(f"\n{who} ({runs} runs each): median / p99 ms")
        for name, job in jobs.items():
            times = []
            for _ in range(runs):
                user, other = pick(), 10_000 + rng.randrange(1, players)
                times.append(await timed(lambda j=job, u=user, o=other: j(u, o)))
            print(f"  {name:40} {statistics.median(times):7.2f} / {p99(times):7.2f}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default=None, help="an empty postgresql:// database")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        target = args.db or str(Path(folder) / "profile.db")
        storage = await Storage.open(target)
        try:
            started = time.perf_counter()
            rows = fill_rows(args.matches, args.players, args.seed)
            await fill(storage, rows)
            busiest = sum(1 for r in rows["results"] if r[4] == 10_000)
            print(
                f"{'PostgreSQL' if args.db else 'SQLite'}: {args.matches} matches,"
                f" {len(rows['results'])} results, {args.players} players (the busiest"
                f" in {busiest} matches), filled in {time.perf_counter() - started:.0f} s"
            )
            await measure(storage, args.players, args.runs, args.seed)
        finally:
            await storage.close()


if __name__ == "__main__":
    asyncio.run(main())
