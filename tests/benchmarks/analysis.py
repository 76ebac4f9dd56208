"""Benchmark: the analysis of one seat's moves in a whole match, per variant.

Run as a script (it is not a test)::

    python tests/benchmarks/analysis.py [--budget 150] [--target 16] [--variants swedish,casino]
    python tests/benchmarks/analysis.py --calibrate [--budget 150] [--play-budget 75]

The default mode plays one match of every variant (the safe move for every seat, seeded,
to ``--target``, by default the bot's), then analyses seat 0's chosen moves as the bot does (one
:func:`review_move` per move, each replaying the record to its position), and prints per
variant the moves analysed, the per-move median and worst time, and the whole-match total,
in wall-clock time and in the process's CPU time (steadier on a shared machine).

``--calibrate`` (with ``--level normal`` or ``easy``: their moves instead, to compare)
measures what the verdict thresholds rest on: matches in which ``hard``
plays every seat (play's budget, its own seed), their moves reviewed by the analysis
(another seed, the analysis budget), and the distribution of the costs it finds in
hard's own moves (share of same move, median, p90, p95, p99, worst, and how many land
in each verdict); then the same moves reviewed a second time with other worlds, to show
the evaluation's own noise (the cost difference between two reviews of one move).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.analysis import VERDICTS, moves_to_analyse, review_move, review_round, verdict_for
from bot.models import VARIANT_NAMES
from tests.analysis.matches import play_match

# players per variant in the timing run (the common table; Casino also in teams of two)
SETUPS = {
    "swedish": (2, False),
    "overspader": (2, False),
    "finnish": (3, False),
    "mulle": (2, False),
    "casino": (4, True),
    "royal": (2, False),
    "mulle-glimne": (2, False),
    "swazi": (4, True),
    "sotho": (2, False),
    "south-african": (2, False),
    "krypkasino": (4, False),
}
CALIBRATION = (
    ("swedish", 2, False),
    ("swedish", 4, True),
    ("overspader", 3, False),
    ("finnish", 3, False),
    ("mulle", 2, False),
    ("casino", 2, False),
    ("casino", 4, True),
    ("royal", 3, False),
    ("mulle-glimne", 2, False),
    ("swazi", 4, True),
    ("sotho", 2, False),
    ("south-african", 2, False),
    ("krypkasino", 3, False),
    ("krypkasino", 5, False),
)


def timing(variants: list[str], budget: float, target: int | None) -> None:
    """Time the analysis of seat 0 in one match of each variant."""
    goal = "the default target" if target is None else target
    print(f"analysis of seat 0's moves in one match to {goal}, budget {budget:g} ms a move")
    print(f"{'variant':<15}{'players':>8}{'moves':>7}{'median ms':>11}{'worst ms':>10}"
          f"{'total s':>9}{'cpu median':>12}{'cpu worst':>11}{'cpu total':>11}")  # fmt: skip
    for variant in variants:
        players, teams = SETUPS[variant]
        record = play_match(variant, players, f"bench-{variant}", target=target, teams=teams)
        times, cpu = [], []
        for step in moves_to_analyse(record, 0):
            start, start_cpu = time.perf_counter(), time.process_time()
            review_move(record, step, 0, budget_ms=budget)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
        print(f"{variant:<15}{players:>8}{len(times):>7}{statistics.median(times):>11.0f}"
              f"{max(times):>10.0f}{sum(times) / 1000:>9.1f}{statistics.median(cpu):>12.0f}"
              f"{max(cpu):>11.0f}{sum(cpu) / 1000:>11.1f}", flush=True)  # fmt: skip


def calibrate(budget: float, play_budget: float, target: int, level: str = "hard") -> None:
    """Review the moves of ``level`` (hard's own, by default) and print the distribution
    of their costs."""
    costs: list[float] = []
    noise: list[float] = []
    same = 0
    for variant, players, teams in CALIBRATION:
        record = play_match(variant, players, f"cal-{variant}-{players}", [level] * players,
                            target=target, teams=teams, budget_ms=play_budget)  # fmt: skip
        mine: list[float] = []
        for step in moves_to_analyse(record, 0):
            review = review_move(record, step, 0, budget_ms=budget)
            mine.append(review.cost)
            same += review.best == review.played
            again = _again(record, step, budget)
            noise.append(abs(again - review.cost))
            if review.verdict not in ("best", "fine") or abs(again - review.cost) >= 0.3:
                print(f"  step {step}: {review.played} (best {review.best}) cost"
                      f" {review.cost:.2f}, with other worlds {again:.2f}")  # fmt: skip
        costs.extend(mine)
        print(f"{variant:<12}{players}p: {len(mine)} moves, worst {max(mine):.2f},"
              f" {_counts(mine)}", flush=True)  # fmt: skip
    costs.sort()
    print(f"{level}'s moves: {len(costs)}, hard's move again: {same / len(costs):.0%}")
    for name, q in (("median", 0.5), ("p90", 0.9), ("p95", 0.95), ("p99", 0.99)):
        print(f"  {name}: {costs[min(len(costs) - 1, int(q * len(costs)))]:.2f}")
    print(f"  worst: {costs[-1]:.2f}; verdicts {_counts(costs)}")
    noise.sort()
    print(f"noise (|cost - cost with other worlds|): median {statistics.median(noise):.2f}, "
          f"p90 {noise[int(0.9 * len(noise))]:.2f}, worst {noise[-1]:.2f}")  # fmt: skip


def _again(record: object, step: int, budget: float) -> float:
    """The cost of the same move reviewed with other worlds (another key)."""
    before = record.state_at(step - 1).game.match.round  # type: ignore[attr-defined]
    move = record.moves[step - 1]  # type: ignore[attr-defined]
    key = f"noise/{random.Random(step).random()}"
    review = review_round(before, move.seat, move.move, step=step, round_number=move.round,
                          key=key, budget_ms=budget)  # fmt: skip
    return review.cost


def _counts(costs: list[float]) -> dict[str, int]:
    counts = dict.fromkeys(VERDICTS, 0)
    for cost in costs:
        counts[verdict_for(cost)] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=None, help="ms a move (default: the bot's)")
    parser.add_argument("--target", type=int, default=None)
    parser.add_argument("--variants", default=",".join(VARIANT_NAMES))
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--play-budget", type=float, default=75.0)
    parser.add_argument("--level", default="hard", help="whose moves --calibrate reviews")
    args = parser.parse_args()
    from bot.analysis import DEFAULT_BUDGET_MS

    budget = DEFAULT_BUDGET_MS if args.budget is None else args.budget
    if args.calibrate:
        calibrate(budget, args.play_budget, args.target or 5, args.level)
    else:
        timing(args.variants.split(","), budget, args.target)


if __name__ == "__main__":
    main()
