"""Slash commands in the client's language: discord.py's ``app_commands.Translator`` over
the message catalogues.

Command, group and option names and descriptions are catalogue messages in the context
``"command"`` (a name must follow Discord's rules: lowercase, no spaces, at most 32
characters); choice names (the variants) are the same messages the bot shows elsewhere.
English needs nothing: the code's strings are English.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import DEFAULT, Lang, code_of, lang

COMMAND = "command"  # the catalogue context of command names and descriptions
GROUP = "kasino"  # the bot's one command group: every command is /kasino …
# Discord's rule for command and option names (Python's ``re`` has no \p{…}: letters and
# digits of any script are ``[^\W_]``, and ``-`` and ``_`` are allowed).
NAME_RULE = re.compile(r"^[-_\w]{1,32}$")
NAMES = (Where.command_name, Where.group_name, Where.parameter_name)


def valid_name(name: str) -> bool:
    """Whether a (translated) command or option name follows Discord's naming rules."""
    return bool(NAME_RULE.match(name)) and name == name.lower()


class CatalogueTranslator(app_commands.Translator):
    """Translates the command tree into every language with a catalogue."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The string in ``locale``'s language, or ``None`` (Discord shows the English)."""
        return translated(string.message, code_of(locale), context.location)


def translated(message: str, code: str, where: Where) -> str | None:
    """A command tree string in language ``code`` as Discord is given it, or ``None``
    where Discord shows the English (also what ``/kasino help`` names the commands by)."""
    if code == DEFAULT:
        return None
    t = lang(code)
    text = t(message) if where is Where.choice_name else t.pgettext(COMMAND, message)
    if text == message:
        return None
    if where in NAMES and not valid_name(text):
        return None  # a name Discord would refuse: the English one stays
    return text


def command_strings(
    name: str, description: str, commands: Iterable[app_commands.Command]
) -> Iterator[tuple[Where, str]]:
    """Every translatable string of a command group: ``(where, English text)``."""
    yield Where.group_name, name
    yield Where.group_description, description
    for command in commands:
        yield Where.command_name, command.name
        yield Where.command_description, command.description
        if isinstance(command, app_commands.Group):  # a subgroup: /kasino tournament …
            yield from command_strings(command.name, command.description, command.commands)
            continue
        for parameter in getattr(command, "parameters", ()):
            yield Where.parameter_name, parameter.display_name  # as renamed, if it is
            yield Where.parameter_description, parameter.description
            for choice in parameter.choices:
                yield Where.choice_name, choice.name


def command_name(t: Lang, *path: str) -> str:
    """A command as the reader's Discord client shows it, for a message that names it:
    ``command_name(t, "history")`` is "/kasino historik" in Swedish, and
    ``command_name(t, "tournament", "pause")`` "/kasino turnering paus" (a subgroup's
    name, then the command's). The same translations the command tree is registered with,
    so the text and the client's command list agree."""
    parts = [GROUP, *path]
    where = [Where.group_name] * (len(parts) - 1) + [Where.command_name]
    return "/" + " ".join(shown_name(part, t, w) for part, w in zip(parts, where, strict=True))


def command_field(*path: str) -> Callable[[Lang], str]:
    """A message's field that names a command, filled in the reader's language when the
    message is said (a :class:`bot.games.GameError`'s or a refusal's field)."""
    return lambda t: command_name(t, *path)


def option_name(t: Lang, name: str) -> str:
    """A command's option as the reader's client shows it (``game`` is "spel" in Swedish),
    for a message that writes a command with its option (``/kasino exportera spel:12``)."""
    return shown_name(name, t, Where.parameter_name)


def shown_name(name: str, t: Lang, where: Where) -> str:
    """A command, group or option name as the reader's Discord client shows it."""
    return translated(name, t.code, where) or name
