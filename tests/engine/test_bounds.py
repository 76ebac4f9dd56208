"""Bounded work on the worst tables play can reach (issue 7: nothing stuck).

Work is counted in Python calls (``at_most_calls``), not timed: the machines are shared.
Before the bounds, an ace on the 51 cards of a round in which everyone trailed took
capture_options(limit=24) minutes, and 28 low cards gave a card 1.19 million captures.
"""

import pytest

from bot.engine import Card, Move, Round, capture_options, is_capture, parse_cards, rules_for
from bot.engine import captures as engine_captures
from bot.engine.captures import clear_caches

from .worst import at_most_calls, last_card_ace, low_table, worst_positions

WORST = worst_positions()
OPTIONS_CALLS = 50_000  # the bounded search takes under 20 000 on every worst table


def test_the_worst_tables_are_reached_by_trailing():
    sizes = {name: len(round_.table) for name, round_ in WORST.items()}
    assert sizes["swedish 2p, 28 low cards"] == 28
    assert sizes["mulle 2p, 56 low cards"] == 56
    assert sizes["swedish 2p, ace on 51 cards"] == 51
    assert sizes["mulle 2p, ace on 103 cards"] == 103
    last = WORST["swedish 2p, ace on 51 cards"]
    assert last.hands[last.to_move] == [Card.parse("AC")] and not last.deck


@pytest.mark.parametrize("name", WORST)
def test_capture_options_with_a_limit_is_bounded_on_the_worst_tables(name):
    round_ = WORST[name]
    for card in dict.fromkeys(round_.hands[round_.to_move]):
        clear_caches()
        with at_most_calls(OPTIONS_CALLS):
            found = capture_options(round_.rules, card, round_.table, limit=24)
        assert 1 <= len(found) <= 24
        assert len(set(found)) == len(found)
        for taken in found:
            assert round_.is_legal(Move(card, taken))


@pytest.mark.parametrize("name", WORST)
def test_legal_moves_with_a_limit_is_bounded_on_the_worst_tables(name):
    round_ = WORST[name]
    clear_caches()
    with at_most_calls(5 * OPTIONS_CALLS):
        moves = round_.legal_moves(limit=5)
    hand = round_.hands[round_.to_move]
    assert {m.card for m in moves if m.is_trail} == set(hand)
    assert any(m.taken for m in moves)
    for card in set(hand):
        assert 1 <= sum(1 for m in moves if m.card == card and m.taken) <= 5
    assert all(round_.is_legal(m) for m in moves)


def test_legal_moves_with_a_limit_lists_the_biggest_captures():
    rules = rules_for("swedish")
    round_ = Round.from_position(rules, [parse_cards("8C"), []], parse_cards("AS 2S 3S 5S 6S 8S"))
    moves = round_.legal_moves(limit=3)
    assert Move(Card.parse("8C")) in moves
    takes = {m.taken for m in moves if m.taken}
    assert takes == {tuple(parse_cards(t)) for t in ("2S 3S 5S 6S 8S", "AS 2S 5S 8S")}
    assert len(round_.legal_moves()) > len(moves)  # every capture, maximal or not


@pytest.mark.parametrize("limit", [0, -1, 1.5, "3", True])
def test_legal_moves_refuses_a_bad_limit(limit):
    round_ = low_table("swedish", 2)
    with pytest.raises((TypeError, ValueError)):
        round_.legal_moves(limit=limit)


def test_the_bounded_search_answers_the_same_however_warm(monkeypatch):
    """The search has its own memory, so where it stops does not depend on the past."""
    round_ = last_card_ace("swedish", 2)
    ace, table = Card.parse("AC"), round_.table
    clear_caches()
    cold = capture_options(round_.rules, ace, table, limit=24)
    clear_caches()
    is_capture(round_.rules, ace, table)  # warms the partitioners other searches share
    is_capture(round_.rules, ace, cold[0])
    assert capture_options(round_.rules, ace, table, limit=24) == cold
    assert capture_options(round_.rules, ace, list(reversed(table)), limit=24) == cold


def test_out_of_effort_the_search_still_gives_a_legal_capture(monkeypatch):
    """With no steps at all, the answer is one capture made group by group."""
    monkeypatch.setattr(engine_captures, "EFFORT", 0)
    for round_ in WORST.values():
        clear_caches()
        for card in dict.fromkeys(round_.hands[round_.to_move]):
            found = capture_options(round_.rules, card, round_.table, limit=3)
            assert 1 <= len(found) <= 3
            assert all(round_.is_legal(Move(card, taken)) for taken in found)
    clear_caches()
    rules = rules_for("swedish")
    low = low_table("swedish", 2)
    king = low.hands[low.to_move][0]
    quick = capture_options(rules, king, low.table, limit=4, effort=0)
    assert 1 <= len(quick) <= 4 and all(low.is_legal(Move(king, t)) for t in quick)
    assert capture_options(rules, Card.parse("KC"), parse_cards("QS 2H"), limit=2) == []
    assert capture_options(rules, Card.parse("KC"), parse_cards("QS AH 5D"), limit=2) == [
        tuple(parse_cards("AH QS"))
    ]


def test_the_largest_capture_comes_first_on_the_worst_tables():
    """Where the search runs out of steps, it has found the largest captures first."""
    round_ = last_card_ace("swedish", 2)
    found = capture_options(round_.rules, Card.parse("AC"), round_.table, limit=24)
    assert len(found[0]) == 50  # every card but one king: 25 groups of 14


@pytest.mark.parametrize(("effort", "error"), [(-1, ValueError), ("9", TypeError), (None, None)])
def test_capture_options_takes_an_effort(effort, error):
    rules, table = rules_for("swedish"), parse_cards("AS 2H 3D 7C")
    if error is None:
        assert capture_options(rules, Card.parse("KC"), table, limit=2, effort=effort)
    else:
        with pytest.raises(error):
            capture_options(rules, Card.parse("KC"), table, limit=2, effort=effort)
