"""The engine's look-ups for the interface and the computer players."""

import random

import pytest

from bot.engine import (
    Card,
    all_captures,
    capture_masks,
    capture_targets,
    card_points,
    parse_cards,
    rules_for,
)
from bot.engine.cards import full_deck

SWEDISH = rules_for("swedish")
FINNISH = rules_for("finnish")


@pytest.mark.parametrize(
    ("rules", "played", "taken", "targets"),
    [
        (SWEDISH, "AH", "4C 9D AS", (14,)),
        (SWEDISH, "AH", "AS", (1, 14)),
        (SWEDISH, "AH", "2S", ()),
        (SWEDISH, "8D", "5H 3C 8S", (8,)),
        (SWEDISH, "8D", "5H 2C", ()),
        (SWEDISH, "8D", "", ()),
        (FINNISH, "AH", "AS", ()),
        (FINNISH, "AH", "AS KD", (14,)),
        (FINNISH, "2S", "10H 5C", (15,)),
        (FINNISH, "10D", "10H 6C", (16,)),
    ],
)
def test_capture_targets_say_how_the_played_card_counts(rules, played, taken, targets):
    assert capture_targets(rules, Card.parse(played), parse_cards(taken)) == targets


def test_capture_masks_match_all_captures():
    rng = random.Random(5)
    for name in ("swedish", "finnish", "mulle"):
        rules = rules_for(name)
        for _ in range(200):
            cards = rng.sample(full_deck(rules.decks), rng.randint(1, 11))
            played, table = cards[0], cards[1:]
            masks = capture_masks(rules, played, table)
            picked = {tuple(sorted(c for i, c in enumerate(table) if m >> i & 1)) for m in masks}
            assert picked == {tuple(sorted(c)) for c in all_captures(rules, played, table)}
            assert [m.bit_count() for m in masks] == sorted(
                (m.bit_count() for m in masks), reverse=True
            )


def test_capture_masks_refuse_big_tables():
    with pytest.raises(ValueError, match="12 cards"):
        capture_masks(SWEDISH, Card.parse("KS"), full_deck()[:13])


@pytest.mark.parametrize(
    ("card", "points"), [("AS", 1), ("AD", 1), ("10D", 2), ("2S", 1), ("10H", 0), ("2H", 0)]
)
def test_card_points(card, points):
    assert card_points(Card.parse(card)) == points
