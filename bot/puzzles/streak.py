"""The puzzle streak: consecutive UTC days with a solved puzzle in one server.

A streak is alive until a whole UTC day passes without a solved puzzle: today not solved
yet still shows yesterday's run (there is time left to keep it), so the count is the run
of consecutive days ending today, or else ending yesterday; any other gap makes it 0.
Any family's puzzle counts for its day (two puzzles solved on one day count once).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from typing import Any

LOOKBACK = 400  # days read back for a streak (a longer one shows as at least this)


def utc_day(now: float) -> date:
    """The UTC day of a Unix time."""
    return datetime.fromtimestamp(now, UTC).date()


def day_text(day: date) -> str:
    """``YYYY-MM-DD``: how days are stored."""
    return day.isoformat()


def streak(solved: Iterable[str | date], today: date) -> int:
    """The streak on ``today`` given the days (any order) with a solved puzzle."""
    days = {d if isinstance(d, date) else date.fromisoformat(d) for d in solved}
    day = today if today in days else today - timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= timedelta(days=1)
    return count


def since(today: date) -> str:
    """The first day a streak on ``today`` is read from."""
    return day_text(today - timedelta(days=LOOKBACK))


async def puzzle_streak(storage: Any, guild_id: int, user_id: int, now: float) -> int:
    """The person's puzzle streak in the server at Unix time ``now`` (from storage)."""
    today = utc_day(now)
    return streak(await storage.solved_days(guild_id, user_id, since(today)), today)
