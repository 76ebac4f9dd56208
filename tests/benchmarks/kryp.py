"""Krypkasino strength and speed of the computer players, on mirrored deals.

``python tests/benchmarks/kryp.py --matches 60 --players 2 hard-normal normal-easy``

Match pair ``k`` is dealt with seed ``k`` twice, the second time with the levels' seats
swapped, so luck of the deal cancels out. With 2 players each level has a seat; with 4 or
6 (each for themselves) the two levels alternate round the table (seats 0, 2, 4 against
1, 3, 5), so the player before each seat is of the other level. Krypkasino's points are
penalties, so two things are measured, both for the first-named level:

- **match wins**: matches (to the default limit of 50) it wins, with the lowest total
  (with 4 or 6 players: one of its seats has the lowest total), with a 95% Wilson interval;
- **points per round**: the mean, per round played, of the other level's seats' mean
  round points minus its own (above zero: it takes fewer penalty points), with a 95%
  interval over the deal pairs (each pair's rounds averaged together, so every mirrored
  deal is one sample).

Also the milliseconds per decision of each level (median and worst; decisions with one
legal move are left out). Matches run on ``--workers`` processes; ``--out`` keeps a JSON
line per match (``--summary FILE`` prints the table from one; ``--from-pair`` adds deal
pairs to a file's).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai import wilson

from bot.ai import choose_move
from bot.engine import Match, rules_for

PAIRINGS = {"hard-normal": ("hard", "normal"), "normal-easy": ("normal", "easy")}


def seats_of(first: str, second: str, players: int, half: int) -> list[str]:
    """Levels by seat: alternating round the table, swapped in the second half."""
    sides = [first, second] if not half else [second, first]
    return [sides[seat % 2] for seat in range(players)]


def play_match(task: tuple[str, int, int, int, float | None]) -> dict:
    """One match: pairing ``name``, ``players``, deal pair ``pair``, half 0 or 1."""
    name, players, pair, half, budget = task
    first, second = PAIRINGS[name]
    match = Match.start(rules_for("krypkasino"), players, seed=f"kryp/{players}/{pair}")
    seats = seats_of(first, second, players, half)
    times: dict[str, list[float]] = {level: [] for level in set(seats)}
    decision = 0
    while not match.is_over:
        round_ = match.round
        seat = round_.to_move
        level = seats[seat]
        choices = len(round_.legal_moves(limit=1))
        start = time.perf_counter()
        move = choose_move(round_, seat, level, seed=(pair, half, decision), budget_ms=budget)
        if choices > 1:
            times[level].append(round((time.perf_counter() - start) * 1000, 3))
        match.play(move)
        decision += 1
    rounds = [[score.total for score in scores] for scores in match.round_scores]
    return {
        "pairing": name,
        "players": players,
        "pair": pair,
        "half": half,
        "budget": budget,
        "first_won": seats[match.winner] == first,
        "rounds": rounds,
        "banked": list(match.banked),
        "times": times,
    }


def margin(record: dict) -> list[float]:
    """Per round: the second level's seats' mean points minus the first level's."""
    first, second = PAIRINGS[record["pairing"]]
    seats = seats_of(first, second, record["players"], record["half"])
    out = []
    for points in record["rounds"]:
        mine = [p for p, level in zip(points, seats, strict=True) if level == first]
        theirs = [p for p, level in zip(points, seats, strict=True) if level == second]
        out.append(statistics.mean(theirs) - statistics.mean(mine))
    return out


def summarize(records: list[dict]) -> None:
    """One block per pairing and table size."""
    groups: dict[tuple, list[dict]] = {}
    for record in records:
        groups.setdefault((record["pairing"], record["players"], record["budget"]), []).append(
            record
        )
    for (name, players, budget), group in sorted(groups.items(), key=lambda g: str(g[0])):
        first, second = PAIRINGS[name]
        n = len(group)
        wins = sum(r["first_won"] for r in group)
        low, high = wilson(wins, n)
        share = 1 / players if players > 2 else 0.5
        seats_first = players // 2 if players > 2 else 1
        chance = seats_first * share
        print(
            f"{name} krypkasino {players}p (budget {budget}): {first} wins {wins}/{n} = "
            f"{wins / n:.1%} [{low:.1%}, {high:.1%}] of matches (its seats hold {chance:.0%}"
            " of the chances when equal)"
        )
        pairs: dict[int, list[float]] = {}
        rounds = 0
        for record in group:
            per_round = margin(record)
            rounds += len(per_round)
            pairs.setdefault(record["pair"], []).extend(per_round)
        means = [statistics.mean(v) for v in pairs.values() if v]
        mean = statistics.mean(means)
        half = 1.96 * statistics.stdev(means) / math.sqrt(len(means)) if len(means) > 1 else 0
        print(
            f"  points per round, {second} minus {first}: {mean:+.2f} "
            f"[{mean - half:+.2f}, {mean + half:+.2f}] (95%, {len(means)} deal pairs, "
            f"{rounds} rounds)"
        )
        times: dict[str, list[float]] = {}
        for record in group:
            for level, samples in record["times"].items():
                times.setdefault(level, []).extend(samples)
        for level, samples in sorted(times.items()):
            if samples:
                print(
                    f"  {level:<7} ms/decision median {statistics.median(samples):6.1f}  "
                    f"max {max(samples):6.1f}  ({len(samples)} decisions)"
                )


def load(path: Path) -> list[dict]:
    """The records of a JSONL file (a line cut short by a killed run is skipped)."""
    records = []
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return records


def main() -> None:
    """Play the pairings named on the command line (both by default)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pairings", nargs="*", help=f"some of: {' '.join(PAIRINGS)}")
    parser.add_argument("--matches", type=int, default=60, help="matches per pairing (even)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 4, 6))
    parser.add_argument("--from-pair", type=int, default=0, help="first deal pair (to add more)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", type=float, default=None, help="hard's budget_ms")
    parser.add_argument("--out", type=Path, default=None, help="append results here (JSONL)")
    parser.add_argument("--summary", type=Path, default=None, help="print a JSONL file's table")
    args = parser.parse_args()
    if args.summary:
        summarize(load(args.summary))
        return
    if args.matches % 2:
        parser.error("--matches must be even (each deal is played twice, mirrored)")
    unknown = set(args.pairings) - set(PAIRINGS)
    if unknown:
        parser.error(f"unknown pairings {' '.join(sorted(unknown))}")
    tasks = [
        (name, args.players, pair, half, args.budget)
        for name in args.pairings or PAIRINGS
        for pair in range(args.from_pair, args.from_pair + args.matches // 2)
        for half in (0, 1)
    ]
    started = time.perf_counter()
    records = []
    out = args.out.open("a") if args.out else None
    try:
        with Pool(args.workers) as pool:
            for record in pool.imap_unordered(play_match, tasks, chunksize=1):
                records.append(record)
                if out:
                    out.write(json.dumps(record) + "\n")
                    out.flush()
    finally:
        if out:
            out.close()
    summarize(records)
    print(f"({len(tasks)} matches in {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
