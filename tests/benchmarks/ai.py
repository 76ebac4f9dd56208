"""Computer players' strength and speed: ``python tests/benchmarks/ai.py [--matches N]``.

Tournaments of whole matches with seats rotated (every other match the levels swap seats,
and the dealer moves each round as usual). Prints win rates with 95% Wilson intervals and
milliseconds per decision (median, max) per level. Matches run on ``--workers`` processes.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.ai import choose_move
from bot.engine import Match, rules_for


@dataclass(frozen=True)
class Pairing:
    """A tournament: ``first`` against ``second`` in one setting."""

    first: str
    second: str
    variant: str = "swedish"
    players: int = 2
    teams: bool = False
    target: int = 16

    @property
    def label(self) -> str:
        setting = f"{self.variant} {self.players}p" + (" teams" if self.teams else "")
        return f"{self.first} vs {self.second}, {setting} to {self.target}"


@dataclass
class Result:
    """What one match gave: whether ``first`` won, and decision times per level."""

    first_won: bool
    times: dict[str, list[float]] = field(default_factory=dict)


def levels_by_seat(pairing: Pairing, number: int) -> list[str]:
    """Seat levels for match ``number``: sides alternate, and swap every other match."""
    sides = [pairing.first, pairing.second]
    if number % 2:
        sides.reverse()
    if pairing.teams:
        return [sides[seat % 2] for seat in range(pairing.players)]
    return [sides[0], sides[1]] + [pairing.second] * (pairing.players - 2)


def play_match(task: tuple[Pairing, int]) -> Result:
    """One match of the pairing, numbered ``number`` (its seed)."""
    pairing, number = task
    rules = rules_for(pairing.variant, teams=pairing.teams, target=pairing.target)
    match = Match.start(rules, pairing.players, seed=f"{pairing.label}/{number}")
    seats = levels_by_seat(pairing, number)
    times: dict[str, list[float]] = {level: [] for level in set(seats)}
    decision = 0
    while not match.is_over:
        seat = match.round.to_move
        level = seats[seat]
        start = time.perf_counter()
        move = choose_move(match.round, seat, level, seed=(number, decision))
        times[level].append((time.perf_counter() - start) * 1000)
        match.play(move)
        decision += 1
    first_side = number % 2  # the side (seat 0 or 1, or team 0 or 1) playing ``first``
    return Result(match.winner == first_side, times)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def run(pairing: Pairing, matches: int, workers: int) -> dict[str, list[float]]:
    """Play the tournament and print its line; return the decision times per level."""
    started = time.perf_counter()
    tasks = [(pairing, number) for number in range(matches)]
    if workers > 1:
        with Pool(workers) as pool:
            results = pool.map(play_match, tasks, chunksize=1)
    else:
        results = [play_match(task) for task in tasks]
    wins = sum(r.first_won for r in results)
    low, high = wilson(wins, matches)
    times: dict[str, list[float]] = {}
    for result in results:
        for level, samples in result.times.items():
            times.setdefault(level, []).extend(samples)
    speed = "  ".join(
        f"{level} {statistics.median(s):.1f}/{max(s):.0f} ms" for level, s in sorted(times.items())
    )
    print(
        f"{pairing.label:<44} {pairing.first} wins {wins}/{matches} = {wins / matches:5.1%} "
        f"[{low:.1%}, {high:.1%}]   median/max {speed}   ({time.perf_counter() - started:.0f} s)",
        flush=True,
    )
    return times


BUILDING = ("casino", "royal", "swazi")  # issue 10's building games, 2 players to 21
BUILDING_PAIRS = ("hard-normal", "normal-easy")
PAIRINGS = {
    "hard-normal": Pairing("hard", "normal"),
    "normal-easy": Pairing("normal", "easy"),
    "teams-hard-normal": Pairing("hard", "normal", players=4, teams=True),
    "teams-normal-easy": Pairing("normal", "easy", players=4, teams=True),
    "finnish-hard-normal": Pairing("hard", "normal", variant="finnish"),
    "finnish-normal-easy": Pairing("normal", "easy", variant="finnish"),
    **{
        f"{variant}-{first}-{second}": Pairing(first, second, variant=variant, target=21)
        for variant in BUILDING
        for first, second in (pair.split("-") for pair in BUILDING_PAIRS)
    },
}
MAIN = ("hard-normal", "normal-easy", *(f"{v}-{p}" for v in BUILDING for p in BUILDING_PAIRS))


def main() -> None:
    """Run the tournaments named on the command line (all by default)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=200, help="matches per main pairing")
    parser.add_argument(
        "--side-matches",
        type=int,
        default=None,
        help="matches for the teams and Finnish pairings (default: half)",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("pairings", nargs="*", help=f"some of: {' '.join(PAIRINGS)}")
    args = parser.parse_args()
    unknown = set(args.pairings) - set(PAIRINGS)
    if unknown:
        parser.error(f"unknown pairings {' '.join(sorted(unknown))}")
    side = args.side_matches if args.side_matches is not None else max(1, args.matches // 2)
    all_times: dict[str, list[float]] = {}
    for name in args.pairings or PAIRINGS:
        count = args.matches if name in MAIN else side
        for level, samples in run(PAIRINGS[name], count, args.workers).items():
            all_times.setdefault(level, []).extend(samples)
    print("ms per decision, all tournaments:")
    for level, samples in sorted(all_times.items()):
        print(
            f"  {level:<7} median {statistics.median(samples):7.1f}   max {max(samples):7.1f}"
            f"   ({len(samples)} decisions)"
        )


if __name__ == "__main__":
    main()
