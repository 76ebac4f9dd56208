"""A game's session over PostgreSQL: its round trips to the server, and its lock freed.

Every click and every table's save is a session (:meth:`GameService.session`), so each
round trip in it is paid many times a second under load (``tests/benchmarks/bot.py
--count-db`` counts them). A session that only reads makes two: the game's advisory lock
with the re-read of its version (another process may have moved it), one function defined
on each connection, and the pool's reset as the connection goes back, which frees the
lock; another process can take the lock as soon as the session is over, even one
cancelled half-way. Where the function cannot be defined (a role that may not create
temporary objects), the lock and the version are read apart: three.
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
from bot.storage.postgres import PostgresStorage


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


@pytest.mark.parametrize("one_trip", [True, False], ids=["with-function", "without"])
async def test_a_reading_session_makes_two_round_trips_and_frees_its_lock(
    postgres_url: str, statements: list[str], one_trip: bool
) -> None:
    storage = await Storage.open(postgres_url)
    assert isinstance(storage, PostgresStorage) and storage.lock_reads_version
    if not one_trip:
        storage._prepared = None  # as for a role without the TEMP privilege
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
        if one_trip:
            assert len(sent) == 2, sent
            assert "pg_temp.kasino_lock_game" in sent[0]
        else:
            assert len(sent) == 3, sent
            assert "pg_advisory_lock" in sent[0]
            assert sent[1].startswith("SELECT version FROM games")
        assert "pg_advisory_unlock_all" in sent[-1]  # the pool's reset frees the lock
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


async def test_the_version_read_with_the_lock_sees_a_move_made_while_waiting(
    postgres_url: str,
) -> None:
    first, second = await Storage.open(postgres_url), await Storage.open(postgres_url)
    try:
        config = Config(token=None, db_path=postgres_url, round_pause=0)
        one, two = GameService(first, config, seed=1), GameService(second, config, seed=2)
        game = await one.open_lobby(1, 2, Seat(10, "a"), GameOptions())
        async with two.session(game.id) as copy:  # the second process caches version v
            assert copy is not None and copy.version == game.version
        waiting = asyncio.Event()

        async def join_while_the_other_waits() -> None:
            async with one.session(game.id) as held:
                assert held is not None
                waiting.set()
                await asyncio.sleep(0.3)  # the other session waits for the lock meanwhile
                await one.join(held, Seat(11, "b"))  # version v + 1, committed

        async def look() -> int:
            await waiting.wait()
            async with two.session(game.id) as seen:
                assert seen is not None
                return len(seen.seats)

        _, seats = await asyncio.gather(join_while_the_other_waits(), look())
        assert seats == 2  # read anew: its snapshot was taken after the lock was granted
    finally:
        await first.close()
        await second.close()
