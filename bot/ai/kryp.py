"""Krypkasino for the computer players: every point is a penalty, so they play to avoid them.

A card that can capture must, so a turn is mostly a choice between krypa (a card that
takes nothing) and the cheapest forced capture. The evaluation (``normal``'s, and the
``hard`` search's prior) scores a move, in points for the mover's side against the mean
of the others (lower totals win, so points taken count against it):

- what it takes: the penalty points of the played card and the cards taken, and for a
  tabbe 5 more, besides the reward it gives the seat before (an opponent);
- what it leaves the next player, who is always an opponent: each card they may hold
  (drawn from the cards this seat cannot see) would krypa or make its cheapest capture;
  they play their cheapest card, and a forced tabbe rewards this seat with −5;
- a krypa sheds its card: a penalty card played away now cannot be forced to take later;
- in the last deal the last capturer gets the leftovers, so a capture there risks them.

The search (:class:`KrypRollout`) plays sampled worlds out with a greedy policy that
krypar when it can and else takes the cheapest capture, avoiding tables the next player
can krypa on when a tabbe could be forced on them instead.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

from bot.engine import Card, Move, Rules
from bot.engine.captures import whole_captures

from . import fastcap
from .candidates import moves_of
from .outcome import outcome
from .sim import Sim, SimRollout, kryp_points
from .values import objective
from .view import SeatView

SHED = 0.3  # a krypa's worth per penalty point of its card: it cannot be forced to take later
NEXT_SHARE = 1.0  # how much of the next player's expected forced cost is credited
LAST_SAFE = 0.5  # chance per later card in the last deal that somebody else captures after
LEAF_SHARE = 0.6  # how much of the next capture the side to move is charged at a leaf
OPTION_WORK, MOVE_WORK = 6.0, 2.0  # the search's work for one card's captures, one move
THREAT_TABLE = 3  # the search's policy asks what the next player is forced to do on tables
# of up to this many cards (where a tabbe can be forced)

Action = tuple[Card, tuple[Card, ...]]


def is_kryp(rules: Rules) -> bool:
    """Whether the rules are Krypkasino's (forced captures, points are penalties)."""
    return rules.forced_capture


def options(rules: Rules, card: Card, table: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The captures ``card`` must choose among on ``table`` (empty: it krypar).

    With ``take_all`` the engine's whole captures (remembered per table); otherwise every
    capture on a small table, the biggest ones on a large one."""
    if not table:
        return []
    if rules.take_all:
        return list(whole_captures(rules, card, table))
    return fastcap.captures(rules, card, table)


def actions(rules: Rules, hand: Sequence[Card], table: Sequence[Card]) -> list[Action]:
    """Every legal move of ``hand`` on ``table``, as (card, cards taken); () is a krypa.

    For the search: captures come from :func:`fast_options` (on a large table only the
    biggest whole ones)."""
    found: list[Action] = []
    for card in dict.fromkeys(hand):
        taken = fast_options(rules, card, table)
        if taken:
            found.extend((card, t) for t in dict.fromkeys(taken))
        else:
            found.append((card, ()))
    return found


def fast_options(rules: Rules, card: Card, table: Sequence[Card]) -> list[tuple[Card, ...]]:
    """:func:`options` for the search, from the captures :mod:`.fastcap` remembers by the
    table's ranks: with ``take_all`` those no other capture contains (the biggest come
    first, so a capture's bigger ones are always among those listed)."""
    if not table:
        return []
    masks = fastcap.masks(rules, card, table)
    if not masks:
        return []
    if rules.take_all:
        whole: list[int] = []
        for mask in masks:
            if not any(bigger & mask == mask for bigger in whole):
                whole.append(mask)
        masks = whole
    return [tuple(c for i, c in enumerate(table) if mask >> i & 1) for mask in masks]


class Costs:
    """Penalty arithmetic of one rule set, in points for the side that moves."""

    def __init__(self, rules: Rules, sides: int) -> None:
        self.rules = rules
        self.worth = kryp_points(rules)
        self.others = max(1, sides - 1)
        # A tabbe costs its taker the penalty, and the reward lowers an opponent's total.
        self.tabbe = rules.tabbe_points + rules.reward_points / self.others

    def taken(self, card: Card, taken: Sequence[Card]) -> int:
        """The penalty points of a capture's cards, the played card included."""
        worth = self.worth
        return worth[card] + sum(worth[c] for c in taken)

    def capture(self, card: Card, taken: Sequence[Card], table_size: int) -> float:
        """What a capture costs its side, a tabbe included."""
        cost = self.taken(card, taken)
        return cost + self.tabbe if taken and len(taken) == table_size else cost

    def shared(self, cost: float, tabbe: float) -> float:
        """What an opponent's ``cost`` (with a tabbe as likely as ``tabbe``) is worth to
        the other sides' each: their penalty points shared among them (the reward that
        the tabbe gives the seat before is counted apart, by whoever gets it)."""
        return (cost - tabbe * self.rules.reward_points / self.others) / self.others

    def cheapest(self, card: Card, table: Sequence[Card], fast: bool = False) -> tuple[float, bool]:
        """The cost of ``card``'s cheapest legal play on ``table`` (0 for a krypa) and
        whether that play is a tabbe (``fast``: the search's captures, see
        :func:`fast_options`)."""
        found = (fast_options if fast else options)(self.rules, card, table)
        if not found:
            return 0.0, False
        size = len(table)
        best = min(found, key=lambda t: (self.capture(card, t, size), -len(t)))
        return self.capture(card, best, size), len(best) == size


class KrypJudge:
    """Scores Krypkasino moves for the seat of one view (build one per decision)."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.rules = view.rules
        self.me = view.side
        self.costs = Costs(view.rules, view.sides)
        self.hidden = Counter(view.hidden())
        self.pool = sum(self.hidden.values())
        self._memo: dict[tuple, tuple[float, float]] = {}

    def score(self, move: Move) -> float:
        """How good ``move`` is for this seat's side, in points (higher is better)."""
        return sum(self.parts(move).values())

    def parts(self, move: Move) -> dict[str, float]:
        """The terms of :meth:`score`, by name (the hints tell the biggest)."""
        view, costs = self.view, self.costs
        table = [c for c in outcome(view, move).table if isinstance(c, Card)]
        parts: dict[str, float] = {}
        if move.taken:
            parts["taken"] = -float(costs.taken(move.card, move.taken))
            if not table:
                parts["tabbe"] = -costs.tabbe
            last = view.seat
        else:
            parts["shed"] = SHED * costs.worth[move.card]
            last = view.last_capturer
        others_left = sum(n for s, n in enumerate(view.hand_sizes) if s != view.seat)
        mine_left = len(view.hand) - 1
        if not view.deck_size and others_left + mine_left == 0:
            parts["leftovers"] = self._leftovers(table, last, 1.0)
            return parts
        nxt = self._next_opponent(mine_left)
        if nxt is not None and table:
            cost, tabbe = self.next_cost(tuple(sorted(table)), nxt)
            parts["next"] = NEXT_SHARE * costs.shared(cost, tabbe)
            parts["reward"] = NEXT_SHARE * tabbe * self.rules.reward_points
        if view.is_last_deal:
            chance = LAST_SAFE ** (others_left + mine_left)
            parts["leftovers"] = self._leftovers(table, last, chance)
        return parts

    def _leftovers(self, table: Sequence[Card], last: int | None, chance: float) -> float:
        """The leftovers' points going to the last capturer, as it stands, with ``chance``."""
        if last is None or not table:
            return 0.0
        points = chance * sum(self.costs.worth[c] for c in table)
        if self.view.side_of(last) == self.me:
            return -points
        return points / self.costs.others

    def _next_opponent(self, mine_left: int) -> int | None:
        """How many cards the next player holds (after this seat, every seating puts an
        opponent), or None when the round ends first."""
        view = self.view
        for step in range(1, view.players):
            seat = (view.seat + step) % view.players
            if view.hand_sizes[seat]:
                return view.hand_sizes[seat]
        if mine_left or not view.deck_size:
            return None
        return view.rules.hand_size

    def next_cost(self, table: tuple[Card, ...], held: int) -> tuple[float, float]:
        """The next player's expected cost on ``table`` holding ``held`` hidden cards,
        playing their cheapest card, and the chance that it is a forced tabbe."""
        key = (table, held)
        known = self._memo.get(key)
        if known is None:
            known = self._memo[key] = self._next_cost(table, held)
        return known

    def _next_cost(self, table: tuple[Card, ...], held: int) -> tuple[float, float]:
        plays = []
        for card, count in self.hidden.items():
            cost, tabbe = self.costs.cheapest(card, table)
            plays.append((cost, tabbe, count))
        plays.sort(key=lambda p: p[0])
        return _expected_min(plays, self.pool, min(held, self.pool))


def _expected_min(
    plays: Sequence[tuple[float, bool, int]], pool: int, held: int
) -> tuple[float, float]:
    """E[cost] and P(tabbe) of the cheapest of ``held`` cards drawn from ``pool``:
    ``plays`` are (cost, tabbe, copies), cheapest first; the k-th card in that order is the
    cheapest held when it is held and none before it is."""
    if held <= 0 or pool <= 0:
        return 0.0, 0.0
    total = math.comb(pool, held)
    cost = tabbe = 0.0
    before = 0
    for value, swept, count in plays:
        for _ in range(count):
            chance = math.comb(pool - before - 1, held - 1) / total
            cost += value * chance
            tabbe += swept * chance
            before += 1
            if pool - before < held:
                return cost, tabbe
    return cost, tabbe


def ranked(view: SeatView, moves: Sequence[Move] | None = None) -> list[tuple[float, Move]]:
    """Moves with their scores, best first (ties in a fixed order)."""
    judge = KrypJudge(view)
    moves = moves_of(view) if moves is None else moves
    scored = [(judge.score(m), m) for m in moves]
    scored.sort(key=lambda item: (-item[0], str(item[1])))
    return scored


def easy_choice(view: SeatView, rng: random.Random, careless: float) -> Move:
    """A beginner's move: krypa with a random card when it can, else the capture that
    looks cheapest (points, a tabbe), now and then another one."""
    moves = moves_of(view)
    krypa = [m for m in moves if not m.taken]
    if krypa:
        return rng.choice(krypa)
    if len(moves) > 1 and rng.random() < careless:
        return rng.choice(moves)
    costs = Costs(view.rules, view.sides)
    size = len(view.table)
    looks = [costs.capture(m.card, m.taken, size) for m in moves]
    least = min(looks)
    return rng.choice([m for m, c in zip(moves, looks, strict=True) if c == least])


class KrypRollout(SimRollout):
    """The search's greedy policy and leaf values in Krypkasino, for one decision."""

    def __init__(self, view: SeatView) -> None:
        self.rules = view.rules
        self.me = view.side
        self.costs = Costs(view.rules, view.sides)
        self.work = 0.0  # the search's steps, weighed (see hard.WORK_PER_MS)

    def greedy(self, sim: Sim) -> tuple[Card, tuple[Card, ...], float]:
        """The greedy move of the seat to move, and what it costs its side (negated)."""
        from .hard import CARD_WORK, PLY_WORK  # the search's work units

        seat, table, costs = sim.to_move, sim.table, self.costs
        threat = _next_hand(sim, seat)
        best: tuple[float, Card, tuple[Card, ...]] | None = None
        hand = sim.hands[seat]
        self.work += PLY_WORK + (CARD_WORK + OPTION_WORK) * len(hand)
        for card, taken in actions(self.rules, hand, table):
            self.work += MOVE_WORK
            if taken:
                gain = -costs.capture(card, taken, len(table))
                left = _without(table, taken)
            else:
                gain = SHED * costs.worth[card]
                left = sorted([*table, card])
            if threat and left and len(left) <= THREAT_TABLE:
                gain += self._forced(left, threat)
            if best is None or gain > best[0]:
                best = (gain, card, taken)
        assert best is not None
        gain, card, taken = best
        return card, taken, gain

    def _forced(self, table: list[Card], hand: Sequence[Card]) -> float:
        """What the next player's cheapest play on ``table`` is worth to the mover: their
        cost shared among the opponents, and the reward if it is a forced tabbe."""
        from .hard import THREAT_WORK

        self.work += (THREAT_WORK + OPTION_WORK) * len(hand)
        cheapest = self.costs.cheapest
        best = min((cheapest(c, table, True) for c in dict.fromkeys(hand)), default=(0, 0))
        cost, tabbe = best
        return self.costs.shared(cost, tabbe) + tabbe * self.rules.reward_points

    def leaf(self, sim: Sim) -> float:
        """The position's value for the searching side: points so far, the side to move
        charged a share of its cheapest play."""
        if sim.over:
            return self.final(sim)
        values = [float(p) for p in sim.live()]
        if sim.table:
            _, _, gain = self.greedy(sim)
            if gain < 0:
                values[sim.sides[sim.to_move]] -= LEAF_SHARE * gain
        return -objective(values, self.me)

    def final(self, sim: Sim) -> float:
        """The value of a finished round for the searching side (fewer points is better)."""
        return -objective(sim.round_points(), self.me)


def _next_hand(sim: Sim, seat: int) -> list[Card]:
    """The hand of the next player to move after ``seat`` (always an opponent)."""
    for step in range(1, sim.players):
        nxt = (seat + step) % sim.players
        if sim.hands[nxt]:
            return sim.hands[nxt]
    return []


def _without(table: Sequence[Card], taken: Sequence[Card]) -> list[Card]:
    left = list(table)
    for card in taken:
        left.remove(card)
    return left
