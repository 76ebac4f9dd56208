"""What one seat may know about a round, and sampled worlds consistent with it.

A :class:`SeatView` holds only public facts (the table, every captured pile, sweeps,
scores, hand sizes, the size of the deck) and the seat's own hand. The computer players
read nothing else, so they cannot cheat: the cards they cannot see (other hands and the
undealt deck) are only known as a pool, and the search fills them in by sampling.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from bot.engine import Card, Round, Rules
from bot.engine.cards import full_deck


@dataclass(frozen=True)
class SeatView:
    """One seat's knowledge of a round in progress (see the module docstring)."""

    rules: Rules
    players: int
    seat: int
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    piles: tuple[tuple[Card, ...], ...]
    sweeps: tuple[int, ...]
    void_sweeps: tuple[int, ...]
    mulles: tuple[int, ...]
    last_capturer: int | None
    scores: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    dealer: int
    to_move: int
    is_last_deal: bool

    @classmethod
    def of(cls, round_: Round, seat: int) -> SeatView:
        """The view ``seat`` has of ``round_``."""
        if not isinstance(seat, int) or not 0 <= seat < round_.players:
            raise ValueError(f"seat must be 0..{round_.players - 1}, not {seat!r}")
        return cls(
            rules=round_.rules,
            players=round_.players,
            seat=seat,
            hand=tuple(round_.hands[seat]),
            table=tuple(round_.table),
            piles=tuple(tuple(p) for p in round_.piles),
            sweeps=tuple(round_.sweeps),
            void_sweeps=tuple(round_.void_sweeps),
            mulles=tuple(round_.mulles),
            last_capturer=round_.last_capturer,
            scores=tuple(round_.scores),
            hand_sizes=tuple(len(h) for h in round_.hands),
            deck_size=len(round_.deck),
            dealer=round_.dealer,
            to_move=round_.to_move,
            is_last_deal=round_.is_last_deal,
        )

    @property
    def side(self) -> int:
        """The side (team or player) this seat scores for."""
        return self.rules.side_of(self.seat)

    @property
    def sides(self) -> int:
        """How many sides score."""
        return self.rules.sides(self.players)

    def side_of(self, seat: int) -> int:
        """The side ``seat`` scores for."""
        return self.rules.side_of(seat)

    def hidden(self) -> list[Card]:
        """The cards this seat cannot see (other hands and the deck), in card order."""
        pool = Counter(full_deck(self.rules.decks))
        pool.subtract(self.hand)
        pool.subtract(self.table)
        for pile in self.piles:
            pool.subtract(pile)
        return sorted(pool.elements())

    def unseen_count(self, card: Card) -> int:
        """How many copies of ``card`` are hidden from this seat."""
        seen = self.hand.count(card) + self.table.count(card)
        seen += sum(pile.count(card) for pile in self.piles)
        return self.rules.decks - seen

    def sample(self, rng: random.Random, hidden: list[Card] | None = None) -> Round:
        """A full round consistent with this view, the hidden cards dealt at random."""
        pool = list(self.hidden() if hidden is None else hidden)
        rng.shuffle(pool)
        hands: list[list[Card]] = []
        for seat, size in enumerate(self.hand_sizes):
            if seat == self.seat:
                hands.append(list(self.hand))
            else:
                hands.append(pool[:size])
                del pool[:size]
        world = Round.from_position(
            self.rules,
            hands,
            self.table,
            pool,
            dealer=self.dealer,
            to_move=self.to_move,
            piles=self.piles,
            sweeps=self.sweeps,
            last_capturer=self.last_capturer,
            scores=self.scores,
            last_deal=self.is_last_deal,
        )
        world.void_sweeps = list(self.void_sweeps)
        world.mulles = list(self.mulles)
        return world
