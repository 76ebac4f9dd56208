"""A lean copy of a round for the search: the engine's rules, fewer checks, cheap clones.

The table is kept in card order (the order of cards on the table means nothing).

:class:`Sim` keeps per side only what scoring needs (card, spade and point counts,
sweeps) and plays moves the search already knows to be legal. Its results match the
engine's (``tests/ai/test_sim.py`` plays both side by side).

In Krypkasino (``rules.reward_points``) every penalty counts the moment it is taken, so
the search sees it at once: each card's points (spades too, which the engine adds up at
the end), a tabbe's penalty and the reward of the seat before its capturer all go to
``points``; ``sweeps`` stays at zero.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from functools import lru_cache

from bot.engine import Card, Move, Round, Rules, card_points, is_mulle
from bot.engine.cards import LILLAN, STORAN, full_deck
from bot.engine.scoring import _most, end_items


class Sim:
    """A round in progress, as the search plays it."""

    __slots__ = (
        "cards",
        "dealer",
        "deck",
        "hands",
        "is_last_deal",
        "last_capturer",
        "over",
        "players",
        "points",
        "rules",
        "scores",
        "sides",
        "spades",
        "sweeps",
        "table",
        "to_move",
        "winner",
        "worth",
    )

    rules: Rules
    players: int
    sides: list[int]
    hands: list[list[Card]]
    table: list[Card]
    deck: list[Card]
    cards: list[int]
    spades: list[int]
    points: list[int]
    sweeps: list[int]
    scores: list[int]
    worth: Callable[[Card], int]

    @classmethod
    def from_round(cls, round_: Round) -> Sim:
        """The search's copy of ``round_`` (any position, seen or sampled)."""
        self = cls.__new__(cls)
        rules = self.rules = round_.rules
        self.players = round_.players
        self.sides = [rules.side_of(seat, round_.players) for seat in range(round_.players)]
        self.worth = worth = card_worth_of(rules)
        self.hands = [list(h) for h in round_.hands]
        self.table = sorted(round_.table)  # kept in card order: fewer distinct tables
        self.deck = list(round_.deck)
        count = rules.sides(round_.players)
        self.cards, self.spades, self.points, self.sweeps = (
            [0] * count,
            [0] * count,
            [0] * count,
            [0] * count,
        )
        for seat, pile in enumerate(round_.piles):
            side = self.sides[seat]
            self.cards[side] += len(pile)
            self.spades[side] += sum(c.suit == "S" for c in pile)
            self.points[side] += sum(worth(c) for c in pile)
            self.points[side] += rules.mulle_points * round_.mulles[seat]
            if rules.reward_points:  # Krypkasino: tabbar and rewards are points at once
                self.points[side] += rules.tabbe_points * round_.sweeps[seat]
                self.points[side] -= rules.reward_points * round_.rewards[seat]
            else:
                self.sweeps[side] += round_.sweeps[seat] - round_.void_sweeps[seat]
        self.scores = list(round_.scores)
        self.dealer = round_.dealer
        self.to_move = round_.to_move
        self.is_last_deal = round_.is_last_deal
        self.last_capturer = round_.last_capturer
        self.over = round_.is_over
        self.winner: int | None = None
        return self

    def clone(self) -> Sim:
        """An independent copy."""
        twin = Sim.__new__(Sim)
        twin.rules, twin.players, twin.sides = self.rules, self.players, self.sides
        twin.worth = self.worth
        twin.hands = [list(h) for h in self.hands]
        twin.table, twin.deck = list(self.table), list(self.deck)
        twin.cards, twin.spades = list(self.cards), list(self.spades)
        twin.points, twin.sweeps = list(self.points), list(self.sweeps)
        twin.scores = self.scores
        twin.dealer, twin.to_move = self.dealer, self.to_move
        twin.is_last_deal, twin.last_capturer = self.is_last_deal, self.last_capturer
        twin.over, twin.winner = self.over, self.winner
        return twin

    # -- scores -----------------------------------------------------------------------

    def live(self) -> list[int]:
        """Per side, points already taken this round (aces, storan, lillan, sweeps, mulle)."""
        low = min(self.sweeps) if self.rules.sweep_limits else 0
        return [p + s - low for p, s in zip(self.points, self.sweeps, strict=True)]

    def live_totals(self) -> list[int]:
        """Per side, match points with this round's live items."""
        return [a + b for a, b in zip(self.scores, self.live(), strict=True)]

    def round_points(self) -> list[int]:
        """Per side, the round's points once it is over (live items plus end items)."""
        if self.rules.reward_points:
            return self._kryp_points()
        sistan = None if self.last_capturer is None else self.sides[self.last_capturer]
        ends = end_items(self.rules, _fake_piles(self), sistan)
        return [live + sum(items.values()) for live, items in zip(self.live(), ends, strict=True)]

    def _kryp_points(self) -> list[int]:
        """Krypkasino's round points: everything is counted as taken, but the option
        ``majorities`` (most cards, most spades) at the end."""
        rules = self.rules
        cards = _most(self.cards, rules.cards_points)
        spades = _most(self.spades, rules.most_spades_points)
        return [p + c + s for p, c, s in zip(self.points, cards, spades, strict=True)]

    # -- play -------------------------------------------------------------------------

    def play(self, card: Card, taken: tuple[Card, ...] = ()) -> None:
        """Play a legal move for the seat to move."""
        seat = self.to_move
        self.hands[seat].remove(card)
        if taken:
            self._capture(seat, card, taken)
        else:
            insort(self.table, card)
        self.to_move = (seat + 1) % self.players
        self._settle()

    def play_move(self, move: Move) -> None:
        """:meth:`play` for an engine :class:`Move`."""
        self.play(move.card, move.taken)

    def _capture(self, seat: int, card: Card, taken: tuple[Card, ...]) -> None:
        rules, side = self.rules, self.sides[seat]
        table = self.table
        sweep = len(taken) == len(table)
        if sweep:
            table.clear()
        else:
            for c in taken:
                table.remove(c)
        worth = self.worth
        gained = worth(card) + sum(worth(c) for c in taken)
        self.cards[side] += 1 + len(taken)
        self.spades[side] += (card.suit == "S") + sum(c.suit == "S" for c in taken)
        if is_mulle(rules, card, taken):
            gained += rules.mulle_points
        if sweep and rules.reward_points:  # Krypkasino: the tabbe, and the seat before's reward
            gained += rules.tabbe_points
            self.points[self.sides[(seat - 1) % self.players]] -= rules.reward_points
        elif sweep and not (
            rules.sweep_limits and (self.is_last_deal or max(self.live_totals()) >= 10)
        ):
            self.sweeps[side] += 1
        self.points[side] += gained
        self.last_capturer = seat
        if rules.live:
            self._check_winner()

    def _check_winner(self) -> None:
        totals = self.live_totals()
        best = max(totals)
        if best >= self.rules.target and totals.count(best) == 1:
            self.winner = totals.index(best)
            self.over = True

    def _settle(self) -> None:
        if self.over:
            return
        hands = self.hands
        if not any(hands):
            if self.deck:
                self._deal()
            else:
                self._finish()
                return
        for step in range(self.players):
            seat = (self.to_move + step) % self.players
            if hands[seat]:
                self.to_move = seat
                return

    def _deal(self) -> None:
        rules, deck = self.rules, self.deck
        packet = 2 if rules.deal == "pairs" else 1
        order = [(self.dealer + 1 + i) % self.players for i in range(self.players)]
        at = 0
        for _ in range(rules.hand_size // packet):
            for seat in order:
                self.hands[seat].extend(deck[at : at + packet])
                at += packet
        del deck[:at]
        self.is_last_deal = not deck

    def _finish(self) -> None:
        self.over = True
        if self.last_capturer is not None and self.table:
            side = self.sides[self.last_capturer]
            self.cards[side] += len(self.table)
            self.spades[side] += sum(c.suit == "S" for c in self.table)
            self.points[side] += sum(self.worth(c) for c in self.table)
            self.table = []

    def cards_in_hands(self) -> int:
        """Cards still held by all players."""
        return sum(len(h) for h in self.hands)


def card_worth_of(rules: Rules) -> Callable[[Card], int]:
    """What a captured card scores by itself in the search: the Nordic points, or in
    Krypkasino its penalty points (spades included, see the module docstring)."""
    if not rules.reward_points:
        return card_points
    return kryp_points(rules).__getitem__


@lru_cache(maxsize=16)
@lru_cache(maxsize=16)
def kryp_points(rules: Rules) -> dict[Card, int]:
    """Krypkasino's penalty points per card: storan, lillan, aces, the other spades (one
    table per rule set, shared: read it, never change it)."""
    points = {}
    for card in full_deck():
        worth = rules.ace_points * (card.rank == 1)
        if card is STORAN:
            worth += rules.storan_points
        elif card is LILLAN:
            worth += rules.lillan_points
        if card.suit == "S" and card is not LILLAN:
            worth += rules.spades_points
        points[card] = worth
    return points


_SPADE, _OTHER = Card(1, "S"), Card(1, "H")


def _fake_piles(sim: Sim) -> list[list[Card]]:
    """Piles with the same sizes and spades, all :func:`end_items` looks at."""
    return [[_SPADE] * s + [_OTHER] * (c - s) for c, s in zip(sim.cards, sim.spades, strict=True)]


class SimRollout:
    """What the searches' rollouts over :class:`Sim` share: the lean copy of a sampled
    round, a move played on a copy, and greedy play-outs (a subclass gives ``greedy``)."""

    def world(self, sample: Round) -> Sim:
        """The search's lean copy of a sampled round."""
        return Sim.from_round(sample)

    def after(self, world: Sim, move: Move) -> Sim:
        """A copy of ``world`` with ``move`` played."""
        sim = world.clone()
        sim.play_move(move)
        return sim

    def run(self, sim: Sim, plies: int) -> None:
        """Play ``plies`` greedy moves (fewer if the round or the match ends)."""
        for _ in range(plies):
            if sim.over:
                return
            card, taken, _ = self.greedy(sim)
            sim.play(card, taken)

    def greedy(self, sim: Sim) -> tuple[Card, tuple[Card, ...], float]:
        """The greedy move of the seat to move, and what it is worth to it."""
        raise NotImplementedError
