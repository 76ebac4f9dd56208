"""Skill ratings: openskill's Plackett–Luce model, pure (no database, no Discord).

A finished match becomes a :class:`Lineup` (its sides in seat order: who sat on each, the
side's final points, the winner), which is stored with every result line
(``results.lineup``) and is all a rating needs: the bot rates from it when a match ends,
and ``python -m bot ratings --rebuild`` rates from the same stored text, so both do the
same float operations in the same order and agree bit for bit.

Ranks: the winner first, the other sides by their final points (equal points tie); where
points are penalties (Krypkasino) the fewest points rank first.
Partnerships are openskill teams. Ratings are kept per server, per variant and per board:
``people`` (matches between people only) and ``computers`` (a computer at the table: the
people's own rating there, against each computer level's fixed rating, which is never
changed). Each person also has a global rating per variant and board, over every rated
match they play anywhere, kept in the same tables under the reserved guild id
:data:`GLOBAL`; :func:`rating_scopes` says which ratings a game moves.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from openskill.models import PlackettLuce

PEOPLE = "people"
COMPUTERS = "computers"
BOARDS = (PEOPLE, COMPUTERS)
PROVISIONAL = 5  # fewer rated matches than this: the rating is provisional ("1480?")
# The shown scale: START + SCALE × (mu − 25), never below 0. SCALE is chosen so that two
# settled ratings 200 shown points apart give the higher one about 75 % to win a
# two-player match by openskill's own ``predict_win`` (its beta is 25/6, so 200 points
# must be ~4.1 mu: 48 points a unit; 27 would make it ~88 %). Display only: no stored
# value changes (tests/bot/test_rating_display.py checks the 75 %).
START = 1500
SCALE = 48.0
# Each computer level's fixed (mu, sigma) on the computers board: a guess at its strength
# on openskill's scale (a new player starts at 25 ± 8.33), certain enough to move nobody's
# rating much when it is wrong.
COMPUTER_RATINGS: dict[str, tuple[float, float]] = {
    "easy": (18.0, 1.0),
    "normal": (25.0, 1.0),
    "hard": (31.0, 1.0),
}
# The guild id of the global ratings (one number per person, variant and board over every
# rated match anywhere). Discord ids are never 0, so no server's ratings can share it.
GLOBAL = 0
CHART_MATCHES = 30  # how many of the last rating changes the profile's picture shows

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a finished match: its seats (``u<user id>`` for a person, ``c:<level>``
    for a computer), its final points, and whether it won."""

    seats: tuple[str, ...]
    points: int
    won: bool


@dataclass(frozen=True, slots=True)
class Lineup:
    """Who played a finished match and how it ended, side by side. ``lowest_wins``: the
    points were penalties (Krypkasino), so fewer is better."""

    sides: tuple[Side, ...]
    lowest_wins: bool = False

    def dumps(self) -> str:
        """As stored in ``results.lineup`` (where the lowest wins each side says so, as
        ``"low":true``; the text of every other match is as before)."""
        low = {"low": True} if self.lowest_wins else {}
        return json.dumps(
            [{"seats": list(s.seats), "points": s.points, "won": s.won, **low} for s in self.sides],
            separators=(",", ":"),
        )

    @classmethod
    def loads(cls, text: str) -> Lineup | None:
        """From ``results.lineup`` (``None``: a result from before lineups were kept)."""
        if not text:
            return None
        data = json.loads(text)
        return cls(
            tuple(
                Side(tuple(map(str, s["seats"])), int(s["points"]), bool(s["won"])) for s in data
            ),
            any(bool(s.get("low")) for s in data),
        )

    @property
    def people(self) -> list[int]:
        """The people who played, in seat order of the sides."""
        return [int(seat[1:]) for side in self.sides for seat in side.seats if seat[0] == "u"]

    @property
    def has_computers(self) -> bool:
        """Whether a computer played."""
        return any(seat.startswith("c:") for side in self.sides for seat in side.seats)

    @property
    def board(self) -> str:
        """The board the match is rated on."""
        return COMPUTERS if self.has_computers else PEOPLE

    @property
    def rated(self) -> bool:
        """Whether the match moves ratings: two sides at least, and a person playing."""
        return len(self.sides) >= 2 and bool(self.people)

    def ranks(self) -> list[int]:
        """Each side's place (0 best): the winner first, then by points (most first, or
        where the lowest wins fewest first); equal points tie (competition ranking: 0, 1,
        1, 3)."""
        sign = 1 if self.lowest_wins else -1
        keys = [(0 if side.won else 1, sign * side.points) for side in self.sides]
        return [sum(other < key for other in keys) for key in keys]


@dataclass(frozen=True, slots=True)
class Rating:
    """A person's rating on one board: openskill's mean and uncertainty."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def points(self) -> int:
        """The shown rating (:func:`points`)."""
        return points(self.mu)


def rate(lineup: Lineup, current: Mapping[int, Rating]) -> dict[int, Rating]:
    """Every person's rating after the match, from ``current`` (a person missing from it
    starts new). Computers play at their level's fixed rating, which is not returned."""
    teams = []
    for side in lineup.sides:
        team = []
        for seat in side.seats:
            if seat.startswith("c:"):
                mu, sigma = COMPUTER_RATINGS.get(seat[2:], COMPUTER_RATINGS["normal"])
            else:
                held = current.get(int(seat[1:])) or Rating()
                mu, sigma = held.mu, held.sigma
            team.append(MODEL.rating(mu=mu, sigma=sigma))
        teams.append(team)
    after = MODEL.rate(teams, ranks=lineup.ranks())
    new: dict[int, Rating] = {}
    for side, team in zip(lineup.sides, after, strict=True):
        for seat, player in zip(side.seats, team, strict=True):
            if seat.startswith("u"):
                new[int(seat[1:])] = Rating(float(player.mu), float(player.sigma))
    return new


def rating_scopes(guild_id: int | None) -> tuple[int, ...]:
    """The ratings a rated game moves, by the guild ids they are kept under: a server's
    game its server's and the global one (in this order: the order their locks are
    taken in), a game with no server (a DM, a group DM) only the global one."""
    if guild_id:
        return (int(guild_id), GLOBAL)
    return (GLOBAL,)


def points(mu: float) -> int:
    """The rating people read: openskill's mean on the shown scale (1500 for a new player,
    ``SCALE`` points per unit of mu), never below 0. Stored values are never changed: this
    is display only."""
    if not math.isfinite(mu):
        return START
    return max(0, round(START + SCALE * (mu - MODEL.mu)))


def spread(sigma: float) -> int:
    """The uncertainty (one sigma) on the shown scale: the rating probably lies within
    this many points of the shown one."""
    return round(SCALE * sigma) if math.isfinite(sigma) else 0


class Standing(Enum):
    """Where a person stands on a board: the one rule the profile, the boards and
    ``/kasino versus`` share."""

    UNRATED = "unrated"  # no rated match on this board
    PROVISIONAL = "provisional"  # fewer than PROVISIONAL rated matches: shown with "?"
    RATED = "rated"


def standing(matches: int) -> Standing:
    """A person's standing from their rated matches on a board."""
    if matches <= 0:
        return Standing.UNRATED
    return Standing.PROVISIONAL if matches < PROVISIONAL else Standing.RATED


def shown(mu: float, matches: int) -> str:
    """A rating as people read it: ``1540``, or ``1480?`` while provisional (an integer
    on a fixed scale, written without separators like any game rating); a person not
    rated yet shows the start, ``1500?``."""
    if standing(matches) is Standing.RATED:
        return str(points(mu))
    return f"{points(mu) if matches > 0 else START}?"


def lineup_of(
    seat_sides: Sequence[tuple[int, str]],
    points: Sequence[int],
    winner: int,
    lowest_wins: bool = False,
) -> Lineup:
    """A lineup from the seats (``(side, key)`` in seat order) and each side's points."""
    sides = []
    for index, score in enumerate(points):
        seats = tuple(key for side, key in seat_sides if side == index)
        sides.append(Side(seats, int(score), index == winner))
    return Lineup(tuple(sides), lowest_wins)
