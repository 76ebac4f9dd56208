"""A command named inside a message is written as the reader's Discord client shows it:
Swedish and Finnish texts take the command as a field filled from the same translations
the command tree is registered with (``bot.translator.command_name``), never a hard-coded
English path such as "/kasino history" inside a Swedish sentence."""

from __future__ import annotations

import re

import pytest
from discord.app_commands import TranslationContextLocation as Where

from bot.catalogue import read
from bot.games import GameError
from bot.i18n import lang
from bot.rules_text import rules_embed
from bot.tournaments.embed import podium_embed
from bot.translator import COMMAND, GROUP, command_field, command_name, translated

# "/kasino history", "`/kasino tournament pause`": the group and the words after it
PATH = re.compile(rf"/{GROUP} ([a-z][\w-]*)(?: ([a-z][\w-]*))?")


def english_names() -> set[str]:
    """Every command and group name of the tree (the catalogue's "command" context holds
    them beside their descriptions; a name is one lowercase word)."""
    return {
        message.id
        for message in read("sv")
        if message.context == COMMAND and isinstance(message.id, str) and " " not in message.id
    }


def english_paths(code: str) -> list[tuple[str, str]]:
    """The translations of ``code`` that write a command by an English name its readers'
    client shows otherwise: ``(msgid, msgstr)``."""
    names = english_names()
    wrong = []
    for message in read(code):
        if not message.id or not message.string or message.context == COMMAND:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for said in strings:
            for match in PATH.finditer(said):
                for word in filter(None, match.groups()):
                    shown = translated(word, code, Where.command_name) or word
                    if word in names and shown != word:
                        wrong.append((str(message.id), said))
    return wrong


@pytest.mark.parametrize("code", ["sv", "fi"])
def test_no_translation_writes_a_command_by_its_english_name(code: str) -> None:
    assert not english_paths(code), "\n".join(map(str, english_paths(code)))


def test_the_check_sees_an_english_path() -> None:
    """The check above is not empty: a Swedish "/kasino history" is one of its finds."""
    names = english_names()
    assert {"history", "new", "tournament", "pause"} <= names
    assert PATH.search("… eller /kasino history.").groups() == ("history", None)
    assert translated("history", "sv", Where.command_name) == "historik"


@pytest.mark.parametrize(
    ("code", "path", "shown"),
    [
        ("en", "history", "/kasino history"),
        ("sv", "history", "/kasino historik"),
        ("fi", "history", "/kasino historia"),
        ("sv", "tournament pause", "/kasino turnering paus"),
        ("fi", "tournament resume", "/kasino turnaus jatka"),
    ],
)
def test_command_name_is_the_clients_name(code: str, path: str, shown: str) -> None:
    assert command_name(lang(code), *path.split()) == shown


def test_rendered_messages_name_the_localized_command() -> None:
    swedish, finnish = lang("sv"), lang("fi")
    footer = rules_embed("swedish", swedish).footer.text or ""
    assert "/kasino ny" in footer and "/kasino new" not in footer
    podium = podium_embed("Fredagscupen", [], {}, finnish, games=3).description or ""
    assert "komennolla /kasino historia." in podium
    refused = GameError("The game has already started; use {stop}.", stop=command_field("stop"))
    assert refused.say(swedish) == "Partiet har redan börjat; använd /kasino stoppa."
    assert str(refused) == "The game has already started; use /kasino stop."
