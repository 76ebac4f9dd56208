"""The chance of winning the match from a score, for valuing a round by what it does to it.

A round won 6 to 5 is worth little when the opponent needs 4 to reach the target and
everything when we need 1. So ``hard`` values a finished round (and, spread out, a round
still in play) by the chance that its side wins the match from the scores it leaves.

Future rounds are modelled simply: the round's fixed points (aces, storan, lillan, the
majorities) are shared with a spread, and each side adds a few sweeps. Only the shape
matters (who needs how much), not the exact figures. Two sides only: with three or four
single players a round is valued by its points, as before.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from bot.engine import Rules

from .values import total_spades

SHARE_SPREAD = 2.0  # standard deviation of one side's share of a round's fixed points
SWEEPS_MEAN = 0.8  # sweeps per side per round, when sweeps score
SWEEPS_MAX = 4
SPREAD = 4.0  # standard deviation of a round in play's points still to be decided


def round_base(rules: Rules) -> int:
    """A round's points that are always given out: aces, storan, lillan, the majorities."""
    aces = 4 * rules.decks * rules.ace_points
    casinos = rules.decks * (rules.storan_points + rules.lillan_points)
    spades = rules.spades_points
    if rules.spades == "over-six":
        spades = max(0, total_spades(rules) // 2 - 6) * rules.spades_points
    return aces + casinos + spades + rules.cards_points + rules.sistan_points


@lru_cache(maxsize=64)
def _round_spread(rules: Rules) -> tuple[tuple[int, int, float], ...]:
    """The model's round results: (first side's points, second side's, probability)."""
    base = round_base(rules)
    shares = _normal(base, base / 2, SHARE_SPREAD)
    sweeps = _poisson(SWEEPS_MEAN if rules.sweeps else 0.0, SWEEPS_MAX)
    out: dict[tuple[int, int], float] = {}
    for share, p in enumerate(shares):
        for x, px in enumerate(sweeps):
            for y, py in enumerate(sweeps):
                key = (share + x, base - share + y)
                out[key] = out.get(key, 0.0) + p * px * py
    kept = {key: p for key, p in out.items() if p > 1e-6}
    total = sum(kept.values())
    return tuple((a, b, p / total) for (a, b), p in kept.items())


def _normal(top: int, mean: float, sd: float) -> list[float]:
    weights = [math.exp(-((x - mean) ** 2) / (2 * sd * sd)) for x in range(top + 1)]
    total = sum(weights)
    return [w / total for w in weights]


def _poisson(mean: float, top: int) -> list[float]:
    if mean == 0:
        return [1.0]
    weights = [math.exp(-mean) * mean**k / math.factorial(k) for k in range(top + 1)]
    total = sum(weights)
    return [w / total for w in weights]


def settled(rules: Rules, banked: Sequence[int], spades: Sequence[int] | None) -> float | None:
    """1 or 0 if ``banked`` (two sides' totals after a round) decides the match for the
    first side, 0.5 for a tie the rules cannot break, None if play goes on."""
    a, b = banked
    if max(a, b) < rules.target:
        return None
    if a != b:
        return 1.0 if a > b else 0.0
    if rules.tiebreak == "spades" and spades is not None and spades[0] != spades[1]:
        return 1.0 if spades[0] > spades[1] else 0.0
    return None if rules.tiebreak == "extra-round" else 0.5


@lru_cache(maxsize=8192)
def match_chance(rules: Rules, a: int, b: int) -> float:
    """The first side's chance of winning the match when rounds start from ``a`` to ``b``."""
    if max(a, b) >= rules.target:  # a tie at the top plays on: even odds
        return 0.5 if a == b else float(a > b)
    total = 0.0
    for x, y, p in _round_spread(rules):
        after = settled(rules, (a + x, b + y), None)
        if after is None:
            after = 0.5 if x + y == 0 else match_chance(rules, a + x, b + y)
        total += p * after
    return total


def chance_after(
    rules: Rules,
    scores: Sequence[int],
    points: Sequence[float],
    spades: Sequence[int] | None = None,
    spread: float = 0.0,
) -> float:
    """The first side's chance of winning the match after a round that gives ``points``
    (exactly, or as a mean with a normal ``spread`` of the first side's lead)."""
    if spread <= 0:
        banked = (scores[0] + round(points[0]), scores[1] + round(points[1]))
        done = settled(rules, banked, spades)
        return match_chance(rules, *banked) if done is None else done
    total = weight = 0.0
    for step in (-2.5, -1.5, -0.75, 0.0, 0.75, 1.5, 2.5):  # enough points for a ranking
        w = math.exp(-step * step / 2)
        lead = points[0] - points[1] + step * spread
        mean = (points[0] + points[1]) / 2
        total += w * chance_after(rules, scores, (mean + lead / 2, mean - lead / 2), spades)
        weight += w
    return total / weight


@lru_cache(maxsize=64)
def scale(rules: Rules) -> float:
    """Points per unit of match chance at the start of a match (a lead of one point there
    is worth about one): the search's values stay in points."""
    slope = match_chance(rules, 1, 0) - match_chance(rules, 0, 0)
    return 1.0 / slope if slope > 0 else 1.0
