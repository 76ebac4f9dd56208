"""``python -m bot migrate-db --to postgresql://…``: the command around
:func:`bot.storage.copy.copy_database`, with one-line errors like the bot's start-up."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.client import DATABASE_ERRORS
from bot.config import Config
from bot.storage import BadTarget, Storage, parse_target, redact
from bot.storage.copy import CopyRefused, copy_database


def migrate_db(config: Config, source: str | None, target: str, *, replace: bool) -> int:
    """Copy the SQLite database into ``target``; returns the exit code (0 copied, 1 failed,
    2 bad arguments or a target that holds data)."""
    try:
        kind, url = parse_target(target)
        if kind != "postgresql":
            raise BadTarget("--to must be a postgresql:// URL")
        path = Path(source) if source else config.db_path
        if not isinstance(path, Path):
            raise BadTarget("KASINO_DB is not an SQLite file: name the file with --from")
        if not path.is_file():
            raise BadTarget(f"there is no SQLite database at {path}")
    except BadTarget as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        print(asyncio.run(_copy(path, url, replace)), flush=True)
    except CopyRefused as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except DATABASE_ERRORS as error:
        detail = str(error).splitlines()[0] if str(error) else type(error).__name__
        print(f"error: cannot copy {path} to {redact(url)}: {detail}", file=sys.stderr)
        return 1
    return 0


async def _copy(path: Path, url: str, replace: bool) -> str:
    source = await Storage.open(path)
    try:
        target = await Storage.open(url)
        try:
            report = await copy_database(source, target, replace=replace)
        finally:
            await target.close()
    finally:
        await source.close()
    return f"{report.summary()}: {path} -> {redact(url)}"
