"""Benchmark: puzzle generation time.

Run as a script (it is not a test)::

    python tests/benchmarks/puzzles.py [--games 12] [--server 200] [--days 20]

It prints the median and the worst of:

- extraction from one finished game, per family (Nordic games, Krypkasino, the building
  games): :func:`bot.puzzles.extract.best_candidate` on a two-player match between
  ``normal`` computers (the replay, then an exact solve of every last-deal position);
  ``--games`` games per family, the family's variants in turn, and how many had a puzzle;
- the day's choice for a server with ``--server`` finished games of the family
  (:func:`bot.puzzles.today.choose`: the server's games in the day's order, each of the
  first few loaded as a record from its stored rows and searched until one has a puzzle,
  else the built-in set), for ``--days`` different days. The rows are held in memory as
  the storage returns them (the database's part is a few indexed reads; the CPU work is
  the replays and solves, which the bot runs in its shared worker processes);
- the day's puzzle once chosen: :func:`bot.puzzles.today.todays` reading the stored row
  from an SQLite database (what every later ``/kasino puzzle`` of the day costs).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.engine import Match
from bot.models import Game, GameOptions, Seat, Status
from bot.moves import auto_move
from bot.puzzles.builtin import played_record
from bot.puzzles.extract import best_candidate
from bot.puzzles.families import FAMILIES, variants_of
from bot.puzzles.today import choose, todays
from bot.storage import Storage, StoredMove


def stored_game(game_id: int, variant: str, seed: str) -> tuple[Game, list[StoredMove]]:
    """A finished two-player match (the safe move each turn) and its move log as stored."""
    options = GameOptions(variant=variant).for_players(2)
    match = Match.start(options.rules(2), 2, seed=seed)
    rows = []
    while not match.is_over:
        move = auto_move(match.round, seed)
        seat, number = match.round.to_move, match.rounds_played + 1
        match.play(move)
        rows.append(
            StoredMove(len(rows) + 1, seat, str(move.card), "", False, 1.0, number,
                       json.dumps(move.to_dict()))
        )  # fmt: skip
    seats = [Seat(100, "a"), Seat(101, "b")]
    return Game(game_id, 1, 2, 100, options, seats, status=Status.FINISHED, match=match), rows


class Server:
    """A server's finished games, read as the storage reads them."""

    def __init__(self, games: list[tuple[Game, list[StoredMove]]]) -> None:
        self.games = {game.id: (game, rows) for game, rows in games}

    async def finished_games_of(self, guild_id: int, variants: Any, limit: int) -> list[int]:
        return sorted(self.games, reverse=True)[:limit]

    async def get_game(self, game_id: int) -> Game:
        return self.games[game_id][0]

    async def game_moves(self, game_id: int) -> list[StoredMove]:
        return self.games[game_id][1]

    async def finished_at(self, game_id: int) -> float:
        return 1.0


def line(label: str, times: list[float], extra: str = "") -> None:
    ms = [t * 1000 for t in times]
    print(
        f"{label:<44} median {statistics.median(ms):8.1f} ms   worst {max(ms):8.1f} ms"
        f"   (n={len(ms)}){extra}",
        flush=True,
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--server", type=int, default=200)
    parser.add_argument("--days", type=int, default=20)
    args = parser.parse_args()

    print("extraction from one finished game (replay + exact solves):")
    for family in FAMILIES:
        variants = variants_of(family)
        times, found = [], 0
        for number in range(args.games):
            record = played_record(variants[number % len(variants)], f"bench-{number}")
            start = time.perf_counter()
            puzzle = best_candidate(record)
            times.append(time.perf_counter() - start)
            found += puzzle is not None
        line(f"  {family}", times, f"   {found}/{args.games} games had a puzzle")

    print(f"the day's choice for a server with {args.server} finished games:")
    for family in FAMILIES:
        variants = variants_of(family)
        server = Server(
            [
                stored_game(n, variants[n % len(variants)], f"server-{n}")
                for n in range(1, args.server + 1)
            ]
        )
        times, builtins = [], 0
        for day in range(args.days):
            start = time.perf_counter()
            puzzle = await choose(server, 1, family, f"2026-03-{day + 1:02}")
            times.append(time.perf_counter() - start)
            builtins += "set" in puzzle.source
        line(f"  {family}", times, f"   {builtins}/{args.days} days fell back to the set")

    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(Path(folder) / "bench.db")
        try:
            await todays(storage, 1, "nordic", "2026-03-01", 1.0)
            times = []
            for _ in range(200):
                start = time.perf_counter()
                await todays(storage, 1, "nordic", "2026-03-01", 1.0)
                times.append(time.perf_counter() - start)
            line("the day's puzzle once chosen (SQLite read)", times)
        finally:
            await storage.close()


if __name__ == "__main__":
    asyncio.run(main())
