"""The building games' worst tables (everyone trailed): the players' work stays bounded.

The engine lists every turn of a building game without a bound (a busy Swazi table can
take seconds), and checking a capture of 16 or more cards can too, so the players list
their own moves there. Work is counted in Python calls, not timed.
"""

import pytest

from bot.ai import LEVELS, choose_move, hint
from bot.ai.buildmoves import MAX_CHECKS, MAX_TAKEN, building_moves
from bot.engine import Build

from ..engine.worst import at_most_calls, low_table

WORST = {  # in Casino the mover holds pictures, which take nothing but their pairs
    "casino 2p, 28 low cards": ("casino", 7),
    "royal 2p, 28 low cards": ("royal", 7),
    "swazi 2p, 28 low cards": ("swazi", 7),
    "swazi 2p, 24 low cards and pictures": ("swazi", 5),
}
CALLS = {"easy": 100_000, "normal": 400_000, "hard": 400_000}  # today: 54k, 140k, 200k
TINY = 5


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", WORST)
def test_every_level_is_bounded_on_the_worst_building_tables(name, level):
    variant, low = WORST[name]
    round_ = low_table(variant, 2, low=low)
    assert len(round_.table) >= 24
    with at_most_calls(CALLS[level]):
        move = choose_move(round_, round_.to_move, level, seed=1, budget_ms=TINY)
    assert round_.is_legal(move)
    if level != "easy" and variant != "casino":
        assert move.taken  # a table full of cards: a smart player takes some


@pytest.mark.parametrize("name", WORST)
def test_busy_tables_get_a_short_list_of_legal_moves(name):
    variant, low = WORST[name]
    round_ = low_table(variant, 2, low=low)
    moves = building_moves(round_)
    assert 0 < len(moves) <= MAX_CHECKS
    assert all(round_.is_legal(m) for m in moves)
    assert all(
        len(m.taken) <= MAX_TAKEN + sum(isinstance(i, Build) for i in m.taken) for m in moves
    )
    assert any(m.is_trail for m in moves)
    assert any(m.taken for m in moves) == (variant != "casino")


def test_a_hint_on_a_busy_table_is_bounded():
    round_ = low_table("swazi", 2, low=7)
    with at_most_calls(CALLS["hard"] + 50_000):
        move, why = hint(round_, round_.to_move, seed=1, budget_ms=TINY)
    assert round_.is_legal(move) and why.startswith("take")
