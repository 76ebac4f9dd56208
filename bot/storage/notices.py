"""Each person's notice settings for correspondence games in storage (migration
``notice_prefs``, version 21): one row per person who changed something (the defaults of
:class:`NoticePrefs` otherwise), read whole at a start (every process keeps them in
memory: ``cogs.correspondence.prefs.Prefs``), and the games waiting for a person's move.

When a daily digest went is kept with the row (``digest_sent_at``) and taken by a
compare-and-set (:meth:`NoticeQueries.take_digest`), so a restart, or a second process,
never sends one day's digest twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.correspondence.prefs import HOWS, MENTION, NoticePrefs
from bot.models import Game
from bot.storage.records import StaleGame
from bot.storage.sql import Queries, Statement

_COLUMNS = (
    "user_id, how, tz, quiet_start, quiet_end, digest_hour, dm_refused, away_until,"
    " away_month, away_days, locale"
)


def _prefs(row: Sequence[Any]) -> NoticePrefs:
    """A person's settings from their row (an unknown ``how``, written by a newer bot,
    reads as the default)."""
    _, how, tz, start, end, hour, refused, until, month, days, locale = row
    return NoticePrefs(
        how=how if how in HOWS else MENTION,
        tz=str(tz),
        quiet_start=None if start is None else int(start),
        quiet_end=None if end is None else int(end),
        digest_hour=int(hour),
        dm_refused=bool(refused),
        away_until=None if until is None else float(until),
        away_month=None if month is None else str(month),
        away_days=int(days),
        locale=None if locale is None else str(locale),
    )


class NoticeQueries(Queries):
    """The storage's queries about people's notice settings and vacations."""

    async def all_notice_prefs(self) -> dict[int, NoticePrefs]:
        """Every stored person's settings, by user id."""
        rows = await self.fetch(f"SELECT {_COLUMNS} FROM notice_prefs")
        return {int(row[0]): _prefs(row) for row in rows}

    async def notice_prefs(self, user_id: int) -> NoticePrefs | None:
        """One person's stored settings (``None``: they never changed any)."""
        rows = await self.fetch(
            f"SELECT {_COLUMNS} FROM notice_prefs WHERE user_id = ?", (user_id,)
        )
        return _prefs(rows[0]) if rows else None

    async def save_notice_prefs(self, user_id: int, prefs: NoticePrefs, now: float) -> None:
        """Store a person's settings (all of them; the digest's last time is kept)."""
        values = (
            user_id, prefs.how, prefs.tz, prefs.quiet_start, prefs.quiet_end,
            prefs.digest_hour, int(prefs.dm_refused), prefs.away_until, prefs.away_month,
            prefs.away_days, prefs.locale, now,
        )  # fmt: skip
        await self.write(
            [
                Statement(
                    f"INSERT INTO notice_prefs ({_COLUMNS}, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (user_id) DO UPDATE SET how = excluded.how,"
                    " tz = excluded.tz, quiet_start = excluded.quiet_start,"
                    " quiet_end = excluded.quiet_end, digest_hour = excluded.digest_hour,"
                    " dm_refused = excluded.dm_refused, away_until = excluded.away_until,"
                    " away_month = excluded.away_month, away_days = excluded.away_days,"
                    " locale = excluded.locale,"
                    " updated_at = excluded.updated_at",
                    values,
                )
            ]
        )

    async def set_dm_refused(self, user_id: int, refused: bool, now: float) -> None:
        """Note that Discord refused (or again accepts) the bot's DMs to a person."""
        await self.write(
            [
                Statement(
                    "INSERT INTO notice_prefs (user_id, dm_refused, updated_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (user_id) DO UPDATE SET dm_refused = excluded.dm_refused,"
                    " updated_at = excluded.updated_at",
                    (user_id, int(refused), now),
                )
            ]
        )

    async def digest_times(self) -> dict[int, float]:
        """When each person's last daily digest went (those who had one)."""
        rows = await self.fetch(
            "SELECT user_id, digest_sent_at FROM notice_prefs WHERE digest_sent_at IS NOT NULL"
        )
        return {int(user): float(at) for user, at in rows}

    async def last_digest(self, user_id: int) -> float | None:
        """When the person's last daily digest went (``None``: never)."""
        rows = await self.fetch(
            "SELECT digest_sent_at FROM notice_prefs WHERE user_id = ?", (user_id,)
        )
        return float(rows[0][0]) if rows and rows[0][0] is not None else None

    async def take_digest(self, user_id: int, now: float, not_since: float) -> bool:
        """Take a digest for sending at ``now`` (``True``), unless one was taken at or after
        ``not_since`` (here or by another process, before a restart)."""
        take = Statement(
            "UPDATE notice_prefs SET digest_sent_at = ?"
            " WHERE user_id = ? AND (digest_sent_at IS NULL OR digest_sent_at < ?)",
            (now, user_id, not_since),
            check=True,
        )
        try:
            await self.write([take])
        except StaleGame:  # the checked statement changed nothing: taken already
            return False
        return True

    async def games_waiting_for(self, user_id: int) -> list[Game]:
        """The running correspondence games in which it is the person's move, oldest
        first (a damaged row is left out: its own flows close it)."""
        # the index of who sits where (bot.storage.players), not a scan of every game
        games = await self.person_games(user_id)  # type: ignore[attr-defined]
        return [game for game in games if _to_move(game) == user_id]


def _to_move(game: Game) -> int | None:
    """The person whose move it is in a running correspondence game (``None``: a live
    game, a computer's move, or between rounds)."""
    if not game.options.correspondence or game.match is None:
        return None
    rnd = game.match.round
    if rnd is None or game.match.is_over or rnd.is_over:
        return None
    seat = game.seats[rnd.to_move]
    return seat.user_id if seat.is_human else None
