"""``python -m bot migrate-db``: copy an SQLite database into PostgreSQL, whole.

Games (those in progress too, with their saved state and deadlines), the move log, the
results and the settings are copied with their ids in one transaction, so a failed copy
leaves the target as it was. Then each table's rows are counted on both sides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.base import Statement, Storage
from bot.storage.records import StaleGame
from bot.storage.schema import ID_TABLES, TABLES

BATCH_ROWS = 500  # rows per INSERT: well under PostgreSQL's 32767 parameters a statement


class CopyRefused(RuntimeError):
    """The copy was not made (the target holds data, or the counts differ); says why."""


@dataclass(frozen=True, slots=True)
class CopyReport:
    """How many rows of each table were copied, and how many games were in progress."""

    counts: dict[str, int]
    active_games: int

    def summary(self) -> str:
        """One line for the person who ran the copy."""
        parts = ", ".join(f"{n} {table}" for table, n in self.counts.items())
        return f"copied {parts} ({self.active_games} games in progress); the counts match"


async def table_counts(storage: Storage) -> dict[str, int]:
    """The number of rows in each of the bot's tables."""
    counts = {}
    for table in TABLES:
        rows = await storage.fetch(f"SELECT COUNT(*) FROM {table}")
        counts[table] = int(rows[0][0])
    return counts


async def copy_database(source: Storage, target: Storage, *, replace: bool = False) -> CopyReport:
    """Copy every row of ``source`` (SQLite) into ``target`` (PostgreSQL), both already
    migrated. A target that holds any row is refused unless ``replace`` (it is emptied
    first, in the same transaction)."""
    before = await table_counts(target)
    if any(before.values()) and not replace:
        held = ", ".join(f"{n} {table}" for table, n in before.items() if n)
        raise CopyRefused(
            f"the target database is not empty ({held}); nothing was copied."
            " Add --replace to empty it and copy anyway."
        )
    steps = []
    if replace:
        steps += [Statement(f"DELETE FROM {table}") for table in reversed(TABLES)]
    for table in TABLES:
        columns = [str(row[1]) for row in await source.fetch(f"PRAGMA table_info({table})")]
        rows = await source.fetch(f"SELECT {', '.join(columns)} FROM {table} ORDER BY 1")
        steps += insert_statements(table, columns, rows)
        # counted inside the transaction: a short copy rolls back instead of committing
        steps.append(
            Statement(f"SELECT 1 FROM {table} HAVING COUNT(*) = ?", [len(rows)], check=True)
        )
    steps += [
        # the next generated id follows the copied ones
        Statement(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1,"
            f" false) FROM {table}",
            returning=True,
        )
        for table in ID_TABLES
    ]
    try:
        await target.write(steps)
    except StaleGame:
        raise CopyRefused("a table's count differed after copying; nothing was copied") from None
    return await _checked(source, target)


def insert_statements(
    table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
) -> list[Statement]:
    """Multi-row INSERTs of ``rows``, :data:`BATCH_ROWS` at a time."""
    marks = "(" + ", ".join("?" for _ in columns) + ")"
    steps = []
    for start in range(0, len(rows), BATCH_ROWS):
        batch = rows[start : start + BATCH_ROWS]
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES " + ", ".join(
            [marks] * len(batch)
        )
        steps.append(Statement(sql, [value for row in batch for value in row]))
    return steps


async def _checked(source: Storage, target: Storage) -> CopyReport:
    """Both databases' counts, which must agree."""
    want, got = await table_counts(source), await table_counts(target)
    if want != got:
        raise CopyRefused(f"the counts differ after the copy: SQLite {want}, PostgreSQL {got}")
    active = await target.fetch("SELECT COUNT(*) FROM games WHERE status IN ('lobby', 'playing')")
    return CopyReport(got, int(active[0][0]))
