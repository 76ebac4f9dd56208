"""Storage for games, the move log and leaderboard results: SQLite (one file, the
default) or PostgreSQL (one database for several processes), behind one interface.

``await Storage.open(target)`` opens either, as ``KASINO_DB`` names it.
"""

from bot.storage.base import Shards, Statement, Storage
from bot.storage.records import (
    BoardRow,
    ChannelBusy,
    CorruptGame,
    HistoryRow,
    MoveRecord,
    Outgoing,
    ResultRecord,
    StaleGame,
    StoredMove,
)
from bot.storage.schema import MIGRATIONS
from bot.storage.target import BadTarget, is_postgres, parse_target, redact

__all__ = [
    "MIGRATIONS",
    "BadTarget",
    "BoardRow",
    "ChannelBusy",
    "CorruptGame",
    "HistoryRow",
    "MoveRecord",
    "Outgoing",
    "ResultRecord",
    "Shards",
    "StaleGame",
    "Statement",
    "Storage",
    "StoredMove",
    "is_postgres",
    "parse_target",
    "redact",
]
