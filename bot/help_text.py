"""The answer of ``/kasino help``: every command of the group, in groups ordered by what a
person does first (play, learn, results, settings, tournaments, admin), and what the
rating number means.

The lines are made from the command group itself: each command by the name and
description Discord shows the reader (the same translations the command tree is
registered with), sorted within its group in the reader's language. A command the
groups below do not name is still listed, under "More" (and a test fails until it is
given its group).
"""

from __future__ import annotations

from collections.abc import Iterator

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import N_, Lang
from bot.records.profile import rating_meaning
from bot.render import TABLE_COLOUR
from bot.translator import COMMAND, shown_name

# Each group's heading and its commands (by their English path under /kasino), in the
# order a new player meets them: play first, admin last.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (N_("Play"), ("new", "queue", "hand", "games", "puzzle", "stop")),
    (N_("Learn"), ("learn", "rules", "help")),
    (
        N_("See results"),
        ("scores", "profile", "versus", "history", "export", "tournaments"),
    ),
    (N_("Your settings"), ("deck", "settings", "vacation", "block", "forget-me")),
    (
        N_("Tournaments"),
        (
            "tournament new",
            "tournament start",
            "tournament standings",
            "tournament drop",
            "tournament add",
            "tournament pause",
            "tournament resume",
            "tournament end",
        ),
    ),
    (N_("Server admins"), ("language", "ladder")),
)
MORE = N_("More")  # the heading of commands no group above names yet

# Letters Swedish and Finnish sort after z (in this order); other letters as in English.
_AFTER_Z = {"sv": "åäöæø", "fi": "åäöæø"}


def leaves(
    group: app_commands.Group, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], app_commands.Command]]:
    """Every command a person can run under ``group``, with its path of English names
    (``("tournament", "new")``): subgroups are opened, not listed as one line."""
    for command in group.commands:
        if isinstance(command, app_commands.Group):
            yield from leaves(command, (*path, command.name))
        else:
            yield (*path, command.name), command


def ungrouped(group: app_commands.Group) -> list[str]:
    """The commands of ``group`` that ``GROUPS`` does not name (should be none)."""
    named = {path for _, paths in GROUPS for path in paths}
    return [" ".join(path) for path, _ in leaves(group) if " ".join(path) not in named]


def grouped_lines(group: app_commands.Group, t: Lang) -> list[tuple[str, list[str]]]:
    """The help's groups: ``(heading, lines)``, each line ``/kasino name: what it does``,
    sorted within the group by the name as the reader sees it."""
    by_path = {" ".join(path): (path, command) for path, command in leaves(group)}
    groups = [(heading, [p for p in paths if p in by_path]) for heading, paths in GROUPS]
    groups.append((MORE, ungrouped(group)))
    prefix = shown_name(group.name, t, Where.group_name)
    result = []
    for heading, paths in groups:
        shown = [_shown(*by_path[p], t) for p in paths]
        shown.sort(key=lambda named: sort_key(named[0], t.code))
        if shown:
            lines = [f"`/{prefix} {name}`: {description}" for name, description in shown]
            result.append((t(heading), lines))
    return result


def command_lines(group: app_commands.Group, t: Lang) -> list[str]:
    """Every command's line, group after group (the headings left out)."""
    return [line for _, lines in grouped_lines(group, t) for line in lines]


def help_embed(group: app_commands.Group, t: Lang) -> discord.Embed:
    """The whole answer: the commands under their groups' headings, then the ratings (an
    embed's description holds 4,096 characters, a field 1,024: both far more than this
    needs)."""
    embed = discord.Embed(title=t("Kasino commands"), colour=TABLE_COLOUR)
    embed.description = "\n\n".join(
        "\n".join([f"**{heading}**", *lines]) for heading, lines in grouped_lines(group, t)
    )
    embed.add_field(name=t("Ratings"), value=rating_meaning(t), inline=False)
    return embed


def sort_key(name: str, code: str) -> tuple[int, ...]:
    """How ``name`` sorts in language ``code``: Swedish and Finnish put å, ä and ö after
    z (the server may have no system locales, so this does not rely on them)."""
    after_z = _AFTER_Z.get(code, "")
    key = []
    for char in name.casefold():
        if char in after_z:
            key.append(ord("z") + 1 + after_z.index(char))
        else:
            key.append(ord(char))
    return tuple(key)


def _shown(path: tuple[str, ...], command: app_commands.Command, t: Lang) -> tuple[str, str]:
    """A command's name (its path, each part as the reader's client shows it) and its
    description in the reader's language."""
    where = [Where.group_name] * (len(path) - 1) + [Where.command_name]
    name = " ".join(shown_name(part, t, w) for part, w in zip(path, where, strict=True))
    return name, t.pgettext(COMMAND, command.description)
