"""Benchmark: the analysis of a two-player last deal, per game.

Run as a script (it is not a test)::

    python tests/benchmarks/last_deal.py [--matches 3] [--variants casino,swazi] [--level normal]
    python tests/benchmarks/last_deal.py --nodes 10000 --cards 12  # other bounds, to compare

Plays ``--matches`` two-player rounds of every game (``--level`` for both seats, seeded)
and reviews every move of each round's last deal, both seats', as the analysis does
(:func:`review_round` on the position before the move, the bot's budget). Prints per
game: the most cards in hands, the moves reviewed, how many were valued exactly (the rest
were too big for the exact search and estimated), the median and worst time of one move's
review (wall clock, then the process's CPU time, steadier on a shared machine), the worst
exact one and the worst estimated one, and the median and worst time to review a whole
last deal (every move of it). A full last deal holds 8 cards in hands in Casino, Royal
Casino, Glimne's Mulle and the Nordic games (9 or 10 in Mulle), 20 in South African
Casino and 24 in Swazi and Sotho.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.ai import choose_move
from bot.analysis import review as review_module
from bot.analysis import review_round
from bot.engine import Round, rules_for
from bot.models import VARIANT_NAMES


def last_deal_reviews(variant: str, seed: int, level: str) -> list[tuple[float, float, bool, int]]:
    """Review every move of the last deal of one seeded round between two ``level``
    players: ``(wall ms, cpu ms, exact, cards in hands)`` per move."""
    round_ = Round.deal(rules_for(variant), 2, dealer=seed % 2, seed=f"last-deal/{seed}")
    timed = []
    step = 0
    while not round_.is_over:
        seat = round_.to_move
        # a seeded search counts its work and never reads the clock: the same deal anywhere
        move = choose_move(round_, seat, level, seed=(seed, step), budget_ms=20)
        step += 1
        if not round_.deck:
            start, start_cpu = time.perf_counter(), time.process_time()
            review = review_round(round_, seat, move, step=step, round_number=1,
                                  key=f"bench/{seed}/{step}")  # fmt: skip
            wall = (time.perf_counter() - start) * 1000
            cpu = (time.process_time() - start_cpu) * 1000
            timed.append((wall, cpu, review.exact, sum(map(len, round_.hands))))
        round_.play(move)
    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3, help="rounds (last deals) per game")
    parser.add_argument("--variants", default=",".join(VARIANT_NAMES))
    parser.add_argument("--level", default="normal", help="who plays the matches")
    parser.add_argument(
        "--nodes",
        type=int,
        default=None,
        help="the exact search's node limit (default: the bot's EXACT_NODES)",
    )
    parser.add_argument(
        "--cards",
        type=int,
        default=None,
        help="the most cards in hands searched exactly (default: EXACT_CARDS)",
    )
    args = parser.parse_args()
    if args.nodes is not None:
        review_module.EXACT_NODES = args.nodes
    if args.cards is not None:
        review_module.EXACT_CARDS = args.cards
    print(
        f"exact search: at most {review_module.EXACT_CARDS} cards in hands,"
        f" {review_module.EXACT_NODES} positions"
    )
    print(f"two-player last deals, {args.matches} per game ({args.level} players), every move"
          " reviewed at the bot's budget; times in ms")  # fmt: skip
    print(f"{'game':<15}{'cards':>6}{'moves':>6}{'exact':>6}{'median':>8}{'worst':>8}"
          f"{'cpu med':>8}{'cpu max':>8}{'max exact':>10}{'max est.':>9}"
          f"{'deal med':>10}{'deal max':>10}")  # fmt: skip
    for variant in args.variants.split(","):
        moves: list[tuple[float, float, bool, int]] = []
        deals: list[float] = []
        for seed in range(args.matches):
            timed = last_deal_reviews(variant, seed, args.level)
            moves.extend(timed)
            deals.append(sum(wall for wall, _, _, _ in timed))
        walls = [wall for wall, _, _, _ in moves]
        cpus = [cpu for _, cpu, _, _ in moves]
        exact = [wall for wall, _, is_exact, _ in moves if is_exact]
        estimated = [wall for wall, _, is_exact, _ in moves if not is_exact]
        print(f"{variant:<15}{max(c for *_, c in moves):>6}{len(moves):>6}{len(exact):>6}"
              f"{statistics.median(walls):>8.0f}{max(walls):>8.0f}"
              f"{statistics.median(cpus):>8.0f}{max(cpus):>8.0f}"
              f"{max(exact, default=0):>10.0f}{max(estimated, default=0):>9.0f}"
              f"{statistics.median(deals):>10.0f}{max(deals):>10.0f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
