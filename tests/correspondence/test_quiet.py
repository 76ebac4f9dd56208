"""Quiet hours and the digest's moment (bot.correspondence.quiet): fixed cases around
Stockholm's clock changes, and hypothesis properties checked against a brute-force
reference that walks the person's local clock minute by minute."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.correspondence import NoticePrefs, next_digest, quiet_at, quiet_ends, quiet_starts

UTC = dt.UTC
STOCKHOLM = "Europe/Stockholm"
MINUTE = 60.0
# zones with clock changes both ways, half- and quarter-hour offsets, and none at all
ZONES = (
    "UTC", STOCKHOLM, "America/New_York", "Australia/Sydney", "Asia/Kolkata",
    "Asia/Kathmandu", "America/St_Johns", "Pacific/Chatham", "Australia/Lord_Howe",
)  # fmt: skip
# 2026: Stockholm goes forward on 29 March (01:00 UTC), back on 25 October (01:00 UTC)
SPAN_START = dt.datetime(2026, 1, 1, tzinfo=UTC).timestamp()
SPAN_END = dt.datetime(2027, 1, 1, tzinfo=UTC).timestamp()


def utc(*parts: int) -> float:
    return dt.datetime(*parts, tzinfo=UTC).timestamp()


def hour_in(prefs: NoticePrefs, at: float) -> int:
    return dt.datetime.fromtimestamp(at, zoneinfo.ZoneInfo(prefs.tz)).hour


def quiet_by_hand(prefs: NoticePrefs, at: float) -> bool:
    """The reference's own reading of quiet hours (a set of hours)."""
    if prefs.quiet_start is None or prefs.quiet_end is None:
        return False
    hours, hour = set(), prefs.quiet_start
    while hour != prefs.quiet_end:
        hours.add(hour)
        hour = (hour + 1) % 24
    return hour_in(prefs, at) in hours


def ends_by_scan(prefs: NoticePrefs, at: float) -> float:
    """The first whole minute after ``at`` that is not quiet (or ``at``)."""
    if not quiet_by_hand(prefs, at):
        return at
    minute = (at // MINUTE + 1) * MINUTE
    while quiet_by_hand(prefs, minute):
        minute += MINUTE
    return minute


def starts_by_scan(prefs: NoticePrefs, at: float) -> float | None:
    if not quiet_by_hand(prefs, at):
        return None
    minute = at // MINUTE * MINUTE
    while quiet_by_hand(prefs, minute - MINUTE):
        minute -= MINUTE
    return minute


def digest_by_scan(prefs: NoticePrefs, after: float) -> float:
    """Walk the local clock minute by minute from two days before: on each local date, the
    first minute at or past the digest hour makes a digest owed; an owed digest goes at
    the first minute that is not quiet. The first sent after ``after`` is the answer."""
    tz = zoneinfo.ZoneInfo(prefs.tz)
    minute = (after - 2 * 86_400) // MINUTE * MINUTE
    last_date, owed = None, False
    while True:
        local = dt.datetime.fromtimestamp(minute, tz)
        if local.hour >= prefs.digest_hour and local.date() != last_date:
            last_date, owed = local.date(), True
        if owed and not quiet_by_hand(prefs, minute):
            owed = False
            if minute > after:
                return minute
        minute += MINUTE


hours = st.integers(0, 23)
prefs_strategy = st.builds(
    NoticePrefs,
    tz=st.sampled_from(ZONES),
    quiet_start=st.one_of(st.none(), hours),
    quiet_end=hours,
    digest_hour=hours,
)
# moments on whole minutes, half of them within a day of a clock change of 2026
changes = [utc(2026, 3, 29, 1), utc(2026, 10, 25, 1), utc(2026, 3, 8, 7), utc(2026, 4, 5, 2)]
moments = st.one_of(
    st.integers(int(SPAN_START // 60), int(SPAN_END // 60)).map(lambda m: m * MINUTE),
    st.tuples(st.sampled_from(changes), st.integers(-36 * 60, 36 * 60)).map(
        lambda c: c[0] + c[1] * MINUTE
    ),
)


def real_quiet(prefs: NoticePrefs) -> bool:
    return prefs.quiet_start is not None and prefs.quiet_start != prefs.quiet_end


@settings(max_examples=300, deadline=None)
@given(prefs_strategy, moments)
def test_quiet_matches_the_hours_by_hand(prefs: NoticePrefs, at: float) -> None:
    assert quiet_at(prefs, at) == (real_quiet(prefs) and quiet_by_hand(prefs, at))


@settings(max_examples=150, deadline=None)
@given(prefs_strategy, moments)
def test_quiet_period_ends_and_starts_as_a_minute_scan_finds(prefs: NoticePrefs, at: float) -> None:
    if not real_quiet(prefs):
        assert quiet_ends(prefs, at) == at and quiet_starts(prefs, at) is None
        return
    assert quiet_ends(prefs, at) == ends_by_scan(prefs, at)
    assert quiet_starts(prefs, at) == starts_by_scan(prefs, at)
    end = quiet_ends(prefs, at)
    assert end >= at and not quiet_at(prefs, end)


@settings(max_examples=60, deadline=None)
@given(prefs_strategy, moments)
def test_next_digest_is_the_minute_scans(prefs: NoticePrefs, at: float) -> None:
    if not real_quiet(prefs):
        prefs = prefs.replace(quiet_start=None, quiet_end=None)
    due = next_digest(prefs, at)
    assert due == digest_by_scan(prefs, at)
    assert due > at and not quiet_at(prefs, due)
    # once a day: the next one after it is at least most of a day later
    assert next_digest(prefs, due) - due >= 22 * 3600


def test_quiet_hours_wrap_midnight_in_stockholm() -> None:
    night = NoticePrefs(tz=STOCKHOLM, quiet_start=22, quiet_end=7)
    # winter: UTC+1
    assert quiet_at(night, utc(2026, 1, 10, 21, 0))  # 22:00 local
    assert not quiet_at(night, utc(2026, 1, 10, 20, 59))
    assert quiet_at(night, utc(2026, 1, 11, 5, 59))  # 06:59 local
    assert quiet_ends(night, utc(2026, 1, 11, 2)) == utc(2026, 1, 11, 6)  # 07:00 local
    assert quiet_starts(night, utc(2026, 1, 11, 2)) == utc(2026, 1, 10, 21)
    assert quiet_ends(night, utc(2026, 1, 11, 12)) == utc(2026, 1, 11, 12)  # not quiet


def test_the_night_clocks_go_forward_is_an_hour_shorter() -> None:
    night = NoticePrefs(tz=STOCKHOLM, quiet_start=22, quiet_end=7)
    at = utc(2026, 3, 29, 0, 30)  # 01:30 CET, half an hour before 02:00 becomes 03:00
    assert quiet_starts(night, at) == utc(2026, 3, 28, 21)  # 22:00 CET
    assert quiet_ends(night, at) == utc(2026, 3, 29, 5)  # 07:00 CEST
    # a quiet period from 2 to 3 is the hour that does not exist that night: none
    skipped = NoticePrefs(tz=STOCKHOLM, quiet_start=2, quiet_end=3)
    assert not any(quiet_at(skipped, utc(2026, 3, 29, 0) + m * 60) for m in range(180))
    # a digest at 02:00 that night comes as the clocks jump (03:00 CEST)
    early = NoticePrefs(tz=STOCKHOLM, digest_hour=2)
    assert next_digest(early, utc(2026, 3, 28, 12)) == utc(2026, 3, 29, 1)


def test_the_night_clocks_go_back_is_an_hour_longer() -> None:
    night = NoticePrefs(tz=STOCKHOLM, quiet_start=22, quiet_end=7)
    at = utc(2026, 10, 25, 1, 30)  # 02:30 CET, the second 02:30 of the night
    assert quiet_starts(night, at) == utc(2026, 10, 24, 20)  # 22:00 CEST
    assert quiet_ends(night, at) == utc(2026, 10, 25, 6)  # 07:00 CET: 10 hours
    # the hour that happens twice is quiet both times, and a digest there comes once
    twice = NoticePrefs(tz=STOCKHOLM, quiet_start=2, quiet_end=3)
    assert quiet_at(twice, utc(2026, 10, 25, 0, 30)) and quiet_at(twice, utc(2026, 10, 25, 1, 30))
    assert quiet_ends(twice, utc(2026, 10, 25, 0, 30)) == utc(2026, 10, 25, 2)
    early = NoticePrefs(tz=STOCKHOLM, digest_hour=2)
    first = next_digest(early, utc(2026, 10, 24, 12))
    assert first == utc(2026, 10, 25, 0)  # the first 02:00 (CEST)
    assert next_digest(early, first) == utc(2026, 10, 26, 1)  # the next day's, not 02:00 CET


def test_a_digest_hour_in_quiet_hours_waits_for_their_end() -> None:
    prefs = NoticePrefs(tz=STOCKHOLM, quiet_start=22, quiet_end=7, digest_hour=23)
    assert next_digest(prefs, utc(2026, 1, 10, 12)) == utc(2026, 1, 11, 6)  # 07:00 local
    assert next_digest(prefs, utc(2026, 1, 11, 6)) == utc(2026, 1, 12, 6)
