"""Match points: what one table's result is worth to each person at it.

The rule (docs/rules.md, "Tournaments"): a bye is worth 1. At a table of ``k`` sides
(players, or partnerships where partners play together) each other side finished ahead of
is worth ``1/(k-1)`` and each side at an equal place half that, so a two-player win is 1
and a loss 0, and a table's match points always add up to half its number of sides.
Partners share their side's points. Computer fillers count as sides at the table but earn
nothing (they are not in the standings).

Fractions, not floats: sums of thirds and fifths must compare equal when they are equal.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from bot.models import GameOptions
from bot.tournaments.model import Result


def sides_at(options: GameOptions | None, players: int) -> int:
    """How many sides score at a table of ``players`` under these options: one per player,
    or one per partnership (four at Casino play in pairs; Krypkasino's teams). Without
    options every player is a side."""
    if options is None or players < 2:
        return max(players, 1)
    return _sides(options, players)


@functools.cache
def _sides(options: GameOptions, players: int) -> int:
    """:func:`sides_at` for a real table (cached: building the rules is slow)."""
    try:
        rules = options.rules(players)
        rules.check_players(players)
    except ValueError:
        return players
    return rules.sides(players)


def side_of_seat(seat: int, sides: int) -> int:
    """The side a table seat plays for: partners sit alternately, as in the engine, so a
    seat's side is its seat modulo the number of sides."""
    return seat % sides


def exact_match_points(result: Result, *, sides: int | None = None) -> dict[int, Fraction]:
    """:func:`match_points` as exact fractions (for sorting and sums)."""
    table = result.table
    if table.bye:
        return {p: Fraction(1) for p in table.people}
    count = len(table.players)
    sides = count if sides is None else sides
    place: dict[int, int] = {}
    for seat, side_place in enumerate(result.places):
        place.setdefault(side_of_seat(seat, sides), side_place)
    points: dict[int, Fraction] = {}
    for seat, player in enumerate(table.players):
        if player is None:
            continue
        mine = side_of_seat(seat, sides)
        earned = Fraction(0)
        for side, other in place.items():
            if side == mine:
                continue
            if place[mine] < other:
                earned += 1
            elif place[mine] == other:
                earned += Fraction(1, 2)
        points[player] = earned / (len(place) - 1) if len(place) > 1 else Fraction(1)
    return points


def match_points(result: Result, *, sides: int | None = None) -> dict[int, float]:
    """The match points of the people at a table (fillers are left out): a bye 1; at a
    table of ``k`` sides each other side finished ahead of ``1/(k-1)``, an equal place half
    that. ``sides``: the number of sides at the table when partners play together (seat
    ``i`` plays for side ``i % sides``); ``None``: every player is a side."""
    return {p: float(v) for p, v in exact_match_points(result, sides=sides).items()}
