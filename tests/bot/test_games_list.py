"""``/kasino games`` (issue 43): every game a person sits in, everywhere, their turn first,
and their hand for each opened from the list, in any channel or DM: the move is committed
and shown at the game's own table; someone not seated, a stale menu and a forged
custom_id are refused politely; a game reached only through clicks keeps its table
waiting for a click there."""

from __future__ import annotations

import re
from typing import Any

from bot.engine import Move
from bot.i18n import EN
from bot.models import Game, Status
from bot.moves import auto_move, round_choices
from cogs.common import ELSEWHERE, GONE, NOT_MINE, STALE
from cogs.correspondence.games_list import NO_GAMES
from tests.bot.kasino_harness import Harness, _positions, button, cid, custom_ids
from tests.bot.test_play_anywhere import PlaceTable
from tests.bot.user_installs import no_channel_calls
from tests.dbrows import query


def text_of(message: Any) -> str:
    """An answer's words: its content and its embeds' descriptions."""
    described = [getattr(e, "description", None) or "" for e in message.embeds or []]
    return (message.content or "") + "\n".join(str(d or "") for d in described)


def listed_ids(message: Any) -> list[int]:
    """The game ids of a list, in its order."""
    return [int(n) for n in re.findall(r"#(\d+)", text_of(message))]


def hand_button(message: Any, game: Game) -> str:
    """The list's "Your hand" button of a game."""
    return cid(message, f"k:hand:{game.id}:")


async def play_from(actor: Any, view: Any, game: Game, move: Move | None = None) -> Any:
    """The person to move plays ``move`` (default the safe move) from an open hand view,
    wherever it is; the last answer."""
    rnd = game.match.round
    seat = rnd.to_move
    move = move or auto_move(rnd)
    index = rnd.hands[seat].index(move.card)
    choices = round_choices(rnd, move.card, 23)
    step = await actor.select(view, [str(index)], custom_id=cid(view, "k:card:"))
    if choices:
        value = "trail" if move.is_trail else next(
            (f"c{n}" for n, c in enumerate(choices) if sorted(c.taken) == sorted(move.taken)),
            "pick",
        )  # fmt: skip
        step = await actor.select(step.response, [value], custom_id=cid(step.response, "k:take:"))
        if value == "pick":
            picked = _positions(rnd.table, move.taken)
            step = await actor.select(step.response, picked,
                                      custom_id=cid(step.response, "k:pick:"))  # fmt: skip
    return step


async def second_server_game(
    harness: Harness, pace: str = "1d"
) -> tuple[Game, Any, dict[int, Any]]:
    """Anna and Bjorn in another server, at a correspondence match there: the game, the
    server's channel and the two there by id."""
    env = harness.env
    anna, bjorn = harness.members[:2]
    other = env.create_guild("Other Club")
    channel = other.create_text_channel("cards")
    there = [other.add_member(anna.user), other.add_member(bjorn.user)]
    opened = await there[0].slash(channel, "kasino new", pace=pace)
    lobby = opened.response.message
    await there[1].click(lobby, custom_id=button(lobby, "join"))
    await there[0].click(lobby, custom_id=button(lobby, "start"))
    game = await harness.cog.games.active(channel.id)
    assert game is not None and game.status is Status.PLAYING
    return game, channel, {member.id: member for member in there}


async def test_every_game_everywhere_your_turn_first(harness: Harness) -> None:
    """Anna's games in two servers and a lobby in her DM with the bot: listed from a third
    place (her DM), her turn first, then the other's turn, the lobby last; each with its
    game, pace, opponent, place and clock; a hand button for each match in play."""
    anna = harness.members[0]
    here = await harness.start_game(2, target=5)
    there, _, _ = await second_server_game(harness)
    lobby = await anna.user.slash("kasino new")  # her DM with the bot: waiting to start
    assert lobby.response is not None
    dm_game = await harness.cog.games.active(anna.user.dm_channel.id)
    assert dm_game is not None and dm_game.status is Status.LOBBY
    # her turn in exactly one of the two matches
    if (here.match.round.to_move == 0) == (there.match.round.to_move == 0):
        await harness.play_move(here)
    mine, theirs = (here, there) if here.match.round.to_move == 0 else (there, here)
    answer = await anna.user.slash("kasino games")
    assert answer.ephemeral
    shown = answer.response
    assert listed_ids(shown) == [mine.id, theirs.id, dm_game.id]
    text = text_of(shown)
    lines = text.split("\n\n")
    assert "your turn" in lines[0] and "bjorn's turn" in lines[1]
    assert "waiting to start" in lines[2] and "<t:" not in lines[2]
    assert all(re.search(r"<t:\d+:R>", line) for line in lines[:2])
    assert "Live" in text and "1 day a move" in text and "against bjorn" in text
    assert "[Kasino Club](https://discord.com/channels/" in text
    assert "[Other Club](" in text and "[DM](https://discord.com/channels/@me/" in text
    hands = [c for c in custom_ids(shown) if c.startswith("k:hand:")]
    assert hands == [f"k:hand:{mine.id}:{mine.version}", f"k:hand:{theirs.id}:{theirs.version}"]
    # Bjorn's list: the two matches only (he is not in Anna's DM lobby)
    bjorn = await harness.members[1].user.slash("kasino games")
    assert sorted(listed_ids(bjorn.response)) == sorted([here.id, there.id])
    # someone in no game is told how to start one
    carla = await harness.members[2].user.slash("kasino games")
    assert carla.ephemeral and "You are not in any game right now" in text_of(carla.response)
    assert NO_GAMES.startswith("You are not in any game")


async def test_a_move_played_from_the_list_in_another_place(harness: Harness) -> None:
    """The player to move opens their hand from the list in their DM with the bot and
    plays: the move is committed and the table in the game's own channel shows it; the
    list stays, to open the next game's hand; the next turn is played from the list in
    another server's channel."""
    game = await harness.start_game(2, target=5)
    _, channel, members = await second_server_game(harness)
    seat = game.match.round.to_move
    mover = harness.member(int(game.seats[seat].user_id))
    listing = (await mover.user.slash("kasino games")).response
    opened = await mover.user.click(listing, custom_id=hand_button(listing, game))
    assert opened.ephemeral and opened.response.id != listing.id  # a new private message
    assert any(c.startswith("k:card:") for c in custom_ids(opened.response))
    before, old_table = game.version, harness.table_message(game)
    await play_from(mover.user, opened.response, game)
    assert game.version > before
    await harness.env.advance_time(2)
    table = harness.table_message(game)  # a fresh table in the game's own channel
    assert table.id != old_table.id and table.embeds
    said = " ".join(m.content or "" for m in harness.public_messages())
    assert f"{mover.name} " in said  # "anna trailed …" or "anna took …"
    stored = query(harness.env.bot.config.db_path, "SELECT version FROM games WHERE id = ?",
                   (game.id,))  # fmt: skip
    assert stored[0]["version"] == game.version
    # the other player, from the other server's channel
    other = members[int(game.seats[game.match.round.to_move].user_id)]
    listing = (await other.slash(channel, "kasino games")).response
    opened = await other.click(listing, custom_id=hand_button(listing, game))
    before = game.version
    await play_from(other, opened.response, game)
    assert game.version > before


async def test_not_seated_stale_and_forged_are_refused(harness: Harness) -> None:
    """A seated player's hand opens from another channel; someone not seated there is
    refused as before; a stale menu from a hand opened from the list is refused with a
    fresh hand; forged custom_ids are refused; nothing changes."""
    game = await harness.start_game(2, target=5)
    elsewhere = harness.guild.create_text_channel("elsewhere")
    carla = harness.members[2]
    rules = (await carla.slash(elsewhere, "kasino rules")).response
    forged = f"k:hand:{game.id}:{game.version}"
    harness.channel, home = elsewhere, harness.channel
    try:
        refused = await harness.forge(carla, rules, forged)
    finally:
        harness.channel = home
    assert refused.ephemeral and refused.response.content == EN(ELSEWHERE)
    # a stale menu: the hand was opened from the list, then the game moved on
    seat = game.match.round.to_move
    mover = harness.member(int(game.seats[seat].user_id))
    listing = (await mover.user.slash("kasino games")).response
    opened = (await mover.user.click(listing, custom_id=hand_button(listing, game))).response
    await harness.play_move(game)  # played from the table's own "Your hand"
    version = game.version
    stale = await mover.user.select(opened, ["0"], custom_id=cid(opened, "k:card:"))
    assert EN(STALE) in (stale.response.content or "")
    assert game.version == version
    # forged ids on one's own list: a page that is not a number, a hand of no game
    listing = (await harness.slash(mover, "kasino games")).response
    for custom_id, said in (("k:games:x", NOT_MINE), ("k:games:0", NOT_MINE),
                            ("k:games:1:2", NOT_MINE), ("k:hand:99999:1", GONE)):  # fmt: skip
        answer = await harness.forge(mover, listing, custom_id)
        assert answer.ephemeral and answer.response.content == EN(said), custom_id
    # a page button on a message that is not one's own list
    table = harness.table_message(game)
    answer = await harness.forge(mover, table, "k:games:1")
    assert answer.response.content == EN(NOT_MINE)
    assert game.version == version


async def test_pages_and_a_game_over_since_the_list(harness: Harness) -> None:
    """Twelve games fill two pages (ten a page, Previous / Next, only on one's own list);
    a game that ended after the list was shown answers its hand button with "This game
    is over." at once, nothing else shown."""
    anna = harness.members[0]
    game = await harness.start_game(2, target=5)
    guild = harness.guild
    for n in range(11):
        channel = guild.create_text_channel(f"table-{n}")
        await anna.slash(channel, "kasino new")
    first = (await anna.user.slash("kasino games")).response
    assert len(listed_ids(first)) == 10 and "Page 1 of 2" in str(first.embeds[0].footer.text)
    assert [c for c in custom_ids(first) if c.startswith("k:games:")] == ["k:games:1", "k:games:2"]
    second = await anna.user.click(first, custom_id="k:games:2")
    assert len(listed_ids(second.response)) == 2
    # the match ends; its hand button on the list shown before
    listing = (await anna.user.slash("kasino games")).response  # page 1: the match first
    await harness.slash(anna, "kasino stop")
    over = await anna.user.click(listing, custom_id=hand_button(listing, game))
    assert over.ephemeral and over.response.content == "This game is over."


async def test_a_click_game_played_from_the_bot_dm(harness: Harness) -> None:
    """Sara plays her group-DM match against a computer from her DM with the bot: her
    move and the computer's answer are committed in that click, nothing is sent to the
    group DM (the bot may only answer clicks there), and its table waits in the outbox
    for the next click there, which carries it."""
    env = harness.env
    sara, olle = env.create_user("sara"), env.create_user("olle")
    harness.app_installed_by(sara)
    place = harness.group_dm(sara, olle)
    table = PlaceTable(harness, place)
    game = await table.open_game(place.member(sara), computer="easy")
    installs = harness.installs
    assert installs is not None
    while game.match.round.to_move != 0:  # the computer's first move, at a click there
        await place.member(sara).slash("kasino hand")
    with no_channel_calls(installs):
        listing = (await sara.slash("kasino games")).response
        assert "[group DM](https://discord.com/channels/@me/" in text_of(listing)
        opened = await sara.click(listing, custom_id=hand_button(listing, game))
        before = game.version
        await play_from(sara, opened.response, game)
    assert game.version >= before + 2  # hers, and the computer's in the same click
    assert game.match.round.to_move == 0 or game.status is not Status.PLAYING
    waiting = query(env.bot.config.db_path,
                    "SELECT COUNT(*) AS n FROM outbox WHERE channel_id = ? AND courier = ?",
                    (place.channel_id, "interaction"))  # fmt: skip
    assert waiting[0]["n"] > 0
    await place.member(sara).slash("kasino hand")  # a click there carries what waits
    carried = query(env.bot.config.db_path,
                    "SELECT COUNT(*) AS n FROM outbox WHERE channel_id = ? AND courier = ?",
                    (place.channel_id, "interaction"))  # fmt: skip
    assert carried[0]["n"] < waiting[0]["n"]
