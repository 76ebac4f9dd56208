"""Correspondence games' rules about people, pure (no Discord, no database): how each
person wants to be told of their turn (:mod:`bot.correspondence.prefs`), and when they
must not be disturbed and when their daily digest is due (:mod:`bot.correspondence.quiet`).
"""

from bot.correspondence.prefs import (
    DIGEST,
    DM,
    HOWS,
    MENTION,
    NONE,
    VACATION_DAYS,
    NoticePrefs,
    away_at,
    end_vacation,
    month_of,
    take_vacation,
    vacation_left,
    valid_zone,
)
from bot.correspondence.quiet import next_digest, quiet_at, quiet_ends, quiet_starts

__all__ = [
    "DIGEST",
    "DM",
    "HOWS",
    "MENTION",
    "NONE",
    "VACATION_DAYS",
    "NoticePrefs",
    "away_at",
    "end_vacation",
    "month_of",
    "next_digest",
    "quiet_at",
    "quiet_ends",
    "quiet_starts",
    "take_vacation",
    "vacation_left",
    "valid_zone",
]
