"""The four-colour deck: a player's choice for their private views, a server's (Manage
Server) for the public ones, kept in the database (both backends) across restarts."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest

from bot import faces
from bot.client import KasinoBot
from bot.engine import Card, Move
from bot.i18n import EN
from bot.models import Game
from bot.moves import round_choices, safe_move
from bot.storage import Storage
from bot.storage.copy import copy_database
from bot.turns import moves_of
from cogs.play.views import which_view
from tests.bot.kasino_harness import Harness, cid, components, select_options
from tests.bot.test_bot_building import play_by_menus

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


# A suit drawn in colour by the emoji font: the emoji forms, or a bare symbol (Discord
# draws ♥ and ♦ as its red emoji); in menus every suit is followed by U+FE0E (text).
COLOURED_SUIT = re.compile("[♠♥♦♣](?!\ufe0e)")
CARD_LABEL = re.compile("(10|[2-9AJQK])[♠♥♦♣]\ufe0e")


def menu_texts(message: object) -> list[tuple[dict, str]]:
    """Each select option of a message's menus with the select's custom_id, and the
    selects' placeholders (as options of their own)."""
    shown = []
    for component in components(message):
        if component.get("type") != 3:
            continue
        prefix = component["custom_id"]
        shown.append(({"label": component.get("placeholder") or ""}, prefix))
        shown += [(option, prefix) for option in component.get("options", [])]
    return shown


def four_colour_menus(message: object) -> int:
    """Check a message's menus for a four-colour reader with faces: no suit in colour in a
    label, description or placeholder; a card's option (the hand's cards, the table cards
    to choose, a trail, a capture) has the card's four-colour face. Returns how many
    options named cards."""
    named = 0
    for option, custom_id in menu_texts(message):
        for text in (option.get("label") or "", option.get("description") or ""):
            assert not COLOURED_SUIT.search(text), (custom_id, text)
        emoji = option.get("emoji") or {}
        if emoji.get("id"):
            assert "_4c_" in emoji["name"], (custom_id, option)
        label = option.get("label") or ""
        if CARD_LABEL.search(label) and "value" in option:
            named += 1
            first = CARD_LABEL.search(label).group(0)
            one_card = custom_id.startswith(("k:card:", "k:pick:")) or option["value"] == "trail"
            if one_card or option["value"].startswith("c"):
                assert emoji.get("id") and "_4c_" in emoji["name"], (custom_id, option)
            if custom_id.startswith(("k:card:", "k:pick:")):  # the label's card is the face
                assert faces.face_of(emoji["name"]) == ("four", Card.parse(_letters(first)))
    return named


def _letters(text: str) -> str:
    """``Q♦︎`` → ``QD``."""
    return text[:-2] + {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}[text[-2]]


async def walk_menus(harness: Harness, game: Game, moves: int, building: bool) -> int:
    """For ``moves`` turns, open the mover's hand and every menu a card leads to (the take
    or move menu, "choose the cards myself"), checking each; then play the turn."""
    named = 0
    for _ in range(moves):
        if not game.status.active:
            break
        rnd = game.match.round
        member = harness.member(int(game.seats[rnd.to_move].user_id))
        hand = (await harness.open_hand(member, game)).response
        named += four_colour_menus(hand)
        for index, card in enumerate(rnd.hands[rnd.to_move]):
            leads = (
                moves_of(rnd, card) not in ([], [Move(card)])
                if building
                else bool(round_choices(rnd, card, 1))
            )
            if not leads:
                continue
            hand = (await harness.open_hand(member, game)).response  # the menus edit it
            step = await harness.select(member, hand, [str(index)], custom_id=cid(hand, "k:card:"))
            named += four_colour_menus(step.response)
            values = [o["value"] for o in select_options(step.response, "k:take:")]
            if "pick" in values:
                take = cid(step.response, "k:take:")
                picked = await harness.select(member, step.response, ["pick"], custom_id=take)
                named += four_colour_menus(picked.response)
        if building:
            await play_by_menus(harness, game, safe_move(rnd))
        else:
            await harness.play_move(game)
    return named


@pytest.mark.parametrize("variant", ["swedish", "casino"])
async def test_the_four_colour_menus_show_faces_and_no_coloured_suits(
    harness: Harness, variant: str
) -> None:
    """With the four-colour deck, a menu's card is its four-colour face; its label writes
    the card as text, never with Discord's red ♥ ♦ (or black ♠ ♣) emoji beside it."""
    await faces_ready(harness)
    anna = harness.members[0]
    await harness.slash(anna, "kasino deck", style="four")
    await harness.slash(harness.members[1], "kasino deck", style="four")
    game = await harness.start_game(2, variant=variant)
    named = await walk_menus(harness, game, 12, building=variant != "swedish")
    assert named > 20


async def test_the_which_menu_of_a_building_game_writes_its_cards_as_text(
    harness: Harness,
) -> None:
    """ "Which move?" (several moves use the picked items): the moves' cards as text, the
    option's emoji the face of the first card taken, else of the card played."""
    await faces_ready(harness)
    ink = harness.env.bot.inks["four"]
    game = await harness.start_game(2, variant="casino")
    rnd = game.match.round
    found = [
        (card, moves)
        for card in rnd.hands[rnd.to_move]
        if len(moves := [m for m in moves_of(rnd, card) if m != Move(card)]) >= 1
    ]
    if not found:
        pytest.skip("no move but trails in this deal")
    card, moves = found[0]
    view = which_view(game, rnd.hands[rnd.to_move].index(card), (0,), moves, EN, ink)
    options = view.to_components()[0]["components"][0]["options"]
    assert len(options) == min(len(moves), 25)
    for move, option in zip(moves, options, strict=False):
        assert not COLOURED_SUIT.search(option["label"]), option["label"]
        taken = [c for i in move.taken for c in (i.cards if hasattr(i, "cards") else [i])]
        shown = taken[0] if move.kind == "capture" else card
        assert int(option["emoji"]["id"]) == ink.emoji(shown).id
