"""How the Casino family's moves are listed fast (the rules are in :mod:`.casino`).

:class:`Context` reads a position once (its items as bit positions, the owners' needs);
:class:`Listing` serves plain positions (no builds, no pile cards) from searches
remembered by the cards' ranks; :class:`CasinoListing` is the family's move generator,
the lazy view's counts and picks and its existence searches. Tests hold it equal to the
rules' own check of each move and to a brute-force generator.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING
from weakref import ref

from .buildgroups import (
    _CARD_ONE,
    _GETTERS,
    _ORDER,
    _PLAIN_BUILDS,
    _PLAIN_LIMIT,
    _PLAIN_OPTIONS,
    _PLAIN_SUMS,
    _PLAIN_UNIONS,
    _RANK_ONE,
    _RANKS_UP_TO,
    _SUMS,
    _TOP,
    Listed,
    Parts,
    Picker,
    _build_targets,
    _card_table,
    _reach,
    build_masks_of,
    card_builds,
    gc_paused,
    groups_by_sum,
    loose_builds,
    subsets,
    sum_unions,
    unions_of,
    with_wholes,
)
from .building import _NEVER, Pile, _without, holds
from .builds import Item, item_key
from .cards import Card
from .legal import of_kind
from .moves import Move, TableBuild

if TYPE_CHECKING:
    from .casino import Casino
    from .round import Round
    from .rules import Rules


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


class CasinoListing:
    """The Casino family's move generation (mixed into :class:`.casino.Casino`)."""

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
