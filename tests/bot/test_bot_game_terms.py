"""Each game's card words reach the player, through SimCord on both databases: an English
Casino profile and table say big casino, little casino and sweeps; an English profile of
Casino and Swedish Kasino says each game's figures in its own words (Swedish Kasino keeps
storan); a Finnish Krypkasino profile and round summary say ruutukymppi, patakakkonen and
mökki (docs/glossary.md, "Each game's card words")."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.models import Game
from tests.bot import test_bot_languages
from tests.bot.kasino_harness import Harness
from tests.bot.test_bot_building import play_by_menus

client_locales = test_bot_languages.client_locales

NORDIC = re.compile(r"\b(storan|lillan|tabb\w*)\b", re.IGNORECASE)
FINNISH_NOT = re.compile(r"\b(storan|lillan|tabb\w*|iso\w* kasino\w*|pikku kasino\w*)", re.I)


def fields_of(embed: Any) -> dict[str, str]:
    return {field.name: field.value for field in embed.fields}


def summaries(harness: Harness) -> list[Any]:
    """Every round summary posted in the channel (its fields: each side's items)."""
    return [
        embed
        for message in harness.channel.history()
        for embed in message.embeds
        if embed.title and re.match(r"^(Round|Kierros) \d+ ", embed.title)
    ]


async def play_to_end(harness: Harness, game: Game, seed: int = 3) -> None:
    """Random legal moves by the menus (builds too) until the match ends."""
    rng = random.Random(seed)
    for _ in range(400):
        if not game.status.active:
            return
        await play_by_menus(harness, game, rng.choice(game.match.round.legal_moves()))
    raise AssertionError("the match did not end")


@pytest.mark.usefixtures("virtual_waits")
async def test_an_english_casino_game_says_big_casino_and_sweeps(harness: Harness) -> None:
    """Casino with sweeps on: the table counts sweeps, the summaries name big and little
    casino, and the profile of Casino alone says sweeps, big casino and little casino."""
    anna = harness.members[0]
    game = await harness.start_game(2, variant="casino", target=5, sweeps=True)
    table = fields_of(harness.table_message(game).embeds[0])
    assert any(" · sweep 0" in value for value in table.values()), table
    await play_to_end(harness, game)
    items = "\n".join(value for embed in summaries(harness) for value in fields_of(embed).values())
    assert "Big casino (" in items or "Little casino (" in items, items
    assert not NORDIC.search(items), items
    profile = (await harness.slash(anna, "kasino profile", variant="casino")).response.embeds[0]
    people = fields_of(profile)["Against people (Casino)"]
    assert " sweeps a round" in people and "Big casino in " in people, people
    assert ", little casino in " in people and not NORDIC.search(people), people


@pytest.mark.usefixtures("virtual_waits")
async def test_an_english_profile_of_two_games_says_each_in_its_words(harness: Harness) -> None:
    """Swedish Kasino in English keeps storan and tabbar; Casino beside it says big casino
    and sweeps: one block each, named, in the profile of all games."""
    anna = harness.members[0]
    for variant in ("swedish", "casino"):
        game = await harness.start_game(2, variant=variant, target=5)
        if variant == "casino":
            await play_to_end(harness, game)
        else:
            await harness.play_to_end(game)
    profile = (await harness.slash(anna, "kasino profile")).response.embeds[0]
    people = fields_of(profile)["Against people (all games)"]
    lines = people.splitlines()
    casino = [line for line in lines if line.startswith("**Casino:** ")]
    swedish = [line for line in lines if line.startswith("**Swedish Kasino:** ")]
    assert len(casino) == len(swedish) == 2, people
    assert " sweeps a round" in casino[0] and "Big casino in " in casino[1], people
    assert " tabbar a round" in swedish[0] and "Storan in " in swedish[1], people
    sv_profile = await harness.slash(anna, "kasino profile", variant="swedish")
    alone = fields_of(sv_profile.response.embeds[0])["Against people (Swedish Kasino)"]
    assert "Storan in " in alone and "**" not in alone  # one game: one block, unnamed


@pytest.mark.usefixtures("virtual_waits")
async def test_a_finnish_krypkasino_profile_says_ruutukymppi_patakakkonen_and_mokki(
    harness: Harness, client_locales: dict[int, str]
) -> None:
    anna, bjorn = harness.members[:2]
    client_locales.update({anna.id: "fi", bjorn.id: "fi"})
    game = await harness.start_game(2, variant="krypkasino", target=5)
    await harness.play_to_end(game)
    profile = (await harness.slash(anna, "kasino profile")).response.embeds[0]
    text = "\n".join(fields_of(profile).values())
    assert "Otetut sakot: ruutukymppi " in text and ", patakakkonen " in text, text
    assert " mökkiä kierroksessa" in text and not FINNISH_NOT.search(text), text
