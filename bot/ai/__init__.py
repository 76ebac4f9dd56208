"""Computer players for Kasino: ``easy``, ``normal`` and ``hard``; and hints.

``choose_move(round, seat, level)`` is all a game needs, in every variant, the building
games included. The players see a round only through :class:`SeatView` (their own hand
and what is public: the table with its builds and owners, the capture piles), so they
never cheat. In
Krypkasino, where every point is a penalty, they play to avoid points and tabbar
(:mod:`.kryp`), and the hints say why a move avoids them (:mod:`.explainkryp`). The
functions are pure apart from the time they take, so they may run in a worker thread.
"""

from __future__ import annotations

import random

from bot.engine import Move, Round
from bot.i18n import EN, Lang

from . import easy, hard, normal
from .buildmoves import building_moves
from .explain import explain_move
from .stop import Stop
from .view import SeatView

LEVELS = ("easy", "normal", "hard")


def choose_move(
    round: Round, seat: int, level: str, seed: object = None, budget_ms: float | None = None
) -> Move:
    """The move the computer player of ``level`` makes for ``seat``, the seat to move.

    ``seed`` makes the choice reproducible: the same seed and the same view of the round
    (whatever the cards this seat cannot see) give the same move. ``budget_ms`` bounds
    the typical thinking time of ``hard`` (default 75 ms; a full hand gets up to 5 times
    as much, the last card less, a building game's every move twice; ``easy`` and
    ``normal`` take about a millisecond, and at worst a few hundred on the huge tables of
    rounds in which everyone trails). The search counts its own work and with a seed
    stops on that alone, never on the clock, so the result does not depend on the
    machine's speed or load (its time grows with the load, its work does not); without a
    seed it also stops when the budget's time runs out. Raises ``ValueError`` for an
    unknown level, a round that is over, or a seat not to move.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    if round.is_over:
        raise ValueError("the round is over")
    if seat != round.to_move:
        raise ValueError(f"seat {seat} is not to move (seat {round.to_move} is)")
    view = SeatView.of(round, seat)
    rng = random.Random(_seed_text(seed, view)) if seed is not None else random.Random()
    move = _choose(view, rng, level, seed, budget_ms)
    if view.rules.builds and not round.is_legal(move):
        # The seat's moves follow from its view, but for one case: a Swazi partner may
        # own a build the mover makes for them only if the partner's hand allows it.
        move = normal.ranked(view, building_moves(round))[0][1]
    return move


def _choose(
    view: SeatView, rng: random.Random, level: str, seed: object, budget_ms: float | None
) -> Move:
    if level == "easy":
        return easy.choose(view, rng)
    if level == "normal":
        return normal.choose(view)
    stop = Stop.of(hard.budget_for(view, budget_ms), seeded=seed is not None)
    return hard.choose(view, rng, stop)


def hint(
    round: Round,
    seat: int,
    seed: object = None,
    budget_ms: float | None = None,
    *,
    t: Lang = EN,
) -> tuple[Move, str]:
    """What ``hard`` would play for ``seat`` and why, in one line (in the language ``t``)."""
    move = choose_move(round, seat, "hard", seed=seed, budget_ms=budget_ms)
    return move, explain_move(round, seat, move, t)


def _seed_text(seed: object, view: SeatView) -> str:
    """The seed mixed with the public position, so each decision draws its own worlds."""
    cards = " ".join(map(str, (*view.hand, "|", *view.table)))
    return f"{seed!r}/{view.seat}/{sum(view.hand_sizes)}/{view.deck_size}/{cards}"


__all__ = ["LEVELS", "SeatView", "choose_move", "explain_move", "hint"]
