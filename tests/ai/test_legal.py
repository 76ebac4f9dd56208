"""Thousands of random positions of every variant: the players only ever play legal moves."""

import pytest

from bot.ai import choose_move

from .conftest import SETUPS, random_positions


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s[0]}-{s[1]}{'-teams' if s[2] else ''}")
def test_cheap_levels_play_legal_moves_everywhere(setup):
    positions = 0
    for seed in range(4):
        for round_ in random_positions(setup, seed=seed, rounds=2):
            for level in ("easy", "normal"):
                move = choose_move(round_, round_.to_move, level, seed=seed)
                assert round_.is_legal(move), (level, move, round_.to_dict())
            positions += 1
    assert positions >= 250


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s[0]}-{s[1]}{'-teams' if s[2] else ''}")
def test_hard_plays_legal_moves_with_a_tiny_budget(setup):
    for round_ in random_positions(setup, seed=99, every=3):
        move = choose_move(round_, round_.to_move, "hard", seed=1, budget_ms=3)
        assert round_.is_legal(move), (move, round_.to_dict())


@pytest.mark.parametrize("setup", SETUPS[::3], ids=lambda s: f"{s[0]}-{s[1]}")
def test_whole_rounds_between_the_levels(setup):
    seats = ["hard", "normal", "easy", "normal"]
    round_ = next(random_positions(setup, seed=5))  # the deal
    while not round_.is_over:
        seat = round_.to_move
        round_.play(choose_move(round_, seat, seats[seat], seed=seat, budget_ms=3))
    assert sum(s.total for s in round_.score()) > 0
