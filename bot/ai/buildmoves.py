"""The moves of the building games, with the work bounded on busy tables.

On ordinary tables the engine lists every turn (``Round.legal_moves``). Its listing is not
bounded: a busy Swazi table with pile tops can hold tens of thousands of turns and take a
second, and a Casino table everyone trailed to a million captures. Past ``BUSY`` items
the players make their own short list instead, from the choices people make (take a
card's biggest captures with the builds of its value, build a value held in hand from one
small group or on a build, raise a build, trail) and let the engine check each one, at
most ``MAX_CHECKS`` checks. Table builds without the hand card (Swazi) are left out there.
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.engine import Build, Card, Move, Round, Rules, capture_options

from .outcome import split

BUSY = 10  # table items (and pile tops, in the games that use them) the engine lists freely
BUSY_SWAZI = 8  # Swazi and Sotho turns multiply faster (table builds, piles)
MAX_CHECKS = 160  # moves checked with the engine on a busy table
CAPTURES_PER_VALUE = 6  # maximal captures of loose cards looked at per value
GROUP_SIZE = 3  # loose cards in one build group, at most
GROUPS_PER_VALUE = 8  # build groups looked at per card and value
MAX_TAKEN = 10  # loose cards in one capture checked by the engine, at most


def building_moves(world: Round) -> list[Move]:
    """Legal moves of the player to move in a building game (all, or a bounded list)."""
    if not _busy(world):
        return world.legal_moves()
    found: list[Move] = []
    seen: set[Move] = set()
    for move in _choices(world):
        if move in seen:
            continue
        seen.add(move)
        if world.is_legal(move):
            found.append(move)
        if len(seen) >= MAX_CHECKS:
            break
    return found or world.legal_moves()  # nothing of the usual shapes: list them all


def _busy(world: Round) -> bool:
    """Whether listing every turn might cost more than a decision can afford."""
    items = len(world.table)
    if world.rules.builds == "casino":
        return items > BUSY
    tops = sum(1 for pile in world.piles if pile)
    limit = BUSY_SWAZI if world.rules.builds == "swazi" else BUSY
    return items + tops > limit


def _choices(world: Round) -> Iterator[Move]:
    """Likely moves: trails (few), captures, then builds (the most numerous)."""
    rules, seat = world.rules, world.to_move
    hand = world.hands[seat]
    loose, builds = split(world.table)
    cards = list(dict.fromkeys(hand))
    for card in cards:
        yield Move(card)
    for card in cards:
        yield from _captures(world, card, loose, builds)
    numbered = [(rules.table_values[c.rank][:1] or (0,))[0] for c in loose]
    valued = list(zip(numbered, loose, strict=True))
    for card in cards:
        rest = list(hand)
        rest.remove(card)
        held = {v for c in rest for v in rules.hand_values[c]}
        for own in rules.table_values[card.rank]:
            for value in sorted(held, reverse=True):
                yield from _builds(card, own, value, valued, builds)


def _captures(world: Round, card: Card, loose: list[Card], builds: list[Build]) -> Iterator[Move]:
    values = world.rules.hand_values[card]
    whole = [b for b in builds if b.value in values]
    if not values:
        yield from (Move(card, [c]) for c in loose if c.rank == card.rank)
        return
    groups = capture_options(world.rules, card, loose, limit=CAPTURES_PER_VALUE) if loose else []
    for taken in groups:
        yield Move(card, [*bounded_capture(world.rules, card, list(taken)), *whole])
    if whole:
        yield Move(card, whole)
        yield from (Move(card, [b]) for b in whole[1:])


def _builds(
    card: Card, own: int, value: int, loose: list[tuple[int, Card]], builds: list[Build]
) -> Iterator[Move]:
    """Build ``value`` with ``card`` (worth ``own``): on a group of loose cards, onto the
    builds of that value, or raising a simple build."""
    same = [b for b in builds if b.value == value]
    if own == value:
        for build in same:
            yield Move.build(card, [build], value)
    if own < value:
        for group in _groups(loose, value - own):
            yield Move.build(card, [*group, *same], value)
            if same:
                yield Move.build(card, group, value)
        for build in builds:
            if not build.multiple and build.value + own == value:
                yield Move.build(card, [build], value)


def _groups(
    loose: list[tuple[int, Card]], total: int, limit: int = GROUPS_PER_VALUE
) -> Iterator[tuple[Card, ...]]:
    """Up to ``limit`` groups of at most ``GROUP_SIZE`` loose cards (``(value, card)``)
    adding up to ``total`` (an ace as 1; cards without a number, value 0, left out).

    A depth-first search over the cards by value, cut where the sum passes ``total``, so
    the work stays near the answers on any table.
    """
    usable = sorted(((v, c) for v, c in loose if 0 < v <= total), key=lambda vc: vc[0])
    found = 0

    def walk(start: int, left: int, group: tuple[Card, ...]) -> Iterator[tuple[Card, ...]]:
        nonlocal found
        for i in range(start, len(usable)):
            value, card = usable[i]
            if value > left or found >= limit:
                return
            if value == left:
                found += 1
                yield (*group, card)
            elif len(group) + 1 < GROUP_SIZE:
                yield from walk(i + 1, left - value, (*group, card))

    yield from walk(0, total, ())


def bounded_capture(rules: Rules, card: Card, taken: list[Card]) -> list[Card]:
    """``taken`` (loose cards making a capture of ``card``), or where the engine's check
    of so big a capture could take seconds (over ``MAX_TAKEN`` cards, after everyone
    trailed) some of its groups, at most ``MAX_TAKEN`` cards: still a capture, and cheap
    to check."""
    if len(taken) <= MAX_TAKEN:
        return taken
    valued = [((rules.table_values[c.rank][:1] or (0,))[0], c) for c in taken]
    kept: list[Card] = []
    for value in rules.hand_values[card]:
        kept = []
        while len(kept) + GROUP_SIZE <= MAX_TAKEN:
            group = next(_groups(valued, value, 1), None)
            if group is None:
                break
            kept.extend(group)
            valued = [(v, c) for v, c in valued if c not in group]
        if kept:
            return kept
    return kept
