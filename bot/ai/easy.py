"""The ``easy`` player: a beginner who takes what catches the eye.

It always captures when it can, choosing by a naive count (points, then cards) with a
careless streak: now and then it takes some other capture. With nothing to take it trails
a card at random (in the building games it may as well build at random, and it must when
it owns a build), never thinking about what it leaves for the next player.
"""

from __future__ import annotations

import random

from bot.engine import Move, Rules

from . import kryp
from .candidates import moves_of
from .values import card_worth
from .view import SeatView, cards_of

CARELESS = 0.3  # chance of taking some capture other than the best-looking one


def naive_worth(rules: Rules, move: Move, table_size: int) -> float:
    """What a beginner sees in a capture: points, a tabbe, then the number of cards."""
    taken = (move.card, *(c for item in move.taken for c in cards_of(item)))
    worth = sum(card_worth(rules, c) for c in taken) + 0.2 * len(taken)
    if move.taken and len(move.taken) == table_size:
        worth += 1
    return worth


def choose(view: SeatView, rng: random.Random) -> Move:
    """The ``easy`` player's move (in Krypkasino, where points are bad, it krypar with a
    random card when it can and else takes what looks cheapest)."""
    if kryp.is_kryp(view.rules):
        return kryp.easy_choice(view, rng, CARELESS)
    moves = moves_of(view)
    takes = [m for m in moves if m.taken]
    if not takes:
        return rng.choice(moves)
    if len(takes) > 1 and rng.random() < CARELESS:
        return rng.choice(takes)
    worths = [naive_worth(view.rules, m, len(view.table)) for m in takes]
    best = max(worths)
    return rng.choice([m for m, w in zip(takes, worths, strict=True) if w == best])
