"""The players' parts: capture lists, expectations, majorities, the seat view, hints."""

import random
from itertools import combinations
from math import comb

import pytest

from bot.ai import explain_move, fastcap
from bot.ai.normal import expected_max
from bot.ai.values import majority, majority_points
from bot.ai.view import SeatView
from bot.engine import Move, Round, all_captures, parse_cards, rules_for
from bot.engine.cards import full_deck


@pytest.mark.parametrize("variant", ["swedish", "finnish", "mulle"])
def test_search_captures_match_the_engine(variant):
    rules = rules_for(variant)
    rng = random.Random(variant)
    deck = full_deck(rules.decks)
    for _ in range(400):
        cards = rng.sample(deck, rng.randint(2, 9))
        played, table = cards[0], cards[1:]
        ours = {tuple(sorted(c)) for c in fastcap.captures(rules, played, table)}
        theirs = {tuple(sorted(c)) for c in all_captures(rules, played, table)}
        assert ours == theirs


def test_expected_best_matches_counting_every_hand():
    gains = [5.0, 3.0, 3.0, 1.0]
    pool, held = 9, 3
    hands = list(combinations(range(pool), held))
    exact = sum(
        max((gains[i] for i in hand if i < len(gains)), default=0.0) for hand in hands
    ) / len(hands)
    assert expected_max(gains, pool, held) == pytest.approx(exact)
    assert len(hands) == comb(pool, held)


def test_a_decided_majority_is_worth_its_points():
    assert majority((8, 3), 2, "most", 2, 1.4) == (2.0, 0.0)
    assert majority((5, 5), 0, "most", 2, 1.4) == (0.0, 0.0)
    assert majority((9, 2, 2), 0, "over-six", 1, 1.4) == (3.0, 0.0, 0.0)
    low, high = majority((3, 4), 6, "most", 2, 1.4)
    assert 0 < low < high < 2


def test_majorities_of_three_sides_favour_the_leader():
    rules = rules_for("swedish")
    values = majority_points(rules, [5, 2, 2], [20, 10, 10])
    assert values[0] > values[1] == pytest.approx(values[2])


def test_the_view_hides_other_hands_and_the_deck():
    round_ = Round.deal(rules_for("swedish"), 3, seed=8)
    view = SeatView.of(round_, round_.to_move)
    assert view.hand == tuple(round_.hands[round_.to_move])
    hidden = sorted(c for s, h in enumerate(round_.hands) if s != view.seat for c in h)
    assert view.hidden() == sorted(hidden + round_.deck)
    assert not hasattr(view, "hands") and not hasattr(view, "deck")
    world = view.sample(random.Random(1))
    assert world.hands[view.seat] == round_.hands[view.seat]
    assert [len(h) for h in world.hands] == [len(h) for h in round_.hands]
    assert world.table == round_.table and len(world.deck) == len(round_.deck)


def test_explanations_name_the_cards_and_the_reason():
    rules = rules_for("swedish")
    round_ = Round.from_position(
        rules,
        [parse_cards("AH KC"), parse_cards("5D 6D")],
        parse_cards("AS 4C 9D QH"),
        parse_cards("2H 3H 4H"),
        to_move=0,
    )
    text = explain_move(round_, 0, Move(parse_cards("AH")[0], parse_cards("AS 4C 9D")))
    assert text.startswith("take A♠ 4♣ 9♦ with A♥:")
    assert "aces are worth a point each" in text
    trail = explain_move(round_, 0, Move(parse_cards("KC")[0]))
    assert trail.startswith("trail K♣:")
