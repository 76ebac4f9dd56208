"""Moves valued in expected points of the round, on the same sampled worlds: for analysis.

``hard`` ranks its candidates by the chance of winning the match (two sides), a scale
that bends near the target. An analysis of a finished game asks a plainer question: how
many points of the round did a move give away? :func:`evaluate` answers it with hard's
own machinery, on the points scale of every variant (this side's points minus the mean
of the other sides', :func:`~bot.ai.values.objective`; in Krypkasino the penalty points
taken, negated, so fewer is better):

- worlds are sampled from what the seat may know (:class:`~bot.ai.evidence.Evidence`),
  and every move is played in each of the *same* worlds, so their difference is fair;
- in each world a move is followed by hard's quick greedy play-out (``Rollout``,
  ``BuildRollout``, ``KrypRollout``) and the position reached is valued in points;
- once the deck is empty (games without builds) the rest of the round is solved exactly
  by minimax on the points (:mod:`.endgame`): with two players in the one world there
  is, with more in each sampled world while it is small enough.

The analysis calls this only where it cannot be exact: a two-player last deal small
enough is solved in every game, builds included, by :mod:`bot.puzzles.solve` instead
(:func:`bot.analysis.review.exact_review`); here a building game's last deal is valued by
the greedy play-outs, an estimate.

Only counted work bounds it (no clock), so a seeded evaluation is the same on any machine.
``hard``'s own play is untouched: nothing here is used when it chooses a move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine import Move

from . import normal
from .buildrollout import BuildRollout
from .evidence import Evidence
from .hard import (
    CANDIDATE_WORK,
    MIN_WORLDS,
    WORK_PER_MS,
    WORLD_WORK,
    Rollout,
    horizon,
    solved_worlds,
)
from .kryp import KrypRollout, is_kryp
from .sim import Sim
from .stop import Stop
from .values import objective
from .view import SeatView

MAX_WORLDS = 2000  # a few moves are compared, so a budget buys more worlds than in play


class PointsRollout(Rollout):
    """hard's Nordic rollout, its positions valued in the round's points (never the
    match chance): own side's points minus the mean of the others'."""

    def worth(
        self, values: Sequence[float], spades: Sequence[int] | None = None, spread: float = 0.0
    ) -> float:
        """The points ``values`` give the searching side, against the others' mean."""
        return objective(values, self.me)

    def final(self, sim: Sim) -> float:
        """A finished round's points (a match won during the round: the points so far)."""
        return objective(sim.round_points(), self.me)


def rollout_for(view: SeatView) -> PointsRollout | BuildRollout | KrypRollout:
    """The play-out policy and points-valued leaves for the view's game."""
    if view.rules.builds:
        return BuildRollout(view, normal.Judge(view).marginals)
    if is_kryp(view.rules):
        return KrypRollout(view)
    return PointsRollout(view)


def evaluate(
    view: SeatView, rng: random.Random, moves: Sequence[Move], budget_ms: float
) -> list[float]:
    """The expected points of the round for the view's side after each of ``moves``
    (moves of the seat to move), every move valued on the same sampled worlds.

    ``budget_ms`` is counted work (``hard.WORK_PER_MS``), never measured time. Exact
    once the deck is empty with two players (games without builds).
    """
    if not moves:
        return []
    evidence = Evidence.of(view)
    if not view.rules.builds and not view.deck_size:
        exact = _exact(view, rng, moves, budget_ms, evidence)
        if exact is not None:
            return exact
    judge = rollout_for(view)
    plies = horizon(view.players, bool(view.rules.builds), view.rules.mulle_twin)
    limit = budget_ms * WORK_PER_MS
    hidden = view.hidden()
    totals = [0.0] * len(moves)
    done = 0
    while done < MAX_WORLDS and (done < MIN_WORLDS or judge.work < limit):
        world = judge.world(evidence.sample(view, rng, hidden))
        judge.work += WORLD_WORK + CANDIDATE_WORK * len(moves)
        for i, move in enumerate(moves):
            after = judge.after(world, move)  # type: ignore[arg-type]
            if after is None:  # not legal in this world (a Swazi partner's hand)
                totals[i] += judge.leaf(world)  # type: ignore[arg-type]
                continue
            judge.run(after, plies)  # type: ignore[arg-type]
            totals[i] += judge.leaf(after)  # type: ignore[arg-type]
        done += 1
    return [total / done for total in totals]


def _exact(
    view: SeatView,
    rng: random.Random,
    moves: Sequence[Move],
    budget_ms: float,
    evidence: Evidence,
) -> list[float] | None:
    """Each move's value by minimax on the round's points over sampled worlds (one world
    with two players: the opponent holds the unseen cards); None when too big to solve."""
    judge = PointsRollout(view) if not is_kryp(view.rules) else KrypRollout(view)
    stop = Stop.counted(budget_ms)
    return solved_worlds(view, rng, moves, judge, evidence, stop, max_worlds=MAX_WORLDS)
