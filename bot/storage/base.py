"""The storage interface: every query the bot makes, written once for both databases.

A backend (:mod:`bot.storage.sqlite`, :mod:`bot.storage.postgres`) supplies only how to
connect, read rows, run a list of statements as one transaction, and keep the schema
version. SQL here uses ``?`` placeholders; the PostgreSQL backend numbers them.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, ClassVar

from bot.models import LOWEST_WINS, Game, Status, lowest_wins
from bot.records import ratings
from bot.stages import Courier, Stage, stages_of
from bot.storage.ladder import LadderQueries
from bot.storage.lessons import LessonQueries
from bot.storage.notices import NoticeQueries
from bot.storage.outbox import OutboxQueries, number_posts, queue_posts
from bot.storage.players import PlayerQueries, new_players_steps, players_of, players_steps
from bot.storage.privacy import PrivacyQueries
from bot.storage.puzzles import PuzzleQueries
from bot.storage.rating_writes import changes, rating_steps, ratings_lock
from bot.storage.records import (
    GAME_COLUMNS,
    BoardRow,
    ChannelBusy,
    HistoryRow,
    MoveRecord,
    Outgoing,
    RatingRow,
    ResultLine,
    ResultRecord,
    StaleGame,
    StoredMove,
    Totals,
    game_values,
    row_to_game,
)
from bot.storage.schema import COMPUTED, MIGRATIONS, statements
from bot.storage.sql import (
    ACTIVE,
    PEOPLE,
    Computed,
    Shards,
    Statement,
    Step,
    check_changed,
    json_object,
    of_shards,
    seat_list,
)
from bot.storage.talk import TalkQueries
from bot.storage.tournaments import TournamentQueries

__all__ = [
    "ACTIVE", "PEOPLE", "Computed", "Shards", "Statement", "Step", "changes", "check_changed",
    "ratings_lock",
]  # fmt: skip

DECK_KINDS = ("guild", "user")  # whose card deck a ``deck_styles`` row is
NO_GAME = -1  # the version :meth:`Storage.game_lock` gives for a game with no row


class Storage(
    OutboxQueries,
    PrivacyQueries,
    PuzzleQueries,
    LessonQueries,
    TournamentQueries,
    LadderQueries,
    TalkQueries,
    PlayerQueries,
    NoticeQueries,
):
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

    async def write(self, steps: Sequence[Step]) -> list[Any]:
        """Run the statements as one transaction, committed before this returns; gives
        each statement's returned value (``returning``) or changed-row count (a
        :class:`Computed` step: how many statements it ran)."""
        raise NotImplementedError

    async def _apply_migration(self, number: int, steps: list[str | Computed]) -> None:
        """Run one migration's statements (and its :data:`COMPUTED` steps, after them) and
        record ``number`` as the version, atomically."""
        raise NotImplementedError

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        r"""Call ``callback(payload)`` (on the event loop, never waiting) whenever any
        process :meth:`notify`\ s ``channel``."""
        raise NotImplementedError

    async def notify(self, channel: str, payload: str) -> None:
        """Tell the processes listening on ``channel`` (what changed is already committed:
        they read it)."""
        raise NotImplementedError

    @asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[int | None]:
        """Hold the game's lock across processes (a no-op for a single-process database).
        Yields the game's saved version if taking the lock read it, under the lock
        (``NO_GAME``: no such game), else ``None``."""
        yield None

    # --------------------------------------------------------------- the schema

    async def migrate(self) -> None:
        """Apply the migrations the database does not have yet."""
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            computed = COMPUTED[number]() if number in COMPUTED else []
            await self._apply_migration(number, [*statements(script), *computed])

    # ---------------------------------------------------------------- games

    async def create_game(self, game: Game, now: float) -> Game:
        """Insert a new game and set its ``id``; :class:`ChannelBusy` if the channel is taken."""
        try:
            (game.id, *_) = await self.write(game_steps(game, now))
        except self.integrity_errors:
            raise ChannelBusy(await self.channel_game(game.channel_id)) from None
        game.created_at = now
        game.stored_version = game.version
        game.stored_players = players_of(game)
        return game

    async def get_game(self, game_id: int) -> Game | None:
        """The game with this id, or ``None``; :class:`CorruptGame` if it cannot be read."""
        rows = await self.fetch(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        game = row_to_game(rows[0])
        if game.extra.get("mirrored"):
            game.mirrors = await self.mirrors(game_id)
        game.stored_players = players_of(game)  # the index holds them (written with it)
        return game

    async def mirrors(self, game_id: int) -> list[Stage]:
        """The other places a game is shown (:mod:`bot.stages`), in the order made."""
        rows = await self.fetch(
            "SELECT guild_id, channel_id, courier, seats, locale, message_id, ping_id"
            " FROM stages WHERE game_id = ? ORDER BY channel_id",
            (game_id,),
        )
        return [
            Stage(
                int(guild),
                int(channel),
                Courier.parse(courier),
                tuple(int(seat) for seat in json.loads(seats)),
                str(locale) if locale else None,
                int(message) if message else None,
                int(ping) if ping else None,
            )
            for guild, channel, courier, seats, locale, message, ping in rows
        ]

    async def mirror_posted(self, game_id: int, stage: Stage, posted: Sequence[int] = ()) -> None:
        """Save a mirror's table message ids, deleting the ``posted`` outbox rows in the
        same transaction (as a game's own table is saved)."""
        await self.write(
            [
                Statement(
                    "UPDATE stages SET message_id = ?, ping_id = ? WHERE game_id = ?"
                    " AND channel_id = ?",
                    (stage.message_id, stage.ping_id, game_id, stage.channel_id),
                ),
                *(Statement("DELETE FROM outbox WHERE id = ?", (row,)) for row in posted),
            ]
        )

    async def game_version(self, game_id: int) -> int | None:
        """The saved version of a game (reads no state), or ``None``."""
        rows = await self.fetch("SELECT version FROM games WHERE id = ?", (game_id,))
        return int(rows[0][0]) if rows else None

    async def channel_game(self, channel_id: int) -> int | None:
        """The id of the lobby or match running in a channel, if any."""
        rows = await self.fetch(
            f"SELECT id FROM games WHERE channel_id = ? AND {ACTIVE}", (channel_id,)
        )
        if not rows:  # or one shown here too (a ladder match's second table)
            rows = await self.fetch(
                "SELECT s.game_id FROM stages s JOIN games g ON g.id = s.game_id"
                f" WHERE s.channel_id = ? AND g.{ACTIVE.strip()}",
                (channel_id,),
            )
        return int(rows[0][0]) if rows else None

    async def deadlines(self, shards: Shards | None = None) -> list[tuple[int, float]]:
        """``(game id, deadline)`` of every active game with one (to restart the timers);
        with ``shards``, only the games of those shards' guilds.

        Reads no saved state, so one damaged game cannot stop the others from starting.
        """
        theirs, params = of_shards(shards)
        rows = await self.fetch(
            f"SELECT id, deadline FROM games WHERE deadline IS NOT NULL AND {ACTIVE}"
            f" AND {theirs} ORDER BY deadline",
            params,
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
        steps = [Statement(sql, (now, game_id), check=bool(posts)), *queue_posts(posts, now)]
        # nobody sits in it any more (the index of who sits where names active games only)
        gone = Statement("DELETE FROM game_players WHERE game_id = ?", (game_id,))
        try:
            (changed, *ids, _) = await self.write([*steps, gone])
        except StaleGame:
            return False
        number_posts(posts, steps[1:], ids)
        return changed == 1

    async def save_game(
        self,
        game: Game,
        now: float,
        move: MoveRecord | None = None,
        results: Iterable[ResultRecord] = (),
        columns: Sequence[str] | None = None,
        posted: Sequence[int] = (),
    ) -> None:
        """Write a game's row, and in the same transaction its move and final results.

        The row is written only if the database still holds the version this copy was
        loaded at (:class:`StaleGame` otherwise, nothing written). ``columns``: only those
        changed (a new message's id), so the saved match is not encoded again. ``posted``:
        outbox rows whose posts are made, deleted in this transaction (the table whose id
        this saves: one write, not two).
        """
        values = game_values(game, columns)
        assignments = ", ".join(f"{key} = ?" for key in values)
        steps = [
            Statement(
                f"UPDATE games SET {assignments}, updated_at = ? WHERE id = ? AND version = ?",
                [*values.values(), now, game.id, game.stored_version],
                check=True,
            )
        ]
        seated = players_steps(game)  # who sits in it, when that changed
        steps += seated
        if move is not None:
            steps.append(
                Statement(
                    "INSERT INTO moves (game_id, version, seat, card, taken, auto, at, round,"
                    " move, seal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (game.id, game.version, move.seat, move.card, " ".join(move.taken),
                     int(move.auto), now, move.round, move.move, move.seal),
                )
            )  # fmt: skip
            if game.status is Status.FINISHED:
                steps.extend(_finished_steps(game, now))
        opts = game.options
        results = list(results)
        steps.extend(
            Statement(
                "INSERT INTO results (game_id, guild_id, variant, target, user_id, side, won,"
                " points, tabbar, finished_at, vs_computer, hinted, rounds, storan, lillan,"
                " aces, lineup) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
                " ON CONFLICT (game_id, user_id) DO UPDATE SET"
                " side = excluded.side, won = excluded.won, points = excluded.points,"
                " tabbar = excluded.tabbar, finished_at = excluded.finished_at,"
                " vs_computer = excluded.vs_computer, hinted = excluded.hinted,"
                " rounds = excluded.rounds, storan = excluded.storan,"
                " lillan = excluded.lillan, aces = excluded.aces, lineup = excluded.lineup",
                (game.id, game.record_guild, opts.variant, opts.target, r.user_id, r.side,
                 int(r.won), r.points, r.tabbar, now, int(r.vs_computer), int(r.hinted),
                 r.rounds, r.storan, r.lillan, r.aces, r.lineup),
            )
            for r in results
        )  # fmt: skip
        lineup = ratings.Lineup.loads(results[0].lineup) if results else None
        if lineup is not None and lineup.rated:
            hinted = any(r.hinted for r in results)
            steps += rating_steps(game.id, game.record_guild, opts.variant, lineup, hinted, now)
        steps.extend(Statement("DELETE FROM outbox WHERE id = ?", (row,)) for row in posted)
        queued = queue_posts(game.outbox, now)
        ids = (await self.write([*steps, *queued]))[len(steps) :]
        number_posts(game.outbox, queued, ids)
        game.stored_version = game.version
        if seated:
            game.stored_players = players_of(game)

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
        channel_id: int | None = None,
    ) -> tuple[list[HistoryRow], int]:
        """One page of a server's finished matches, newest first (``user_id``: those the
        person sat in; ``variant``: of that game only; ``channel_id``: played in that
        channel only, as outside servers, where every game has the guild id 0), and how
        many there are."""
        table = "finished" if user_id is None else "finished_players"
        where, params = ["guild_id = ?"], [guild_id]
        if user_id is None:  # a server's matches: those shown there too (a ladder match's)
            where = ["(guild_id = ? OR game_id IN (SELECT game_id FROM stages WHERE guild_id = ?))"]
            params = [guild_id, guild_id]
        if channel_id is not None:
            where.append(f"game_id IN ({CONVERSATION_GAMES})")
            params.extend((channel_id, channel_id))
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
            HistoryRow(int(gid), str(var), float(at), json_object(summary))
            for gid, var, at, summary in rows
        ], total

    async def game_moves(self, game_id: int) -> list[StoredMove]:
        """A game's move log in the order played."""
        rows = await self.fetch(
            "SELECT version, seat, card, taken, auto, at, round, move, seal FROM moves"
            " WHERE game_id = ? ORDER BY version",
            (game_id,),
        )
        return [
            StoredMove(int(v), int(seat), str(card), str(taken), bool(auto), float(at),
                       None if rnd is None else int(rnd), None if mv is None else str(mv),
                       None if sl is None else str(sl))
            for v, seat, card, taken, auto, at, rnd, mv, sl in rows
        ]  # fmt: skip

    async def finished_at(self, game_id: int) -> float | None:
        """When a match was won (``None``: not a finished match)."""
        rows = await self.fetch("SELECT finished_at FROM finished WHERE game_id = ?", (game_id,))
        return float(rows[0][0]) if rows else None

    # ----------------------------------------------------------- leaderboard

    async def recent_names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """Each person's name as seated in their latest finished match in this server, for
        boards and pages that name people (a mention in an embed shows as a number where the
        member is not cached): a few index reads each, however many games there are."""
        wanted = {int(u) for u in user_ids}
        games = set()
        for user in wanted:
            rows = await self.fetch(
                "SELECT game_id FROM results WHERE guild_id = ? AND user_id = ?"
                " ORDER BY finished_at DESC, game_id DESC LIMIT 1",
                (guild_id, user),
            )
            games.update(int(g) for (g,) in rows)
        if not games:
            return {}
        marks = ", ".join("?" for _ in games)
        rows = await self.fetch(
            f"SELECT seats FROM games WHERE id IN ({marks}) ORDER BY id", sorted(games)
        )
        names: dict[int, str] = {}
        for (seats,) in rows:
            for seat in seat_list(seats):
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
        where, params = ["guild_id = ?", "vs_computer = ?", PEOPLE], [guild_id, int(computers)]
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
        # Where the lowest total wins (Krypkasino) fewer points rank higher; the board of
        # every variant adds up only the points of the games where points are good.
        points, order = "points", "DESC"
        if variant and lowest_wins(variant):
            order = "ASC"
        elif not variant:
            low = ", ".join(f"'{key}'" for key in LOWEST_WINS)
            points = f"CASE WHEN variant IN ({low}) THEN 0 ELSE points END"
        rows = await self.fetch(
            f"SELECT user_id, SUM(won), COUNT(*), SUM({points}), SUM(tabbar), SUM(hinted)"
            f" FROM results WHERE {clause} GROUP BY user_id"
            " ORDER BY SUM(won) DESC, CAST(SUM(won) AS REAL) / COUNT(*) DESC,"
            f" SUM({points}) {order}, user_id LIMIT ? OFFSET ?",
            [*params, limit, offset],
        )
        return [BoardRow(*map(int, r)) for r in rows], total

    async def rating_board(
        self,
        guild_id: int,
        variant: str,
        offset: int = 0,
        limit: int = 10,
        *,
        computers: bool = False,
    ) -> tuple[list[RatingRow], int]:
        """One page of a server's rating board of one variant and how many players are on
        it. One list, every player on some page: the rated players (``PROVISIONAL`` rated
        matches or more) first, then the provisional ones, each by the shown rating (mu),
        ties by more matches, then user id (:data:`BOARD_ORDER`)."""
        board = ratings.COMPUTERS if computers else ratings.PEOPLE
        where = f"guild_id = ? AND variant = ? AND board = ? AND {PEOPLE}"
        params = [guild_id, variant, board]
        counted = await self.fetch(f"SELECT COUNT(*) FROM ratings WHERE {where}", params)
        rows = await self.fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE {where}"
            f" ORDER BY {BOARD_ORDER} LIMIT ? OFFSET ?",
            [*params, ratings.PROVISIONAL, limit, offset],
        )
        total = int(counted[0][0]) if counted else 0
        return [_rating_row(r) for r in rows], total

    async def rating(
        self, guild_id: int, variant: str, user_id: int, *, computers: bool = False
    ) -> tuple[RatingRow | None, int, int]:
        """A person's rating on a board, their place on the board's one list (as
        :meth:`rating_board` orders it; 0: not on it) and how many players it has."""
        board = ratings.COMPUTERS if computers else ratings.PEOPLE
        key = (guild_id, variant, board)
        where = f"guild_id = ? AND variant = ? AND board = ? AND {PEOPLE}"
        rows = await self.fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE {where} AND user_id = ?", (*key, user_id)
        )
        counted = await self.fetch(f"SELECT COUNT(*) FROM ratings WHERE {where}", key)
        total = int(counted[0][0]) if counted else 0
        if not rows:
            return None, 0, total
        row = _rating_row(rows[0])
        tier = 0 if row.matches >= ratings.PROVISIONAL else 1
        # the players listed before this one: a better tier, or the same tier and a higher
        # mu, or the same mu and more matches, or the same matches and a smaller id
        above = await self.fetch(
            f"SELECT COUNT(*) FROM ratings WHERE {where} AND ({TIER} < ? OR ({TIER} = ? AND"
            " (mu > ? OR (mu = ? AND (matches > ? OR (matches = ? AND user_id < ?))))))",
            (*key, ratings.PROVISIONAL, tier, ratings.PROVISIONAL, tier, row.mu, row.mu,
             row.matches, row.matches, row.user_id),
        )  # fmt: skip
        return row, int(above[0][0]) + 1, total

    async def rating_history(
        self,
        guild_id: int,
        variant: str,
        user_id: int,
        limit: int = ratings.CHART_MATCHES,
        *,
        computers: bool = False,
    ) -> list[tuple[float, float, float, float]]:
        """A person's last rating changes on a board, oldest first: ``(mu before, sigma
        before, mu after, sigma after)``."""
        board = ratings.COMPUTERS if computers else ratings.PEOPLE
        rows = await self.fetch(
            "SELECT mu_before, sigma_before, mu_after, sigma_after FROM rating_changes"
            " WHERE guild_id = ? AND user_id = ? AND board = ? AND variant = ?"
            " ORDER BY seq DESC LIMIT ?",
            (guild_id, user_id, board, variant, limit),
        )
        return [tuple(map(float, row)) for row in reversed(rows)]  # type: ignore[misc]

    async def player_totals(self, guild_id: int, user_id: int) -> dict[tuple[str, bool], Totals]:
        """A person's totals in a server, per ``(variant, against computers)``."""
        rows = await self.fetch(
            "SELECT variant, vs_computer, COUNT(*), SUM(won), SUM(points), SUM(tabbar),"
            " SUM(rounds), SUM(storan), SUM(lillan), SUM(aces) FROM results"
            " WHERE guild_id = ? AND user_id = ? GROUP BY variant, vs_computer",
            (guild_id, user_id),
        )
        return {
            (str(variant), bool(vs)): Totals(*(int(n or 0) for n in rest))
            for variant, vs, *rest in rows
        }

    async def player_results(
        self,
        guild_id: int,
        user_id: int,
        variant: str | None = None,
        limit: int | None = None,
        channel_id: int | None = None,
    ) -> list[ResultLine]:
        """A person's results in a server, newest first (``limit``: only that many;
        ``channel_id``: played in that channel only, as outside servers)."""
        where, params = "guild_id = ? AND user_id = ?", [guild_id, user_id]
        if channel_id is not None:
            where += f" AND game_id IN ({CONVERSATION_GAMES})"
            params.extend((channel_id, channel_id))
        if variant:
            where += " AND variant = ?"
            params.append(variant)  # type: ignore[arg-type]
        tail = ""
        if limit is not None:
            tail = " LIMIT ?"
            params.append(limit)
        rows = await self.fetch(
            "SELECT game_id, variant, won, points, vs_computer, lineup, finished_at FROM results"
            f" WHERE {where} ORDER BY finished_at DESC, game_id DESC{tail}",
            params,
        )
        return [
            ResultLine(int(g), str(v), bool(w), int(p), bool(vs), str(lu), float(at))
            for g, v, w, p, vs, lu, at in rows
        ]

    async def player_streaks(
        self, guild_id: int, user_id: int, variant: str | None = None
    ) -> tuple[int, int]:
        """A person's longest run of won matches in a server, and the run they are on now,
        counted by the database from the index (a player of 20,000 matches sends back one
        row, not 20,000)."""
        where, params = player_where(guild_id, user_id, variant)
        # a run of wins is the wins after the same number of losses; the current run is
        # the wins after the last loss (one pass over the index, in its order)
        rows = await self.fetch(
            "SELECT COALESCE(MAX(run), 0), COALESCE(MAX(CASE WHEN lost = losses THEN run END), 0)"
            " FROM (SELECT lost, losses, COUNT(*) AS run FROM (SELECT won,"
            " SUM(1 - won) OVER (ORDER BY finished_at, game_id ROWS UNBOUNDED PRECEDING) AS lost,"
            f" SUM(1 - won) OVER () AS losses FROM results WHERE {where}) AS matches"
            " WHERE won = 1 GROUP BY lost, losses) AS runs",
            params,
        )
        return int(rows[0][0]), int(rows[0][1])

    async def meetings(
        self, guild_id: int, user_id: int, other_id: int
    ) -> list[tuple[ResultLine, ResultLine, bool]]:
        """Every match two people played together in a server, newest first: each one's
        result, and whether they were partners (the same side)."""
        rows = await self.fetch(
            "SELECT a.game_id, a.variant, a.won, a.points, a.vs_computer, a.lineup,"
            " a.finished_at, b.won, b.points, a.side = b.side FROM results a"
            " JOIN results b ON b.game_id = a.game_id AND b.user_id = ?"
            " WHERE a.guild_id = ? AND a.user_id = ?"
            " ORDER BY a.finished_at DESC, a.game_id DESC",
            (other_id, guild_id, user_id),
        )
        found = []
        for game, variant, won, points, vs, lineup, at, other_won, other_points, same in rows:
            mine = ResultLine(int(game), str(variant), bool(won), int(points), bool(vs),
                              str(lineup), float(at))  # fmt: skip
            theirs = ResultLine(int(game), str(variant), bool(other_won), int(other_points),
                                bool(vs), str(lineup), float(at))  # fmt: skip
            found.append((mine, theirs, bool(same)))
        return found

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


RATING_COLUMNS = "user_id, mu, sigma, matches, wins, hinted"
# A rating board's tier: 0 rated, 1 provisional (its one parameter: PROVISIONAL).
TIER = "CASE WHEN matches >= ? THEN 0 ELSE 1 END"
# The one order of a rating board: rated players first, then provisional ones; each by
# the shown rating (mu), then more matches, then user id.
BOARD_ORDER = f"{TIER}, mu DESC, matches DESC, user_id"


def _rating_row(row: Sequence[Any]) -> RatingRow:
    user_id, mu, sigma, matches, wins, hinted = row
    return RatingRow(int(user_id), float(mu), float(sigma), int(matches), int(wins), int(hinted))


def player_where(guild_id: int, user_id: int, variant: str | None) -> tuple[str, list[Any]]:
    """The ``WHERE`` condition on ``results`` of one person's matches in a server (of one
    variant), and its parameters."""
    if variant:
        return "guild_id = ? AND user_id = ? AND variant = ?", [guild_id, user_id, variant]
    return "guild_id = ? AND user_id = ?", [guild_id, user_id]


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
    mark = game.extra.get("tournament")
    if isinstance(mark, dict):  # a tournament's table: the history names it
        summary["tournament"] = {k: mark[k] for k in ("id", "name", "round") if k in mark}
    variant = game.options.variant
    steps = [
        Statement(
            "INSERT INTO finished (game_id, guild_id, variant, finished_at, summary)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO NOTHING",
            (game.id, game.guild_id, variant, now, json.dumps(summary)),
        )
    ]
    # each person's row in the server they played from (a ladder match's other table's
    # player has it in their history there)
    sat_in = {seat: stage.guild_id for stage in stages_of(game) for seat in stage.seats}
    people = {
        int(s.user_id): sat_in.get(index, game.guild_id)
        for index, s in enumerate(game.seats)
        if s.is_human and s.user_id
    }
    steps.extend(
        Statement(
            "INSERT INTO finished_players (game_id, user_id, guild_id, variant, finished_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO NOTHING",
            (game.id, user, guild, variant, now),
        )
        for user, guild in people.items()
    )
    return steps


# The games of a conversation (a channel outside servers): played there, or shown there too
# (a ladder match's other table); its channel id twice.
CONVERSATION_GAMES = (
    "SELECT id FROM games WHERE channel_id = ?"
    " UNION SELECT game_id FROM stages WHERE channel_id = ?"
)


def game_steps(game: Game, now: float) -> list[Statement]:
    """The statements that store a new game (the first returns its id), its mirrors and
    who sits in it."""
    values = game_values(game)
    columns = ", ".join(values) + ", created_at, updated_at"
    marks = ", ".join("?" for _ in range(len(values) + 2))
    sql = f"INSERT INTO games ({columns}) VALUES ({marks}) RETURNING id"
    return [
        Statement(sql, [*values.values(), now, now], returning=True),
        *mirror_steps(game),
        *new_players_steps(game),
    ]


def mirror_steps(game: Game) -> list[Statement]:
    """The statements that store a new game's mirrors, in the transaction that creates it:
    the new game is found by its own channel (one active game a channel, so the row just
    inserted), which both databases can read back within the transaction."""
    steps = []
    for mirror in game.mirrors:
        row = mirror.to_row()
        values = (row["guild_id"], row["channel_id"], row["courier"], row["seats"], row["locale"])
        steps.append(
            Statement(
                "INSERT INTO stages (game_id, guild_id, channel_id, courier, seats, locale)"
                f" SELECT id, ?, ?, ?, ?, ? FROM games WHERE channel_id = ? AND {ACTIVE}",
                (*values, game.channel_id),
            )
        )
    return steps
