"""The ``hard`` player: perfect-information Monte Carlo over sampled hidden cards.

The ``normal`` evaluation proposes a handful of candidate moves (captures whole or partial,
and trails). Each sampled world deals the hidden cards at random, with the odds the other
players' trails this deal give their hands (:mod:`.evidence`); in it every candidate is
played, followed by a few plies of a quick greedy policy for everybody (which does see the
world's hands, so it punishes a tabbe left open), and the position reached is valued by
the expected points of each side, turned into the chance of winning the match
(:mod:`.odds`: a point matters more near the target). The candidate with the best mean
wins. The same worlds serve every candidate, so their comparison is fair.

Once the deck is empty the rest of the round is solved exactly (:mod:`.endgame`): with two
players in the one world there is, with more in each sampled world once few cards are left.

In the building games the worlds are engine rounds and the policy is
:class:`~bot.ai.buildrollout.BuildRollout` (builds, owners and pile tops played by the
engine itself); the search around them is the same.

The budget is spent as counted work (weighed steps, calibrated to microseconds on the
project's machine) rather than measured time, so a seeded search is reproducible: it never
reads the clock; only unseeded play also stops when its time is up (:mod:`.stop`). A full
hand, whose choice shapes the whole deal, gets several times the typical budget, and is
searched wider; the last cards get less (:func:`budget_for`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from bot.engine import Card, Move, Round, capture_masks

from . import endgame, fastcap, normal, odds
from .buildrollout import BuildRollout
from .evidence import Evidence
from .kryp import KrypRollout, is_kryp
from .sim import Sim, SimRollout
from .stop import Stop
from .values import Marginals, majority_points, objective
from .view import SeatView

DEFAULT_BUDGET_MS = 75  # the typical decision; see budget_for
CANDIDATES, WIDE = 6, 8  # moves searched; WIDE with a full hand or one card short
# The search counts its work in microseconds of the reference machine (this project's
# 2-core box), weighed by step, so a seeded search does the same work on any machine.
WORK_PER_MS = 1000.0
WORLD_WORK, CANDIDATE_WORK, PLY_WORK, CARD_WORK = 26.0, 28.0, 5.0, 2.5
MASK_WORK, THREAT_WORK = 0.2, 2.2
NODE_WORK = 40.0  # one position of the exact end-of-round search
LARGE_TABLE_WORK = 1.5  # per table card, for a capture search on a large table (over 10)
MIN_WORLDS, MAX_WORLDS = 2, 800
FULL_HAND, LAST_CARD = 5.0, 0.4  # shares of the typical budget (see budget_for)
BUILD_SHARE = 2.0
PRIOR = 0.05  # weight of the normal evaluation, to break near-ties
LEAF_SHARE = 0.6  # how much of the next capture the side to move is credited with
WIN = normal.WIN
POINTS_TIE = 0.01  # weight of the round's points beside the match chance
TURNS = 3  # the horizon: how many times each player answers the candidate move
BUILD_TURNS = 1  # the same in the building games (longer measured weaker in Swazi)
MULLE_TURNS = 2  # Glimne's Mulle: a twin kept for a mulle next turn is its big points


def budget_for(view: SeatView, budget_ms: float | None) -> float:
    """The budget of this decision: ``budget_ms`` is the typical one; a full hand, whose
    choice shapes the whole deal and has most to weigh, gets up to ``FULL_HAND`` times
    as much, and the last card or two much less (the median decision stays near it).
    The building games get ``BUILD_SHARE`` typical budgets for every decision."""
    budget = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    if view.rules.builds:  # measured at 150 ms (issue 10), kept as it was
        return budget * BUILD_SHARE
    size = max(2, view.rules.hand_size)
    held = min(len(view.hand), size)
    return budget * (LAST_CARD + (FULL_HAND - LAST_CARD) * ((held - 1) / (size - 1)) ** 2)


def horizon(players: int, builds: bool = False, twin: bool = False) -> int:
    """Plies simulated after the candidate move: each player answers ``TURNS`` times
    (``BUILD_TURNS`` in the building games, whose engine moves cost more, but
    ``MULLE_TURNS`` in Glimne's Mulle, ``twin``, where the mulle kept for later is worth
    most)."""
    if twin:
        return MULLE_TURNS * players
    return (BUILD_TURNS if builds else TURNS) * players


def _rollout(view: SeatView) -> Rollout | BuildRollout | KrypRollout:
    """The policy and leaf values for the view's game: lean Nordic, or the engine's."""
    if view.rules.builds:
        return BuildRollout(view, normal.Judge(view).marginals)
    return _nordic_rollout(view)


def _nordic_rollout(view: SeatView) -> Rollout | KrypRollout:
    """The lean rollout: Krypkasino's (penalties avoided) or the other Nordic games'."""
    if is_kryp(view.rules):
        return KrypRollout(view)
    return Rollout(view)


def choose(view: SeatView, rng: random.Random, stop: Stop | None = None) -> Move:
    """The ``hard`` player's move, searched until ``stop`` (see :func:`search`)."""
    return search(view, rng, stop)[0][1]


class Worlds(Protocol):
    """Where a search's worlds come from (:class:`~bot.ai.evidence.Evidence` by default)."""

    def sample(self, view: SeatView, rng: random.Random, hidden: list[Card]) -> Round:
        """A round consistent with ``view``, its ``hidden`` cards dealt somehow."""
        ...


def search(
    view: SeatView, rng: random.Random, stop: Stop | None = None, worlds: Worlds | None = None
) -> list[tuple[float, Move]]:
    """Candidates with their mean values, best first.

    ``stop`` bounds the search: counted work only (by default ``DEFAULT_BUDGET_MS`` of
    it), which makes the result a function of the view and ``rng`` alone, or for
    unseeded play the clock too (:class:`~bot.ai.stop.Stop`).
    ``worlds`` replaces the sampling of hidden cards: the benchmarks tell it the hidden
    cards, to measure what knowing them is worth (``tests/benchmarks/tournament.py``).
    """
    scored = normal.ranked(view)
    if len(scored) == 1:
        return scored
    stop = Stop.counted(DEFAULT_BUDGET_MS) if stop is None else stop
    evidence = Evidence.of(view) if worlds is None else worlds
    if not view.rules.builds and not view.deck_size:
        exact = _exact(view, rng, scored, stop, evidence)
        if exact is not None:
            return exact
    wide = not view.rules.builds and len(view.hand) >= view.rules.hand_size - 1
    candidates = _pick(scored, WIDE if wide else CANDIDATES)
    plies = horizon(view.players, bool(view.rules.builds), view.rules.mulle_twin)
    limit = stop.budget_ms * WORK_PER_MS
    judge = _rollout(view)
    hidden = view.hidden()
    totals = [0.0] * len(candidates)
    done = 0
    while done < MAX_WORLDS and (done < MIN_WORLDS or judge.work < limit):
        world = judge.world(evidence.sample(view, rng, hidden))
        judge.work += WORLD_WORK + CANDIDATE_WORK * len(candidates)
        values = []
        for _, move in candidates:
            if done and stop.out_of_time():
                break
            after = judge.after(world, move)
            if after is None:  # not legal in this world (a Swazi partner's hand)
                values.append(judge.leaf(world))
                continue
            judge.run(after, plies)
            values.append(judge.leaf(after))
        if len(values) < len(candidates):
            break  # out of time: this world is left out
        totals = [t + v for t, v in zip(totals, values, strict=True)]
        done += 1
    results = [
        (totals[i] / done + PRIOR * prior, move) for i, (prior, move) in enumerate(candidates)
    ]
    results.sort(key=lambda item: (-item[0], str(item[1])))
    return results


def _exact(
    view: SeatView,
    rng: random.Random,
    scored: Sequence[tuple[float, Move]],
    stop: Stop,
    evidence: Worlds,
) -> list[tuple[float, Move]] | None:
    """Every move valued by solving the rest of the round exactly (the deck is empty).

    With two players there is one world: the opponent holds exactly the unseen cards.
    With more, each sampled world is solved, while few enough cards are left; None when
    the position is too big to solve.
    """
    moves = [move for _, move in scored]
    judge = _nordic_rollout(view)
    # two players: one world, where only the best move needs an exact value
    values = solved_worlds(view, rng, moves, judge, evidence, stop, ranked=view.players == 2)
    if values is None:
        return None
    results = [(values[i], prior, move) for i, (prior, move) in enumerate(scored)]
    results.sort(key=lambda item: (-round(item[0], 9), -item[1], str(item[2])))
    return [(value, move) for value, _, move in results]


def solved_worlds(
    view: SeatView,
    rng: random.Random,
    moves: Sequence[Move],
    judge: Rollout | KrypRollout,
    evidence: Worlds,
    stop: Stop,
    *,
    ranked: bool = False,
    max_worlds: int = MAX_WORLDS,
) -> list[float] | None:
    """Each move's mean value over sampled worlds, each solved exactly to the round's end
    (valued by ``judge.final``); one world with two players. ``ranked``: only the best
    move's value need be exact. None when a world is too big to solve."""
    hidden = view.hidden()
    actions = [(move.card, move.taken) for move in moves]
    totals = [0.0] * len(moves)
    limit = stop.budget_ms * WORK_PER_MS
    done = 0
    while done < max_worlds and (done < MIN_WORLDS or judge.work < limit):
        world = judge.world(evidence.sample(view, rng, hidden))
        if not endgame.solvable(world):
            return None
        solver = endgame.Solver(view.side, judge.final)
        try:
            values = solver.ranked(world, actions) if ranked else solver.values(world, actions)
        except endgame.TooBig:
            break
        judge.work += WORLD_WORK + NODE_WORK * solver.nodes
        totals = [t + v for t, v in zip(totals, values, strict=True)]
        done += 1
        if view.players == 2 or stop.out_of_time():
            break  # two players: every world is the same one
    if not done:
        return None
    return [total / done for total in totals]


def _pick(scored: Sequence[tuple[float, Move]], size: int) -> list[tuple[float, Move]]:
    """The best few by the normal evaluation, with the best trail among them."""
    chosen = list(scored[:size])
    if not any(m.is_trail for _, m in chosen):
        trail = next((item for item in scored if item[1].is_trail), None)
        if trail is not None:
            chosen.append(trail)
    return chosen


class Rollout(SimRollout):
    """The quick greedy policy and the leaf values, for one decision's worlds."""

    def __init__(self, view: SeatView) -> None:
        self.rules = view.rules
        self.me = view.side
        judge = normal.Judge(view)
        self.marginals: Marginals = judge.marginals
        self.work = 0.0  # the search's steps, weighed (see WORK_PER_MS)
        self.two = view.sides == 2
        self.scores = view.scores
        self.scale = odds.scale(view.rules) if self.two else 1.0
        self.win = 0.5 * self.scale if self.two else WIN
        self._chances: dict[tuple, float] = {}

    def greedy(self, sim: Sim) -> tuple[Card, tuple[Card, ...], float]:
        """The greedy move of the seat to move, and what it gains."""
        seat = sim.to_move
        side = sim.sides[seat]
        value, rules = self.marginals.value, self.rules
        table = sim.table
        worths = [value(side, c) for c in table]
        threat = self._threat(sim, seat)
        full = (1 << len(table)) - 1
        best: tuple[float, Card, int] | None = None
        self.work += PLY_WORK + CARD_WORK * len(sim.hands[seat])
        for card in dict.fromkeys(sim.hands[seat]):
            own = value(side, card)
            score = -0.5 * own
            if threat and (best is None or score > best[0]):
                score -= self._exposed(sorted([*table, card]), threat)
            if best is None or score > best[0]:
                best = (score, card, 0)
            if not table:
                continue
            masks = fastcap.masks(rules, card, table)
            self.work += MASK_WORK * len(masks)
            if len(table) > fastcap.SMALL:
                self.work += LARGE_TABLE_WORK * len(table)
            for mask in masks:
                gain = own
                for i, worth in enumerate(worths):
                    if mask >> i & 1:
                        gain += worth
                if mask == full:
                    gain += 1
                if (
                    rules.mulle_points
                    and mask.bit_count() == 1
                    and table[mask.bit_length() - 1] is card
                ):
                    gain += rules.mulle_points
                if gain > best[0] and threat and mask != full:
                    gain -= self._exposed(
                        [c for i, c in enumerate(table) if not mask >> i & 1], threat
                    )
                if gain > best[0]:
                    best = (gain, card, mask)
        assert best is not None
        score, card, mask = best
        return card, tuple(c for i, c in enumerate(table) if mask >> i & 1), score

    def _threat(self, sim: Sim, seat: int) -> list[Card]:
        """The hand of the next opponent to move, if it moves right after ``seat``."""
        for step in range(1, sim.players):
            nxt = (seat + step) % sim.players
            if sim.hands[nxt]:
                return sim.hands[nxt] if sim.sides[nxt] != sim.sides[seat] else []
        return []

    def _exposed(self, table: list[Card], threat: Sequence[Card]) -> float:
        """What leaving ``table`` costs if the next opponent can sweep it."""
        if len(table) > 4:
            return 0.0
        full = (1 << len(table)) - 1
        self.work += THREAT_WORK * len(threat)
        for card in threat:
            masks = capture_masks(self.rules, card, table)
            if masks and masks[0] == full:
                return 1.0 + sum(self.marginals.value(0, c) for c in table) * 0.5
        return 0.0

    def leaf(self, sim: Sim) -> float:
        """The position's value for the searching side (see :meth:`worth`)."""
        if sim.winner is not None or sim.over:
            return self.final(sim)
        values = [
            a + b
            for a, b in zip(
                sim.live(), majority_points(self.rules, sim.spades, sim.cards), strict=True
            )
        ]
        rules = self.rules
        if sim.is_last_deal and sim.last_capturer is not None and rules.sistan_points:
            others = sim.cards_in_hands()
            values[sim.sides[sim.last_capturer]] += rules.sistan_points * 0.6**others
        if sim.table:
            _, _, gain = self.greedy(sim)
            if gain > 0:
                share = LEAF_SHARE if len(values) == 2 else LEAF_SHARE * 0.6
                values[sim.sides[sim.to_move]] += share * gain
        left = len(sim.deck) + sim.cards_in_hands() + len(sim.table)
        return self.worth(values, spread=odds.SPREAD * (left / self.rules.cards_in_deck) ** 0.5)

    def final(self, sim: Sim) -> float:
        """The value of a finished round (or match) for the searching side."""
        if sim.winner is not None:
            return self.win if sim.winner == self.me else -self.win
        return self.worth(sim.round_points(), sim.spades)

    def worth(
        self, values: Sequence[float], spades: Sequence[int] | None = None, spread: float = 0.0
    ) -> float:
        """What a round giving ``values`` points per side is worth to the searching side.

        With two sides, the chance of winning the match from the scores it leaves, in
        points (one point at the start of a match is worth about one), plus a little of
        the points themselves to rank rounds whose match is already decided. With more
        sides, the points: this side's minus the mean of the others'.
        """
        points = objective(values, self.me)
        if not self.two:
            return points
        key = (round(values[0] * 4), round(values[1] * 4), spread > 0 or tuple(spades or ()))
        chance = self._chances.get(key)
        if chance is None:
            chance = odds.chance_after(self.rules, self.scores, values, spades, spread)
            self._chances[key] = chance
        mine = chance if self.me == 0 else 1 - chance
        return (mine - 0.5) * self.scale + POINTS_TIE * points
