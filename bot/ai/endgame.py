"""The end of a round played exactly: once the deck is empty the rest is a small game.

With two players and nothing left to deal, the cards a seat cannot see are exactly the
opponent's hand, so the rest of the round is a game of perfect information of at most
eight cards: :class:`Solver` plays it out by alpha-beta, remembering the bounds found
for each position (the same position is reached by many orders of play). With three
or four players the search solves each sampled world this way once few cards are left.

The search's value of a finished round is whatever ``value`` says (points, or the chance
of winning the match); the side of ``me`` maximizes it, every other side minimizes it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engine import Card

from . import fastcap, kryp
from .sim import Sim

NODE_LIMIT = 4000  # positions one solve may visit (about 0.25 s); then it gives up
CARDS_LIMIT = 8  # the most cards left in hands that the search solves exactly

Action = tuple[Card, tuple[Card, ...]]
INF = float("inf")
TIE = 1e-6  # how far below the best move the others are ranked when their bound ties it


class TooBig(Exception):
    """The position needs more than the node limit."""


class Solver:
    """Alpha-beta minimax over one perfect-information world, remembering the bounds it
    found for each position (the same position is reached by many orders of play)."""

    def __init__(self, me: int, value: Callable[[Sim], float], limit: int = NODE_LIMIT) -> None:
        self.me = me
        self.value = value
        self.limit = limit
        self.nodes = 0
        self.memo: dict[tuple, tuple[float, float]] = {}
        self.finals: dict[tuple, float] = {}

    def actions(self, sim: Sim) -> list[Action]:
        """Every move of the seat to move, the biggest captures first (they cut most)."""
        table = sim.table
        if sim.rules.forced_capture:  # Krypkasino: a card that can capture must
            found = kryp.actions(sim.rules, sim.hands[sim.to_move], table)
            found.sort(key=lambda action: -len(action[1]))
            return found
        found: list[Action] = []
        for card in dict.fromkeys(sim.hands[sim.to_move]):
            for mask in fastcap.masks(sim.rules, card, table) if table else ():
                found.append((card, tuple(c for i, c in enumerate(table) if mask >> i & 1)))
            found.append((card, ()))
        found.sort(key=lambda action: -len(action[1]))
        return found

    def values(self, sim: Sim, actions: Sequence[Action]) -> list[float]:
        """The exact value of each of ``actions`` for the seat to move in ``sim``."""
        return [self.after(sim, action, -INF, INF) for action in actions]

    def ranked(self, sim: Sim, actions: Sequence[Action]) -> list[float]:
        """Values of ``actions`` for ``me`` (the side to move) that rank the first best
        one strictly highest: its value is exact, the others' are not, only ranked below
        it (the best so far bounds the search of the rest, which is much quicker)."""
        values: list[float] = []
        best_index, best = 0, -INF
        for i, action in enumerate(actions):
            value = self.after(sim, action, best, INF)
            values.append(value)
            if value > best:
                best_index, best = i, value
        return [v if i == best_index else min(v, best) - TIE for i, v in enumerate(values)]

    def after(self, sim: Sim, action: Action, alpha: float, beta: float) -> float:
        """The value of the position after ``action``, exact within ``alpha``..``beta``."""
        nxt = sim.clone()
        nxt.play(*action)
        return self.solve(nxt, alpha, beta)

    def solve(self, sim: Sim, alpha: float, beta: float) -> float:
        """The value of ``sim`` with best play by every side: exact if it lies within
        ``alpha``..``beta``, else a bound on the side it falls."""
        if sim.over:
            return self._final(sim)
        key = _key(sim)
        low, high = self.memo.get(key, (-INF, INF))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        self.nodes += 1
        if self.nodes > self.limit:
            raise TooBig
        a, b = max(alpha, low), min(beta, high)
        mine = sim.sides[sim.to_move] == self.me
        best = -INF if mine else INF
        for action in self.actions(sim):
            value = self.after(sim, action, a, b)
            if mine:
                best = max(best, value)
                a = max(a, best)
            else:
                best = min(best, value)
                b = min(b, best)
            if a >= b:
                break
        if best <= alpha:
            high = best
        elif best >= beta:
            low = best
        else:
            low = high = best
        self.memo[key] = (low, high)
        return best

    def _final(self, sim: Sim) -> float:
        last = None if sim.last_capturer is None else sim.sides[sim.last_capturer]
        key = (
            sim.winner,
            last,
            tuple(sim.cards),
            tuple(sim.spades),
            tuple(sim.points),
            tuple(sim.sweeps),
        )
        value = self.finals.get(key)
        if value is None:
            value = self.finals[key] = self.value(sim)
        return value


def solvable(sim: Sim) -> bool:
    """Whether the search may solve ``sim`` exactly: the deck empty and few cards left."""
    return not sim.deck and not sim.over and sim.cards_in_hands() <= CARDS_LIMIT


def _key(sim: Sim) -> tuple:
    """What the rest of the round depends on (the table is kept in card order)."""
    last = None if sim.last_capturer is None else sim.sides[sim.last_capturer]
    return (
        sim.to_move,
        last,
        tuple(map(tuple, sim.hands)),
        tuple(sim.table),
        tuple(sim.cards),
        tuple(sim.spades),
        tuple(sim.points),
        tuple(sim.sweeps),
    )
