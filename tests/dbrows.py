"""Read and change a test database directly, whichever the backend (the tests' view of the
rows, independent of the bot's storage code). ``target`` is what ``KASINO_DB`` would be:
an SQLite path or a ``postgresql://`` URL; SQL uses ``?`` placeholders."""

from __future__ import annotations

import asyncio
import concurrent.futures
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from bot.storage import is_postgres
from bot.storage.postgres import numbered

T = TypeVar("T")


def run_sync(job: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to the end on its own loop in a helper thread (callable from inside
    a running loop, which it blocks meanwhile, as sqlite3 would)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(job())).result()  # type: ignore[arg-type]


def query(target: str | Path, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """The rows of a query, as dicts."""
    if is_postgres(target):

        async def job() -> list[dict[str, Any]]:
            conn = await asyncpg.connect(str(target))
            try:
                return [dict(r) for r in await conn.fetch(numbered(sql), *params)]
            finally:
                await conn.close()

        return run_sync(job)
    with sqlite3.connect(target) as db:
        db.row_factory = sqlite3.Row
        return [dict(r) for r in db.execute(sql, tuple(params)).fetchall()]


def execute(target: str | Path, sql: str, params: Sequence[Any] = ()) -> None:
    """Run one statement, committed."""
    if is_postgres(target):

        async def job() -> None:
            conn = await asyncpg.connect(str(target))
            try:
                await conn.execute(numbered(sql), *params)
            finally:
                await conn.close()

        run_sync(job)
        return
    with sqlite3.connect(target) as db:
        db.execute(sql, tuple(params))
