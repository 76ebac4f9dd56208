"""The moves a seat may consider: every trail, capture (and build), trimmed on huge tables.

On a table of more than ``BIG_TABLE`` cards (rare outside careless play) listing every
partial capture costs more than it can be worth, so only maximal captures are kept.
"""

from __future__ import annotations

from bot.engine import Move, all_captures, capture_options

from .buildmoves import building_moves
from .view import SeatView

MAX_PER_CARD = 24  # beyond this many captures for one card, keep the biggest ones
BIG_TABLE = 12  # above this many table cards, only maximal captures are listed


def moves_of(view: SeatView) -> list[Move]:
    """Legal moves for the seat of ``view``: trails, and captures (all on normal tables);
    in the building games also builds (see :mod:`.buildmoves`)."""
    if view.rules.builds:
        return building_moves(view.position())
    if view.rules.forced_capture:  # Krypkasino: the engine's forced choices (hand and table)
        limit = MAX_PER_CARD // 2 if len(view.table) > BIG_TABLE else None
        return view.position().legal_moves(limit)
    rules, table = view.rules, view.table
    moves: list[Move] = []
    for card in dict.fromkeys(view.hand):
        moves.append(Move(card))
        if not table:
            continue
        if len(table) > BIG_TABLE:
            found = capture_options(rules, card, table, limit=MAX_PER_CARD // 2)
        else:
            found = all_captures(rules, card, table)
        if len(found) > MAX_PER_CARD:
            maximal = capture_options(rules, card, table, limit=MAX_PER_CARD // 2)
            found = list(dict.fromkeys([*maximal, *found[:MAX_PER_CARD]]))
        moves.extend(Move(card, taken) for taken in found)
    return list(dict.fromkeys(moves))
