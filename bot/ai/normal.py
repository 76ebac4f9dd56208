"""The ``normal`` player: a one-move look-ahead with a sound evaluation.

Each move is scored by what it takes (points, the spades and cards majorities, a tabbe,
a mulle), minus what the next player can be expected to take from the table it leaves
(the best capture of each card they might hold, weighted by the chance they hold it, so
an easy tabbe or storan left lying costs what it should), plus sistan in the last deal
and a little for keeping a 10 while storan is out (a 2 while lillan is out).

In the building games a card takes every build of its value whole, and the next player's
own builds are theirs for sure (so leaving them costs, and taking them denies); a build
of this side's is worth its cards times the chance no opponent holds its value before
this seat's next turn (so it builds what it can keep). What a move leaves comes from
:mod:`.outcome`; on busy tables only the moves that look best at a glance are scored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.engine import Build, Card, Move, is_mulle
from bot.engine.cards import LILLAN, STORAN

from . import fastcap, kryp
from .candidates import moves_of
from .outcome import Item, outcome, split
from .values import Marginals, card_worth, majority_points, mulle_worth, objective
from .view import SeatView, cards_of

WIN = 100.0  # reaching the target at once when points count as you go
KEEP_TEN = 0.3  # playing away the last plain 10 while storan is still out
KEEP_TWO = 0.12  # the same for a plain 2 and lillan
FOLLOW_UP = 0.3  # share of this seat's best capture next turn from the table left
FULLY_SCORED = 24  # building games: moves scored in full, the rest dropped at a glance
BUSY, BUSY_SCORED = 10, 6  # on tables of more items, fewer moves scored in full
BIG_TABLE_MASKS = 4  # captures looked at per card on a big table, when guessing
OWN_BUILD = 0.9  # share of a build of this side's, taken next turn if nobody takes it first


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
            self.points[side] += sum(card_worth(rules, c) for c in pile)
            self.points[side] += view.mulle_points[seat]
            if rules.sweeps:
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

    def _worth(self, cards: Sequence[Card]) -> int:
        return sum(card_worth(self.rules, c) for c in cards)

    def _sweep_scores(self) -> bool:
        if not self.rules.sweeps:
            return False
        if not self.rules.sweep_limits:
            return True
        totals = self._live_totals(self.points, self.sweeps)
        return not (self.view.is_last_deal or max(totals) >= 10)

    # -- scoring moves --------------------------------------------------------------------

    def score(self, move: Move) -> float:
        """How good ``move`` is for this seat's side, in expected points."""
        view, me, rules = self.view, self.me, self.rules
        result = outcome(view, move)
        table = list(result.table)
        points, sweeps = list(self.points), list(self.sweeps)
        spades, cards = list(self.spades), list(self.cards)
        last = view.last_capturer
        for seat, card in result.stolen:  # a pile's top card changes sides
            side = view.side_of(seat)
            points[side] -= card_worth(rules, card)
            spades[side] -= card.suit == "S"
            cards[side] -= 1
        if result.gained:
            taken = result.gained
            points[me] += sum(card_worth(rules, c) for c in taken)
            spades[me] += sum(c.suit == "S" for c in taken)
            cards[me] += len(taken)
            if is_mulle(rules, move.card, move.taken):
                points[me] += mulle_worth(rules, move.card)
            if not table and self._sweep_scores():
                sweeps[me] += 1
            last = view.seat
        value = objective(self._values(points, sweeps, spades, cards), me)
        value -= objective(self.base, me)
        if rules.live and result.gained:
            totals = self._live_totals(points, sweeps)
            if (
                totals[me] >= rules.target
                and totals.count(max(totals)) == 1
                and totals[me] == max(totals)
            ):
                value += WIN
        value += self._after(move, table, last, points, sweeps, spades, cards)
        if table:
            value += self._follow_up(move.card, tuple(table))
        return value - self._keeping_cost(move.card)

    def shortlist(self, moves: Sequence[Move], size: int) -> list[Move]:
        """The ``size`` moves that look best at a glance, and a few plain trails: a busy
        building table has hundreds of moves, and scoring one in full asks what the
        next player could take from the table it leaves."""
        if len(moves) <= size:
            return list(moves)
        glance = sorted(moves, key=lambda m: (-self.glance(m), str(m)))
        trails = [m for m in glance if m.is_trail][: max(3, size // 3)]
        return list(dict.fromkeys([*glance[:size], *trails]))

    def glance(self, move: Move) -> float:
        """What a move wins at once, and half of what the builds it makes hold."""
        side, value = self.me, self.marginals.value
        result = outcome(self.view, move)
        gained = sum(value(side, c) for c in result.gained)
        built = sum(value(side, c) for b in result.made for c in b.cards)
        return gained + sum(value(side, c) for _, c in result.stolen) + 0.5 * built

    def _follow_up(self, played: Card, table: tuple[Item, ...]) -> float:
        """This seat's next capture from ``table``: its own builds (if the opponents leave
        them), else a share of the best capture its remaining cards could make."""
        rest = list(self.view.hand)
        rest.remove(played)
        mine = [b for b in table if isinstance(b, Build) and self.view.side_of(b.owner) == self.me]
        if mine:
            return OWN_BUILD * max(self._kept(b, rest) for b in mine)
        best = max((self.best_capture(c, table, self.me) for c in dict.fromkeys(rest)), default=0.0)
        return FOLLOW_UP * best

    def _kept(self, build: Build, rest: Sequence[Card]) -> float:
        """What taking one of this side's builds next turn is worth, times the chance that
        no opponent moving before then holds a card of its value."""
        rules, value = self.rules, self.marginals.value
        catcher = [c for c in rest if build.value in rules.hand_values[c]]
        worth = sum(value(self.me, c) for c in build.cards)
        worth += min((value(self.me, c) for c in catcher), default=0.0)
        takers = sum(n for c, n in self.hidden.items() if build.value in rules.hand_values[c])
        held = sum(n for s, n in enumerate(self.view.hand_sizes) if self.view.side_of(s) != self.me)
        return worth * _none_drawn(self.pool, takers, held)

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
            left = [c for item in table for c in cards_of(item)]
            worth = self.rules.sistan_points + self._worth(left) + 0.1 * len(left)
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
        left = [c for item in table for c in cards_of(item)]
        points[side] += self._worth(left) + self.rules.sistan_points
        spades[side] += sum(c.suit == "S" for c in left)
        cards[side] += len(left)
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

    def _expected_best(self, table: tuple[Item, ...], side: int, held: int) -> float:
        """E[the next player's best capture]; a build of their side's is theirs for sure."""
        sure = max(
            (
                self.build_worth(b, side)
                for b in table
                if isinstance(b, Build) and self.view.side_of(b.owner) == side
            ),
            default=0.0,
        )
        gains = []
        for card, count in self.hidden.items():
            gain = self.best_capture(card, table, side) - sure
            if gain > 0:
                gains.extend([gain] * count)
        gains.sort(reverse=True)
        return sure + expected_max(gains, self.pool, held)

    def build_worth(self, build: Build, side: int) -> float:
        """What taking ``build`` (and a card to take it with) is worth to ``side``."""
        value = self.marginals.value
        return sum(value(side, c) for c in build.cards) + self.marginals.card[side]

    def best_capture(self, card: Card, table: Sequence[Item], side: int) -> float:
        """The most ``side`` gains by playing ``card`` to ``table`` (0 if it cannot take).

        Builds of the card's value are taken whole (all of them at once); a picture
        without a number (Casino) takes one loose card of its rank.
        """
        rules, value = self.rules, self.marginals.value
        loose, builds = split(table) if rules.builds else (table, ())
        numbered = [c for c in loose if rules.table_values[c.rank]] if rules.builds else loose
        wanted = rules.hand_values[card]
        whole = [b for b in builds if b.value in wanted]
        extra = sum(value(side, c) for b in whole for c in b.cards)
        best = value(side, card) + extra if whole else 0.0
        sweep = self._sweep_scores()
        masks = fastcap.masks(rules, card, numbered) if wanted else ()
        if rules.builds and len(numbered) > fastcap.SMALL:
            masks = masks[:BIG_TABLE_MASKS]  # the biggest captures: enough for a guess
        for mask in masks:
            gain = value(side, card) + extra
            full = len(whole) == len(builds) and len(numbered) == len(loose)
            for i, c in enumerate(numbered):
                if mask >> i & 1:
                    gain += value(side, c)
                else:
                    full = False
            if full and sweep:
                gain += 1
            best = max(best, gain)
        if card in loose and (rules.mulle_points or rules.mulle_twin):
            mulle = 2 * value(side, card) + mulle_worth(rules, card) + (len(table) == 1)
            best = max(best, mulle)
        if not wanted:  # a picture without a number pairs with one of its rank
            pairs = [value(side, c) for c in loose if c.rank == card.rank]
            if pairs:
                best = max(best, value(side, card) + max(pairs) + (sweep and len(table) == 1))
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


def _none_drawn(pool: int, good: int, held: int) -> float:
    """The chance that ``held`` cards drawn from ``pool`` include none of ``good``."""
    chance = 1.0
    for i in range(min(held, pool)):
        chance *= max(0, pool - good - i) / (pool - i)
    return chance


def ranked(view: SeatView, moves: Sequence[Move] | None = None) -> list[tuple[float, Move]]:
    """Moves with their scores, best first (ties in a fixed order); Krypkasino's
    reversed objective has its own evaluation (:mod:`.kryp`)."""
    if kryp.is_kryp(view.rules):
        return kryp.ranked(view, moves)
    judge = Judge(view)
    moves = moves_of(view) if moves is None else moves
    if view.rules.builds:
        moves = judge.shortlist(moves, FULLY_SCORED if len(view.table) <= BUSY else BUSY_SCORED)
    scored = [(judge.score(m), m) for m in moves]
    scored.sort(key=lambda item: (-item[0], str(item[1])))
    return scored


def choose(view: SeatView) -> Move:
    """The ``normal`` player's move."""
    return ranked(view)[0][1]
