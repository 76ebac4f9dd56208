"""PostgreSQL storage (asyncpg): one database shared by several bot processes.

The schema version is the one row of ``schema_version``; processes starting together
take turns migrating under an advisory lock. Every write is one transaction. A game's
session holds a session-level advisory lock on the game's id (:meth:`game_lock`), so two
processes never work on one game at once; saves stay compare-and-set on the version as
well, so even a copy loaded without the lock could not overwrite a newer row.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.storage.base import NO_GAME, Computed, Statement, Step, Storage, check_changed
from bot.storage.schema import for_postgres
from bot.storage.tournaments import TOURNAMENT_LOCK, int32

POOL_SIZE = 20
MIGRATION_LOCK = 0x4B6173696E6F  # "Kasino": the advisory lock migrations are applied under
# A game's lock and its version read after it, in one round trip. A VOLATILE function's
# statements each take a new snapshot, so the version is read once the lock is granted and
# sees what another process committed while this one waited (one SELECT taking the lock
# and reading the row would read from the snapshot taken before it waited). Defined in
# each connection's temporary schema as it is opened, since no migration holds it.
LOCK_GAME = f"""
CREATE OR REPLACE FUNCTION pg_temp.kasino_lock_game(game BIGINT) RETURNS BIGINT
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_lock(game);
    RETURN COALESCE((SELECT version FROM games WHERE id = game), {NO_GAME});
END $$
"""
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


class Prepared:
    """Defines :data:`LOCK_GAME` on each new connection of the pool; ``ok`` turns false
    where it cannot be (a role without the TEMP privilege on the database): the game's
    lock is then taken and its version read in two round trips, as before."""

    def __init__(self) -> None:
        self.ok = True

    async def __call__(self, conn: asyncpg.Connection) -> None:
        try:
            await conn.execute(LOCK_GAME)
        except asyncpg.PostgresError:
            self.ok = False


class PostgresStorage(Storage):
    """The database on a PostgreSQL server."""

    shared = True
    integrity_errors = (asyncpg.UniqueViolationError,)

    def __init__(self, pool: asyncpg.Pool, prepared: Prepared | None = None, url: str = "") -> None:
        self._pool = pool
        self._prepared = prepared
        self._url = url
        # a connection of its own for LISTEN (a pooled one would be reset and reused)
        self._listener: asyncpg.Connection | None = None

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """As :meth:`Storage.listen`: PostgreSQL's ``LISTEN``, over a connection kept for
        it; a notice is delivered once its transaction commits."""
        if self._listener is None:
            self._listener = await asyncpg.connect(self._url, timeout=10)
        await self._listener.add_listener(
            channel, lambda _conn, _pid, _channel, payload: callback(str(payload))
        )

    async def notify(self, channel: str, payload: str) -> None:
        """As :meth:`Storage.notify`: PostgreSQL's ``pg_notify`` (every listening process,
        this one too)."""
        await self.fetch("SELECT pg_notify(?, ?)", (channel, payload))

    @property
    def lock_reads_version(self) -> bool:
        """Whether taking a game's lock reads its version too (:data:`LOCK_GAME`)."""
        return self._prepared is not None and self._prepared.ok

    @classmethod
    async def connect(cls, url: str, pool_size: int = POOL_SIZE) -> PostgresStorage:
        """Connect a pool to ``url`` and migrate the database."""
        prepared = Prepared()
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=pool_size, timeout=10, init=prepared
        )
        storage = cls(pool, prepared, url)
        try:
            await storage.migrate()
        except BaseException:
            await pool.close()
            raise
        return storage

    async def close(self) -> None:
        """Close every connection of the pool (and the listening one)."""
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
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

    async def _apply_migration(self, number: int, steps: list[str | Computed]) -> None:
        async with self._connection() as conn, conn.transaction():
            for step in steps:
                if isinstance(step, Computed):
                    await _run_computed(conn, step)
                else:
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
                    results.append(await _run_computed(conn, step))
                else:
                    results.append(await _run_statement(conn, step))
        return results

    @asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[int | None]:
        """Hold an advisory lock on the game across processes while the session runs; the
        server frees it if this process dies, so a restart never waits for a ghost. Yields
        the game's saved version read once the lock is granted (``NO_GAME``: no such row),
        in the same round trip (:data:`LOCK_GAME`), or ``None`` where it cannot be.

        It is freed by the pool's reset as the connection goes back (its query starts
        with ``pg_advisory_unlock_all()``), which asyncpg runs shielded from cancellation
        and, should it fail, closes the connection (a closed connection's locks are gone
        with it). An unlock of its own before that would cost every session, a click or
        a table's save, one more round trip to the server."""
        async with self._pool.acquire() as conn:
            version = None
            if self.lock_reads_version:
                version = int(await conn.fetchval("SELECT pg_temp.kasino_lock_game($1)", game_id))
            else:
                await conn.execute("SELECT pg_advisory_lock($1)", game_id)
            token = _held.set((asyncio.current_task(), conn))
            try:
                yield version
            finally:
                _held.reset(token)

    @asynccontextmanager
    async def tournament_lock(self, tournament_id: int) -> AsyncIterator[None]:
        """Hold an advisory lock on the tournament across processes (the two-key form,
        a key space apart from the games' one-key locks), like :meth:`game_lock`: its
        reads and saves in this task go through the connection that holds it, and the
        pool's reset frees it as the connection goes back."""
        key = (TOURNAMENT_LOCK, int32(tournament_id))
        async with self._pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1, $2)", *key)
            token = _held.set((asyncio.current_task(), conn))
            try:
                yield
            finally:
                _held.reset(token)


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


async def _run_computed(conn: asyncpg.Connection, step: Computed) -> int:
    """A :class:`Computed` step inside the connection's transaction: its advisory lock
    (held to the commit), its reads, then what it computed; how many statements ran."""
    if step.lock is not None:
        await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", *step.lock)
    rows = [list(await conn.fetch(numbered(q), *p)) for q, p in step.queries]
    computed = step.compute(rows)  # type: ignore[arg-type]
    for inner in computed:
        await _run_statement(conn, inner)
    return len(computed)
