"""``hard`` against ``normal`` in the building games: ``python tests/benchmarks/building_hard.py``.

Mirrored deals, one round each: deal ``k`` of a variant is played twice with the seats
swapped, so the luck of the deal cancels out. Prints per variant ``hard``'s points minus
``normal``'s (the sum over the rounds, and per round), the rounds ``hard`` won, lost and
tied, and ``hard``'s CPU milliseconds per decision (``time.thread_time``: the machine is
shared; median, p95, max; decisions with a single legal move left out). The last column
is a digest of every move chosen: with the same seeds it changes only if a move does, so
two runs before and after an engine change show whether ``hard`` chose differently.

``--pairs N`` deal pairs per variant (default 4), ``--workers`` processes (default 2),
``--variants`` some of the building games.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.ai import choose_move
from bot.engine import Round, rules_for

BUILDING = ["casino", "royal", "mulle-glimne", "south-african", "swazi", "sotho"]


def play_round(task: tuple[str, int, int]) -> dict:
    """Deal ``pair`` of ``variant``; ``hard`` sits in seat ``half`` (``normal`` in the other)."""
    variant, pair, half = task
    rules = rules_for(variant)
    rnd = Round.deal(rules, 2, seed=f"building-hard/{pair}")
    times: list[float] = []
    moves: list[str] = []
    decision = 0
    while not rnd.is_over:
        seat = rnd.to_move
        level = "hard" if seat == half else "normal"
        several = rnd.moves.count() > 1
        start = time.thread_time()
        move = choose_move(rnd, seat, level, seed=(pair, half, decision))
        ms = (time.thread_time() - start) * 1000
        if level == "hard" and several:
            times.append(ms)
        moves.append(str(move))
        rnd.play(move)
        decision += 1
    totals = [score.total for score in rnd.score()]
    return {
        "variant": variant,
        "pair": pair,
        "half": half,
        "margin": totals[half] - totals[1 - half],
        "times": times,
        "moves": moves,
    }


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=4, help="deal pairs per variant")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--variants", nargs="*", default=BUILDING)
    args = parser.parse_args()
    pairs = range(args.pairs)
    tasks = [(v, pair, half) for v in args.variants for pair in pairs for half in (0, 1)]
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        records = list(pool.imap(play_round, tasks, chunksize=1))
    print(f"hard vs normal, building games, {args.pairs} mirrored deal pairs (one round each):")
    print(
        f"  {'variant':<15}{'margin':>7}{'/round':>8}{'W-L-T':>9}"
        f"{'ms median':>11}{'p95':>8}{'max':>8}{'decisions':>11}  moves digest"
    )
    for variant in args.variants:
        mine = [r for r in records if r["variant"] == variant]
        margin = sum(r["margin"] for r in mine)
        wins = sum(r["margin"] > 0 for r in mine)
        losses = sum(r["margin"] < 0 for r in mine)
        ties = len(mine) - wins - losses
        times = [t for r in mine for t in r["times"]]
        digest = hashlib.sha256(repr([r["moves"] for r in mine]).encode()).hexdigest()[:12]
        print(
            f"  {variant:<15}{margin:>7}{margin / len(mine):>8.2f}{f'{wins}-{losses}-{ties}':>9}"
            f"{statistics.median(times):>11.1f}{percentile(times, 0.95):>8.1f}"
            f"{max(times):>8.1f}{len(times):>11}  {digest}"
        )
    print(f"({len(tasks)} rounds in {time.perf_counter() - started:.0f} s wall)")


if __name__ == "__main__":
    main()
