"""The chance of winning the match, by which ``hard`` values a round (issue 11)."""

from __future__ import annotations

import pytest

from bot.ai import odds
from bot.engine import rules_for

SWEDISH = rules_for("swedish", target=16)


def test_even_scores_are_even_odds_and_the_chances_are_complementary():
    assert odds.match_chance(SWEDISH, 0, 0) == pytest.approx(0.5)
    for a, b in [(3, 0), (10, 14), (15, 2), (7, 7)]:
        assert odds.match_chance(SWEDISH, a, b) + odds.match_chance(SWEDISH, b, a) == (
            pytest.approx(1.0)
        )


def test_more_points_never_hurt():
    for b in range(0, 16, 3):
        chances = [odds.match_chance(SWEDISH, a, b) for a in range(16)]
        assert chances == sorted(chances)


def test_a_round_that_reaches_the_target_decides_the_match():
    assert odds.chance_after(SWEDISH, (10, 12), (7, 3)) == 1.0  # 17 to 15
    assert odds.chance_after(SWEDISH, (10, 12), (3, 7)) == 0.0
    # A tie at the top goes to most spades in Swedish...
    assert odds.chance_after(SWEDISH, (10, 12), (7, 5), spades=(8, 5)) == 1.0
    assert odds.chance_after(SWEDISH, (10, 12), (7, 5), spades=(5, 8)) == 0.0
    # ...and to another round in Finnish.
    finnish = rules_for("finnish", target=16)
    assert odds.chance_after(finnish, (10, 12), (7, 5), spades=(8, 5)) == pytest.approx(0.5)


def test_the_same_lead_matters_more_near_the_target():
    """A round won 6 to 5 is worth more to a side that needs 6 than at the start."""
    start = odds.chance_after(SWEDISH, (0, 0), (6, 5)) - 0.5
    close = odds.chance_after(SWEDISH, (10, 10), (6, 5)) - 0.5
    assert close > 2 * start > 0


def test_a_spread_round_lies_between_its_outcomes():
    exact = odds.chance_after(SWEDISH, (12, 9), (4, 5))
    spread = odds.chance_after(SWEDISH, (12, 9), (4, 5), spread=4)
    assert 0 < spread < 1
    assert abs(spread - exact) < 0.3


def test_the_scale_makes_a_point_at_the_start_worth_about_one():
    step = odds.match_chance(SWEDISH, 1, 0) - odds.match_chance(SWEDISH, 0, 0)
    assert odds.scale(SWEDISH) * step == pytest.approx(1.0)
    for name in ("swedish", "overspader", "finnish", "mulle"):
        assert 0.5 < odds.scale(rules_for(name)) < 200
