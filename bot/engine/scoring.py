"""Scoring a round: the items of RULES.md per side."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .cards import LILLAN, STORAN, SUITS, Card
from .rules import Rules

LIVE_ITEMS = ("aces", "storan", "lillan", "tabbe", "mulle", "reward")
END_ITEMS = ("spades", "cards", "sistan", "most_spades")
NEGATIVE_ITEMS = frozenset(("reward",))  # items that score below zero (Krypkasino's reward)


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


def is_mulle(rules: Rules, played: Card, taken: Sequence[object]) -> bool:
    """A mulle: in Mulle the capture of exactly one table card identical to ``played``; in
    Glimne's Mulle a capture holding the played card's identical twin (in a build or not)."""
    if rules.mulle_twin:
        return any(item == played or played in getattr(item, "cards", ()) for item in taken)
    return bool(rules.mulle_points) and len(taken) == 1 and taken[0] == played


# Cards are one object each, so set look-ups count them without comparing cards (a list's
# count compares each card through Python's slow path for classes that define ordering).
_ACES = frozenset(Card(1, suit) for suit in SUITS)
_SPADES = frozenset(Card(rank, "S") for rank in range(1, 14))
_STORAN = frozenset((STORAN,))
_LILLAN = frozenset((LILLAN,))


def _count_in(cards: frozenset[Card], pile: Iterable[Card]) -> int:
    """How many cards of ``pile`` are among ``cards``."""
    return sum(map(cards.__contains__, pile))


def card_points(card: Card) -> int:
    """What a captured card scores by itself in the Nordic games: ace 1, storan 2, lillan 1."""
    if card.rank == 1:
        return 1
    return 2 if card == STORAN else int(card == LILLAN)


def live_items(
    rules: Rules,
    piles: Sequence[Sequence[Card]],
    sweeps: Sequence[int],
    mulles: Sequence[int],
    rewards: Sequence[int] | None = None,
) -> list[dict[str, int]]:
    """Per side, the items that count the moment they are taken.

    ``mulles`` are mulle points per side; ``rewards`` how many tabbar the side's players
    were rewarded for (Krypkasino: the seat before a tabbe's capturer), each taking off
    ``reward_points``. In the building games with ``live`` on, an end item also counts
    here once no other side can beat it (7.1's "spades at 7, cards at 27"; each spade of
    Glimne's Mulle as it is taken).
    """
    low = min(sweeps) if rules.sweep_limits else 0
    rewards = rewards or [0] * len(piles)
    items = [
        {
            "aces": rules.ace_points * _count_in(_ACES, pile),
            "storan": rules.storan_points * _count_in(_STORAN, pile),
            "lillan": rules.lillan_points * _count_in(_LILLAN, pile),
            "tabbe": rules.tabbe_points * (swept - low) if rules.sweeps else 0,
            "mulle": made,
            "reward": -rules.reward_points * rewarded,
        }
        for pile, swept, made, rewarded in zip(piles, sweeps, mulles, rewards, strict=True)
    ]
    if rules.builds and rules.live:
        for side, earned in enumerate(_settled_end_items(rules, piles)):
            items[side].update(earned)
    return items


def _settled_end_items(rules: Rules, piles: Sequence[Sequence[Card]]) -> list[dict[str, int]]:
    """Per side, the end items already certain (building games counting as they go)."""
    spades = [sum(c.suit == "S" for c in pile) for pile in piles]
    cards = [len(pile) for pile in piles]
    all_spades = 13 * rules.decks if rules.pictures else 10 * rules.decks
    out: list[dict[str, int]] = [{"spades": 0, "cards": 0} for _ in piles]
    for side in range(len(piles)):
        if rules.spades == "each-other":
            out[side]["spades"] = _other_spades(piles[side]) * rules.spades_points
        elif rules.spades == "over-five":
            out[side]["spades"] = rules.spades_points * (spades[side] > 5)
        elif 2 * spades[side] > all_spades:
            out[side]["spades"] = rules.spades_points
        if 2 * cards[side] > rules.cards_in_deck:
            out[side]["cards"] = rules.cards_points
    return out


def _other_spades(pile: Sequence[Card]) -> int:
    """Glimne's Mulle: spades that score nothing else (not the 2♠, not an ace)."""
    return sum(c.suit == "S" and c.rank != 1 and c != LILLAN for c in pile)


def _spades_but_lillan(pile: Sequence[Card]) -> int:
    """Krypkasino: every spade but the 2♠ (which scores as lillan); the A♠ too."""
    return _count_in(_SPADES, pile) - _count_in(_LILLAN, pile)


def end_items(
    rules: Rules, piles: Sequence[Sequence[Card]], sistan: int | None
) -> list[dict[str, int]]:
    """Per side, the items added at the end of the round, in RULES.md order."""
    spades = [_count_in(_SPADES, pile) for pile in piles]
    cards = [len(pile) for pile in piles]
    if rules.spades == "each-other":
        spade_points = [rules.spades_points * _other_spades(pile) for pile in piles]
    elif rules.spades == "each-but-lillan":
        spade_points = [rules.spades_points * _spades_but_lillan(pile) for pile in piles]
    else:
        spade_points = _spade_points(rules, spades)
    card_points = _most(cards, rules.cards_points, rules.split_ties)
    most_spades = _most(spades, rules.most_spades_points)
    return [
        {
            "spades": spade_points[side],
            "cards": card_points[side],
            "sistan": rules.sistan_points if side == sistan else 0,
            "most_spades": most_spades[side],
        }
        for side in range(len(piles))
    ]


def _most(counts: Sequence[int], points: int, split: bool = False) -> list[int]:
    """``points`` to the one side with the highest count; on a tie nobody, or with
    ``split`` (Swazi, South African) 1 point to each tied side."""
    best = max(counts)
    winners = [i for i, c in enumerate(counts) if c == best]
    if len(winners) > 1 and split and points:
        return [int(i in winners) for i in range(len(counts))]
    return [points if winners == [i] else 0 for i in range(len(counts))]


def _spade_points(rules: Rules, spades: Sequence[int]) -> list[int]:
    if rules.spades == "over-six":
        return [max(0, n - 6) * rules.spades_points for n in spades]
    if rules.spades == "over-five":
        return [rules.spades_points * (n > 5) for n in spades]
    if rules.spades == "most-split" and len(spades) >= 3:
        best = max(spades)
        tied = [i for i, n in enumerate(spades) if n == best]
        if len(tied) == 2:
            return [rules.spades_points // 2 if i in tied else 0 for i in range(len(spades))]
    return _most(spades, rules.spades_points, rules.split_ties)


def drop_zeros(items: dict[str, int]) -> dict[str, int]:
    """The items worth something."""
    return {k: v for k, v in items.items() if v}
