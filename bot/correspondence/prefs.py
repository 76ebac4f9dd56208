"""Each person's notice settings for correspondence games, and their vacation days.

A person is told of their turn one of four ways (:data:`HOWS`): a mention in the game's
channel (the default), a direct message, nothing, or one daily digest of every game
waiting for them. Quiet hours (local, in their IANA time zone) hold notices back; a digest
comes at its hour, outside quiet hours (:mod:`bot.correspondence.quiet`).

Vacation: a person may be away :data:`VACATION_DAYS` days a calendar month (UTC), which
stop their correspondence clocks. Days are counted in the month a vacation is taken, all
of them when it is taken; ended early, its unused whole days are given back (if it is
still that month).
"""

from __future__ import annotations

import dataclasses
import math
import time
import zoneinfo
from dataclasses import dataclass
from functools import lru_cache

MENTION, DM, NONE, DIGEST = "mention", "dm", "none", "digest"
HOWS: tuple[str, ...] = (MENTION, DM, NONE, DIGEST)
VACATION_DAYS = 7  # vacation days a person may take in a calendar month (UTC)
DAY = 86_400.0
DEFAULT_DIGEST_HOUR = 18


@dataclass(frozen=True)
class NoticePrefs:
    """How one person is told of their turn, and their vacation (defaults: a person who
    never changed anything). Hours are local hours 0-23 in ``tz``; quiet hours are off
    unless both ends are set (and differ); ``quiet_start`` > ``quiet_end`` wraps midnight."""

    how: str = MENTION
    tz: str = "UTC"
    quiet_start: int | None = None
    quiet_end: int | None = None
    digest_hour: int = DEFAULT_DIGEST_HOUR
    dm_refused: bool = False
    away_until: float | None = None
    away_month: str | None = None
    away_days: int = 0
    locale: str | None = None  # the person's client language when they last chose (DMs)

    @property
    def has_quiet(self) -> bool:
        """Whether quiet hours are set."""
        return (
            self.quiet_start is not None
            and self.quiet_end is not None
            and self.quiet_start != self.quiet_end
        )

    @property
    def told_by(self) -> str:
        """How the person is told in fact: a DM or a digest Discord refused falls back to
        the mention in the game's channel until they choose a DM again."""
        if self.dm_refused and self.how in (DM, DIGEST):
            return MENTION
        return self.how

    def replace(self, **changes: object) -> NoticePrefs:
        """These settings with ``changes``."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


@lru_cache(maxsize=1024)
def zone(name: str) -> zoneinfo.ZoneInfo:
    """The time zone ``name`` (UTC for a name unknown here: input is checked first by
    :func:`valid_zone`, so only a zone removed from the system's data could be unknown)."""
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


@lru_cache(maxsize=1)
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def valid_zone(name: str) -> str | None:
    """The IANA zone ``name`` as known here (its case corrected), or ``None`` if there is no
    such zone."""
    wanted = name.strip()
    if wanted in _zones():
        return wanted
    folded = {z.casefold(): z for z in _zones()}
    return folded.get(wanted.casefold())


def all_zones() -> list[str]:
    """Every IANA zone name known here, sorted."""
    return sorted(_zones())


def month_of(at: float) -> str:
    """The calendar month (UTC) of ``at``, as ``YYYY-MM``."""
    return time.strftime("%Y-%m", time.gmtime(at))


def away_at(prefs: NoticePrefs, at: float) -> bool:
    """Whether the person is on vacation at ``at``."""
    return prefs.away_until is not None and prefs.away_until > at


def vacation_left(prefs: NoticePrefs, at: float) -> int:
    """Vacation days the person may still take in the month of ``at``."""
    used = prefs.away_days if prefs.away_month == month_of(at) else 0
    return max(0, VACATION_DAYS - used)


class VacationRefused(ValueError):
    """A vacation that cannot be: ``reason`` is ``away`` (already away), ``days`` (fewer than
    one), ``left`` (more than are left this month) or ``home`` (ending one when not away)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def take_vacation(prefs: NoticePrefs, days: int, at: float) -> tuple[NoticePrefs, float]:
    """``days`` of vacation from ``at``: the new settings and the shift of the person's
    clocks (seconds, positive). Raises :class:`VacationRefused`."""
    if away_at(prefs, at):
        raise VacationRefused("away")
    if days < 1:
        raise VacationRefused("days")
    if days > vacation_left(prefs, at):
        raise VacationRefused("left")
    month = month_of(at)
    used = prefs.away_days if prefs.away_month == month else 0
    shift = days * DAY
    return prefs.replace(away_until=at + shift, away_month=month, away_days=used + days), shift


def end_vacation(prefs: NoticePrefs, at: float) -> tuple[NoticePrefs, float, int]:
    """End the running vacation at ``at``: the new settings, the shift of the person's
    clocks (seconds, negative: the time that was still to come) and the whole days given
    back to the month it was taken in (none once that month is over). Raises
    :class:`VacationRefused` if the person is not away."""
    if not away_at(prefs, at):
        raise VacationRefused("home")
    assert prefs.away_until is not None
    remaining = prefs.away_until - at
    unused = math.floor(remaining / DAY)
    back = unused if prefs.away_month == month_of(at) else 0
    ended = prefs.replace(away_until=None, away_days=max(0, prefs.away_days - back))
    return ended, -remaining, back
