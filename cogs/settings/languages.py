"""Which language each message is said in.

Private messages (a hand, a hint, a refusal, the rules) follow the reader: the Discord
client language of the interaction (:func:`cogs.common.private`). Public messages (the
lobby, the table, turn notices, summaries, the winner, leaderboards) follow the server: the
language a server admin chose with ``/kasino language`` (kept in the database), else the
server's own language (its ``preferred_locale``, which interactions carry as
``guild_locale``); English where the bot does not speak it.
"""

from __future__ import annotations

import discord

from bot.i18n import DEFAULT, Lang, lang, lang_of, languages
from bot.models import Game
from bot.storage import Storage
from bot.timers import now


class Languages:
    """The servers' chosen languages (loaded once, kept in step with the database)."""

    def __init__(self, client: discord.Client, storage: Storage) -> None:
        self._client = client
        self._storage = storage
        self._chosen: dict[int, str] = {}

    async def load(self) -> None:
        """Read every server's chosen language."""
        self._chosen = await self._storage.guild_languages()

    def chosen(self, guild_id: int) -> str | None:
        """The language a server's admin chose, if any."""
        return self._chosen.get(guild_id)

    async def choose(self, guild_id: int, code: str | None) -> None:
        """Save a server's choice (``None``: follow the server's own language)."""
        if code is not None and code not in languages():
            raise ValueError(f"unknown language {code!r}")
        await self._storage.set_guild_language(guild_id, code, now())
        if code is None:
            self._chosen.pop(guild_id, None)
        else:
            self._chosen[guild_id] = code

    def server(self, guild_id: int, guild_locale: object = None) -> Lang:
        """The public language of a server: the admin's choice, else the server's own
        language (as the gateway knows it, else ``guild_locale`` from an interaction)."""
        chosen = self._chosen.get(guild_id)
        if chosen is not None:
            return lang(chosen)
        guild = self._client.get_guild(guild_id)
        if guild is not None and guild.preferred_locale is not None:
            return lang_of(guild.preferred_locale)
        return lang_of(guild_locale) if guild_locale is not None else lang(DEFAULT)

    def public(self, game: Game) -> Lang:
        """The language of a game's public messages (the server's, as the lobby saw it
        when the gateway does not know the server)."""
        return self.server(game.guild_id, game.extra.get("locale"))

    def of_interaction(self, interaction: discord.Interaction) -> Lang:
        """The public language for a message answering ``interaction`` in its server."""
        return self.server(interaction.guild_id or 0, interaction.guild_locale)
