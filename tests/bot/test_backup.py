"""Back-up and restore: ``python -m bot backup`` copies the SQLite database while a writer
goes on writing, ``python -m bot restore`` puts the copy in place, and the bot's storage
reads the same profiles from it; PostgreSQL's ``pg_dump -Fc`` / ``pg_restore`` lines of
docs/admin.md do the same there."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.games import GameService
from bot.storage import Storage
from tests.bot.test_ratings_storage import GUILD, config, play_match
from tests.dbrows import execute, query
from tests.pg_server import find_bin

ROOT = Path(__file__).resolve().parents[2]


async def profile(storage: Storage, user_id: int) -> tuple[Any, ...]:
    """What ``/kasino profile`` reads of a player: totals, rating and rank, results,
    streaks."""
    return (
        await storage.player_totals(GUILD, user_id),
        await storage.rating(GUILD, "swedish", user_id),
        await storage.player_results(GUILD, user_id),
        await storage.player_streaks(GUILD, user_id),
    )


async def played(target: Path | str, matches: int = 3) -> Storage:
    """The storage open on ``target``, after ``matches`` matches of players 1 and 2."""
    storage = await Storage.open(target)
    service = GameService(storage, config(target), seed=5)
    for n in range(matches):
        await play_match(service, 100 + n, [1, 2] if n % 2 else [2, 1])
    return storage


class Writer(threading.Thread):
    """Another connection writing to the database: its first transaction is held open
    until :meth:`release`, then it goes on committing rows until :meth:`stop`."""

    def __init__(self, path: Path) -> None:
        super().__init__(daemon=True)
        self.path = path
        self.holding = threading.Event()
        self.released = threading.Event()
        self.stopped = threading.Event()
        self.rows = 0

    def run(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
        try:
            while not self.stopped.is_set():
                db.execute("BEGIN IMMEDIATE")
                db.execute("INSERT INTO meta VALUES (?, 'written')", (f"writer-{self.rows}",))
                if self.rows == 0:
                    self.holding.set()
                    self.released.wait(30)
                db.execute("COMMIT")
                self.rows += 1
        finally:
            db.close()

    def release(self) -> None:
        self.released.set()

    def stop(self) -> None:
        self.stopped.set()
        self.join(10)


def run(*argv: str) -> int:
    return main(list(argv))


async def test_a_backup_taken_while_writing_restores_the_same_profiles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "kasino.db"
    storage = await played(db)  # the bot's connection stays open throughout
    try:
        before = {user: await profile(storage, user) for user in (1, 2)}
        writer = Writer(db)
        writer.start()
        assert await asyncio.to_thread(writer.holding.wait, 10)
        # the backup runs while another connection's write transaction is open
        copy = tmp_path / "backups" / "kasino-backup.db"  # its folder is made
        assert await asyncio.to_thread(run, "backup", str(copy), "--db", str(db)) == 0
        writer.release()
        while writer.rows < 20:  # it keeps writing after the backup
            await asyncio.sleep(0.01)
        writer.stop()
        out = capsys.readouterr().out
        assert out.startswith(f"backed up {db} to {copy}: 3 games, 6 results")
        assert out.count("\n") == 1  # one line
        # the copy holds what was committed when it was made, not the open transaction
        assert query(copy, "SELECT key FROM meta WHERE key LIKE 'writer-%'") == []
        assert len(query(db, "SELECT key FROM meta WHERE key LIKE 'writer-%'")) >= 20
        assert not Path(f"{copy}-wal").exists()  # one self-contained file

        restored = tmp_path / "fresh" / "kasino.db"
        assert run("restore", str(copy), "--db", str(restored)) == 0
        assert capsys.readouterr().out.startswith(f"restored {copy} into {restored}: 3 games")
        again = await Storage.open(restored)
        try:
            for user in (1, 2):
                assert await profile(again, user) == await profile(storage, user) == before[user]
            assert before[1][1][0] is not None and before[1][1][0].matches == 3
        finally:
            await again.close()
    finally:
        await storage.close()


async def test_a_restore_keeps_the_database_it_replaces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "kasino.db"
    storage = await played(db, matches=2)
    wanted = await profile(storage, 1)
    await storage.close()
    copy = tmp_path / "two.db"
    assert run("backup", str(copy), "--db", str(db)) == 0
    storage = await played(db, matches=1)  # the database goes on after the backup
    grown = await profile(storage, 1)
    await storage.close()
    assert grown != wanted

    assert run("restore", str(copy), "--db", str(db)) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert line.startswith(f"restored {copy} into {db}: 2 games") and "kept as" in line
    (kept,) = tmp_path.glob("kasino.db.before-restore-*")
    for path, expected in ((db, wanted), (kept, grown)):
        storage = await Storage.open(path)
        try:
            assert await profile(storage, 1) == expected, path
        finally:
            await storage.close()


def test_backup_and_restore_refuse_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "kasino.db"
    asyncio.run(_empty(db))
    copy = tmp_path / "copy.db"
    assert run("backup", str(copy), "--db", str(db)) == 0
    execute(db, "INSERT INTO meta VALUES ('after', 'the copy')")
    # an existing file is kept unless --force
    assert run("backup", str(copy), "--db", str(db)) == 2
    assert query(copy, "SELECT * FROM meta WHERE key = 'after'") == []
    assert run("backup", str(copy), "--db", str(db), "--force") == 0
    assert query(copy, "SELECT value FROM meta WHERE key = 'after'") == [{"value": "the copy"}]
    assert run("backup", str(db), "--db", str(db), "--force") == 2  # not onto itself
    assert run("backup", str(tmp_path / "x.db"), "--db", str(tmp_path / "none.db")) == 2
    assert not (tmp_path / "none.db").exists()  # nothing is created
    # PostgreSQL: pointed at pg_dump, the password never shown
    monkeypatch.setenv("KASINO_DB", "postgresql://kasino:secret@127.0.0.1/kasino")
    assert run("backup", str(tmp_path / "pg.db")) == 2
    assert run("restore", str(copy)) == 2
    monkeypatch.delenv("KASINO_DB")
    # a file that is not a Kasino database, or is missing, is refused; nothing changes
    junk = tmp_path / "junk.db"
    junk.write_text("not a database")
    assert run("restore", str(junk), "--db", str(db)) == 2
    other = tmp_path / "other.db"
    sqlite3.connect(other).close()
    assert run("restore", str(other), "--db", str(db)) == 2
    assert run("restore", str(tmp_path / "missing.db"), "--db", str(db)) == 2
    assert run("restore", str(db), "--db", str(db)) == 2
    assert query(db, "SELECT value FROM meta WHERE key = 'after'") == [{"value": "the copy"}]
    assert list(tmp_path.glob("*.before-restore-*")) == []
    assert list(tmp_path.glob(".*partial")) == []
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 9 and all(line.startswith("error: ") for line in err), err
    assert "--force" in err[0] and "pg_dump -Fc" in err[3] and "pg_restore" in err[4]
    assert not any("secret" in line for line in err)
    assert "not a Kasino database" in err[5] and "no such table" in err[6]


async def _empty(path: Path) -> None:
    await (await Storage.open(path)).close()


@pytest.fixture
def pg_tools() -> tuple[str, str]:
    tools = find_bin("pg_dump"), find_bin("pg_restore")
    if None in tools:
        pytest.skip("pg_dump and pg_restore are not installed (apt-get install postgresql)")
    return tools  # type: ignore[return-value]


async def test_pg_dump_and_pg_restore_as_docs_admin_says(
    postgres_url: str, pg_tools: tuple[str, str], tmp_path: Path
) -> None:
    pg_dump, pg_restore = pg_tools
    admin = (ROOT / "docs" / "admin.md").read_text(encoding="utf-8")
    dump_line = "pg_dump -Fc -f kasino.dump"
    restore_line = "pg_restore --clean --if-exists -d"
    assert dump_line in admin and restore_line in admin
    storage = await played(postgres_url)
    wanted = await profile(storage, 1)
    dump = tmp_path / "kasino.dump"
    await asyncio.to_thread(_run, [pg_dump, "-Fc", "-f", str(dump), postgres_url])
    # the database goes on (and loses a result) after the dump; the restore undoes that
    await play_match(GameService(storage, config(postgres_url), seed=9), 200, [1, 2])
    execute(postgres_url, "DELETE FROM results WHERE game_id = 1")
    assert await profile(storage, 1) != wanted
    await storage.close()
    await asyncio.to_thread(
        _run, [pg_restore, "--clean", "--if-exists", "-d", postgres_url, str(dump)]
    )
    storage = await Storage.open(postgres_url)
    try:
        assert await profile(storage, 1) == wanted
    finally:
        await storage.close()


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_counts_use_the_singular_for_one(tmp_path: Path) -> None:
    """One game and one result read "1 game, 1 result", not "1 games, 1 results"."""
    from bot.backup import check

    db = tmp_path / "one.db"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE games (id INTEGER)")
        con.execute("CREATE TABLE results (id INTEGER)")
        con.execute("CREATE TABLE tournaments (id INTEGER)")
        con.execute("INSERT INTO games VALUES (1)")
        con.execute("INSERT INTO results VALUES (1)")
        con.execute("INSERT INTO tournaments VALUES (1), (2)")
        con.execute("PRAGMA user_version = 1")
    con.close()
    assert check(db) == "1 game, 1 result, 2 tournaments, schema version 1"
