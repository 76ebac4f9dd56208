"""Shared pieces of the tournament tests: random results and brute-force references."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from fractions import Fraction

from bot.tournaments.decide import bye_result, result_of
from bot.tournaments.model import Decided, Entrant, Result, Table
from bot.tournaments.points import side_of_seat


def entrants(count: int, rng: random.Random, *, rated: bool = True) -> list[Entrant]:
    """``count`` entrants with ids 1.., random ratings (or none)."""
    return [
        Entrant(i, f"p{i}", rating=float(rng.randint(0, 40)) if rated else 0.0)
        for i in range(1, count + 1)
    ]


def play(
    table: Table, rng: random.Random, *, sides: int | None = None, lowest_wins: bool = False
) -> Result:
    """A random result for ``table``: a finished match (a winner) or one stopped at the
    deadline, perhaps with someone timing out."""
    if table.bye:
        return bye_result(table)
    count = len(table.players)
    sides = count if sides is None else sides
    scores = [rng.randint(0, 12) for _ in range(sides)]
    finished = rng.random() < 0.7
    winner = None
    if finished:
        winner = (min if lowest_wins else max)(range(sides), key=scores.__getitem__)
    people = list(table.people)
    timed_out = [rng.choice(people)] if people and rng.random() < 0.1 else []
    decided = Decided.FORFEIT if timed_out else Decided.PLAYED if finished else Decided.SCORE
    return result_of(
        table,
        list(table.players),
        lambda seat: side_of_seat(seat, sides),
        scores,
        lowest_wins=lowest_wins,
        winner=winner,
        timed_out=timed_out,
        decided=decided,
        game_id=rng.randint(1, 10**6),
    )


def partitions(items: Sequence[int], sizes: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to split ``items`` into blocks of the sizes (a multiset; blocks unordered)."""
    if not items:
        if not sizes:
            yield []
        return
    first, rest = items[0], items[1:]
    for size in sorted(set(sizes)):
        remaining = list(sizes)
        remaining.remove(size)
        for companions in itertools.combinations(rest, size - 1):
            left = [x for x in rest if x not in companions]
            for tail in partitions(left, remaining):
                yield [(first, *companions), *tail]


def cost_of(met: Sequence[Sequence[int]], block: Sequence[int]) -> int:
    """Repeated meetings at one table."""
    return sum(met[a][b] for a, b in itertools.combinations(block, 2))


def best_seating(
    met: Sequence[Sequence[int]],
    had: Sequence[int],
    sizes: Sequence[int],
    aside: int,
    *,
    together: bool,
) -> tuple[tuple[int, ...], int]:
    """By brute force: the least (sorted byes of those set aside, repeated meetings) over
    every choice of ``aside`` players and every split of the rest into ``sizes``."""
    n = len(met)
    best: tuple[tuple[int, ...], int] | None = None
    for group in itertools.combinations(range(n), aside):
        profile = tuple(sorted(had[i] for i in group))
        base = cost_of(met, group) if together else 0
        rest = [i for i in range(n) if i not in group]
        for split in partitions(rest, sizes):
            key = (profile, base + sum(cost_of(met, block) for block in split))
            if best is None or key < best:
                best = key
    assert best is not None
    return best


def exact_points(result: Result, sides: int) -> dict[int, Fraction]:
    """Match points written out the long way (the reference for the standings tests):
    per person, the other sides beaten plus half the sides level, over the other sides."""
    if result.table.bye:
        return {p: Fraction(1) for p in result.table.people}
    side_place = {seat % sides: place for seat, place in enumerate(result.places)}
    out = {}
    for seat, person in enumerate(result.table.players):
        if person is None:
            continue
        mine = side_place[seat % sides]
        others = [place for side, place in side_place.items() if side != seat % sides]
        value = sum(Fraction(1) if mine < p else Fraction(1, 2) if mine == p else 0 for p in others)
        out[person] = Fraction(value) / len(others)
    return out
