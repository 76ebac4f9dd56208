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

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from .buildgroups import _bits
from .building import _keep_message, holds
from .builds import Build, item_cards
from .cards import Card
from .casino import Casino, _locate
from .moves import IllegalMove, Move
from .reasons import Reason, reason
from .swazilist import (
    _NEVER,
    BASE,
    PILE_DEPTH,
    SwaziContext,
    SwaziListing,
    Touch,
    _adds_up,
    _know,
    _limits_ok,
    _local_flags,
    _own_values,
    _rank_at,
    _split_bits,
    _split_cards,
    _submasks,
)

if TYPE_CHECKING:
    from .round import Round


class Swazi(SwaziListing, Casino):
    """7.4 Swazi and 7.5 Sotho (Sotho is data: no numbers on pictures, aces 1, own piles).

    The rules of a turn are here; :class:`~.swazilist.SwaziListing` generates the turns."""

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

    # Ending a turn ------------------------------------------------------------------

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
        if not touches and ctx.distinct_builds:
            return left  # the table's builds have a value each, and none is added
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
                return reason("{item} is in a build, and builds are never broken up", item=item)
            return reason("{item} is not on the table", item=item)
        if len(move.table_builds) > rules.table_builds:
            return reason(
                "too many builds without the hand card (at most {count} a turn)",
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
            return reason("two builds may never have one value, so build them into one")
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
