"""What every part of the Kasino cog shares: the languages of a reply, and the polite
refusals and their texts (catalogue messages, said in the clicker's language)."""

from __future__ import annotations

import discord

from bot.games import GameError
from bot.i18n import N_, Lang, lang_of
from bot.models import Game
from bot.render import plain
from bot.stages import Stage, home_stage, stage_at

STALE = N_("⚠️ This view is out of date, so nothing was changed. Here is a fresh one:")
NOT_MINE = N_("That control is not valid (it was changed or is not mine), so nothing happened.")
GONE = N_("This game no longer exists, so nothing happened.")
ELSEWHERE = N_("That control belongs to a game in another channel, so nothing happened.")
NO_GAME = N_("There is no Kasino game in this channel. Start one with {new}.")
NOT_PLAYING = N_("You are not playing in this game; you can follow it on the table.")
CANNOT_POST = N_(
    "I cannot show a game's table in this channel: I need the **View Channel**, **Send"
    " Messages** and **Embed Links** permissions here. Ask an admin to give them to me, or"
    " start the game in another channel."
)

ANSWERS_HIDDEN = N_(
    "This server makes the answers of apps it has not added private (**Use External Apps**"
    " is off for you here), so a table here would be seen by you alone. Ask its admins to"
    " allow external apps, or start the game in a group DM with the people you play with."
)


def private(interaction: discord.Interaction) -> Lang:
    """The language of a private answer: the clicking user's Discord client language."""
    return lang_of(interaction.locale)


def may_post_tables(interaction: discord.Interaction) -> bool:
    """Whether the bot may post a game's tables where it was asked: every table after the
    lobby is a message the bot sends itself, so without these permissions Discord would
    refuse each one (a game must not open where its tables cannot be shown)."""
    permissions = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    send = permissions.send_messages_in_threads if in_thread else permissions.send_messages
    return permissions.view_channel and send and permissions.embed_links


def own_view(interaction: discord.Interaction) -> bool:
    """Whether the click came from the clicker's own ephemeral message (their hand view,
    or another private answer of theirs)."""
    message = interaction.message
    origin = message.interaction_metadata if message is not None else None
    owner = origin.user.id if origin is not None else None
    return message is not None and message.flags.ephemeral and owner == interaction.user.id


def jump_url(game: Game) -> str:
    """A link to a game's lobby or table message."""
    return stage_url(home_stage(game))


def stage_url(stage: Stage) -> str:
    """A link to a game's current message where it is shown (its lobby or table)."""
    # a game with no server (a group DM) is at Discord's "@me" address
    base = f"https://discord.com/channels/{stage.guild_id or '@me'}/{stage.channel_id}"
    return f"{base}/{stage.message_id}" if stage.message_id else base


async def tell(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer (``text`` already in the clicker's language)."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def refuse(interaction: discord.Interaction, message: str, /, **fields: object) -> None:
    """A friendly ephemeral answer that changes nothing: the catalogue ``message`` in the
    clicker's language (a field may be a function of the language: a command's name)."""
    t = private(interaction)
    said = {key: value(t) if callable(value) else value for key, value in fields.items()}
    await tell(interaction, t(message, **said))


async def refuse_error(
    interaction: discord.Interaction, error: GameError, *, played: bool = False
) -> None:
    """A :class:`GameError` in the clicker's language (``played``: a refused move, which
    adds that nothing was played)."""
    t = private(interaction)
    said = error.say(t, plain)
    await tell(interaction, t("{error}. Nothing was played.", error=said) if played else said)


# The kinds of a seated player's own hand (its menus and its Hint): private to them, so
# they work from any channel or DM (``/kasino games``, a DM notice's "Your hand"), the
# move still committed to the game and shown at its table.
PRIVATE_KINDS = frozenset(("hand", "card", "take", "pick", "which", "hint"))


def from_anywhere(interaction: discord.Interaction, game: Game, kind: str) -> bool:
    """Whether a click on the game is one of its seated player's private kinds, which
    work wherever it is made."""
    return kind in PRIVATE_KINDS and game.seat_of(interaction.user.id) is not None


async def foreign(interaction: discord.Interaction, game: Game | None, kind: str) -> bool:
    """Refuse (and say ``True``) when there is no such game, the game is not shown in
    this channel (but for a seated player's own hand and its menus: :data:`PRIVATE_KINDS`),
    or a lobby or rematch button comes with another message than the game's own there."""
    if game is None:
        await refuse(interaction, GONE)
        return True
    if from_anywhere(interaction, game, kind):
        return False
    stage = stage_at(game, interaction.channel_id)  # its channel, or another it is shown in
    if stage is None or stage.guild_id != (interaction.guild_id or 0):
        await refuse(interaction, ELSEWHERE)
        return True
    message = interaction.message
    if kind in ("lobby", "rematch", "cut", "cutfor") and stage.message_id not in (
        None,
        message and message.id,
    ):
        await refuse(interaction, NOT_MINE)
        return True
    return False


def cut_told(number: int, committed: str, t: Lang) -> str:
    """What a person who cut the deck is told privately (a lobby's, a rematch's or a
    tournament's cut): their cut and the seed's commitment, to note and check later."""
    return t(
        "You cut the deck at **{number}**. Note your cut and the seed's commitment"
        " `{commitment}`: after the game, `python -m bot verify` shows both.",
        number=number,
        commitment=committed,
    )
