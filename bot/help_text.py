"""The answer of ``/kasino help``: every command of the group in one line, in the reader's
language, and what the rating number means.

The lines are made from the command group itself, so a command added to the group is
listed without anyone remembering to: each by the name and description Discord shows the
reader (the same translations the command tree is registered with).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import Lang
from bot.records.profile import rating_meaning
from bot.render import TABLE_COLOUR
from bot.translator import COMMAND, translated


def command_lines(group: app_commands.Group, t: Lang) -> list[str]:
    """One line per command of ``group``, in the order Discord lists them (by name):
    ``/kasino name``: what it does."""
    prefix = _name(group.name, t, Where.group_name)
    lines = []
    for command in sorted(group.commands, key=lambda c: c.name):
        name = _name(command.name, t, Where.command_name)
        lines.append(f"`/{prefix} {name}`: {t.pgettext(COMMAND, command.description)}")
    return lines


def help_embed(group: app_commands.Group, t: Lang) -> discord.Embed:
    """The whole answer: the commands, then the ratings (an embed's description holds
    4,096 characters, a field 1,024: both far more than this needs)."""
    embed = discord.Embed(title=t("Kasino commands"), colour=TABLE_COLOUR)
    embed.description = "\n".join(command_lines(group, t))
    embed.add_field(name=t("Ratings"), value=rating_meaning(t), inline=False)
    return embed


def _name(name: str, t: Lang, where: Where) -> str:
    """A command's name as the reader's Discord client shows it."""
    return translated(name, t.code, where) or name
