"""The storage interface: every query the bot makes, written once for both databases.

A backend (:mod:`bot.storage.sqlite`, :mod:`bot.storage.postgres`) supplies only how to
connect, read rows, run a list of statements as one transaction, and keep the schema
version. SQL here uses ``?`` placeholders; the PostgreSQL backend numbers them.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from bot.models import Game, Status
from bot.storage.records import (
    GAME_COLUMNS,
    BoardRow,
    ChannelBusy,
    HistoryRow,
    MoveRecord,
    Outgoing,
    ResultRecord,
    StaleGame,
    StoredMove,
    game_values,
    row_to_game,
)
from bot.storage.schema import MIGRATIONS, statements

ACTIVE = "status IN ('lobby', 'playing')"
DECK_KINDS = ("guild", "user")  # whose card deck a ``deck_styles`` row is


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of a transaction.

    ``check``: it must change exactly one row, else the transaction is rolled back and
    :class:`StaleGame` raised. ``returning``: it returns one value (``RETURNING id``).
    """

    sql: str
    params: Sequence[Any] = ()
    check: bool = False
    returning: bool = False


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards one process runs: a guild is theirs when ``(id >> 22) % count`` is
    among ``ids`` (Discord's rule)."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        """Whether this process handles the guild."""
        return (guild_id >> 22) % self.count in self.ids


class Storage:
    """The bot's database. Open with :meth:`open`, close with :meth:`close`.

    ``shared``: other processes may write the same database (PostgreSQL), so a loaded
    copy of a game must be checked against the row before it is trusted.
    """

    shared: ClassVar[bool] = False
    integrity_errors: ClassVar[tuple[type[BaseException], ...]] = ()

    @staticmethod
    async def open(target: str | Path) -> Storage:
        """Open (creating it if needed) and migrate the database ``target`` names: a
        ``postgresql://`` URL, or an SQLite file path (``sqlite:///`` optional)."""
        from bot.storage.target import parse_target

        kind, where = parse_target(target)
        if kind == "postgresql":
            from bot.storage.postgres import PostgresStorage

            return await PostgresStorage.connect(where)
        from bot.storage.sqlite import SQLiteStorage

        return await SQLiteStorage.connect(where)

    # ------------------------------------------------------ what a backend supplies

    async def close(self) -> None:
        """Close the connections (pending writes are already committed)."""
        raise NotImplementedError

    async def schema_version(self) -> int:
        """The schema's version: how many of :data:`MIGRATIONS` are applied."""
        raise NotImplementedError

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        """The rows of a query (``?`` placeholders)."""
        raise NotImplementedError

    async def write(self, steps: Sequence[Statement]) -> list[Any]:
        """Run the statements as one transaction, committed before this returns; gives
        each statement's returned value (``returning``) or changed-row count."""
        raise NotImplementedError

    async def _apply_migration(self, number: int, steps: list[str]) -> None:
        """Run one migration's statements and record ``number`` as the version, atomically."""
        raise NotImplementedError

    @asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[None]:
        """Hold the game's lock across processes (a no-op for a single-process database)."""
        yield

    # --------------------------------------------------------------- the schema

    async def migrate(self) -> None:
        """Apply the migrations the database does not have yet."""
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            await self._apply_migration(number, list(statements(script)))

    # ---------------------------------------------------------------- games

    async def create_game(self, game: Game, now: float) -> Game:
        """Insert a new game and set its ``id``; :class:`ChannelBusy` if the channel is taken."""
        values = game_values(game)
        columns = ", ".join(values) + ", created_at, updated_at"
        marks = ", ".join("?" for _ in range(len(values) + 2))
        sql = f"INSERT INTO games ({columns}) VALUES ({marks}) RETURNING id"
        try:
            (game.id,) = await self.write(
                [Statement(sql, [*values.values(), now, now], returning=True)]
            )
        except self.integrity_errors:
            raise ChannelBusy(await self.channel_game(game.channel_id)) from None
        game.created_at = now
        game.stored_version = game.version
        return game

    async def get_game(self, game_id: int) -> Game | None:
        """The game with this id, or ``None``; :class:`CorruptGame` if it cannot be read."""
        rows = await self.fetch(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return row_to_game(rows[0]) if rows else None

    async def game_version(self, game_id: int) -> int | None:
        """The saved version of a game (reads no state), or ``None``."""
        rows = await self.fetch("SELECT version FROM games WHERE id = ?", (game_id,))
        return int(rows[0][0]) if rows else None

    async def channel_game(self, channel_id: int) -> int | None:
        """The id of the lobby or match running in a channel, if any."""
        rows = await self.fetch(
            f"SELECT id FROM games WHERE channel_id = ? AND {ACTIVE}", (channel_id,)
        )
        return int(rows[0][0]) if rows else None

    async def deadlines(self, shards: Shards | None = None) -> list[tuple[int, float]]:
        """``(game id, deadline)`` of every active game with one (to restart the timers);
        with ``shards``, only the games of those shards' guilds.

        Reads no saved state, so one damaged game cannot stop the others from starting.
        """
        where, params = f"deadline IS NOT NULL AND {ACTIVE}", []
        if shards is not None:
            marks = ", ".join("?" for _ in shards.ids)
            where += f" AND (guild_id >> 22) % ? IN ({marks})"
            params = [shards.count, *shards.ids]
        rows = await self.fetch(
            f"SELECT id, deadline FROM games WHERE {where} ORDER BY deadline", params
        )
        return [(int(gid), float(at)) for gid, at in rows]

    async def close_broken(self, game_id: int, now: float, posts: Sequence[Outgoing] = ()) -> bool:
        """Close an active game whose saved state cannot be loaded (no result), and queue
        ``posts`` (its report) with it; ``True`` the first time only, so it is reported once
        (the posts are written only then)."""
        sql = (
            "UPDATE games SET status = 'broken', deadline = NULL, timer = NULL,"
            f" updated_at = ? WHERE id = ? AND {ACTIVE}"
        )
        # the report is written only if this statement closes the game (checked: else
        # the whole transaction is rolled back)
        steps = [Statement(sql, (now, game_id), check=bool(posts)), *_queue(posts, now)]
        try:
            (changed, *ids) = await self.write(steps)
        except StaleGame:
            return False
        _numbered(posts, steps[1:], ids)
        return changed == 1

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
        values = game_values(game)
        assignments = ", ".join(f"{key} = ?" for key in values)
        steps = [
            Statement(
                f"UPDATE games SET {assignments}, updated_at = ? WHERE id = ? AND version = ?",
                [*values.values(), now, game.id, game.stored_version],
                check=True,
            )
        ]
        if move is not None:
            steps.append(
                Statement(
                    "INSERT INTO moves (game_id, version, seat, card, taken, auto, at, round,"
                    " move) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (game.id, game.version, move.seat, move.card, " ".join(move.taken),
                     int(move.auto), now, move.round, move.move),
                )
            )  # fmt: skip
            if game.status is Status.FINISHED:
                steps.extend(_finished_steps(game, now))
        opts = game.options
        steps.extend(
            Statement(
                "INSERT INTO results (game_id, guild_id, variant, target, user_id, side, won,"
                " points, tabbar, finished_at, vs_computer, hinted)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (game_id, user_id) DO UPDATE SET"
                " side = excluded.side, won = excluded.won, points = excluded.points,"
                " tabbar = excluded.tabbar, finished_at = excluded.finished_at,"
                " vs_computer = excluded.vs_computer, hinted = excluded.hinted",
                (game.id, game.guild_id, opts.variant, opts.target, r.user_id, r.side,
                 int(r.won), r.points, r.tabbar, now, int(r.vs_computer), int(r.hinted)),
            )
            for r in results
        )  # fmt: skip
        queued = _queue(game.outbox, now)
        ids = (await self.write([*steps, *queued]))[len(steps) :]
        _numbered(game.outbox, queued, ids)
        game.stored_version = game.version

    # ---------------------------------------------------------------- outbox

    async def pending_posts(self, shards: Shards | None = None) -> list[Outgoing]:
        """What the channels must still be shown (oldest first); with ``shards``, only
        those shards' guilds' (a restarted process posts what its games left)."""
        where, params = "1 = 1", []
        if shards is not None:
            marks = ", ".join("?" for _ in shards.ids)
            where = f"(guild_id >> 22) % ? IN ({marks})"
            params = [shards.count, *shards.ids]
        rows = await self.fetch(
            "SELECT id, game_id, guild_id, channel_id, is_table, body FROM outbox"
            f" WHERE {where} ORDER BY id",
            params,
        )
        return [
            Outgoing(int(game), int(guild), int(channel), str(body), bool(table), int(pid))
            for pid, game, guild, channel, table, body in rows
        ]

    async def tableless_games(self, shards: Shards | None = None) -> list[int]:
        """Games in play with no table kept and none waiting in the outbox (a process
        killed between dealing a rematch and queueing its table); with ``shards``, only
        those shards' guilds'."""
        where, params = "", []
        if shards is not None:
            marks = ", ".join("?" for _ in shards.ids)
            where = f" AND (guild_id >> 22) % ? IN ({marks})"
            params = [shards.count, *shards.ids]
        rows = await self.fetch(
            "SELECT id FROM games WHERE status = 'playing' AND message_id IS NULL"
            " AND id NOT IN (SELECT game_id FROM outbox WHERE is_table = 1)" + where,
            params,
        )
        return [int(gid) for (gid,) in rows]

    async def post_done(self, post_id: int) -> None:
        """A queued post has been made (or can never be): it leaves the outbox."""
        await self.write([Statement("DELETE FROM outbox WHERE id = ?", (post_id,))])

    async def move_count(self, game_id: int) -> int:
        """How many moves the log holds for a game."""
        rows = await self.fetch("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,))
        return int(rows[0][0]) if rows else 0

    # ------------------------------------------------------- history, records

    async def history(
        self,
        guild_id: int,
        user_id: int | None = None,
        variant: str | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> tuple[list[HistoryRow], int]:
        """One page of a server's finished matches, newest first (``user_id``: those the
        person sat in; ``variant``: of that game only), and how many there are."""
        table = "finished" if user_id is None else "finished_players"
        where, params = ["guild_id = ?"], [guild_id]
        if user_id is not None:
            where.append("user_id = ?")
            params.append(user_id)
        if variant:
            where.append("variant = ?")
            params.append(variant)  # type: ignore[arg-type]
        clause = " AND ".join(where)
        counted = await self.fetch(f"SELECT COUNT(*) FROM {table} WHERE {clause}", params)
        total = int(counted[0][0]) if counted else 0
        if user_id is None:
            sql = (
                "SELECT game_id, variant, finished_at, summary FROM finished"
                f" WHERE {clause} ORDER BY finished_at DESC, game_id DESC LIMIT ? OFFSET ?"
            )
        else:
            # the page's games by the member's index, then their summaries by key
            sql = (
                "SELECT f.game_id, f.variant, f.finished_at, f.summary FROM"
                f" (SELECT game_id, finished_at FROM finished_players WHERE {clause}"
                "  ORDER BY finished_at DESC, game_id DESC LIMIT ? OFFSET ?) AS page"
                " JOIN finished AS f ON f.game_id = page.game_id"
                " ORDER BY page.finished_at DESC, page.game_id DESC"
            )
        rows = await self.fetch(sql, [*params, limit, offset])
        return [
            HistoryRow(int(gid), str(var), float(at), _json_dict(summary))
            for gid, var, at, summary in rows
        ], total

    async def game_moves(self, game_id: int) -> list[StoredMove]:
        """A game's move log in the order played."""
        rows = await self.fetch(
            "SELECT version, seat, card, taken, auto, at, round, move FROM moves"
            " WHERE game_id = ? ORDER BY version",
            (game_id,),
        )
        return [
            StoredMove(int(v), int(seat), str(card), str(taken), bool(auto), float(at),
                       None if rnd is None else int(rnd), None if mv is None else str(mv))
            for v, seat, card, taken, auto, at, rnd, mv in rows
        ]  # fmt: skip

    async def finished_at(self, game_id: int) -> float | None:
        """When a match was won (``None``: not a finished match)."""
        rows = await self.fetch("SELECT finished_at FROM finished WHERE game_id = ?", (game_id,))
        return float(rows[0][0]) if rows else None

    # ----------------------------------------------------------- leaderboard

    async def player_names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """Each person's name as last seated in a game of this server (for leaderboards:
        a mention in an embed shows as a number where the member is not cached)."""
        wanted = {int(u) for u in user_ids}
        if not wanted:
            return {}
        names: dict[int, str] = {}
        # the seats are read here rather than with each database's own JSON functions
        rows = await self.fetch(
            "SELECT seats FROM games WHERE guild_id = ? ORDER BY id", (guild_id,)
        )
        for (seats,) in rows:
            for seat in _seat_list(seats):
                user_id, name = seat.get("user_id"), seat.get("name")
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
        counted = await self.fetch(
            f"SELECT COUNT(DISTINCT user_id) FROM results WHERE {clause}", params
        )
        total = int(counted[0][0]) if counted else 0
        rows = await self.fetch(
            "SELECT user_id, SUM(won), COUNT(*), SUM(points), SUM(tabbar), SUM(hinted) FROM results"
            f" WHERE {clause} GROUP BY user_id"
            " ORDER BY SUM(won) DESC, CAST(SUM(won) AS REAL) / COUNT(*) DESC, SUM(points) DESC,"
            " user_id LIMIT ? OFFSET ?",
            [*params, limit, offset],
        )
        return [BoardRow(*map(int, r)) for r in rows], total

    # ------------------------------------------------------------------ meta

    async def get_meta(self, key: str) -> str | None:
        """A stored setting (e.g. the synced command-set hash)."""
        rows = await self.fetch("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        """Store a setting."""
        sql = (
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT(key) DO UPDATE SET value = excluded.value"
        )
        await self.write([Statement(sql, (key, value))])

    # --------------------------------------------------------- server settings

    async def guild_language(self, guild_id: int) -> str | None:
        """The language a server's admin chose for the bot's public messages, if any."""
        rows = await self.fetch(
            "SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return str(rows[0][0]) if rows else None

    async def guild_languages(self) -> dict[int, str]:
        """Every server's chosen language (servers that chose none are not listed)."""
        rows = await self.fetch("SELECT guild_id, language FROM guild_settings")
        return {int(guild): str(code) for guild, code in rows}

    async def set_guild_language(self, guild_id: int, language: str | None, now: float) -> None:
        """Choose a server's language (``None``: follow the server's own language again)."""
        if language is None:
            sql = "DELETE FROM guild_settings WHERE guild_id = ?"
            await self.write([Statement(sql, (guild_id,))])
            return
        sql = (
            "INSERT INTO guild_settings (guild_id, language, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT(guild_id) DO UPDATE SET language = excluded.language,"
            " updated_at = excluded.updated_at"
        )
        await self.write([Statement(sql, (guild_id, language, now))])

    # ------------------------------------------------------------ deck styles

    async def deck_styles(self) -> dict[str, dict[int, str]]:
        """Every chosen card deck: ``{"guild": {server: style}, "user": {player: style}}``
        (those who chose none are not listed)."""
        chosen: dict[str, dict[int, str]] = {kind: {} for kind in DECK_KINDS}
        for kind, subject, style in await self.fetch(
            "SELECT kind, subject_id, style FROM deck_styles"
        ):
            if kind in chosen:
                chosen[str(kind)][int(subject)] = str(style)
        return chosen

    async def set_deck_style(
        self, kind: str, subject_id: int, style: str | None, now: float
    ) -> None:
        """Choose the card deck of a server (``kind`` "guild") or a player ("user");
        ``None``: the default again."""
        if kind not in DECK_KINDS:
            raise ValueError(f"unknown kind {kind!r}")
        if style is None:
            sql = "DELETE FROM deck_styles WHERE kind = ? AND subject_id = ?"
            await self.write([Statement(sql, (kind, subject_id))])
            return
        sql = (
            "INSERT INTO deck_styles (kind, subject_id, style, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT(kind, subject_id) DO UPDATE SET style = excluded.style,"
            " updated_at = excluded.updated_at"
        )
        await self.write([Statement(sql, (kind, subject_id, style, now))])


def _seat_list(text: str) -> list[dict[str, Any]]:
    """The seats of a row; damaged seats name nobody (the game itself is reported when
    it is loaded)."""
    try:
        seats = json.loads(text)
    except (TypeError, ValueError):
        return []
    return [s for s in seats if isinstance(s, dict)] if isinstance(seats, list) else []


def _json_dict(text: object) -> dict[str, Any]:
    try:
        value = json.loads(str(text))
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _finished_steps(game: Game, now: float) -> list[Statement]:
    """A won match's history rows: its summary, and one row per person who sat in it."""
    match = game.match
    summary = {
        "seats": [
            {"name": seat.name, "kind": seat.kind, "level": seat.level, "side": game.side_of(i)}
            for i, seat in enumerate(game.seats)
        ],
        "teams": game.options.teams,
        "target": match.rules.target,
        "scores": list(match.scores),
        "winner": match.winner,
    }
    variant = game.options.variant
    steps = [
        Statement(
            "INSERT INTO finished (game_id, guild_id, variant, finished_at, summary)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO NOTHING",
            (game.id, game.guild_id, variant, now, json.dumps(summary)),
        )
    ]
    people = dict.fromkeys(int(s.user_id) for s in game.seats if s.is_human and s.user_id)
    steps.extend(
        Statement(
            "INSERT INTO finished_players (game_id, user_id, guild_id, variant, finished_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO NOTHING",
            (game.id, user, game.guild_id, variant, now),
        )
        for user in people
    )
    return steps


def _queue(posts: Sequence[Outgoing], now: float) -> list[Statement]:
    """The statements that put ``posts`` in the outbox: each returns its row's id; a table
    first removes the game's older tables still waiting (only the latest is posted)."""
    steps = []
    for post in posts:
        if post.table:
            steps.append(
                Statement("DELETE FROM outbox WHERE game_id = ? AND is_table = 1", (post.game_id,))
            )
        steps.append(
            Statement(
                "INSERT INTO outbox (game_id, guild_id, channel_id, is_table, body, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (post.game_id, post.guild_id, post.channel_id, int(post.table), post.body, now),
                returning=True,
            )
        )
    return steps


def _numbered(
    posts: Sequence[Outgoing], steps: Sequence[Statement], results: Sequence[Any]
) -> None:
    """Give each queued post the row id its INSERT returned."""
    ids = iter(value for step, value in zip(steps, results, strict=True) if step.returning)
    for post in posts:
        post.id = int(next(ids))


def check_changed(rowcount: int, step: Statement) -> None:
    """:class:`StaleGame` when a checked statement did not change exactly one row."""
    if step.check and rowcount != 1:
        raise StaleGame("the game changed in the database since this copy was loaded")
