"""Quiet hours and the daily digest's moment, in a person's own time zone.

A person's local hour (the wall clock in their IANA zone, :mod:`zoneinfo`) decides: an
instant is quiet when its local hour is in ``[quiet_start, quiet_end)`` (wrapping
midnight when start > end, e.g. 22 to 7). So on the day clocks go forward an hour that
does not exist is skipped over, and on the day they go back an hour that happens twice is
quiet (or not) both times.

The local hour can change only at a whole local hour or at a change of the zone's offset;
every zone's offsets and changes today are whole quarter hours of UTC, so the ends of
quiet periods are found by stepping over the quarter hours of UTC (:data:`STEP`), never
more than two days of them. (``tests/correspondence`` checks it minute by minute.)
"""

from __future__ import annotations

import datetime as dt
import math

from bot.correspondence.prefs import NoticePrefs, zone

STEP = 900.0  # a quarter hour: every boundary of a local hour is on this grid of UTC
_MOST_STEPS = 2 * 24 * 4 + 8  # a quiet period is shorter than a day (25 h on a DST day)


def local_hour(prefs: NoticePrefs, at: float) -> int:
    """The person's local hour at ``at``."""
    return dt.datetime.fromtimestamp(at, zone(prefs.tz)).hour


def quiet_at(prefs: NoticePrefs, at: float) -> bool:
    """Whether ``at`` is in the person's quiet hours."""
    if not prefs.has_quiet:
        return False
    start, end = prefs.quiet_start, prefs.quiet_end
    assert start is not None and end is not None
    hour = local_hour(prefs, at)
    if start < end:
        return start <= hour < end
    return hour >= start or hour < end


def quiet_ends(prefs: NoticePrefs, at: float) -> float:
    """The end of the quiet period ``at`` is in (the first instant after it that is not
    quiet), else ``at`` itself."""
    if not quiet_at(prefs, at):
        return at
    point = (math.floor(at / STEP) + 1) * STEP
    for _ in range(_MOST_STEPS):
        if not quiet_at(prefs, point):
            return point
        point += STEP
    return point  # not reached: a quiet period is shorter than a day


def quiet_starts(prefs: NoticePrefs, at: float) -> float | None:
    """The start of the quiet period ``at`` is in, or ``None`` if ``at`` is not quiet."""
    if not quiet_at(prefs, at):
        return None
    point = math.floor(at / STEP) * STEP
    for _ in range(_MOST_STEPS):
        if not quiet_at(prefs, point - STEP):
            return point
        point -= STEP
    return point  # not reached


def digest_due(prefs: NoticePrefs, day: dt.date) -> float:
    """The moment of the digest of the local ``day``: the first instant of the day whose
    local time is at least the digest hour (a skipped hour is the moment clocks jump; a
    repeated one its first time), held back to the end of a quiet period."""
    wall = dt.datetime(day.year, day.month, day.day, prefs.digest_hour, tzinfo=zone(prefs.tz))
    at = wall.timestamp()  # fold 0: a repeated hour's first time, a skipped one's jump
    return quiet_ends(prefs, at)


def next_digest(prefs: NoticePrefs, after: float) -> float:
    """The first daily digest moment strictly after ``after``."""
    today = dt.datetime.fromtimestamp(after, zone(prefs.tz)).date()
    for offset in range(-1, 4):  # yesterday's may be held back past now by quiet hours
        due = digest_due(prefs, today + dt.timedelta(days=offset))
        if due > after:
            return due
    raise AssertionError("a digest is due every day")  # pragma: no cover
