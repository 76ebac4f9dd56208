"""Candidate puzzles from a finished game's record.

Replaying the record (:meth:`bot.records.record.GameRecord.replay`), every position
before a move is a candidate when :func:`bot.puzzles.solve.solvable` takes it (two
players, nothing left to deal, at most eight cards in hands: everything is known) and:

- the mover holds at least two cards and has at least two legal moves (a choice);
- :func:`~bot.puzzles.solve.solve` finishes within its node limit;
- one move is best and every other move is at least :data:`~bot.puzzles.model.MARGIN`
  points of the round worse against the best defence.

Only finished games have records (``load_record`` refuses a game in play), so no
candidate can show a running game.
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.engine import Match, Round
from bot.records.record import GameRecord

from .families import family_of
from .model import MARGIN, Puzzle, position_of
from .solve import Solver, TooBig, line_end, solvable


def puzzle_at(
    round_: Round, source: dict[str, object], solver: Solver | None = None
) -> Puzzle | None:
    """The puzzle of the position ``round_`` (None when it is not one); ``solver``
    shares its table of solved positions with the other positions of a game."""
    if not solvable(round_) or len(round_.hands[round_.to_move]) < 2:
        return None
    moves = round_.legal_moves()
    if len(moves) < 2:
        return None
    solver = solver or Solver()
    try:
        valued = solver.solve(round_)
        if valued[0].value - valued[1].value < MARGIN:
            return None
        endings = tuple(tuple(line_end(solver, round_, v.move)) for v in valued)
    except TooBig:
        return None
    return Puzzle(
        round_.rules.name,
        family_of(round_.rules.name),
        position_of(round_),
        tuple((v.move.to_dict(), v.value) for v in valued),
        source,
        endings,
    )


def positions(record: GameRecord) -> Iterator[tuple[int, Round]]:
    """``(step, round)`` for each position of the record that :func:`solvable` takes
    (the round as it stood before move ``step + 1``)."""
    if record.players != 2:
        return
    found: list[tuple[int, Round]] = []

    def keep(number: int, match: Match, play: object, words: str) -> None:
        if not match.is_over and solvable(match.round):
            found.append((number, match.round.copy()))

    record.replay(keep)
    yield from found


def candidates(record: GameRecord) -> list[Puzzle]:
    """Every puzzle in ``record``, in the order played. The positions are solved last
    first: the solver's table then already holds most of what an earlier position of
    the same deal reaches."""
    found = []
    solver = Solver()
    for step, round_ in reversed(list(positions(record))):
        puzzle = puzzle_at(round_, {"game": record.game_id, "step": step}, solver)
        if puzzle is not None:
            found.append(puzzle)
    found.reverse()
    return found


def best_candidate(record: GameRecord) -> Puzzle | None:
    """The record's best puzzle: the most cards left in hands (the richest position),
    then the most moves to choose from, then the widest margin, then the earliest (None
    when the game has none)."""
    found = candidates(record)
    if not found:
        return None
    return max(
        found,
        key=lambda p: (
            sum(map(len, p.position["hands"])),
            len(p.values),
            p.margin,
            -int(p.source["step"]),
        ),
    )
