"""The exact value of every move in a two-player position with nothing left to deal.

Once the deck is empty and two players are left, each one's unseen cards are exactly the
other's hand: the rest of the round is a game of perfect information. :class:`Solver`
plays it out on the rules engine itself (:class:`~bot.engine.Round`, every variant,
builds, pile cards and Krypkasino's forced capture included) by minimax over every legal
move, with alpha-beta cut-offs and a table of the bounds found for each position reached
(many orders of play reach the same one). Nothing is sampled or estimated, so the values
are proofs: the best move's value is what the mover is sure of against any defence, and
no other move can get more against the best defence.

It is the one exact solver of the bot's last deals: the puzzle of the day takes its
positions from it (:func:`solve`: every move's value), and the move analysis
(:mod:`bot.analysis.review`) values a played move against the best one with it
(:meth:`Solver.compare`). Its work is bounded by the positions it may search (``limit``,
counted, never timed, so a result is the same on any machine): a position needing more
raises :class:`TooBig`.

A position's value is the round's points for the mover's side minus the other side's
(:func:`margin`); in Krypkasino, whose points are penalties, the other side's penalty
points minus the mover's, so higher is better in every variant. Match scores before the
round do not enter a puzzle: it is judged in points of the round. The analysis solves with
``match_end``: where points count as they are taken (the ``live`` option) and they decide
the match during the round, the round ends there, as in a match (:func:`live_margin`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import Card, Move, Round
from bot.engine.builds import item_key
from bot.engine.match import live_winner

NODE_LIMIT = 12_000  # positions one solve may visit; a bigger one is not a puzzle
CARDS_LIMIT = 8  # the most cards left in both hands that a puzzle is solved with
INF = float("inf")
# Games whose capture piles' top cards can be played with: a pile's order is then part of
# the position (South African Casino; Swazi and Sotho).
PILE_TOP_GAMES = ("south-african", "swazi")


class TooBig(Exception):
    """The position needs more than the node limit (or holds more than the card limit)."""


@dataclass(frozen=True, slots=True)
class Valued:
    """One legal move and its exact value for the mover (points of the round)."""

    move: Move
    value: int


@dataclass(frozen=True, slots=True)
class Compared:
    """A played move against the best one, exactly (:meth:`Solver.compare`): ``best`` is
    the played move itself when nothing does better, else the first move in the engine's
    order that does; the values are the mover's points of the round."""

    best: Move
    best_value: int
    played_value: int


def solvable(round_: Round, cards_limit: int | None = CARDS_LIMIT) -> bool:
    """Whether ``round_`` is a position :func:`solve` takes: two players without teams,
    nothing left to deal, the round still on, and (unless ``cards_limit`` is None) few
    cards left in hands."""
    return (
        round_.players == 2
        and not round_.rules.teams
        and not round_.deck
        and not round_.is_over
        and (cards_limit is None or sum(map(len, round_.hands)) <= cards_limit)
    )


def margin(round_: Round, side: int) -> int:
    """The finished round's points for ``side`` minus the other side's (penalty points
    the other way round in a game whose lowest total wins)."""
    return _difference(round_, [score.total for score in round_.score()], side)


def live_margin(round_: Round, side: int) -> int:
    """:func:`margin` of a round cut short because points counted as they are taken
    decided the match: the items taken so far, without the last capture's leftovers
    (what :class:`~bot.engine.Match` scores for that round)."""
    totals = [sum(items.values()) for items in round_.live_items(leftovers=False)]
    return _difference(round_, totals, side)


def _difference(round_: Round, totals: Sequence[int], side: int) -> int:
    mine, theirs = totals[side], sum(totals) - totals[side]
    return theirs - mine if round_.rules.lowest_wins else mine - theirs


def solve(round_: Round, limit: int = NODE_LIMIT) -> list[Valued]:
    """Every legal move of the seat to move in ``round_`` with its exact value, best
    first (ties in the engine's order); :class:`TooBig` when the position is not
    :func:`solvable` or needs more than ``limit`` new positions."""
    return Solver(limit).solve(round_)


class Solver:
    """Alpha-beta minimax with a table of the bounds found per position. Values are kept
    from side 0's point of view (two sides, so side 1's value is the negative), which lets
    one solver serve every position of a game: the later positions of a deal are then
    mostly known.

    ``cards_limit``: the most cards in hands a position may hold (None: any, bounded only
    by ``limit``). ``match_end``: a match decided during the round by points counted as
    they are taken ends the round there (the analysis; a puzzle ignores the match)."""

    def __init__(
        self,
        limit: int = NODE_LIMIT,
        *,
        cards_limit: int | None = CARDS_LIMIT,
        match_end: bool = False,
    ) -> None:
        self.limit = limit
        self.cards_limit = cards_limit
        self.match_end = match_end
        self.nodes = 0
        self.memo: dict[tuple, tuple[float, float]] = {}

    def solve(self, round_: Round) -> list[Valued]:
        """:func:`solve` with this solver's table (``limit`` counts from this call)."""
        sign = self._start(round_)
        valued = [
            Valued(move, int(sign * self.after(round_, move))) for move in round_.legal_moves()
        ]
        valued.sort(key=lambda v: -v.value)
        return valued

    def compare(self, round_: Round, played: Move) -> Compared:
        """``played`` (a legal move of the seat to move) against the best move, exactly:
        the best value is searched first, then the played move only as far as it takes to
        tell its exact value or that it reaches the best (``limit`` counts from this call;
        :class:`TooBig` as :meth:`solve`). A played move worth the best is the best."""
        sign = self._start(round_)
        moves = round_.legal_moves()
        if played not in moves:
            raise ValueError(f"{played} is not a legal move here")
        best_move, best = moves[0], -INF
        for move in moves:  # the engine's order, so the first best move is found
            # only a move doing better than the best so far needs its exact value
            if sign > 0:
                value = self.after(round_, move, best, INF)
            else:
                value = -self.after(round_, move, -INF, -best)
            if value > best:
                best_move, best = move, value
        if played == best_move:
            return Compared(played, int(best), int(best))
        if sign > 0:
            value = self.after(round_, played, -INF, best)
        else:
            value = -self.after(round_, played, -best, INF)
        if value >= best:  # a bound at the best: it is worth the best
            return Compared(played, int(best), int(best))
        return Compared(best_move, int(best), int(value))

    def _start(self, round_: Round) -> int:
        """Check that ``round_`` is to be solved, start counting; the mover's sign."""
        if not solvable(round_, self.cards_limit):
            raise TooBig
        self.nodes = 0
        return 1 if round_.side_of(round_.to_move) == 0 else -1

    def after(self, round_: Round, move: Move, alpha: float = -INF, beta: float = INF) -> float:
        """Side 0's value of ``round_`` once ``move`` is played (on a copy): exact if it
        lies within ``alpha``..``beta`` (always, with the defaults), else a bound on the
        side it falls."""
        nxt = round_.copy()
        nxt.play(move)
        return self.value(nxt, alpha, beta)

    def value(self, round_: Round, alpha: float = -INF, beta: float = INF) -> float:
        """Side 0's value of ``round_`` with best play by both sides: exact if it lies
        within ``alpha``..``beta``, else a bound on the side it falls."""
        end = self._end(round_)
        if end is not None:
            return end
        key = _key(round_)
        low, high = self.memo.get(key, (-INF, INF))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        self.nodes += 1
        if self.nodes > self.limit:
            raise TooBig
        a, b = max(alpha, low), min(beta, high)
        maximizing = round_.side_of(round_.to_move) == 0
        best = -INF if maximizing else INF
        for move in _ordered(round_.legal_moves()):
            value = self.after(round_, move, a, b)
            if maximizing:
                best = max(best, value)
                a = max(a, best)
            else:
                best = min(best, value)
                b = min(b, best)
            if a >= b:
                break
        # What this search proved, added to what was known (the window bounds it).
        if best <= alpha:
            high = min(high, best)
        elif best >= beta:
            low = max(low, best)
        else:
            low = high = best
        self.memo[key] = (low, high)
        return best

    def _end(self, round_: Round) -> int | None:
        """Side 0's value of a position where the round has ended, else None."""
        if self.match_end and live_winner(round_) is not None:
            return live_margin(round_, 0)  # the match ends before any end-of-round item
        if round_.is_over:
            return margin(round_, 0)
        return None


def _ordered(moves: list[Move]) -> list[Move]:
    """Moves in the order that cuts the search most: the biggest captures first, then
    builds, then trails (the order only changes the work, never a value)."""
    return sorted(moves, key=_order)


def _order(move: Move) -> tuple[int, int]:
    if move.taken:
        return (0, -len(move.taken))
    return (1, 0) if move.kind == "build" else (2, 0)


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
    """The captured cards per side; where a pile's top cards can be played with (South
    African Casino, Swazi and Sotho) each seat's pile in order."""
    if round_.rules.builds in PILE_TOP_GAMES:
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
        best_move, best = None, 0.0
        for option in rnd.legal_moves():
            value = solver.after(rnd, option)
            if best_move is None or (value > best if mine else value < best):
                best_move, best = option, value
        assert best_move is not None  # a round not over has a move
        rnd.play(best_move)
    return [dict(score.items) for score in rnd.score()]
