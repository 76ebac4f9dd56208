"""Cards and card notation (RULES.md §1 "Card notation", §6 double deck; issue 2 API: Card)."""

import copy
from collections import Counter

import pytest

from bot.engine import Card, parse_cards


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("10D", 10, "D"),
        ("as", 1, "S"),
        ("AS", 1, "S"),
        ("Q♥", 12, "H"),
        ("QH", 12, "H"),
        ("2S", 2, "S"),
        ("2♠", 2, "S"),
        ("10♦", 10, "D"),
        ("9c", 9, "C"),
        ("J♣", 11, "C"),
        ("kd", 13, "D"),
        ("7H", 7, "H"),
    ],
)
def test_parse_reads_plain_and_symbol_notation(text, rank, suit):
    """§1: ranks A 2..10 J Q K (ace 1, J 11, Q 12, K 13), suits S H D C or ♠ ♥ ♦ ♣."""
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize(
    "text",
    ["", "A", "10", "D", "1D", "11S", "0D", "01D", "ZS", "10X", "AX", "AS10", "10 D S", "B♥", "♥Q"],
)
def test_parse_rejects_anything_else(text):
    """API: anything that is not a card raises ValueError."""
    with pytest.raises(ValueError):
        Card.parse(text)


def test_parse_rejects_non_text():
    with pytest.raises(ValueError):
        Card.parse(None)


@pytest.mark.parametrize(
    ("text", "plain"),
    [("10D", "10D"), ("as", "AS"), ("Q♥", "QH"), ("j♣", "JC"), ("K♠", "KS"), ("2h", "2H")],
)
def test_str_is_plain_notation(text, plain):
    """§1 / API: str(card) gives the plain notation, e.g. "10D", "AS", "QH"."""
    assert str(Card.parse(text)) == plain


def test_str_round_trips_every_card():
    """Every one of the 52 cards reads back from its own str()."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    names = [r + s for s in "SHDC" for r in ranks]
    cards = [Card.parse(name) for name in names]
    assert [str(c) for c in cards] == names
    assert len(set(cards)) == 52
    assert all(Card.parse(str(c)) == c for c in cards)


def test_equal_cards_hash_equal_and_different_cards_differ():
    assert Card.parse("10D") == Card.parse("10♦") == Card.parse("10d")
    assert hash(Card.parse("10D")) == hash(Card.parse("10♦"))
    assert Card.parse("10D") != Card.parse("10H")
    assert Card.parse("10D") != Card.parse("JD")
    assert Card.parse("AS") != "AS"


def test_identical_double_deck_cards_are_equal():
    """§6: in the double deck identical cards exist; they compare equal and hash alike."""
    first, second = parse_cards("9S 9S")
    assert first == second
    assert len({first, second}) == 1
    assert Counter([first, second]) == Counter({Card.parse("9S"): 2})
    assert [first, second].count(Card.parse("9♠")) == 2


def test_cards_are_immutable_and_copy_equal():
    card = Card.parse("AS")
    with pytest.raises((AttributeError, TypeError)):
        card.rank = 5
    assert (card.rank, card.suit) == (1, "S")
    assert copy.deepcopy(card) == card
    assert {card: "ace"}[Card.parse("as")] == "ace"


def test_storan_and_lillan_notation():
    """§1: storan is the 10♦, lillan the 2♠."""
    storan, lillan = parse_cards("10♦ 2♠")
    assert (storan.rank, storan.suit, str(storan)) == (10, "D", "10D")
    assert (lillan.rank, lillan.suit, str(lillan)) == (2, "S", "2S")


def test_parse_cards_returns_a_list_in_order():
    cards = parse_cards("AS 10D KH")
    assert isinstance(cards, list)
    assert [(c.rank, c.suit) for c in cards] == [(1, "S"), (10, "D"), (13, "H")]
    assert parse_cards("Q♥ 2♠") == [Card.parse("QH"), Card.parse("2S")]


def test_parse_cards_rejects_a_bad_card():
    with pytest.raises(ValueError):
        parse_cards("AS 1D KH")
