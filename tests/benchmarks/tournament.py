"""Mirrored tournaments between computer players and the PIMC baseline.

``python tests/benchmarks/tournament.py --matches 200 hard-baseline normal-baseline``

Players: ``easy``, ``normal``, ``hard`` (``bot.ai.choose_move``) and ``baseline``
(``tests/benchmarks/pimc.py``); and two that cheat, to measure what the hidden cards are
worth: ``hands`` is ``hard``'s search told the other players' hands (the deck's order
still sampled), ``oracle`` told every card, the deck's order too.

Match pair ``k`` deals with seed ``k`` twice, the second time with the sides swapped, so
luck of the deal cancels out. Each finished match is appended to ``--out`` as one JSON line
(``--resume`` skips those already there; ``--summary`` prints the table from such a file
without playing). ``--calibrate N`` times ``hard`` and the baseline on the decisions of a
few matches instead.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.ai import choose_move, hard
from bot.ai.stop import Stop
from bot.ai.view import SeatView
from bot.engine import Card, Match, Round, rules_for

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pimc
from ai import Pairing, wilson

PLAYERS = ("easy", "normal", "hard", "baseline", "hands", "oracle")


PAIRINGS = {
    "hard-baseline": Pairing("hard", "baseline"),
    "finnish-hard-baseline": Pairing("hard", "baseline", variant="finnish"),
    "teams-hard-baseline": Pairing("hard", "baseline", players=4, teams=True),
    "hard-normal": Pairing("hard", "normal"),
    "finnish-hard-normal": Pairing("hard", "normal", variant="finnish"),
    "teams-hard-normal": Pairing("hard", "normal", players=4, teams=True),
    "normal-baseline": Pairing("normal", "baseline"),
    "finnish-normal-baseline": Pairing("normal", "baseline", variant="finnish"),
    "teams-normal-baseline": Pairing("normal", "baseline", players=4, teams=True),
    "baseline-easy": Pairing("baseline", "easy"),
    "hands-baseline": Pairing("hands", "baseline"),
    "oracle-baseline": Pairing("oracle", "baseline"),
}


@dataclass(frozen=True)
class Config:
    budget: float | None
    worlds: int | None  # None: pimc.DEFAULT_WORLDS, or pimc.TEAMS_WORLDS with 4 players


def seats_of(pairing: Pairing, half: int) -> list[str]:
    """Seat players: the first-named plays side ``half`` (seat 0/1, or team 0/1)."""
    sides = [pairing.first, pairing.second]
    if half:
        sides.reverse()
    return [sides[seat % 2] for seat in range(pairing.players)]


def decide(player: str, round, seat: int, seed: tuple, config: Config):
    if player == "baseline":
        rng = random.Random(repr(seed))
        worlds = config.worlds
        if worlds is None:
            worlds = pimc.TEAMS_WORLDS if round.players == 4 else pimc.DEFAULT_WORLDS
        return pimc.choose(round, seat, rng, worlds=worlds)
    if player in ("hands", "oracle"):
        return told(round, seat, seed, config, deck=player == "oracle")
    budget = config.budget if player == "hard" else None
    return choose_move(round, seat, player, seed=seed, budget_ms=budget)


@dataclass(frozen=True)
class Told:
    """Worlds for ``hard``'s search that hold the true hands of ``round``, and with
    ``deck`` the deck in its true order (without, the deck's cards shuffled)."""

    round: Round
    deck: bool

    def sample(self, view: SeatView, rng: random.Random, hidden: list[Card]) -> Round:
        world = view.sample(rng, hidden)
        world.hands = [list(hand) for hand in self.round.hands]
        world.deck = list(self.round.deck)
        if not self.deck:
            rng.shuffle(world.deck)
        return world


def told(round: Round, seat: int, seed: tuple, config: Config, deck: bool):
    """``hard``'s move, searched over worlds that hold the hidden cards it is told."""
    view = SeatView.of(round, seat)
    stop = Stop.counted(hard.budget_for(view, config.budget))
    worlds = Told(round, deck)
    return hard.search(view, random.Random(repr(seed)), stop, worlds)[0][1]


def play_match(task: tuple[str, int, int, Config]) -> dict:
    """One match: pairing ``name``, deal pair ``pair``, half 0 or 1 (sides swapped)."""
    name, pair, half, config = task
    pairing = PAIRINGS[name]
    rules = rules_for(pairing.variant, target=pairing.target, teams=pairing.teams)
    match = Match.start(rules, pairing.players, seed=f"deal/{pair}")
    seats = seats_of(pairing, half)
    times: dict[str, list[float]] = {p: [] for p in set(seats)}
    decision = 0
    started = time.perf_counter()
    while not match.is_over:
        round = match.round
        seat = round.to_move
        player = seats[seat]
        choices = len(round.legal_moves(limit=1))
        start = time.perf_counter()
        move = decide(player, round, seat, (pair, half, decision), config)
        ms = (time.perf_counter() - start) * 1000
        if choices > 1:
            times[player].append(round_ms(ms))
        match.play(move)
        decision += 1
    return {
        "pairing": name,
        "pair": pair,
        "half": half,
        "budget": config.budget,
        "worlds": config.worlds,
        "first_won": match.winner == half,
        "scores": list(match.banked),
        "rounds": len(match.round_scores),
        "decisions": decision,
        "seconds": round_ms(time.perf_counter() - started),
        "times": times,
    }


def round_ms(value: float) -> float:
    return float(f"{value:.3f}")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summarize(records: list[dict]) -> None:
    """Print one line per pairing (and configuration) from finished matches."""
    groups: dict[tuple, list[dict]] = {}
    for record in records:
        key = (record["pairing"], record.get("budget"), record.get("worlds"))
        groups.setdefault(key, []).append(record)
    for (name, budget, worlds), group in sorted(groups.items(), key=lambda g: str(g[0])):
        pairing = PAIRINGS[name]
        n = len(group)
        wins = sum(r["first_won"] for r in group)
        low, high = wilson(wins, n)
        halves: dict[int, list[bool]] = {}
        for r in group:
            halves.setdefault(r["pair"], []).append(r["first_won"])
        full = [h for h in halves.values() if len(h) == 2]
        split = sum(h[0] != h[1] for h in full)
        both_first = sum(h[0] and h[1] for h in full)
        both_second = sum(not h[0] and not h[1] for h in full)
        config = f"budget {budget} worlds {worlds}"
        print(
            f"{name} ({pairing.label}; {config}): {pairing.first} wins {wins}/{n} = "
            f"{wins / n:.1%} [{low:.1%}, {high:.1%}]"
        )
        print(
            f"  deal pairs: {len(full)} complete, {split} split 1-1, "
            f"{both_first} both to {pairing.first}, {both_second} both to {pairing.second}"
        )
        times: dict[str, list[float]] = {}
        for r in group:
            for player, samples in r["times"].items():
                times.setdefault(player, []).extend(samples)
        for player, samples in sorted(times.items()):
            if samples:
                print(
                    f"  {player:<8} ms/decision median {statistics.median(samples):7.1f}  "
                    f"p95 {percentile(samples, 0.95):7.1f}  max {max(samples):7.1f}  "
                    f"({len(samples)} decisions)"
                )


def load(path: Path) -> list[dict]:
    if not path.exists():
        return []
    records = []
    for line in path.read_text().splitlines():
        if line.strip():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                continue  # a line cut short by a killed run
    return records


def calibrate(decisions: int, config: Config) -> None:
    """Time ``hard`` and the baseline on the same positions (Swedish, 2 players)."""
    rules = rules_for("swedish", target=16)
    samples: dict[str, list[float]] = {"hard": [], "baseline": []}
    number = 0
    while len(samples["hard"]) < decisions:
        match = Match.start(rules, 2, seed=f"calibrate/{number}")
        step = 0
        while not match.is_over and len(samples["hard"]) < decisions:
            round = match.round
            seat = round.to_move
            if len(round.legal_moves(limit=1)) > 1:
                for player in ("hard", "baseline"):
                    start = time.perf_counter()
                    decide(player, round, seat, (number, 0, step), config)
                    samples[player].append((time.perf_counter() - start) * 1000)
            # Alternate who moves the game on, so positions come from both styles of play.
            mover = ("hard", "normal")[step % 2]
            match.play(
                choose_move(round, seat, mover, seed=(number, step), budget_ms=config.budget)
            )
            step += 1
        number += 1
    for player, values in samples.items():
        print(
            f"{player:<8} median {statistics.median(values):7.1f}  p95 "
            f"{percentile(values, 0.95):7.1f}  max {max(values):7.1f} ms  ({len(values)} decisions)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pairings", nargs="*", help=f"some of: {' '.join(PAIRINGS)}")
    parser.add_argument("--matches", type=int, default=100, help="matches per pairing (even)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", type=float, default=None, help="hard's budget_ms")
    parser.add_argument(
        "--baseline-worlds",
        type=int,
        default=None,
        help=f"default {pimc.DEFAULT_WORLDS}, with 4 players {pimc.TEAMS_WORLDS}",
    )
    parser.add_argument("--out", type=Path, default=None, help="append results here (JSONL)")
    parser.add_argument("--resume", action="store_true", help="skip matches already in --out")
    parser.add_argument("--summary", type=Path, default=None, help="print a JSONL file's table")
    parser.add_argument("--calibrate", type=int, default=0, help="time N decisions instead")
    args = parser.parse_args()
    config = Config(args.budget, args.baseline_worlds)
    if args.summary:
        summarize(load(args.summary))
        return
    if args.calibrate:
        calibrate(args.calibrate, config)
        return
    if args.matches % 2:
        parser.error("--matches must be even (each deal is played twice, mirrored)")
    unknown = set(args.pairings) - set(PAIRINGS)
    if unknown:
        parser.error(f"unknown pairings {' '.join(sorted(unknown))}")
    names = args.pairings or list(PAIRINGS)
    done: set[tuple] = set()
    if args.resume and args.out:
        for r in load(args.out):
            if r.get("budget") == config.budget and r.get("worlds") == config.worlds:
                done.add((r["pairing"], r["pair"], r["half"]))
    tasks = [
        (name, pair, half, config)
        for name in names
        for pair in range(args.matches // 2)
        for half in (0, 1)
        if (name, pair, half) not in done
    ]
    records = []
    started = time.perf_counter()
    out = args.out.open("a") if args.out else None
    try:
        if args.workers > 1:
            with Pool(args.workers) as pool:
                for record in pool.imap_unordered(play_match, tasks, chunksize=1):
                    records.append(record)
                    if out:
                        out.write(json.dumps(record) + "\n")
                        out.flush()
        else:
            for task in tasks:
                record = play_match(task)
                records.append(record)
                if out:
                    out.write(json.dumps(record) + "\n")
                    out.flush()
    finally:
        if out:
            out.close()
    if args.out:
        records = [
            r
            for r in load(args.out)
            if r["pairing"] in names
            and r.get("budget") == config.budget
            and r.get("worlds") == config.worlds
        ]
    summarize(records)
    print(f"({len(tasks)} matches played in {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
