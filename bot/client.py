"""The Discord client: a ``commands.Bot`` that opens storage and loads the cogs."""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3

import discord
from discord.ext import commands

from bot.config import Config
from bot.storage import Storage

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.kasino",)


class StartupError(RuntimeError):
    """The bot cannot start; the message says why and what to do, in one line."""


class KasinoBot(commands.Bot):
    """The Kasino bot. ``storage`` is open between ``setup_hook`` and ``close``."""

    def __init__(self, config: Config, *, seed: int | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.config = config
        self.seed = seed  # fixes the shuffles (tests and benchmarks); None in production
        self.storage: Storage | None = None
        self.synced = False

    async def setup_hook(self) -> None:
        """Open the database, load the cogs and sync commands if the set changed."""
        try:
            self.storage = await Storage.open(self.config.db_path)
        except (OSError, sqlite3.Error) as error:
            raise StartupError(
                f"cannot open the database {self.config.db_path} ({error}). Check KASINO_DB"
                " (a writable file path; the folder is created if needed)."
            ) from error
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sync_commands()

    async def close(self) -> None:
        """Close the gateway, then the database (even if closing the gateway fails or is
        cancelled: its worker thread would keep the process alive)."""
        try:
            await super().close()
        finally:
            await self.close_storage()

    async def close_storage(self) -> None:
        """Close the database (its worker thread would otherwise keep the process alive)."""
        cog = self.get_cog("Kasino")
        if cog is not None:
            cog.timers.cancel_all()  # type: ignore[attr-defined]
        if self.storage is not None:
            await self.storage.close()
            self.storage = None

    def command_hash(self, guild: discord.abc.Snowflake | None) -> str:
        """A digest of the command set as Discord would receive it."""
        payload = [cmd.to_dict(self.tree) for cmd in self.tree.get_commands(guild=guild)]
        text = json.dumps(payload, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    async def sync_commands(self) -> bool:
        """Sync application commands only when their hash differs from the stored one.

        With ``DEV_GUILD_ID`` set the commands are copied to that guild, where changes show
        at once; otherwise they are global. Returns whether a sync happened.
        """
        assert self.storage is not None
        guild = None
        if self.config.dev_guild_id:
            guild = discord.Object(id=self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
        scope = f"guild:{guild.id}" if guild else "global"
        key = f"commands:{self.application_id}:{scope}"
        digest = self.command_hash(guild)
        if await self.storage.get_meta(key) == digest:
            log.info("application commands unchanged (%s); not syncing", scope)
            return False
        synced = await self.tree.sync(guild=guild)
        await self.storage.set_meta(key, digest)
        self.synced = True
        log.info("synced %d application commands (%s)", len(synced), scope)
        return True
