"""``/kasino help``: privately, in the reader's language, every command of the group (the
tournament's subcommands too) in one line, by the name and description Discord shows that
reader, in groups ordered by what a person does first and sorted within a group in the
reader's language, and what a rating means."""

from __future__ import annotations

from typing import Any

import pytest
from discord import app_commands

from bot.help_text import GROUPS, command_lines, grouped_lines, sort_key, ungrouped
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


def registered_leaves(
    options: list[dict[str, Any]], path: tuple[dict[str, Any], ...] = ()
) -> list[tuple[dict[str, Any], ...]]:
    """Every command a person can run, as the path of registered options leading to it
    (a subcommand group, type 2, is opened; a subcommand is type 1)."""
    found = []
    for option in options:
        if option.get("type") == 2:
            found += registered_leaves(option["options"], (*path, option))
        else:
            found.append((*path, option))
    return found


def help_groups(description: str) -> list[tuple[str, list[str]]]:
    """The help's description split into ``(heading, lines)``."""
    groups = []
    for block in description.split("\n\n"):
        heading, *lines = block.splitlines()
        assert heading.startswith("**") and heading.endswith("**"), heading
        groups.append((heading.strip("*"), lines))
    return groups


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
    groups = help_groups(embed.description)
    lines = [line for _, group_lines in groups for line in group_lines]
    leaves = registered_leaves(registered_commands(harness))
    assert len(leaves) >= 21 and len(lines) == len(leaves)
    for path in leaves:  # each registered command, as this reader's client names it
        name = " ".join(as_shown(part, locale, "name") for part in path)
        description = as_shown(path[-1], locale, "description")
        assert f"`/kasino {name}`: {description}" in lines, (locale, name)
    # Grouped by what a person does first, each group sorted in the reader's language.
    assert [heading for heading, _ in groups] == [t(heading) for heading, _ in GROUPS]
    for _, group_lines in groups:
        names = [line.split("`")[1] for line in group_lines]
        assert names == sorted(names, key=lambda n: sort_key(n, LOCALES[locale]))
    (ratings,) = embed.fields
    assert ratings.name == t("Ratings")
    assert ratings.value == rating_meaning(t)
    new = {"en-US": "new", "sv-SE": "ny", "fi": "uusi"}[locale]
    assert any(line.startswith(f"`/kasino {new}`: ") for line in groups[0][1])  # play first
    if locale == "en-US":
        assert "`/kasino help`: What each /kasino command does, and ratings" in lines
        assert "`/kasino tournament pause`: No new round starts until resumed" in lines
        assert ratings.value.startswith("A rating starts at 1500 and moves after each rated")
        assert "fewer than 5 rated matches so far." in ratings.value
    else:  # translated, names included (the Swedish list is /kasino ny, the Finnish /kasino uusi)
        assert ratings.value != rating_meaning(EN) and "1500" in ratings.value
    if locale == "sv-SE":  # å after z: återuppta ends the tournament group, as in Swedish
        tournaments = dict(groups)[t("Tournaments")]
        assert tournaments[-1].startswith("`/kasino turnering återuppta`: ")
    assert harness.public_messages() == []  # nothing in the channel


async def test_every_registered_command_has_its_group_in_help(harness: Harness) -> None:
    """Walks the command tree the bot registered: a command no help group names fails
    here (help would list it under "More", after everything else)."""
    named = {path for _, paths in GROUPS for path in paths}
    registered = {
        " ".join(part["name"] for part in path)
        for path in registered_leaves(registered_commands(harness))
    }
    assert registered - named == set()
    assert named - registered == set()  # and help names no command that is gone


def test_swedish_and_finnish_sort_a_ring_and_umlauts_after_z() -> None:
    for code in ("sv", "fi"):
        names = ["återuppta", "ny", "öppna", "ändra", "avsluta", "zebra"]
        assert sorted(names, key=lambda n: sort_key(n, code)) == [
            "avsluta",
            "ny",
            "zebra",
            "återuppta",
            "ändra",
            "öppna",
        ]
    assert sorted(["ångra", "b"], key=lambda n: sort_key(n, "en"))[0] == "b"


def test_a_new_command_is_listed_without_anyone_adding_it() -> None:
    """The lines come from the group itself: a command added to it has its line, one no
    help group names under "More", last."""

    async def callback(interaction: Any) -> None:
        pass

    group = app_commands.Group(name="kasino", description="Play Kasino")
    for name in ("new", "brand-new"):
        group.add_command(
            app_commands.Command(name=name, description=f"{name}!", callback=callback)
        )
    assert grouped_lines(group, lang("en")) == [
        ("Play", ["`/kasino new`: new!"]),
        ("More", ["`/kasino brand-new`: brand-new!"]),
    ]
    assert ungrouped(group) == ["brand-new"]
    swedish = command_lines(group, lang("sv"))
    assert swedish[0].startswith("`/kasino ny`: ") and swedish[1].startswith("`/kasino brand-new`")
