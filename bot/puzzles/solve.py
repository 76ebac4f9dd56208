"""The exact value of every move in a two-player position with nothing left to deal.

Once the deck is empty and two players are left, each one's unseen cards are exactly the
other's hand: the rest of the round is a game of perfect information. :func:`solve`
plays it out on the rules engine itself (:class:`~bot.engine.Round`, every variant,
builds and Krypkasino's forced capture included) by plain minimax over every legal move,
remembering the value of each position reached (many orders of play reach the same one).
Nothing is sampled or estimated, so the values are proofs: the best move's value is what
the mover is sure of against any defence, and no other move can get more against the
best defence.

A position's value is the round's points for the mover's side minus the other side's
(:func:`margin`); in Krypkasino, whose points are penalties, the other side's penalty
points minus the mover's, so higher is better in every variant. Match scores before the
round do not enter: a puzzle is judged in points of the round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import Card, Move, Round
from bot.engine.builds import item_key

NODE_LIMIT = 12_000  # positions one solve may visit; a bigger one is not a puzzle
CARDS_LIMIT = 8  # the most cards left in both hands that a puzzle is solved with


class TooBig(Exception):
    """The position needs more than the node limit (or holds more than the card limit)."""


@dataclass(frozen=True, slots=True)
class Valued:
    """One legal move and its exact value for the mover (points of the round)."""

    move: Move
    value: int


def solvable(round_: Round) -> bool:
    """Whether ``round_`` is a position :func:`solve` takes: two players without teams,
    nothing left to deal, the round still on, and few cards left in hands."""
    return (
        round_.players == 2
        and not round_.rules.teams
        and not round_.deck
        and not round_.is_over
        and sum(map(len, round_.hands)) <= CARDS_LIMIT
    )


def margin(round_: Round, side: int) -> int:
    """The finished round's points for ``side`` minus the other side's (penalty points
    the other way round in a game whose lowest total wins)."""
    totals = [score.total for score in round_.score()]
    mine, theirs = totals[side], sum(totals) - totals[side]
    return theirs - mine if round_.rules.lowest_wins else mine - theirs


def solve(round_: Round, limit: int = NODE_LIMIT) -> list[Valued]:
    """Every legal move of the seat to move in ``round_`` with its exact value, best
    first (ties in the engine's order); :class:`TooBig` when the position is not
    :func:`solvable` or needs more than ``limit`` new positions."""
    return Solver(limit).solve(round_)


class Solver:
    """Minimax with a table of solved positions. Values are kept from side 0's point of
    view (two sides, so side 1's value is the negative), which lets one solver serve
    every position of a game: the later positions of a deal are then mostly known."""

    def __init__(self, limit: int = NODE_LIMIT) -> None:
        self.limit = limit
        self.nodes = 0
        self.memo: dict[tuple, int] = {}

    def solve(self, round_: Round) -> list[Valued]:
        """:func:`solve` with this solver's table (``limit`` counts from this call)."""
        if not solvable(round_):
            raise TooBig
        self.nodes = 0
        sign = 1 if round_.side_of(round_.to_move) == 0 else -1
        valued = [Valued(move, sign * self.after(round_, move)) for move in round_.legal_moves()]
        valued.sort(key=lambda v: -v.value)
        return valued

    def after(self, round_: Round, move: Move) -> int:
        """Side 0's value of ``round_`` once ``move`` is played (on a copy)."""
        nxt = round_.copy()
        nxt.play(move)
        return self.value(nxt)

    def value(self, round_: Round) -> int:
        """Side 0's exact value of ``round_`` with best play by both sides."""
        if round_.is_over:
            return margin(round_, 0)
        key = _key(round_)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.limit:
            raise TooBig
        values = [self.after(round_, move) for move in round_.legal_moves()]
        best = max(values) if round_.side_of(round_.to_move) == 0 else min(values)
        self.memo[key] = best
        return best


def _key(round_: Round) -> tuple:
    """Everything the rest of a last-deal round depends on: hands, table (builds with
    their owners: a build is an item, hashed with its owner), captured piles (their
    cards score at the end), sweeps and the like, and who captured last."""
    return (
        round_.to_move,
        None if round_.last_capturer is None else round_.side_of(round_.last_capturer),
        tuple(_cards(hand) for hand in round_.hands),
        tuple(sorted(round_.table, key=item_key)),
        _piles(round_),
        tuple(round_.sweeps),
        tuple(round_.void_sweeps),
        tuple(round_.mulle_points),
        tuple(round_.rewards),
    )


def _piles(round_: Round) -> tuple:
    """The captured cards per side; in South African Casino each seat's pile in order
    (the top card of an opponent's pile may be captured)."""
    if round_.rules.builds == "south-african":
        return tuple(tuple(card._key for card in pile) for pile in round_.piles)
    return tuple(_cards(pile) for pile in round_.side_piles())


def _cards(cards: Sequence[Card]) -> tuple[int, ...]:
    return tuple(sorted(card._key for card in cards))


def best_of(valued: Sequence[Valued]) -> tuple[int, int | None]:
    """The best value and the best value among the moves that do not reach it (None
    when every move reaches it)."""
    best = valued[0].value
    rest = [v.value for v in valued if v.value < best]
    return best, (max(rest) if rest else None)


def line_end(solver: Solver, round_: Round, move: Move) -> list[dict[str, int]]:
    """Each side's score items when the round ends after ``move`` and best play by both
    (the first best move in the engine's order at each turn; what the explanation of a
    judged answer shows). Uses ``solver``'s table, so after :meth:`Solver.solve` of the
    position it costs little."""
    rnd = round_.copy()
    rnd.play(move)
    while not rnd.is_over:
        mine = rnd.side_of(rnd.to_move) == 0
        best_move, best = None, 0
        for option in rnd.legal_moves():
            value = solver.after(rnd, option)
            if best_move is None or (value > best if mine else value < best):
                best_move, best = option, value
        assert best_move is not None  # a round not over has a move
        rnd.play(best_move)
    return [dict(score.items) for score in rnd.score()]
