"""Group commit (issue 32), on SQLite and PostgreSQL: writes that queue while the database
is busy share one transaction, each in its own savepoint. A member that fails (a stale
game, a taken channel) raises for its caller alone and the others commit; each caller reads
its own write once it is answered; a process killed while a group runs leaves every member
all or nothing, and none of the killed group's callers was answered; a posted table's
outbox row leaves in the transaction that saves its message id."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.models import Game, GameOptions, Seat
from bot.storage import ChannelBusy, StaleGame, Statement, Storage
from bot.storage import sqlite as sqlite_storage
from bot.storage.sql import Computed
from cogs.play.outbox import Post

ROOT = Path(__file__).resolve().parents[2]


async def new_game(storage: Storage, channel: int) -> Game:
    game = Game(0, 1, channel, 1, GameOptions(), [Seat(1, "anna")])
    return await storage.create_game(game, now=1.0)


@contextmanager
def groups_seen() -> Iterator[list[int]]:
    """The size of every SQLite transaction run while inside (none on PostgreSQL)."""
    sizes: list[int] = []
    run = sqlite_storage._run_group

    def counted(conn: Any, members: Any) -> Any:
        sizes.append(len(members))
        return run(conn, members)

    sqlite_storage._run_group = counted
    try:
        yield sizes
    finally:
        sqlite_storage._run_group = run


@contextmanager
def thread_held(storage: Storage) -> Iterator[threading.Event]:
    """SQLite: keep the database thread busy until the event is set, so that every write
    sent meanwhile queues (and makes one group); PostgreSQL: nothing to hold."""
    release = threading.Event()
    if isinstance(storage, sqlite_storage.SQLiteStorage):
        storage._db._tx.put_nowait((None, release.wait))
    try:
        yield release
    finally:
        release.set()


async def test_a_failing_member_fails_alone_and_each_caller_reads_its_write(
    db_path: Path | str,
) -> None:
    storage = await Storage.open(db_path)
    try:
        stale, fresh = await new_game(storage, 10), await new_game(storage, 11)
        first = stale.version
        stale.stored_version = first + 7  # not what the row holds: this save is refused
        stale.version += 1
        fresh.version += 1
        taken = Game(0, 1, 10, 2, GameOptions(), [Seat(2, "bo")])  # channel 10 is busy

        async def save_fresh() -> int | None:
            await storage.save_game(fresh, now=2.0)
            return await storage.game_version(fresh.id)  # its own write, read back

        async def set_meta() -> str | None:
            await storage.set_meta("group", "committed")
            return await storage.get_meta("group")

        with groups_seen() as sizes, thread_held(storage) as release:
            tasks = [
                asyncio.create_task(storage.save_game(stale, now=2.0)),
                asyncio.create_task(save_fresh()),
                asyncio.create_task(storage.create_game(taken, now=2.0)),
                asyncio.create_task(set_meta()),
            ]
            await asyncio.sleep(0)  # every write is queued behind the held thread
            release.set()
            outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        if isinstance(storage, sqlite_storage.SQLiteStorage):
            assert 4 in sizes  # the four writes made one transaction
        assert isinstance(outcomes[0], StaleGame)
        assert outcomes[1] == fresh.version
        assert isinstance(outcomes[2], ChannelBusy)
        assert outcomes[3] == "committed"
        assert await storage.game_version(stale.id) == first  # refused: nothing written
        assert await storage.channel_game(10) == stale.id
    finally:
        await storage.close()


async def test_a_failing_computed_step_rolls_back_only_its_member(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:

        def refuse(rows: list[Any]) -> list[Statement]:
            raise ValueError("refused")

        sql = "INSERT INTO meta (key, value) VALUES (?, ?)"
        with thread_held(storage) as release:
            first = asyncio.create_task(storage.write([Statement(sql, ("a", "1"))]))
            broken = asyncio.create_task(
                storage.write(
                    [
                        Statement(sql, ("b", "written, then rolled back")),
                        Computed((("SELECT 1", ()),), refuse),
                    ]
                )
            )
            last = asyncio.create_task(storage.write([Statement(sql, ("c", "3"))]))
            await asyncio.sleep(0)
            release.set()
            outcomes = await asyncio.gather(first, broken, last, return_exceptions=True)
        assert outcomes[0] == [1] and outcomes[2] == [1]
        assert isinstance(outcomes[1], ValueError)
        assert await storage.get_meta("a") == "1" and await storage.get_meta("c") == "3"
        assert await storage.get_meta("b") is None
    finally:
        await storage.close()


async def test_a_posted_tables_row_leaves_with_its_message_id(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        game = await new_game(storage, 12)
        table = Post(game.id, game.guild_id, game.channel_id, content="table", table=True)
        game.outbox = [table.record()]
        game.version += 1
        await storage.save_game(game, now=2.0)
        (row,) = [int(r.id or 0) for r in await storage.pending_posts()]
        game.outbox = []  # queued (the game service empties it once saved)
        game.message_id = 555
        stored = game.stored_version
        game.stored_version = stored + 7  # a stale save deletes nothing
        with pytest.raises(StaleGame):
            await storage.save_game(game, now=3.0, columns=("message_id",), posted=(row,))
        assert len(await storage.pending_posts()) == 1
        game.stored_version = stored
        await storage.save_game(game, now=3.0, columns=("message_id",), posted=(row,))
        assert await storage.pending_posts() == []
        assert (await storage.get_game(game.id)).message_id == 555  # type: ignore[union-attr]
    finally:
        await storage.close()


# The child: commits one write, then queues MEMBERS writes of two rows each behind a held
# database thread; one of them blocks inside the group's transaction (and says so) until
# the process is killed. It prints each write that was answered.
KILLED_CHILD = """
import asyncio, sys, threading, time
from pathlib import Path
from bot.storage import Statement, Storage
from bot.storage.sql import Computed
from bot.storage import sqlite as sqlite_storage

MEMBERS = 6
target, marker = sys.argv[1], Path(sys.argv[2])
SQL = "INSERT INTO meta (key, value) VALUES (?, ?)"

def block(rows):
    marker.touch()  # inside the group's transaction: the parent kills us now
    time.sleep(600)
    return []

async def write(storage, i):
    steps = [Statement(SQL, (f"a{i}", "x"))]
    if i == MEMBERS // 2:
        steps.append(Computed((("SELECT 1", ()),), block))
    steps.append(Statement(SQL, (f"b{i}", "x")))
    await storage.write(steps)
    print(f"answered {i}", flush=True)

async def main():
    storage = await Storage.open(target)
    await storage.set_meta("before", "committed")
    print("answered before", flush=True)
    release = threading.Event()
    if isinstance(storage, sqlite_storage.SQLiteStorage):
        storage._db._tx.put_nowait((None, release.wait))
    tasks = [asyncio.create_task(write(storage, i)) for i in range(MEMBERS)]
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(*tasks)

asyncio.run(main())
"""


def test_a_kill_mid_group_leaves_every_member_all_or_nothing(
    db_path: Path | str, tmp_path: Path
) -> None:
    """SIGKILL while a group's transaction is open (a member blocks inside it, so this does
    not depend on the machine's speed): each member is written whole or not at all, and
    no member the process answered is missing."""
    marker = tmp_path / "inside"
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_CHILD, str(db_path), str(marker)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert child.poll() is None, "the child stopped before its group blocked"
            assert time.monotonic() < deadline, "the group never blocked"
            time.sleep(0.01)
        child.send_signal(signal.SIGKILL)
        output, _ = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    answered = {line.split()[1] for line in output.splitlines() if line.startswith("answered")}
    rows = asyncio.run(_meta_keys(db_path))
    assert "before" in answered and "before" in rows
    for i in range(6):
        both = {f"a{i}", f"b{i}"} & rows
        assert len(both) in (0, 2), f"member {i} half written: {sorted(both)}"
        if str(i) in answered:
            assert both, f"member {i} was answered but is not in the database"
    if not str(db_path).startswith("postgresql"):  # one group: none of it committed
        assert not answered - {"before"}
        assert not {f"a{i}" for i in range(6)} & rows
    else:  # no groups: the blocked member alone is lost
        assert "a3" not in rows


async def _meta_keys(db_path: Path | str) -> set[str]:
    storage = await Storage.open(db_path)
    try:
        return {str(key) for (key,) in await storage.fetch("SELECT key FROM meta")}
    finally:
        await storage.close()
