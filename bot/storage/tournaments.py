"""Tournaments in storage (``tournaments``, ``tournament_entrants``, ``tournament_tables``,
``tournament_places``; schema version 13).

A tournament's row holds what the organiser chose (:class:`~bot.tournaments.model.Settings`
as JSON), its phase and round, and a ``version`` that every save bumps: a save from a copy
older than the row is refused (:class:`StaleTournament`), so two processes, or a double
click, never overwrite each other's round. A channel has at most one open tournament (a
unique partial index, as a channel has at most one game). Entrants are rows of their own,
written one by one as people join, leave or drop; a round's tables are upserted with the
save that changes the round, and the final places (which the server's tournaments board
and the profile read) with the save that finishes it, in the same transaction.

A row whose JSON cannot be read is refused with :class:`CorruptTournament` (saying which
and why), never half-loaded.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bot.models import GameOptions
from bot.nonces import legacy_key, new_key
from bot.storage.records import StaleGame
from bot.storage.sql import Computed, Queries, Shards, Statement, of_shards
from bot.tournaments.model import Decided, Entrant, Format, Phase, Result, Settings, Table

OPEN = "phase IN ('signup', 'running', 'paused')"  # as the partial indices of migration 13
TOURNAMENT_LOCK = 0x544F5552  # "TOUR": the first key of a tournament's advisory locks
JOIN_LOCK = 0x4A4F494E  # "JOIN": the first key of a sign-up's transaction lock
NONCE_KEY = "nonce_key"  # in ``extra``: the random key of the tournament's messages' nonces

_COLUMNS = (
    "id, guild_id, channel_id, organiser_id, name, settings, phase, round, seed, message_id,"
    " deadline, created_at, finished_at, version, extra"
)


class StaleTournament(Exception):
    """A save from a copy of a tournament older than the database's row (nothing was
    written): load it again and redo the change."""


class CorruptTournament(Exception):
    """A tournament whose stored form cannot be read; says which and why."""

    def __init__(self, tournament_id: int, reason: str) -> None:
        super().__init__(f"tournament {tournament_id} cannot be loaded: {reason}")
        self.tournament_id = tournament_id
        self.reason = reason


class ChannelHasTournament(Exception):
    """A channel already has an open tournament; ``tournament_id`` names it."""

    def __init__(self, tournament_id: int | None) -> None:
        super().__init__(f"channel already has tournament {tournament_id}")
        self.tournament_id = tournament_id


@dataclass(slots=True)
class TableRow:
    """One stored table of a round: the table, its match (``game_id``), its thread, and
    its result once decided."""

    table: Table
    game_id: int | None = None
    thread_id: int | None = None
    result: Result | None = None


@dataclass(slots=True)
class TournamentRow:
    """A tournament as stored: its row, its entrants in join order, and all its tables
    (by round, then number). ``version``: the row's version when loaded (a save must
    find it still stored). ``seed`` names the seeded draws (tiebreaks, round 1)."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    settings: Settings
    phase: Phase = Phase.SIGNUP
    round: int = 0
    seed: str = ""
    message_id: int | None = None
    deadline: float | None = None
    created_at: float = 0.0
    finished_at: float | None = None
    version: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    entrants: list[Entrant] = field(default_factory=list)
    tables: list[TableRow] = field(default_factory=list)

    @property
    def nonce_key(self) -> str:
        """The random key its messages' Discord nonces are made of (:mod:`bot.nonces`),
        stored when it was created; one stored before has a key made of its id and time."""
        return str(self.extra.get(NONCE_KEY) or legacy_key(self.id, self.created_at))

    def entrant(self, user_id: int) -> Entrant | None:
        """The entrant with this id, if they signed up."""
        return next((e for e in self.entrants if e.user_id == user_id), None)

    def round_tables(self, number: int) -> list[TableRow]:
        """The tables of round ``number`` (1-based), in order."""
        return [row for row in self.tables if row.table.round == number]

    @property
    def results(self) -> list[Result]:
        """Every decided table's result, round by round."""
        return [row.result for row in self.tables if row.result is not None]


@dataclass(frozen=True, slots=True)
class TournamentBoardRow:
    """A line of a server's tournaments board: finished tournaments played, won (first
    place) and on the podium (places 1 to 3)."""

    user_id: int
    played: int
    wins: int
    podiums: int


@dataclass(frozen=True, slots=True)
class PlayerTournament:
    """A finished tournament on a person's profile: its name and variant, their place
    (1-based) of how many ``players``, and when it finished."""

    tournament_id: int
    name: str
    variant: str
    place: int
    players: int
    finished_at: float


# ------------------------------------------------------------ JSON of the model


def settings_json(settings: Settings) -> str:
    """A tournament's settings as stored."""
    return json.dumps(
        {
            "game": dataclasses.asdict(settings.game),
            "format": str(settings.format),
            "table_size": settings.table_size,
            "rounds": settings.rounds,
            "round_minutes": settings.round_minutes,
            "hints": settings.hints,
            "fillers": settings.fillers,
            "cap": settings.cap,
        }
    )


_OPTIONS_DEFAULTS = {f.name: f.default for f in dataclasses.fields(GameOptions)}


def settings_from_json(text: str) -> Settings:
    """Stored settings read back; ``ValueError`` saying what is wrong when they are
    damaged (a missing or mistyped field, an unknown format or option)."""
    data = _object(text, "settings")
    game = _object_value(data.get("game"), "settings.game")
    unknown = sorted(set(game) - set(_OPTIONS_DEFAULTS))
    if unknown:
        raise ValueError(f"settings.game has unknown options {unknown}")
    for name, value in game.items():
        _typed(value, type(_OPTIONS_DEFAULTS[name]), f"settings.game.{name}")
    rounds = data.get("rounds")
    if rounds is not None:
        _typed(rounds, int, "settings.rounds")
    try:
        fmt = Format(data.get("format"))
    except ValueError:
        raise ValueError(f"settings.format {data.get('format')!r} is not a format") from None
    return Settings(
        game=GameOptions(**game),
        format=fmt,
        table_size=_typed(data.get("table_size"), int, "settings.table_size"),
        rounds=rounds,
        round_minutes=_typed(data.get("round_minutes"), int, "settings.round_minutes"),
        hints=_typed(data.get("hints"), bool, "settings.hints"),
        fillers=_typed(data.get("fillers"), bool, "settings.fillers"),
        cap=_typed(data.get("cap"), int, "settings.cap"),
    )


def players_json(table: Table) -> str:
    """A table's players as stored: user ids in seat order, ``null`` for a filler."""
    return json.dumps(list(table.players))


def players_from_json(text: str) -> tuple[int | None, ...]:
    """A table's stored players; ``ValueError`` when damaged."""
    value = _loads(text, "players")
    if not isinstance(value, list) or not value:
        raise ValueError("players is not a list of seats")
    return tuple(None if p is None else _typed(p, int, "players[]") for p in value)


def result_json(result: Result) -> str:
    """A table's result as stored (its table is the row's own)."""
    return json.dumps(
        {
            "places": list(result.places),
            "points": list(result.points),
            "decided": str(result.decided),
            "game_id": result.game_id,
        }
    )


def result_from_json(text: str, table: Table) -> Result:
    """A stored result of ``table`` read back; ``ValueError`` when damaged (a place or
    score per player, a known way it was decided)."""
    data = _object(text, "result")
    places, points = (
        tuple(_typed(v, int, f"result.{key}[]") for v in _list(data.get(key), f"result.{key}"))
        for key in ("places", "points")
    )
    if len(places) != len(table.players) or len(points) != len(table.players):
        raise ValueError("result has not one place and score per player")
    try:
        decided = Decided(data.get("decided"))
    except ValueError:
        raise ValueError(f"result.decided {data.get('decided')!r} is unknown") from None
    game_id = data.get("game_id")
    if game_id is not None:
        _typed(game_id, int, "result.game_id")
    return Result(table, places, points, decided, game_id)


def _loads(text: Any, what: str) -> Any:
    try:
        return json.loads(str(text))
    except (ValueError, RecursionError):
        raise ValueError(f"{what} is not valid JSON") from None


def _object(text: Any, what: str) -> dict[str, Any]:
    return _object_value(_loads(text, what), what)


def _object_value(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not a JSON object")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{what} is not a list")
    return value


def _typed(value: Any, kind: type, what: str) -> Any:
    """``value`` if it is a ``kind`` (a bool is no int here, an int is a float)."""
    fits = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        fits = True
    if not fits:
        raise ValueError(f"{what} is not a {kind.__name__}: {value!r}")
    return value


# --------------------------------------------------------------------- queries


class TournamentQueries(Queries):
    """The storage's queries about tournaments."""

    integrity_errors: ClassVar[tuple[type[BaseException], ...]] = ()

    @asynccontextmanager
    async def tournament_lock(self, tournament_id: int) -> AsyncIterator[None]:
        """Hold the tournament's lock across processes while a round is paired or a
        result applied (a no-op for a single-process database; PostgreSQL overrides)."""
        yield

    async def create_tournament(self, row: TournamentRow, now: float) -> TournamentRow:
        """Store a new tournament in sign-up (and any entrants it already has); sets the
        row's ``id``, ``phase``, ``version`` and ``created_at``, and gives it the random key
        its messages' nonces are made of (``extra["nonce_key"]``, :mod:`bot.nonces`).
        :class:`ChannelHasTournament` when the channel already has an open one."""
        row.phase, row.version, row.created_at = Phase.SIGNUP, 0, now
        row.extra.setdefault(NONCE_KEY, new_key())
        sql = (
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, variant,"
            " settings, phase, round, seed, message_id, deadline, version, extra, created_at,"
            " finished_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id"
        )
        params = (row.guild_id, row.channel_id, row.organiser_id, row.name,
                  row.settings.game.variant, settings_json(row.settings), str(row.phase),
                  row.round, row.seed, row.message_id, row.deadline, row.version,
                  json.dumps(row.extra), now, row.finished_at, now)  # fmt: skip
        # the entrants name the new row by its channel's one open tournament: one transaction
        this = f"(SELECT id FROM tournaments WHERE channel_id = {int(row.channel_id)} AND {OPEN})"
        steps = [Statement(sql, params, returning=True)]
        steps += [_entrant_insert(this, e, now) for e in row.entrants]
        try:
            (row.id, *_) = await self.write(steps)
        except self.integrity_errors:
            busy = await self.channel_tournament(row.channel_id)
            if busy is None:
                raise  # not the channel's index: an entrant listed twice
            raise ChannelHasTournament(busy) from None
        return row

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        """The tournament with its entrants (in join order) and all its tables, or
        ``None``; :class:`CorruptTournament` if any part cannot be read."""
        rows = await self.fetch(
            f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
        )
        if not rows:
            return None
        entrants = await self.fetch(
            "SELECT user_id, name, rating, dropped FROM tournament_entrants"
            " WHERE tournament_id = ? ORDER BY id",
            (tournament_id,),
        )
        tables = await self.fetch(
            "SELECT round, number, players, game_id, thread_id, result FROM tournament_tables"
            " WHERE tournament_id = ? ORDER BY round, number",
            (tournament_id,),
        )
        try:
            return _tournament(rows[0], entrants, tables)
        except (ValueError, TypeError, KeyError) as error:
            raise CorruptTournament(tournament_id, str(error)[:200]) from None

    async def save_tournament(
        self,
        row: TournamentRow,
        now: float,
        *,
        tables: Sequence[TableRow] = (),
        places: Sequence[tuple[int, int]] = (),
        entrants: Sequence[Entrant] = (),
    ) -> None:
        """Write the tournament's row if the database still holds the version it was
        loaded at (:class:`StaleTournament` otherwise, nothing written), bumping it; in the
        same transaction upsert ``tables`` (kept in ``row.tables`` too), update the stored
        ``entrants`` named (their rating and drop: the ratings seeding a knockout), and, for
        a finished tournament, write ``places`` (``(user id, 1-based place)``) for the board.
        """
        if places and row.phase is not Phase.FINISHED:
            raise ValueError("places are written when a tournament finishes")
        finished_at = row.finished_at
        if row.phase is Phase.FINISHED and finished_at is None:
            finished_at = now
        steps = [
            Statement(
                "UPDATE tournaments SET name = ?, settings = ?, variant = ?, phase = ?,"
                " round = ?, seed = ?, message_id = ?, deadline = ?, extra = ?,"
                " finished_at = ?, organiser_id = ?, version = ?, updated_at = ?"
                " WHERE id = ? AND version = ?",
                (row.name, settings_json(row.settings), row.settings.game.variant,
                 str(row.phase), row.round, row.seed, row.message_id, row.deadline,
                 json.dumps(row.extra), finished_at, row.organiser_id, row.version + 1, now,
                 row.id, row.version),
                check=True,
            )
        ]  # fmt: skip
        steps += [
            Statement(
                "INSERT INTO tournament_tables (tournament_id, round, number, players,"
                " game_id, thread_id, result) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (tournament_id, round, number) DO UPDATE SET"
                " players = excluded.players, game_id = excluded.game_id,"
                " thread_id = excluded.thread_id, result = excluded.result",
                (row.id, t.table.round, t.table.number, players_json(t.table), t.game_id,
                 t.thread_id, None if t.result is None else result_json(t.result)),
            )
            for t in tables
        ]  # fmt: skip
        steps += [
            Statement(
                "UPDATE tournament_entrants SET name = ?, rating = ?, dropped = ?"
                " WHERE tournament_id = ? AND user_id = ?",
                (e.name, float(e.rating), e.dropped, row.id, e.user_id),
            )
            for e in entrants
        ]
        steps += [
            Statement(
                "INSERT INTO tournament_places (tournament_id, user_id, guild_id, place,"
                " finished_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id, user_id)"
                " DO UPDATE SET place = excluded.place, finished_at = excluded.finished_at",
                (row.id, int(user_id), row.guild_id, int(place), finished_at),
            )
            for user_id, place in places
        ]
        try:
            await self.write(steps)
        except StaleGame:
            raise StaleTournament(
                f"tournament {row.id} changed in the database since this copy was loaded"
            ) from None
        row.version += 1
        row.finished_at = finished_at
        _merge_tables(row, tables)
        if entrants:
            changed = {e.user_id: e for e in entrants}
            row.entrants = [changed.get(e.user_id, e) for e in row.entrants]

    async def add_entrant(
        self, tournament_id: int, entrant: Entrant, now: float, *, cap: int | None = None
    ) -> bool:
        """Sign a person up to an open tournament; ``False`` (nothing written) when they
        are in already, the tournament is not open, or it has ``cap`` entrants already.
        Processes signing people up at once take turns (a transaction lock), so a cap is
        never passed."""
        queries = (
            (f"SELECT COUNT(*) FROM tournaments WHERE id = ? AND {OPEN}", (tournament_id,)),
            (
                "SELECT COUNT(*), SUM(CASE WHEN user_id = ? THEN 1 ELSE 0 END)"
                " FROM tournament_entrants WHERE tournament_id = ?",
                (entrant.user_id, tournament_id),
            ),
        )

        def compute(rows: list[list[Sequence[Any]]]) -> list[Statement]:
            (is_open,), (count, mine) = rows[0][0], rows[1][0]
            if not int(is_open) or int(mine or 0) or (cap is not None and int(count) >= cap):
                return []
            return [_entrant_insert(tournament_id, entrant, now)]

        lock = (JOIN_LOCK, int32(tournament_id))
        (added,) = await self.write([Computed(queries, compute, lock=lock)])
        return bool(added)

    async def remove_entrant(self, tournament_id: int, user_id: int) -> bool:
        """Take a person off the list (they left during sign-up); whether they were on it."""
        (changed,) = await self.write(
            [
                Statement(
                    "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                    (tournament_id, user_id),
                )
            ]
        )
        return bool(changed)

    async def drop_entrant(self, tournament_id: int, user_id: int, round: int) -> bool:
        """Mark a person dropped after ``round`` (they are paired no more); ``False`` if they
        are not an entrant or dropped already."""
        (changed,) = await self.write(
            [
                Statement(
                    "UPDATE tournament_entrants SET dropped = ?"
                    " WHERE tournament_id = ? AND user_id = ? AND dropped IS NULL",
                    (round, tournament_id, user_id),
                )
            ]
        )
        return bool(changed)

    async def channel_tournament(self, channel_id: int) -> int | None:
        """The id of the open tournament in a channel, if any."""
        rows = await self.fetch(
            f"SELECT id FROM tournaments WHERE channel_id = ? AND {OPEN}", (channel_id,)
        )
        return int(rows[0][0]) if rows else None

    async def open_tournaments(
        self, shards: Shards | None = None
    ) -> list[tuple[int, float | None]]:
        """``(id, deadline)`` of every open tournament (in sign-up, running or paused), to
        take them up again after a restart; with ``shards``, only those shards' guilds'.
        Reads no JSON, so one damaged tournament cannot stop the others."""
        theirs, params = of_shards(shards)
        # sorted here: an ORDER BY id would have SQLite read every tournament ever held in
        # id order rather than the partial index of the open ones
        rows = await self.fetch(
            f"SELECT id, deadline FROM tournaments WHERE {OPEN} AND {theirs}", params
        )
        return sorted((int(tid), None if at is None else float(at)) for tid, at in rows)

    async def table_of_game(self, game_id: int) -> tuple[int, Table] | None:
        """The tournament and table a match is played at, if it is a tournament's."""
        rows = await self.fetch(
            "SELECT tournament_id, round, number, players FROM tournament_tables WHERE game_id = ?",
            (game_id,),
        )
        if not rows:
            return None
        tid, rnd, number, players = rows[0]
        try:
            return int(tid), Table(int(rnd), int(number), players_from_json(players))
        except ValueError as error:
            raise CorruptTournament(int(tid), str(error)[:200]) from None

    async def final_places(self, tournament_id: int) -> dict[int, int]:
        """A finished tournament's places as written when it finished (user id → place,
        1 first): what its podium showed, whatever ids forget-me has changed since (its
        seeded draws are made from the ids, so recomputing them could reorder it)."""
        rows = await self.fetch(
            "SELECT user_id, place FROM tournament_places WHERE tournament_id = ?",
            (tournament_id,),
        )
        return {int(user): int(place) for user, place in rows}

    async def tournament_board(
        self, guild_id: int, offset: int = 0, limit: int = 10
    ) -> tuple[list[TournamentBoardRow], int]:
        """One page of a server's tournaments board: each person's finished tournaments,
        by wins, then podiums, then tournaments played; and how many people it lists.
        Forgotten people (negative ids) are not listed."""
        counted = await self.fetch(
            "SELECT COUNT(DISTINCT user_id) FROM tournament_places"
            " WHERE guild_id = ? AND user_id > 0",
            (guild_id,),
        )
        rows = await self.fetch(
            "SELECT user_id, COUNT(*) AS played,"
            " SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS wins,"
            " SUM(CASE WHEN place <= 3 THEN 1 ELSE 0 END) AS podiums"
            " FROM tournament_places WHERE guild_id = ? AND user_id > 0 GROUP BY user_id"
            " ORDER BY wins DESC, podiums DESC, played DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, limit, offset),
        )
        return [TournamentBoardRow(int(u), int(p), int(w), int(pod)) for u, p, w, pod in rows], int(
            counted[0][0]
        ) if counted else 0

    async def player_tournaments(
        self, guild_id: int, user_id: int, limit: int = 5, *, variant: str | None = None
    ) -> list[PlayerTournament]:
        """A person's last finished tournaments in a server, newest first (``variant``:
        of that game only)."""
        where, params = "p.guild_id = ? AND p.user_id = ?", [guild_id, user_id]
        if variant:
            where += " AND t.variant = ?"
            params.append(variant)  # type: ignore[arg-type]
        rows = await self.fetch(
            "SELECT p.tournament_id, t.name, t.variant, p.place, p.finished_at,"
            " (SELECT COUNT(*) FROM tournament_places q WHERE q.tournament_id = p.tournament_id)"
            f" FROM tournament_places p JOIN tournaments t ON t.id = p.tournament_id WHERE {where}"
            " ORDER BY p.finished_at DESC, p.tournament_id DESC LIMIT ?",
            [*params, limit],
        )
        return [
            PlayerTournament(int(tid), str(name), str(variant), int(place), int(n), float(at))
            for tid, name, variant, place, at, n in rows
        ]


def int32(number: int) -> int:
    """A number as the signed 32-bit key of a two-key advisory lock."""
    return (int(number) + 2**31) % 2**32 - 2**31


def _entrant_insert(tournament: int | str, entrant: Entrant, now: float) -> Statement:
    """The row of a new entrant of ``tournament``: its id, or SQL that selects it."""
    which = "?" if isinstance(tournament, int) else tournament
    params = [tournament] if isinstance(tournament, int) else []
    return Statement(
        "INSERT INTO tournament_entrants (tournament_id, user_id, name, rating, dropped,"
        f" joined_at) VALUES ({which}, ?, ?, ?, ?, ?)",
        (*params, entrant.user_id, entrant.name, float(entrant.rating), entrant.dropped, now),
    )


def _merge_tables(row: TournamentRow, tables: Sequence[TableRow]) -> None:
    """``row.tables`` with ``tables`` written over those of the same round and number."""
    if not tables:
        return
    merged = {(t.table.round, t.table.number): t for t in row.tables}
    merged.update({(t.table.round, t.table.number): t for t in tables})
    row.tables = [merged[key] for key in sorted(merged)]


def _tournament(
    row: Sequence[Any], entrants: Sequence[Sequence[Any]], tables: Sequence[Sequence[Any]]
) -> TournamentRow:
    (tid, guild, channel, organiser, name, settings, phase, rnd, seed, message, deadline,
     created, finished, version, extra) = row  # fmt: skip
    return TournamentRow(
        id=int(tid),
        guild_id=int(guild),
        channel_id=int(channel),
        organiser_id=int(organiser),
        name=str(name),
        settings=settings_from_json(settings),
        phase=Phase(phase),
        round=int(rnd),
        seed=str(seed),
        message_id=None if message is None else int(message),
        deadline=None if deadline is None else float(deadline),
        created_at=float(created),
        finished_at=None if finished is None else float(finished),
        version=int(version),
        extra=_object(extra, "extra"),
        entrants=[
            Entrant(int(user), str(who), float(rating), None if dropped is None else int(dropped))
            for user, who, rating, dropped in entrants
        ],
        tables=[_table_row(*t) for t in tables],
    )


def _table_row(
    rnd: Any, number: Any, players: Any, game_id: Any, thread_id: Any, result: Any
) -> TableRow:
    table = Table(int(rnd), int(number), players_from_json(players))
    return TableRow(
        table,
        None if game_id is None else int(game_id),
        None if thread_id is None else int(thread_id),
        None if result is None else result_from_json(result, table),
    )
