"""The start-up's queries read the games that wait (by an index), not every game ever
played: a process with thousands of finished games starts as fast as a new one."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.storage import Storage
from bot.storage.sql import Shards

SHARDS = Shards(2, (0,))


async def plans(storage: Any, reads: Sequence[str]) -> dict[str, list[str]]:
    """What SQLite does for each start-up query (``EXPLAIN QUERY PLAN``), by method."""
    seen: list[tuple[str, Sequence[Any]]] = []
    fetch = storage.fetch

    async def noted(sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        seen.append((sql, params))
        return await fetch(sql, params)

    storage.fetch = noted
    found: dict[str, list[str]] = {}
    for name in reads:
        seen.clear()
        await getattr(storage, name)(SHARDS)
        found[name] = [
            str(row[-1])
            for sql, params in seen
            for row in await fetch(f"EXPLAIN QUERY PLAN {sql}", params)
        ]
    storage.fetch = fetch
    return found


async def test_start_up_reads_no_whole_games_table(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "kasino.db")
    try:
        found = await plans(storage, ["deadlines", "tableless_games", "open_tournaments"])
    finally:
        await storage.close()
    for name, steps in found.items():
        # "SCAN games" alone is every row ever written; through an index of the active
        # games ("SCAN games USING INDEX …", "SEARCH games …") only those that wait
        assert "SCAN games" not in steps, (name, steps)
        assert "SCAN tournaments" not in steps, (name, steps)
