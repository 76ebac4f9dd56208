"""Random positions of the building games, for the brute-force and property tests."""

from __future__ import annotations

from bot.engine import Build, Match, Round, rules_for
from tests.engine.reference import can_hold, values_on_table

CASINO_FAMILY = [
    ("casino", {}),
    ("casino", {"permissive": True}),
    ("royal", {}),
    ("royal", {"permissive": True}),
    ("mulle-glimne", {}),
    ("south-african", {}),
]


def random_build(rules, rng, deck, owner):
    """A build of random cards from ``deck`` (removed from it), or ``None``."""
    for _ in range(30):
        value = rng.randint(2, 16 if rules.finnish_values else 14)
        groups = []
        for _ in range(rng.choice((1, 1, 2, 2, 3))):
            group = _group(rules, rng, deck, value)
            if group is None:
                break
            groups.append(group)
        if groups and sum(len(g) for g in groups) >= 2:
            return Build(groups, value, owner)
        for group in groups:
            deck.extend(group)
    return None


def _group(rules, rng, deck, value):
    for _ in range(20):
        size = rng.randint(1, 3)
        cards = rng.sample(deck, min(size, len(deck)))
        totals = {0}
        for card in cards:
            totals = {t + v for t in totals for v in values_on_table(rules, card)}
        if value in totals:
            for card in cards:
                deck.remove(card)
            return cards
    return None


def random_position(rng, name, options, max_items=6):
    """A small position: 2 or 3 players, seat 0 to move, a few cards and builds."""
    rules = rules_for(name, **options)
    players = 2 if name == "mulle-glimne" else rng.choice((2, 3))
    deck = rules.deck()
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(rng.randint(1, 4))] for _ in range(players)]
    table = [deck.pop() for _ in range(rng.randint(0, max_items))]
    for _ in range(rng.randint(0, 3)):
        if len(table) >= max_items:
            break
        owner = rng.randrange(players)
        build = random_build(rules, rng, deck, owner)
        if build is None:
            continue
        if owner == 0:
            owned = {b.value for b in table if hasattr(b, "owner") and b.owner == 0}
            if not can_hold(rules, owned | {build.value}, hands[0]):
                build = build.with_owner(1)
        table.append(build)
    piles = [[deck.pop() for _ in range(rng.randint(0, 3))] for _ in range(players)]
    return Round.from_position(
        rules,
        hands,
        table,
        deck=[],
        piles=piles,
        to_move=0,
        last_deal=rng.random() < 0.5,
    )


def played_position(rng, name, options, players, teams, steps):
    """A position reached by random legal moves from a fresh deal."""
    rules = rules_for(name, teams=teams, **options)
    match = Match.start(rules, players, seed=rng.randrange(10**9))
    rnd = match.round
    for _ in range(steps):
        if rnd.is_over:
            break
        rnd.play(rng.choice(rnd.legal_moves()))
    return rnd


SWAZI_FAMILY = [
    ("swazi", {}),
    ("swazi", {"table_builds": 0}),
    ("swazi", {"table_builds": 2}),
    ("swazi", {"crazy": True}),
    ("sotho", {}),
    ("swazi", {"demands": True}),
    ("sotho", {"demands": True}),
]


def random_swazi_position(rng, name, options, max_items=4):
    """A small Swazi or Sotho position: builds of distinct values, piles, partners."""
    teams = not options.get("crazy") and rng.random() < 0.3
    rules = rules_for(name, teams=teams, **options)
    players = 4 if teams else (2 if options.get("crazy") else rng.choice((2, 3)))
    deck = rules.deck()
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(rng.randint(1, 3))] for _ in range(players)]
    table = [deck.pop() for _ in range(rng.randint(0, max_items))]
    values = set()
    for _ in range(rng.randint(0, 2)):
        owner = rng.randrange(players)
        build = random_build(rules, rng, deck, owner)
        if build is None or build.value in values:
            continue
        if not any(build.value in rules.hand_values[c] for c in hands[owner]):
            fits = [c for c in deck if build.value in rules.hand_values[c]]
            if not fits:
                continue
            hands[owner].append(fits[0])
            deck.remove(fits[0])
        values.add(build.value)
        table.append(build)
    for seat in range(players):  # owners hold a card for each value (one card each)
        owned = {b.value for b in table if hasattr(b, "owner") and b.owner == seat}
        if not can_hold(rules, owned, hands[seat]):
            table = [b for b in table if not (hasattr(b, "owner") and b.owner == seat)]
    room = max(0, 7 - len(table))  # the brute force tries every subset of items
    piles = [[] for _ in range(players)]
    for _ in range(rng.randint(0, min(room, 4))):
        piles[rng.randrange(players)].append(deck.pop())
    if rules.shared_piles and teams:
        piles[0] += piles[2]
        piles[1] += piles[3]
        piles[2], piles[3] = [], []
    known = [sorted(rng.sample(range(1, 15), rng.randint(0, 2))) for _ in range(players)]
    rnd = Round.from_position(
        rules,
        hands,
        table,
        deck=[deck.pop() for _ in range(rng.choice((0, 0, 3)))],
        piles=piles,
        known=known if teams else None,
        to_move=0,
    )
    rnd.deal_number = rng.choice((1, 2))
    return rnd
