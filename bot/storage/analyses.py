"""The stored analyses of finished matches (``analyses``: one row per game and seat)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.sql import Queries, Statement, seat_list


@dataclass(frozen=True, slots=True)
class StoredAnalysis:
    """An analysis as stored: its :data:`bot.analysis.ANALYSIS_VERSION` and its JSON."""

    version: int
    body: str


class AnalysisQueries(Queries):
    """The storage's queries about analyses."""

    async def analysis(self, game_id: int, seat: int) -> StoredAnalysis | None:
        """The stored analysis of a seat's moves in a game, if any."""
        rows = await self.fetch(
            "SELECT version, body FROM analyses WHERE game_id = ? AND seat = ?",
            (int(game_id), int(seat)),
        )
        return StoredAnalysis(int(rows[0][0]), str(rows[0][1])) if rows else None

    async def save_analysis(
        self, game_id: int, seat: int, version: int, body: str, now: float, user_id: int
    ) -> bool:
        """Store (or replace, when it was of an older version) a seat's analysis, only while
        ``user_id`` (who sat there) is still a player of the finished game: ``False``, and
        nothing stored, once they have been forgotten (by this process or another: the
        check is in the same statement, so it cannot pass just before a forgetting)."""
        changed = await self.write([
            Statement(
                "INSERT INTO analyses (game_id, seat, version, body, created_at)"
                " SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM finished_players"
                " WHERE game_id = ? AND user_id = ?) ON CONFLICT (game_id, seat) DO UPDATE"
                " SET version = excluded.version, body = excluded.body,"
                " created_at = excluded.created_at",
                (int(game_id), int(seat), int(version), body, now, int(game_id),
                 int(user_id)),
            )
        ])  # fmt: skip
        return bool(changed and changed[0])

    async def _analyses_without(self, uid: int) -> list[Statement]:
        """Forgetting a person: the analyses of every seat they sat in go (an analysis
        is about how that person played)."""
        rows = await self.fetch(
            "SELECT DISTINCT games.id, games.seats FROM games JOIN analyses"
            " ON analyses.game_id = games.id WHERE games.seats LIKE ?",
            (f"%{uid}%",),
        )
        sql = "DELETE FROM analyses WHERE game_id = ? AND seat = ?"
        return [
            Statement(sql, (game_id, place))
            for game_id, seats in rows
            for place, seat in enumerate(seat_list(seats))
            if seat.get("user_id") == uid
        ]
