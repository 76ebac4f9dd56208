"""The server language setting in storage (schema version 3), on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from bot.storage import MIGRATIONS, Storage
from bot.storage.copy import copy_database
from tests.bot.test_bot_computers import version_one


async def test_a_guild_language_is_set_changed_and_cleared(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        assert await storage.schema_version() == len(MIGRATIONS) >= 3
        assert await storage.guild_language(7) is None
        assert await storage.guild_languages() == {}
        await storage.set_guild_language(7, "fi", now=1.0)
        await storage.set_guild_language(8, "sv", now=1.0)
        await storage.set_guild_language(7, "sv", now=2.0)  # changed, not added
        assert await storage.guild_language(7) == "sv"
        assert await storage.guild_languages() == {7: "sv", 8: "sv"}
        await storage.set_guild_language(7, None, now=3.0)
        assert await storage.guild_language(7) is None
        assert await storage.guild_languages() == {8: "sv"}
        # Discord ids need 64 bits
        big = 1456074443980800055
        await storage.set_guild_language(big, "fi", now=4.0)
        assert await storage.guild_language(big) == "fi"
    finally:
        await storage.close()


async def test_an_old_database_gains_the_setting(db_path: Path | str) -> None:
    version_one(db_path)
    storage = await Storage.open(db_path)
    try:
        assert await storage.schema_version() == len(MIGRATIONS)
        await storage.set_guild_language(9, "fi", now=1.0)
        assert await storage.guild_languages() == {9: "fi"}
    finally:
        await storage.close()


async def test_the_setting_is_copied_to_postgresql(tmp_path: Path, postgres_url: str) -> None:
    source = await Storage.open(tmp_path / "kasino.db")
    target = await Storage.open(postgres_url)
    try:
        await source.set_guild_language(5, "sv", now=1.0)
        report = await copy_database(source, target)
        assert report.counts["guild_settings"] == 1
        assert await target.guild_language(5) == "sv"
    finally:
        await source.close()
        await target.close()
