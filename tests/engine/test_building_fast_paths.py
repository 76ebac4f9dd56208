"""The building engine's shortcuts against brute force."""

from __future__ import annotations

from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import rules_for
from bot.engine.buildgroups import _reach
from bot.engine.building import holds
from bot.engine.cards import full_deck
from bot.engine.families import family_for

VARIANTS = ("casino", "royal", "mulle-glimne", "south-african", "swazi", "sotho")


def brute_holds(rules, values, cards) -> bool:
    """Some order of distinct cards gives each distinct value a card worth it."""
    wanted = sorted(set(values))
    return any(
        all(value in rules.hand_values[card] for value, card in zip(wanted, chosen, strict=True))
        for chosen in permutations(cards, len(wanted))
    )


@settings(max_examples=400, deadline=None)
@given(
    name=st.sampled_from(VARIANTS),
    values=st.lists(st.integers(1, 16), max_size=4),
    picks=st.lists(st.integers(0, 51), max_size=5, unique=True),
)
def test_holds_is_a_matching(name, values, picks):
    rules = rules_for(name)
    deck = full_deck()
    cards = [deck[i] for i in picks]
    assert holds(rules, values, cards) == brute_holds(rules, values, cards)


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(("casino", "royal", "mulle-glimne", "south-african")),
    tables=st.lists(st.lists(st.integers(0, 51), max_size=12, unique=True), min_size=1, max_size=6),
)
def test_plain_sums_are_the_reach_of_the_loose_cards(name, tables):
    """Remembered sums (tables sharing their lower cards, in any order) equal the reach of
    the cards' values searched afresh."""
    rules = rules_for(name)
    family = family_for(rules)
    deck = full_deck()
    for picks in tables:
        cards = sorted((deck[i] for i in picks), key=lambda card: card.rank)
        counts = sum(1 << 4 * card.rank for card in cards)
        fresh = _reach(tuple(rules.table_values[card.rank] for card in cards))
        assert family.plain_sums(counts) == fresh
