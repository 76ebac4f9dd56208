"""Lesson progress (``/kasino learn``): one row per person and lesson, with the step they
are at and a version bumped by every answered step, so a stale lesson menu is refused and
a double click advances once (a compare-and-set on the version)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.sql import Queries, Statement

_COLUMNS = "id, user_id, lesson, step, version, finished"


@dataclass(frozen=True, slots=True)
class LessonRow:
    """A person's place in a lesson: ``step`` (0 first), ``version``, ``finished``."""

    id: int
    user_id: int
    lesson: str
    step: int
    version: int
    finished: bool


def _row(row: Sequence[Any]) -> LessonRow:
    pid, user, lesson, step, version, finished = row
    return LessonRow(int(pid), int(user), str(lesson), int(step), int(version), bool(finished))


class LessonQueries(Queries):
    """The storage's queries about lesson progress."""

    async def lesson_row(self, row_id: int) -> LessonRow | None:
        """A progress row by its id."""
        rows = await self.fetch(f"SELECT {_COLUMNS} FROM lesson_progress WHERE id = ?", (row_id,))
        return _row(rows[0]) if rows else None

    async def lesson_progress(self, user_id: int, lesson: str) -> LessonRow | None:
        """A person's row of a lesson (``None``: never started)."""
        rows = await self.fetch(
            f"SELECT {_COLUMNS} FROM lesson_progress WHERE user_id = ? AND lesson = ?",
            (user_id, lesson),
        )
        return _row(rows[0]) if rows else None

    async def start_lesson(self, user_id: int, lesson: str, now: float) -> LessonRow:
        """A person's row of a lesson, made at its first step if there is none; a finished
        lesson starts again at its first step (a new version: its old menus are stale).
        One that is under way is left where it is (it resumes)."""
        await self.write(
            [
                Statement(
                    "INSERT INTO lesson_progress (user_id, lesson, updated_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (user_id, lesson) DO NOTHING",
                    (user_id, lesson, now),
                ),
                Statement(
                    "UPDATE lesson_progress SET step = 0, finished = 0, version = version + 1,"
                    " updated_at = ? WHERE user_id = ? AND lesson = ? AND finished = 1",
                    (now, user_id, lesson),
                ),
            ]
        )
        row = await self.lesson_progress(user_id, lesson)
        assert row is not None  # just written
        return row

    async def advance_lesson(
        self, row_id: int, version: int, step: int, finished: bool, now: float
    ) -> bool:
        """Move a lesson on to ``step`` (or mark it ``finished``) if its row is still at
        ``version``; whether it was (``False``: it moved on meanwhile, nothing changed)."""
        (changed,) = await self.write(
            [
                Statement(
                    "UPDATE lesson_progress SET step = ?, finished = ?, version = version + 1,"
                    " updated_at = ? WHERE id = ? AND version = ?",
                    (step, int(finished), now, row_id, version),
                )
            ]
        )
        return bool(changed)
