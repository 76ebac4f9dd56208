"""What a click costs over PostgreSQL, counted rather than timed (``bot.py --count-db``).

Wall-clock figures on a shared, loaded machine move with its load; these do not (or
little): per kind of click, the database round trips made for it (each a wake-up of a
server process and of the bot), the statements behind them, how long it waited for a pool
connection and for the server; the bot process's and the PostgreSQL server's CPU time per
click (``/proc``: the server on this machine); and the event loop's busy share.

A click's work is found by a context variable set when its gateway event is parsed: the
tasks discord.py starts for it inherit it. The outbox's channel workers and the timers
are counted apart (they would inherit the click that first woke them).

Round trips are counted where they happen: each write of an asyncpg connection's socket
is one request that waits for the server's answer (asyncpg sends a statement's
Bind/Execute/Sync in one write; a statement not yet prepared on that connection takes a
second, Parse/Describe, first).
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# who the running code works for: an interaction's id, or "outbox", "timer", "other"
WHO: contextvars.ContextVar[int | str] = contextvars.ContextVar("bench_db_who", default="other")
TICK = os.sysconf("SC_CLK_TCK")


@dataclass
class Counts:
    """Everything counted during the timed run."""

    trips: Counter[int | str] = field(default_factory=Counter)
    # round trips made before the click was answered (what its player waits for)
    trips_before: Counter[int | str] = field(default_factory=Counter)
    statements: dict[int | str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    db_wait: Counter[int | str] = field(default_factory=Counter)  # seconds in asyncpg calls
    pool_wait: Counter[int | str] = field(default_factory=Counter)  # seconds acquiring
    acquires: Counter[int | str] = field(default_factory=Counter)
    waited: list[float] = field(default_factory=list)  # every acquire's wait (seconds)
    starved: int = 0  # acquires that found no idle connection
    most_held: int = 0
    # how long each connection was held, acquire to released (its reset included)
    holds: dict[int | str, list[float]] = field(default_factory=lambda: defaultdict(list))
    opened: int = 0  # new server connections opened (a backend process forked each)
    idle: float = 0.0  # seconds the loop spent waiting in select()


COUNTS = Counts()
_ON = [False]
_taken: dict[int, tuple[int | str, float]] = {}  # a handed-out connection: for whom, since


def _what(sql: str) -> str:
    """A statement's kind, short: its first words (a table's name where there is one)."""
    words = sql.split()
    if not words:
        return "?"
    head = words[0].upper()
    if head in ("SELECT", "INSERT", "UPDATE", "DELETE") and len(words) > 1:
        if "kasino_lock_game" in sql:
            return "SELECT kasino_lock_game (the lock and the version)"
        if "pg_advisory_lock" in sql:
            return "SELECT pg_advisory_lock"
        if "pg_advisory_unlock_all" in sql:
            return "reset (release to the pool)"
        if "pg_advisory_unlock" in sql:
            return "SELECT pg_advisory_unlock"
        for i, word in enumerate(words[1:-1], start=1):
            if word.upper() in ("FROM", "INTO", "UPDATE"):
                return f"{head} {words[i + 1]}"
        return f"{head} {words[1]}" if head == "UPDATE" else head
    return head


def install(answered: Callable[[int], bool]) -> None:
    """Count from now on (``answered(ident)``: whether that click has had its answer)."""
    from asyncio import selector_events

    import asyncpg
    from asyncpg import connection, pool
    from discord.state import ConnectionState

    parse = ConnectionState.parse_interaction_create

    def parse_interaction_create(self: Any, data: Any) -> None:
        token = WHO.set(int(data["id"]))
        try:
            parse(self, data)
        finally:
            WHO.reset(token)

    ConnectionState.parse_interaction_create = parse_interaction_create  # type: ignore[method-assign]

    write = selector_events._SelectorSocketTransport.write

    def counted_write(self: Any, data: Any) -> None:
        if _ON[0] and type(self._protocol).__module__.startswith("asyncpg"):
            who = WHO.get()
            COUNTS.trips[who] += 1
            if isinstance(who, int) and not answered(who):
                COUNTS.trips_before[who] += 1
        write(self, data)

    selector_events._SelectorSocketTransport.write = counted_write  # type: ignore[method-assign]

    for name in ("execute", "fetch", "fetchval", "fetchrow", "executemany"):
        original = getattr(connection.Connection, name)

        async def timed(self: Any, query: str, *args: Any, __original: Any = original,
                        **kw: Any) -> Any:  # fmt: skip
            if not _ON[0]:
                return await __original(self, query, *args, **kw)
            who = WHO.get()
            COUNTS.statements[who][_what(query)] += 1
            begun = time.perf_counter()
            try:
                return await __original(self, query, *args, **kw)
            finally:
                COUNTS.db_wait[who] += time.perf_counter() - begun

        setattr(connection.Connection, name, timed)

    acquire, release = pool.Pool._acquire, pool.Pool.release

    async def timed_acquire(self: Any, timeout: Any) -> Any:
        if not _ON[0]:
            return await acquire(self, timeout)
        who = WHO.get()
        if self._queue.empty():  # every connection is handed out
            COUNTS.starved += 1
        begun = time.perf_counter()
        conn = await acquire(self, timeout)
        waited = time.perf_counter() - begun
        COUNTS.pool_wait[who] += waited
        COUNTS.acquires[who] += 1
        COUNTS.waited.append(waited)
        held = sum(holder._in_use is not None for holder in self._holders)
        COUNTS.most_held = max(COUNTS.most_held, held)
        _taken[id(conn)] = (who, time.perf_counter())
        return conn

    async def timed_release(self: Any, conn: Any, *args: Any, **kw: Any) -> Any:
        taken = _taken.pop(id(conn), None)
        try:
            return await release(self, conn, *args, **kw)
        finally:
            if taken is not None and _ON[0]:
                who, at = taken
                COUNTS.holds[who].append(time.perf_counter() - at)

    pool.Pool._acquire = timed_acquire  # type: ignore[method-assign]
    pool.Pool.release = timed_release  # type: ignore[method-assign]

    connect = asyncpg.connection.connect

    async def counted_connect(*args: Any, **kw: Any) -> Any:
        if _ON[0]:
            COUNTS.opened += 1
        return await connect(*args, **kw)

    pool.connection.connect = counted_connect  # type: ignore[attr-defined]

    from cogs.kasino import Kasino
    from cogs.play.outbox import Outbox

    drain = Outbox._drain

    async def own_drain(self: Any, channel_id: int) -> None:
        WHO.set("outbox")  # this task's own context: the click that woke it is not charged
        await drain(self, channel_id)

    Outbox._drain = own_drain  # type: ignore[method-assign]
    deadline = Kasino.on_deadline

    async def own_deadline(self: Any, *args: Any) -> None:
        token = WHO.set("timer")
        try:
            await deadline(self, *args)
        finally:
            WHO.reset(token)

    Kasino.on_deadline = own_deadline  # type: ignore[method-assign]


def watch_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Time the loop's waits in ``select()``: the rest of the wall time it was busy (or
    runnable but not given a core)."""
    selector = loop._selector  # type: ignore[attr-defined]
    select = selector.select

    def timed(timeout: float | None = None) -> Any:
        begun = time.perf_counter()
        try:
            return select(timeout)
        finally:
            if _ON[0]:
                COUNTS.idle += time.perf_counter() - begun

    selector.select = timed


# ------------------------------------------------------------------ CPU, from /proc


def _stat(pid: int | str) -> list[str]:
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2 :].split()  # the fields after the command's name


def cpu_of(pid: int | str, children: bool = False) -> float:
    """A process's CPU seconds (user + system; ``children``: with its reaped children's)."""
    fields = _stat(pid)
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    if children:
        ticks += int(fields[13]) + int(fields[14])  # cutime, cstime
    return ticks / TICK


def server_cpu(postmaster: int) -> float:
    """The PostgreSQL server's CPU seconds: the postmaster with its ended children, and
    every running child (backends, writers, autovacuum)."""
    total = cpu_of(postmaster, children=True)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = _stat(entry.name)
            if int(fields[1]) == postmaster:  # its parent
                total += (int(fields[11]) + int(fields[12])) / TICK
        except (OSError, ValueError, IndexError):
            continue  # ended meanwhile
    return total


async def postmaster_of(storage: Any) -> int | None:
    """The server's main process (the parent of a backend), if it runs on this machine."""
    try:
        rows = await storage.fetch("SELECT pg_backend_pid()")
        return int(_stat(int(rows[0][0]))[1])
    except (OSError, ValueError, IndexError):
        return None


@dataclass
class Clock:
    """CPU and wall time from :meth:`start` to :meth:`stop`."""

    postmaster: int | None = None
    wall: float = 0.0
    bot: float = 0.0
    loop_thread: float = 0.0
    server: float | None = None
    commits: int | None = None

    def start(self) -> None:
        COUNTS.__init__()  # type: ignore[misc]
        _ON[0] = True
        self.wall = -time.perf_counter()
        self.bot = -cpu_of("self")
        self.loop_thread = -time.thread_time()  # called on the loop's thread
        self.server = None if self.postmaster is None else -server_cpu(self.postmaster)

    def stop(self) -> None:
        _ON[0] = False
        self.wall += time.perf_counter()
        self.bot += cpu_of("self")
        self.loop_thread += time.thread_time()
        if self.server is not None and self.postmaster is not None:
            self.server += server_cpu(self.postmaster)


async def commits(storage: Any) -> int:
    """The database's committed transactions so far (the server's statistics)."""
    rows = await storage.fetch(
        "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
    )
    return int(rows[0][0])


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) * 1000 if values else 0.0


def _pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


def report(clock: Clock, clicks: Iterable[tuple[int, str]], moves: int, pool_size: int) -> None:
    """Print the counts per kind of click, the CPU per click, the pool and the loop."""
    clicks = list(clicks)
    kinds: dict[str, list[int]] = defaultdict(list)
    for ident, kind in clicks:
        kinds[kind].append(ident)
    n = max(len(clicks), 1)
    if pool_size:
        report_database(clock, kinds, len(clicks), moves, pool_size)
    else:
        print("  database: SQLite (no round trips to a server to count)")
    print(f"  CPU per click: the bot {clock.bot / n * 1000:.2f} ms (its loop's thread"
          f" {clock.loop_thread / n * 1000:.2f} ms)" + (
              "" if clock.server is None else
              f", the PostgreSQL server {clock.server / n * 1000:.2f} ms"))  # fmt: skip
    cores = (clock.bot + (clock.server or 0)) / clock.wall
    print(f"  CPU over the run: the bot {clock.bot / clock.wall:.2f} cores, the server"
          f" {(clock.server or 0) / clock.wall:.2f} cores, together {cores:.2f} of"
          f" {os.cpu_count()}; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    busy = 1 - COUNTS.idle / clock.wall
    on_cpu = clock.loop_thread / clock.wall
    print(f"  the loop: busy {busy:.0%} of the wall time (outside select), on a core"
          f" {on_cpu:.0%}: waiting for a core {max(busy - on_cpu, 0):.0%}")  # fmt: skip


def report_database(
    clock: Clock, kinds: dict[str, list[int]], clicks: int, moves: int, pool_size: int
) -> None:
    """The round trips per kind of click and of the outbox, and the pool's use."""
    n = max(clicks, 1)
    print(f"  database, counted (--count-db), {clicks} clicks, {moves} moves:")
    print("      per click of a kind: round trips (before its answer), statements, ms waiting"
          " for the server, ms waiting for a pool connection")  # fmt: skip
    for kind, idents in sorted(kinds.items()):
        k = len(idents)
        trips = sum(COUNTS.trips[i] for i in idents) / k
        before = sum(COUNTS.trips_before[i] for i in idents) / k
        stmts = sum(sum(COUNTS.statements[i].values()) for i in idents) / k
        db = sum(COUNTS.db_wait[i] for i in idents) / k * 1000
        pool = sum(COUNTS.pool_wait[i] for i in idents) / k * 1000
        print(f"      {kind:<24} {k:5d} clicks: {trips:5.2f} trips ({before:5.2f}),"
              f" {stmts:5.2f} statements, {db:6.2f} ms server, {pool:6.2f} ms pool")  # fmt: skip
        mix: Counter[str] = Counter()
        for i in idents:
            mix.update(COUNTS.statements[i])
        print("          " + ", ".join(f"{name} {c / k:.2f}" for name, c in mix.most_common()))
    for who in ("outbox", "timer", "other"):
        if COUNTS.trips[who] or COUNTS.statements[who]:
            mix = COUNTS.statements[who]
            said = ", ".join(f"{s} {c / max(moves, 1):.2f}" for s, c in mix.most_common())
            print(f"      {who:<24} {COUNTS.trips[who] / max(moves, 1):5.2f} trips a move; {said}")
    total = sum(COUNTS.trips.values())
    print(f"      all round trips: {total} = {total / n:.2f} a click, {total / max(moves, 1):.1f}"
          f" a move, {total / clock.wall:.0f}/s")  # fmt: skip
    if clock.commits is not None:
        print(f"      server commits: {clock.commits} = {clock.commits / max(moves, 1):.2f} a move")
    waits = COUNTS.waited
    print(f"  pool: {pool_size} connections at most, {COUNTS.most_held} handed out at once at"
          f" most, {COUNTS.opened} opened during the run; {len(waits)} acquires, {COUNTS.starved}"
          f" found none idle; wait p50/p99/max {_pct(waits, 0.5) * 1000:.2f} /"
          f" {_pct(waits, 0.99) * 1000:.2f} / {max(waits, default=0) * 1000:.2f} ms")  # fmt: skip
    holds = [h for values in COUNTS.holds.values() for h in values]
    if holds:
        clicks_held = [h for who, v in COUNTS.holds.items() if isinstance(who, int) for h in v]
        print(f"      a connection held: {len(holds) / clock.wall:.1f} times/s, mean"
              f" {sum(holds) / len(holds) * 1000:.1f} ms (clicks' {_mean(clicks_held):.1f} ms,"
              f" p99 {_pct(clicks_held, 0.99) * 1000:.1f} ms): {sum(holds) / clock.wall:.2f}"
              " connections in use on average")  # fmt: skip
