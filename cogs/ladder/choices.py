"""Who meets whom on the ladder, and where it runs: ``/kasino block`` (a person keeps someone
out of their pairings, or lets them back) and ``/kasino ladder`` (a server's admin turns
the ladder off or on there). Both answer privately; the pool is in the database
(:mod:`bot.storage.ladder`), so they hold in every process at once."""

from __future__ import annotations

import contextlib
import logging

import discord

from bot.i18n import N_
from bot.storage import Storage
from bot.timers import now
from bot.translator import command_name, option_name
from cogs.common import private, refuse
from cogs.places import bot_in_server

log = logging.getLogger(__name__)

NO_SERVER_LADDER = N_(
    "Turning the ladder off is a setting of a server that has added the bot, and there is"
    " none here."
)
ONLY_ADMINS = N_("Only someone with Manage Server can turn the ladder on or off here.")


class LadderChoices:
    """Blocks and the server's switch (see the module docstring)."""

    def __init__(self, bot: discord.Client, storage: Storage) -> None:
        self.bot = bot
        self.storage = storage

    async def block(
        self, interaction: discord.Interaction, person: discord.User | discord.Member, undo: bool
    ) -> None:
        """Keep ``person`` out of one's ladder pairings (``undo``: let them back)."""
        t = private(interaction)
        me, name = interaction.user.id, person.display_name
        if undo:
            if await self.storage.unblock_ladder(me, person.id):
                text = t("You may be paired with {name} on the ladder again.", name=name)
            else:
                text = t("You had not blocked {name}, so nothing changed.", name=name)
            await interaction.response.send_message(text, ephemeral=True)
            return
        done = await self.storage.block_ladder(me, person.id, now())
        if done == "self":
            await refuse(interaction, "You cannot block yourself.")
            return
        if done == "full":
            await refuse(interaction, "You have blocked as many people as the ladder keeps.")
            return
        text = (
            t("{name} was already kept out of your ladder pairings.", name=name)
            if done == "already"
            else t(
                "You will not be paired with {name} on the ladder (they are not told). Undo"
                " it with `{command} {undo}:True`.",
                name=name,
                command=command_name(t, "block"),
                undo=option_name(t, "undo"),
            )
        )
        await interaction.response.send_message(text, ephemeral=True)

    async def switch(self, interaction: discord.Interaction, on: bool) -> None:
        """A server's admin turns the ladder on or off there: off, those waiting here leave
        the queue (their waiting messages say so)."""
        if not bot_in_server(interaction):
            await refuse(interaction, NO_SERVER_LADDER)
            return
        if not interaction.permissions.manage_guild:
            await refuse(interaction, ONLY_ADMINS)
            return
        guild = interaction.guild_id or 0
        removed = await self.storage.set_ladder_enabled(guild, on, now())
        t = private(interaction)
        if on:
            text = t("The ladder is on in this server: anyone may queue here.")
        else:
            text = t.ngettext(
                "The ladder is off in this server. {n} person waiting here left the queue.",
                "The ladder is off in this server. {n} people waiting here left the queue.",
                len(removed),
            )
        await interaction.response.send_message(text, ephemeral=True)
        log.info("guild %s: the ladder turned %s", guild, "on" if on else "off")
        for entry in removed:
            if entry.message_id is None:
                continue
            channel = self.bot.get_partial_messageable(entry.channel_id, guild_id=guild)
            said = t("{name} left the queue: the ladder is off in this server.", name=entry.name)
            with contextlib.suppress(discord.HTTPException):  # deleted meanwhile: it stays
                await channel.get_partial_message(entry.message_id).edit(
                    embed=discord.Embed(description=said), view=None
                )
