"""What every part of the Kasino cog shares: the polite refusals and their texts."""

from __future__ import annotations

import discord

from bot.models import Game

STALE = "⚠️ This view is out of date, so nothing was changed. Here is a fresh one:"
NOT_MINE = "That control is not valid (it was changed or is not mine), so nothing happened."
GONE = "This game no longer exists, so nothing happened."
ELSEWHERE = "That control belongs to a game in another channel, so nothing happened."
NO_GAME = "There is no Kasino game in this channel. Start one with /kasino new."
NOT_PLAYING = "You are not playing in this game; you can follow it on the table."


def jump_url(game: Game) -> str:
    """A link to a game's lobby or table message."""
    base = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}"
    return f"{base}/{game.message_id}" if game.message_id else base


async def refuse(interaction: discord.Interaction, text: str) -> None:
    """A friendly ephemeral answer that changes nothing."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def foreign(interaction: discord.Interaction, game: Game | None, kind: str) -> bool:
    """Refuse (and say ``True``) when there is no such game, the game is not the one of
    this channel, or a lobby or rematch button comes with another message than the game's
    own."""
    if game is None:
        await refuse(interaction, GONE)
        return True
    if game.guild_id != interaction.guild_id or game.channel_id != interaction.channel_id:
        await refuse(interaction, ELSEWHERE)
        return True
    message = interaction.message
    if kind in ("lobby", "rematch") and game.message_id not in (None, message and message.id):
        await refuse(interaction, NOT_MINE)
        return True
    return False
