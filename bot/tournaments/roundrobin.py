"""Round robin: everyone meets everyone once, at 2-player tables (at most 16 players).

The rule (docs/rules.md, "Tournaments"): the circle method. The players take places
0..n-1 in the order of the seeded draw (with an empty place when n is odd, whose partner
has a bye); place 0 stays, the others turn one step each round, and in each round place
``i`` meets place ``n-1-i``. That makes n-1 rounds (n with the empty place), every two
players meeting exactly once. Who sits first: place 0 every other round, otherwise the
player in the first half of the circle, so everyone sits first about half the time. A
player who dropped is not paired: their scheduled opponent has a bye that round.

The schedule is drawn over every entrant, so players can be added only before round 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournaments.model import Entrant, Pairing, Table
from bot.tournaments.standings import draw_key
from bot.tournaments.swiss import in_round

MAX_PLAYERS = 16


def round_robin_rounds(players: int) -> int:
    """The rounds of a round robin: n-1, or n when n is odd (each round someone rests)."""
    if players < 2:
        return 0
    return players - 1 if players % 2 == 0 else players


def circle(places: int, round: int) -> list[tuple[int, int]]:
    """The circle method's meetings in ``round`` (1-based) among ``places`` (even): place 0
    stays, the others turn one step a round, place ``i`` meets place ``places-1-i``."""
    turning = list(range(1, places))
    shift = (round - 1) % (places - 1)
    turning = turning[-shift:] + turning[:-shift] if shift else turning
    ring = [0, *turning]
    return [(ring[i], ring[places - 1 - i]) for i in range(places // 2)]


def round_robin_round(entrants: Sequence[Entrant], round: int, *, seed: str) -> Pairing:
    """The tables of round robin round ``round`` (1-based)."""
    players = sorted(entrants, key=lambda e: draw_key(seed, e.user_id))
    places: list[Entrant | None] = list(players)
    if len(places) % 2:
        places.append(None)
    if len(places) < 2 or not 1 <= round <= round_robin_rounds(len(players)):
        return Pairing(round, ())
    tables: list[Table] = []
    byes: list[int] = []
    for index, (a, b) in enumerate(circle(len(places), round)):
        first, second = places[a], places[b]
        if index == 0 and round % 2 == 0:
            first, second = second, first
        present = [e for e in (first, second) if e is not None and in_round(e, round)]
        if len(present) == 2:
            tables.append(Table(round, len(tables) + 1, (present[0].user_id, present[1].user_id)))
        elif present:
            byes.append(present[0].user_id)
    for player in byes:
        tables.append(Table(round, len(tables) + 1, (player,)))
    return Pairing(round, tuple(tables))
