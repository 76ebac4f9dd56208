"""The four-colour deck: a player's choice for their private views, a server's (Manage
Server) for the public ones, kept in the database (both backends) across restarts."""

from __future__ import annotations

import re
from pathlib import Path

import discord

from bot.client import KasinoBot
from bot.storage import Storage
from bot.storage.copy import copy_database
from tests.bot.kasino_harness import Harness, select_options

TWO = re.compile(r"<:(ace|10|[2-9]|jack|queen|king)_of_[a-z]+_[0-9a-f]{4}:\d+>")
FOUR = re.compile(r"<:(ace|10|[2-9]|jack|queen|king)_of_[a-z]+_4c_[0-9a-f]{4}:\d+>")


async def test_deck_styles_are_set_changed_and_cleared(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        assert await storage.deck_styles() == {"guild": {}, "user": {}}
        big = 1456074443980800055  # Discord ids need 64 bits
        await storage.set_deck_style("user", big, "four", now=1.0)
        await storage.set_deck_style("guild", big, "two", now=1.0)  # same id, other kind
        await storage.set_deck_style("guild", 7, "four", now=1.0)
        await storage.set_deck_style("guild", 7, "two", now=2.0)  # changed, not added
        assert await storage.deck_styles() == {
            "guild": {big: "two", 7: "two"},
            "user": {big: "four"},
        }
        await storage.set_deck_style("guild", 7, None, now=3.0)
        assert await storage.deck_styles() == {"guild": {big: "two"}, "user": {big: "four"}}
    finally:
        await storage.close()


async def test_deck_styles_are_copied_to_postgresql(tmp_path: Path, postgres_url: str) -> None:
    source = await Storage.open(tmp_path / "kasino.db")
    target = await Storage.open(postgres_url)
    try:
        await source.set_deck_style("user", 5, "four", now=1.0)
        report = await copy_database(source, target)
        assert report.counts["deck_styles"] == 1
        assert await target.deck_styles() == {"guild": {}, "user": {5: "four"}}
    finally:
        await source.close()
        await target.close()


async def faces_ready(harness: Harness) -> None:
    bot = harness.env.bot
    if bot.faces_task is not None:
        await bot.faces_task
    assert all(len(ink.faces) == 52 for ink in bot.inks.values())


async def hand_of(harness: Harness, member: object, game: object) -> str:
    return (await harness.open_hand(member, game)).response.content  # type: ignore[arg-type]


async def test_a_player_and_the_server_choose_their_decks(harness: Harness) -> None:
    await faces_ready(harness)
    anna, bjorn = harness.members[:2]
    game = await harness.start_game(2)
    # the default: two colours everywhere
    assert TWO.search(harness.table_message(game).embeds[0].description)
    assert TWO.search(await hand_of(harness, anna, game))

    chosen = await harness.slash(anna, "kasino deck", style="four")
    assert chosen.ephemeral and "four colours" in chosen.response.content
    assert len(FOUR.findall(chosen.response.content)) == 4  # a sample of the faces
    assert await harness.cog.games.storage.deck_styles() == {"guild": {}, "user": {anna.id: "four"}}
    # Anna's private views are four-colour, Bjorn's and the table stay two-colour
    hand = (await harness.open_hand(anna, game)).response
    assert FOUR.search(hand.content) and not TWO.search(hand.content)
    seat = game.seat_of(anna.id)
    if game.match.round.to_move == seat:  # her card menu shows the four-colour faces too
        assert all("_4c_" in o["emoji"]["name"] for o in select_options(hand, "k:card:"))
    bjorn_hand = await hand_of(harness, bjorn, game)
    assert TWO.search(bjorn_hand) and not FOUR.search(bjorn_hand)
    await harness.play_move(game)
    table = harness.table_message(game).embeds[0].description
    assert TWO.search(table) and not FOUR.search(table)

    # only Manage Server may choose the server's deck
    refused = await harness.slash(bjorn, "kasino deck", style="four", **{"for": "guild"})
    assert refused.ephemeral and "Manage Server" in refused.response.content
    assert await harness.cog.games.storage.deck_styles() == {"guild": {}, "user": {anna.id: "four"}}
    admins = harness.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = harness.guild.add_member(harness.env.create_user("admin"), roles=[admins])
    chosen = await harness.slash(admin, "kasino deck", style="four", **{"for": "guild"})
    assert chosen.ephemeral and "The table, lobby and summaries" in chosen.response.content
    await harness.play_move(game)
    table = harness.table_message(game).embeds[0].description
    assert FOUR.search(table) and not TWO.search(table)
    # Bjorn follows the server's deck now; Anna may go back to two colours for herself
    assert FOUR.search(await hand_of(harness, bjorn, game))
    await harness.slash(anna, "kasino deck", style="two")
    assert TWO.search(await hand_of(harness, anna, game))
    await harness.slash(anna, "kasino deck", style="four")

    # kept across a restart
    await harness.restart(KasinoBot(harness.env.bot.config, seed=3))
    await faces_ready(harness)
    game = await harness.game()
    assert FOUR.search(await hand_of(harness, anna, game))
    await harness.play_move(game)
    assert FOUR.search(harness.table_message(game).embeds[0].description)
    # "the server's deck": Anna follows the server again; the server's default is two colours
    await harness.slash(admin, "kasino deck", style="server", **{"for": "guild"})
    await harness.slash(anna, "kasino deck", style="server")
    assert await harness.cog.games.storage.deck_styles() == {"guild": {}, "user": {}}
    assert TWO.search(await hand_of(harness, anna, game))
