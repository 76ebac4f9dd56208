"""``/kasino help``: privately, in the reader's language, every command of the group in one
line, by the name and description Discord shows that reader, and what a rating means."""

from __future__ import annotations

from typing import Any

import pytest
from discord import app_commands

from bot.help_text import command_lines
from bot.i18n import EN, lang
from bot.records.profile import rating_meaning
from tests.bot.kasino_harness import Harness
from tests.bot.test_bot_languages import client_locales  # noqa: F401 (the members' languages)

# Discord's locale for each language the bot speaks (English: no localization).
LOCALES = {"en-US": "en", "sv-SE": "sv", "fi": "fi"}


def registered_commands(harness: Harness) -> list[dict[str, Any]]:
    """The ``/kasino`` subcommands as the bot registered them with Discord."""
    registered = harness.env.backend.commands[None]
    kasino = next(c for (name, _), c in registered.items() if name == "kasino")
    return list(kasino["options"])


def as_shown(command: dict[str, Any], locale: str, key: str) -> str:
    """A command's name or description as a client in ``locale`` shows it."""
    return (command.get(f"{key}_localizations") or {}).get(locale, command[key])


@pytest.mark.parametrize("locale", LOCALES)
async def test_help_lists_every_command_privately_in_the_readers_language(
    harness: Harness,
    client_locales: dict[int, str],  # noqa: F811
    locale: str,
) -> None:
    reader = harness.members[1]
    client_locales[reader.id] = locale
    result = await harness.slash(reader, "kasino help")
    assert result.ephemeral
    (embed,) = result.response.embeds
    t = lang(LOCALES[locale])
    assert embed.title == t("Kasino commands")
    lines = embed.description.splitlines()
    commands = registered_commands(harness)
    assert len(commands) >= 13 and len(lines) == len(commands)
    for command in commands:  # each registered command, as this reader's client names it
        name, description = (
            as_shown(command, locale, "name"),
            as_shown(command, locale, "description"),
        )
        assert f"`/kasino {name}`: {description}" in lines, (locale, command["name"])
    (ratings,) = embed.fields
    assert ratings.name == t("Ratings")
    assert ratings.value == rating_meaning(t)
    if locale == "en-US":
        assert "`/kasino help`: What each /kasino command does, and ratings" in lines
        assert ratings.value.startswith("A rating starts at 1500 and moves after each rated")
        assert "fewer than 5 rated matches so far." in ratings.value
    else:  # translated, names included (the Swedish list is /kasino ny, the Finnish /kasino uusi)
        assert ratings.value != rating_meaning(EN) and "1500" in ratings.value
        new = {"sv-SE": "ny", "fi": "uusi"}[locale]
        assert any(line.startswith(f"`/kasino {new}`: ") for line in lines)
    assert harness.public_messages() == []  # nothing in the channel


def test_a_new_command_is_listed_without_anyone_adding_it() -> None:
    """The lines come from the group itself: a command added to it has its line."""

    async def callback(interaction: Any) -> None:
        pass

    group = app_commands.Group(name="kasino", description="Play Kasino")
    for name in ("new", "brand-new"):
        group.add_command(
            app_commands.Command(name=name, description=f"{name}!", callback=callback)
        )
    assert command_lines(group, lang("en")) == [
        "`/kasino brand-new`: brand-new!",
        "`/kasino new`: new!",
    ]
    swedish = command_lines(group, lang("sv"))
    assert swedish[1].startswith("`/kasino ny`: ") and swedish[0].startswith("`/kasino brand-new`")
