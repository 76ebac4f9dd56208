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

import heapq
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from itertools import combinations, islice, product
from operator import attrgetter, itemgetter

from .cards import Card, card_order
from .rules import Rules

_ORDER = card_order()
_SMALL_TABLE = 12  # up to this many cards, captures are found card by card
SMALL_TABLE = _SMALL_TABLE
_BITS = 5
_FIELD = (1 << _BITS) - 1
_GUARD = sum(1 << (_BITS * i + _BITS - 1) for i in range(13))
_LOW_BITS = sum(1 << (_BITS * i) for i in range(13))


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
    """How many cards a rank-count vector holds."""
    total = 0
    while vector:
        total += vector & _FIELD
        vector >>= _BITS
    return total


def _groups(values: tuple[tuple[int, ...], ...], available: int, target: int) -> tuple[int, ...]:
    """Every rank-count vector within ``available`` whose cards can add up to ``target``."""
    ranks = [(r, _count(available, r), _unit(r)) for r in range(13, 0, -1) if _count(available, r)]
    found: set[int] = set()

    def walk(index: int, left: int, vector: int) -> None:
        for position in range(index, len(ranks)):
            rank, many, unit = ranks[position]
            for count in range(1, many + 1):
                for total in _sums(values[rank], count):
                    if total == left:
                        found.add(vector + count * unit)
                    elif total < left:
                        walk(position + 1, left - total, vector + count * unit)

    walk(0, target, 0)
    return tuple(sorted(found))


@lru_cache(maxsize=256)
def _sums(options: tuple[int, ...], count: int) -> tuple[int, ...]:
    """The totals ``count`` cards may reach when each takes one of ``options``."""
    totals = {0}
    for _ in range(count):
        totals = {t + o for t in totals for o in options}
    return tuple(sorted(totals))


@lru_cache(maxsize=4096)
def _partitioner(values: tuple[tuple[int, ...], ...], available: int, target: int) -> _Partitioner:
    """A shared, remembered partitioner: positions repeat a lot across moves and games."""
    return _Partitioner(values, available, target)


class _Partitioner:
    """Decides whether a rank-count vector splits into groups adding up to ``target``."""

    def __init__(
        self,
        values: tuple[tuple[int, ...], ...],
        available: int,
        target: int,
        budget: _Budget | None = None,
    ) -> None:
        self.budget = budget  # each vector looked at spends a step
        self.groups = _groups(values, available, target)
        self.target = target
        self.values = values
        self.live = 0
        for group in self.groups:
            self.live |= group
        self.by_rank: dict[int, list[int]] = {}  # per rank, the groups holding it
        for group in reversed(self.groups):  # most high cards first: splits find groups fast
            rest, rank = group, 1
            while rest:
                if rest & _FIELD:
                    self.by_rank.setdefault(rank, []).append(group)
                rest >>= _BITS
                rank += 1
        self.memo: dict[int, bool] = {0: True}
        self.mask = (1 << (target + 1)) - 1  # subset sums above the target do not matter
        # On big tables a quick test of the cards' total saves hopeless searches.
        big = _size(available) > _SMALL_TABLE
        self.fitting = _fitting(values, target) if big else None

    def splits(self, vector: int) -> bool:
        """Whether ``vector`` (non-empty for a capture) splits into groups."""
        known = self.memo.get(vector)
        if known is not None:
            return known
        if self.fitting is not None and not self._total_fits(vector):
            self.memo[vector] = False
            return False
        return self._splits(vector)

    def _total_fits(self, vector: int) -> bool:
        """Whether the cards can add up to a multiple of the target (else they cannot split)."""
        lows, shifts, barred = self.fitting
        if vector & barred:
            return False  # a card no group can hold
        total, rest = 0, vector
        for low in lows:
            total += (rest & _FIELD) * low
            rest >>= _BITS
        if not total % self.target:
            return True
        for rank, shift in shifts:  # an ace may count 13 more
            for many in range(1, _count(vector, rank) + 1):
                if not (total + many * shift) % self.target:
                    return True
        return False

    def _splits(self, vector: int) -> bool:
        if self.budget is not None:
            self.budget.spend(1)
        known = self.memo.get(vector)
        if known is not None:
            return known
        pivot = (vector.bit_length() - 1) // _BITS + 1  # the highest rank present
        guarded = vector | _GUARD
        result = any(
            (guarded - g) & _GUARD == _GUARD and self._splits(vector - g)
            for g in self.by_rank.get(pivot, ())
        )
        self.memo[vector] = result
        return result


@lru_cache(maxsize=64)
def _fitting(
    values: tuple[tuple[int, ...], ...], target: int
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...], int]:
    """What a card may add to a group's total, per rank: its lowest value, the ranks that
    may count more (an ace: 13 more) and the fields of ranks too high for any group."""
    lows, shifts, barred = [], [], 0
    for rank in range(1, 14):
        fitting = [v for v in values[rank] if v <= target]
        lows.append(min(fitting, default=0))
        if not fitting:
            barred |= _FIELD << _BITS * (rank - 1)
        shifts.extend((rank, v - min(fitting)) for v in fitting[1:2])
    return tuple(lows), tuple(shifts), barred


def is_capture(rules: Rules, played: Card, taken: Sequence[Card]) -> bool:
    """Whether the table cards ``taken`` (non-empty) are a legal capture for ``played``.

    Raises ``TypeError`` for arguments of the wrong type and ``ValueError`` for cards that
    cannot be there together (on a single deck, a card twice or the played card taken).
    """
    return bool(capture_targets(rules, played, taken))


def capture_targets(rules: Rules, played: Card, taken: Sequence[Card]) -> tuple[int, ...]:
    """The values of ``played`` for which ``taken`` is a legal capture (``()``: none).

    A Swedish ace taking 4 + 9 + A counts as ``(14,)``; taking a lone ace, as ``(1, 14)``.
    Refuses arguments as :func:`is_capture` does.
    """
    return checked_targets(rules, played, _checked(rules, played, taken, "cards taken"))


def checked_targets(rules: Rules, played: Card, taken: Sequence[Card]) -> tuple[int, ...]:
    """:func:`capture_targets` for callers that made sure of their cards (a Round does)."""
    if not taken:
        return ()
    values = rules.table_values
    targets = rules.hand_values[played]
    if len(taken) <= _SMALL_TABLE:
        options = sorted(values[card.rank] for card in taken)
        return tuple(t for t in targets if _covers(options, t))
    vector = _vector(taken)
    return tuple(t for t in targets if _partitioner(values, vector, t).splits(vector))


def _checked(rules: Rules, played: Card, cards: Iterable[Card], what: str) -> tuple[Card, ...]:
    """``cards`` as a tuple, once the arguments of a public function are found sound."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules (see rules_for), not a {type(rules).__name__}")
    if not isinstance(played, Card):
        raise TypeError(f"the played card must be a Card, not a {type(played).__name__}")
    if isinstance(cards, str | bytes | Mapping) or not isinstance(cards, Iterable):
        raise TypeError(f"the {what} must be a list of Cards, not a {type(cards).__name__}")
    cards = tuple(cards)
    for card in cards:
        if card.__class__ is not Card:
            raise TypeError(f"the {what} must be Cards, not a {type(card).__name__}")
    distinct = set(cards)
    if len(distinct) < len(cards) or played in distinct:
        counts = Counter(cards)
        counts[played] += 1
        for card, count in counts.items():
            if count > rules.decks:
                if rules.decks == 1 and card is played:
                    raise ValueError(f"{card} is the played card, so it cannot be in the {what}")
                raise ValueError(f"{card} is there {count} times, with {rules.decks} deck(s)")
    return cards


def _covers(options: list[tuple[int, ...]], target: int) -> bool:
    """Whether cards with these value options split into groups adding up to ``target``."""
    groups: set[int] = set()
    _group_masks(options, 0, target, 0, groups)
    return _cover((1 << len(options)) - 1, list(groups))


def _cover(left: int, groups: list[int]) -> bool:
    if not left:
        return True
    lowest = left & -left  # this card must be in some group
    return any(g & lowest and g & left == g and _cover(left ^ g, groups) for g in groups)


def capture_options(
    rules: Rules,
    played: Card,
    table: Sequence[Card],
    limit: int | None = None,
    *,
    effort: int | None = None,
) -> list[tuple[Card, ...]]:
    """Every maximal legal capture of ``played`` from ``table``, each once, most cards first.

    Each capture lists its cards in card order (as ``sorted`` and :class:`Move` do).
    A capture is maximal when no other legal capture contains it. With identical cards
    (a double deck) captures are multisets.

    With ``limit=k`` at most ``k`` are returned, always including one that takes the most
    cards, and the work is bounded whatever the table: the search stops after ``effort``
    steps (default ``EFFORT``, some 30 ms; computer players guessing at what others may
    take ask for less). Only on big tables (over 20 cards, everyone having trailed) can
    the steps run out first; then it returns the captures found so far, which are maximal
    and the largest, or if it found none yet, one legal capture made group by group,
    which may be smaller. Answers with a limit are remembered, so asking again is cheap.
    Without a limit the search is exact, and may take seconds on such tables.

    Raises ``TypeError`` for arguments of the wrong type and ``ValueError`` for cards that
    cannot be there together (the played card on the table, on a single deck).
    """
    table = _checked(rules, played, table, "table")
    if limit is None:
        found: list[tuple[Card, ...]] = []
        ranks: dict[int, list[Card]] = {}
        for vector in _maximal_vectors(rules.table_values, rules.hand_values[played], table):
            ranks = ranks or _by_rank(table)
            found.extend(_expand(vector, ranks))
        return found
    check_limit(limit)
    effort = EFFORT if effort is None else effort
    if not isinstance(effort, int) or isinstance(effort, bool):
        raise TypeError(f"effort is a whole number of steps, not a {type(effort).__name__}")
    if effort < 0:
        raise ValueError("effort must be at least 0")
    key = tuple(sorted(table, key=_ORDER))
    targets = rules.hand_values[played]
    return list(_limited_options(rules.table_values, targets, key, limit, effort))


def whole_captures(
    rules: Rules, played: Card, table: Sequence[Card]
) -> tuple[tuple[Card, ...], ...]:
    """The maximal captures of ``played`` (as :func:`capture_options` without a limit),
    remembered by the table's cards: Krypkasino's ``take_all`` allows only these, and
    its tables (where a card that can capture must) stay small.

    For callers that made sure of their cards (a Round does); each multiset once.
    """
    key = tuple(sorted(table, key=_ORDER))
    return _whole(rules.table_values, rules.hand_values[played], key)


@lru_cache(maxsize=1 << 14)
def _whole(
    values: tuple[tuple[int, ...], ...], targets: tuple[int, ...], table: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    found: list[tuple[Card, ...]] = []
    ranks: dict[int, list[Card]] = {}
    for vector in _maximal_vectors(values, targets, table):
        ranks = ranks or _by_rank(table)
        found.extend(_expand(vector, ranks))
    return tuple(found)


def check_limit(limit: int) -> None:
    """Refuse a ``limit`` that is not a whole number from 1 up."""
    if not isinstance(limit, int) or isinstance(limit, bool):
        raise TypeError(f"limit is a whole number, not a {type(limit).__name__}")
    if limit < 1:
        raise ValueError("limit must be at least 1")


EFFORT = 20_000  # search steps a capture_options with a limit may take (some 30 ms)


class _OutOfEffort(Exception):
    """The bounded search used up its steps."""


class _Budget:
    """Search steps left to a bounded search; raises :class:`_OutOfEffort` past the end."""

    __slots__ = ("left",)

    def __init__(self, steps: int) -> None:
        self.left = steps

    def spend(self, steps: int) -> None:
        """Use ``steps`` steps."""
        self.left -= steps
        if self.left < 0:
            raise _OutOfEffort


@lru_cache(maxsize=4096)
def _limited_options(
    values: tuple[tuple[int, ...], ...],
    targets: tuple[int, ...],
    table: tuple[Card, ...],
    limit: int,
    effort: int,
) -> tuple[tuple[Card, ...], ...]:
    """:func:`capture_options` with a limit, for a table in card order.

    The search is a function of its arguments alone (its partitioners are its own), so
    where the steps run out does not depend on what was asked before.
    """
    budget = _Budget(effort)
    found: list[tuple[Card, ...]] = []
    ranks = _by_rank(table)
    try:
        for vector in _maximal_vectors(values, targets, table, budget):
            for capture in _expand(vector, ranks):
                found.append(capture)
                if len(found) >= limit:
                    return tuple(found)
    except _OutOfEffort:
        if not found:
            greedy = _greedy_capture(values, targets, _vector(table))
            found.extend(islice(_expand(greedy, ranks), limit))
    return tuple(found)


def _greedy_capture(
    values: tuple[tuple[int, ...], ...], targets: tuple[int, ...], whole: int
) -> int:
    """A legal capture (empty if none) made group by group, highest cards first.

    Each table card, highest rank first, goes in the first group of cards still free that
    holds it, if any. Quick, and legal by construction, though not always the largest.
    """
    best = 0
    for target in targets:
        part = _Partitioner(values, whole, target)
        left, taken = whole, 0
        for rank in range(13, 0, -1):
            for group in part.by_rank.get(rank, ()):
                while _fits(group, left):
                    left, taken = left - group, taken + group
        if _size(taken) > _size(best):
            best = taken
    return best


_TICK = 64  # search nodes between turns when the two searches run side by side
# The search from the bottom gets more turns: where it is the slower one, the tables are
# low cards, which the search from the top finishes quickly anyway.
_BOTTOM_TURNS = 3


def _maximal_vectors(
    values: tuple[tuple[int, ...], ...],
    targets: tuple[int, ...],
    table: Sequence[Card],
    budget: _Budget | None = None,
) -> Iterator[int]:
    """Rank-count vectors of the maximal captures, largest first (lazily).

    A played ace counts 1 or 14 for the whole play. On a big table each value is searched
    on its own (searched together, the cards left behind for one value would multiply the
    captures tried for the other) and the answers are merged, largest first, dropping any
    capture that one already given contains. With a ``budget``, the search spends its
    steps.
    """
    whole = _vector(table)
    if not whole:
        return
    if budget is None:
        parts = [_partitioner(values, whole, t) for t in targets]
    else:
        parts = [_Partitioner(values, whole, t, budget) for t in targets]
    parts = [part for part in parts if part.live]
    if not parts:
        return
    if len(parts) == 1 or _size(whole) <= _SMALL_TABLE:
        yield from _race(parts, whole, budget)
        return
    given: list[int] = []
    searches = [_race([part], whole, budget) for part in parts]
    for vector in heapq.merge(*searches, key=lambda v: -_size(v)):
        if not any(_fits(vector, bigger) for bigger in given):
            given.append(vector)
            yield vector


def _race(parts: Sequence[_Partitioner], whole: int, budget: _Budget | None) -> Iterator[int]:
    """The maximal captures of the values of ``parts``, largest first (lazily).

    Two searches run in turns: from the top (few cards left behind: fast on tables of
    low cards) and from the bottom (few groups: fast on tables of scattered high
    cards). The first to finish gives the answer.
    """
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
        if budget is not None:
            budget.spend(_TICK * (1 + _BOTTOM_TURNS))
        try:
            for _ in range(_BOTTOM_TURNS):
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
    return whole & ~_ranks_mask(live)


def _ranks_mask(vector: int) -> int:
    """All five bits set in the field of each rank ``vector`` holds, none elsewhere."""
    spread = vector | vector >> 1 | vector >> 2 | vector >> 3 | vector >> 4
    return (spread & _LOW_BITS) * _FIELD


def _top_down(parts: Sequence[_Partitioner], whole: int) -> Iterator[int | None]:
    """Grow the cards left behind from none; yield maximal captures, ``None`` as a tick."""
    dead = _dead_cards(parts, whole)
    live_ranks = [r for r in range(1, 14) if _count(whole - dead, r)]
    frontier: dict[int, tuple[int, ...]] = {dead: tuple(1 for _ in parts)}
    kept: list[int] = []
    nodes = 0
    values = parts[0].values  # every part reads the same table
    units = [(values[rank], _unit(rank)) for rank in live_ranks]
    masks = [(p.mask, 1 << p.target) for p in parts]
    guarded_whole = whole | _GUARD
    while frontier:
        grown: dict[int, tuple[int, ...]] = {}
        for left, reaches in frontier.items():
            nodes += len(live_ranks)  # a node's cost grows with the ranks it tries
            if nodes >= _TICK:
                nodes = 0
                yield None
            guarded = left | _GUARD
            if any((guarded - k) & _GUARD == _GUARD for k in kept):
                continue
            taken = whole - left
            if taken and any(
                not reach & bit and p.splits(taken)
                for p, reach, (_, bit) in zip(parts, reaches, masks, strict=True)
            ):
                kept.append(left)
                yield taken
                continue
            for options, unit in units:
                bigger = left + unit
                if bigger in grown or (guarded_whole - bigger) & _GUARD != _GUARD:
                    continue
                new = []
                free = False
                for reach, (mask, bit) in zip(reaches, masks, strict=True):
                    more = reach
                    for value in options:
                        more |= reach << value
                    more &= mask
                    free = free or not more & bit
                    new.append(more)
                if free:
                    grown[bigger] = tuple(new)
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
    by_rank = {rank: [(g, _count(g, rank)) for g in gs] for rank, gs in part.by_rank.items()}
    values, mask, target_bit = part.values, part.mask, 1 << part.target
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
            groups = by_rank[pivot]
            guarded = undecided | _GUARD
            for index in range(first, len(groups)):
                group, need = groups[index]
                if need <= cover and (guarded - group) & _GUARD == _GUARD:
                    rest = undecided - group
                    stack.append((rest, reach, taken + group, pivot, cover - need, index))
            continue
        if not undecided:
            if taken:
                found.add(taken)
            continue
        pivot = (undecided.bit_length() - 1) // _BITS + 1
        unit = 1 << (_BITS * (pivot - 1))
        many = (undecided >> (_BITS * (pivot - 1))) & _FIELD
        for behind in range(many + 1):
            stack.append((undecided - behind * unit, reach, taken, pivot, many - behind, 0))
            if maximal_only:
                grown = reach
                for value in values[pivot]:
                    grown |= reach << value
                reach = grown & mask
                if reach & target_bit:
                    break


def all_captures(rules: Rules, played: Card, table: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every legal capture of ``played`` from ``table``, maximal or not, each once.

    Not bounded: on a big table of low cards there are millions (28 cards: 1.2 million,
    seconds of work). Computer players and the bot use :func:`capture_options` with a limit.
    Refuses arguments as :func:`capture_options` does.
    """
    return TableIndex(rules, _checked(rules, played, table, "table")).captures(played)


_SUMS_MASK = (1 << 17) - 1  # values never exceed 16


class _Reading:
    """What the small-table search needs of a variant's table values, read once: each
    rank's field of a rank-count vector, and per target the fields of the ranks that can
    join a group for it (lowest value at most the target)."""

    __slots__ = ("below", "masks", "ranks", "rising")

    def __init__(self, values: tuple[tuple[int, ...], ...]) -> None:
        lowest = [min(values[rank], default=0) for rank in range(1, 14)]
        # Per rank: a card's lowest and highest value, and its field of a vector.
        self.ranks = [(0, 0, 0)] + [
            (lowest[rank - 1], max(values[rank], default=0), _unit(rank)) for rank in range(1, 14)
        ]
        # Values rising with rank (the Nordic games): the cards that can join a group for
        # a target come first in card order, and the rest can be left out of the search.
        self.rising = 0 not in lowest and lowest == sorted(set(lowest))
        self.below = [
            sum(
                _FIELD << _BITS * (rank - 1)
                for rank in range(1, 14)
                if lowest[rank - 1] <= t or not self.rising
            )
            for t in range(_TOP_VALUE + 1)
        ]
        # Per key (the ranks below the targets as a vector, then a bit per target), the
        # position masks of every capture over the table in card order (:func:`_masks`).
        self.masks: dict[int, tuple[int, ...]] = {}


_TOP_VALUE = 16
# One reading per variant's values, found by the values' id (each Rules object has its
# own tuple; hashing one costs more than the search it saves) and shared by equal values.
_READINGS: dict[int, tuple[tuple[tuple[int, ...], ...], _Reading]] = {}
_SHARED: dict[tuple[tuple[int, ...], ...], _Reading] = {}
_READINGS_KEPT = 256  # ids remembered (rules are made per game), then forgotten


def _reading(values: tuple[tuple[int, ...], ...]) -> _Reading:
    """The reading of ``values``: call when ``_READINGS`` has none for this very tuple."""
    reading = _SHARED.get(values)
    if reading is None:
        reading = _SHARED[values] = _Reading(values)
    if len(_READINGS) >= _READINGS_KEPT:
        _READINGS.clear()
    _READINGS[id(values)] = (values, reading)  # the tuple kept: its id is not reused
    return reading


_RANK = attrgetter("rank")


def hand_captures(
    rules: Rules, table: Sequence[Card], cards: Iterable[Card]
) -> list[Sequence[tuple[Card, ...]]]:
    """Per card of ``cards``, every legal capture from ``table`` (at most 12 cards), as
    :meth:`TableIndex.captures` lists them: maximal or not, most cards first, each in card
    order; identical cards (a double deck) give each multiset once.

    The masks of a card's captures over the table in card order depend only on how many
    table cards of each rank that can join a group for one of its values there are, so
    they are remembered by that rank-count vector: most positions of a round find them.
    """
    values = rules.table_values
    seen = _READINGS.get(id(values))
    reading = seen[1] if seen is not None and seen[0] is values else _reading(values)
    ranks = reading.ranks
    reach = 1  # bit n set: some table cards add up to n (no other target can be met)
    vector = 0
    for card in table:
        low, high, unit = ranks[card.rank]
        reach |= reach << low | reach << high
        vector += unit
    below = reading.below
    remembered = reading.masks
    hand_values = rules.hand_values
    ordered: list[Card] = []
    options: tuple[tuple[int, ...], ...] = ()
    twins = False
    found: list[Sequence[tuple[Card, ...]]] = []
    for played in cards:
        targets = hand_values[played]
        if len(targets) == 1:
            top = targets[0]
            if not reach >> top & 1:
                found.append(())
                continue
            key = (vector & below[top]) << _TARGET_BITS | 1 << top
        else:
            targets = tuple(t for t in targets if reach >> t & 1)
            if not targets:
                found.append(())
                continue
            top = max(targets)
            key = (vector & below[top]) << _TARGET_BITS | sum(1 << t for t in targets)
        masks = remembered.get(key)
        if masks is None:
            if not ordered:
                ordered = sorted(table, key=_ORDER)
                twins = len(set(ordered)) < len(ordered)
            if not options:
                options = tuple(map(values.__getitem__, map(_RANK, ordered)))
            searched = options
            if reading.rising:  # the cards that can join a group come first
                searched = options[: bisect_left(options, (top + 1,))]
            masks = _search_masks(searched, targets)
            if len(remembered) >= _REMEMBERED:
                remembered.clear()
            remembered[key] = masks
        if not masks:
            found.append(())
            continue
        if not ordered:
            ordered = sorted(table, key=_ORDER)
            twins = len(set(ordered)) < len(ordered)
        captures = [_PICKERS[m](ordered) for m in masks]
        found.append(_distinct(captures) if twins else captures)
    return found


_TARGET_BITS = 17  # a key's low bits: one per target value, 1 to 16


class TableIndex:
    """One table, read once to serve every card of a hand (``Round.legal_moves``)."""

    __slots__ = ("_found", "rules", "sums", "table")

    def __init__(self, rules: Rules, table: Sequence[Card]) -> None:
        self.rules = rules
        self.table = table
        shifts = rules.table_shifts
        reach = 1  # bit n set: some table cards add up to n
        for card in table:
            low, high = shifts[card.rank]
            reach = (reach | reach << low | reach << high) & _SUMS_MASK
        self.sums = reach
        self._found: dict[tuple[int, ...], list[tuple[Card, ...]]] = {}

    def captures(self, played: Card) -> list[tuple[Card, ...]]:
        """Every legal capture of ``played``, maximal or not, most cards first.

        Each capture lists its cards in card order (as :class:`Move` keeps them).
        """
        if len(self.table) <= _SMALL_TABLE:
            return list(hand_captures(self.rules, self.table, (played,))[0])
        sums = self.sums
        targets = tuple(t for t in self.rules.hand_values[played] if sums >> t & 1)
        if not targets:
            return []
        found = self._found.get(targets)
        if found is None:
            found = self._found[targets] = self._search(targets)
        return found

    def _search(self, targets: tuple[int, ...]) -> list[tuple[Card, ...]]:
        """A big table's captures, from rank-count vectors."""
        table = self.table
        vectors = _legal_vectors(self.rules.table_values, _vector(table), targets)
        ranks = _by_rank(table)
        return [capture for vector in vectors for capture in _expand(vector, ranks)]


_REMEMBERED = 1 << 16  # masks remembered per variant's values before starting afresh


class _Pickers(dict):
    """Per position mask, a function taking those positions' cards out of a list, in order
    (made once per mask: a capture's cards are picked without a loop)."""

    def __missing__(self, mask: int) -> Callable[[Sequence[Card]], tuple[Card, ...]]:
        positions = [i for i in range(mask.bit_length()) if mask >> i & 1]
        if len(positions) == 1:
            (only,) = positions
            picker = lambda cards: (cards[only],)  # noqa: E731 (itemgetter gives no tuple)
        else:
            picker = itemgetter(*positions)
        self[mask] = picker
        return picker


_PICKERS = _Pickers()


def capture_masks(rules: Rules, played: Card, table: Sequence[Card]) -> tuple[int, ...]:
    """Every legal capture of ``played`` as a bit mask over ``table``'s positions.

    Most cards first; for tables of up to 12 cards (``ValueError`` above that). Answers are
    remembered by the table's ranks, so searches that ask about the same small tables
    over and over pay once.
    """
    if len(table) > _SMALL_TABLE:
        raise ValueError(f"capture_masks is for tables of up to {_SMALL_TABLE} cards")
    values = rules.table_values
    return _masks_in_order(tuple(values[card.rank] for card in table), rules.hand_values[played])


@lru_cache(maxsize=1 << 16)
def _masks_in_order(
    options: tuple[tuple[int, ...], ...], targets: tuple[int, ...]
) -> tuple[int, ...]:
    """:func:`_masks` for cards in any order: searched sorted, then mapped back."""
    order = sorted(range(len(options)), key=lambda i: options[i])
    found = _masks(tuple(options[i] for i in order), targets)
    return tuple(sum(1 << order[i] for i in range(len(order)) if m >> i & 1) for m in found)


def _search_masks(options: Sequence[tuple[int, ...]], targets: tuple[int, ...]) -> tuple[int, ...]:
    """Masks of the unions of disjoint groups adding up to one of ``targets``, over the
    positions of ``options`` (each card's values): most cards first, then by mask."""
    if len(targets) == 1:
        groups = _target_groups(options, targets[0])
        if len(groups) < 2:
            return tuple(groups)
        unions = _unions(groups, set())
    else:
        unions = set()
        for target in targets:
            _unions(_target_groups(options, target), unions)
    found = sorted(unions)
    found.sort(key=int.bit_count, reverse=True)  # stable: equal counts stay by mask
    return tuple(found)


def _unions(groups: list[int], out: set[int]) -> set[int]:
    """:func:`union_masks` of ``groups`` into ``out``, without its set-up for one or two."""
    if len(groups) == 1:
        out.add(groups[0])
    elif len(groups) == 2:
        first, second = groups
        out.add(first)
        out.add(second)
        if not first & second:
            out.add(first | second)
    elif groups:
        union_masks(groups, out)
    return out


_masks = lru_cache(maxsize=1 << 16)(_search_masks)  # remembered by the options themselves


def _target_groups(options: Sequence[tuple[int, ...]], target: int) -> list[int]:
    """Masks of the positions whose cards can add up to ``target``, grown card by card
    from the partial groups still short of it."""
    groups: list[int] = []
    partial = [(target, 0)]  # what is left to make, and the positions taken so far
    bit = 1
    for values in options:
        low = values[0] if values else target + 1  # a card with no number joins no group
        if low > target:
            bit <<= 1
            continue
        grown = []
        if len(values) == 1:
            for left, mask in partial:
                if low < left:
                    grown.append((left - low, mask | bit))
                elif low == left:
                    groups.append(mask | bit)
        else:
            for left, mask in partial:
                for value in values:
                    if value < left:
                        grown.append((left - value, mask | bit))
                    elif value == left:
                        groups.append(mask | bit)
        partial += grown
        bit <<= 1
    return groups


def _distinct(captures: list[tuple[Card, ...]]) -> list[tuple[Card, ...]]:
    """The captures that differ as multisets, first of each kept."""
    seen: set[tuple[Card, ...]] = set()
    distinct = []
    for capture in captures:
        key = tuple(sorted(capture))
        if key not in seen:
            seen.add(key)
            distinct.append(capture)
    return distinct


def _group_masks(
    options: Sequence[tuple[int, ...]], start: int, left: int, mask: int, out: set[int]
) -> None:
    """Add to ``out`` the masks of positions adding up to ``left`` (lowest values first)."""
    for index in range(start, len(options)):
        if options[index][0] > left:
            break
        for value in options[index]:
            if value == left:
                out.add(mask | 1 << index)
            elif value < left:
                _group_masks(options, index + 1, left - value, mask | 1 << index, out)


def union_masks(groups: Iterable[int], out: set[int] | None = None) -> set[int]:
    """Masks of every union of one or more pairwise disjoint ``groups`` (added to ``out``).

    A union is its lowest position's group joined to a union of groups lying wholly above
    that position, so going down the positions each group meets only the unions found
    above it once (no recursion over every order of the same groups).
    """
    by_low: dict[int, list[int]] = {}
    for group in groups:
        by_low.setdefault(group & -group, []).append(group)
    found: set[int] = set()
    for low in sorted(by_low, reverse=True):
        above = list(found)
        for group in by_low[low]:
            found.add(group)
            found.update([group | mask for mask in above if not group & mask])
    if out is None:
        return found
    out |= found
    return out


@lru_cache(maxsize=4096)
def _legal_vectors(
    values: tuple[tuple[int, ...], ...], whole: int, targets: tuple[int, ...]
) -> tuple[int, ...]:
    """Rank-count vectors of every capture from ``whole``, most cards first."""
    found: set[int] = set()
    for target in targets:
        for _ in _build(_partitioner(values, whole, target), whole, found, maximal_only=False):
            pass
    return tuple(sorted(found, key=lambda v: (-_size(v), v)))


def _by_rank(table: Sequence[Card]) -> dict[int, list[Card]]:
    """The table's cards by rank, each rank's in card order (read once, expanded often)."""
    ranks: dict[int, list[Card]] = {}
    for card in sorted(table, key=_ORDER):
        ranks.setdefault(card.rank, []).append(card)
    return ranks


def _expand(vector: int, ranks: dict[int, list[Card]]) -> Iterator[tuple[Card, ...]]:
    """The distinct card selections from a table (``ranks``: :func:`_by_rank`) with the
    rank counts of ``vector``.

    Each selection lists its cards in card order.
    """
    choices = []
    for rank, cards in ranks.items():
        need = _count(vector, rank)
        if need:
            picks = list(dict.fromkeys(combinations(cards, need)))
            choices.append(picks)
    for combo in product(*choices):  # ranks ascending, each sorted: card order
        yield tuple(card for part in combo for card in part)


def clear_caches() -> None:
    """Forget remembered positions (benchmarks use this to time cold searches)."""
    _partitioner.cache_clear()
    _legal_vectors.cache_clear()
    _limited_options.cache_clear()
    _whole.cache_clear()
    _masks.cache_clear()
    _masks_in_order.cache_clear()
    for reading in _SHARED.values():
        reading.masks.clear()
