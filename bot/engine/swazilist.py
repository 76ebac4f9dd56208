"""How Swazi and Sotho turns are listed fast (the rules are in :mod:`.swazi`).

:class:`SwaziContext` reads a position once: loose cards, builds and pile cards as bit
positions, their groups per value with flags for the shapes they may split into.
:class:`SwaziListing` generates the turns (captures, builds, trails with table builds)
and answers the lazy view; every turn found is settled by the rules' end-of-turn check.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

from .buildgroups import (
    Picker,
    _bits,
    gc_paused,
    groups_by_sum,
)
from .buildlist import CasinoListing
from .builds import Build, Item, item_key
from .cards import Card, card_order
from .legal import of_kind
from .moves import Move, TableBuild

if TYPE_CHECKING:
    from .round import Round
    from .swazi import Swazi

_ORDER = card_order()
_NEVER = (99,)
PILE_DEPTH = 4  # a turn may reach at most this far down a capture pile

# Flags of a union of groups (over all the ways it splits into groups).
SINGLE = 1  # it is one group
BASE = 2  # some split has a group without pile cards
MULTI = 4  # some split has two or more groups
MULTI_BASE = 8  # some split has two or more groups, one without pile cards


class Touch(NamedTuple):
    """A build made or changed this turn: its value, its items and how it came about."""

    value: int
    mask: int  # the table and pile items in it (not the hand card)
    played: bool  # the hand card is in it
    changed: int  # bit of the opponent's simple build whose value the hand card changed
    kept: int  # mask of the side's own build of this value it grows (0: none)


class SwaziContext(Picker):
    """A Swazi or Sotho position read once: items, groups, owners."""

    def __init__(self, family: Swazi, rnd: Round, seat: int) -> None:
        rules = family.rules
        self.rules = rules
        self.family = family
        self.seat = seat
        self.players = rnd.players
        self.side = rules.side_of(seat)
        self.partner = (seat + 2) % 4 if rules.teams else None
        self.hands = rnd.hands
        self.hand = rnd.hands[seat]
        self.known = rnd.known
        cards = sorted((i for i in rnd.table if isinstance(i, Card)), key=_ORDER)
        builds = sorted((i for i in rnd.table if isinstance(i, Build)), key=item_key)
        items: list[Item] = [*cards, *builds]
        self.table_count = len(items)
        self.loose_mask = (1 << len(cards)) - 1
        # Pile cards, pile by pile, top first.
        self.pile_spans: list[tuple[int, int, int]] = []  # (pile index, first bit, count)
        self.pile_of_bit: dict[int, int] = {}
        for index in family.usable_piles(rnd, seat):
            pile = rnd.piles[index]
            reach = pile[::-1][:PILE_DEPTH]
            if not reach:
                continue
            start = len(items)
            items.extend(reach)
            self.pile_spans.append((index, start, len(reach)))
            for position in range(start, start + len(reach)):
                self.pile_of_bit[1 << position] = index
        self.all_items = items
        self.pile_mask = ((1 << len(items)) - 1) ^ ((1 << self.table_count) - 1)
        table_values = rules.table_values
        options = []
        for item in items:
            if isinstance(item, Card) and table_values[item.rank]:
                options.append(table_values[item.rank])
            else:
                options.append(_NEVER)
        self.options = tuple(options)
        self.build_mask = ((1 << self.table_count) - 1) ^ self.loose_mask
        self.owner: dict[int, int] = {}  # build bit -> owner seat
        self.side_builds: dict[int, int] = {}  # value -> bit of the side's build
        self.opp_builds: dict[int, int] = {}  # value -> bit of an opponent's build
        self.opp_simple: list[tuple[int, int]] = []  # (bit, value)
        self.builds_of: dict[int, int] = {}  # value -> mask of every build of that value
        for position in range(len(cards), self.table_count):
            build = items[position]
            bit = 1 << position
            self.owner[bit] = build.owner
            self.builds_of[build.value] = self.builds_of.get(build.value, 0) | bit
            if rules.side_of(build.owner) == self.side:
                self.side_builds[build.value] = self.side_builds.get(build.value, 0) | bit
            else:
                self.opp_builds[build.value] = bit
                if not build.multiple:
                    self.opp_simple.append((bit, build.value))
        self.build_list = [
            (bit, items[bit.bit_length() - 1].value, owner) for bit, owner in self.owner.items()
        ]
        self.distinct_builds = len(self.builds_of) == len(self.build_list)  # a value each
        self.holding: dict[tuple[Card, frozenset[int]], bool] = {}
        self.round = rnd
        self.demands = rules.demands  # off once no move can meet the demands
        self.first_half = family.restricted(rnd, seat)
        self.crazy_restricted = rules.crazy and bool(rnd.deck)
        self._groups: dict[int, tuple[int, ...]] = {}
        self._unions: dict[int, dict[int, int]] = {}
        self.moves: dict[Card, list[Move]] = {}
        self.plans: dict[Move, tuple] = {}
        self.by_kind: dict[tuple[Card, str], list[Move]] = {}  # one card's moves of a kind

    # -- groups ----------------------------------------------------------------------------

    def groups(self, value: int) -> tuple[int, ...]:
        """Single groups of loose and pile cards adding up to ``value`` (one pile card at most)."""
        found = self._groups.get(value)
        if found is None:
            if not 0 < value <= 16:
                found = ()
            else:
                pile = self.pile_mask
                found = tuple(
                    g
                    for g in groups_by_sum(self.options)[value]
                    if (g & pile) & ((g & pile) - 1) == 0
                )
            self._groups[value] = found
        return found

    def unions(self, value: int) -> dict[int, int]:
        """Unions of disjoint groups of ``value`` with their flags (see SINGLE...)."""
        found = self._unions.get(value)
        if found is None:
            found = {}
            groups = self.groups(value)
            pile = self.pile_mask

            def walk(start: int, mask: int, count: int, base: bool) -> None:
                for index in range(start, len(groups)):
                    group = groups[index]
                    if group & mask:
                        continue
                    grown = mask | group
                    free = base or not group & pile
                    flags = SINGLE if count == 0 else MULTI | (MULTI_BASE if free else 0)
                    if free:
                        flags |= BASE
                    found[grown] = found.get(grown, 0) | flags
                    walk(index + 1, grown, count + 1, free)

            walk(0, 0, 0, False)
            self._unions[value] = found
        return found

    def pile_ok(self, mask: int) -> bool:
        """Pile cards used from each pile are its top cards (none skipped)."""
        used = mask & self.pile_mask
        if not used:
            return True
        for _, start, count in self.pile_spans:
            span = (((1 << count) - 1) << start) & used
            if span and span != ((1 << span.bit_count()) - 1) << start:
                return False
        return True


class SwaziListing(CasinoListing):
    """Swazi's and Sotho's turn generation (mixed into :class:`.swazi.Swazi`)."""

    # Generation ---------------------------------------------------------------------------

    def context(self, rnd: Round) -> SwaziContext:
        cached = rnd._context
        if cached is None or cached.seat != rnd.to_move:
            cached = rnd._context = SwaziContext(self, rnd, rnd.to_move)
        return cached

    @gc_paused
    def legal_moves(self, rnd: Round) -> list[Move]:
        ctx = self.context(rnd)
        moves = self._all_moves(rnd, ctx)
        if not moves and ctx.demands:  # no move meets the demands: they are waived
            self._waive(ctx)
            moves = self._all_moves(rnd, ctx)
        return moves

    def counts(self, rnd: Round) -> None:
        """No counts without the moves: the lazy view lists them (demands may waive)."""
        return None

    @gc_paused
    def card_moves(self, rnd: Round, card: Card, kind: str | None = None) -> list[Move]:
        """The legal moves of ``card`` (in the hand to move) of ``kind`` (``None``: all; see
        :data:`.legal.KINDS`), in the order of :meth:`legal_moves`; a capture, build or
        trail kind lists only its own moves (under demands every card is listed: whether
        they are waived depends on all of them)."""
        ctx = self.context(rnd)
        if ctx.demands:
            self.legal_moves(rnd)
            found = ctx.moves.get(card, [])
        elif kind in ("capture", "build", "trail") and card not in ctx.moves:
            return self.kind_moves(ctx, card, kind)
        elif kind in ("plain", "table-build") and card not in ctx.moves:
            found = self.kind_moves(ctx, card, "trail")
        else:
            found = self.moves_for(rnd, ctx, card)
        if kind is None:
            return found

        return [move for move in found if of_kind(move, kind)]

    def has_moves(self, rnd: Round, card: Card, kind: str | None) -> bool:  # type: ignore[override]
        """Whether ``card`` has a legal move of ``kind`` (see :data:`.legal.KINDS`), found
        by the searches of :meth:`moves_for` stopped at the first legal move: unions of
        groups are walked lazily, so a busy table's thousands are rarely all made."""
        ctx = self.context(rnd)
        listed = ctx.moves.get(card)
        if listed is None and (
            ctx.demands or (kind == "table-build" and self.rules.table_builds > 1)
        ):
            listed = self.card_moves(rnd, card)
        if listed is not None:
            return any(of_kind(move, kind) for move in listed)
        if kind is None:
            kinds = ("plain", "capture", "build", "table-build")
            return any(self.has_moves(rnd, card, k) for k in kinds)
        if kind == "trail":
            return self.has_moves(rnd, card, "plain") or self.has_moves(rnd, card, "table-build")
        rest = list(ctx.hand)
        rest.remove(card)
        if kind == "plain":
            left = self._left(ctx, 0, [])
            return (
                left is not None and self._settle(ctx, card, rest, "trail", 0, [], left) is not None
            )
        if kind == "capture":
            return any(
                self._finish(ctx, card, rest, "capture", mask, mask, []) is not None
                for mask in self._lazy_captures(ctx, card)
            )
        if kind == "build":
            return self._any_build(ctx, card, rest)
        return self._any_table_build(ctx, card, rest)

    def _may_end(
        self, ctx: SwaziContext, card: Card, rest: list[Card], value: int, kind: str
    ) -> bool:
        """Whether a build of ``value`` made by a ``kind`` turn (a build, or a trail with a
        table build) may end the turn legally: a quick filter, never too strict.

        An opponent's build of ``value`` would stay beside it. Without a partner every
        touched build is the mover's, and their builds of other values stay (a build move
        or a table build takes in only builds of its value, or an opponent's): the rest
        of the hand must hold all those values, and the two-player limits of the first
        twelve cards count them.
        """
        if value in ctx.opp_builds:
            return False  # it stays (only builds of other values change), one value twice
        if ctx.partner is not None:
            return True
        others = {v for _, v, owner in ctx.build_list if owner == ctx.seat and v != value}
        if not _limits_ok(ctx, kind, len(others) + 1):
            return False
        return self._holding(ctx, card, rest, frozenset((value, *others)))

    def _lazy_captures(self, ctx: SwaziContext, card: Card) -> Iterator[int]:
        """The masks of :meth:`_captures_of` without demands, lazily (some more than once)."""
        values = self.rules.hand_values[card]
        if not values:  # a Sotho picture pairs: loose cards of its rank
            same = [1 << p for p in range(ctx.table_count) if _rank_at(ctx, p) == card.rank]
            for size in range(1, len(same) + 1):
                for chosen in combinations(same, size):
                    yield sum(chosen)
            return
        for value in values:
            whole_sets = _submasks(ctx.builds_of.get(value, 0))
            for union, flags in _lazy_unions(ctx, value, True):
                for chosen in whole_sets:
                    mask = union | chosen
                    if mask and not (union & ctx.pile_mask and not chosen and not flags & BASE):
                        yield mask

    def _any_build(self, ctx: SwaziContext, card: Card, rest: list[Card]) -> bool:
        """:meth:`_build_actions`: whether one ends the turn legally."""
        own = self.rules.table_values[card.rank]
        if not own:
            return False
        for value in self._candidate_values(ctx):
            if not self._may_end(ctx, card, rest, value, "build"):
                continue
            kept = ctx.side_builds.get(value, 0)
            shapes: list[tuple[int, int]] = []
            for mine in own:
                if mine == value:
                    shapes.append((0, 0))
                elif mine < value:
                    shapes.extend((g, 0) for g in ctx.groups(value - mine))
                    shapes.extend((bit, bit) for bit, v in ctx.opp_simple if v + mine == value)
            for shape, changed in shapes:
                for union, flags in _lazy_unions(ctx, value, True):
                    if union & shape:
                        continue
                    mask = shape | union | kept
                    if not changed and not self._new_groups_ok(
                        ctx, union, flags, kept, shape, True
                    ):
                        continue
                    touch = Touch(value, mask, True, changed, kept)
                    if self._finish(ctx, card, rest, "build", mask, mask, [touch]) is not None:
                        return True
        return False

    def _any_table_build(self, ctx: SwaziContext, card: Card, rest: list[Card]) -> bool:
        """A trail with one build from table cards (``table_builds`` 1): whether one of
        :meth:`_trail_combos` ends the turn legally for ``card``."""
        if self.rules.table_builds < 1:
            return False
        for value in self._candidate_values(ctx):
            if not self._may_end(ctx, card, rest, value, "trail"):
                continue
            kept = ctx.side_builds.get(value, 0)
            for union, flags in _lazy_unions(ctx, value):
                if not self._new_groups_ok(ctx, union, flags, kept, 0, False):
                    continue
                touch = Touch(value, union | kept, False, 0, kept)
                left = self._left(ctx, touch.mask, [touch])
                if left is None:
                    continue
                if self._settle(ctx, card, rest, "trail", touch.mask, [touch], left) is not None:
                    return True
        return False

    def _all_moves(self, rnd: Round, ctx: SwaziContext) -> list[Move]:
        moves: list[Move] = []
        for card in dict.fromkeys(ctx.hand):
            moves.extend(self.moves_for(rnd, ctx, card))
        return moves

    def _waive(self, ctx: SwaziContext) -> None:
        ctx.demands = False
        ctx.moves.clear()
        ctx.by_kind.clear()
        ctx.plans.clear()

    def moves_for(self, rnd: Round, ctx: SwaziContext, card: Card) -> list[Move]:
        found = ctx.moves.get(card)
        if found is not None:
            return found
        found = ctx.moves[card] = [
            move
            for kind in ("trail", "capture", "build")
            for move in self.kind_moves(ctx, card, kind)
        ]
        return found

    def kind_moves(self, ctx: SwaziContext, card: Card, kind: str) -> list[Move]:
        """The legal moves of ``card`` of one kind (``"trail"``, ``"capture"``, ``"build"``),
        each once, in :meth:`moves_for`'s order: its trails (with the table builds each
        may make), captures, builds. Under demands only the whole listing says which
        moves meet them (:meth:`card_moves` lists then)."""
        key = (card, kind)
        found = ctx.by_kind.get(key)
        if found is not None:
            return found
        rest = list(ctx.hand)
        rest.remove(card)
        make = Move._made
        if kind == "trail":
            found = self._trails(ctx, card, rest)
        elif kind == "capture":
            # Captures add no table builds (those come with a trail only).
            taken: dict[int, None] = {}
            for mask, _ in self._captures_of(ctx, card):
                if mask not in taken and self._finish(ctx, card, rest, kind, mask, mask, []):
                    taken[mask] = None
            found = [make(card, items, None, (), ()) for items in ctx.takes(list(taken))]
        else:
            built: dict[tuple[int, int], None] = {}  # (mask, build value), in order
            for mask, value, touch in self._build_actions(ctx, card):
                key_built = (mask, value)
                if key_built not in built and self._finish(
                    ctx, card, rest, kind, mask, mask, [touch]
                ):
                    built[key_built] = None
            parts = ctx.takes([mask for mask, _ in built])
            found = [
                make(card, (), value, items, ())
                for (_, value), items in zip(built, parts, strict=True)
            ]
        ctx.by_kind[key] = found
        return found

    def _trails(self, ctx: SwaziContext, card: Card, rest: list[Card]) -> list[Move]:
        """``card`` trailed, alone and with each choice of table builds the turn may add."""
        make = Move._made
        combos = self._trail_combos(ctx)
        if ctx.partner is not None or ctx.demands:
            return [
                make(card, (), None, (), extra)
                for mask, touches, left, extra in combos
                if self._settle(ctx, card, rest, "trail", mask, touches, left) is not None
            ]
        # Every build is the mover's: the card matters only by the hand it leaves, so
        # :meth:`_settle` comes down to holding each combination's values.
        needs = getattr(ctx, "_needs", None)
        if needs is None:
            needs = ctx._needs = [  # type: ignore[attr-defined]
                (_own_values(ctx, touches, left), extra)
                for mask, touches, left, extra in combos
                if _limits_ok(ctx, "trail", len(touches) + sum(o == ctx.seat for _, o in left))
            ]
        holding = self._holding
        return [
            make(card, (), None, (), extra)
            for need, extra in needs
            if holding(ctx, card, rest, need)
        ]

    def _trail_combos(self, ctx: SwaziContext) -> list[tuple]:
        """(mask, touches, builds left, table builds) of every choice of up to
        ``table_builds`` table builds (values rising, items apart) whose pile cards and
        values fit, whatever card is trailed: found once for the whole hand."""
        cached = getattr(ctx, "_combos", None)
        if cached is not None:
            return cached
        extras = self._table_build_options(ctx)
        found: list[tuple] = []

        def extend(mask: int, touches: list[Touch], start: int, limit: int, used: int) -> None:
            left = self._left(ctx, mask, touches)
            if left is not None:
                builds = tuple(TableBuild(t.value, ctx.take(t.mask)) for t in touches)
                found.append((mask, touches, left, builds))
            if limit < 1:
                return
            for index in range(start, len(extras)):
                extra = extras[index]
                if not extra.mask & mask and not used >> extra.value & 1:
                    grown = [*touches, extra]
                    extend(mask | extra.mask, grown, index + 1, limit - 1, used | 1 << extra.value)

        extend(0, [], 0, self.rules.table_builds, 0)
        ctx._combos = found  # type: ignore[attr-defined]
        return found

    def _candidate_values(self, ctx: SwaziContext) -> list[int]:
        values = {v for c in ctx.hand for v in self.rules.hand_values[c]}
        if ctx.partner is not None:
            values.update(ctx.known[ctx.partner])
            values.update(v for c in ctx.hands[ctx.partner] for v in self.rules.hand_values[c])
        return sorted(values)

    def _table_build_options(self, ctx: SwaziContext) -> list[Touch]:
        """Every build the turn may make without the hand card (before any other choice)."""
        cached = getattr(ctx, "_extras", None)
        if cached is not None:
            return cached
        out: list[Touch] = []
        for value in self._candidate_values(ctx):
            kept = ctx.side_builds.get(value, 0)
            for union, flags in ctx.unions(value).items():
                if not self._new_groups_ok(ctx, union, flags, kept, 0, False):
                    continue
                out.append(Touch(value, union | kept, False, 0, kept))
        ctx._extras = out  # type: ignore[attr-defined]
        return out

    def _new_groups_ok(
        self, ctx: SwaziContext, union: int, flags: int, kept: int, shape: int, played: bool
    ) -> bool:
        """Whether groups ``union`` (plus the hand card's group ``shape``) make a valid build.

        Pile cards are checked for the whole turn at its end (top cards first)."""
        pile = ctx.pile_mask
        if kept:
            return bool(union or played)
        if not played:
            if flags & SINGLE and not union & pile and union.bit_count() >= 2:
                return True  # a simple build of table cards
            return bool(flags & MULTI) and (not union & pile or bool(flags & MULTI_BASE))
        # The hand card's group is ``shape`` (table items with it).
        shape_base = bool(shape) and not shape & pile
        if not union:
            return shape_base  # a simple build: the hand card and loose cards
        if not (union | shape) & pile:
            return True
        return shape_base or bool(flags & BASE)

    def _build_actions(self, ctx: SwaziContext, card: Card) -> Iterator[tuple]:
        """(mask, value, touch): the hand card's builds, before the end of turn checks."""
        rules = self.rules
        own = rules.table_values[card.rank]
        if not own:
            return
        for value in self._candidate_values(ctx):
            kept = ctx.side_builds.get(value, 0)
            shapes: list[tuple[int, int]] = []  # (mask with the hand card, changed build bit)
            for mine in own:
                if mine == value:
                    shapes.append((0, 0))
                elif mine < value:
                    shapes.extend((g, 0) for g in ctx.groups(value - mine))
                    shapes.extend((bit, bit) for bit, v in ctx.opp_simple if v + mine == value)
            done: set[int] = set()
            unions = [(0, 0), *ctx.unions(value).items()] if shapes else []
            for shape, changed in shapes:
                for union, flags in unions:
                    if union & shape:
                        continue
                    mask = shape | union | kept
                    if mask in done and not changed:
                        continue
                    if not changed and not self._new_groups_ok(
                        ctx, union, flags, kept, shape, True
                    ):
                        continue
                    done.add(mask)
                    yield (mask, value, Touch(value, mask, True, changed, kept))

    def _captures_of(self, ctx: SwaziContext, card: Card) -> list[tuple[int, int | None]]:
        """(mask, value) of every capture of ``card``, each mask once; with ``demands``
        only those no capture of the same value contains (the opponents demand the rest)."""
        values = self.rules.hand_values[card]
        per_value: list[tuple[int | None, list[int]]] = []
        if not values:  # a Sotho picture pairs: loose cards of its rank
            same = [1 << p for p in range(ctx.table_count) if _rank_at(ctx, p) == card.rank]
            masks = [sum(c) for size in range(1, len(same) + 1) for c in combinations(same, size)]
            per_value.append((None, masks))
        for value in values:
            masks = []
            whole_sets = _submasks(ctx.builds_of.get(value, 0))
            for union, flags in [(0, 0), *ctx.unions(value).items()]:
                for chosen in whole_sets:
                    mask = union | chosen
                    if not mask:
                        continue
                    if union & ctx.pile_mask and not chosen and not flags & BASE:
                        continue  # pile cards need a base
                    if ctx.demands and not ctx.pile_ok(mask):
                        continue
                    masks.append(mask)
            per_value.append((value, masks))
        out: dict[int, int | None] = {}
        for value, masks in per_value:
            if ctx.demands:
                masks = [m for m in masks if not any(o != m and not m & ~o for o in masks)]
            for mask in masks:
                out.setdefault(mask, value)
        return list(out.items())

    def _move(
        self,
        ctx: SwaziContext,
        card: Card,
        kind: str,
        hand_mask: int,
        value: int | None,
        touches: list[Touch],
    ) -> Move:
        take = ctx.take
        extra = tuple(TableBuild(t.value, take(t.mask)) for t in touches if not t.played)
        if kind == "build":
            return Move._made(card, (), value, take(hand_mask), extra)
        if kind == "capture":
            return Move._made(card, take(hand_mask), None, (), extra)
        return Move._made(card, (), None, (), extra)


def _lazy_unions(ctx: SwaziContext, value: int, empty: bool = False) -> Iterator[tuple[int, int]]:
    """(union, flags) of :meth:`SwaziContext.unions`, lazily: each union once per way it
    splits into groups, with that split's flags (``empty``: ``(0, 0)`` first).

    Every check on flags asks for a flag one split gives, so a union passes with the
    flags of some split exactly when it passes with all of them together.
    """
    if empty:
        yield 0, 0
    found = ctx._unions.get(value)
    if found is not None:
        yield from found.items()
        return
    groups = ctx.groups(value)
    pile = ctx.pile_mask
    stack = [(0, 0, 0, False)]  # (first group to try, union so far, groups in it, base)
    while stack:
        start, mask, count, base = stack.pop()
        for index in range(start, len(groups)):
            group = groups[index]
            if group & mask:
                continue
            grown = mask | group
            free = base or not group & pile
            flags = SINGLE if count == 0 else MULTI | (MULTI_BASE if free else 0)
            if free:
                flags |= BASE
            yield grown, flags
            stack.append((index + 1, grown, count + 1, free))


def _own_values(
    ctx: SwaziContext, touches: Sequence[Touch], left: list[tuple[int, int]]
) -> frozenset[int]:
    """The values the mover owns at the end of the turn (every touched build is theirs)."""
    return frozenset([v for v, o in left if o == ctx.seat] + [t.value for t in touches])


def _limits_ok(ctx: SwaziContext, kind: str, mine: int) -> bool:
    """The two-player limits of the first twelve cards, for a mover ending with ``mine``
    builds (and crazy casino's, while the deck lasts: no trailing while owning one)."""
    if kind == "trail" and mine and (ctx.first_half or ctx.crazy_restricted):
        return False
    return not (ctx.first_half and mine > 1)


def _adds_up(ctx: SwaziContext, mask: int, target: int) -> bool:
    """Whether the cards of ``mask`` add up to ``target`` (the empty set makes 0)."""
    totals = {0}
    for position in _bits(mask):
        options = ctx.options[position]
        if options is _NEVER:
            return False
        totals = {t + v for t in totals for v in options if t + v <= target}
    return target in totals


def _local_flags(ctx: SwaziContext, atoms: int, value: int) -> int | None:
    """Flags of ``atoms`` as a union of groups of ``value`` (None: no split at all)."""
    groups = [g for g in ctx.groups(value) if not g & ~atoms]
    pile = ctx.pile_mask
    best: int | None = None

    def walk(start: int, left: int, count: int, base: bool) -> None:
        nonlocal best
        if not left:
            flags = SINGLE if count == 1 else MULTI | (MULTI_BASE if base else 0)
            if base:
                flags |= BASE
            best = (best or 0) | flags
            return
        low = left & -left
        for index in range(start, len(groups)):
            group = groups[index]
            if group & low and not group & ~left:
                walk(0, left & ~group, count + 1, base or not group & pile)

    walk(0, atoms, 0, False)
    return best


def _rank_at(ctx: SwaziContext, position: int) -> int:
    item = ctx.all_items[position]
    return item.rank if isinstance(item, Card) else 0


def _submasks(mask: int) -> list[int]:
    """Every submask of ``mask``, the empty one first."""
    out = [0]
    for bit in _split_bits(mask):
        out += [m | bit for m in out]
    return out


def _split_bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def _know(rnd: Round, seat: int, value: int) -> None:
    if value not in rnd.known[seat]:
        rnd.known[seat] = sorted([*rnd.known[seat], value])


def _split_cards(
    rules, ctx: SwaziContext, atoms: list[Item], value: int, played: Card | None
) -> list[tuple[Card, ...]] | None:
    """Split cards into groups of ``value``, one pile card at most per group."""
    entries = [(rules.table_values[c.rank], c, bool(_pile_position(ctx, c))) for c in atoms]
    if played is None:
        return _split_entries(entries, value)
    entries.insert(0, (rules.table_values[played.rank], played, False))
    found = _split_entries(entries, value)
    return None if found is None else [*found[1:], found[0]]  # the hand card's group last


def _pile_position(ctx: SwaziContext, card: Card) -> bool:
    for position in range(ctx.table_count, len(ctx.all_items)):
        if ctx.all_items[position] == card:
            return True
    return False


def _split_entries(entries, value):
    """Groups of ``value`` from ``entries`` ((values, card, from a pile)), one pile card at
    most per group: the first entry's group is chosen first, smallest groups first, then
    in order (so the same cards always split the same way); remaining sets found not to
    split are remembered."""
    failed: set[tuple[int, ...]] = set()

    def split(ids: tuple[int, ...]) -> list[tuple[Card, ...]] | None:
        if not ids:
            return []
        if ids in failed:
            return None
        first, rest = ids[0], ids[1:]
        lows = sorted(min(entries[i][0], default=99) for i in rest)
        room = value - min(entries[first][0], default=99)
        for size in range(len(rest) + 1):
            if sum(lows[:size]) > room:
                break  # every group this large or larger adds up to more than the value
            for chosen in combinations(range(len(rest)), size):
                group = [first, *(rest[i] for i in chosen)]
                if sum(entries[i][2] for i in group) > 1:
                    continue
                totals = {0}
                for i in group:
                    totals = {t + v for t in totals for v in entries[i][0] if t + v <= value}
                if value not in totals:
                    continue
                tail = split(tuple(e for i, e in enumerate(rest) if i not in chosen))
                if tail is not None:
                    return [tuple(entries[i][1] for i in group), *tail]
        failed.add(ids)
        return None

    return split(tuple(range(len(entries))))
