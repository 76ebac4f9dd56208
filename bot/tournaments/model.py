"""What a tournament is: its settings, its entrants, its rounds' tables and their results.

Plain frozen data, shared by the pairing and standings code, the storage and the cog. A
player is named by their Discord user id; a computer filler has no id and never appears in
standings. Places are 0-based (0 is first) and equal places are shared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from bot.models import GameOptions


class Format(StrEnum):
    """How the rounds are paired."""

    SWISS = "swiss"  # a number of rounds, paired by score
    ROUND_ROBIN = "round-robin"  # everyone meets everyone once (2-player tables)
    KNOCKOUT = "knockout"  # single elimination, seeded by rating (2-player tables)


class Phase(StrEnum):
    """Where a tournament is in its life."""

    SIGNUP = "signup"
    RUNNING = "running"
    PAUSED = "paused"  # no new round starts; tables already playing go on
    FINISHED = "finished"
    CANCELLED = "cancelled"  # ended by the organiser before it started, or with no result

    @property
    def open(self) -> bool:
        """Whether the tournament still has something to run."""
        return self in (Phase.SIGNUP, Phase.RUNNING, Phase.PAUSED)


class Decided(StrEnum):
    """How a table's result came about."""

    PLAYED = "played"  # the match was played to its end
    SCORE = "score"  # unfinished at the round's deadline: ranked by the current score
    FORFEIT = "forfeit"  # someone timed out (abandoned) or dropped: they finish last
    BYE = "bye"  # no opponent this round: a win without points


@dataclass(frozen=True, slots=True)
class Settings:
    """What the organiser chose. ``game`` holds the variant and its rule options, the match
    target and the turn time, exactly as a lobby's. ``rounds``: Swiss only (``None``: the
    default for the number of players). ``round_minutes``: a round's deadline. ``hints``
    and ``fillers`` (computer players completing a table or replacing a bye) are off unless
    the organiser allows them."""

    game: GameOptions
    format: Format = Format.SWISS
    table_size: int = 2
    rounds: int | None = None
    round_minutes: int = 60
    hints: bool = False
    fillers: bool = False
    cap: int = 64


@dataclass(frozen=True, slots=True)
class Entrant:
    """A signed-up player. ``rating``: their rating in the variant when the tournament
    started (seeds the knockout; 0 before). ``dropped``: the round after which they left
    (``None``: still in); they are paired no more but keep their standing."""

    user_id: int
    name: str
    rating: float = 0.0
    dropped: int | None = None

    @property
    def active(self) -> bool:
        """Whether they are still paired."""
        return self.dropped is None


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: its players in seat order (``None`` is a computer filler).
    A table of one player is a bye."""

    round: int  # 1-based
    number: int  # 1-based within the round
    players: tuple[int | None, ...]

    @property
    def bye(self) -> bool:
        """Whether this is a bye (one player, no game)."""
        return len(self.players) == 1

    @property
    def people(self) -> tuple[int, ...]:
        """The players who are people (not fillers)."""
        return tuple(p for p in self.players if p is not None)


@dataclass(frozen=True, slots=True)
class Result:
    """How a table ended. ``places`` and ``points`` follow ``table.players``: each player's
    place (0 first; equal places shared) and their side's match score (penalties in
    Krypkasino). ``game_id``: the match played (``None`` for a bye)."""

    table: Table
    places: tuple[int, ...]
    points: tuple[int, ...]
    decided: Decided = Decided.PLAYED
    game_id: int | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings, in order. ``match_points``: wins count 1 (a bye too),
    and at a table of k players each opponent finished ahead of counts 1/(k-1).
    ``opponents``: the opponents' average match-win share (each at least 1/3).
    ``difference``: points for minus points against (reversed where the lowest wins)."""

    user_id: int
    rank: int  # 1-based; equal ranks never happen (the seeded draw separates)
    match_points: float
    played: int
    wins: int
    opponents: float
    difference: float
    byes: int = 0
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's tables (byes are tables of one)."""

    round: int
    tables: tuple[Table, ...] = field(default_factory=tuple)
