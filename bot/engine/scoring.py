"""Scoring a round: the items of RULES.md per side."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import LILLAN, STORAN, Card
from .rules import Rules

LIVE_ITEMS = ("aces", "storan", "lillan", "tabbe", "mulle")
END_ITEMS = ("spades", "cards", "sistan")


@dataclass(frozen=True)
class Score:
    """One side's points for a round: ``items`` maps item keys to points (zeros left out)."""

    items: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        """All the side's points for the round."""
        return sum(self.items.values())

    def __getitem__(self, key: str) -> int:
        return self.items.get(key, 0)


def is_mulle(rules: Rules, played: Card, taken: Sequence[Card]) -> bool:
    """A mulle (Mulle only): the capture of exactly one table card identical to ``played``."""
    return bool(rules.mulle_points) and len(taken) == 1 and taken[0] == played


def card_points(card: Card) -> int:
    """What a captured card scores by itself in the Nordic games: ace 1, storan 2, lillan 1."""
    if card.rank == 1:
        return 1
    return 2 if card == STORAN else int(card == LILLAN)


def live_items(
    rules: Rules, piles: Sequence[Sequence[Card]], sweeps: Sequence[int], mulles: Sequence[int]
) -> list[dict[str, int]]:
    """Per side, the items that count the moment they are taken."""
    low = min(sweeps) if rules.sweep_limits else 0
    return [
        {
            "aces": sum(c.rank == 1 for c in pile),
            "storan": 2 * pile.count(STORAN),
            "lillan": pile.count(LILLAN),
            "tabbe": swept - low,
            "mulle": rules.mulle_points * made,
        }
        for pile, swept, made in zip(piles, sweeps, mulles, strict=True)
    ]


def end_items(
    rules: Rules, piles: Sequence[Sequence[Card]], sistan: int | None
) -> list[dict[str, int]]:
    """Per side, the items added at the end of the round, in RULES.md order."""
    spades = [sum(c.suit == "S" for c in pile) for pile in piles]
    cards = [len(pile) for pile in piles]
    spade_points = _spade_points(rules, spades)
    card_points = _most(cards, rules.cards_points)
    return [
        {
            "spades": spade_points[side],
            "cards": card_points[side],
            "sistan": rules.sistan_points if side == sistan else 0,
        }
        for side in range(len(piles))
    ]


def _most(counts: Sequence[int], points: int) -> list[int]:
    """``points`` to the one side with the highest count; nobody on a tie."""
    best = max(counts)
    winners = [i for i, c in enumerate(counts) if c == best]
    return [points if winners == [i] else 0 for i in range(len(counts))]


def _spade_points(rules: Rules, spades: Sequence[int]) -> list[int]:
    if rules.spades == "over-six":
        return [max(0, n - 6) * rules.spades_points for n in spades]
    if rules.spades == "most-split" and len(spades) >= 3:
        best = max(spades)
        tied = [i for i, n in enumerate(spades) if n == best]
        if len(tied) == 2:
            return [rules.spades_points // 2 if i in tied else 0 for i in range(len(spades))]
    return _most(spades, rules.spades_points)


def drop_zeros(items: dict[str, int]) -> dict[str, int]:
    """The items worth something."""
    return {k: v for k, v in items.items() if v}
