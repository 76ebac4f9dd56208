"""The search behind Swiss pairings: seat players at tables with the fewest repeated meetings.

The rule it serves is in :mod:`bot.tournaments.swiss`; this module only searches. Players
are numbers ``0..n-1`` in standings order. A depth-first search seats the best-placed
player still free at a table (the biggest size left first) with the nearest free players
below them, so with no repeated meetings in the way the tables are groups of adjacent
standings, the smaller tables at the bottom. It runs with a
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

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
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
    choices = _Cached(asides)
    fresh = [sum(1 << j for j in range(n) if j != i and not met[i][j]) for i in range(n)]
    # the tables still to fill: (size, how many), the biggest first
    left = tuple(sorted(Counter(sizes).items(), reverse=True))
    widest = max(sizes, default=2)

    def aside_cost(group: tuple[int, ...]) -> int:
        if not together:
            return 0
        return sum(met[a][b] for i, a in enumerate(group) for b in group[i + 1 :])

    # no seating costs more than every meeting so far: with this budget nothing is pruned
    # and the search goes straight down, so it needs no limit
    ceiling = sum(sum(row) for row in met) // 2
    budget = 0
    while True:
        if budget >= ceiling:
            limit = 1 << 62
        failed: set[tuple[int, tuple[tuple[int, int], ...], int]] = set()
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
                    free, left, budget - cost, met, fresh, widest, failed, nodes, limit, tables
                ):
                    spent = cost + sum(_table_cost(met, t) for t in tables)
                    return Seating(tuple(group), tuple(tables), spent)
            if not choices.seen:
                raise ValueError("no way to set players aside")
            budget += 1  # proven impossible within this budget: the next is the least
        except _Exhausted:
            budget = min(budget * 2 + 1, ceiling)


class _Cached:
    """An iterable read lazily once and replayed after (the asides can be many: only the
    first few are usually needed)."""

    def __init__(self, items: Iterable[tuple[int, ...]]) -> None:
        self._source = iter(items)
        self._items: list[tuple[int, ...]] = []

    @property
    def seen(self) -> bool:
        """Whether any item has been read."""
        return bool(self._items)

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        yield from self._items
        for item in self._source:
            self._items.append(item)
            yield item


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
    left: tuple[tuple[int, int], ...],
    budget: int,
    met: Sequence[Sequence[int]],
    fresh: Sequence[int],
    widest: int,
    failed: set[tuple[int, tuple[tuple[int, int], ...], int]],
    nodes: list[int],
    limit: int,
    tables: list[tuple[int, ...]],
) -> bool:
    """Seat the ``free`` players (a bit set) at the tables ``left`` within ``budget``,
    appending to ``tables``. The best-placed free player sits at the next table, the
    biggest size first, with the nearest free players below them."""
    if not free:
        return True
    key = (free, left, budget)
    if key in failed:
        return False
    nodes[0] += 1
    if nodes[0] > limit:
        raise _Exhausted
    if _lower_bound(free, fresh, widest) > budget:
        failed.add(key)
        return False
    top = (free & -free).bit_length() - 1
    others = []
    rest = free ^ (1 << top)
    while rest:
        low = rest & -rest
        others.append(low.bit_length() - 1)
        rest ^= low

    def extend(members: list[int], start: int, spent: int, size: int, after: tuple) -> bool:
        if len(members) == size:
            mask = 0
            for member in members:
                mask |= 1 << member
            tables.append(tuple(members))
            if _fill(
                free & ~mask,
                after,
                budget - spent,
                met,
                fresh,
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
            if extend(members, index + 1, cost, size, after):
                return True
            members.pop()
        return False

    for position, (size, count) in enumerate(left):
        after = left[:position] + ((size, count - 1),) * (count > 1) + left[position + 1 :]
        if extend([top], 0, 0, size, after):
            return True
    failed.add(key)
    return False
