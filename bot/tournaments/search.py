"""The search behind Swiss pairings: seat players at tables with the fewest repeated meetings.

The rule it serves is in :mod:`bot.tournaments.swiss`; this module only searches. Players
are numbers ``0..n-1`` in standings order. A depth-first search seats the best-placed
player still free at the next table with the nearest free players below them, so with no
repeated meetings in the way the tables are groups of adjacent standings. It runs with a
budget of repeated meetings, 0 first, then 1, 2, …: the first budget with a seating is the
least possible, and the search order picks, among those, the one closest to the standings.

Bounded: positions proven impossible are remembered (``failed``: which players are still
free and the budget left, the same whatever came before), a position is dropped at once
when too many of its players have met everyone still free (:func:`_lower_bound`), and each
budget searches at most :data:`NODE_LIMIT` positions. Past the limit the budget doubles,
and a budget above every possible cost cannot fail, so the search always ends. Only then
(far beyond anything a real Kasino night reaches) can it accept more repeated meetings
than the least possible.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

NODE_LIMIT = 20_000


class _Exhausted(Exception):
    """The budget's search reached :data:`NODE_LIMIT`."""


@dataclass(frozen=True, slots=True)
class Seating:
    """What the search found: the players set aside, the tables (players in standings
    order) and the number of repeated meetings."""

    aside: tuple[int, ...]
    tables: tuple[tuple[int, ...], ...]
    cost: int


def seat(
    met: Sequence[Sequence[int]],
    sizes: Sequence[int],
    asides: Iterable[tuple[int, ...]],
    *,
    together: bool = False,
    limit: int = NODE_LIMIT,
) -> Seating:
    """Seat players ``0..n-1`` at tables of ``sizes`` (top-down, each at least 2) after
    setting one of ``asides`` apart (in preference order; each holds the players no table
    seats). ``met[i][j]``: how often ``i`` and ``j`` met before, the cost of seating them
    together again. ``together``: the set-aside players share a table too (completed by
    computers), so their meetings count. The least total cost wins, then the earliest
    aside, then the search order (nearest standings first)."""
    n = len(met)
    choices = list(asides)
    if not choices:
        raise ValueError("no way to set players aside")
    fresh = [sum(1 << j for j in range(n) if j != i and not met[i][j]) for i in range(n)]
    # seated count -> the table it starts (tables fill top-down)
    starts: dict[int, int] = {}
    total = 0
    for index, size in enumerate(sizes):
        starts[total] = index
        total += size
    widest = max(sizes, default=2)

    def aside_cost(group: tuple[int, ...]) -> int:
        if not together:
            return 0
        return sum(met[a][b] for i, a in enumerate(group) for b in group[i + 1 :])

    budget = 0
    while True:
        failed: set[tuple[int, int]] = set()
        nodes = [0]
        try:
            for group in choices:
                cost = aside_cost(group)
                if cost > budget:
                    continue
                free = (1 << n) - 1
                for player in group:
                    free &= ~(1 << player)
                tables: list[tuple[int, ...]] = []
                if _fill(
                    free,
                    budget - cost,
                    total,
                    met,
                    fresh,
                    sizes,
                    starts,
                    widest,
                    failed,
                    nodes,
                    limit,
                    tables,
                ):
                    spent = cost + sum(_table_cost(met, t) for t in tables)
                    return Seating(tuple(group), tuple(tables), spent)
            budget += 1  # proven impossible within this budget: the next is the least
        except _Exhausted:
            budget = budget * 2 + 1


def _table_cost(met: Sequence[Sequence[int]], table: tuple[int, ...]) -> int:
    return sum(met[a][b] for i, a in enumerate(table) for b in table[i + 1 :])


def _lower_bound(free: int, fresh: Sequence[int], widest: int) -> int:
    """Repeated meetings the free players must still have: each table holding a player
    who has met every other free player has at least one, and a table holds at most
    ``widest`` such players."""
    stuck = 0
    rest = free
    while rest:
        low = rest & -rest
        player = low.bit_length() - 1
        rest ^= low
        if not fresh[player] & free:
            stuck += 1
    return -(-stuck // widest)


def _fill(
    free: int,
    budget: int,
    total: int,
    met: Sequence[Sequence[int]],
    fresh: Sequence[int],
    sizes: Sequence[int],
    starts: dict[int, int],
    widest: int,
    failed: set[tuple[int, int]],
    nodes: list[int],
    limit: int,
    tables: list[tuple[int, ...]],
) -> bool:
    """Seat the ``free`` players (a bit set) within ``budget``, appending to ``tables``."""
    if not free:
        return True
    if (free, budget) in failed:
        return False
    nodes[0] += 1
    if nodes[0] > limit:
        raise _Exhausted
    if _lower_bound(free, fresh, widest) > budget:
        failed.add((free, budget))
        return False
    size = sizes[starts[total - free.bit_count()]]
    top = (free & -free).bit_length() - 1
    others = []
    rest = free ^ (1 << top)
    while rest:
        low = rest & -rest
        others.append(low.bit_length() - 1)
        rest ^= low

    def extend(members: list[int], start: int, spent: int) -> bool:
        if len(members) == size:
            mask = 0
            for member in members:
                mask |= 1 << member
            tables.append(tuple(members))
            if _fill(
                free & ~mask,
                budget - spent,
                total,
                met,
                fresh,
                sizes,
                starts,
                widest,
                failed,
                nodes,
                limit,
                tables,
            ):
                return True
            tables.pop()
            return False
        need = size - len(members)
        for index in range(start, len(others) - need + 1):
            candidate = others[index]
            cost = spent + sum(met[m][candidate] for m in members)
            if cost > budget:
                continue
            members.append(candidate)
            if extend(members, index + 1, cost):
                return True
            members.pop()
        return False

    if extend([top], 0, 0):
        return True
    failed.add((free, budget))
    return False
