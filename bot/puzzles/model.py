"""A puzzle: a position, the seat to move, and the exact value of every legal move.

It is plain data (JSON for the built-in set and the database): the position is the
engine's saved round (:meth:`bot.engine.Round.to_dict`) with the round's earlier plays
and the match scores left out, so nothing but the position itself is kept, and no
player of the game it came from is named.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from bot.engine import Move, Round

from .solve import Valued

MARGIN = 2  # the least lead, in points of the round, of the best move over every other


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position whose best move is provably best by at least :data:`MARGIN` points.

    ``values`` holds every legal move with its exact value for the mover (points of the
    round for the mover's side minus the other's; Krypkasino: the other's penalty
    points minus the mover's), best first; ``values[0]`` is the answer. ``source`` says
    where the position comes from (``{"game": id, "step": n}`` or ``{"set": name}``).
    ``endings`` holds, for each move of ``values``, each side's score items when the
    round ends after it with best play by both (what a judged answer explains).
    """

    variant: str
    family: str
    position: dict[str, Any]
    values: tuple[tuple[dict[str, Any], int], ...]
    source: dict[str, Any]
    endings: tuple[tuple[dict[str, int], ...], ...] = ()

    @property
    def round(self) -> Round:
        """A fresh engine round of the position (play on it freely)."""
        return Round.from_dict(self.position)

    @property
    def seat(self) -> int:
        """The seat to move: the solver's."""
        return int(self.position["to_move"])

    @property
    def best(self) -> Move:
        """The answer."""
        return Move.from_dict(self.values[0][0])

    @property
    def best_value(self) -> int:
        """The answer's value."""
        return self.values[0][1]

    @property
    def second_value(self) -> int:
        """The best value any other move reaches."""
        return self.values[1][1]

    @property
    def margin(self) -> int:
        """How much better the answer is than the next best move."""
        return self.best_value - self.second_value

    def index_of(self, move: Move) -> int | None:
        """Where ``move`` is in :attr:`values` (None: not a legal move of the position)."""
        wanted = move.to_dict()
        for index, (data, _) in enumerate(self.values):
            if data == wanted:
                return index
        return None

    def value_of(self, move: Move) -> int | None:
        """The exact value of ``move`` (None: not a legal move of the position)."""
        index = self.index_of(move)
        return None if index is None else self.values[index][1]

    def moves(self) -> list[Valued]:
        """Every legal move with its value, best first."""
        return [Valued(Move.from_dict(data), value) for data, value in self.values]

    @property
    def key(self) -> str:
        """A short stable id of the position (the same position, the same key)."""
        text = json.dumps(self.position, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "variant": self.variant,
            "family": self.family,
            "position": self.position,
            "values": [[data, value] for data, value in self.values],
            "source": self.source,
            "endings": [list(ending) for ending in self.endings],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        """Read :meth:`to_dict`'s form (ValueError when it is not one)."""
        try:
            values = tuple((dict(move), int(value)) for move, value in data["values"])
            puzzle = cls(
                str(data["variant"]),
                str(data["family"]),
                dict(data["position"]),
                values,
                dict(data.get("source") or {}),
                tuple(
                    tuple({str(k): int(v) for k, v in side.items()} for side in ending)
                    for ending in data.get("endings", ())
                ),
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"not a puzzle ({type(error).__name__})") from None
        if len(values) < 2:
            raise ValueError("a puzzle has at least two moves")
        if len(puzzle.endings) != len(values):
            raise ValueError("a puzzle has one ending per move")
        return puzzle

    def to_json(self) -> str:
        """Compact JSON text."""
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Puzzle:
        """Read :meth:`to_json`'s text."""
        try:
            data = json.loads(text)
        except ValueError as error:
            raise ValueError(f"not JSON: {error}") from None
        if not isinstance(data, dict):
            raise ValueError("not a puzzle")
        return cls.from_dict(data)


def position_of(round_: Round) -> dict[str, Any]:
    """The saved form of a position without its history: the round's earlier plays and
    the match scores are dropped (the round's own points stay in the piles)."""
    data = round_.to_dict()
    data["plays"] = []
    data["scores"] = [0] * len(data["scores"])
    return data
