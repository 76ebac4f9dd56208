"""Where a ``/kasino`` command or click comes from, for everything but the game itself.

Kasino is installable to servers and to people (issue 41). An interaction comes from:

* a server that added the bot (the bot is a member: it may post, and the server's
  settings, boards and tournaments are there);
* a server that did not add it, where a person who installed the app runs it (the bot is no
  member: it may only answer interactions, and the server may make every answer private);
* a conversation without a server: the bot's DM, a group DM, a DM between two people.

Discord refuses every channel or server call the bot makes where it is no member (403,
code 50001), so these helpers say what a place has before anything is tried. A place
without a server keeps its records by conversation: its finished matches are the ones
played in that channel (outside servers every game has the guild id 0, so the guild alone
would mix every DM and group DM of everyone).
"""

from __future__ import annotations

from dataclasses import dataclass

import discord
from discord import app_commands

from bot.i18n import N_, Lang
from bot.models import Game
from bot.stages import stages_of

# said where a server feature is asked for outside a server that added the bot
NO_TOURNAMENTS_HERE = N_(
    "Tournaments need a server that has added the bot: each table is a thread of the"
    " tournament's channel, and only a member of the server can open threads. Here the bot"
    " can only answer commands, so there are no tournaments here."
)
NO_SERVER_LANGUAGE = N_(
    "The language of the bot's public messages is a setting of a server that has added the"
    " bot, and there is none here. The bot answers you in your Discord language."
)
NO_SERVER_DECK = N_(
    "The server's deck is a setting of a server that has added the bot, and there is none"
    " here. Your own deck (without **for**, or **for: me**) works everywhere."
)
NO_SERVER_BOARD = N_(
    "There is no server here, so there is no server leaderboard: the board here is the"
    " global one, by rating (leave out the target and the sort by wins)."
)

# /kasino help's note where the bot is not a member
HERE = N_("Here")
NOT_A_MEMBER_HERE = N_(
    "The bot is not a member here, so it only answers what you ask. Tournaments and a"
    " server's settings (its language, its deck) need a server that has added the bot."
)
NO_SERVER_HERE = N_(
    "There is no server here: tournaments and a server's settings (its language, its deck)"
    " need a server that has added the bot. The leaderboard and profiles show the global"
    " rating, and the history holds the matches played in this conversation."
)


def bot_in_server(interaction: discord.Interaction) -> bool:
    """Whether the interaction comes from a server the bot is a member of.

    The bot's own list of servers says it, not ``authorizing_integration_owners``: a
    server may have installed the app's commands without its bot (the
    ``applications.commands`` scope alone), and then the bot is no member either. A
    server's interactions come to the shard that holds it (Discord routes by guild id),
    so this process knows every server of its own it is asked from."""
    guild_id = interaction.guild_id
    return guild_id is not None and interaction.client.get_guild(guild_id) is not None


def answers_forced_private(interaction: discord.Interaction) -> bool:
    """Whether Discord makes every answer here ephemeral: a server that did not add the
    bot and has switched **Use External Apps** off for this member ("your app's
    responses will be ephemeral for the end user", Discord's change log)."""
    return (
        interaction.guild_id is not None
        and not bot_in_server(interaction)
        and not interaction.permissions.use_external_apps
    )


def here_note(interaction: discord.Interaction, t: Lang) -> str | None:
    """What ``/kasino help`` adds where the bot is not a member (``None``: it is)."""
    if bot_in_server(interaction):
        return None
    return t(NO_SERVER_HERE) if interaction.guild_id is None else t(NOT_A_MEMBER_HERE)


def sort_wins(sort: app_commands.Choice[str] | None) -> bool:
    """Whether ``/kasino scores`` was asked to sort by wins (a board of one server)."""
    return sort is not None and sort.value == "wins"


@dataclass(frozen=True, slots=True)
class RecordPlace:
    """Whose finished matches a place sees: a server's (``channel_id`` None), or, outside
    servers (``guild_id`` 0), only those played in this conversation."""

    guild_id: int
    channel_id: int | None = None

    @classmethod
    def of(cls, interaction: discord.Interaction) -> RecordPlace:
        """The place of an interaction."""
        if interaction.guild_id is not None:
            return cls(interaction.guild_id)
        return cls(0, interaction.channel_id or 0)

    def holds_game(self, game: Game) -> bool:
        """Whether a game belongs to this place: played here, or shown here too (a ladder
        match's other table, :mod:`bot.stages`)."""
        return any(self.holds(stage.guild_id, stage.channel_id) for stage in stages_of(game))

    def holds(self, guild_id: int, channel_id: int) -> bool:
        """Whether a game of this server and channel belongs to this place."""
        if guild_id != self.guild_id:
            return False
        return self.channel_id is None or channel_id == self.channel_id
