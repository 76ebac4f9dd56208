"""Moves and the error raised for an illegal one."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import Card, card_order

_ORDER = card_order()


class IllegalMove(ValueError):
    """A move the rules do not allow; the message is meant for the player."""


@dataclass(frozen=True, slots=True)
class Move:
    """Play ``card`` from hand and take the table cards ``taken`` (empty: a trail).

    ``Move(card)`` trails. ``taken`` is kept sorted, so moves taking the same cards are equal.
    """

    card: Card
    taken: tuple[Card, ...] = ()

    def __init__(self, card: Card, taken: Iterable[Card] = ()) -> None:
        object.__setattr__(self, "card", card)
        taken = tuple(taken)
        object.__setattr__(
            self, "taken", tuple(sorted(taken, key=_ORDER)) if len(taken) > 1 else taken
        )

    @classmethod
    def trail(cls, card: Card) -> Move:
        """The move trailing ``card`` (one shared object per card)."""
        move = _TRAILS.get(card)
        if move is None:
            move = _TRAILS[card] = cls(card)
        return move

    @classmethod
    def _ordered(cls, card: Card, taken: tuple[Card, ...]) -> Move:
        """A capture whose ``taken`` is already in card order (the engine's fast path)."""
        move = object.__new__(cls)
        object.__setattr__(move, "card", card)
        object.__setattr__(move, "taken", taken)
        return move

    @property
    def is_trail(self) -> bool:
        """Whether the move takes nothing."""
        return not self.taken

    def __str__(self) -> str:
        if self.is_trail:
            return f"{self.card} trails"
        return f"{self.card} takes {' '.join(map(str, self.taken))}"

    def to_dict(self) -> dict[str, object]:
        """A plain form: ``{"card": "AS", "taken": ["4C", "9D"]}``."""
        return {"card": str(self.card), "taken": [str(c) for c in self.taken]}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Move:
        """The inverse of :meth:`to_dict`; ``ValueError`` for anything else."""
        if not isinstance(data, dict) or "card" not in data:
            raise ValueError("a saved move is a mapping with a card")
        taken = data.get("taken", [])
        if not isinstance(taken, list):
            raise ValueError("a move's taken cards are a list")
        return cls(Card.parse(data["card"]), [Card.parse(c) for c in taken])


_TRAILS: dict[Card, Move] = {}
