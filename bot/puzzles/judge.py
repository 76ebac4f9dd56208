"""Judging an answer: the played move's exact value against the best, and how the round
ends after each with best play by both (what the explanation says).

The first answer a person gives to the day's puzzle is the one counted (solved or not);
later tries are judged and explained the same way but change nothing (docs/players.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Move, Round, Score

from .model import Puzzle
from .solve import Solver


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
    round ends after it, ``best`` after the answer, ``other`` after the next best move
    (compared with the answer when the answer was right)."""

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


def ending(puzzle: Puzzle, move: Move, solver: Solver | None = None) -> Ending:
    """How the round ends after ``move`` with best play by both (ValueError: not a legal
    move of the puzzle)."""
    value = puzzle.value_of(move)
    if value is None:
        raise ValueError(f"{move} is not a legal move of the puzzle")
    solver = solver or Solver()
    rnd = puzzle.round
    rnd.play(move)
    while not rnd.is_over:
        rnd.play(_best_reply(rnd, solver))
    return Ending(move, value, tuple(rnd.score()))


def _best_reply(rnd: Round, solver: Solver) -> Move:
    """A best move of the seat to move (the first in the engine's order)."""
    mine = rnd.side_of(rnd.to_move) == 0
    best_move, best = None, None
    for move in rnd.legal_moves():
        value = solver.after(rnd, move)
        if best is None or (value > best if mine else value < best):
            best_move, best = move, value
    assert best_move is not None  # a round not over has a move
    return best_move


def judge(puzzle: Puzzle, move: Move) -> Judgement:
    """Judge ``move`` (a legal move of the puzzle)."""
    solver = Solver()
    played = ending(puzzle, move, solver)
    best = ending(puzzle, puzzle.best, solver)
    right = played.value == best.value
    if right:
        other = ending(puzzle, puzzle.moves()[1].move, solver)
    else:
        other = played
    return Judgement(right, played, best, other)
