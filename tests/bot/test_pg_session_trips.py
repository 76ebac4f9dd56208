"""A game's session over PostgreSQL: its round trips to the server, and its lock freed.

Every click and every table's save is a session (:meth:`GameService.session`), so each
round trip in it is paid many times a second under load (``tests/benchmarks/bot.py
--count-db`` counts them). A session that only reads makes three: the game's advisory
lock, the re-read of its version (another process may have moved it), and the pool's
reset as the connection goes back, which frees the lock; another process can take the
lock as soon as the session is over, even one cancelled half-way.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import asyncpg
import pytest
from asyncpg import connection

from bot.config import Config
from bot.games import GameService
from bot.models import GameOptions, Seat
from bot.storage import Storage


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every statement the storage's connections send (each one round trip: the queries
    here are prepared once, by the session before the counted one)."""
    sent: list[str] = []
    for name in ("execute", "fetch", "fetchval", "fetchrow"):
        original = getattr(connection.Connection, name)

        async def counted(self: Any, query: str, *args: Any, __original: Any = original,
                          **kw: Any) -> Any:  # fmt: skip
            sent.append(query)
            return await __original(self, query, *args, **kw)

        monkeypatch.setattr(connection.Connection, name, counted)
    yield sent


async def lock_is_free(url: str, game_id: int) -> bool:
    """Whether another process could take the game's lock now (it gives it back)."""
    other = await asyncpg.connect(url)
    try:
        taken = bool(await other.fetchval("SELECT pg_try_advisory_lock($1)", game_id))
        if taken:
            await other.execute("SELECT pg_advisory_unlock($1)", game_id)
        return taken
    finally:
        await other.close()


async def test_a_reading_session_makes_three_round_trips_and_frees_its_lock(
    postgres_url: str, statements: list[str]
) -> None:
    storage = await Storage.open(postgres_url)
    try:
        service = GameService(storage, Config(token=None, db_path=postgres_url), seed=1)
        game = await service.open_lobby(1, 2, Seat(10, "a"), GameOptions())
        async with service.session(game.id) as loaded:  # prepares its statements
            assert loaded is game
        statements.clear()
        async with service.session(game.id) as loaded:
            assert loaded is game  # the cached copy, its version checked
            assert not await lock_is_free(postgres_url, game.id)
        sent = [s for s in statements if "pg_try_advisory_lock" not in s]
        assert len(sent) == 3, sent
        lock, version, reset = sent
        assert "pg_advisory_lock" in lock
        assert version.startswith("SELECT version FROM games")
        assert "pg_advisory_unlock_all" in reset  # the pool's reset frees the lock
        assert await lock_is_free(postgres_url, game.id)
    finally:
        await storage.close()


async def test_a_cancelled_session_frees_its_lock(postgres_url: str) -> None:
    storage = await Storage.open(postgres_url)
    try:
        service = GameService(storage, Config(token=None, db_path=postgres_url), seed=1)
        game = await service.open_lobby(1, 2, Seat(10, "a"), GameOptions())
        inside = asyncio.Event()

        async def click() -> None:
            async with service.session(game.id):
                inside.set()
                await asyncio.sleep(60)  # cancelled here, holding the lock

        task = asyncio.create_task(click())
        await inside.wait()
        assert not await lock_is_free(postgres_url, game.id)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await lock_is_free(postgres_url, game.id)
        async with service.session(game.id) as loaded:  # and this process goes on
            assert loaded is not None and loaded.id == game.id
    finally:
        await storage.close()
