"""Judging an answer: the played move's exact value against the best, and how the round
ends after each with best play by both (stored with the puzzle: judging is a lookup).

The first answer a person gives to the day's puzzle is the one counted (solved or not);
later tries are judged and explained the same way but change nothing (docs/players.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Move, Score

from .model import Puzzle


@dataclass(frozen=True, slots=True)
class Ending:
    """How the round ends after a move and best play by both: the move, its value, and
    each side's score items (side 0 first)."""

    move: Move
    value: int
    scores: tuple[Score, ...]


@dataclass(frozen=True, slots=True)
class Judgement:
    """An answer judged: ``right`` when it reaches the best value; ``played`` how the
    round ends after it, ``best`` after the answer, ``other`` after the move the answer
    is compared with (the played one, or the next best when the answer was right)."""

    right: bool
    played: Ending
    best: Ending
    other: Ending

    @property
    def loss(self) -> int:
        """Points of the round the played move gives away against the best."""
        return self.best.value - self.played.value

    @property
    def margin(self) -> int:
        """How much the best move gets over the move it is compared with."""
        return self.best.value - self.other.value


def _ending(puzzle: Puzzle, index: int) -> Ending:
    data, value = puzzle.values[index]
    scores = tuple(Score(dict(items)) for items in puzzle.endings[index])
    return Ending(Move.from_dict(data), value, scores)


def judge(puzzle: Puzzle, move: Move) -> Judgement:
    """Judge ``move``; ValueError when it is not a legal move of the puzzle."""
    index = puzzle.index_of(move)
    if index is None:
        raise ValueError(f"{move} is not a legal move of the puzzle")
    played, best = _ending(puzzle, index), _ending(puzzle, 0)
    right = played.value == best.value
    return Judgement(right, played, best, _ending(puzzle, 1) if right else played)
