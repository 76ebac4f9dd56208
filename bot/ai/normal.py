"""The ``normal`` player: a one-move look-ahead with a sound evaluation.

Each move is scored by what it takes (points, the spades and cards majorities, a tabbe,
a mulle), minus what the next player can be expected to take from the table it leaves
(the best capture of each card they might hold, weighted by the chance they hold it, so
an easy tabbe or storan left lying costs what it should), plus sistan in the last deal
and a little for keeping a 10 while storan is out (a 2 while lillan is out).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.engine import Card, Move, card_points, is_mulle
from bot.engine.cards import LILLAN, STORAN

from . import fastcap
from .candidates import moves_of
from .values import Marginals, majority_points, objective
from .view import SeatView

WIN = 100.0  # reaching the target at once when points count as you go
KEEP_TEN = 0.3  # playing away the last plain 10 while storan is still out
KEEP_TWO = 0.12  # the same for a plain 2 and lillan
FOLLOW_UP = 0.3  # share of this seat's best capture next turn from the table left


class Judge:
    """Scores moves for the seat of one view (build one per decision)."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.rules = rules = view.rules
        sides = view.sides
        self.me = view.side
        self.spades = [0] * sides
        self.cards = [0] * sides
        self.points = [0] * sides
        self.sweeps = [0] * sides
        for seat, pile in enumerate(view.piles):
            side = view.side_of(seat)
            self.spades[side] += sum(c.suit == "S" for c in pile)
            self.cards[side] += len(pile)
            self.points[side] += sum(map(card_points, pile))
            self.points[side] += rules.mulle_points * view.mulles[seat]
            self.sweeps[side] += view.sweeps[seat] - view.void_sweeps[seat]
        self.marginals = Marginals(rules, self.spades, self.cards)
        self.hidden = Counter(view.hidden())
        self.pool = sum(self.hidden.values())
        self.base = self._values(self.points, self.sweeps, self.spades, self.cards)
        self._risk_memo: dict[tuple, float] = {}

    # -- whole-position values ------------------------------------------------------------

    def _values(
        self,
        points: Sequence[int],
        sweeps: Sequence[int],
        spades: Sequence[int],
        cards: Sequence[int],
    ) -> list[float]:
        """Expected round points per side."""
        low = min(sweeps) if self.rules.sweep_limits else 0
        majors = majority_points(self.rules, spades, cards)
        return [p + s - low + m for p, s, m in zip(points, sweeps, majors, strict=True)]

    def _live_totals(self, points: Sequence[int], sweeps: Sequence[int]) -> list[int]:
        low = min(sweeps) if self.rules.sweep_limits else 0
        return [b + p + s - low for b, p, s in zip(self.view.scores, points, sweeps, strict=True)]

    def _sweep_scores(self) -> bool:
        if not self.rules.sweep_limits:
            return True
        totals = self._live_totals(self.points, self.sweeps)
        return not (self.view.is_last_deal or max(totals) >= 10)

    # -- scoring moves --------------------------------------------------------------------

    def score(self, move: Move) -> float:
        """How good ``move`` is for this seat's side, in expected points."""
        view, me = self.view, self.me
        table = list(view.table)
        points, sweeps = list(self.points), list(self.sweeps)
        spades, cards = list(self.spades), list(self.cards)
        last = view.last_capturer
        if move.taken:
            taken = (move.card, *move.taken)
            for card in move.taken:
                table.remove(card)
            points[me] += sum(map(card_points, taken))
            spades[me] += sum(c.suit == "S" for c in taken)
            cards[me] += len(taken)
            if is_mulle(self.rules, move.card, move.taken):
                points[me] += self.rules.mulle_points
            if not table and self._sweep_scores():
                sweeps[me] += 1
            last = view.seat
        else:
            table.append(move.card)
        value = objective(self._values(points, sweeps, spades, cards), me)
        value -= objective(self.base, me)
        if self.rules.live and move.taken:
            totals = self._live_totals(points, sweeps)
            if (
                totals[me] >= self.rules.target
                and totals.count(max(totals)) == 1
                and totals[me] == max(totals)
            ):
                value += WIN
        value += self._after(move, table, last, points, sweeps, spades, cards)
        if FOLLOW_UP and table:
            value += FOLLOW_UP * self._follow_up(move.card, tuple(table))
        return value - self._keeping_cost(move.card)

    def _follow_up(self, played: Card, table: tuple[Card, ...]) -> float:
        """The best capture this seat's remaining cards could make on ``table``."""
        rest = list(self.view.hand)
        rest.remove(played)
        return max((self.best_capture(c, table, self.me) for c in dict.fromkeys(rest)), default=0.0)

    def _after(
        self,
        move: Move,
        table: list[Card],
        last: int | None,
        points: list[int],
        sweeps: list[int],
        spades: list[int],
        cards: list[int],
    ) -> float:
        """What follows the move: the next player's chances, the leftovers at the end."""
        view = self.view
        others_left = sum(n for s, n in enumerate(view.hand_sizes) if s != view.seat)
        mine_left = len(view.hand) - 1
        if view.is_last_deal and others_left + mine_left == 0:
            return self._leftovers(table, last, points, spades, cards)
        nxt = self._next_opponent(mine_left)
        value = 0.0
        if nxt is not None:
            seat, held = nxt
            scale = 1.0 if view.sides == 2 else 0.6
            value -= scale * self._risk(tuple(table), view.side_of(seat), held)
        if view.is_last_deal and last is not None and self.rules.sistan_points:
            chance = 0.55**others_left
            worth = self.rules.sistan_points + sum(map(card_points, table)) + 0.1 * len(table)
            sign = 1 if view.side_of(last) == self.me else -1
            value += sign * chance * worth
        return value

    def _leftovers(
        self,
        table: list[Card],
        last: int | None,
        points: list[int],
        spades: list[int],
        cards: list[int],
    ) -> float:
        """The round ends with this move: leftovers and sistan to the last capturer."""
        if last is None:
            return 0.0
        side = self.view.side_of(last)
        before = objective(self._values(points, self.sweeps, spades, cards), self.me)
        points, spades, cards = list(points), list(spades), list(cards)
        points[side] += sum(map(card_points, table)) + self.rules.sistan_points
        spades[side] += sum(c.suit == "S" for c in table)
        cards[side] += len(table)
        return objective(self._values(points, self.sweeps, spades, cards), self.me) - before

    def _next_opponent(self, mine_left: int) -> tuple[int, int] | None:
        """The next seat to move after this seat, if an opponent, with its hand size."""
        view = self.view
        for step in range(1, view.players):
            seat = (view.seat + step) % view.players
            if view.hand_sizes[seat]:
                return (seat, view.hand_sizes[seat]) if view.side_of(seat) != self.me else None
        if mine_left or not view.deck_size:
            return None
        seat = (view.dealer + 1) % view.players
        if view.side_of(seat) == self.me:
            return None
        return seat, self.rules.hand_size

    def _risk(self, table: tuple[Card, ...], side: int, held: int) -> float:
        """What the next player (``held`` cards from the hidden pool) expects to take."""
        if not table or not self.pool:
            return 0.0
        key = (table, side, held)
        known = self._risk_memo.get(key)
        if known is None:
            known = self._risk_memo[key] = self._expected_best(table, side, held)
        return known

    def _expected_best(self, table: tuple[Card, ...], side: int, held: int) -> float:
        gains = []
        for card, count in self.hidden.items():
            gain = self.best_capture(card, table, side)
            if gain > 0:
                gains.extend([gain] * count)
        gains.sort(reverse=True)
        return expected_max(gains, self.pool, held)

    def best_capture(self, card: Card, table: Sequence[Card], side: int) -> float:
        """The most ``side`` gains by playing ``card`` to ``table`` (0 if it cannot take)."""
        rules, value = self.rules, self.marginals.value
        best = 0.0
        for mask in fastcap.masks(rules, card, table):
            gain = value(side, card)
            full = True
            for i, c in enumerate(table):
                if mask >> i & 1:
                    gain += value(side, c)
                else:
                    full = False
            if full and self._sweep_scores():
                gain += 1
            best = max(best, gain)
        if rules.mulle_points and card in table:
            mulle = 2 * value(side, card) + rules.mulle_points + (len(table) == 1)
            best = max(best, mulle)
        return best

    def _keeping_cost(self, card: Card) -> float:
        """Playing away the last plain 10 (2) while storan (lillan) may still come."""
        view = self.view
        cost = 0.0
        for rank, prize, price in ((10, STORAN, KEEP_TEN), (2, LILLAN, KEEP_TWO)):
            if card.rank != rank or card is prize or not self.hidden[prize]:
                continue
            plain = [c for c in view.hand if c.rank == rank and c is not prize]
            if len(plain) == 1:
                cost += price
        return cost


def expected_max(gains: Sequence[float], pool: int, held: int) -> float:
    """E[best gain] when ``held`` cards are drawn from ``pool``; ``gains`` sorted, best first.

    Cards without a gain are the rest of the pool. The chance that none of the first
    ``k`` cards is held is C(pool - k, held) / C(pool, held).
    """
    if held <= 0 or not gains:
        return 0.0
    expected, none_so_far = 0.0, 1.0
    for k, gain in enumerate(gains):
        left = pool - k
        none_next = none_so_far * max(0, left - held) / left if left > 0 else 0.0
        expected += gain * (none_so_far - none_next)
        none_so_far = none_next
        if none_so_far <= 0:
            break
    return expected


def ranked(view: SeatView, moves: Sequence[Move] | None = None) -> list[tuple[float, Move]]:
    """Moves with their scores, best first (ties in a fixed order)."""
    judge = Judge(view)
    moves = moves_of(view) if moves is None else moves
    scored = [(judge.score(m), m) for m in moves]
    scored.sort(key=lambda item: (-item[0], str(item[1])))
    return scored


def choose(view: SeatView) -> Move:
    """The ``normal`` player's move."""
    return ranked(view)[0][1]
