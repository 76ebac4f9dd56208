"""How long a Swiss round takes to pair: ``python tests/benchmarks/pairing.py [--runs N]``.

For 16, 64 and 128 players at 2-player tables (and 4-player tables), plays ``--rounds``
Swiss rounds (5) with random results and times each round's pairing (``next_round``: the
standings, the byes and the search for the fewest repeated meetings). Prints the median
and the worst time per field over every round of every run, and the most repeated meetings
any round had (0: none). ``--rounds 15`` (the most an organiser may set) is the hard case:
at 4-player tables repeated meetings become unavoidable and the search reaches its bound.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.models import GameOptions
from bot.tournaments.decide import bye_result, result_of
from bot.tournaments.model import Decided, Entrant, Format, Result, Settings
from bot.tournaments.pairing import next_round
from bot.tournaments.points import side_of_seat, sides_at
from bot.tournaments.swiss import met_counts


def one_run(players: int, size: int, rounds: int, seed: int) -> tuple[list[float], int]:
    """Pair and play ``rounds`` rounds; the pairing times (s) and the most repeated
    meetings in a round."""
    rng = random.Random(seed)
    settings = Settings(GameOptions(), Format.SWISS, size, rounds=rounds)
    people = [Entrant(i, f"p{i}", rating=rng.uniform(0, 40)) for i in range(1, players + 1)]
    results: list[Result] = []
    times = []
    worst_repeats = 0
    for round in range(1, rounds + 1):
        start = time.perf_counter()
        pairing = next_round(settings, people, results, round, seed=str(seed))
        times.append(time.perf_counter() - start)
        before = met_counts(results)
        repeats = sum(
            before.get(frozenset((a, b)), 0)
            for t in pairing.tables
            for i, a in enumerate(t.people)
            for b in t.people[i + 1 :]
        )
        worst_repeats = max(worst_repeats, repeats)
        for table in pairing.tables:
            if table.bye:
                results.append(bye_result(table))
                continue
            sides = sides_at(settings.game, len(table.players))
            scores = [rng.randint(0, 20) for _ in range(sides)]
            winner = max(range(sides), key=scores.__getitem__)
            results.append(
                result_of(
                    table,
                    list(table.players),
                    lambda seat, sides=sides: side_of_seat(seat, sides),
                    scores,
                    lowest_wins=False,
                    winner=winner,
                    decided=Decided.PLAYED,
                    game_id=None,
                )
            )
    return times, worst_repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="tournaments per field")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for size in (2, 4):
        for players in (16, 64, 128):
            times: list[float] = []
            repeats = 0
            for run in range(args.runs):
                found, worst = one_run(players, size, args.rounds, run)
                times += found
                repeats = max(repeats, worst)
            print(
                f"{players:4d} players, {size}-player tables, {args.rounds} rounds x {args.runs}: "
                f"median {statistics.median(times) * 1000:7.1f} ms, "
                f"worst {max(times) * 1000:7.1f} ms, most repeated meetings in a round {repeats}"
            )


if __name__ == "__main__":
    main()
