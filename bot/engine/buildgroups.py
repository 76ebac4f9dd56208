"""The building games' groups found fast: subset sums over bit masks of the items.

What a group *is* (items adding up to a value) is in :mod:`.building`; here is how a
position's groups are found at once: one pass over the subset sums of its items
(positions as bits), remembered by the items' value options, so tables of the same ranks
share the work; and :class:`Picker`, turning masks back into items.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache, wraps
from operator import itemgetter
from typing import TypeVar

from .building import _NEVER
from .builds import Item, item_key
from .captures import union_masks
from .cards import Card, card_order

_ORDER = card_order()


_Result = TypeVar("_Result")


def gc_paused(method: Callable[..., _Result]) -> Callable[..., _Result]:
    """Run ``method`` with the cyclic garbage collector paused.

    A busy table lists tens of thousands of moves, and each automatic collection walks
    every object made so far: paused, the moves (which hold no cycles) cost one walk.
    """

    @wraps(method)
    def paused(*args: object) -> _Result:
        if not gc.isenabled():
            return method(*args)
        gc.disable()
        try:
            return method(*args)
        finally:
            gc.enable()

    return paused


# -- group search ------------------------------------------------------------------------


_TOP = 16  # no value is higher


@lru_cache(maxsize=1 << 14)
def groups_by_sum(options: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """Index ``s``: masks (over ``options``' positions) of the groups adding up to ``s``,
    each once. One pass over the items serves every value (subset sums up to 16)."""
    return ((), *_grown(options)[1:])


@lru_cache(maxsize=1 << 15)
def _grown(options: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """:func:`groups_by_sum` with the empty group at sum 0, grown by the last item from
    the search of the items before it (remembered: the searches of a table's prefixes,
    one per value, and tables sharing their low cards share the work)."""
    if not options:
        return ((0,), *[()] * _TOP)
    found = list(_grown(options[:-1]))
    values = options[-1]
    bit = 1 << (len(options) - 1)
    if len(values) == 1:
        step = values[0]
        for total in range(_TOP - step, -1, -1):  # high first: the item joins each once
            masks = found[total]
            if masks:
                found[total + step] += tuple([m | bit for m in masks])
    else:  # an ace: 1 or 14, from the sums before this card (one sum may come both ways)
        before = tuple(found)
        for step in values:
            for total in range(_TOP - step, -1, -1):
                if before[total]:
                    found[total + step] += tuple([m | bit for m in before[total]])
        found = [tuple(dict.fromkeys(masks)) for masks in found]
    return tuple(found)


def sum_groups(options: tuple[tuple[int, ...], ...], value: int) -> tuple[int, ...]:
    """Masks (over ``options``' positions) of the groups adding up to ``value``, each once.

    Plain positions pass only the loose cards of ranks up to ``value`` (in rank order, so
    positions are kept): the cards after them never join a group, and the shorter key is
    shared by many tables (most of a table lies above a low card's value).
    """
    return groups_by_sum(options)[value] if 0 < value <= _TOP else ()


@lru_cache(maxsize=1 << 14)
def unions_of(groups: tuple[int, ...]) -> tuple[int, ...]:
    """Masks of every union of disjoint ``groups`` (remembered by the groups)."""
    if len(groups) < 2:
        return groups
    return tuple(sorted(union_masks(groups)))


def sum_unions(options: tuple[tuple[int, ...], ...], value: int) -> tuple[int, ...]:
    """:func:`unions_of` the groups of :func:`sum_groups` (same arguments)."""
    return unions_of(sum_groups(options, value))


def card_builds(
    groups: Callable[[int], Sequence[int]], unions: Sequence[int], own: tuple[int, ...], value: int
) -> tuple[int, ...]:
    """Masks of the groupable items that a card worth ``own`` builds into ``value`` with:
    its group (``groups(v)``: the groups of ``v``), then disjoint groups of the value
    (``unions``), never the empty mask (the card alone)."""
    shapes: list[int] = []
    for mine in own:
        if mine == value:
            shapes.append(0)
        elif mine < value:
            shapes.extend(groups(value - mine))
    if not shapes:
        return ()
    apart = {0: (0, *unions)}
    masks = dict.fromkeys([shape | u for shape in shapes for u in _apart(apart, shape)])
    masks.pop(0, None)
    return tuple(masks)


def loose_builds(
    options: tuple[tuple[int, ...], ...], own: tuple[int, ...], value: int
) -> tuple[int, ...]:
    """:func:`card_builds` on the items of ``options`` (the loose cards of ranks up to
    ``value``: a small table's searches, shared by the tables with its low cards).

    Not remembered here: its callers remember the answer by shorter keys."""

    found = groups_by_sum(options)  # every value's groups (on the items cut for ``value``)

    def groups(v: int) -> tuple[int, ...]:
        # Items past the cut for ``v`` are worth more than ``v``: the groups are those of
        # the items that fit in it, in the same order.
        return found[v] if 0 < v <= _TOP else ()

    return card_builds(groups, unions_of(groups(value)), own, value)


def subsets(bits: Iterable[int]) -> list[int]:
    """Masks of every subset of ``bits`` (the empty one first)."""
    found = [0]
    for bit in bits:
        found += [m | bit for m in found]
    return found


def with_wholes(unions: Sequence[int], wholes: list[int]) -> Sequence[int]:
    """Captures of one value: ``unions`` of groups, each alone and with each subset of the
    whole builds of the value (``wholes``, :func:`subsets`), and those builds alone."""
    if len(wholes) == 1:
        return unions
    return [*wholes[1:], *[union | chosen for union in unions for chosen in wholes]]


def build_masks_of(
    loose: Sequence[int],
    unions: Sequence[int],
    own: tuple[int, ...],
    value: int,
    simple: list[tuple[int, int]],
    wholes: list[int],
) -> Sequence[int]:
    """Masks of the items a card worth ``own`` builds into ``value`` with: ``loose``
    (:func:`card_builds`), the simple builds it increases (strict rules pass them,
    ``(bit, value)``), each alone and with the whole builds of the value (``wholes``)."""
    if not simple and len(wholes) == 1:
        return loose  # no builds to join
    masks = list(loose)
    if value in own:
        masks.append(0)  # the card alone: whole builds of its value may join it
    if simple:  # 7.1's increase: the card and a simple build of a lower value
        apart = {0: (0, *unions)}
        for bit, v in simple:
            if value - v in own:
                masks.extend([bit | u for u in _apart(apart, bit)])
    if len(wholes) > 1:  # whole builds never share items with groups
        masks = [mask | chosen for mask in masks for chosen in wholes]
    unique = dict.fromkeys(masks)  # the first of each, in order
    unique.pop(0, None)  # the played card alone
    return list(unique)


def _bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _apart(unions: dict[int, Sequence[int]], shape: int) -> Sequence[int]:
    """The unions (``unions[0]``, in order) sharing no item with ``shape``.

    Remembered in ``unions`` by shape and found from the shape without its highest item:
    shapes share their lower items, so each list is filtered from a shorter one.
    """
    found = unions.get(shape)
    if found is None:
        top = 1 << (shape.bit_length() - 1)
        found = unions[shape] = [u for u in _apart(unions, shape ^ top) if not u & top]
    return found


class _Ones(dict):
    """One card of its rank, in counts per rank (4 bits a rank), by the card."""

    def __missing__(self, card: Card) -> int:
        found = self[card] = 1 << 4 * card.rank
        return found


_ALONE = [0]  # the subsets of no builds
_RANK_ONE = [1 << 4 * rank for rank in range(14)]  # one card of a rank, in counts per rank
_CARD_ONE = _Ones()  # a card's rank in counts per rank, by the card
_RANKS_UP_TO = [(1 << 4 * min(value + 1, 14)) - 1 for value in range(_TOP + 1)]
_TOKENS: dict[tuple[tuple[int, ...], ...], int] = {}
# Plain positions' searches, by the card values' token and the loose cards' counts packed
# into one number (with the value and played rank; builds' shapes beside it).
_PLAIN_OPTIONS: dict[int, tuple[tuple[int, ...], ...]] = {}
_PLAIN_SUMS: dict[int, int] = {}
_PLAIN_UNIONS: dict[int, tuple[int, ...]] = {}
_PLAIN_BUILDS: dict[tuple[int, tuple], Sequence[int]] = {}
_PLAIN_LIMIT = 1 << 16  # entries kept before starting afresh
_BYTE_BITS = [tuple(i for i in range(8) if byte >> i & 1) for byte in range(256)]


class _Getters(dict):
    """For a mask (of eight positions at most: 256 of them), the function giving the tuple
    of a tuple's items at its positions."""

    def __missing__(self, mask: int) -> Callable[[Sequence[Item]], tuple[Item, ...]]:
        positions = _bits(mask)
        if len(positions) > 1:
            found = itemgetter(*positions)
        else:
            found = itemgetter(slice(positions[0], positions[0] + 1))  # a one-item tuple
        self[mask] = found
        return found


_GETTERS = _Getters()


class _Chunk(dict):
    """The items of eight positions, by the byte of a mask that picks them (made once)."""

    __slots__ = ("items",)
    items: Sequence[Item]

    def __missing__(self, byte: int) -> tuple[Item, ...]:
        items = self.items
        found = self[byte] = tuple([items[i] for i in _BYTE_BITS[byte]])
        return found


class Picker:
    """A position's items (``all_items``, pile tops in ``pile_mask`` last) picked by masks,
    as tuples in canonical order; the base of the building games' contexts."""

    all_items: Sequence[Item]
    pile_mask: int
    _chunks: list[_Chunk] | None = None  # made on the first pick
    _ranks: dict[Item, int]

    def take(self, mask: int) -> tuple[Item, ...]:
        """The items of ``mask``."""
        return self.takes([mask])[0]

    def takes(self, masks: Sequence[int]) -> list[tuple[Item, ...]]:
        """The items of each of ``masks`` (one call for many: the engine's hot path)."""
        chunks = self._chunks
        if chunks is None:
            chunks = self._chunks = self._make_chunks()
        if len(chunks) == 1:
            low = chunks[0]
            found = [low[mask] for mask in masks]
        elif len(chunks) == 2:
            low, high = chunks
            found = [low[mask & 255] + high[mask >> 8] for mask in masks]
        elif len(chunks) == 3:  # 16 table items and pile tops
            low, middle, high = chunks
            found = [low[m & 255] + middle[m >> 8 & 255] + high[m >> 16] for m in masks]
        else:
            found = [
                sum((chunk[mask >> 8 * i & 255] for i, chunk in enumerate(chunks)), ())
                for mask in masks
            ]
        if self.pile_mask:  # tops sort in among the table's cards
            pile, ranks = self.pile_mask, self._ranks.__getitem__
            found = [
                tuple(sorted(items, key=ranks)) if mask & pile else items
                for mask, items in zip(masks, found, strict=True)
            ]
        return found

    def _make_chunks(self) -> list[_Chunk]:
        """One :class:`_Chunk` per eight positions (or none: an empty table)."""
        items = self.all_items
        chunks = [_Chunk() for _ in range(0, len(items), 8)]
        for index, chunk in enumerate(chunks):
            chunk.items = items[8 * index : 8 * index + 8]
        if self.pile_mask:  # each item's place in canonical order
            self._ranks = {item: n for n, item in enumerate(sorted(items, key=item_key))}
        return chunks


_SUMS = (1 << 17) - 1  # values never exceed 16


def _reach(options: Iterable[tuple[int, ...]]) -> int:
    """Bit n set: some groupable items add up to n."""
    reach = 1
    for values in options:
        if values is not _NEVER:
            grown = reach
            for v in values:
                grown |= reach << v
            reach = grown & _SUMS
    return reach


def _build_targets(sums: int, own: tuple[int, ...], shape: tuple) -> int:
    """Bit w set: a card worth ``own`` might build w in a plain position (strict rules)
    whose loose cards reach ``sums`` and whose builds are ``shape`` (see ``Casino._plain``).

    A quick filter, never too strict: the card with a group of loose cards, the card and
    groups of its own value, the card with builds of its value, the card increasing a
    simple build.
    """
    found = 0
    for mine in own:
        found |= (sums & ~1) << mine | (sums >> mine & 1) << mine
    for built, multiple in shape[1:]:
        if built in own:
            found |= 1 << built
        if not multiple:
            for mine in own:
                found |= 1 << (built + mine)
    return found


@lru_cache(maxsize=1 << 14)
def _card_table(
    table_values: tuple[tuple[int, ...], ...], ranks: tuple[int, ...]
) -> tuple[tuple[tuple[int, ...], ...], int, tuple[tuple[int, int], ...]]:
    """For a table of loose cards: value options, reachable sums, (rank, bit) of pictures."""
    options = tuple([table_values[rank] or _NEVER for rank in ranks])
    pairs = tuple((rank, 1 << i) for i, rank in enumerate(ranks) if not table_values[rank])
    return options, _reach(options), pairs


Listed = tuple[list[int], list[tuple[Item, ...]]]  # masks, and the items of each
# A card's moves made into no move: whether it trails, then (value, masks) for its
# captures (value ``None``) and for its builds of each value, in the order of the listing.
Parts = tuple[bool, list[tuple[int | None, Sequence[int]]]]
