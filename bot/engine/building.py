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
the played card with one simple build of a lower value. The group search is the capture
search's: group and union masks over the items' value options, remembered by those
options (so rank counts, not card identities, are searched).

*Ownership.* Each seat must hold, for every distinct value of the builds it owns, its
own card of that value: a matching between owned values and held cards, never one card
for two values (an ace guarding builds of 1 and 14 would leave its owner stuck). Every
move is checked against it, so the owner can always capture its build, and a round can
never reach a position without a legal move.

*Variants as hooks.* :class:`Casino` is 7.1 with its options (permissive building);
Royal Casino and Glimne's Mulle are the same class with other card values (rules data).
:class:`SouthAfrican` overrides the pile-top and trailing hooks; :class:`Swazi` (Swazi and
Sotho) overrides the turn generator with table build actions, owners' rights and pile
tops. Legal moves are generated once per position; ``Round.play`` accepts exactly the
generated moves and explains any other with a sentence for the player.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

from .builds import Build, Item, item_cards, item_key
from .captures import _group_masks, _masks_in_order
from .cards import Card
from .moves import IllegalMove, Move, TableBuild

if TYPE_CHECKING:
    from .round import Round
    from .rules import Rules


# -- group search ------------------------------------------------------------------------


@lru_cache(maxsize=1 << 15)
def single_groups(options: tuple[tuple[int, ...], ...], target: int) -> tuple[int, ...]:
    """Masks (over ``options``' positions, as given) of single groups adding up to ``target``."""
    if target <= 0 or not options:
        return ()
    order = sorted(range(len(options)), key=lambda i: options[i])
    found: set[int] = set()
    _group_masks(tuple(options[i] for i in order), 0, target, 0, found)
    return tuple(sorted(sum(1 << order[i] for i in _bits(m)) for m in found))


def union_groups(options: tuple[tuple[int, ...], ...], target: int) -> tuple[int, ...]:
    """Masks of every union of disjoint groups adding up to ``target`` (non-empty)."""
    if target <= 0 or not options:
        return ()
    return _masks_in_order(options, (target,))


def _bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _subsets(positions: Sequence[int]) -> Iterator[tuple[int, ...]]:
    for size in range(len(positions) + 1):
        yield from combinations(positions, size)


def holds(rules: Rules, values: Iterable[int], cards: Sequence[Card]) -> bool:
    """Whether ``cards`` give each of the distinct ``values`` its own card (a matching)."""
    wanted = sorted(set(values))
    if not wanted:
        return True
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


def missing_value(rules: Rules, values: Iterable[int], cards: Sequence[Card]) -> list[int]:
    """For a message: values ``cards`` cannot cover (all of them if only the matching fails)."""
    wanted = sorted(set(values))
    lone = [v for v in wanted if not any(v in rules.hand_values[c] for c in cards)]
    return lone or wanted


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
    found = _split(atoms, value, strict)
    if found is None:
        return None
    return groups + found


def _split(
    atoms: list[tuple[tuple[int, ...], tuple[Card, ...], str]], value: int, strict: bool
) -> list[tuple[Card, ...]] | None:
    """Backtracking over atoms (the first atom's group is chosen first)."""
    if not atoms:
        return []
    first, rest = atoms[0], atoms[1:]
    for size in range(len(rest) + 1):
        for chosen in combinations(range(len(rest)), size):
            group = [first, *(rest[i] for i in chosen)]
            kinds = [a[2] for a in group]
            if (
                strict
                and "build" in kinds
                and (sorted(kinds) != ["build", "hand"] or len(group) != 2)
            ):
                continue
            if not _sums_to([a[0] for a in group], value):
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


class Context:
    """One position of a building game, read once to serve every card of the hand."""

    def __init__(self, family: Casino, rnd: Round, seat: int) -> None:
        rules = family.rules
        self.rules = rules
        self.seat = seat
        self.hand = rnd.hands[seat]
        self.items: list[Item] = sorted(rnd.table, key=item_key)
        self.tops: list[Pile] = family.pile_tops(rnd, seat)
        items = [*self.items, *(top.card for top in self.tops)]
        self.all_items = items
        self.table_count = len(self.items)
        table_values = rules.table_values
        permissive = rules.permissive
        self.gpos: list[int] = []  # groupable positions (into all_items)
        options: list[tuple[int, ...]] = []
        self.whole: dict[int, list[int]] = {}  # value -> builds taken or built on whole
        self.simple: list[tuple[int, int]] = []  # (position, value): strict 7.1 increases
        self.pairs: dict[int, list[int]] = {}  # rank -> loose pictures without a number
        self.owned: dict[int, list[int]] = {}  # value -> positions of the seat's builds
        for position, item in enumerate(items):
            if isinstance(item, Card):
                values = table_values[item.rank]
                if values:
                    self.gpos.append(position)
                    options.append(values)
                else:
                    self.pairs.setdefault(item.rank, []).append(position)
                continue
            if item.owner == seat:
                self.owned.setdefault(item.value, []).append(position)
            if permissive and not item.multiple:
                self.gpos.append(position)
                options.append((item.value,))
            else:
                self.whole.setdefault(item.value, []).append(position)
                if not item.multiple:
                    self.simple.append((position, item.value))
        self.options = tuple(options)
        self.pile_bits = 0  # groupable bits that are pile tops
        for bit, position in enumerate(self.gpos):
            if position >= self.table_count:
                self.pile_bits |= 1 << bit
        self.drift_free = family.drift_free(rnd, seat)
        self._unions: dict[int, tuple[int, ...]] = {}
        self._rests: dict[Card, list[Card]] = {}

    def unions(self, value: int) -> tuple[int, ...]:
        found = self._unions.get(value)
        if found is None:
            found = self._unions[value] = union_groups(self.options, value)
        return found

    def groups(self, value: int) -> tuple[int, ...]:
        return single_groups(self.options, value)

    def rest(self, card: Card) -> list[Card]:
        found = self._rests.get(card)
        if found is None:
            found = self._rests[card] = _without(self.hand, card)
        return found

    def positions(self, mask: int) -> list[int]:
        gpos = self.gpos
        return [gpos[b] for b in _bits(mask)]

    def owned_after(self, gone: Iterable[int]) -> set[int]:
        """Values of the seat's builds still on the table once positions ``gone`` leave."""
        gone = set(gone)
        return {v for v, ps in self.owned.items() if any(p not in gone for p in ps)}

    def pick(self, positions: Iterable[int]) -> tuple[Item, ...]:
        """Items at ``positions`` in canonical order (positions follow it but for pile tops)."""
        items = self.all_items
        chosen = [items[p] for p in sorted(positions)]
        if any(p >= self.table_count for p in positions):
            return tuple(sorted(chosen, key=item_key))
        return tuple(chosen)


# -- the Casino core (7.1, 7.2, 7.3) ----------------------------------------------------


class Casino:
    """Anglo-American Casino (7.1); Royal Casino and Glimne's Mulle differ only in data."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    # Hooks ------------------------------------------------------------------------------

    def pile_tops(self, rnd: Round, seat: int) -> list[Pile]:
        """Pile top cards the seat may use this turn (none in 7.1)."""
        return []

    def drift_free(self, rnd: Round, seat: int) -> bool:
        """Whether owning a build puts no limit on this turn (South African 2nd deal)."""
        return False

    def trail_allowed(self, rnd: Round, seat: int, ctx: Context) -> bool:
        """Whether the seat may trail at all (7.1: not while owning a build)."""
        return self.rules.permissive or not ctx.owned

    def build_allowed(self, ctx: Context, positions: Sequence[int], value: int) -> bool:
        """A last say on a build move's items (South African pile tops and owners)."""
        return not any(p >= ctx.table_count for p in positions)

    def table_build_with_trail(self) -> bool:
        """Permissive Casino: a build from table cards alone, then a trail."""
        return self.rules.permissive

    # Generation -------------------------------------------------------------------------

    def context(self, rnd: Round) -> Context:
        cached = rnd._context
        if cached is None or cached.seat != rnd.to_move:
            cached = rnd._context = Context(self, rnd, rnd.to_move)
        return cached

    def legal_moves(self, rnd: Round) -> list[Move]:
        ctx = self.context(rnd)
        moves: list[Move] = []
        for card in dict.fromkeys(ctx.hand):
            moves.extend(self.moves_for(rnd, ctx, card))
        return moves

    def moves_for(self, rnd: Round, ctx: Context, card: Card) -> list[Move]:
        """Every legal move playing ``card``, each once."""
        found: dict[Move, None] = {}
        rest = ctx.rest(card)
        rules = self.rules
        trail_ok = self.trail_allowed(rnd, ctx.seat, ctx)
        if trail_ok and holds(rules, ctx.owned, rest):
            found[Move.trail(card)] = None
        for move in self._captures(ctx, card, rest):
            found[move] = None
        for move in self._builds(ctx, card, rest):
            found[move] = None
        if trail_ok and self.table_build_with_trail():
            for move in self._table_builds(ctx, card, rest):
                found[move] = None
        return list(found)

    def _captures(self, ctx: Context, card: Card, rest: list[Card]) -> Iterator[Move]:
        rules = self.rules
        make = Move._ordered
        owned = ctx.owned
        values = rules.hand_values[card]
        if not values:  # a picture without a number pairs one loose card of its rank
            for position in ctx.pairs.get(card.rank, ()):
                if not owned or holds(rules, ctx.owned_after(()), rest):
                    yield make(card, (ctx.all_items[position],))
            return
        for value in values:
            wholes = ctx.whole.get(value, ())
            for union in (0, *ctx.unions(value)):
                base = ctx.positions(union)
                for chosen in _subsets(wholes):
                    if not union and not chosen:
                        continue
                    positions = [*base, *chosen]
                    if owned and not holds(rules, ctx.owned_after(positions), rest):
                        continue
                    yield make(card, ctx.pick(positions))

    def _increases(self, ctx: Context, played: int, value: int) -> list[tuple[int, int]]:
        """(groupable mask, simple build position or -1) for the played card's group."""
        out: list[tuple[int, int]] = []
        strict = not self.rules.permissive
        for own in self.rules.table_values[played]:
            if own == value:
                out.append((0, -1))
            elif own < value:
                out.extend((g, -1) for g in ctx.groups(value - own))
                if strict:
                    out.extend((0, p) for p, v in ctx.simple if v + own == value)
        return out

    def _builds(self, ctx: Context, card: Card, rest: list[Card]) -> Iterator[Move]:
        rules = self.rules
        if not rules.table_values[card.rank]:
            return  # pictures without a number are never built
        held = sorted({v for c in rest for v in rules.hand_values[c]})
        make = Move._made
        for value in held:
            shapes = self._increases(ctx, card.rank, value)
            if not shapes:
                continue
            unions = (0, *ctx.unions(value))
            wholes = ctx.whole.get(value, ())
            for mask, grown in shapes:
                for union in unions:
                    if union & mask:
                        continue
                    base = ctx.positions(union | mask)
                    if grown >= 0:
                        base.append(grown)
                    for chosen in _subsets(wholes):
                        positions = [*base, *chosen]
                        if not positions or not self.build_allowed(ctx, positions, value):
                            continue
                        after = ctx.owned_after(positions) | {value}
                        if not holds(rules, after, rest):
                            continue
                        yield make(card, (), value, ctx.pick(positions), ())

    def _table_builds(self, ctx: Context, card: Card, rest: list[Card]) -> Iterator[Move]:
        """Permissive: build with table items only (no pile tops), then trail ``card``."""
        rules = self.rules
        held = sorted({v for c in rest for v in rules.hand_values[c]})
        make = Move._made
        for value in held:
            wholes = ctx.whole.get(value, ())
            for union in (0, *ctx.unions(value)):
                if union & ctx.pile_bits:
                    continue
                base = ctx.positions(union)
                for chosen in _subsets(wholes):
                    positions = [*base, *chosen]
                    if len(positions) < 2:
                        continue
                    after = ctx.owned_after(positions) | {value}
                    if not holds(rules, after, rest):
                        continue
                    extra = (TableBuild(value, ctx.pick(positions)),)
                    yield make(card, (), None, (), extra)

    # Playing ----------------------------------------------------------------------------

    def check(self, rnd: Round, move: Move) -> None:
        """Raise :class:`IllegalMove` with a reason unless ``move`` is legal now."""
        if not isinstance(move, Move) or not isinstance(move.card, Card):
            raise IllegalMove("that is not a move")
        ctx = self.context(rnd)
        if move.card not in ctx.hand:
            raise IllegalMove(f"{move.card} is not in your hand")
        if move in self.moves_for(rnd, ctx, move.card):
            return
        raise IllegalMove(self.explain(rnd, ctx, move))

    def explain(self, rnd: Round, ctx: Context, move: Move) -> str:
        """Why ``move`` is illegal, for the player."""
        rules = self.rules
        card = move.card
        rest = ctx.rest(card)
        reason = self._explain_items(ctx, move)
        if reason:
            return reason
        if move.table_builds and not (self.table_build_with_trail() and move.is_trail):
            return "you may build with table cards alone only as you trail (permissive rules)"
        if move.is_trail:
            if not self.trail_allowed(rnd, ctx.seat, ctx):
                return "you own a build: you cannot trail"
            if not holds(rules, ctx.owned, rest):
                return _keep_message(rules, ctx.owned, rest, "for your build")
            if move.table_builds:
                build = move.table_builds[0]
                return self._explain_build(ctx, card, build.value, build.using, rest, True)
            return "that move is not allowed"
        if move.kind == "capture":
            return self._explain_capture(ctx, card, move.taken, rest)
        return self._explain_build(ctx, card, move.value, move.using, rest, False)

    def _explain_items(self, ctx: Context, move: Move) -> str | None:
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
            return f"{item} is in a build: a build is taken whole, by a card of its value"
        return f"{item} is not on the table"

    def _explain_capture(
        self, ctx: Context, card: Card, taken: tuple[Item, ...], rest: list[Card]
    ) -> str:
        rules = self.rules
        values = rules.hand_values[card]
        pair = len(taken) == 1 and isinstance(taken[0], Card) and taken[0].rank == card.rank
        if not values and not pair:
            name = card.rank_name
            return f"a {name} takes one {name} from the table: pictures have no number"
        for item in taken:
            if isinstance(item, Build) and item.value not in values:
                return "a build is taken whole, by a card of its value"
            if isinstance(item, Card) and not rules.table_values[item.rank] and values:
                return f"{item} has no number: only a card of its rank takes it"
        positions = _positions_of(ctx, taken)
        if positions is not None and values:
            if any(p >= ctx.table_count for p in positions) and not ctx.tops:
                return "you may not take cards from a capture pile"
            owned = ctx.owned_after(positions)
            if self._is_capture(ctx, card, positions) and not holds(rules, owned, rest):
                return _keep_message(rules, owned, rest, "for your build")
        shown = " + ".join(map(str, taken))
        return f"{shown} do not make {' or '.join(map(str, values)) or card.rank_name}"

    def _is_capture(self, ctx: Context, card: Card, positions: list[int]) -> bool:
        for value in self.rules.hand_values[card]:
            loose = [p for p in positions if p in ctx.gpos]
            whole = [p for p in positions if p not in ctx.gpos]
            if any(ctx.all_items[p].value != value for p in whole):
                continue
            if not loose:
                return True
            mask = sum(1 << ctx.gpos.index(p) for p in loose)
            if mask in ctx.unions(value):
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
    ) -> str:
        rules = self.rules
        if value is None:
            return "that move is not allowed"
        if not table_only and not rules.table_values[card.rank]:
            return f"a {card.rank_name} has no number: it cannot be built"
        if not using:
            return "a build needs cards from the table besides the card you play"
        if not any(value in rules.hand_values[c] for c in rest):
            return f"you must keep a card of value {value} to build {value}"
        for item in using:
            if isinstance(item, Build) and item.multiple and item.value != value:
                return "a multiple build's value cannot change"
            if isinstance(item, Card) and not rules.table_values[item.rank]:
                return f"{item} has no number: it cannot be built"
        positions = _positions_of(ctx, using)
        if (
            positions is not None
            and not table_only
            and not self.build_allowed(ctx, positions, value)
        ):
            return self._pile_build_message()
        played = None if table_only else card
        strict = not rules.permissive
        if split_groups(rules, using, value, played, strict) is None:
            if strict and split_groups(rules, using, value, played, False) is not None:
                return "only the card you play can change a build's value"
            parts = " + ".join(map(str, (*([] if table_only else [card]), *using)))
            return f"{parts} do not make groups of {value}"
        after = (ctx.owned_after(positions or ()) if positions is not None else set()) | {value}
        if not holds(rules, after, rest):
            return _keep_message(rules, after, rest, "for your builds")
        return "that build is not allowed"

    def _pile_build_message(self) -> str:
        return "you may not build with cards from a capture pile"

    def apply(self, rnd: Round, move: Move) -> tuple[bool, bool, bool]:
        """Play a legal ``move``: returns (sweep, sweep scores, mulle)."""
        seat = rnd.to_move
        rnd.hands[seat].remove(move.card)
        for build in move.table_builds:
            self._place_build(rnd, seat, None, build.value, build.using)
        if move.kind == "capture":
            return self._capture(rnd, seat, move)
        if move.kind == "build":
            self._place_build(rnd, seat, move.card, move.value, move.using)
        else:
            rnd.table.append(move.card)
        return (False, False, False)

    def _take(self, rnd: Round, items: Iterable[Item]) -> list[Item]:
        """Remove items from the table (or pile tops); returns them."""
        out = []
        for item in items:
            if item in rnd.table:
                rnd.table.remove(item)
            else:
                for pile in rnd.piles:
                    if pile and pile[-1] == item:
                        pile.pop()
                        break
                else:  # pragma: no cover - the move was checked
                    raise IllegalMove(f"{item} is not on the table")
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
        where = min((rnd.table.index(i) for i in using if i in rnd.table), default=len(rnd.table))
        self._take(rnd, using)
        build = Build(groups, value, self.owner_of(rnd, seat, value))
        rnd.table.insert(min(where, len(rnd.table)), build)
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


def _positions_of(ctx: Context, items: Sequence[Item]) -> list[int] | None:
    """Positions in ``ctx.all_items`` of ``items`` (a multiset), or ``None`` if missing."""
    free = list(range(len(ctx.all_items)))
    out = []
    for item in items:
        for index, position in enumerate(free):
            if ctx.all_items[position] == item:
                out.append(position)
                del free[index]
                break
        else:
            return None
    return out


def _keep_message(rules: Rules, values: Iterable[int], cards: Sequence[Card], what: str) -> str:
    wanted = sorted(set(values))
    lone = [v for v in wanted if not any(v in rules.hand_values[c] for c in cards)]
    if lone:
        return f"you must keep a card of value {lone[0]} {what}"
    shown = " and ".join(map(str, wanted))
    return f"one card cannot guard two builds: you need a card for each of the values {shown}"


# -- South African Casino (7.6) ---------------------------------------------------------


class SouthAfrican(Casino):
    """7.6: the top card of each other player's pile joins captures, and owners' builds."""

    def pile_tops(self, rnd: Round, seat: int) -> list[Pile]:
        return [
            Pile(index, pile[-1]) for index, pile in enumerate(rnd.piles) if pile and index != seat
        ]

    def drift_free(self, rnd: Round, seat: int) -> bool:
        return rnd.players == 2 and rnd.deal_number >= 2  # the second deal: drift freely

    def trail_allowed(self, rnd: Round, seat: int, ctx: Context) -> bool:
        return not ctx.owned or ctx.drift_free

    def build_allowed(self, ctx: Context, positions: Sequence[int], value: int) -> bool:
        owns_one = any(p in ps for ps in ctx.owned.values() for p in positions)
        if ctx.owned and not owns_one and not ctx.drift_free:
            return False  # owning a build, you must add to it or capture
        uses_pile = any(p >= ctx.table_count for p in positions)
        return not uses_pile or owns_one

    def _pile_build_message(self) -> str:
        return (
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
