"""choose_move's contract: levels, errors, legality, seeds, and no peeking."""

import pytest

from bot.ai import LEVELS, choose_move, hint
from bot.engine import Move, Round, rules_for

from .conftest import SETUPS, TINY, random_positions, reshuffle_hidden, same_move_unseen


def test_unknown_level_is_refused():
    round_ = Round.deal(rules_for("swedish"), 2, seed=1)
    with pytest.raises(ValueError, match="level"):
        choose_move(round_, round_.to_move, "grandmaster")


def test_a_seat_that_is_not_to_move_is_refused():
    round_ = Round.deal(rules_for("swedish"), 2, seed=1)
    for level in LEVELS:
        with pytest.raises(ValueError, match="not to move"):
            choose_move(round_, 1 - round_.to_move, level)
        with pytest.raises(ValueError):
            choose_move(round_, 7, level)


def test_a_finished_round_is_refused():
    round_ = Round.deal(rules_for("swedish"), 2, seed=1)
    while not round_.is_over:
        round_.play(choose_move(round_, round_.to_move, "easy", seed=1))
    with pytest.raises(ValueError, match="over"):
        choose_move(round_, round_.to_move, "normal")


@pytest.mark.parametrize("level", LEVELS)
def test_moves_are_legal_and_reproducible_with_a_seed(level):
    for setup in SETUPS:
        for round_ in random_positions(setup, seed=11, every=7):
            first = choose_move(round_, round_.to_move, level, seed=5, budget_ms=TINY)
            assert isinstance(first, Move)
            assert round_.is_legal(first)
            again = choose_move(round_, round_.to_move, level, seed=5, budget_ms=TINY)
            assert again == first


@pytest.mark.parametrize("level", LEVELS)
def test_cards_the_seat_cannot_see_do_not_change_the_move(level):
    positions = (r for setup in SETUPS for r in random_positions(setup, seed=23, every=5))
    assert same_move_unseen(positions, level, reshuffle_hidden, tries=2) > 100


def test_the_round_is_left_untouched():
    round_ = Round.deal(rules_for("mulle"), 3, seed=4)
    before = round_.to_dict()
    for level in LEVELS:
        choose_move(round_, round_.to_move, level, seed=1, budget_ms=TINY)
    assert round_.to_dict() == before


def test_without_a_seed_hard_still_answers_within_its_budget():
    round_ = Round.deal(rules_for("swedish"), 4, seed=2)
    assert round_.is_legal(choose_move(round_, round_.to_move, "hard", budget_ms=20))


def test_hint_gives_hards_move_and_one_line():
    round_ = Round.deal(rules_for("swedish"), 2, seed=7)
    move, text = hint(round_, round_.to_move, seed=1, budget_ms=TINY)
    assert move == choose_move(round_, round_.to_move, "hard", seed=1, budget_ms=TINY)
    assert "\n" not in text and text
    assert move.card.symbol in text
