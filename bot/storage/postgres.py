"""PostgreSQL storage (asyncpg): one database shared by several bot processes.

The schema version is the one row of ``schema_version``; processes starting together
take turns migrating under an advisory lock. Every write is one transaction. A game's
session holds a session-level advisory lock on the game's id (:meth:`game_lock`), so two
processes never work on one game at once; saves stay compare-and-set on the version as
well, so even a copy loaded without the lock could not overwrite a newer row.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.storage.base import Computed, Statement, Step, Storage, check_changed
from bot.storage.schema import for_postgres
from bot.storage.tournaments import TOURNAMENT_LOCK, int32

POOL_SIZE = 20
MIGRATION_LOCK = 0x4B6173696E6F  # "Kasino": the advisory lock migrations are applied under
_PLACEHOLDER = re.compile(r"\?")


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, …`` (the queries hold no ``?`` in
    string literals)."""
    count = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(count)}", sql)


# The connection that holds the current task's game lock: its session's reads and saves go
# through it, so a session never waits for a second connection from a pool that its peers
# may have emptied. Tasks started inside a session inherit the variable, hence the owner.
_held: contextvars.ContextVar[tuple[asyncio.Task[Any] | None, asyncpg.Connection] | None] = (
    contextvars.ContextVar("kasino_held_connection", default=None)
)


class PostgresStorage(Storage):
    """The database on a PostgreSQL server."""

    shared = True
    integrity_errors = (asyncpg.UniqueViolationError,)

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @classmethod
    async def connect(cls, url: str, pool_size: int = POOL_SIZE) -> PostgresStorage:
        """Connect a pool to ``url`` and migrate the database."""
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, timeout=10)
        storage = cls(pool)
        try:
            await storage.migrate()
        except BaseException:
            await pool.close()
            raise
        return storage

    async def close(self) -> None:
        """Close every connection of the pool."""
        await self._pool.close()

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        held = _held.get()
        if held is not None and held[0] is asyncio.current_task():
            yield held[1]
            return
        async with self._pool.acquire() as conn:
            yield conn

    async def schema_version(self) -> int:
        """The version recorded in ``schema_version`` (0 for an empty database)."""
        async with self._connection() as conn:
            return await _version(conn)

    async def migrate(self) -> None:
        """Apply the missing migrations, one process at a time."""
        async with self._pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)"
                )
                token = _held.set((asyncio.current_task(), conn))
                try:
                    await super().migrate()
                finally:
                    _held.reset(token)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

    async def _apply_migration(self, number: int, steps: list[str]) -> None:
        async with self._connection() as conn, conn.transaction():
            for step in steps:
                await conn.execute(for_postgres(step))
            await conn.execute("DELETE FROM schema_version")
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        """The rows of a query."""
        async with self._connection() as conn:
            return list(await conn.fetch(numbered(sql), *params))

    async def write(self, steps: Sequence[Step]) -> list[Any]:
        """Run the statements as one transaction. A :class:`Computed` step takes its
        transaction-level advisory lock (held to the commit), reads, then runs what it
        computed: concurrent transactions computing from the same rows take turns."""
        results: list[Any] = []
        async with self._connection() as conn, conn.transaction():
            for step in steps:
                if isinstance(step, Computed):
                    if step.lock is not None:
                        await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", *step.lock)
                    rows = [list(await conn.fetch(numbered(q), *p)) for q, p in step.queries]
                    computed = step.compute(rows)  # type: ignore[arg-type]
                    for inner in computed:
                        await _run_statement(conn, inner)
                    results.append(len(computed))
                else:
                    results.append(await _run_statement(conn, step))
        return results

    @asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[None]:
        """Hold an advisory lock on the game across processes while the session runs; the
        server frees it if this process dies, so a restart never waits for a ghost."""
        async with self._pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", game_id)
            token = _held.set((asyncio.current_task(), conn))
            try:
                yield
            finally:
                _held.reset(token)
                # the pool's reset on release unlocks too, and a closed connection's locks
                # are gone with it: an unlock that cannot run loses nothing
                with contextlib.suppress(asyncpg.InterfaceError, asyncpg.PostgresError, OSError):
                    await conn.execute("SELECT pg_advisory_unlock($1)", game_id)

    @asynccontextmanager
    async def tournament_lock(self, tournament_id: int) -> AsyncIterator[None]:
        """Hold an advisory lock on the tournament across processes (the two-key form,
        a key space apart from the games' one-key locks), like :meth:`game_lock`: its
        reads and saves in this task go through the connection that holds it."""
        key = (TOURNAMENT_LOCK, int32(tournament_id))
        async with self._pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1, $2)", *key)
            token = _held.set((asyncio.current_task(), conn))
            try:
                yield
            finally:
                _held.reset(token)
                with contextlib.suppress(asyncpg.InterfaceError, asyncpg.PostgresError, OSError):
                    await conn.execute("SELECT pg_advisory_unlock($1, $2)", *key)


async def _run_statement(conn: asyncpg.Connection, step: Statement) -> Any:
    if step.returning:
        return await conn.fetchval(numbered(step.sql), *step.params)
    status = await conn.execute(numbered(step.sql), *step.params)
    count = int(status.rsplit(" ", 1)[-1]) if status[-1:].isdigit() else 0
    check_changed(count, step)
    return count


async def _version(conn: asyncpg.Connection) -> int:
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
