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
a quick pass over the subset sums of its items (:mod:`.buildgroups`).

*Ownership.* Each seat must hold, for every distinct value of the builds it owns, its
own card of that value: a matching between owned values and held cards, never one card
for two values (an ace guarding builds of 1 and 14 would leave its owner stuck). Every
move is checked against it, so the owner can always capture its build, and a round can
never reach a position without a legal move.

*Variants as hooks.* :class:`~bot.engine.casino.Casino` is 7.1 with its options
(permissive building); Royal Casino and Glimne's Mulle are the same class with other card
values (rules data). :class:`~bot.engine.casino.SouthAfrican` overrides the pile-top and
drifting hooks; :class:`~bot.engine.swazi.Swazi` (Swazi and Sotho) adds table build
actions, owners' rights and pile tops. ``legal_moves()`` lists every turn; ``Round.play``
and ``is_legal`` check a move on its own items (no list of moves needed) and explain a
refusal in a sentence for the player. Tests hold the two equal, and both equal to a
brute-force generator.

Where things are
----------------
The rules first, then how they are computed fast (imports go that way only):

- this module: what the rules share: ownership (:func:`holds`), how a build's items
  split into groups of its value (:func:`split_groups`), pile cards, the refusal for an
  owner left without its card;
- :mod:`.casino`: the Casino family's rules (hooks per variant; checking, explaining and
  playing one move); :mod:`.swazi`: Swazi's and Sotho's (partners, pile cards, the end
  of a turn);
- :mod:`.buildlist` and :mod:`.swazilist`: the move generators and the lazy view's
  counts, over bit masks of a position read once; :mod:`.buildgroups`: the group search
  they share;
- :mod:`.families`: which family a rule set plays (``Round`` asks it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

from .builds import Item
from .cards import Card
from .reasons import Joined, Reason, reason

if TYPE_CHECKING:
    from .rules import Rules

_NEVER = (99,)  # the value options of an item no group may hold: it sorts last


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


class Pile(NamedTuple):
    """A usable pile top: the pile's index in ``Round.piles`` and its top card."""

    index: int
    card: Card


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
        "one card cannot guard two builds, so you need a card for each of the values {values}",
        values=shown,
    )
