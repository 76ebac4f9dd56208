"""Vacation days (bot.correspondence.prefs): a calendar month's allowance, counted when
taken, unused whole days given back when ended early."""

from __future__ import annotations

import datetime as dt
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.correspondence import (
    VACATION_DAYS,
    NoticePrefs,
    away_at,
    end_vacation,
    take_vacation,
    vacation_left,
    valid_zone,
)
from bot.correspondence.prefs import DAY, VacationRefused


def utc(*parts: int) -> float:
    return dt.datetime(*parts, tzinfo=dt.UTC).timestamp()


def test_days_are_counted_when_taken_and_given_back_when_ended_early() -> None:
    start = utc(2026, 11, 2, 12)
    away, shift = take_vacation(NoticePrefs(), 5, start)
    assert shift == 5 * DAY and away.away_until == start + 5 * DAY
    assert away_at(away, start + 1) and vacation_left(away, start) == VACATION_DAYS - 5
    # ended after a day and a half: three whole days unused come back
    back_home, undo, given = end_vacation(away, start + 1.5 * DAY)
    assert given == 3 and undo == -3.5 * DAY
    assert not away_at(back_home, start + 1.5 * DAY)
    assert vacation_left(back_home, start + 2 * DAY) == VACATION_DAYS - 2


def test_the_monthly_limit_and_what_cannot_be() -> None:
    start = utc(2026, 11, 2)
    with pytest.raises(VacationRefused) as refused:
        take_vacation(NoticePrefs(), VACATION_DAYS + 1, start)
    assert refused.value.reason == "left"
    away, _ = take_vacation(NoticePrefs(), 4, start)
    with pytest.raises(VacationRefused) as refused:
        take_vacation(away, 1, start + DAY)
    assert refused.value.reason == "away"
    after = start + 4 * DAY  # over
    with pytest.raises(VacationRefused) as refused:
        take_vacation(away, VACATION_DAYS - 3, after)
    assert refused.value.reason == "left"
    again, _ = take_vacation(away, VACATION_DAYS - 4, after)
    assert vacation_left(again, after) == 0
    with pytest.raises(VacationRefused) as refused:
        end_vacation(NoticePrefs(), start)
    assert refused.value.reason == "home"
    with pytest.raises(VacationRefused):
        take_vacation(NoticePrefs(), 0, start)
    # a new month (UTC) has all its days again
    assert vacation_left(again, utc(2026, 12, 1)) == VACATION_DAYS


def test_a_vacation_ended_in_the_next_month_gives_nothing_back() -> None:
    away, _ = take_vacation(NoticePrefs(), 5, utc(2026, 11, 29))
    home, _, given = end_vacation(away, utc(2026, 12, 1, 1))
    assert given == 0 and vacation_left(home, utc(2026, 12, 1, 1)) == VACATION_DAYS


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, VACATION_DAYS + 1), st.integers(1, 100)), max_size=8),
    st.integers(0, 27),
)
def test_never_more_than_the_allowance_in_a_month(
    takes: list[tuple[int, int]], first_hour: int
) -> None:
    """Whatever is taken and ended early (after ``percent`` of it) within one month, every
    day on which a vacation ran counts, the rest is given back, and the days counted never
    exceed the allowance."""
    now = utc(2026, 2, 1) + first_hour * 3600.0
    prefs, spent = NoticePrefs(), 0
    for days, percent in takes:
        try:
            prefs, shift = take_vacation(prefs, days, now)
        except VacationRefused:
            assert days < 1 or days > vacation_left(prefs, now)
            continue
        stay = shift * percent / 100
        if percent < 100:
            prefs, undo, _ = end_vacation(prefs, now + stay)
            assert undo == -(shift - stay)
        spent += math.ceil(stay / DAY)
        now += stay
        assert prefs.away_days == spent <= VACATION_DAYS
        assert vacation_left(prefs, now) == VACATION_DAYS - spent


def test_zones_are_checked() -> None:
    assert valid_zone("Europe/Stockholm") == "Europe/Stockholm"
    assert valid_zone("europe/helsinki") == "Europe/Helsinki"
    assert valid_zone("Mars/Olympus") is None and valid_zone("") is None
    assert valid_zone("../../etc/passwd") is None
