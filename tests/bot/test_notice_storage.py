"""People's notice settings in storage (``notice_prefs``, bot.storage.notices), on SQLite
and PostgreSQL: saved and read whole, the refused-DM flag, the digest taken once, forget-me
removing the row."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.correspondence import NoticePrefs
from bot.storage import Storage
from cogs.correspondence.prefs import Prefs
from tests.bot.test_forget import naming

PERSON = 1456074443980800055  # Discord ids need 64 bits


async def test_settings_are_saved_read_and_forgotten(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        assert await storage.notice_prefs(PERSON) is None
        assert await storage.all_notice_prefs() == {}
        chosen = NoticePrefs(
            how="digest", tz="Europe/Stockholm", quiet_start=22, quiet_end=7, digest_hour=8,
            away_until=1.5e9, away_month="2026-11", away_days=3, locale="sv",
        )  # fmt: skip
        await storage.save_notice_prefs(PERSON, chosen, 10.0)
        assert await storage.notice_prefs(PERSON) == chosen
        await storage.set_dm_refused(PERSON, True, 11.0)
        refused = chosen.replace(dm_refused=True)
        assert await storage.all_notice_prefs() == {PERSON: refused}
        # someone who never chose anything but whose DMs were refused gets a row of defaults
        await storage.set_dm_refused(PERSON + 1, True, 12.0)
        assert await storage.notice_prefs(PERSON + 1) == NoticePrefs(dm_refused=True)
        assert naming(db_path, PERSON, "nobody by this name")
        await storage.forget_user(PERSON, 20.0)
        assert await storage.notice_prefs(PERSON) is None
        assert naming(db_path, PERSON, "nobody by this name") == []
    finally:
        await storage.close()


async def test_a_days_digest_is_taken_once(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        await storage.save_notice_prefs(PERSON, NoticePrefs(how="digest"), 1.0)
        assert await storage.take_digest(PERSON, 1000.0, 500.0)
        assert not await storage.take_digest(PERSON, 1001.0, 600.0)  # again: no
        assert await storage.digest_times() == {PERSON: 1000.0}
        assert await storage.last_digest(PERSON) == 1000.0
        assert await storage.last_digest(PERSON + 1) is None
        assert await storage.take_digest(PERSON, 2000.0, 1500.0)  # the next day's
        # nobody without a row is sent one
        assert not await storage.take_digest(PERSON + 1, 1000.0, 0.0)
    finally:
        await storage.close()


async def test_another_process_learns_a_change(db_path: Path | str, backend: str) -> None:
    """Two processes over one PostgreSQL database: a change saved by one reaches the
    other's ``Prefs`` through the notice ``kasino_prefs`` (and forget-me's reload drops
    the person there)."""
    if backend != "postgresql":
        pytest.skip("one process holds an SQLite file")
    first, second = await Storage.open(db_path), await Storage.open(db_path)
    try:
        here, there = Prefs(first), Prefs(second)
        await here.load()
        await there.load()
        chosen = NoticePrefs(how="dm", tz="Europe/Helsinki")
        seen: list[int] = []
        there.watch(seen.append)
        await here.save(PERSON, chosen)
        await until(lambda: there.of(PERSON) == chosen)
        assert seen == [PERSON]
        await here.dm_refused(PERSON)
        await until(lambda: there.of(PERSON).dm_refused)
        await first.forget_user(PERSON, 30.0)
        await there.reload()
        assert there.of(PERSON) == NoticePrefs()
    finally:
        await first.close()
        await second.close()


async def until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    """Wait (real time: PostgreSQL's notices) until ``condition()`` holds."""
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the other process never learnt of it")
