"""What captured cards are worth: fixed points, and the majorities as expected points.

The majorities (most spades, most cards, spades beyond six) are only scored at the end of
a round, so during play they are worth the *expected* points a side's count gives it,
with the cards not yet captured shared out at random (a normal approximation of each
side's share, widened because cards come in clumps).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from bot.engine import Card, Rules
from bot.engine.cards import LILLAN, STORAN

SPADE_LUMP = 1.4  # variance factor: captures take a spade or two at a time
CARD_LUMP = 2.5  # captures take two or three cards at a time


def total_cards(rules: Rules) -> int:
    """Cards in the deck."""
    return rules.cards_in_deck


def total_spades(rules: Rules) -> int:
    """Spades in the deck."""
    return (13 if rules.pictures else 10) * rules.decks


def card_worth(rules: Rules, card: Card) -> int:
    """What a captured card scores by itself: aces, storan, lillan (and Glimne's spades)."""
    if card.rank == 1:
        return rules.ace_points
    if card is STORAN:
        return rules.storan_points
    if card is LILLAN:
        return rules.lillan_points
    if rules.spades == "each-other" and card.suit == "S":
        return rules.spades_points  # Glimne's Mulle: every other spade scores as it is
    return 0


@lru_cache(maxsize=4096)
def _shares(remaining: int, sides: int, lump: float) -> tuple[float, ...]:
    """Probabilities that one side gets 0..remaining of the cards still to be captured."""
    if remaining == 0:
        return (1.0,)
    p = 1.0 / sides
    mean = remaining * p
    var = max(0.25, remaining * p * (1 - p) * lump)
    weights = [math.exp(-((x - mean) ** 2) / (2 * var)) for x in range(remaining + 1)]
    total = sum(weights)
    return tuple(w / total for w in weights)


@lru_cache(maxsize=65536)
def majority(
    counts: tuple[int, ...], remaining: int, mode: str, points: int, lump: float
) -> tuple[float, ...]:
    """Expected points per side for one majority item.

    ``mode`` is ``"most"`` (``points`` to the single highest count, nobody on a tie),
    ``"most-split"`` (treated as ``"most"``), ``"over-six"`` (``points`` per card
    beyond six), ``"over-five"`` (``points`` for six or more) or ``"each-other"`` (none
    here: those spades are worth their points as cards, see :func:`card_worth`).
    """
    sides = len(counts)
    if points == 0 or mode == "each-other":
        return (0.0,) * sides
    shares = _shares(remaining, sides, lump)
    if mode == "over-six":
        return tuple(
            points * sum(p * max(0, c + x - 6) for x, p in enumerate(shares)) for c in counts
        )
    if mode == "over-five":
        return tuple(points * sum(p for x, p in enumerate(shares) if c + x > 5) for c in counts)
    if sides == 2:
        return _two_sides(counts, remaining, shares, points)
    return _many_sides(counts, shares, points)


def _two_sides(
    counts: tuple[int, ...], remaining: int, shares: tuple[float, ...], points: int
) -> tuple[float, float]:
    mine, theirs = counts
    win = lose = 0.0
    for x, p in enumerate(shares):
        a, b = mine + x, theirs + remaining - x
        if a > b:
            win += p
        elif b > a:
            lose += p
    return points * win, points * lose


def _many_sides(
    counts: tuple[int, ...], shares: tuple[float, ...], points: int
) -> tuple[float, ...]:
    """Sides independent (an approximation): P(side has the single highest count)."""
    top = max(counts) + len(shares)
    cumulative = []  # per side, P(final count < v) for v in 0..top
    for c in counts:
        acc, cum = 0.0, []
        for v in range(top + 1):
            cum.append(acc)
            if 0 <= v - c < len(shares):
                acc += shares[v - c]
        cumulative.append(cum)
    result = []
    for i, c in enumerate(counts):
        win = 0.0
        for x, p in enumerate(shares):
            others = 1.0
            for j, cum in enumerate(cumulative):
                if j != i:
                    others *= cum[c + x]
            win += p * others
        result.append(points * win)
    return tuple(result)


def mulle_worth(rules: Rules, card: Card) -> int:
    """A mulle's points: Mulle's fixed points, Glimne's the played card's value."""
    if rules.mulle_twin:
        return rules.hand_values[card][0]
    return rules.mulle_points


def majority_points(rules: Rules, spades: Sequence[int], cards: Sequence[int]) -> list[float]:
    """Expected points per side from the spades and cards majorities, given counts so far."""
    spade_ev = majority(
        tuple(spades),
        total_spades(rules) - sum(spades),
        rules.spades,
        rules.spades_points,
        SPADE_LUMP,
    )
    card_ev = majority(
        tuple(cards), total_cards(rules) - sum(cards), "most", rules.cards_points, CARD_LUMP
    )
    return [s + c for s, c in zip(spade_ev, card_ev, strict=True)]


def objective(values: Sequence[float], side: int) -> float:
    """A side's points minus the mean of the other sides' points."""
    others = [v for i, v in enumerate(values) if i != side]
    return values[side] - sum(others) / len(others)


class Marginals:
    """Linear card values per side at one moment: points plus what a spade / a card adds.

    Used where exactness does not pay: guessing what an opponent's capture is worth, and
    the quick policies inside the search.
    """

    def __init__(self, rules: Rules, spades: Sequence[int], cards: Sequence[int]) -> None:
        self.rules = rules
        base = majority_points(rules, spades, cards)
        sides = len(spades)
        self.spade: list[float] = []
        self.card: list[float] = []
        for side in range(sides):
            more_spades = list(spades)
            more_spades[side] += 2
            more_cards = list(cards)
            more_cards[side] += 3
            spade_gain = majority_points(rules, more_spades, cards)
            card_gain = majority_points(rules, spades, more_cards)
            self.spade.append(_diff(spade_gain, base, side) / 2)
            self.card.append(_diff(card_gain, base, side) / 3)

        self._known: list[dict[Card, float]] = [{} for _ in range(sides)]

    def value(self, side: int, card: Card) -> float:
        """What capturing ``card`` is worth to ``side`` (in objective points)."""
        known = self._known[side]
        worth = known.get(card)
        if worth is None:
            worth = self.card[side] + card_worth(self.rules, card)
            if card.suit == "S":
                worth += self.spade[side]
            known[card] = worth
        return worth


def _diff(after: Sequence[float], before: Sequence[float], side: int) -> float:
    return objective(after, side) - objective(before, side)
