"""What every query of the storage is written with: a transaction's steps, the conditions
many queries share, and the two things a backend must supply (:class:`Queries`).

SQL uses ``?`` placeholders; the PostgreSQL backend numbers them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.records import StaleGame

ACTIVE = "status IN ('lobby', 'playing')"
# Rows of people who can be named: a person the bot was asked to forget keeps their place
# in the others' results and ratings under a negative id, listed on no board.
PEOPLE = "user_id > 0"


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of a transaction.

    ``check``: it must change exactly one row, else the transaction is rolled back and
    :class:`StaleGame` raised. ``returning``: it returns one value (``RETURNING id``).
    """

    sql: str
    params: Sequence[Any] = ()
    check: bool = False
    returning: bool = False


@dataclass(frozen=True, slots=True)
class Computed:
    """A step of a transaction that reads, then writes what it computed from the rows.

    The backend runs ``queries`` inside the transaction (after the steps before it), hands
    their rows to ``compute`` (pure: no I/O), and runs the statements it returns, all in
    the same transaction. ``lock`` (two 32-bit numbers) names what the read depends on:
    PostgreSQL takes that transaction-level advisory lock first, so two processes computing
    from the same rows take turns (SQLite's ``BEGIN IMMEDIATE`` already lets one writer in
    at a time). Its result in :meth:`Storage.write`'s list is the number of statements run.
    """

    queries: tuple[tuple[str, Sequence[Any]], ...]
    compute: Callable[[list[list[Sequence[Any]]]], list[Statement]]
    lock: tuple[int, int] | None = None


Step = Statement | Computed


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards one process runs: a guild is theirs when ``(id >> 22) % count`` is
    among ``ids`` (Discord's rule)."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        """Whether this process handles the guild."""
        return (guild_id >> 22) % self.count in self.ids


class Queries:
    """What every part of the storage reads and writes with; a backend supplies both."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        """The rows of a query (``?`` placeholders)."""
        raise NotImplementedError

    async def write(self, steps: Sequence[Step]) -> list[Any]:
        """Run the steps as one transaction, committed before this returns; gives each
        statement's returned value (``returning``) or changed-row count."""
        raise NotImplementedError


def check_changed(rowcount: int, step: Statement) -> None:
    """:class:`StaleGame` when a checked statement did not change exactly one row."""
    if step.check and rowcount != 1:
        raise StaleGame("the game changed in the database since this copy was loaded")


def seat_list(text: str) -> list[dict[str, Any]]:
    """The seats of a row; damaged seats name nobody (the game itself is reported when
    it is loaded)."""
    try:
        seats = json.loads(text)
    except (TypeError, ValueError):
        return []
    return [s for s in seats if isinstance(s, dict)] if isinstance(seats, list) else []


def of_shards(shards: Shards | None) -> tuple[str, list[int]]:
    """A ``WHERE`` condition on ``guild_id`` for the guilds of these shards (all guilds
    for ``None``), and its parameters."""
    if shards is None:
        return "1 = 1", []
    marks = ", ".join("?" for _ in shards.ids)
    return f"(guild_id >> 22) % ? IN ({marks})", [shards.count, *shards.ids]


def json_object(text: object) -> dict[str, Any]:
    """A stored JSON object, or ``{}`` when the text is missing, damaged or not an object
    (what reads it shows what it can)."""
    try:
        value = json.loads(str(text))
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
