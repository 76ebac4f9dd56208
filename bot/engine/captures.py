"""Which table cards a played card may capture.

A capture is a set of table cards that splits into groups each adding up to the played
card's value. Whether a set is a capture depends only on how many cards of each rank it
holds, so the search works on rank-count vectors packed into one integer (five bits a
rank, the top bit of each field a guard for borrow-free comparisons) and only at the end
turns vectors back into cards.

``capture_options`` looks for the *maximal* captures from the top down: it grows the set
of cards left behind (the remainder) one card at a time, from small to large. A maximal
capture's remainder can never hold a group of its own (else the capture could grow), so
only such "free" remainders are explored, and the first captures found take the most
cards. That keeps the work near the answer instead of walking every subset.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations, product

from .cards import Card
from .rules import Rules, capture_values

_BITS = 5
_FIELD = (1 << _BITS) - 1
_GUARD = sum(1 << (_BITS * i + _BITS - 1) for i in range(13))


def _unit(rank: int) -> int:
    return 1 << (_BITS * (rank - 1))


def _count(vector: int, rank: int) -> int:
    return (vector >> (_BITS * (rank - 1))) & _FIELD


def _fits(part: int, whole: int) -> bool:
    """Whether every rank count of ``part`` is at most that of ``whole``."""
    return ((whole | _GUARD) - part) & _GUARD == _GUARD


def _vector(cards: Iterable[Card]) -> int:
    return sum(_unit(card.rank) for card in cards)


def _size(vector: int) -> int:
    return sum(_count(vector, rank) for rank in range(1, 14))


@lru_cache(maxsize=64)
def _table_values(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Index ``rank`` gives the values a table card of that rank may take."""
    return ((),) + tuple(capture_values(rules, Card(rank, "H"), False) for rank in range(1, 14))


@lru_cache(maxsize=4096)
def _groups(values: tuple[tuple[int, ...], ...], available: int, target: int) -> tuple[int, ...]:
    """Every rank-count vector within ``available`` whose cards can add up to ``target``."""
    found: set[int] = set()

    def walk(rank: int, left: int, vector: int) -> None:
        if left == 0:
            if vector:
                found.add(vector)
            return
        if rank == 0:
            return
        walk(rank - 1, left, vector)
        for count in range(1, _count(available, rank) + 1):
            for total in _sums(values[rank], count):
                if total <= left:
                    walk(rank - 1, left - total, vector + count * _unit(rank))

    walk(13, target, 0)
    return tuple(sorted(found))


@lru_cache(maxsize=256)
def _sums(options: tuple[int, ...], count: int) -> tuple[int, ...]:
    """The totals ``count`` cards may reach when each takes one of ``options``."""
    totals = {0}
    for _ in range(count):
        totals = {t + o for t in totals for o in options}
    return tuple(sorted(totals))


class _Partitioner:
    """Decides whether a rank-count vector splits into groups adding up to ``target``."""

    def __init__(self, values: tuple[tuple[int, ...], ...], available: int, target: int):
        self.groups = _groups(values, available, target)
        self.target = target
        self.values = values
        # The pivot of a vector is its highest non-ace rank (aces have the most ways to fit).
        self.live = 0
        for group in self.groups:
            self.live |= group
        self.by_rank = {
            rank: [g for g in self.groups if _count(g, rank)]
            for rank in range(1, 14)
            if _count(self.live, rank)
        }
        self.memo: dict[int, bool] = {0: True}
        self.mask = (1 << (target + 1)) - 1
        self.shifts = tuple(values[rank] for rank in range(14))

    def splits(self, vector: int) -> bool:
        """Whether ``vector`` (non-empty for a capture) splits into groups."""
        known = self.memo.get(vector)
        if known is not None:
            return known
        pivot = next(r for r in (*range(13, 1, -1), 1) if _count(vector, r))
        result = any(
            _fits(g, vector) and self.splits(vector - g) for g in self.by_rank.get(pivot, ())
        )
        self.memo[vector] = result
        return result

    def free_of_group(self, reach: int) -> bool:
        """Whether a set of cards with subset sums ``reach`` (a bit mask) holds no group."""
        return not (reach >> self.target) & 1

    def grow_reach(self, reach: int, rank: int) -> int:
        """The subset sums after one more card of ``rank`` joins."""
        grown = reach
        for value in self.shifts[rank]:
            grown |= reach << value
        return grown & self.mask


def is_capture(rules: Rules, played: Card, taken: Sequence[Card]) -> bool:
    """Whether the table cards ``taken`` (non-empty) are a legal capture for ``played``."""
    if not taken:
        return False
    values = _table_values(rules)
    vector = _vector(taken)
    return any(
        _Partitioner(values, vector, target).splits(vector)
        for target in capture_values(rules, played, True)
    )


def capture_options(
    rules: Rules, played: Card, table: Sequence[Card], limit: int | None = None
) -> list[tuple[Card, ...]]:
    """Every maximal legal capture of ``played`` from ``table``, each once, most cards first.

    A capture is maximal when no other legal capture contains it. With identical cards
    (a double deck) captures are multisets. With ``limit=k`` at most ``k`` are returned,
    always including one that takes the most cards.
    """
    if limit is not None and limit < 1:
        raise ValueError("limit must be at least 1")
    found: list[tuple[Card, ...]] = []
    for vector in _maximal_vectors(rules, played, table):
        for capture in _expand(vector, table):
            found.append(capture)
            if limit is not None and len(found) >= limit:
                return found
    return found


_TICK = 64  # search nodes between turns when the two searches run side by side


def _maximal_vectors(rules: Rules, played: Card, table: Sequence[Card]) -> Iterator[int]:
    """Rank-count vectors of the maximal captures, largest first (lazily).

    Two searches run in turns: from the top (few cards left behind: fast on tables of
    low cards) and from the bottom (few groups: fast on tables of scattered high
    cards). The first to finish gives the answer.
    """
    whole = _vector(table)
    values = _table_values(rules)
    parts = [_Partitioner(values, whole, t) for t in capture_values(rules, played, True)]
    if not whole or not any(p.live for p in parts):
        return
    top, bottom = _top_down(parts, whole), _bottom_up(parts, whole)
    given: set[int] = set()
    while True:
        vector = next(top, _DONE)
        if vector is _DONE:
            return
        if vector is not None:
            given.add(vector)
            yield vector
            continue
        try:
            next(bottom)
        except StopIteration as finished:
            yield from (v for v in finished.value if v not in given)
            return


_DONE = object()


def _dead_cards(parts: Sequence[_Partitioner], whole: int) -> int:
    """The cards of ranks that are in no group: they can never be taken."""
    live = 0
    for part in parts:
        live |= part.live
    return sum(_count(whole, r) * _unit(r) for r in range(1, 14) if not _count(live, r))


def _top_down(parts: Sequence[_Partitioner], whole: int) -> Iterator[int | None]:
    """Grow the cards left behind from none; yield maximal captures, ``None`` as a tick."""
    dead = _dead_cards(parts, whole)
    live_ranks = [r for r in range(1, 14) if _count(whole - dead, r)]
    frontier: dict[int, tuple[int, ...]] = {dead: tuple(1 for _ in parts)}
    kept: list[int] = []
    nodes = 0
    units = [(rank, _unit(rank)) for rank in live_ranks]
    while frontier:
        grown: dict[int, tuple[int, ...]] = {}
        for left, reaches in frontier.items():
            nodes += len(live_ranks)  # a node's cost grows with the ranks it tries
            if nodes >= _TICK:
                nodes = 0
                yield None
            taken = whole - left
            if any(_fits(k, left) for k in kept):
                continue
            if taken and any(
                p.free_of_group(r) and p.splits(taken) for p, r in zip(parts, reaches, strict=True)
            ):
                kept.append(left)
                yield taken
                continue
            for rank, unit in units:
                bigger = left + unit
                if bigger in grown or not _fits(bigger, whole):
                    continue
                new = tuple(p.grow_reach(r, rank) for p, r in zip(parts, reaches, strict=True))
                if any(p.free_of_group(r) for p, r in zip(parts, new, strict=True)):
                    grown[bigger] = new
        frontier = grown


def _bottom_up(parts: Sequence[_Partitioner], whole: int) -> Iterator[None]:
    """Build captures group by group; return the maximal ones, largest first."""
    candidates: set[int] = set()
    for part in parts:
        yield from _build(part, whole, candidates, maximal_only=True)
    maximal: list[int] = []
    for vector in sorted(candidates, key=lambda v: (-_size(v), v)):
        if not any(_fits(vector, m) for m in maximal):
            maximal.append(vector)
    return maximal


def _build(part: _Partitioner, whole: int, found: set[int], maximal_only: bool) -> Iterator[None]:
    """Add to ``found`` the captures of ``part``'s value, yielding ``None`` as a tick.

    Each card, highest rank first, is either left behind or put in a group with lower
    cards. With ``maximal_only``, cards are left behind only while what is left behind
    holds no group, as for any maximal capture.
    """
    start = whole - _dead_cards([part], whole)
    # (undecided cards, sums of cards left behind, taken, pivot rank, cards of it still to
    # cover, first group index allowed): one pivot's groups come in index order.
    stack = [(start, 1, 0, 0, 0, 0)]
    nodes = 0
    while stack:
        nodes += 1
        if nodes >= _TICK:
            nodes = 0
            yield None
        undecided, reach, taken, pivot, cover, first = stack.pop()
        if cover:
            groups = part.by_rank[pivot]
            for index in range(first, len(groups)):
                group = groups[index]
                need = _count(group, pivot)
                if need <= cover and _fits(group, undecided):
                    rest = undecided - group
                    stack.append((rest, reach, taken + group, pivot, cover - need, index))
            continue
        if not undecided:
            if taken:
                found.add(taken)
            continue
        pivot = next(r for r in range(13, 0, -1) if _count(undecided, r))
        many = _count(undecided, pivot)
        for behind in range(many + 1):
            remaining = undecided - behind * _unit(pivot)
            stack.append((remaining, reach, taken, pivot, many - behind, 0))
            if maximal_only:
                reach = part.grow_reach(reach, pivot)
                if not part.free_of_group(reach):
                    break


def all_captures(rules: Rules, played: Card, table: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every legal capture of ``played`` from ``table``, maximal or not, each once."""
    whole = _vector(table)
    if not whole:
        return []
    values = _table_values(rules)
    found: set[int] = set()
    for target in capture_values(rules, played, True):
        for _ in _build(_Partitioner(values, whole, target), whole, found, maximal_only=False):
            pass
    ordered = sorted(found, key=lambda v: (-_size(v), v))
    return [capture for vector in ordered for capture in _expand(vector, table)]


def _expand(vector: int, table: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """The distinct card selections from ``table`` with the rank counts of ``vector``."""
    choices = []
    for rank in range(1, 14):
        need = _count(vector, rank)
        if need:
            cards = [c for c in table if c.rank == rank]
            picks = list(dict.fromkeys(combinations(cards, need)))
            choices.append(picks)
    order = {card: i for i, card in reversed(list(enumerate(table)))}
    for combo in product(*choices):
        yield tuple(sorted((c for part in combo for c in part), key=order.__getitem__))
