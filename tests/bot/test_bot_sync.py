"""Commands sync once per changed command set; a dev guild gets them directly."""

from __future__ import annotations

from pathlib import Path

import simcord

from bot.client import KasinoBot
from bot.config import Config
from tests.bot.kasino_harness import Harness


def command_puts(env: simcord.Env) -> list[str]:
    return [r.path for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]


async def test_sync_only_when_the_command_set_changes(harness: Harness, bot_config: Config) -> None:
    env = harness.env
    assert env.bot.synced is True  # a fresh database: first sync
    assert len(command_puts(env)) == 1
    await harness.restart(KasinoBot(bot_config))
    assert env.bot.synced is False and len(command_puts(env)) == 1
    # pretend the stored hash is from an older command set
    storage = env.bot.storage
    key = f"commands:{env.bot.application_id}:global"
    assert await storage.get_meta(key) == env.bot.command_hash(None)
    await storage.set_meta(key, "an older command set")
    await harness.restart(KasinoBot(bot_config))
    assert env.bot.synced is True and len(command_puts(env)) == 2
    result = await harness.slash(harness.members[0], "kasino rules")
    assert result.ephemeral


async def test_dev_guild_gets_the_commands_directly(tmp_path: Path) -> None:
    guild_id = 1456074443980899999
    config = Config(token=None, db_path=tmp_path / "kasino.db", dev_guild_id=guild_id)
    env = simcord.Env(KasinoBot(config))
    guild = env.create_guild("Dev", id=guild_id)
    await env.start()
    try:
        channel = guild.create_text_channel("dev")
        member = guild.add_member(env.create_user("dev"))
        assert command_puts(env) == [
            f"/applications/{env.bot.application_id}/guilds/{guild_id}/commands"
        ]
        result = await member.slash(channel, "kasino rules")
        assert result.ephemeral
    finally:
        await env.bot.close_storage()
        await env.shutdown()
