"""The puzzle of the day and each person's answers (``puzzle_days``, ``puzzle_attempts``).

The day's puzzle is stored the first time anyone asks for it; a second process choosing
at the same moment finds the row there and takes it, so everyone in the server gets the
same puzzle all day. A person's row of ``puzzle_attempts`` is written when they open the
puzzle with the command in the server (``move`` empty: not answered yet), and their first
answer fills it: that answer is the one that counts. A puzzle nobody opened in their
server has no row for them, so its menus cannot be answered with a forged id.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.sql import Queries, Statement


@dataclass(frozen=True, slots=True)
class PuzzleDay:
    """A stored puzzle of the day: its row ``id``, server, family, UTC day and JSON."""

    id: int
    guild_id: int
    family: str
    day: str
    puzzle: str


@dataclass(frozen=True, slots=True)
class PuzzleAttempt:
    """A person's row for a puzzle: the counted answer (``move`` as JSON, empty while
    they have opened the puzzle but not answered) and whether it was the best."""

    move: str
    solved: bool
    at: float

    @property
    def answered(self) -> bool:
        """Whether the person has answered (their first answer counted)."""
        return bool(self.move)


_DAY = "SELECT id, guild_id, family, day, puzzle FROM puzzle_days"


class PuzzleQueries(Queries):
    """The storage's queries of the puzzle of the day."""

    async def puzzle_day(self, guild_id: int, family: str, day: str) -> PuzzleDay | None:
        """The server's puzzle of ``family`` on ``day`` (``YYYY-MM-DD``, UTC), if chosen."""
        rows = await self.fetch(
            f"{_DAY} WHERE guild_id = ? AND family = ? AND day = ?", (guild_id, family, day)
        )
        return _day(rows[0]) if rows else None

    async def puzzle_day_by_id(self, puzzle_id: int) -> PuzzleDay | None:
        """A stored puzzle of the day by its row id."""
        rows = await self.fetch(f"{_DAY} WHERE id = ?", (puzzle_id,))
        return _day(rows[0]) if rows else None

    async def keep_puzzle_day(
        self, guild_id: int, family: str, day: str, puzzle: str, now: float
    ) -> PuzzleDay:
        """Store ``puzzle`` as the day's unless one is stored already; the stored one."""
        await self.write(
            [
                Statement(
                    "INSERT INTO puzzle_days (guild_id, family, day, puzzle, created_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, family, day) DO NOTHING",
                    (guild_id, family, day, puzzle, now),
                )
            ]
        )
        kept = await self.puzzle_day(guild_id, family, day)
        assert kept is not None  # just written, or written by another process first
        return kept

    async def open_puzzle(self, day: PuzzleDay, user_id: int, now: float) -> None:
        """The person opened the puzzle with the command in its server (kept once)."""
        await self.write(
            [
                Statement(
                    "INSERT INTO puzzle_attempts"
                    " (puzzle_id, user_id, guild_id, day, move, solved, at)"
                    " VALUES (?, ?, ?, ?, '', 0, ?) ON CONFLICT (puzzle_id, user_id) DO NOTHING",
                    (day.id, user_id, day.guild_id, day.day, now),
                )
            ]
        )

    async def puzzle_attempt(self, puzzle_id: int, user_id: int) -> PuzzleAttempt | None:
        """The person's row for the puzzle (None: they never opened it)."""
        rows = await self.fetch(
            "SELECT move, solved, at FROM puzzle_attempts WHERE puzzle_id = ? AND user_id = ?",
            (puzzle_id, user_id),
        )
        if not rows:
            return None
        move, solved, at = rows[0]
        return PuzzleAttempt(str(move), bool(solved), float(at))

    async def answer_puzzle(
        self, day: PuzzleDay, user_id: int, move: str, solved: bool, now: float
    ) -> bool:
        """Count the person's answer (``move`` as JSON, not empty) unless they answered
        already; whether it counted (False too for a puzzle they never opened)."""
        if not move:
            raise ValueError("an answer is a move")
        changed = await self.write(
            [
                Statement(
                    "UPDATE puzzle_attempts SET move = ?, solved = ?, at = ?"
                    " WHERE puzzle_id = ? AND user_id = ? AND move = ''",
                    (move, int(solved), now, day.id, user_id),
                )
            ]
        )
        return bool(changed[0])

    async def solved_days(self, guild_id: int, user_id: int, since: str) -> list[str]:
        """The UTC days (``YYYY-MM-DD``, newest first) from ``since`` on on which the
        person solved a puzzle of the server."""
        rows = await self.fetch(
            "SELECT DISTINCT day FROM puzzle_attempts WHERE guild_id = ? AND user_id = ?"
            " AND solved = 1 AND day >= ? ORDER BY day DESC",
            (guild_id, user_id, since),
        )
        return [str(day) for (day,) in rows]

    async def finished_games_of(
        self, guild_id: int, variants: Sequence[str], limit: int
    ) -> list[int]:
        """The server's latest ``limit`` finished games of ``variants``, newest first."""
        marks = ", ".join("?" for _ in variants)
        rows = await self.fetch(
            f"SELECT game_id FROM finished WHERE guild_id = ? AND variant IN ({marks})"
            " ORDER BY finished_at DESC, game_id DESC LIMIT ?",
            (guild_id, *variants, limit),
        )
        return [int(game_id) for (game_id,) in rows]


def _day(row: Sequence[object]) -> PuzzleDay:
    puzzle_id, guild_id, family, day, puzzle = row
    return PuzzleDay(int(puzzle_id), int(guild_id), str(family), str(day), str(puzzle))  # type: ignore[call-overload]
