"""``/kasino rules``: one variant's summary, privately (the channel's game's, with its
options, else Swedish Kasino), and a menu of the other variants that swaps it in place."""

from __future__ import annotations

from typing import Any

import pytest

from bot.models import VARIANT_NAMES
from tests.bot.kasino_harness import Harness, cid, components, custom_ids, select_options
from tests.bot.test_bot_languages import client_locales  # noqa: F401 (the members' languages)


def shown(message: Any) -> tuple[str, str]:
    """The embed's description and the one field's value (or "")."""
    embed = message.embeds[0]
    data = embed if isinstance(embed, dict) else embed.to_dict()
    fields = data.get("fields") or [{}]
    return data.get("description", ""), fields[0].get("value", "")


def menu(message: Any) -> tuple[str, list[str]]:
    """The rules menu's custom_id and its options' values."""
    found = cid(message, "k:rules:").rsplit(":", 1)[0]  # without its render tag
    return found, [option["value"] for option in select_options(message, "k:rules:")]


async def test_rules_show_one_variant_and_a_menu_swaps_it_in_place(harness: Harness) -> None:
    anna = harness.members[0]
    result = await harness.slash(anna, "kasino rules")
    assert result.ephemeral
    description, game = shown(result.response)
    assert description.startswith("**Swedish Kasino**") and not game
    assert len(description) < 1500  # one summary, not all ten (about 4,100 characters)
    others = [key for key in VARIANT_NAMES if key != "swedish"]
    assert menu(result.response) == ("k:rules:swedish", others)
    # choosing another variant swaps the same private message to its rules
    swapped = await harness.select(
        anna, result.response, ["casino"], custom_id=cid(result.response, "k:rules:")
    )
    assert swapped.response.id == result.response.id
    description, _ = shown(swapped.response)
    assert description.startswith("**Casino**")
    custom_id, options = menu(swapped.response)
    assert custom_id == "k:rules:casino" and "casino" not in options and "swedish" in options
    # a variant asked for by name comes with the same menu
    named = await harness.slash(anna, "kasino rules", variant="mulle")
    assert shown(named.response)[0].startswith("**Mulle**")
    assert menu(named.response)[0] == "k:rules:mulle"


async def test_rules_show_the_channels_game_with_its_options(harness: Harness) -> None:
    anna, bjorn = harness.members[:2]
    await harness.open_lobby(anna, variant="casino", target=11, sweeps=True)
    result = await harness.slash(bjorn, "kasino rules")
    description, game = shown(result.response)
    assert description.startswith("**Casino**")
    assert game.startswith("Casino to 11") and "sweep" in game and "5 min turns" in game
    # another variant has no game options; back to the game's, they return
    other = await harness.select(
        bjorn, result.response, ["swedish"], custom_id=cid(result.response, "k:rules:")
    )
    description, game = shown(other.response)
    assert description.startswith("**Swedish Kasino**") and game == ""
    back = await harness.select(
        bjorn, other.response, ["casino"], custom_id=cid(other.response, "k:rules:")
    )
    assert shown(back.response)[1].startswith("Casino to 11")


async def test_rules_speak_the_readers_language(
    harness: Harness,
    client_locales: dict[int, str],  # noqa: F811
) -> None:
    anna, bjorn = harness.members[:2]
    client_locales.update({anna.id: "sv-SE", bjorn.id: "fi"})
    swedish = await harness.slash(anna, "kasino rules")
    assert shown(swedish.response)[0].startswith("**Svenskt kasino**")
    finnish = await harness.slash(bjorn, "kasino rules")
    assert finnish.response.embeds[0].title == "Kasinon säännöt"
    (select,) = [
        c
        for c in components(finnish.response)
        if c.get("custom_id", "").startswith("k:rules:swedish:")
    ]
    assert select["placeholder"] == "Muiden pelien säännöt…"


@pytest.mark.parametrize(
    ("custom_id", "values"),
    [
        ("k:rules:swedish", ["nope"]),  # not a variant
        ("k:rules:swedish", ["swedish"]),  # the one shown
        ("k:rules:swedish", ["casino", "royal"]),  # two
        ("k:rules:bogus", ["casino"]),  # no such menu
        ("k:rules:swedish:1:2", ["casino"]),  # too many fields
        ("k:rules:swedish:A", ["casino"]),  # not a render tag
    ],
)
async def test_forged_rules_menus_are_refused_politely(
    harness: Harness, custom_id: str, values: list[str]
) -> None:
    anna = harness.members[0]
    result = await harness.slash(anna, "kasino rules")
    forged = await harness.forge(anna, result.response, custom_id, values)
    # answered with a new private refusal: the rules message is not edited
    assert forged.ephemeral and "not valid" in forged.response.content
    assert forged.response.id != result.response.id and not forged.response.embeds
    assert custom_ids(forged.response) == []


async def test_a_rules_menu_forged_onto_a_public_message_is_refused(harness: Harness) -> None:
    anna = harness.members[0]
    lobby = await harness.open_lobby(anna)
    before = shown(harness.current(lobby))
    forged = await harness.forge(anna, lobby, "k:rules:swedish", ["casino"])
    assert forged.ephemeral and "not valid" in forged.response.content
    assert shown(harness.current(lobby)) == before
