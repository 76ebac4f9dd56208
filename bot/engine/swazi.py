"""Swazi and Sotho Casino (RULES.md 7.4, 7.5): builds with owners, table build actions and
the top cards of capture piles, all in one turn.

A turn plays one hand card, which captures, builds or trails; a trailing turn may also
make up to ``rules.table_builds`` builds without the hand card (``Move.table_builds``).
(The sources allow such builds with any hand action; combined with captures and builds
they multiply a busy table's turns past a million, so the engine pairs them with trails.) In
every build or capture, items split into *groups* of the value: loose table cards and
pile cards adding up to it (each group holds at most one pile card), or whole builds of
the value. Pile cards are the top cards of other sides' capture piles (Sotho: of every
other player's pile), used top first: a pile card further down is usable once the ones
above it are used in the same turn. They only augment: a build or capture using them
needs a *base*, a group of table cards without a pile card (or a build).

A touched build keeps its owner when it is the mover's side's build and keeps its value;
a new build, or an opponent's simple build whose value the hand card changes, belongs to
the mover (or, in partnerships, to the partner known to hold its value). At the end of
the turn: never two builds of one value; every owner holds its own card for each value
it owns; and the two-player restrictions of the first twelve cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

from .building import (
    Casino,
    Picker,
    _bits,
    _keep_message,
    _locate,
    gc_paused,
    groups_by_sum,
    holds,
)
from .builds import Build, Item, item_cards, item_key
from .cards import Card, card_order
from .moves import IllegalMove, Move, TableBuild
from .reasons import Reason, reason

if TYPE_CHECKING:
    from .round import Round

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


class Swazi(Casino):
    """7.4 Swazi and 7.5 Sotho (Sotho is data: no numbers on pictures, aces 1, own piles)."""

    # Hooks --------------------------------------------------------------------------------

    def usable_piles(self, rnd: Round, seat: int) -> list[int]:
        """Swazi: the other sides' piles; Sotho: every other player's pile."""
        mine = rnd.pile_of(seat)
        if self.rules.shared_piles:
            side = self.rules.side_of(seat)
            return [
                i
                for i in range(rnd.players)
                if i != mine and rnd.pile_of(i) == i and self.rules.side_of(i) != side
            ]
        return [i for i in range(rnd.players) if i != seat]

    def restricted(self, rnd: Round, seat: int) -> bool:
        """Two players, first twelve cards: no trailing while owning, one build at most."""
        return rnd.players == 2 and not self.rules.crazy and rnd.deal_number < 2

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
        from .legal import of_kind

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
            from .legal import of_kind

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
            for shape, changed in shapes:
                for union, flags in [(0, 0), *ctx.unions(value).items()]:
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

    def _finish(
        self,
        ctx: SwaziContext,
        card: Card,
        rest: list[Card],
        kind: str,
        hand_mask: int,
        mask: int,
        touches: list[Touch],
    ) -> tuple | None:
        """The plan (kind, hand mask, mask, touches, owners) if the turn ends legally."""
        left = self._left(ctx, mask, touches)
        if left is None:
            return None
        found = self._settle(ctx, card, rest, kind, mask, touches, left)
        return None if found is None else (kind, hand_mask, *found)

    def _left(
        self, ctx: SwaziContext, mask: int, touches: list[Touch]
    ) -> list[tuple[int, int]] | None:
        """(value, owner) of the untouched builds left on the table, if pile cards are used
        top first and no two builds end with one value (whatever the hand card)."""
        if not ctx.pile_ok(mask):
            return None
        left = [(value, owner) for bit, value, owner in ctx.build_list if not bit & mask]
        values = [v for v, _ in left] + [t.value for t in touches]
        if len(values) != len(set(values)):
            return None  # never two builds of one value
        return left

    def _settle(
        self,
        ctx: SwaziContext,
        card: Card,
        rest: list[Card],
        kind: str,
        mask: int,
        touches: list[Touch],
        left: list[tuple[int, int]],
    ) -> tuple | None:
        """(mask, touches, owners) if the owners hold their values and the two-player
        limits and the demands are met."""
        owners = self._owners(ctx, card, rest, touches, left)
        if owners is None:
            return None
        mine = sum(1 for _, o in left if o == ctx.seat) + owners.count(ctx.seat)
        if not _limits_ok(ctx, kind, mine):
            return None
        if ctx.demands and self._fits_left(ctx, card, kind, mask, left, touches, owners):
            return None  # a card that fits the side's build would be demanded
        return (mask, tuple(touches), tuple(owners))

    def _fits_left(
        self,
        ctx: SwaziContext,
        card: Card,
        kind: str,
        mask: int,
        left: list[tuple[int, int]],
        touches: list[Touch],
        owners: list[int],
    ) -> bool:
        """``demands``: whether a loose card or a pile's top card (alone or with loose
        cards, one pile card at most) is left that adds up to a build of the mover's side."""
        rules = self.rules
        side = ctx.side
        values = {v for v, o in left if rules.side_of(o) == side}
        values.update(t.value for t, o in zip(touches, owners, strict=True))
        if not values:
            return False
        options = [ctx.options[p] for p in _bits(ctx.loose_mask & ~mask)]
        if kind == "trail":
            options.append(rules.table_values[card.rank] or _NEVER)
        reach = 1  # sums of loose cards (bit 0: none)
        for choices in options:
            if choices is _NEVER:
                continue
            grown = reach
            for v in choices:
                grown |= reach << v
            reach = grown & ((1 << 17) - 1)
        loose = reach & ~1
        for _, start, count in ctx.pile_spans:
            used = ((mask >> start) & ((1 << count) - 1)).bit_count()
            if used < count:
                for v in ctx.options[start + used]:
                    if v <= 16:
                        loose |= (reach << v) & ((1 << 17) - 1)
        return any(loose >> v & 1 for v in values)

    def _holding(
        self, ctx: SwaziContext, card: Card, rest: list[Card], need: frozenset[int]
    ) -> bool:
        """Whether ``rest`` (the hand without ``card``) holds the values ``need``."""
        key = (card, need)
        found = ctx.holding.get(key)
        if found is None:
            found = ctx.holding[key] = holds(self.rules, need, rest)
        return found

    def _owners(
        self,
        ctx: SwaziContext,
        card: Card,
        rest: list[Card],
        touches: list[Touch],
        left: list[tuple[int, int]],
    ) -> list[int] | None:
        """Owners of the touched builds such that every owner holds its values, or None."""
        seat, partner = ctx.seat, ctx.partner
        if partner is None:  # every touched build is the mover's
            need = _own_values(ctx, touches, left)
            return [seat] * len(touches) if self._holding(ctx, card, rest, need) else None
        defaults = []
        choices = []
        for touch in touches:
            if touch.kept and not touch.changed:
                owner = ctx.owner[touch.kept & -touch.kept]
            else:
                owner = seat
            defaults.append(owner)
            alternative = None
            if partner is not None:
                if touch.changed or not touch.kept:
                    if touch.value in ctx.known[partner]:
                        alternative = partner  # building for the partner, known to hold it
                elif owner == seat and touch.played:
                    alternative = partner  # the partner asked: the card augments instead
            choices.append(alternative)
        hands = {seat: rest}
        if partner is not None:
            hands[partner] = ctx.hands[partner]
        base: dict[int, set[int]] = {s: set() for s in hands}
        for value, owner in left:
            if owner in base:
                base[owner].add(value)
        flexible = [i for i, alt in enumerate(choices) if alt is not None]
        for size in range(len(flexible) + 1):
            for swapped in combinations(flexible, size):
                owners = list(defaults)
                for i in swapped:
                    owners[i] = choices[i]
                need = {s: set(v) for s, v in base.items()}
                for touch, owner in zip(touches, owners, strict=True):
                    need[owner].add(touch.value)
                if all(holds(self.rules, need[s], hands[s]) for s in hands):
                    return owners
        return None

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

    # Playing ------------------------------------------------------------------------------

    def check(self, rnd: Round, move: Move) -> None:
        if not isinstance(move, Move) or not isinstance(move.card, Card):
            raise IllegalMove(reason("that is not a move"))
        ctx = self.context(rnd)
        if move.card not in ctx.hand:
            raise IllegalMove(reason("{card} is not in your hand", card=move.card))
        if self.plan(ctx, move) is not None:
            return
        raise IllegalMove(self.explain(rnd, ctx, move))

    def valid(self, rnd: Round, ctx: SwaziContext, move: Move) -> bool:  # type: ignore[override]
        return self.plan(ctx, move) is not None

    def plan(self, ctx: SwaziContext, move: Move) -> tuple | None:
        """The move's plan (kind, hand mask, mask, touches, owners) if legal, checked on its
        own items alone (no list of moves is made, unless demands must be judged)."""
        found = self._plan(ctx, move)
        if found is None and ctx.demands and self._plan_without_demands(ctx, move):
            # The demands hold only when some move can meet them.
            rnd = ctx.round
            if not self._all_moves(rnd, ctx):
                self._waive(ctx)
                found = self._plan(ctx, move)
        return found

    def _plan_without_demands(self, ctx: SwaziContext, move: Move) -> bool:
        ctx.demands = False
        try:
            return self._plan(ctx, move) is not None
        finally:
            ctx.demands = True
            ctx.plans.pop(move, None)

    def _plan(self, ctx: SwaziContext, move: Move) -> tuple | None:
        found = ctx.plans.get(move)
        if found is not None:
            return found
        rules = self.rules
        card = move.card
        if len(move.table_builds) > rules.table_builds:
            return None
        if move.table_builds and not move.is_trail:
            return None  # builds without the hand card come with a trail only
        rest = list(ctx.hand)
        rest.remove(card)
        free = 0
        masks = []
        for part in (move.taken or move.using, *(b.using for b in move.table_builds)):
            mask = _locate(ctx.all_items, part, free)
            if mask is None:
                return None
            free |= mask
            masks.append(mask)
        hand_mask = masks[0]
        kind = move.kind
        values = [b.value for b in move.table_builds]
        if kind == "build":
            values.append(move.value)
        if len(values) != len(set(values)):
            return None
        touches = []
        for extra, mask in zip(move.table_builds, masks[1:], strict=True):
            touch = self._touch(ctx, extra.value, mask, None)
            if touch is None:
                return None
            touches.append(touch)
        value = None
        if kind == "build":
            value = move.value
            touch = self._touch(ctx, value, hand_mask, card)
            if touch is None:
                return None
            touches.insert(0, touch)
        elif kind == "capture":
            if not self._capture_ok(ctx, card, hand_mask):
                return None
            if ctx.demands and hand_mask not in dict(self._captures_of(ctx, card)):
                return None
        found = self._finish(ctx, card, rest, kind, hand_mask, free, touches)
        if found is None or self._move(ctx, card, kind, hand_mask, value, touches) != move:
            return None
        ctx.plans[move] = found
        return found

    def _capture_ok(self, ctx: SwaziContext, card: Card, mask: int) -> bool:
        values = self.rules.hand_values[card]
        if not values:  # a Sotho picture: loose cards of its rank
            return all(p < ctx.table_count and _rank_at(ctx, p) == card.rank for p in _bits(mask))
        builds = mask & ctx.build_mask
        atoms = mask & ~builds
        for value in values:
            if any(ctx.all_items[p].value != value for p in _bits(builds)):
                continue
            if not atoms:
                return True
            flags = _local_flags(ctx, atoms, value)
            if flags is None:
                continue
            if not atoms & ctx.pile_mask or builds or flags & BASE:
                return True
        return False

    def _touch(self, ctx: SwaziContext, value: int, mask: int, card: Card | None) -> Touch | None:
        """The build of ``value`` made of the items ``mask`` (and ``card``), if valid."""
        if not 0 < value <= 16:
            return None
        kept = ctx.side_builds.get(value, 0)
        if kept & ~mask:
            return None  # new groups of a value join the side's build of that value
        builds = mask & ctx.build_mask & ~kept
        atoms = mask & ~ctx.build_mask
        changed = 0
        if builds:
            if card is None or builds & (builds - 1):
                return None
            item = ctx.all_items[builds.bit_length() - 1]
            own = self.rules.table_values[card.rank]
            opponent = (builds, item.value) in ctx.opp_simple
            if not opponent or not any(item.value + v == value for v in own):
                return None
            changed = builds
        if changed:
            if atoms and _local_flags(ctx, atoms, value) is None:
                return None
            return Touch(value, mask, True, changed, kept)
        if card is None:
            if not atoms:
                return None
            flags = _local_flags(ctx, atoms, value)
            if flags is None or not self._new_groups_ok(ctx, atoms, flags, kept, 0, False):
                return None
            return Touch(value, mask, False, 0, kept)
        own = self.rules.table_values[card.rank]
        if not own:
            return None
        for shape in self._hand_groups(ctx, own, value, atoms):
            left = atoms & ~shape
            flags = _local_flags(ctx, left, value) if left else 0
            if flags is None:
                continue
            if self._new_groups_ok(ctx, left, flags, kept, shape, True):
                return Touch(value, mask, True, 0, kept)
        return None

    def _hand_groups(
        self, ctx: SwaziContext, own: tuple[int, ...], value: int, atoms: int
    ) -> Iterable[int]:
        """Masks of the cards of ``atoms`` that add up to ``value`` with a hand card worth
        ``own`` (one pile card at most), each once: from the subsets of a few atoms, or
        from the table's single groups (a big build has thousands of subsets)."""
        if atoms.bit_count() <= 8:  # lazily: the first shape that fits often ends it
            pile = ctx.pile_mask
            return (
                shape
                for shape in _submasks(atoms)
                if not (shape & pile) & ((shape & pile) - 1)
                and any(_adds_up(ctx, shape, value - mine) for mine in own if mine <= value)
            )
        shapes = [0] if value in own else []
        shapes += [g for mine in own if mine < value for g in ctx.groups(value - mine)]
        return [shape for shape in dict.fromkeys(shapes) if not shape & ~atoms]

    def explain(self, rnd: Round, ctx: SwaziContext, move: Move) -> Reason:  # type: ignore[override]
        rules = self.rules
        wanted = [*move.taken, *move.using, *(i for b in move.table_builds for i in b.using)]
        free = list(ctx.all_items)
        for item in wanted:
            if item in free:
                free.remove(item)
                continue
            pile = any(item in p for p in rnd.piles)
            if pile:
                return reason("{item} is not a capture pile's top card you may use", item=item)
            if isinstance(item, Card) and any(
                isinstance(b, Build) and item in b.cards for b in rnd.table
            ):
                return reason("{item} is in a build: builds are never broken up", item=item)
            return reason("{item} is not on the table", item=item)
        if len(move.table_builds) > rules.table_builds:
            return reason(
                "too many builds without the hand card: at most {count} a turn",
                count=rules.table_builds,
            )
        if move.table_builds and not move.is_trail:
            return reason(
                "builds made without the hand card come with a trail, not a capture or build"
            )
        rest = list(ctx.hand)
        rest.remove(move.card)
        values = [b.value for b in move.table_builds]
        if move.value is not None:
            values.append(move.value)
        for value in values:
            holder = any(value in rules.hand_values[c] for c in rest)
            known = ctx.partner is not None and value in ctx.known[ctx.partner]
            if not holder and not known:
                return reason("you must keep a card of value {value} to build {value}", value=value)
        if len(values) != len(set(values)):
            return reason("never two builds of one value: build them into one")
        for item in move.using:
            if isinstance(item, Build) and rules.side_of(item.owner) == ctx.side:
                continue
            if isinstance(item, Build) and (item.multiple or item.value == move.value):
                return reason("an opponent's build is augmented only if you capture it this turn")
        owns = [b for b in rnd.table if isinstance(b, Build) and b.owner == ctx.seat]
        restricted = ctx.first_half or ctx.crazy_restricted
        if move.is_trail and restricted and (owns or move.table_builds):
            return reason("in the first twelve cards you may not trail while you own a build")
        kept = [b for b in owns if b not in wanted]
        if ctx.first_half and len(kept) + len(values) > 1:
            return reason(
                "in the first twelve cards you own one build at most at the end of your turn"
            )
        left = [b.value for b in rnd.table if isinstance(b, Build) and b not in wanted]
        if any(v in left for v in values):
            return reason("never two builds of one value on the table")
        owned = {b.value for b in rnd.table if isinstance(b, Build) and b.owner == ctx.seat}
        if move.is_trail and not holds(rules, owned, rest):
            return _keep_message(rules, owned, rest)
        if any(item in p[-PILE_DEPTH:] for p in rnd.piles for item in wanted):
            return reason(
                "a capture pile's card only augments a build with a base of table cards, "
                "one pile card to a group, top card first"
            )
        return reason("that move is not allowed by the Swazi rules")

    def apply(self, rnd: Round, move: Move) -> tuple[bool, bool, bool]:
        ctx = self.context(rnd)
        found = self.plan(ctx, move)
        assert found is not None, "a checked move has a plan"
        kind, hand_mask, mask, touches, owners = found
        seat = ctx.seat
        rules = self.rules
        rnd.hands[seat].remove(move.card)
        items = ctx.all_items
        table_bits = (1 << ctx.table_count) - 1
        if rules.teams:
            self._learn(rnd, ctx, kind, hand_mask, touches)
            rnd.known[seat] = [v for v in rnd.known[seat] if v not in rules.hand_values[move.card]]
        used_table = [items[p] for p in _bits(mask & table_bits)]
        where = min((rnd.table.index(item) for item in used_table), default=len(rnd.table))
        for item in used_table:
            rnd.table.remove(item)
        for index, start, count in ctx.pile_spans:
            used = (mask >> start) & ((1 << count) - 1)
            if used:
                del rnd.piles[index][-used.bit_count() :]
        where = min(where, len(rnd.table))
        for touch, owner in zip(touches, owners, strict=True):
            rnd.table.insert(where, self._make_build(ctx, move.card, touch, owner))
        if kind == "capture":
            taken = [items[p] for p in _bits(hand_mask)]
            cards = [c for item in taken for c in item_cards(item)]
            sweep = bool(hand_mask & table_bits) and not rnd.table
            rnd.add_to_pile(seat, move.card, taken, cards)
            rnd.last_capturer = seat
            if sweep:
                rnd.sweeps[seat] += 1
            return (sweep, sweep, False)
        if kind == "trail":
            rnd.table.append(move.card)
        return (False, False, False)

    def _learn(
        self, rnd: Round, ctx: SwaziContext, kind: str, hand_mask: int, touches: Sequence[Touch]
    ) -> None:
        """Partnerships: a build changed or taken by another player tells its owner's
        partner that the owner holds a card of its value."""
        for touch in touches:
            if touch.changed:
                build = ctx.all_items[touch.changed.bit_length() - 1]
                _know(rnd, build.owner, build.value)
        if kind == "capture":
            for bit in _split_bits(hand_mask & ctx.build_mask):
                build = ctx.all_items[bit.bit_length() - 1]
                if build.owner != ctx.seat:
                    _know(rnd, build.owner, build.value)

    def _make_build(self, ctx: SwaziContext, card: Card, touch: Touch, owner: int) -> Build:
        groups: list[tuple[Card, ...]] = []
        atoms_mask = touch.mask
        if touch.kept:
            for bit in _split_bits(touch.kept):
                groups.extend(ctx.all_items[bit.bit_length() - 1].groups)
            atoms_mask &= ~touch.kept
        if touch.changed:
            groups.append((*ctx.all_items[touch.changed.bit_length() - 1].cards, card))
            atoms_mask &= ~touch.changed
        atoms = [ctx.all_items[p] for p in _bits(atoms_mask)]
        played = card if touch.played and not touch.changed else None
        split = _split_cards(self.rules, ctx, atoms, touch.value, played)
        assert split is not None, "a checked build splits into groups"
        return Build([*groups, *split], touch.value, owner)


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
