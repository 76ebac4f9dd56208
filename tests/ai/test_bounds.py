"""Computer players and hints do bounded work on the worst tables play can reach (issue 7).

Work is counted in Python calls, not timed: the machines are shared. Before the bounds,
the hint's explanation listed all 1.19 million captures of 28 low cards, and every level
searched for minutes when the round's last card was an ace against 51 trailed cards.
"""

import pytest

from bot.ai import LEVELS, choose_move, hint, odds
from bot.ai.explain import explain_move
from bot.engine import Move, capture_options
from bot.engine import captures as engine_captures
from bot.engine.captures import clear_caches

from ..engine.worst import at_most_calls, worst_positions

WORST = worst_positions()
CALLS = {"easy": 50_000, "normal": 400_000, "hard": 400_000}  # today: under 20k, 130k, 120k
EXPLAIN_CALLS = 50_000  # today: under 17 000
TINY = 5  # ms of counted work for hard: a real search, with the least rollouts


@pytest.fixture(autouse=True)
def no_full_listing_of_big_tables(monkeypatch):
    """Listing every capture (``TableIndex``) is only ever done on tables of 12 or less."""
    original = engine_captures.TableIndex.__init__

    def guarded(self, rules, table):
        assert len(table) <= 12, f"every capture listed on a table of {len(table)} cards"
        original(self, rules, table)

    monkeypatch.setattr(engine_captures.TableIndex, "__init__", guarded)


def warm_match_odds(round_) -> None:
    """Make the match-chance table of these rules before counting: ``hard`` builds it once
    a process for each set of rules (bot.ai.odds, memoised), not once a move, so whether it
    was already made (by an earlier test) must not decide whether a move's work is bounded."""
    odds.scale(round_.rules)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", WORST)
def test_every_level_is_bounded_on_the_worst_tables(name, level):
    round_ = WORST[name]
    clear_caches()
    warm_match_odds(round_)
    with at_most_calls(CALLS[level]):
        move = choose_move(round_, round_.to_move, level, seed=1, budget_ms=TINY)
    assert round_.is_legal(move)


@pytest.mark.parametrize("name", WORST)
def test_hints_are_bounded_on_the_worst_tables(name):
    round_ = WORST[name]
    clear_caches()
    warm_match_odds(round_)
    with at_most_calls(CALLS["hard"] + EXPLAIN_CALLS):
        move, why = hint(round_, round_.to_move, seed=1, budget_ms=TINY)
    assert round_.is_legal(move)
    assert why


@pytest.mark.parametrize("name", WORST)
def test_explanations_are_bounded_for_every_move_on_the_worst_tables(name):
    round_ = WORST[name]
    seat = round_.to_move
    moves = []
    for card in dict.fromkeys(round_.hands[seat]):
        moves.append(Move(card))
        found = capture_options(round_.rules, card, round_.table, limit=24)
        moves.extend(Move(card, taken) for taken in (found[0], found[-1]))
    for move in moves:
        clear_caches()
        with at_most_calls(EXPLAIN_CALLS):
            why = explain_move(round_, seat, move)
        assert why.startswith("take" if move.taken else "trail")
