"""The building games' move rules (RULES.md section 7): one core, small variants.

Design
------
*Table items.* ``Round.table`` holds :class:`~bot.engine.builds.Build` items beside cards.
A build has a declared ``value``, an ``owner`` (the seat that made it or last changed it,
who must hold a card of its value) and its cards in groups (one group: simple; several:
multiple). Capture piles are lists of cards, the top card last.

*Moves.* One :class:`~bot.engine.moves.Move` is one whole turn. ``Move(card, taken)``
captures (builds taken whole), ``Move.build(card, using, value)`` creates, increases or
adds to a build (the played card and the items ``using`` become one build), and
``table_builds`` lists the build actions made without a hand card (Swazi and Sotho, and
permissive Casino's "build from table cards, then trail"). Pile top cards appear in
``taken`` and ``using`` as cards: the building games use single decks, so a card names
its place.

*Groups.* Everything is "items split into groups adding up to a value": a capture takes
groups of the played card's value, a build is groups of its declared value. An item is
*groupable* (a loose card with a number; a simple build under permissive rules, counting
as a card of its value; a usable pile top) or *whole* (a build, taken or built on only
as one group of its own value). Strict 7.1 adds one more group shape, the *increase*:
the played card with one simple build of a lower value. A position's groups come from
one pass over the subset sums of its items (bit masks over positions), remembered by
the items' value options, so tables of the same ranks share the work.

*Ownership.* Each seat must hold, for every distinct value of the builds it owns, its
own card of that value: a matching between owned values and held cards, never one card
for two values (an ace guarding builds of 1 and 14 would leave its owner stuck). Every
move is checked against it, so the owner can always capture its build, and a round can
never reach a position without a legal move.

*Variants as hooks.* :class:`Casino` is 7.1 with its options (permissive building);
Royal Casino and Glimne's Mulle are the same class with other card values (rules data).
:class:`SouthAfrican` overrides the pile-top and drifting hooks; ``swazi.Swazi`` (Swazi
and Sotho) overrides the turn generator with table build actions, owners' rights and
pile tops. ``legal_moves()`` lists every turn; ``Round.play`` and ``is_legal`` check a
move on its own items (no list of moves needed) and explain a refusal in a sentence for
the player. Tests hold the two equal, and both equal to a brute-force generator.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache, wraps
from itertools import combinations
from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple, TypeVar
from weakref import ref

from .builds import Build, Item, item_cards, item_key
from .captures import union_masks
from .cards import Card, card_order
from .moves import IllegalMove, Move, TableBuild
from .reasons import Joined, Reason, reason

_ORDER = card_order()

if TYPE_CHECKING:
    from .round import Round
    from .rules import Rules


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


def clear_caches() -> None:
    """Forget remembered groups (benchmarks time cold searches)."""
    groups_by_sum.cache_clear()
    _grown.cache_clear()
    unions_of.cache_clear()
    _PLAIN_OPTIONS.clear()
    _PLAIN_SUMS.clear()
    _PLAIN_UNIONS.clear()
    _PLAIN_BUILDS.clear()
    _card_table.cache_clear()
    _split_plan.cache_clear()


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


def holds(rules: Rules, values: Iterable[int], cards: Sequence[Card]) -> bool:
    """Whether ``cards`` give each of the distinct ``values`` its own card (a matching)."""
    wanted = sorted(set(values))
    if not wanted:
        return True
    if len(wanted) == 1:  # the common case: one build owned, any card of its value
        value = wanted[0]
        hand_values = rules.hand_values
        return any(value in hand_values[card] for card in cards)
    if len(wanted) > len(cards):
        return False
    options = [
        [i for i, card in enumerate(cards) if value in rules.hand_values[card]] for value in wanted
    ]
    if any(not o for o in options):
        return False
    taken: dict[int, int] = {}

    def place(index: int, seen: set[int]) -> bool:
        for card in options[index]:
            if card in seen:
                continue
            seen.add(card)
            if card not in taken or place(taken[card], seen):
                taken[card] = index
                return True
        return False

    return all(place(index, set()) for index in range(len(wanted)))


def _without(cards: Sequence[Card], card: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(card)
    return rest


def split_groups(
    rules: Rules, parts: Sequence[Item], value: int, played: Card | None, strict: bool
) -> list[tuple[Card, ...]] | None:
    """Split the played card and ``parts`` into groups of ``value``; ``None`` if impossible.

    Builds of ``value`` stay whole (their own groups). A simple build of a lower value
    may share a group: with the played card only (``strict``, 7.1's increase) or with
    any cards (permissive: it counts as a card of its value).
    """
    groups: list[tuple[Card, ...]] = []
    atoms: list[tuple[tuple[int, ...], tuple[Card, ...], str]] = []
    for item in parts:
        if isinstance(item, Card):
            atoms.append((rules.table_values[item.rank], (item,), "card"))
        elif item.value == value:
            groups.extend(item.groups)
        elif item.multiple:
            return None
        else:
            atoms.append(((item.value,), item.cards, "build"))
    if played is not None:
        atoms.insert(0, (rules.table_values[played.rank], (played,), "hand"))
    if not atoms:
        return groups if groups else None
    if _one_group(atoms, value):  # the common simple build: every atom in one group
        return [*groups, tuple([card for atom in atoms for card in atom[1]])]
    plan = _split_plan(tuple([(atom[0], atom[2]) for atom in atoms]), value, strict)
    if plan is None:
        return None
    return groups + [tuple([card for i in group for card in atoms[i][1]]) for group in plan]


@lru_cache(maxsize=1 << 12)
def _split_plan(
    atoms: tuple[tuple[tuple[int, ...], str], ...], value: int, strict: bool
) -> tuple[tuple[int, ...], ...] | None:
    """:func:`_split` by the atoms' values and kinds alone (its choices never look at the
    cards), as groups of atom indices: the same few shapes recur all game."""
    found = _split([(values, (i,), kind) for i, (values, kind) in enumerate(atoms)], value, strict)
    return None if found is None else tuple(found)


def _one_group(atoms: list[tuple[tuple[int, ...], tuple[Card, ...], str]], value: int) -> bool:
    """Whether cards of one value each add up to ``value`` (then they are the only split:
    what :func:`_split` finds first)."""
    total = 0
    for values, _, kind in atoms:
        if len(values) != 1 or kind == "build":
            return False
        total += values[0]
    return total == value


def _split(
    atoms: list[tuple[tuple[int, ...], tuple[Card, ...], str]], value: int, strict: bool
) -> list[tuple[Card, ...]] | None:
    """Backtracking over atoms (the first atom's group is chosen first: groups are tried by
    size, then in order, so the same items always split the same way)."""
    if not atoms:
        return []
    first, rest = atoms[0], atoms[1:]
    if not first[0]:
        return None  # a card without a number is in no group
    lows = [min(a[0], default=_NEVER[0]) for a in rest]
    highs = [max(a[0], default=_NEVER[0]) for a in rest]
    room = value - min(first[0])  # what the rest of the group adds up to, at most
    smallest = sorted(lows)
    for size in range(len(rest) + 1):
        if sum(smallest[:size]) > room:
            break  # every larger group is too big as well
        for chosen in combinations(range(len(rest)), size):
            low = min(first[0]) + sum([lows[i] for i in chosen])
            high = max(first[0]) + sum([highs[i] for i in chosen])
            if not low <= value <= high:
                continue
            group = [first, *(rest[i] for i in chosen)]
            kinds = [a[2] for a in group]
            if (
                strict
                and "build" in kinds
                and (sorted(kinds) != ["build", "hand"] or len(group) != 2)
            ):
                continue
            if low != high and not _sums_to([a[0] for a in group], value):
                continue
            left = [a for i, a in enumerate(rest) if i not in chosen]
            tail = _split(left, value, strict)
            if tail is not None:
                cards = tuple(c for a in group for c in a[1])
                return [cards, *tail]
    return None


def _sums_to(options: Sequence[tuple[int, ...]], target: int) -> bool:
    reach = {0}
    for values in options:
        reach = {r + v for r in reach for v in values if r + v <= target}
    return target in reach


# -- the position, read once -------------------------------------------------------------


class Pile(NamedTuple):
    """A usable pile top: the pile's index in ``Round.piles`` and its top card."""

    index: int
    card: Card


class _Ones(dict):
    """One card of its rank, in counts per rank (4 bits a rank), by the card."""

    def __missing__(self, card: Card) -> int:
        found = self[card] = 1 << 4 * card.rank
        return found


_NEVER = (99,)  # the value options of an item no group may hold: it sorts last
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


class Owners(Picker):
    """A position's items and the mover's own builds (``owned``: value -> mask), with the
    check every move of an owner passes; the base of both readings of a position."""

    rules: Rules
    hand: list[Card]
    owned: dict[int, int]
    owned_mask: int
    drift_free: bool  # owning a build puts no limit on this turn (South African)
    trail_ok: bool
    _rests: dict[Card, list[Card]]
    _keeps: dict[tuple[Card, int, int | None], bool]
    picked: Move | None = None  # the last move the lazy view picked here (legal by making)

    def rest(self, card: Card) -> list[Card]:
        found = self._rests.get(card)
        if found is None:
            found = self._rests[card] = _without(self.hand, card)
        return found

    def keeps(self, card: Card, gone: int, value: int | None = None) -> bool:
        """Whether the hand without ``card`` holds a card for each value the seat still
        owns once the items ``gone`` leave, and for ``value`` (remembered by the seat's
        builds gone: thousands of moves share a few answers)."""
        key = (card, gone & self.owned_mask, value)
        found = self._keeps.get(key)
        if found is None:
            after = self.owned_after(gone)
            if value is not None:
                after.add(value)
            found = self._keeps[key] = holds(self.rules, after, self.rest(card))
        return found

    def kept(self, card: Card, masks: Iterable[int], value: int | None = None) -> list[int]:
        """The ``masks`` whose items may leave (:meth:`keeps`), in order; the many that
        touch none of the seat's builds share one answer."""
        keeps, owned_mask = self.keeps, self.owned_mask
        alone = keeps(card, 0, value)
        return [m for m in masks if (keeps(card, m, value) if m & owned_mask else alone)]

    def owned_after(self, gone: int) -> set[int]:
        """Values of the seat's builds still on the table once the items ``gone`` leave."""
        return {v for v, mask in self.owned.items() if mask & ~gone}

    # The lazy view's count and pick (see :mod:`.legal`): from a card's moves as masks.
    moves: dict[Card, list[Move]]

    def card_parts(self, card: Card) -> Parts | None:
        """The moves of ``card`` as masks (see :data:`Parts`), or ``None`` where the
        moves are listed instead."""
        raise NotImplementedError

    def card_moves(self, card: Card) -> list[Move]:
        """The moves of ``card`` (in the hand), listed."""
        raise NotImplementedError

    def count(self, card: Card) -> int:
        """``len(self.card_moves(card))``, without making the moves where it can."""
        listed = self.moves.get(card)
        if listed is None:
            parts = self.card_parts(card)
            if parts is not None:
                return parts[0] + sum([len(masks) for _, masks in parts[1]])
            listed = self.card_moves(card)
        return len(listed)

    def pick(self, card: Card, index: int) -> Move:
        """``self.card_moves(card)[index]``, making that move alone; the move is kept as
        :attr:`picked`, which :meth:`Casino.check` accepts without a search."""
        listed = self.moves.get(card)
        parts = self.card_parts(card) if listed is None else None
        if parts is None:
            move = (self.card_moves(card) if listed is None else listed)[index]
        else:
            trail, found = parts
            move = None
            if trail:
                if index == 0:
                    move = Move.trail(card)
                index -= 1
            if move is None:
                for value, masks in found:
                    if 0 <= index < len(masks):
                        move = Move._each(card, value, self.takes([masks[index]]))[0]
                        break
                    index -= len(masks)
                else:
                    raise IndexError("no such legal move")
        self.picked = move
        return move


class Context(Owners):
    """One position of a building game, read once to serve every card of the hand.

    Items (table items in canonical order, then usable pile tops) are addressed by
    position; sets of items are bit masks over positions.
    """

    def __init__(self, family: Casino, rnd: Round, seat: int) -> None:
        rules = family.rules
        self.family = family
        self._round = ref(rnd)  # weakly: the round keeps its context
        self.rules = rules
        self.seat = seat
        self.hand = rnd.hands[seat]
        table = rnd.table
        cards = [i for i in table if i.__class__ is Card]
        if len(cards) == len(table):
            self.items: list[Item] = sorted(cards, key=_ORDER)
        else:
            builds = sorted((i for i in table if i.__class__ is not Card), key=item_key)
            self.items = [*sorted(cards, key=_ORDER), *builds]
        self.tops: list[Pile] = family.pile_tops(rnd, seat) if family.tops else []
        self.table_count = len(self.items)
        if self.tops:
            items = [*self.items, *(top.card for top in self.tops)]
            self.pile_mask = ((1 << len(items)) - 1) ^ ((1 << self.table_count) - 1)
        else:
            items = self.items
            self.pile_mask = 0
        self.all_items = items
        self.repeats = rules.decks > 1 and len(set(items)) < len(items)  # identical cards
        table_values = rules.table_values
        permissive = rules.permissive
        self.whole: dict[int, list[int]] = {}  # value -> masks of builds taken whole
        self.simple: list[tuple[int, int]] = []  # (mask, value): strict 7.1 increases
        self.pairs: dict[int, list[int]] = {}  # rank -> masks of loose pictures (no number)
        self.owned: dict[int, int] = {}  # value -> mask of the seat's builds of that value
        if len(items) == len(cards):  # cards only: remembered by their ranks
            ranks = tuple([card.rank for card in items])
            self.options, self.sums, pairs = _card_table(table_values, ranks)
            for rank, bit in pairs:
                self.pairs.setdefault(rank, []).append(bit)
            items = ()
        options: list[tuple[int, ...]] = []
        for position, item in enumerate(items):
            bit = 1 << position
            if item.__class__ is Card:
                values = table_values[item.rank]
                if values:
                    options.append(values)
                else:
                    options.append(_NEVER)
                    self.pairs.setdefault(item.rank, []).append(bit)
                continue
            if item.owner == seat:
                self.owned[item.value] = self.owned.get(item.value, 0) | bit
            if permissive and not item.multiple:
                options.append((item.value,))
            else:
                options.append(_NEVER)
                self.whole.setdefault(item.value, []).append(bit)
                if not item.multiple:
                    self.simple.append((bit, item.value))
        if items:
            self.options = tuple(options)
            self.sums = _reach(options)
        self.owned_mask = 0
        for mask in self.owned.values():
            self.owned_mask |= mask
        self.drift_free = family.drift_free(rnd, seat)
        self.trail_ok = family.trail_allowed(rnd, seat, self)
        counts: dict[int, int] = {}
        hand_values = rules.hand_values
        for card in self.hand:
            for v in hand_values[card]:
                counts[v] = counts.get(v, 0) + 1
        self.held_counts = sorted(counts.items())
        self._unions: dict[int, tuple[int, ...]] = {}
        self._groups: dict[int, tuple[int, ...]] = {}
        self._targets: dict[tuple[int, ...], int] = {}
        self._held: dict[tuple[int, ...], list[int]] = {}
        self._wholes: dict[int, list[int]] = {}
        self._captures: dict[int, list[int]] = {}
        self._builds: dict[tuple[tuple[int, ...], int], list[int]] = {}
        self._taken: dict[tuple[int, ...], Listed] = {}
        self._using: dict[tuple[tuple[int, ...], int], Listed] = {}
        self._rests: dict[Card, list[Card]] = {}
        self._keeps: dict[tuple[Card, int, int | None], bool] = {}
        self.moves: dict[Card, list[Move]] = {}
        self._parts: dict[Card, Parts] = {}

    def card_moves(self, card: Card) -> list[Move]:
        """The moves of ``card`` (in the hand), listed on the first question."""
        return self.family.moves_for(self._round(), self, card)

    def card_parts(self, card: Card) -> Parts | None:
        """:meth:`Casino.context_parts` of ``card`` (remembered); ``None`` where the moves
        are listed instead: identical cards (each move once), or permissive rules (their
        table builds)."""
        if self.repeats or self.rules.permissive:
            return None
        found = self._parts.get(card)
        if found is None:
            found = self._parts[card] = self.family.context_parts(self, card)
        return found

    def unions(self, value: int) -> tuple[int, ...]:
        """Masks of unions of disjoint groups of groupable items adding up to ``value``."""
        found = self._unions.get(value)
        if found is None:
            found = unions_of(self.groups(value)) if self.sums >> value & 1 else ()
            self._unions[value] = found
        return found

    def groups(self, value: int) -> tuple[int, ...]:
        """Masks of single groups of groupable items adding up to ``value``."""
        found = self._groups.get(value)
        if found is None:
            if self.sums >> value & 1 and 0 < value <= _TOP:
                found = groups_by_sum(self.options)[value]  # one pass for every value
            else:
                found = ()
            self._groups[value] = found
        return found

    def wholes(self, value: int) -> list[int]:
        """Masks of every subset (the empty one first) of the whole builds of ``value``."""
        found = self._wholes.get(value)
        if found is None:
            found = self._wholes[value] = subsets(self.whole.get(value, ()))
        return found

    def capture_masks(self, value: int) -> list[int]:
        """Masks of every capture of ``value``: unions of groups and whole builds."""
        found = self._captures.get(value)
        if found is None:
            found = self._captures[value] = list(
                with_wholes(self.unions(value), self.wholes(value))
            )
        return found

    def captures(self, values: tuple[int, ...]) -> Listed:
        """Masks and items of every capture by a card worth ``values`` (an ace takes one
        value for the whole capture); cards of the same values share them."""
        found = self._taken.get(values)
        if found is None:
            found = self._taken[values] = self._listed(self.captures_of(values))
        return found

    def captures_of(self, values: tuple[int, ...]) -> list[int]:
        """Masks of every capture by a card worth ``values`` (an ace takes one value for
        the whole capture)."""
        sums, whole = self.sums, self.whole
        if not any(sums >> v & 1 or v in whole for v in values):
            return []  # nothing on the table makes these values
        if len(values) == 1:
            return self.capture_masks(values[0])
        return list(dict.fromkeys(m for v in values for m in self.capture_masks(v)))

    def builds(self, own: tuple[int, ...], value: int, strict: bool) -> Listed:
        """Masks and items of :meth:`build_masks` (cards of the same values share them)."""
        key = (own, value)
        found = self._using.get(key)
        if found is None:
            masks = self.build_masks(own, value, strict)
            found = self._using[key] = self._listed(masks)
        return found

    def _listed(self, masks: list[int]) -> Listed:
        """``masks`` with their items; with identical cards at two places (two decks), only
        the first mask of the same items (the same move)."""
        items = self.takes(masks)
        if not self.repeats:
            return masks, items
        first: dict[tuple[Item, ...], int] = {}
        for mask, taken in zip(masks, items, strict=True):
            first.setdefault(taken, mask)
        return list(first.values()), list(first)

    def build_masks(self, own: tuple[int, ...], value: int, strict: bool) -> Sequence[int]:
        """Masks of the table items a card worth ``own`` may build into ``value`` with."""
        key = (own, value)
        found = self._builds.get(key)
        if found is None:
            simple = self.simple if strict else []
            unions = self.unions(value)
            loose = card_builds(self.groups, unions, own, value)
            found = build_masks_of(loose, unions, own, value, simple, self.wholes(value))
            self._builds[key] = found
        return found

    def targets(self, own: tuple[int, ...], strict: bool) -> int:
        """Bit w set: a card worth ``own`` might build w (a quick filter)."""
        found = self._targets.get(own)
        if found is None:
            found = self._targets[own] = self._targets_of(own, strict)
        return found

    def _targets_of(self, own: tuple[int, ...], strict: bool) -> int:
        sums = self.sums
        found = 0
        for mine in own:
            found |= (sums & ~1) << mine  # the card and a group of items
            if sums >> mine & 1 and (sums & ~1 or mine in self.whole):
                found |= 1 << mine  # the card on items of its own value
            elif mine in self.whole:
                found |= 1 << mine
            if strict:
                for _, v in self.simple:
                    found |= 1 << (v + mine)
        return found

    def held(self, card: Card) -> list[int]:
        """The values the rest of the hand can take once ``card`` is played."""
        own = self.rules.hand_values[card]
        found = self._held.get(own)
        if found is None:
            found = self._held[own] = [v for v, n in self.held_counts if n > (v in own)]
        return found

    def mask_of(self, items: Sequence[Item]) -> int | None:
        """The mask of ``items`` (a multiset), or ``None`` if some are not there."""
        mask = 0
        for item in items:
            for position, there in enumerate(self.all_items):
                if not mask >> position & 1 and there == item:
                    mask |= 1 << position
                    break
            else:
                return None
        return mask


class Listing(Owners):
    """The moves of a plain position (no pile tops, strict rules), listed whole by
    :meth:`Casino.legal_moves`; ``play`` and ``is_legal`` look moves up in it."""

    # Most positions own no build: what owning one needs is set only then (one fewer
    # dictionary or field to make for each of the many positions of a round).
    family: Casino
    plain: tuple  # the position's reading by :meth:`Casino._plain`
    reading: Context | None = None  # the position read whole, for existence questions
    pile_mask = 0
    owned_mask = 0
    drift_free = trail_ok = True  # the family sets them where owned

    def __init__(
        self, rules: Rules, seat: int, hand: list[Card], items: tuple[Item, ...], owned: dict
    ) -> None:
        self.rules = rules
        self.seat = seat
        self.hand = hand
        self.all_items = items
        self.owned = owned
        if owned:
            self.owned_mask = sum(owned.values())
            self._rests = {}
            self._keeps = {}
        self.moves: dict[Card, list[Move]] = {}
        self._parts: dict[Card, Parts] = {}

    def card_moves(self, card: Card) -> list[Move]:
        """The moves of ``card`` (in the hand), listed on the first question."""
        found = self.moves.get(card)
        if found is None:
            trail, parts = self.card_parts(card) or self.family._plain_parts(self, card, self.plain)
            found = [Move.trail(card)] if trail else []
            repeats = self.plain[5]
            for value, masks in parts:
                found += self.moves_of(card, value, masks, repeats)
            self.moves[card] = found
        return found

    def card_parts(self, card: Card) -> Parts | None:
        """:meth:`Casino._plain_parts` of ``card`` (remembered); ``None`` with identical
        cards on the table (each move is listed once: they are listed)."""
        found = self._parts.get(card)
        if found is None:
            if self.plain[5]:
                return None
            found = self._parts[card] = self.family._plain_parts(self, card, self.plain)
        return found

    def takes(self, masks: Sequence[int]) -> list[tuple[Item, ...]]:
        """The items of each of ``masks`` (on a table of eight items at most, with no
        chunks to make: one getter per mask, made once for every table)."""
        items = self.all_items
        if len(items) > 8:
            return super().takes(masks)
        return [_GETTERS[mask](items) for mask in masks]

    def moves_of(
        self, card: Card, value: int | None, masks: Sequence[int], repeats: bool
    ) -> list[Move]:
        """The moves of ``card`` capturing (``value`` ``None``) or building ``value`` with
        the items of each of ``masks``; with identical cards (``repeats``), each once."""
        items = self.all_items
        if len(items) > 8:
            parts = super().takes(masks)
        else:
            parts = [_GETTERS[mask](items) for mask in masks]
        return Move._each(card, value, dict.fromkeys(parts) if repeats else parts)


# -- the Casino core (7.1, 7.2, 7.3) ----------------------------------------------------


class Casino:
    """Anglo-American Casino (7.1); Royal Casino and Glimne's Mulle differ only in data."""

    tops = False  # whether pile top cards join captures and builds (South African)

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        values = rules.table_values
        self.token = _TOKENS.setdefault(values, len(_TOKENS))  # short for the card values
        # A card's lowest value is at least its rank: the cards that fit in a value are
        # those of ranks up to it (what plain positions' searches rely on).
        self.ranked = all(min(values[rank], default=_TOP) >= rank for rank in range(1, 14))

    # Hooks ------------------------------------------------------------------------------

    def pile_tops(self, rnd: Round, seat: int) -> list[Pile]:
        """Pile top cards the seat may use this turn (none in 7.1)."""
        return []

    def drift_free(self, rnd: Round, seat: int) -> bool:
        """Whether owning a build puts no limit on this turn (South African 2nd deal)."""
        return False

    def trail_allowed(self, rnd: Round, seat: int, ctx: Owners) -> bool:
        """Whether the seat may trail at all (7.1: not while owning a build)."""
        return self.rules.permissive or not ctx.owned

    def build_allowed(self, ctx: Owners, mask: int, value: int) -> bool:
        """A last say on a build move's items (South African pile tops and owners)."""
        return not mask & ctx.pile_mask

    def table_build_with_trail(self) -> bool:
        """Permissive Casino: a build from table cards alone, then a trail."""
        return self.rules.permissive

    # Generation -------------------------------------------------------------------------

    def context(self, rnd: Round) -> Context:
        """The position read whole (kept on the round until it changes)."""
        cached = rnd._context
        if cached is None or cached.seat != rnd.to_move or cached.__class__ is not Context:
            cached = rnd._context = Context(self, rnd, rnd.to_move)
        return cached

    @gc_paused
    def legal_moves(self, rnd: Round) -> list[Move]:
        ctx = rnd._context
        if ctx is None or ctx.seat != rnd.to_move:
            ctx = rnd._context = self._plain(rnd) or Context(self, rnd, rnd.to_move)
        moves: list[Move] = []
        if ctx.__class__ is Listing:
            for card in dict.fromkeys(ctx.hand):
                moves.extend(ctx.card_moves(card))
            return moves
        for card in dict.fromkeys(ctx.hand):
            moves.extend(self.moves_for(rnd, ctx, card))
        return moves

    @gc_paused
    def card_moves(self, rnd: Round, card: Card, kind: str | None = None) -> list[Move]:
        """The legal moves of ``card`` (in the hand to move) of ``kind`` (``None``: all; see
        :data:`.legal.KINDS`), in the order of :meth:`legal_moves`: one card's listing
        (the lazy view's, :mod:`.legal`)."""
        ctx = rnd._context
        if ctx is None or ctx.seat != rnd.to_move:
            ctx = rnd._context = self._plain(rnd) or Context(self, rnd, rnd.to_move)
        listing = ctx.__class__ is Listing
        found = ctx.card_moves(card) if listing else self.moves_for(rnd, ctx, card)
        if kind is None:
            return found
        from .legal import of_kind

        return [move for move in found if of_kind(move, kind)]

    def counts(self, rnd: Round) -> list[tuple[Card, int]] | None:
        """(card, how many legal moves it has) for each distinct card of the hand, in hand
        order, counted from the moves' masks without making them (:meth:`Owners.count`:
        where a position's moves are listed instead, they are listed)."""
        ctx = rnd._context
        if ctx is None or ctx.seat != rnd.to_move:
            ctx = rnd._context = self._plain(rnd) or Context(self, rnd, rnd.to_move)
        if ctx.__class__ is not Listing or ctx.plain[5]:
            return [(card, ctx.count(card)) for card in dict.fromkeys(ctx.hand)]
        # A plain position (most of them): Listing.count inlined, one call per card fewer.
        plain, listed, remembered = ctx.plain, ctx.moves, ctx._parts
        found = []
        for card in dict.fromkeys(ctx.hand):
            moves = listed.get(card)
            if moves is not None:
                found.append((card, len(moves)))
                continue
            parts = remembered.get(card)
            if parts is None:
                parts = remembered[card] = self._plain_parts(ctx, card, plain)
            count = parts[0]
            for _, masks in parts[1]:
                count += len(masks)
            found.append((card, count))
        return found

    def pick(self, rnd: Round, card: Card, index: int) -> Move:
        """The ``index``-th legal move of ``card`` after :meth:`counts` counted it."""
        return rnd._context.pick(card, index)

    def has_moves(self, rnd: Round, card: Card, kind: str | None) -> bool:
        """Whether ``card`` (in the hand to move) has a legal move of ``kind`` (see
        :data:`.legal.KINDS`; ``None``: any), found without listing the card's moves."""
        if kind is None:
            return any(
                self.has_moves(rnd, card, k) for k in ("plain", "capture", "build", "table-build")
            )
        ctx = self._reading(rnd)
        listed = rnd._context.moves.get(card)
        if listed is not None:  # listed already: read the list
            from .legal import of_kind

            return any(of_kind(move, kind) for move in listed)
        if kind == "trail":
            return self.has_moves(rnd, card, "plain") or self.has_moves(rnd, card, "table-build")
        rest = ctx.rest(card)
        if kind == "plain":
            return ctx.trail_ok and (not ctx.owned or holds(self.rules, ctx.owned, rest))
        if kind == "capture":
            return self._any_capture(ctx, card, rest)
        if kind == "build":
            return self._any_build(ctx, card)
        return self._any_table_build(ctx, card)

    def _reading(self, rnd: Round) -> Context:
        """A :class:`Context` of the position for existence questions: the round's own,
        or beside a plain position's :class:`Listing` (which stays the round's, so
        ``legal_moves()`` lists in its one order)."""
        ctx = rnd._context
        if ctx is None or ctx.seat != rnd.to_move:
            ctx = rnd._context = self._plain(rnd) or Context(self, rnd, rnd.to_move)
        if ctx.__class__ is Listing:
            if ctx.reading is None:
                ctx.reading = Context(self, rnd, rnd.to_move)
            return ctx.reading
        return ctx

    def _any_capture(self, ctx: Context, card: Card, rest: list[Card]) -> bool:
        """:meth:`_captures` finds a move (the first found ends the search)."""
        rules = self.rules
        owned = ctx.owned
        values = rules.hand_values[card]
        if not values:
            if owned and not holds(rules, owned, rest):
                return False
            return bool(ctx.pairs.get(card.rank))
        for value in values:
            if not (ctx.sums >> value & 1 or value in ctx.whole):
                continue
            if not owned:
                return True
            if any(ctx.keeps(card, mask) for mask in ctx.capture_masks(value)):
                return True
        return False

    def _any_build(self, ctx: Context, card: Card) -> bool:
        """:meth:`_builds` finds a move."""
        rules = self.rules
        own = rules.table_values[card.rank]
        if not own or not ctx.all_items or not (ctx.sums != 1 or ctx.whole or ctx.simple):
            return False
        owned = ctx.owned
        allowed = self.build_allowed
        strict = not rules.permissive
        targets = ctx.targets(own, strict)
        for value in ctx.held(card):
            if not targets >> value & 1:
                continue
            masks = ctx.build_masks(own, value, strict)
            if not (ctx.pile_mask or owned):
                if masks:
                    return True
                continue
            if any(
                allowed(ctx, mask, value) and (not owned or ctx.keeps(card, mask, value))
                for mask in masks
            ):
                return True
        return False

    def _any_table_build(self, ctx: Context, card: Card) -> bool:
        """:meth:`_table_builds` finds a move."""
        if not (ctx.trail_ok and self.rules.permissive and ctx.all_items):
            return False
        owned = ctx.owned
        for value in ctx.held(card):
            wholes = ctx.wholes(value)
            for union in (0, *ctx.unions(value)):
                if union & ctx.pile_mask:
                    continue
                for chosen in wholes:
                    mask = union | chosen
                    if mask.bit_count() >= 2 and (not owned or ctx.keeps(card, mask, value)):
                        return True
        return False

    def _plain(self, rnd: Round) -> Listing | None:
        """Every move of a plain position (see :class:`Listing`); ``None`` for any other.

        Most positions of a round are plain. Their loose cards are read as counts per rank
        (cards in rank order: the cards that fit in a value are the first ones), and the
        searches on them are remembered across positions by those counts.
        """
        rules = self.rules
        seat = rnd.to_move
        if not self.ranked or rules.permissive or (self.tops and self.pile_tops(rnd, seat)):
            return None
        table = rnd.table
        cards = sorted([item for item in table if item.__class__ is Card], key=_ORDER)
        counts = sum(map(_CARD_ONE.__getitem__, cards))  # 4 bits per rank
        items: list[Item] = cards
        wholes: dict[int, list[int]] = {}  # value -> subsets of the builds of that value
        owned: dict[int, int] = {}  # value -> mask of the mover's builds of that value
        shape: tuple = ()  # the builds' values and kinds, after the loose cards
        if len(cards) < len(table):
            builds = sorted([item for item in table if item.__class__ is not Card], key=item_key)
            items = [*cards, *builds]
            for position, build in enumerate(builds, len(cards)):
                bit = 1 << position
                wholes.setdefault(build.value, []).append(bit)
                if build.owner == seat:
                    owned[build.value] = owned.get(build.value, 0) | bit
            wholes = {value: subsets(bits) for value, bits in wholes.items()}
            shape = (len(cards), *[(build.value, build.multiple) for build in builds])
        hand = rnd.hands[seat]
        held: dict[int, int] = {}  # value -> cards of the hand worth it
        hand_values = rules.hand_values
        for card in hand:
            for value in hand_values[card]:
                held[value] = held.get(value, 0) + 1
        repeats = rules.decks > 1 and len(set(items)) < len(items)  # identical cards
        listing = Listing(rules, seat, hand, tuple(items), owned)
        if owned:
            listing.drift_free = self.drift_free(rnd, seat)
            listing.trail_ok = self.trail_allowed(rnd, seat, listing)
        listing.plain = (counts, self.plain_sums(counts), wholes, shape, held, repeats)
        listing.family = self
        return listing

    def _plain_parts(
        self, listing: Listing, card: Card, plain: tuple
    ) -> tuple[bool, list[tuple[int | None, Sequence[int]]]]:
        """The moves of ``card`` in a plain position as masks, made into no move: whether
        it may trail, and (value, masks) for its captures (value ``None``) and then for
        the builds of each value, in the order of :meth:`legal_moves` (none empty).

        ``sums`` (bit n: some loose cards add up to n) skips the searches that cannot
        find anything, most of them: a search not made is not remembered either.
        """
        counts, sums, wholes, shape, held, _repeats = plain
        rules = self.rules
        owned = listing.owned
        trail = not owned or (listing.trail_ok and listing.keeps(card, 0))
        parts: list[tuple[int | None, Sequence[int]]] = []
        values = rules.hand_values[card]
        masks: Sequence[int] = []
        for value in values:
            if sums >> value & 1:
                unions = self.plain_unions(counts & _RANKS_UP_TO[value], value)
            elif value in wholes:
                unions = ()
            else:
                continue  # nothing on the table makes ``value``
            found_here = with_wholes(unions, wholes[value]) if value in wholes else unions
            masks = found_here if not masks else list(dict.fromkeys([*masks, *found_here]))
        items = listing.all_items
        if not values:  # a picture without a number pairs one loose card of its rank
            rank = card.rank
            masks = [1 << i for i, c in enumerate(items) if c.__class__ is Card and c.rank == rank]
        if owned:  # the mover keeps a card for each of its builds left
            masks = listing.kept(card, masks)
        if masks:
            parts.append((None, masks))
        own = rules.table_values[card.rank]
        if not own or not items:
            return trail, parts
        if shape or len(own) > 1:
            targets = _build_targets(sums, own, shape)
        else:  # the common case, as _build_targets finds it
            mine = own[0]
            targets = (sums & ~1 | sums >> mine & 1) << mine
        for value, count in held.items():
            # the rest of the hand holds ``value``, and the card may build it
            if count > (value in values) and targets >> value & 1:
                masks = self.plain_builds(counts & _RANKS_UP_TO[value], card.rank, value, shape)
                if owned:
                    masks = [
                        mask
                        for mask in listing.kept(card, masks, value)
                        if self.build_allowed(listing, mask, value)
                    ]
                if masks:
                    parts.append((value, masks))
        return trail, parts

    def options_of(self, counts: int) -> tuple[tuple[int, ...], ...]:
        """The value options of loose cards, in rank order, from their counts per rank
        (remembered: a position's searches for several values ask for the same cards)."""
        key = self.token << 64 | counts
        found = _PLAIN_OPTIONS.get(key)
        if found is None:
            if len(_PLAIN_OPTIONS) > _PLAIN_LIMIT:
                _PLAIN_OPTIONS.clear()
            table_values = self.rules.table_values
            options: list[tuple[int, ...]] = []
            while counts:  # the ranks present, lowest first
                rank = ((counts & -counts).bit_length() - 1) >> 2
                options += [table_values[rank] or _NEVER] * (counts >> 4 * rank & 15)
                counts &= ~(15 << 4 * rank)
            found = _PLAIN_OPTIONS[key] = tuple(options)
        return found

    def plain_sums(self, counts: int) -> int:
        """:func:`_reach` of the loose cards ``counts`` (remembered by the counts), grown
        by the highest card from the sums of the cards below it: most positions are new,
        but the cards below their highest one were mostly seen."""
        key = self.token << 64 | counts
        found = _PLAIN_SUMS.get(key)
        if found is None:
            if not counts:
                return 1  # the empty group
            if len(_PLAIN_SUMS) > _PLAIN_LIMIT:
                _PLAIN_SUMS.clear()
            rank = (counts.bit_length() - 1) >> 2  # the highest rank present
            below = self.plain_sums(counts - _RANK_ONE[rank])
            found = below
            for value in self.rules.table_values[rank]:
                found |= below << value
            found = _PLAIN_SUMS[key] = found & _SUMS
        return found

    def plain_unions(self, counts: int, value: int) -> tuple[int, ...]:
        """:func:`sum_unions` of the loose cards ``counts`` (remembered by the counts)."""
        key = (self.token << 64 | counts) << 5 | value
        found = _PLAIN_UNIONS.get(key)
        if found is None:
            if len(_PLAIN_UNIONS) > _PLAIN_LIMIT:
                _PLAIN_UNIONS.clear()
            found = _PLAIN_UNIONS[key] = sum_unions(self.options_of(counts), value)
        return found

    def plain_builds(self, counts: int, rank: int, value: int, shape: tuple) -> Sequence[int]:
        """:func:`build_masks_of` for a card of ``rank`` on the loose cards ``counts`` and
        the builds of ``shape`` (``(loose cards, (value, multiple) of each build...)``)."""
        key = ((self.token << 64 | counts) << 4 | rank) << 5 | value, shape
        found = _PLAIN_BUILDS.get(key)
        if found is None:
            if len(_PLAIN_BUILDS) > _PLAIN_LIMIT:
                _PLAIN_BUILDS.clear()
            own = self.rules.table_values[rank]
            fit = self.options_of(counts)
            if shape:
                simple, whole = [], []
                for position, (built, multiple) in enumerate(shape[1:], shape[0]):
                    if built == value:
                        whole.append(1 << position)
                    if not multiple:
                        simple.append((1 << position, built))
                loose = self.plain_builds(counts, rank, value, ())  # remembered too
                unions = sum_unions(fit, value)
                found = build_masks_of(loose, unions, own, value, simple, subsets(whole))
            else:
                found = loose_builds(fit, own, value)
            _PLAIN_BUILDS[key] = found
        return found

    def moves_for(self, rnd: Round, ctx: Context, card: Card) -> list[Move]:
        """Every legal move playing ``card``, each once (remembered for the position)."""
        found = ctx.moves.get(card)
        if found is not None:
            return found
        rules = self.rules
        owned = ctx.owned
        rest = ctx.rest(card) if owned or rules.permissive else ctx.hand
        found = []
        trail_ok = ctx.trail_ok
        if trail_ok and (not owned or holds(rules, owned, rest)):
            found.append(Move.trail(card))
        if ctx.all_items:
            self._captures(ctx, card, rest, found)
            if ctx.sums != 1 or ctx.whole or ctx.simple:
                self._builds(ctx, card, rest, found)
            if trail_ok and rules.permissive:
                self._table_builds(ctx, card, rest, found)
        ctx.moves[card] = found
        return found

    def context_parts(self, ctx: Context, card: Card) -> Parts:
        """The moves of ``card`` as masks (:data:`Parts`), found as :meth:`moves_for`
        finds them (strict rules, no identical cards: no table builds, no repeats)."""
        rules = self.rules
        owned = ctx.owned
        rest = ctx.rest(card) if owned else ctx.hand
        trail = ctx.trail_ok and (not owned or holds(rules, owned, rest))
        parts: list[tuple[int | None, Sequence[int]]] = []
        if not ctx.all_items:
            return trail, parts
        values = rules.hand_values[card]
        if not values:  # a picture without a number pairs one loose card of its rank
            if not owned or holds(rules, owned, rest):
                masks: Sequence[int] = ctx.pairs.get(card.rank, [])
                if masks:
                    parts.append((None, masks))
        else:
            masks = ctx.captures_of(values)
            if owned:
                masks = [mask for mask in masks if ctx.keeps(card, mask)]
            if masks:
                parts.append((None, masks))
        own = rules.table_values[card.rank]
        if not own or not (ctx.sums != 1 or ctx.whole or ctx.simple):
            return trail, parts
        allowed = self.build_allowed
        targets = ctx.targets(own, True)
        for value in ctx.held(card):
            if not targets >> value & 1:
                continue
            masks = ctx.build_masks(own, value, True)
            if ctx.pile_mask or owned:
                masks = [
                    mask
                    for mask in masks
                    if allowed(ctx, mask, value) and (not owned or ctx.keeps(card, mask, value))
                ]
            if masks:
                parts.append((value, masks))
        return trail, parts

    def _captures(self, ctx: Context, card: Card, rest: list[Card], out: list[Move]) -> None:
        rules = self.rules
        owned = ctx.owned
        values = rules.hand_values[card]
        if not values:  # a picture without a number pairs one loose card of its rank
            if owned and not holds(rules, owned, rest):
                return
            out.extend(Move._each(card, None, ctx.takes(ctx.pairs.get(card.rank, []))))
            return
        masks, taken = ctx.captures(values)
        if not masks:
            return
        if owned:
            taken = [
                items for mask, items in zip(masks, taken, strict=True) if ctx.keeps(card, mask)
            ]
        out.extend(Move._each(card, None, taken))

    def _builds(self, ctx: Context, card: Card, rest: list[Card], out: list[Move]) -> None:
        rules = self.rules
        own = rules.table_values[card.rank]
        if not own:
            return  # pictures without a number are never built
        owned = ctx.owned
        allowed = self.build_allowed
        strict = not rules.permissive
        targets = ctx.targets(own, strict)
        for value in ctx.held(card):
            if not targets >> value & 1:
                continue
            masks, using = ctx.builds(own, value, strict)
            if ctx.pile_mask or owned:
                using = [
                    items
                    for mask, items in zip(masks, using, strict=True)
                    if allowed(ctx, mask, value) and (not owned or ctx.keeps(card, mask, value))
                ]
            out.extend(Move._each(card, value, using))

    def _table_builds(self, ctx: Context, card: Card, rest: list[Card], out: list[Move]) -> None:
        """Permissive: build with table items only (no pile tops), then trail ``card``."""
        owned = ctx.owned
        made: list[TableBuild] = []
        for value in ctx.held(card):  # the rest of the hand holds ``value``
            wholes = ctx.wholes(value)
            unions = [u for u in (0, *ctx.unions(value)) if not u & ctx.pile_mask]
            masks = [
                mask
                for union in unions
                for chosen in wholes
                if (mask := union | chosen).bit_count() >= 2
                and (not owned or ctx.keeps(card, mask, value))
            ]
            made.extend([TableBuild(value, items) for items in ctx.takes(masks)])
        if ctx.repeats:
            made = list(dict.fromkeys(made))
        make = Move._made
        out.extend([make(card, (), None, (), (extra,)) for extra in made])

    # Playing ----------------------------------------------------------------------------

    def check(self, rnd: Round, move: Move) -> None:
        """Raise :class:`IllegalMove` with a reason unless ``move`` is legal now.

        The move is checked directly (no list of moves is made), so checking stays cheap
        on any table; tests hold it equal to :meth:`legal_moves`.
        """
        if not isinstance(move, Move) or not isinstance(move.card, Card):
            raise IllegalMove(reason("that is not a move"))
        known = rnd._context  # legal_moves() may have listed this card's moves
        if known is not None and known.seat == rnd.to_move:
            if move is known.picked:  # made by the lazy view from this position's listing
                return
            listed = known.moves.get(move.card)
            if listed is None and known.__class__ is Listing and move.card in known.hand:
                listed = known.card_moves(move.card)  # a plain position: list the card
            if listed is not None:
                if move in listed:
                    return
                raise IllegalMove(self.explain(rnd, self.context(rnd), move))
        ctx = self.context(rnd)
        if move.card not in ctx.hand:
            raise IllegalMove(reason("{card} is not in your hand", card=move.card))
        if not self.valid(rnd, ctx, move):
            raise IllegalMove(self.explain(rnd, ctx, move))

    def valid(self, rnd: Round, ctx: Context, move: Move) -> bool:
        """Whether ``move`` (with the card in hand) is legal, checked on its own items."""
        rules = self.rules
        card = move.card
        rest = ctx.rest(card)
        owned = ctx.owned
        free = 0
        masks = []
        for part in (move.taken, move.using, *(b.using for b in move.table_builds)):
            mask = _locate(ctx.all_items, part, free)
            if mask is None:
                return False
            free |= mask
            masks.append(mask)
        taken_mask, using_mask = masks[0], masks[1]
        strict = not rules.permissive
        if move.table_builds:
            if not (rules.permissive and move.is_trail and len(move.table_builds) == 1):
                return False
            extra = move.table_builds[0]
            mask = masks[2]
            if not ctx.trail_ok or mask.bit_count() < 2 or mask & ctx.pile_mask:
                return False
            if extra.value not in ctx.held(card):
                return False
            if split_groups(rules, extra.using, extra.value, None, False) is None:
                return False
            return ctx.keeps(card, mask, extra.value)
        if move.value is not None:
            value = move.value
            if not rules.table_values[card.rank] or not move.using:
                return False
            if value not in ctx.held(card) or not self.build_allowed(ctx, using_mask, value):
                return False
            if split_groups(rules, move.using, value, card, strict) is None:
                return False
            return not owned or ctx.keeps(card, using_mask, value)
        if move.taken:
            values = rules.hand_values[card]
            if not values:
                pair = any(bit == taken_mask for bit in ctx.pairs.get(card.rank, ()))
                return pair and (not owned or holds(rules, owned, rest))
            if not any(
                split_groups(rules, move.taken, v, None, strict) is not None for v in values
            ):
                return False
            return not owned or ctx.keeps(card, taken_mask)
        return ctx.trail_ok and (not owned or holds(rules, owned, rest))

    def explain(self, rnd: Round, ctx: Context, move: Move) -> Reason:
        """Why ``move`` is illegal, for the player."""
        rules = self.rules
        card = move.card
        rest = ctx.rest(card)
        missing = self._explain_items(ctx, move)
        if missing:
            return missing
        if move.table_builds and not (self.table_build_with_trail() and move.is_trail):
            return reason(
                "you may build with table cards alone only as you trail (permissive rules)"
            )
        if move.is_trail:
            if not self.trail_allowed(rnd, ctx.seat, ctx):
                return reason("you own a build: you cannot trail")
            if not holds(rules, ctx.owned, rest):
                return _keep_message(rules, ctx.owned, rest)
            if move.table_builds:
                build = move.table_builds[0]
                return self._explain_build(ctx, card, build.value, build.using, rest, True)
            return reason("that move is not allowed")
        if move.kind == "capture":
            return self._explain_capture(ctx, card, move.taken, rest)
        return self._explain_build(ctx, card, move.value, move.using, rest, False)

    def _explain_items(self, ctx: Context, move: Move) -> Reason | None:
        wanted = Counter(move.taken) + Counter(move.using)
        for build in move.table_builds:
            wanted.update(build.using)
        missing = wanted - Counter(ctx.all_items)
        if not missing:
            return None
        item = next(iter(missing.elements()))
        if isinstance(item, Card) and any(
            isinstance(b, Build) and item in b.cards for b in ctx.items
        ):
            return reason(
                "{item} is in a build: a build is taken whole, by a card of its value", item=item
            )
        return reason("{item} is not on the table", item=item)

    def _explain_capture(
        self, ctx: Context, card: Card, taken: tuple[Item, ...], rest: list[Card]
    ) -> Reason:
        rules = self.rules
        values = rules.hand_values[card]
        pair = len(taken) == 1 and isinstance(taken[0], Card) and taken[0].rank == card.rank
        if not values and not pair:
            name = card.rank_name
            return reason(
                "a {name} takes one {name} from the table: pictures have no number", name=name
            )
        for item in taken:
            if isinstance(item, Build) and item.value not in values:
                return reason("a build is taken whole, by a card of its value")
            if isinstance(item, Card) and not rules.table_values[item.rank] and values:
                return reason("{item} has no number: only a card of its rank takes it", item=item)
        mask = ctx.mask_of(taken)
        if mask is not None and values:
            owned = ctx.owned_after(mask)
            if self._is_capture(ctx, card, mask) and not holds(rules, owned, rest):
                return _keep_message(rules, owned, rest)
        shown = Joined(taken, " + ")
        made = Joined(values, " or ") if values else card.rank_name
        return reason("{taken} do not make {values}", taken=shown, values=made)

    def _is_capture(self, ctx: Context, card: Card, mask: int) -> bool:
        for value in self.rules.hand_values[card]:
            for union in (0, *ctx.unions(value)):
                if mask & ~union and (mask & ~union) in ctx.wholes(value):
                    return True
                if mask == union:
                    return True
        return False

    def _explain_build(
        self,
        ctx: Context,
        card: Card,
        value: int | None,
        using: tuple[Item, ...],
        rest: list[Card],
        table_only: bool,
    ) -> Reason:
        rules = self.rules
        if value is None:
            return reason("that move is not allowed")
        if not table_only and not rules.table_values[card.rank]:
            return reason("a {name} has no number: it cannot be built", name=card.rank_name)
        if not using:
            return reason("a build needs cards from the table besides the card you play")
        if not any(value in rules.hand_values[c] for c in rest):
            return reason("you must keep a card of value {value} to build {value}", value=value)
        for item in using:
            if isinstance(item, Build) and item.multiple and item.value != value:
                return reason("a multiple build's value cannot change")
            if isinstance(item, Card) and not rules.table_values[item.rank]:
                return reason("{item} has no number: it cannot be built", item=item)
        mask = ctx.mask_of(using)
        if mask is not None and not table_only and not self.build_allowed(ctx, mask, value):
            return self._pile_build_message()
        played = None if table_only else card
        strict = not rules.permissive
        if split_groups(rules, using, value, played, strict) is None:
            if strict and split_groups(rules, using, value, played, False) is not None:
                return reason("only the card you play can change a build's value")
            parts = Joined((*([] if table_only else [card]), *using), " + ")
            return reason("{items} do not make groups of {value}", items=parts, value=value)
        after = (ctx.owned_after(mask) if mask is not None else set()) | {value}
        if not holds(rules, after, rest):
            return _keep_message(rules, after, rest, several=True)
        return reason("that build is not allowed")

    def _pile_build_message(self) -> Reason:
        return reason("you may not build with cards from a capture pile")

    def apply(self, rnd: Round, move: Move) -> tuple[bool, bool, bool]:
        """Play a legal ``move``: returns (sweep, sweep scores, mulle)."""
        seat = rnd.to_move
        rnd.hands[seat].remove(move.card)
        for build in move.table_builds:
            self._place_build(rnd, seat, None, build.value, build.using)
        if move.taken:  # a capture
            return self._capture(rnd, seat, move)
        if move.value is not None:  # a build
            self._place_build(rnd, seat, move.card, move.value, move.using)
        else:
            rnd.table.append(move.card)
        return (False, False, False)

    def _take(self, rnd: Round, items: Iterable[Item]) -> list[Item]:
        """Remove items from the table (or pile tops); returns them."""
        out = []
        table = rnd.table
        for item in items:
            try:
                table.remove(item)
            except ValueError:
                for pile in rnd.piles:
                    if pile and pile[-1] == item:
                        pile.pop()
                        break
                else:  # pragma: no cover - the move was checked
                    raise IllegalMove(reason("{item} is not on the table", item=item))
            out.append(item)
        return out

    def _place_build(
        self, rnd: Round, seat: int, played: Card | None, value: int, using: Sequence[Item]
    ) -> Build:
        strict = not self.rules.permissive
        groups = split_groups(self.rules, using, value, played, strict)
        if groups is None:
            groups = split_groups(self.rules, using, value, played, False)
        assert groups is not None, "a checked build splits into groups"
        table = rnd.table
        wanted = set(using)
        where = next((n for n, item in enumerate(table) if item in wanted), len(table))
        self._take(rnd, using)
        build = Build._made(groups, value, self.owner_of(rnd, seat, value))
        table.insert(min(where, len(table)), build)
        return build

    def owner_of(self, rnd: Round, seat: int, value: int) -> int:
        return seat

    def _capture(self, rnd: Round, seat: int, move: Move) -> tuple[bool, bool, bool]:
        table_before = len(rnd.table)
        taken = self._take(rnd, move.taken)
        sweep = table_before > 0 and not rnd.table
        scores = sweep and not rnd._sweep_void()
        cards = [c for item in taken for c in item_cards(item)]
        rnd.add_to_pile(seat, move.card, taken, cards)
        rnd.last_capturer = seat
        mulle = self.rules.mulle_twin and move.card in cards
        if sweep:
            rnd.sweeps[seat] += 1
            rnd.void_sweeps[seat] += not scores
        if mulle:
            rnd.mulles[seat] += 1
            rnd.mulle_points[seat] += self.rules.hand_values[move.card][0]
        return (sweep, scores, mulle)


def _locate(everything: Sequence[Item], items: Sequence[Item], taken: int) -> int | None:
    """The mask of ``items`` among the positions of ``everything`` not in ``taken``
    (identical cards: the first free ones), or ``None`` if some are not there."""
    mask = 0
    for item in items:
        for position, there in enumerate(everything):
            bit = 1 << position
            if not (taken | mask) & bit and there == item:
                mask |= bit
                break
        else:
            return None
    return mask


def _keep_message(
    rules: Rules, values: Iterable[int], cards: Sequence[Card], *, several: bool = False
) -> Reason:
    wanted = sorted(set(values))
    lone = [v for v in wanted if not any(v in rules.hand_values[c] for c in cards)]
    if lone:
        if several:
            return reason("you must keep a card of value {value} for your builds", value=lone[0])
        return reason("you must keep a card of value {value} for your build", value=lone[0])
    shown = Joined(wanted, " and ")
    return reason(
        "one card cannot guard two builds: you need a card for each of the values {values}",
        values=shown,
    )


# -- South African Casino (7.6) ---------------------------------------------------------


class SouthAfrican(Casino):
    """7.6: the top card of each other player's pile joins captures, and owners' builds."""

    tops = True

    def pile_tops(self, rnd: Round, seat: int) -> list[Pile]:
        return [
            Pile(index, pile[-1]) for index, pile in enumerate(rnd.piles) if pile and index != seat
        ]

    def drift_free(self, rnd: Round, seat: int) -> bool:
        return rnd.players == 2 and rnd.deal_number >= 2  # the second deal: drift freely

    def trail_allowed(self, rnd: Round, seat: int, ctx: Owners) -> bool:
        return not ctx.owned or ctx.drift_free

    def build_allowed(self, ctx: Owners, mask: int, value: int) -> bool:
        owns_one = bool(mask & ctx.owned_mask)
        if ctx.owned and not owns_one and not ctx.drift_free:
            return False  # owning a build, you must add to it or capture
        return owns_one or not mask & ctx.pile_mask

    def _pile_build_message(self) -> Reason:
        return reason(
            "a pile's top card may join only a build you own, as you add a card to it; "
            "while you own a build you must add to it or capture"
        )


def family_for(rules: Rules) -> Casino:
    """The move rules of a building game."""
    if rules.builds == "south-african":
        return SouthAfrican(rules)
    if rules.builds == "swazi":
        from .swazi import Swazi

        return Swazi(rules)
    return Casino(rules)
