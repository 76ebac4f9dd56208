"""What the other players' trails this deal say about the cards they hold.

A player who trails while holding a card that could take something from the table
rarely does it on purpose; so a sampled world in which such a card was in that hand is
less likely than one in which it was not. The cards held now were all held at every
play since the deal, so each trail this deal bears on the whole hand held now.
The search keeps a sampled world with the odds of its hands (rejection sampling): the
rollouts, the costly part, are spent only on likely worlds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import Card, Round, Rules

from . import fastcap
from .view import SeatView

# How much likelier a trail is with no card that could capture (measured in self-play:
# 0.26 for normal, 0.54 for hard).
TRAIL_ODDS = 0.5
MAX_DRAWS = 12  # worlds drawn for one kept, at most (then the last is kept anyway)


@dataclass(frozen=True)
class Evidence:
    """The other seats' trails this deal, each with the table it was made on."""

    rules: Rules
    trails: tuple[tuple[int, tuple[Card, ...]], ...]

    @classmethod
    def of(cls, view: SeatView) -> Evidence:
        """The evidence in the public plays of the view's current deal."""
        if view.rules.builds or view.rules.forced_capture:
            # Krypkasino: a krypa is made with a card that cannot capture and is the
            # usual choice, so it says nothing about the cards still held.
            return cls(view.rules, ())
        table = list(view.table_cards)
        trails = []
        for seat, card, taken in reversed(view.deal_plays):
            if taken:
                table.extend(taken)
            elif card in table:
                table.remove(card)
                if seat != view.seat and table:
                    trails.append((seat, tuple(sorted(table))))
            else:  # a position set up by hand, whose plays do not lead to it
                return cls(view.rules, ())
        return cls(view.rules, tuple(trails))

    def odds(self, hands: Sequence[Sequence[Card]]) -> float:
        """How likely the trails are with these hands, relative to the likeliest."""
        odds = 1.0
        for seat, table in self.trails:
            if any(fastcap.masks(self.rules, card, table) for card in set(hands[seat])):
                odds *= TRAIL_ODDS
        return odds

    def sample(self, view: SeatView, rng: random.Random, hidden: list[Card]) -> Round:
        """A world consistent with ``view``, drawn with the odds of its hands."""
        world = view.sample(rng, hidden)
        for _ in range(MAX_DRAWS - 1):
            if not self.trails or rng.random() < self.odds(world.hands):
                break
            world = view.sample(rng, hidden)
        return world
