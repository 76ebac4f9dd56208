"""The standings: everyone's record, in the documented order.

The order (docs/rules.md, "Tournaments"):

1. match points (:mod:`bot.tournaments.points`), most first;
2. the opponents' match-win share: the average, over every opponent met (once per
   meeting; byes and computer fillers are no opponents), of that opponent's match points
   divided by the rounds they played (their byes included), each at least 1/3;
3. the points difference: at each table, one's own side's match score minus the average
   of the other sides' scores, summed over the tables (reversed where the lowest total
   wins, Krypkasino, so that a higher difference is always better);
4. the seeded draw (:func:`draw_key`), so no two ranks are ever equal.

Dropped players keep their line (marked ``dropped``) and are ranked like everyone else.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from bot.models import GameOptions
from bot.tournaments.model import Entrant, Result, Standing
from bot.tournaments.points import exact_match_points, side_of_seat, sides_at

FLOOR = Fraction(1, 3)  # the least match-win share an opponent counts with


def draw_key(seed: str, user_id: int) -> int:
    """The seeded draw: a number fixed by the tournament's seed and the player, the lower
    first. Reproducible (no randomness at run time) and unpredictable before the seed is
    drawn."""
    digest = hashlib.sha256(f"{seed}:{user_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(slots=True)
class Record:
    """One person's tournament so far, exact."""

    match_points: Fraction = Fraction(0)
    played: int = 0
    wins: int = 0
    byes: int = 0
    difference: Fraction = Fraction(0)
    opponents: list[int] = field(default_factory=list)  # once per meeting

    @property
    def share(self) -> Fraction:
        """Their match-win share as an opponent: match points per round (byes count as
        rounds), at least 1/3."""
        rounds = self.played + self.byes
        return max(FLOOR, self.match_points / rounds) if rounds else FLOOR


def records(
    results: Sequence[Result], *, lowest_wins: bool, options: GameOptions | None = None
) -> dict[int, Record]:
    """Every person's record from the tables' results. ``options``: the tournament's game
    options, so that partners at a table count as one side."""
    found: dict[int, Record] = {}
    for result in results:
        table = result.table
        if table.bye:
            for person in table.people:
                record = found.setdefault(person, Record())
                record.byes += 1
                record.match_points += 1
            continue
        sides = sides_at(options, len(table.players))
        points = exact_match_points(result, sides=sides)
        score: dict[int, int] = {}
        place: dict[int, int] = {}
        for seat, value in enumerate(result.points):
            score.setdefault(side_of_seat(seat, sides), value)
            place.setdefault(side_of_seat(seat, sides), result.places[seat])
        for seat, person in enumerate(table.players):
            if person is None:
                continue
            mine = side_of_seat(seat, sides)
            record = found.setdefault(person, Record())
            record.played += 1
            record.match_points += points[person]
            others = [s for s in score if s != mine]
            if place[mine] == 0 and all(place[s] > 0 for s in others):
                record.wins += 1
            if others:
                against = Fraction(sum(score[s] for s in others), len(others))
                gained = score[mine] - against
                record.difference += -gained if lowest_wins else gained
            record.opponents.extend(
                other
                for other_seat, other in enumerate(table.players)
                if other is not None and side_of_seat(other_seat, sides) != mine
            )
    return found


def opponents_share(record: Record, everyone: dict[int, Record]) -> Fraction:
    """The average match-win share of the opponents met (0 before any)."""
    if not record.opponents:
        return Fraction(0)
    total = sum((everyone[o].share for o in record.opponents), Fraction(0))
    return total / len(record.opponents)


def sort_key(
    user_id: int, record: Record, everyone: dict[int, Record], seed: str
) -> tuple[Fraction, Fraction, Fraction, int]:
    """The standings order as a sort key (smallest first): the documented keys in turn."""
    return (
        -record.match_points,
        -opponents_share(record, everyone),
        -record.difference,
        draw_key(seed, user_id),
    )


def standings(
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    *,
    seed: str,
    lowest_wins: bool,
    options: GameOptions | None = None,
) -> list[Standing]:
    """The standings of ``entrants`` after ``results``, first place first (ranks 1, 2, …
    all different). ``options`` (the tournament's game options) makes partners at a table
    one side; without it every player is a side of their own."""
    everyone = records(results, lowest_wins=lowest_wins, options=options)
    lines = []
    for entrant in entrants:
        record = everyone.get(entrant.user_id, Record())
        key = sort_key(entrant.user_id, record, everyone, seed)
        lines.append((key, entrant, record))
    lines.sort(key=lambda line: line[0])
    return [
        Standing(
            user_id=entrant.user_id,
            rank=rank,
            match_points=float(record.match_points),
            played=record.played,
            wins=record.wins,
            opponents=float(-key[1]),
            difference=float(record.difference),
            byes=record.byes,
            dropped=not entrant.active,
        )
        for rank, (key, entrant, record) in enumerate(lines, start=1)
    ]
