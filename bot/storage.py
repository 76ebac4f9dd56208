"""SQLite storage for games, the move log and leaderboard results (aiosqlite, one file).

The schema is versioned with ``PRAGMA user_version``; :data:`MIGRATIONS` lists the steps
from one version to the next and :meth:`Storage.open` applies the missing ones. Every
write is one transaction, committed before the method returns.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from bot.models import Game, GameOptions, Seat, Status, Timer

MIGRATIONS: tuple[str, ...] = (
    # version 1
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY,
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        host_id     INTEGER NOT NULL,
        status      TEXT    NOT NULL,
        options     TEXT    NOT NULL,
        seats       TEXT    NOT NULL,
        state       TEXT,
        version     INTEGER NOT NULL DEFAULT 0,
        message_id  INTEGER,
        ping_id     INTEGER,
        deadline    REAL,
        timer       TEXT,
        last_move   TEXT    NOT NULL DEFAULT '',
        extra       TEXT    NOT NULL DEFAULT '{}',
        created_at  REAL    NOT NULL,
        updated_at  REAL    NOT NULL
    );
    CREATE UNIQUE INDEX games_one_per_channel ON games(channel_id)
        WHERE status IN ('lobby', 'playing');
    CREATE INDEX games_deadline ON games(deadline) WHERE deadline IS NOT NULL;
    CREATE TABLE moves (
        id       INTEGER PRIMARY KEY,
        game_id  INTEGER NOT NULL REFERENCES games(id),
        version  INTEGER NOT NULL,
        seat     INTEGER NOT NULL,
        card     TEXT    NOT NULL,
        taken    TEXT    NOT NULL,
        auto     INTEGER NOT NULL DEFAULT 0,
        at       REAL    NOT NULL,
        UNIQUE (game_id, version)
    );
    CREATE TABLE results (
        id          INTEGER PRIMARY KEY,
        game_id     INTEGER NOT NULL REFERENCES games(id),
        guild_id    INTEGER NOT NULL,
        variant     TEXT    NOT NULL,
        target      INTEGER NOT NULL,
        user_id     INTEGER NOT NULL,
        side        INTEGER NOT NULL,
        won         INTEGER NOT NULL,
        points      INTEGER NOT NULL,
        tabbar      INTEGER NOT NULL,
        finished_at REAL    NOT NULL,
        UNIQUE (game_id, user_id)
    );
    CREATE INDEX results_board ON results(guild_id, variant, target);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # version 2: results against computer players, and matches played with hints
    """
    ALTER TABLE results ADD COLUMN vs_computer INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE results ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0;
    DROP INDEX results_board;
    CREATE INDEX results_board ON results(guild_id, vs_computer, variant, target);
    """,
)

_GAME_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, options, seats, state, version, message_id,"
    " ping_id, deadline, timer, last_move, extra, created_at"
)


class CorruptGame(Exception):
    """A game row whose saved form cannot be loaded; says where to report it."""

    def __init__(self, game_id: int, guild_id: int, channel_id: int, reason: str) -> None:
        super().__init__(f"game {game_id} cannot be loaded: {reason}")
        self.game_id = game_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.reason = reason


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


@dataclass(frozen=True, slots=True)
class ResultRecord:
    """One player's line for the leaderboard when a match ends.

    ``vs_computer``: a computer player was at the table (a separate board); ``hinted``:
    hints were on.
    """

    user_id: int
    side: int
    won: bool
    points: int
    tabbar: int
    vs_computer: bool = False
    hinted: bool = False


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


def _load_match(state: str | None) -> Any:
    if state is None:
        return None
    from bot.engine import Match

    return Match.from_dict(json.loads(state))


def _row_to_game(row: sqlite3.Row | tuple[Any, ...]) -> Game:
    """A game from its row; :class:`CorruptGame` if any part of it cannot be read."""
    try:
        return _parse_row(row)
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as error:
        gid, guild, channel = (_int_or_zero(value) for value in row[:3])
        raise CorruptGame(gid, guild, channel, str(error)[:200] or type(error).__name__) from None


def _int_or_zero(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _parse_row(row: sqlite3.Row | tuple[Any, ...]) -> Game:
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


def _game_values(game: Game) -> dict[str, Any]:
    opts = game.options
    return {
        "guild_id": game.guild_id,
        "channel_id": game.channel_id,
        "host_id": game.host_id,
        "status": str(game.status),
        "options": json.dumps(
            {
                "variant": opts.variant,
                "target": opts.target,
                "teams": opts.teams,
                "turn_seconds": opts.turn_seconds,
            }
        ),
        "seats": json.dumps(game.seats_json()),
        "state": json.dumps(game.match.to_dict()) if game.match is not None else None,
        "version": game.version,
        "message_id": game.message_id,
        "ping_id": game.ping_id,
        "deadline": game.deadline,
        "timer": str(game.timer) if game.timer else None,
        "last_move": game.last_move,
        "extra": json.dumps(game.extra),
    }


class Storage:
    """The bot's database. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Storage:
        """Open (creating folders and the file if needed) and migrate the database."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            await _exec(db, "PRAGMA journal_mode=WAL")
            await _exec(db, "PRAGMA synchronous=NORMAL")
            await _exec(db, "PRAGMA foreign_keys=ON")
            await _exec(db, "PRAGMA busy_timeout=5000")
            storage = cls(db)
            await storage._migrate()
        except BaseException:
            await db.close()  # its worker thread would otherwise keep the process alive
            raise
        return storage

    async def close(self) -> None:
        """Close the connection (pending writes are already committed)."""
        await self._db.close()

    async def schema_version(self) -> int:
        """The database's ``PRAGMA user_version``."""
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def _migrate(self) -> None:
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            async with self._transaction():
                for statement in _statements(script):
                    await _exec(self._db, statement)
                await _exec(self._db, f"PRAGMA user_version={number}")

    @asynccontextmanager
    async def _transaction(self):  # type: ignore[no-untyped-def]
        async with self._lock:
            await _exec(self._db, "BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await _exec(self._db, "ROLLBACK")
                raise
            await _exec(self._db, "COMMIT")

    # ---------------------------------------------------------------- games

    async def create_game(self, game: Game, now: float) -> Game:
        """Insert a new game and set its ``id``; :class:`ChannelBusy` if the channel is taken."""
        values = _game_values(game)
        columns = ", ".join(values) + ", created_at, updated_at"
        marks = ", ".join(f":{key}" for key in values) + ", :now, :now"
        try:
            game.id = await self._write(
                [(f"INSERT INTO games ({columns}) VALUES ({marks})", {**values, "now": now})]
            )
        except sqlite3.IntegrityError:
            raise ChannelBusy(await self.channel_game(game.channel_id)) from None
        game.created_at = now
        game.stored_version = game.version
        return game

    async def get_game(self, game_id: int) -> Game | None:
        """The game with this id, or ``None``."""
        return await self._one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))

    async def channel_game(self, channel_id: int) -> int | None:
        """The id of the lobby or match running in a channel, if any."""
        async with self._db.execute(
            "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else None

    async def deadlines(self) -> list[tuple[int, float]]:
        """``(game id, deadline)`` of every active game with one (to restart the timers).

        Reads no saved state, so one damaged game cannot stop the others from starting.
        """
        async with self._db.execute(
            "SELECT id, deadline FROM games WHERE deadline IS NOT NULL"
            " AND status IN ('lobby', 'playing') ORDER BY deadline"
        ) as cursor:
            return [(int(gid), float(at)) for gid, at in await cursor.fetchall()]

    async def close_broken(self, game_id: int, now: float) -> bool:
        """Close an active game whose saved state cannot be loaded (no result); ``True`` the
        first time only, so it is reported once."""
        async with self._lock:
            cursor = await self._db.execute(
                "UPDATE games SET status = 'broken', deadline = NULL, timer = NULL,"
                " updated_at = ? WHERE id = ? AND status IN ('lobby', 'playing')",
                (now, game_id),
            )
            changed = cursor.rowcount == 1
            await cursor.close()
        return changed

    async def _one(self, sql: str, params: Iterable[Any]) -> Game | None:
        async with self._db.execute(sql, tuple(params)) as cursor:
            row = await cursor.fetchone()
        return _row_to_game(row) if row else None

    async def save_game(
        self,
        game: Game,
        now: float,
        move: MoveRecord | None = None,
        results: Iterable[ResultRecord] = (),
    ) -> None:
        """Write a game's row, and in the same transaction its move and final results.

        The row is written only if the database still holds the version this copy was
        loaded at (:class:`StaleGame` otherwise, nothing written).
        """
        values = _game_values(game)
        assignments = ", ".join(f"{key} = :{key}" for key in values)
        expected = {"id": game.id, "expected": game.stored_version, "now": now}
        statements: list[tuple[str, Any]] = [
            (
                f"UPDATE games SET {assignments}, updated_at = :now"
                " WHERE id = :id AND version = :expected",
                {**values, **expected},
            )
        ]
        if move is not None:
            taken = " ".join(move.taken)
            statements.append(
                (
                    "INSERT INTO moves (game_id, version, seat, card, taken, auto, at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game.id, game.version, move.seat, move.card, taken, int(move.auto), now),
                )
            )
        opts = game.options
        statements.extend(
            (
                "INSERT OR REPLACE INTO results (game_id, guild_id, variant, target, user_id,"
                " side, won, points, tabbar, finished_at, vs_computer, hinted)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (game.id, game.guild_id, opts.variant, opts.target, r.user_id, r.side,
                 int(r.won), r.points, r.tabbar, now, int(r.vs_computer), int(r.hinted)),
            )
            for r in results
        )  # fmt: skip
        await self._write(statements, check_first=True)
        game.stored_version = game.version

    async def _write(self, statements: list[tuple[str, Any]], check_first: bool = False) -> int:
        """Run statements as one transaction; returns the last inserted row id.

        With ``check_first`` the first statement must change exactly one row, else the
        transaction is rolled back and :class:`StaleGame` raised.

        The whole transaction runs in one trip to aiosqlite's worker thread when the
        connection offers it, so a move's commit does not wait for the event loop between
        statements (this matters when many games move at once).
        """
        run = getattr(self._db, "_execute", None)
        raw = getattr(self._db, "_connection", None)
        async with self._lock:
            if run is not None and raw is not None:
                return int(await run(_run_transaction, raw, statements, check_first))
            await _exec(self._db, "BEGIN IMMEDIATE")
            try:
                last = 0
                for number, (sql, params) in enumerate(statements):
                    async with self._db.execute(sql, params) as cursor:
                        _check_changed(cursor.rowcount, number == 0 and check_first)
                        last = cursor.lastrowid or last
            except BaseException:
                await _exec(self._db, "ROLLBACK")
                raise
            await _exec(self._db, "COMMIT")
            return last

    async def move_count(self, game_id: int) -> int:
        """How many moves the log holds for a game."""
        async with self._db.execute(
            "SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)
        ) as c:
            row = await c.fetchone()
        return int(row[0]) if row else 0

    # ----------------------------------------------------------- leaderboard

    async def player_names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """Each person's name as last seated in a game of this server (for leaderboards:
        a mention in an embed shows as a number where the member is not cached)."""
        wanted = {int(u) for u in user_ids}
        if not wanted:
            return {}
        names: dict[int, str] = {}
        query = (
            "SELECT json_extract(seat.value, '$.user_id'), json_extract(seat.value, '$.name')"
            " FROM games, json_each(games.seats) AS seat WHERE games.guild_id = ?"
            " ORDER BY games.id"
        )
        async with self._db.execute(query, (guild_id,)) as cursor:
            async for user_id, name in cursor:
                if user_id in wanted and name:
                    names[int(user_id)] = str(name)
        return names

    async def leaderboard(
        self,
        guild_id: int,
        variant: str | None = None,
        target: int | None = None,
        offset: int = 0,
        limit: int = 10,
        *,
        computers: bool = False,
    ) -> tuple[list[BoardRow], int]:
        """One page of a server's board (best first) and the number of players on it.

        The main board counts matches between people only; ``computers=True`` gives the
        board of matches with a computer player at the table.
        """
        where, params = ["guild_id = ?", "vs_computer = ?"], [guild_id, int(computers)]
        if variant:
            where.append("variant = ?")
            params.append(variant)  # type: ignore[arg-type]
        if target:
            where.append("target = ?")
            params.append(target)
        clause = " AND ".join(where)
        async with self._db.execute(
            f"SELECT COUNT(DISTINCT user_id) FROM results WHERE {clause}", params
        ) as cursor:
            row = await cursor.fetchone()
        total = int(row[0]) if row else 0
        async with self._db.execute(
            "SELECT user_id, SUM(won), COUNT(*), SUM(points), SUM(tabbar), SUM(hinted) FROM results"
            f" WHERE {clause} GROUP BY user_id"
            " ORDER BY SUM(won) DESC, CAST(SUM(won) AS REAL) / COUNT(*) DESC, SUM(points) DESC,"
            " user_id LIMIT ? OFFSET ?",
            [*params, limit, offset],
        ) as cursor:
            rows = [BoardRow(*map(int, r)) for r in await cursor.fetchall()]
        return rows, total

    # ------------------------------------------------------------------ meta

    async def get_meta(self, key: str) -> str | None:
        """A stored setting (e.g. the synced command-set hash)."""
        async with self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return str(row[0]) if row else None

    async def set_meta(self, key: str, value: str) -> None:
        """Store a setting."""
        await self._write(
            [
                (
                    "INSERT INTO meta (key, value) VALUES (?, ?)"
                    " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )
            ]
        )


def _statements(script: str) -> Iterator[str]:
    for part in script.split(";"):
        if part.strip():
            yield part.strip()


async def _exec(
    db: aiosqlite.Connection, sql: str, params: Iterable[Any] | dict[str, Any] = ()
) -> int:
    """Run one statement, close its cursor, and return the last inserted row id."""
    async with db.execute(sql, params if isinstance(params, dict) else tuple(params)) as cursor:
        return int(cursor.lastrowid or 0)


def _check_changed(rowcount: int, required: bool) -> None:
    if required and rowcount != 1:
        raise StaleGame("the game changed in the database since this copy was loaded")


def _run_transaction(
    conn: sqlite3.Connection, statements: list[tuple[str, Any]], check_first: bool
) -> int:
    """In aiosqlite's worker thread: BEGIN IMMEDIATE, the statements, COMMIT."""
    conn.execute("BEGIN IMMEDIATE")
    last = 0
    try:
        for number, (sql, params) in enumerate(statements):
            cursor = conn.execute(sql, params)
            _check_changed(cursor.rowcount, number == 0 and check_first)
            last = cursor.lastrowid or last
            cursor.close()
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return last
