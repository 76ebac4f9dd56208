"""What the storage keeps, in either database: the records, the errors, and a game's row
(its columns, how a :class:`~bot.models.Game` becomes one and comes back)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.models import Game, GameOptions, Seat, Status, Timer
from bot.nonces import new_key
from bot.records import ratings
from bot.stages import courier_of

GAME_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, options, seats, state, version, message_id,"
    " ping_id, deadline, timer, last_move, extra, created_at"
)
# where a game row holds its ``extra`` (read on its own from a row that cannot be loaded)
EXTRA_AT = [name.strip() for name in GAME_COLUMNS.split(",")].index("extra")


class CorruptGame(Exception):
    """A game row whose saved form cannot be loaded; says where to report it."""

    def __init__(
        self, game_id: int, guild_id: int, channel_id: int, reason: str, courier: str = "channel"
    ) -> None:
        super().__init__(f"game {game_id} cannot be loaded: {reason}")
        self.game_id = game_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.reason = reason
        self.courier = courier  # how its channel is reached (bot.stages): where to say so


class StaleGame(Exception):
    """A save from a copy of a game that is older than the database's row."""


class ChannelBusy(Exception):
    """A channel already has a lobby or a match; ``game_id`` names it."""

    def __init__(self, game_id: int | None) -> None:
        super().__init__(f"channel already has game {game_id}")
        self.game_id = game_id


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One accepted move for the log (public information only: the card was played)."""

    seat: int
    card: str
    taken: tuple[str, ...]
    auto: bool = False
    round: int | None = None  # the round it was played in, from 1
    move: str | None = None  # the whole move, ``Move.to_dict()`` as JSON (for replays)
    seal: str | None = None  # its hash in the sealed log (bot.records.seal; None: no log)


@dataclass(frozen=True, slots=True)
class StoredMove:
    """A row of the move log as read back (``round`` and ``move`` are ``None`` in rows
    written before replays existed, ``seal`` in rows of games dealt before moves were
    sealed)."""

    version: int
    seat: int
    card: str
    taken: str
    auto: bool
    at: float
    round: int | None
    move: str | None
    seal: str | None = None  # its hash in the sealed log (None: a game without one)


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """A finished match on a history page: its ``summary`` holds the seats (name, kind,
    level, side), ``teams``, ``target``, final ``scores`` per side and the ``winner``."""

    game_id: int
    variant: str
    finished_at: float
    summary: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ResultRecord:
    """One player's line for the leaderboard when a match ends.

    ``vs_computer``: a computer player was at the table (a separate board); ``hinted``:
    hints were on. For the profile: ``rounds`` played, rounds in which the player's side
    took ``storan`` and ``lillan``, ``aces`` the side took, and ``lineup`` (the match's
    sides as :class:`bot.records.ratings.Lineup` stores them; empty: not rated).
    """

    user_id: int
    side: int
    won: bool
    points: int
    tabbar: int
    vs_computer: bool = False
    hinted: bool = False
    rounds: int = 0
    storan: int = 0
    lillan: int = 0
    aces: int = 0
    lineup: str = ""


@dataclass(slots=True)
class Outgoing:
    """A message a game's channel must still be shown: a row of the durable outbox.

    Written in the same transaction as the change it shows (so a process killed before it
    is posted leaves it to the next one) and deleted once posted. ``body`` is what to post,
    as :class:`cogs.play.outbox.Post` writes it; ``table``: it replaces the game's table, so it
    replaces any older table of the game still waiting. ``nonce_key``: the random key its
    post's Discord nonce is made of (:mod:`bot.nonces`), stored with it, so a retry after
    a kill sends the same nonce and no other post ever does. ``courier``: how it reaches
    the channel (:mod:`bot.stages`): a ``channel`` row is posted by the channel's worker,
    an ``interaction`` row waits for the next click at the game's table. ``post`` is the live object
    it was written from (not stored), which spares reading ``body`` again in the same
    process.
    """

    game_id: int
    guild_id: int
    channel_id: int
    body: str
    table: bool = False
    id: int | None = None
    post: Any = field(default=None, repr=False, compare=False)
    nonce_key: str = field(default_factory=new_key)
    courier: str = "channel"


@dataclass(frozen=True, slots=True)
class BoardRow:
    """A leaderboard line: one player's totals on one board (``hinted``: how many of the
    matches were played with hints)."""

    user_id: int
    wins: int
    matches: int
    points: int
    tabbar: int
    hinted: int = 0

    @property
    def win_rate(self) -> float:
        """Wins per match, 0..1."""
        return self.wins / self.matches if self.matches else 0.0


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A rating board line: one person's rating on one board of one variant, with their
    rated matches, wins and matches played with hints."""

    user_id: int
    mu: float
    sigma: float
    matches: int
    wins: int
    hinted: int = 0

    @property
    def standing(self) -> ratings.Standing:
        """Rated, provisional or not rated (:func:`bot.records.ratings.standing`)."""
        return ratings.standing(self.matches)

    @property
    def shown(self) -> str:
        """The rating as people read it: ``1540``, or ``1480?`` while provisional."""
        return ratings.shown(self.mu, self.matches)

    @property
    def win_rate(self) -> float:
        """Wins per match, 0..1."""
        return self.wins / self.matches if self.matches else 0.0


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One stored result as the profile lists it."""

    game_id: int
    variant: str
    won: bool
    points: int
    vs_computer: bool
    lineup: str
    finished_at: float


@dataclass(frozen=True, slots=True)
class Totals:
    """A person's totals over some results (one variant or all; people or computers)."""

    matches: int = 0
    wins: int = 0
    points: int = 0
    tabbar: int = 0
    rounds: int = 0
    storan: int = 0
    lillan: int = 0
    aces: int = 0

    def __add__(self, other: Totals) -> Totals:
        return Totals(*(a + b for a, b in zip(_fields(self), _fields(other), strict=True)))


def _fields(totals: Totals) -> tuple[int, ...]:
    return (totals.matches, totals.wins, totals.points, totals.tabbar, totals.rounds,
            totals.storan, totals.lillan, totals.aces)  # fmt: skip


def _load_match(state: str | None) -> Any:
    if state is None:
        return None
    from bot.engine import Match

    return Match.from_dict(json.loads(state))


def row_to_game(row: Sequence[Any]) -> Game:
    """A game from its row; :class:`CorruptGame` if any part of it cannot be read."""
    try:
        return _parse_row(row)
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as error:
        gid, guild, channel = (_int_or_zero(value) for value in row[:3])
        reason = str(error)[:200] or type(error).__name__
        extra = row[EXTRA_AT] if len(row) > EXTRA_AT else None
        courier = str(courier_of(_readable_extra(extra)))
        raise CorruptGame(gid, guild, channel, reason, courier) from None


def _readable_extra(text: Any) -> dict[str, Any]:
    """A damaged row's ``extra``, if it can still be read (else ``{}``)."""
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def _int_or_zero(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _parse_row(row: Sequence[Any]) -> Game:
    (
        gid,
        guild,
        channel,
        host,
        status,
        options,
        seats,
        state,
        version,
        message,
        ping,
        deadline,
        timer,
        last_move,
        extra,
        created,
    ) = row
    game = Game(
        id=gid,
        guild_id=guild,
        channel_id=channel,
        host_id=host,
        options=GameOptions(**_json_object(options)),
        seats=[Seat.from_dict(s) for s in json.loads(seats)],
        status=Status(status),
        version=version,
        match=_load_match(state),
        message_id=message,
        ping_id=ping,
        deadline=deadline,
        timer=Timer(timer) if timer else None,
        last_move=last_move,
        created_at=created,
        extra=_json_object(extra),
        stored_version=version,
    )
    if game.status is Status.PLAYING and game.match is None:
        raise ValueError("a game in play has no saved match")
    if game.match is not None and (
        game.match.players != len(game.seats) or game.match.rules.name != game.options.variant
    ):
        raise ValueError("the match disagrees with the game's seats or options")
    return game


def _json_object(text: str) -> dict[str, Any]:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, not {type(value).__name__}")
    return value


def _options_json(game: Game) -> str:
    opts = game.options
    return json.dumps(
        {
            "variant": opts.variant,
            "target": opts.target,
            "teams": opts.teams,
            "turn_seconds": opts.turn_seconds,
            **opts.switches,
            **opts.kryp_options,
            # a correspondence game's pace (a live game's row is as before it existed)
            **({"pace": opts.pace} if opts.correspondence else {}),
        }
    )


# How each written column of ``games`` is made from a game (all but ``id``,
# ``created_at`` and ``updated_at``): saved state, seats, options and extras are JSON text.
COLUMN_VALUES: dict[str, Callable[[Game], Any]] = {
    "guild_id": lambda game: game.guild_id,
    "channel_id": lambda game: game.channel_id,
    "host_id": lambda game: game.host_id,
    "status": lambda game: str(game.status),
    "options": _options_json,
    "seats": lambda game: json.dumps(game.seats_json()),
    "state": lambda game: json.dumps(game.match.to_dict()) if game.match is not None else None,
    "version": lambda game: game.version,
    "message_id": lambda game: game.message_id,
    "ping_id": lambda game: game.ping_id,
    "deadline": lambda game: game.deadline,
    "timer": lambda game: str(game.timer) if game.timer else None,
    "last_move": lambda game: game.last_move,
    "extra": lambda game: json.dumps(game.extra),
}


def game_values(game: Game, columns: Sequence[str] | None = None) -> dict[str, Any]:
    """A game's columns as they are written (``columns``: only those; default all of
    :data:`COLUMN_VALUES`)."""
    return {column: COLUMN_VALUES[column](game) for column in columns or COLUMN_VALUES}
