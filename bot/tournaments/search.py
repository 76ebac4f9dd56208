"""The search behind Swiss pairings: seat players at tables with the fewest repeated meetings.

The rule it serves is in :mod:`bot.tournaments.swiss`; this module only searches. Players
are numbers ``0..n-1`` in standings order; ``met[i][j]`` (how often ``i`` and ``j`` met)
is the cost of seating them together again.

A depth-first search seats the best-placed player still free at a table (the biggest size
left first) with the nearest free players below them, so with no repeated meetings in the
way the tables are groups of adjacent standings, the smaller tables at the bottom.

1. First it looks for a seating with no repeated meeting (:meth:`_Search.first`), taking
   only strangers: the usual case, and fast.
2. Failing that, a greedy seating improved by swaps (:meth:`_Search.greedy`) gives a cost
   to beat, and a branch and bound (:meth:`_Search.least`) in the same search order looks
   for the least cost within it, keeping the first seating in the order among the
   cheapest.

Positions proven fruitless are remembered (which players are still free and the tables
left: the same whatever came before), and a position is dropped at once when too many of
its players cannot be seated with strangers (:func:`_lower_bound`). Each of the two steps
takes at most :data:`WORK_LIMIT` steps: only fields where repeated meetings cannot be
avoided anyway (many rounds at big tables) reach it, and then the best seating found so
far is taken (the greedy one if none is better), not necessarily the least.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

WORK_LIMIT = 25_000  # steps of one search (each step a candidate or a position)

Left = tuple[tuple[int, int], ...]  # the tables still to fill: (size, how many), biggest first


class _Exhausted(Exception):
    """The search reached its work limit."""


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
    limit: int = WORK_LIMIT,
) -> Seating:
    """Seat players ``0..n-1`` at tables of ``sizes`` (each at least 2) after setting one
    of ``asides`` apart (in preference order; each holds the players no table seats).
    ``together``: the set-aside players share a table too (completed by computers), so
    their meetings count. The least total cost wins, then the earliest aside, then the
    search order (nearest standings first); beyond ``limit`` see the module's note."""
    search = _Search(met, sizes, together, limit)
    choices = _Cached(asides)
    preferred = next(iter(choices), None)
    if preferred is None:
        raise ValueError("no way to set players aside")
    try:
        found = search.first(choices, 0)  # the usual case: nobody meets again
        if found is not None:
            return found
    except _Exhausted:
        pass
    fallback = search.greedy(preferred)
    search.work = 0
    with contextlib.suppress(_Exhausted):  # then the best found so far will do
        search.least(choices, fallback.cost)
    return search.found if search.found is not None else fallback


class _Search:
    """One pairing's search state: the costs, the strangers (as bit sets) and the work
    done."""

    def __init__(
        self, met: Sequence[Sequence[int]], sizes: Sequence[int], together: bool, limit: int
    ) -> None:
        self.met = met
        self.n = len(met)
        self.together = together
        self.limit = limit
        self.work = 0
        self.found: Seating | None = None  # the branch and bound's best so far
        self.bound = 0  # the most the branch and bound still accepts
        self.left: Left = tuple(sorted(Counter(sizes).items(), reverse=True))
        self.fresh = [
            sum(1 << j for j in range(self.n) if j != i and not met[i][j]) for i in range(self.n)
        ]

    def cost(self, group: Sequence[int]) -> int:
        """Repeated meetings among ``group``."""
        met = self.met
        return sum(met[a][b] for i, a in enumerate(group) for b in group[i + 1 :])

    def aside_cost(self, group: tuple[int, ...]) -> int:
        """What setting ``group`` aside costs (their shared table's meetings)."""
        return self.cost(group) if self.together else 0

    def first(self, choices: Iterable[tuple[int, ...]], budget: int) -> Seating | None:
        """The first seating in the search order within ``budget`` (``None``: none)."""
        failed: set[tuple[int, Left, int]] = set()
        for group in choices:
            spent = self.aside_cost(group)
            if spent > budget:
                continue
            free = (1 << self.n) - 1
            for player in group:
                free &= ~(1 << player)
            tables: list[tuple[int, ...]] = []
            if self._fill(free, self.left, budget - spent, failed, tables):
                total = spent + sum(self.cost(t) for t in tables)
                return Seating(tuple(group), tuple(tables), total)
        return None

    def least(self, choices: Iterable[tuple[int, ...]], bound: int) -> None:
        """Branch and bound: the first seating in the search order among those of the
        least cost, at most ``bound`` (left in ``found``; ``None``: none within it)."""
        self.found = None
        self.bound = bound
        failed: dict[tuple[int, Left], int] = {}
        for group in choices:
            spent = self.aside_cost(group)
            if spent > self.bound:
                continue
            free = (1 << self.n) - 1
            for player in group:
                free &= ~(1 << player)
            self._branch(free, self.left, spent, group, [], failed)

    def _branch(
        self,
        free: int,
        left: Left,
        spent: int,
        group: tuple[int, ...],
        tables: list[tuple[int, ...]],
        failed: dict[tuple[int, Left], int],
    ) -> None:
        """Seat the ``free`` players at the tables ``left`` for less than the best so far
        (at first: at most the bound), keeping any seating that does better."""
        if not free:
            self.found = Seating(group, tuple(tables), spent)
            self.bound = spent - 1  # from now on only a cheaper seating is wanted
            return
        allowance = self.bound - spent
        key = (free, left)
        if allowance < 0 or failed.get(key, -1) >= allowance:
            return
        self._step(1 + free.bit_count() // 16)
        if _lower_bound(free, self.fresh, left) > allowance:
            failed[key] = allowance
            return
        before = self.bound
        top = (free & -free).bit_length() - 1
        met, fresh = self.met, self.fresh

        def extend(members: list[int], pool: int, cost: int, size: int, after: Left) -> None:
            if len(members) == size:
                tables.append(tuple(members))
                mask = sum(1 << m for m in members)
                self._branch(free & ~mask, after, cost, group, tables, failed)
                tables.pop()
                return
            need = size - len(members)
            candidates = pool
            if cost == self.bound:  # nothing left to spend: only strangers to all seated
                for member in members:
                    candidates &= fresh[member]
            while candidates:
                low = candidates & -candidates
                candidates ^= low
                candidate = low.bit_length() - 1
                below = pool & ~((low << 1) - 1)
                if below.bit_count() < need - 1:
                    break
                self._step()
                more = cost + sum(met[m][candidate] for m in members)
                if more > self.bound:
                    continue
                members.append(candidate)
                extend(members, below, more, size, after)
                members.pop()

        for position, (size, count) in enumerate(left):
            after = left[:position] + ((size, count - 1),) * (count > 1) + left[position + 1 :]
            extend([top], free ^ (1 << top), spent, size, after)
        if self.bound == before:  # nothing cheaper below: remember the allowance tried
            failed[key] = max(failed.get(key, -1), allowance)

    def _step(self, amount: int = 1) -> None:
        self.work += amount
        if self.work > self.limit:
            raise _Exhausted

    def _fill(
        self,
        free: int,
        left: Left,
        budget: int,
        failed: set[tuple[int, Left, int]],
        tables: list[tuple[int, ...]],
    ) -> bool:
        """Seat the ``free`` players (a bit set) at the tables ``left`` within ``budget``,
        appending to ``tables``: the best-placed free player sits at the next table, the
        biggest size first, with the nearest free players below them."""
        if not free:
            return True
        key = (free, left, budget)
        if key in failed:
            return False
        self._step(1 + free.bit_count() // 16)
        if _lower_bound(free, self.fresh, left) > budget:
            failed.add(key)
            return False
        top = (free & -free).bit_length() - 1
        met, fresh = self.met, self.fresh

        def extend(members: list[int], pool: int, spent: int, size: int, after: Left) -> bool:
            # pool: the free players below the last member, the candidates for the next
            if len(members) == size:
                tables.append(tuple(members))
                mask = sum(1 << m for m in members)
                if self._fill(free & ~mask, after, budget - spent, failed, tables):
                    return True
                tables.pop()
                return False
            need = size - len(members)
            candidates = pool
            if spent == budget:  # nothing left to spend: only strangers to everyone seated
                for member in members:
                    candidates &= fresh[member]
            while candidates:
                low = candidates & -candidates
                candidates ^= low
                candidate = low.bit_length() - 1
                below = pool & ~((low << 1) - 1)
                if below.bit_count() < need - 1:
                    break  # too few players left below for the table
                self._step()
                cost = spent + sum(met[m][candidate] for m in members)
                if cost > budget:
                    continue
                members.append(candidate)
                if extend(members, below, cost, size, after):
                    return True
                members.pop()
            return False

        for position, (size, count) in enumerate(left):
            after = left[:position] + ((size, count - 1),) * (count > 1) + left[position + 1 :]
            if extend([top], free ^ (1 << top), 0, size, after):
                return True
        failed.add(key)
        return False

    def greedy(self, group: tuple[int, ...]) -> Seating:
        """A cheap seating for the aside ``group``: top-down, each table's next member the
        free player adding the fewest repeated meetings (the nearest among equals), then
        swaps of two players between tables while a swap lowers the total."""
        free = [p for p in range(self.n) if p not in group]
        tables: list[list[int]] = []
        for size, count in self.left:
            for _ in range(count):
                table = [free.pop(0)]
                while len(table) < size:
                    best = min(
                        range(len(free)),
                        key=lambda i: (sum(self.met[m][free[i]] for m in table), i),
                    )
                    table.append(free.pop(best))
                tables.append(table)
        self._improve(tables)
        tables = [sorted(t) for t in tables]
        tables.sort()
        total = self.aside_cost(group) + sum(self.cost(t) for t in tables)
        return Seating(group, tuple(tuple(t) for t in tables), total)

    def _improve(self, tables: list[list[int]], passes: int = 8) -> None:
        """Swap a player who met someone at their table with a player of another table
        while that lowers the repeated meetings."""
        met = self.met
        for _ in range(passes):
            better = False
            for first in tables:
                for x, a in enumerate(first):
                    mine = sum(met[a][m] for m in first)
                    if not mine:
                        continue
                    for second in tables:
                        if second is first:
                            continue
                        for y, b in enumerate(second):
                            before = mine + sum(met[b][m] for m in second)
                            after = sum(met[b][m] for m in first if m != a) + sum(
                                met[a][m] for m in second if m != b
                            )
                            if after < before:
                                first[x], second[y] = b, a
                                a = b  # now at this table
                                mine = sum(met[a][m] for m in first)
                                better = True
                                if not mine:
                                    break
                        if not mine:
                            break
            if not better:
                return


def _lower_bound(free: int, fresh: Sequence[int], left: Left) -> int:
    """Repeated meetings the free players must still have: a player with fewer strangers
    free than the smallest table left needs sits with someone they met, and a table holds
    at most the biggest size of such players, each such table costing at least one."""
    need = left[-1][0] - 1
    stuck = 0
    rest = free
    while rest:
        low = rest & -rest
        rest ^= low
        if (fresh[low.bit_length() - 1] & free).bit_count() < need:
            stuck += 1
    return -(-stuck // left[0][0])


class _Cached:
    """An iterable read lazily once and replayed after (the asides can be many: only the
    first few are usually needed)."""

    def __init__(self, items: Iterable[tuple[int, ...]]) -> None:
        self._source = iter(items)
        self._items: list[tuple[int, ...]] = []

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        yield from self._items
        for item in self._source:
            self._items.append(item)
            yield item
