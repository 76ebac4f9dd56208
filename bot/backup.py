"""``python -m bot backup FILE`` and ``python -m bot restore FILE``: copies of the SQLite
database made by SQLite itself, with one-line errors like the other commands.

A backup is safe while the bot runs: SQLite's online backup API copies the database as
one read transaction sees it (WAL mode lets the bot go on writing meanwhile), so the copy
is a consistent database, never a file caught in the middle of a write. Copying the file
with ``cp`` is not: the latest changes may still be in ``kasino.db-wal``.

A restore writes a backup into the database through the same API, so SQLite deals with
the database's own ``-wal`` file (a stale one beside a copied-in file can corrupt it).
The bot must be stopped first; the database it replaces is kept beside it.
PostgreSQL has its own tools (``pg_dump -Fc`` and ``pg_restore``): both commands say so.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from contextlib import closing
from pathlib import Path

from bot.config import Config
from bot.i18n import EN
from bot.storage import MIGRATIONS, BadTarget, parse_target

POSTGRES_HINT = (
    "KASINO_DB is a PostgreSQL database: back it up with"
    " `pg_dump -Fc -f kasino.dump URL` and restore it with"
    " `pg_restore --clean --if-exists -d URL kasino.dump` (see docs/admin.md)"
)


class Refused(ValueError):
    """The command cannot run as asked; the message says why and what to do."""


def backup_command(config: Config, file: str, *, db: str | None, force: bool) -> int:
    """Copy the database into ``file``; the exit code (0 done, 1 failed, 2 refused)."""
    try:
        source = _sqlite_database(db, config)
        destination = Path(file)
        if destination.exists() and not force:
            raise Refused(f"{destination} exists: name another file, or add --force to replace it")
        if destination.resolve() == source.resolve():
            raise Refused("the backup cannot be the database itself")
    except Refused as error:
        return _error(str(error), 2)
    try:
        print(f"backed up {source} to {destination}: {backup(source, destination)}", flush=True)
    except (sqlite3.Error, OSError) as error:
        return _error(f"cannot back up {source} to {destination}: {_first_line(error)}", 1)
    return 0


def restore_command(config: Config, file: str, *, db: str | None) -> int:
    """Replace the database with the backup ``file``, keeping the old one beside it."""
    try:
        target = _sqlite_database(db, config, must_exist=False)
        source = Path(file)
        if not source.is_file():
            raise Refused(f"there is no backup at {source}")
        if source.resolve() == target.resolve():
            raise Refused("the backup is the database itself: name the backup file")
        check(source)
    except Refused as error:
        return _error(str(error), 2)
    except sqlite3.Error as error:
        return _error(f"{source} is not a Kasino database: {_first_line(error)}", 2)
    try:
        kept = _keep_current(target)
        summary = restore(source, target)
    except (sqlite3.Error, OSError) as error:
        return _error(f"cannot restore {source} into {target}: {_first_line(error)}", 1)
    saved = f" (the database it replaced is kept as {kept})" if kept else ""
    print(f"restored {source} into {target}: {summary}{saved}", flush=True)
    return 0


def backup(source: Path, destination: Path) -> str:
    """Copy ``source`` into ``destination`` (a new file, or one replaced whole) with
    SQLite's backup API and check the copy; returns what it holds, in words. A failed copy
    leaves ``destination`` as it was."""
    destination.parent.mkdir(parents=True, exist_ok=True)  # backups/… the first time
    partial = destination.with_name(f".{destination.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        _copy(source, partial)
        # one self-contained file (the copy inherits WAL mode from the source)
        with closing(sqlite3.connect(partial)) as copy:
            copy.execute("PRAGMA journal_mode=DELETE")
        summary = check(partial)
        os.replace(partial, destination)
    finally:
        partial.unlink(missing_ok=True)
    return summary


def restore(source: Path, target: Path) -> str:
    """Write the backup ``source`` into the database ``target`` through SQLite (never by
    replacing the file, which a stale ``-wal`` beside it could damage); what it holds."""
    _copy(source, target)
    return check(target)


def _copy(source: Path, destination: Path) -> None:
    """Every page of ``source`` into ``destination``, in one step: one consistent
    snapshot, however the bot writes meanwhile. The source is only read, and never
    created (``mode=rw``); it is not opened read-only, which would leave an empty ``-wal``
    beside a stopped bot's database (a read-only connection cannot remove it)."""
    src, dst = _open(source, "rw"), None
    try:
        dst = _open(destination, "rwc")
        src.backup(dst)
    finally:
        src.close()
        if dst is not None:
            dst.close()


def check(path: Path) -> str:
    """What a Kasino database holds, in words; :class:`sqlite3.Error` if it is damaged,
    not one, or newer than this version of the bot (checking only reads)."""
    with closing(_open(path, "rw")) as db:
        (verdict,) = db.execute("PRAGMA quick_check").fetchone()
        if verdict != "ok":
            raise sqlite3.DatabaseError(f"damaged ({verdict})")
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version > len(MIGRATIONS):
            raise sqlite3.DatabaseError(
                f"schema version {version} is newer than this bot's ({len(MIGRATIONS)})"
            )
        games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        results = db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        lessons = _count(db, "lesson_progress")
        tournaments = _count(db, "tournaments")
    counts = [
        EN.ngettext("{n} game", "{n} games", games),
        EN.ngettext("{n} result", "{n} results", results),
    ]
    if lessons is not None:
        counts.append(EN.ngettext("{n} lesson", "{n} lessons", lessons))
    if tournaments is not None:
        counts.append(EN.ngettext("{n} tournament", "{n} tournaments", tournaments))
    # the admin's command speaks English, with the bot's plural forms ("1 game")
    return ", ".join(counts) + f", schema version {version}"


def _count(db: sqlite3.Connection, table: str) -> int | None:
    """The rows of a table added by a later migration (``None``: not there yet)."""
    found = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,))
    if found.fetchone() is None:
        return None
    return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def _open(path: Path, mode: str) -> sqlite3.Connection:
    """A connection with SQLite's open ``mode`` (``rw``: the file must exist)."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True)


def _sqlite_database(db: str | None, config: Config, *, must_exist: bool = True) -> Path:
    """The SQLite file named by ``--db`` or ``KASINO_DB``; :class:`Refused` otherwise."""
    try:
        kind, where = parse_target(db) if db else parse_target(config.db_path)
    except BadTarget as error:
        raise Refused(str(error)) from None
    if kind == "postgresql":
        raise Refused(POSTGRES_HINT)
    path = Path(where)
    if must_exist and not path.is_file():
        raise Refused(f"there is no SQLite database at {path}")
    return path


def _keep_current(target: Path) -> Path | None:
    """Back up the database a restore replaces, beside it; its path (None: there was none)."""
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        return None
    kept = target.with_name(f"{target.name}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}")
    backup(target, kept)
    return kept


def _first_line(error: BaseException) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def _error(message: str, code: int) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code
