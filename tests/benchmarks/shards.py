"""What the benchmarks that run two shard processes over PostgreSQL share
(tests/benchmarks/ladder_tables.py, tests/benchmarks/correspondence.py).

Each "process" is a thread with its own event loop and its own SimCord Discord holding
only its shard's servers, as in tests/bot/test_shards.py. The two share one Python
interpreter (and its GIL): wall-clock figures are those of both processes on one core, an
upper bound of two real processes' figures.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import simcord

from bot import timers

SHARDS = 2
DAY_MS = 86_400_000

# each process's Discord, by its event loop (the bot's waits look theirs up)
ENVS: dict[asyncio.AbstractEventLoop, simcord.Env] = {}

T = TypeVar("T")
# one process: (its shard, wait for the other process, the lock one start-up at a time
# holds, a dict the processes share) -> what it saw
Process = Callable[[int, Callable[[], Any], threading.Lock, dict[Any, Any]], Coroutine[Any, Any, T]]


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of the values (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def virtual_waits() -> None:
    """The bot's deliberate waits on the virtual clock of the process that waits (as the
    tests' ``virtual_waits`` fixture, per event loop)."""

    async def pause(seconds: float) -> None:
        env = ENVS.get(asyncio.get_running_loop())
        if env is None:
            await asyncio.sleep(seconds)
            return
        await env.external_wait(asyncio.sleep(seconds), reason="the bot's pause")

    def call_later(delay: float, callback: Any) -> asyncio.Task[None]:
        async def wait() -> None:
            await pause(delay)
            callback()

        return asyncio.get_running_loop().create_task(wait(), name="kasino-deadline")

    timers.pause = pause  # type: ignore[assignment]
    timers.call_later = call_later  # type: ignore[assignment]


def distinct_ids(env: simcord.Env) -> None:
    """Shard 1's Discord hands out ids from a day back: ids unique across the two
    Discords, while both keep the same calendar (the ladder's pool compares their times)."""
    backend: Any = env.backend
    allocate = backend._allocate_at  # SimCord's private allocator (pinned version)
    backend._allocate_at = lambda ms: allocate(ms - DAY_MS)


def run_processes(process: Process[T], timeout: float = 600) -> list[T]:
    """Both processes, each a thread with its own event loop; their results, by shard.
    The first error of either is raised (the other's wait for it is broken)."""
    barrier = threading.Barrier(SHARDS, timeout=timeout)
    startup: threading.Lock = threading.Lock()
    shared: dict[Any, Any] = {}
    boxes: list[dict[str, Any]] = [{} for _ in range(SHARDS)]

    def target(shard: int) -> None:
        try:
            boxes[shard]["seen"] = asyncio.run(process(shard, barrier.wait, startup, shared))
        except BaseException as error:
            boxes[shard]["error"] = error
            barrier.abort()

    threads = [threading.Thread(target=target, args=(s,), daemon=True) for s in range(SHARDS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    errors = [b["error"] for b in boxes if "error" in b]
    errors.sort(key=lambda e: isinstance(e, threading.BrokenBarrierError))
    if errors:
        raise errors[0]
    return [b["seen"] for b in boxes]


def on_server(run: Callable[[str], None], db: str | None) -> None:
    """``run`` with a PostgreSQL server's URL: ``db`` (``postgresql://…``) or a
    throwaway server started for it (tests/pg_server.py)."""
    if db:
        run(db)
        return
    from tests.pg_server import PostgresServer

    server = PostgresServer().start()
    try:
        run(server.database_url("postgres"))
    finally:
        server.stop()
