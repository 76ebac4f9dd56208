"""The Casino family's rules (RULES.md 7.1, 7.2, 7.3, 7.6): what a turn may do.

:class:`Casino` is 7.1 with its options (permissive building); Royal Casino and Glimne's
Mulle are the same class with other card values (rules data). :class:`SouthAfrican`
overrides the pile-top and drifting hooks. The hooks say what each variant allows;
``check``/``valid`` judge one move on its own items, ``explain`` says why a move is
refused, ``apply`` plays it. How the moves are listed fast is in :mod:`.buildlist`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .buildgroups import (
    _TOKENS,
    _TOP,
)
from .building import Pile, _keep_message, holds, split_groups
from .buildlist import CasinoListing, Context, Listing, Owners
from .builds import Build, Item, item_cards
from .cards import Card
from .moves import IllegalMove, Move
from .reasons import Joined, Reason, reason

if TYPE_CHECKING:
    from .round import Round
    from .rules import Rules

# -- the Casino core (7.1, 7.2, 7.3) ----------------------------------------------------


class Casino(CasinoListing):
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
                return reason("you own a build, so you cannot trail")
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
                "{item} is in a build, and a build is taken whole, by a card of its value",
                item=item,
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
                "a {name} takes one {name} from the table, since pictures have no number", name=name
            )
        for item in taken:
            if isinstance(item, Build) and item.value not in values:
                return reason("a build is taken whole, by a card of its value")
            if isinstance(item, Card) and not rules.table_values[item.rank] and values:
                return reason(
                    "{item} has no number, so only a card of its rank takes it", item=item
                )
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
            return reason("a {name} has no number, so it cannot be built", name=card.rank_name)
        if not using:
            return reason("a build needs cards from the table besides the card you play")
        if not any(value in rules.hand_values[c] for c in rest):
            return reason("you must keep a card of value {value} to build {value}", value=value)
        for item in using:
            if isinstance(item, Build) and item.multiple and item.value != value:
                return reason("a multiple build's value cannot change")
            if isinstance(item, Card) and not rules.table_values[item.rank]:
                return reason("{item} has no number, so it cannot be built", item=item)
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
