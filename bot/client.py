"""The Discord client: a ``commands.Bot`` that opens storage and loads the cogs."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
import sqlite3
from collections.abc import Callable
from typing import Any

import asyncpg
import discord
from discord import app_commands
from discord.ext import commands

from bot.acks import already_acknowledged, log_summary, note_already_acknowledged, where
from bot.analysis import review_move
from bot.analysis.pool import AnalysisPool
from bot.card_emojis import Faces, faces_on_application, sync_card_emojis
from bot.config import Config
from bot.faces import DEFAULT_STYLE, STYLES
from bot.health import heartbeat
from bot.i18n import catalogue_digest
from bot.logs import quiet_unused_features
from bot.render import FACES, CardInk
from bot.storage import Storage, redact
from bot.translator import CatalogueTranslator

log = logging.getLogger(__name__)
quiet_unused_features()  # before any client (the bot's or SimCord's probe) is made

EXTENSIONS = ("cogs.kasino",)
FACES_TIMEOUT = 240.0  # seconds the first upload of the 104 faces may take before giving up
# seconds start-up waits for the list of the faces already uploaded: a slow Discord delays
# the start this long at most, then cards are text until the background upload is done
FACES_LIST_TIMEOUT = 10.0


class StartupError(RuntimeError):
    """The bot cannot start; the message says why and what to do, in one line."""


# what opening a database raises when it is missing, unreachable, refused or not a database
DATABASE_ERRORS = (OSError, TimeoutError, sqlite3.Error, asyncpg.PostgresError,
                   asyncpg.InterfaceError)  # fmt: skip


class KasinoTree(app_commands.CommandTree):
    """The slash commands' tree: an answer another process gave first (a rolling restart)
    is one INFO line and a count, not a traceback (:mod:`bot.acks`)."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        """Note an already-acknowledged interaction; log anything else as discord.py does."""
        if already_acknowledged(error):
            note_already_acknowledged(interaction, where(interaction))
            return
        await super().on_error(interaction, error)


class KasinoBot(commands.Bot):
    """The Kasino bot. ``storage`` is open between ``setup_hook`` and ``close``.

    Unsharded; :func:`make_bot` gives the sharded kind when the config asks for shards.
    """

    def __init__(self, config: Config, *, seed: int | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        shards: dict[str, Any] = {}
        if config.shard_count is not None:
            shards = {"shard_count": config.shard_count, "shard_ids": config.shard_ids}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=KasinoTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **shards,
        )
        self.config = config
        self.seed = seed  # fixes the shuffles (tests and benchmarks); None in production
        self.storage: Storage | None = None
        self.synced = False
        # how every card is written, one ink per deck style (two- and four-colour); text
        # until the card faces are uploaded. ``ink`` is the two-colour deck's.
        self.inks = {style: CardInk() for style in STYLES}
        self.ink = self.inks[DEFAULT_STYLE]
        self.faces_task: asyncio.Task[None] | None = None
        self.health_task: asyncio.Task[None] | None = None
        # interactions another process answered first (a rolling restart): see bot.acks
        self.already_acknowledged = 0
        # production (and the load benchmark) sets it; tests start hundreds of bots in one
        # process, where freezing would keep each earlier bot's garbage for good
        self.freeze_on_start = False
        # the analyses' worker processes (bot.analysis.pool), made on the first analysis;
        # tests may hand the pool a quicker review function before that
        self.analysis_review = review_move
        self.analysis_pool: AnalysisPool | None = None

    async def cpu_call(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in the shared worker processes (:meth:`AnalysisPool.call`)."""
        return await self.analyses().call(function, *args)

    def analyses(self) -> AnalysisPool:
        """The process's analysis pool, shared by every game (started on first use)."""
        if self.analysis_pool is None:
            self.analysis_pool = AnalysisPool(
                self.analysis_review,
                workers=self.config.analysis_workers,
                budget_ms=self.config.hard_budget_ms,
            )
        return self.analysis_pool

    async def setup_hook(self) -> None:
        """Open the database, load the cogs and sync commands if the set changed."""
        try:
            self.storage = await Storage.open(self.config.db_path)
        except DATABASE_ERRORS as error:
            where = redact(self.config.db_path)
            detail = str(error).splitlines()[0] if str(error) else type(error).__name__
            hint = (
                "a PostgreSQL server that is running and reachable, with that user, password"
                " and database"
                if isinstance(self.config.db_path, str)
                else "a writable file path; the folder is created if needed"
            )
            raise StartupError(
                f"cannot open the database {where} ({detail}). Check KASINO_DB ({hint})."
            ) from error
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        # commands, options and choices in each client's language (see bot.translator)
        await self.tree.set_translator(CatalogueTranslator())
        await self.sync_commands()
        if self.config.health_file is not None:
            beat = heartbeat(self, self.config.health_file)
            self.health_task = asyncio.get_running_loop().create_task(beat)
        if self.config.card_faces:
            # the faces already uploaded from the first answer; the upload of the missing
            # ones (and of redrawn ones) in the background: start-up never waits for it
            await self.show_uploaded_faces()
            self.faces_task = asyncio.get_running_loop().create_task(self.load_faces())
        if self.freeze_on_start:
            freeze_heap()

    async def show_uploaded_faces(self) -> None:
        """Show cards with the faces the application already holds (each deck whose 52
        faces are all there), read from the emojis' names within
        :data:`FACES_LIST_TIMEOUT`: a restarted process answers its first click with faces.
        Never raises: :meth:`load_faces` tries again and says what failed."""
        try:
            async with asyncio.timeout(FACES_LIST_TIMEOUT):
                faces = await faces_on_application(self)
        except Exception as error:  # the background upload lists them again
            log.info("card faces not listed at start-up (%s)", type(error).__name__)
            return
        self.use_faces(faces, complete_only=True)

    def use_faces(self, faces: dict[str, Faces], *, complete_only: bool = False) -> None:
        """Write each deck's cards with ``faces`` (a deck lacking some: as text, or left as
        it is with ``complete_only``)."""
        for style, deck_faces in faces.items():
            if not complete_only or len(deck_faces) == FACES:
                self.inks[style].use(deck_faces)

    async def load_faces(self) -> None:
        """Upload the missing card faces and show cards with them; on any failure log one
        line and keep the cards as they are (never raises)."""
        try:
            async with asyncio.timeout(FACES_TIMEOUT):
                await sync_card_emojis(self, self.use_faces)
        except Exception as error:  # any failure: text is a fine way to show cards
            shown = "with the faces found" if self.ink.faces else "as text"
            log.warning(
                "card faces unavailable, cards are shown %s (%s: %s)",
                shown, type(error).__name__, error,
            )  # fmt: skip

    async def close(self) -> None:
        """Close the gateway, then the database (even if closing the gateway fails or is
        cancelled: its worker thread would keep the process alive)."""
        if self.already_acknowledged:
            log_summary(self.already_acknowledged)
        try:
            await super().close()
        finally:
            await self.close_storage()

    async def close_storage(self) -> None:
        """Close the database (its worker thread would otherwise keep the process alive)."""
        for task in (self.faces_task, self.health_task):
            if task is not None:
                task.cancel()
        cog = self.get_cog("Kasino")
        if cog is not None:
            cog.timers.cancel_all()  # type: ignore[attr-defined]
            await cog.analysis.close()  # type: ignore[attr-defined]
        if self.analysis_pool is not None:
            await self.analysis_pool.close()  # its worker processes stop with the bot
            self.analysis_pool = None
        if self.storage is not None:
            await self.storage.close()
            self.storage = None

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process runs the guild's shard (always, unsharded)."""
        shards = self.config.shards
        return shards is None or shards.owns(guild_id)

    def command_hash(self, guild: discord.abc.Snowflake | None) -> str:
        """A digest of the command set as Discord would receive it (its localizations come
        from the message catalogues, so they are part of it)."""
        payload = [cmd.to_dict(self.tree) for cmd in self.tree.get_commands(guild=guild)]
        payload.append({"catalogues": catalogue_digest()})
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


class ShardedKasinoBot(KasinoBot, commands.AutoShardedBot):
    """The Kasino bot running the shards ``SHARD_IDS`` of ``SHARD_COUNT``."""


# Young collections after 20,000 new objects (CPython: 700), full ones after 20 middle
# ones (10): at 30 busy tables (tests/benchmarks/bot.py --games 30) the p99 of every click
# went from 116 to 77 ms, fewer pauses landing in the clicks.
GC_THRESHOLDS = (20_000, 20, 10)


def freeze_heap() -> None:
    """Collect once, then move every object alive now (modules, commands, cogs, caches) to
    CPython's permanent generation, and collect less often (:data:`GC_THRESHOLDS`). Each
    full collection pauses the event loop, and for every game at once, for as long as it
    takes to walk the heap; the start-up heap never changes, so it is left out of every
    walk from now on."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def make_bot(config: Config, *, seed: int | None = None) -> KasinoBot:
    """The bot the config asks for: sharded with ``SHARD_COUNT``, else the plain one."""
    cls = ShardedKasinoBot if config.shard_count is not None else KasinoBot
    return cls(config, seed=seed)
