"""Every ``/kasino`` command but the game's own, where the app is installed by a person
(issue 41): the bot's DM (context 1), a group DM and a DM between two people (context 2),
a server that did not add the bot (context 0, user-installed) and such a server with Use
External Apps off (every answer forced private). Each answer comes through the
interaction: the bot tries no channel or server call there (Discord would refuse it:
``tests/bot/user_installs.py``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import discord
import pytest
import simcord
from simcord.actors import UserHandle

from tests.bot.kasino_harness import Harness, cid, components, custom_ids, select_options
from tests.bot.test_play_anywhere import PlaceTable
from tests.bot.user_installs import Place, no_channel_calls
from tests.dbrows import execute, query

PLACES = ("bot-dm", "group-dm", "private-dm", "foreign", "forced")
TOURNAMENTS = "Tournaments need a server that has added the bot"


@dataclass
class Person:
    """Someone in one of the places: runs commands and presses buttons there (in the
    bot's DM, as SimCord's own user)."""

    user: Any
    place: Place | None = None

    @property
    def actor(self) -> Any:
        """Who acts: the place's actor, or (the bot's DM) the user."""
        return self.place.member(self.user) if self.place is not None else self.user

    async def slash(self, name: str, **options: Any) -> simcord.InteractionResult:
        """Run a slash command here."""
        return await self.actor.slash(name, **options)

    async def click(self, message: Any, **kw: Any) -> simcord.InteractionResult:
        """Press a button here."""
        return await self.actor.click(message, **kw)

    async def select(self, message: Any, values: list[str], **kw: Any) -> simcord.InteractionResult:
        """Choose in a menu here."""
        return await self.actor.select(message, values, **kw)


def person_in(harness: Harness, where: str, user: Any, other: Any) -> Person:
    """``user`` (who installed the app) in a place of ``where`` with ``other``."""
    harness.app_installed_by(user)
    if where == "bot-dm":
        return Person(user)
    if where == "group-dm":
        place: Place = harness.group_dm(user, other)
    elif where == "private-dm":  # a DM between two people, neither the bot
        assert harness.installs is not None
        place = harness.installs.private_dm(harness.env, user, other)
    else:
        place = harness.foreign_server(user, other, external_apps=where != "forced")
    return Person(user, place)


def said(result: simcord.InteractionResult) -> str:
    """Everything an answer shows, as text."""
    message = result.response
    assert message is not None, "no answer"
    return (message.content or "") + "".join(str(e.to_dict()) for e in message.embeds)


async def move_to(
    harness: Harness, game_id: int, guild_id: int, channel_id: int, *, by_clicks: bool = True
) -> None:
    """Make a finished match one of another place (as if played there): its game (shown
    through clicks there, ``bot.stages``, unless ``by_clicks`` is false: the bot's DM),
    its finished rows and its results."""
    db = harness.env.bot.config.db_path
    game = await harness.cog.games.storage.get_game(game_id)
    assert game is not None
    extra = {**game.extra, "courier": "interaction"} if by_clicks else game.extra
    execute(db, "UPDATE games SET guild_id = ?, channel_id = ?, extra = ? WHERE id = ?",
            (guild_id, channel_id, json.dumps(extra), game_id))  # fmt: skip
    for table in ("finished", "finished_players", "results"):
        execute(db, f"UPDATE {table} SET guild_id = ? WHERE game_id = ?", (guild_id, game_id))


# ------------------------------------------------------------------------- commands


@pytest.mark.parametrize("where", PLACES)
async def test_every_command_answers_here(harness: Harness, where: str) -> None:
    """Each command answers, through the interaction only; server settings and
    tournaments are refused, saying why; what works everywhere works."""
    env = harness.env
    sara, olle = env.create_user("sara"), env.create_user("olle")
    me = person_in(harness, where, sara, olle)
    installs = harness.installs
    assert installs is not None
    no_server = where in ("bot-dm", "group-dm", "private-dm")
    with no_channel_calls(installs):
        answers = {
            "learn": await me.slash("kasino learn"),
            "puzzle": await me.slash("kasino puzzle"),
            "rules": await me.slash("kasino rules"),
            "help": await me.slash("kasino help"),
            "profile": await me.slash("kasino profile", member=olle),
            "versus": await me.slash("kasino versus", member=olle),
            "history": await me.slash("kasino history"),
            "games": await me.slash("kasino games"),
            "export": await me.slash("kasino export", game=1),
            "scores": await me.slash("kasino scores"),
            "global": await me.slash("kasino scores", scope="global"),
            "language": await me.slash("kasino language", language="sv"),
            "my deck": await me.slash("kasino deck", style="four"),
            "server deck": await me.slash("kasino deck", style="four", **{"for": "guild"}),
            "forget-me": await me.slash("kasino forget-me"),
            "board": await me.slash("kasino tournaments"),
            "tournament": await me.slash("kasino tournament new", title="Cup"),
            "standings": await me.slash("kasino tournament standings"),
            "drop": await me.slash("kasino tournament drop", member=olle),
        }
        texts = {name: said(answer) for name, answer in answers.items()}
        board = answers["global"].response
        flipped = await me.click(board, label="Against computers")  # the board's own button
        assert "Global Kasino vs computers" in said(flipped)
    assert "Lesson: Swedish Kasino" in texts["learn"] and "Puzzle of the day" in texts["puzzle"]
    assert "olle's Kasino profile" in texts["profile"]
    assert "sara against olle" in texts["versus"]  # a user, not a member, outside servers
    assert "There is no game #1" in texts["export"]
    assert "Global Kasino leaderboard" in texts["global"]
    # outside servers the board is the global one; a server's own board in a server
    assert ("Global Kasino leaderboard" in texts["scores"]) is no_server
    assert ("this conversation" in texts["history"]) is no_server
    assert "setting of a server that has added the bot" in texts["language"]
    assert "Manage Server" not in texts["language"]
    assert "four colours" in texts["my deck"]
    assert "Your own deck" in texts["server deck"]
    assert "Forget me?" in texts["forget-me"]
    assert "You are not in any game right now" in texts["games"]
    assert ("There is no server here" in texts["help"]) is no_server
    assert ("The bot is not a member here" in texts["help"]) is not no_server
    for name in ("board", "tournament", "standings", "drop"):
        assert TOURNAMENTS in texts[name], name
    private = {"learn", "puzzle", "rules", "help", "profile", "versus", "history", "export",
               "games"}  # fmt: skip
    if where == "forced":  # Discord makes every answer private there
        private = set(answers)
    assert {name for name, answer in answers.items() if answer.ephemeral} >= private
    assert not answers["scores"].ephemeral or where == "forced"


@pytest.mark.parametrize("where", ("bot-dm", "group-dm", "private-dm"))
async def test_no_server_board_by_wins(harness: Harness, where: str) -> None:
    """Outside servers there is no server board: by wins, a target or scope:server say
    that the board here is the global one, by rating."""
    env = harness.env
    me = person_in(harness, where, env.create_user("sara"), env.create_user("olle"))
    for options in ({"sort": "wins"}, {"target": 11}, {"scope": "server"}):
        answer = await me.slash("kasino scores", **options)
        assert answer.ephemeral and "no server leaderboard" in said(answer), options


async def test_an_admin_of_a_server_without_the_bot_is_refused_its_settings(
    harness: Harness,
) -> None:
    """Manage Server in a server that did not add the bot: its language, deck and
    tournaments are still refused (the bot has no say there), and nothing is stored."""
    env = harness.env
    sara, olle = env.create_user("sara"), env.create_user("olle")
    harness.app_installed_by(sara)
    server = harness.foreign_server(sara, olle)
    server.guild.everyone_role.permissions |= discord.Permissions(manage_guild=True).value
    me = Person(sara, server)
    installs = harness.installs
    assert installs is not None
    with no_channel_calls(installs):
        language = await me.slash("kasino language", language="sv")
        deck = await me.slash("kasino deck", style="four", **{"for": "guild"})
        tournament = await me.slash("kasino tournament new", title="Cup")
    assert "setting of a server that has added the bot" in said(language)
    assert "Your own deck" in said(deck)
    assert TOURNAMENTS in said(tournament)
    db = harness.env.bot.config.db_path
    for table in ("guild_settings", "tournaments"):
        assert query(db, f"SELECT * FROM {table} WHERE guild_id = ?", (server.guild_id,)) == []
    assert query(db, "SELECT * FROM deck_styles WHERE subject_id = ?", (server.guild_id,)) == []


async def test_a_server_that_added_the_bot_keeps_its_settings_and_tournaments(
    harness: Harness,
) -> None:
    """Where a server added the bot, its language, deck and tournaments are as before
    (also for a member who installed the app to their account too)."""
    anna = harness.members[0]
    harness.app_installed_by(anna)
    refused = await harness.slash(anna, "kasino language", language="sv")
    assert "Only someone with Manage Server" in said(refused)
    tournament = await harness.slash(anna, "kasino tournament new", title="Cup")
    assert "Only someone with Manage Server or the role" in said(tournament)
    board = await harness.slash(anna, "kasino scores")
    assert "Global" not in said(board)
    assert "not a member" not in said(await harness.slash(anna, "kasino help"))


# -------------------------------------------------------------------------- records


async def group_dm_match(harness: Harness) -> tuple[Any, Person]:
    """A finished match of anna and bjorn, made one of their group DM; anna there."""
    anna, bjorn = harness.members[:2]
    game = await harness.start_game(2, target=5)
    await harness.play_to_end(game)
    gdm = harness.group_dm(anna, bjorn)
    await move_to(harness, game.id, 0, gdm.channel_id)
    return game, Person(anna, gdm)


async def test_a_group_dm_match_is_that_conversations_record(harness: Harness) -> None:
    """A finished match of a group DM: its history, replay, jump and export work there,
    through the interaction; another conversation (and the server) knows no such game."""
    game, me = await group_dm_match(harness)
    installs = harness.installs
    assert installs is not None
    with no_channel_calls(installs):
        page = (await me.slash("kasino history")).response
        assert "this conversation" in page.embeds[0].title
        assert [o["value"] for o in select_options(page, "k:histpick:")] == [str(game.id)]
        replay = await me.select(page, [str(game.id)], custom_id=cid(page, "k:histpick:"))
        assert replay.ephemeral and "Step 0 of" in replay.response.embeds[0].description
        jump = select_options(replay.response, "k:jump:")
        last = await me.select(replay.response, [jump[-1]["value"]],
                               custom_id=cid(replay.response, "k:jump:"))  # fmt: skip
        assert f"Step {jump[-1]['value']} of" in last.response.embeds[0].description
        export = await me.slash("kasino export", game=game.id)
        assert [a.filename for a in export.response.attachments] == [f"kasino-{game.id}.json"]
    # another conversation, and the server, know no such game
    anna = harness.members[0]
    elsewhere = Person(anna, harness.group_dm(anna, harness.members[2]))
    other = await elsewhere.slash("kasino history")
    assert "No finished matches here yet" in said(other)
    assert "There is no game" in said(await elsewhere.slash("kasino export", game=game.id))
    in_server = await harness.slash(anna, "kasino history")
    assert f"#{game.id}" not in said(in_server)


async def test_how_to_check_and_the_profile_in_a_group_dm(harness: Harness) -> None:
    """How to check on a group DM match's replay answers there (it was refused as
    another server's game); the profile there shows the global rating ranked on the
    global board, not "in this server", and Show in channel answers in the group DM."""
    game, me = await group_dm_match(harness)
    installs = harness.installs
    assert installs is not None
    with no_channel_calls(installs):
        replay = await me.slash("kasino history")
        page = replay.response
        opened = await me.select(page, [str(game.id)], custom_id=cid(page, "k:histpick:"))
        check = await me.click(opened.response, custom_id=cid(opened.response, "k:check:"))
        assert f"Seed: `{game.match.seed}`" in said(check)
        profile = await me.slash("kasino profile")
        text = said(profile)
        assert "on the global board" in text and "in this server" not in text
        shown = await me.click(profile.response, custom_id=cid(profile.response, "k:show:"))
        assert not shown.ephemeral and "anna's Kasino profile" in said(shown)


async def test_a_profile_outside_servers_names_only_this_conversations_players(
    harness: Harness,
) -> None:
    """Outside servers the profile's last results are this conversation's: a match of
    another group DM (and whom it was played with) is not told here."""
    anna, bjorn, cecilia = harness.members[:3]
    _, me = await group_dm_match(harness)
    other = await harness.start_game(3, target=5)
    await harness.play_to_end(other)
    await move_to(harness, other.id, 0, harness.group_dm(anna, bjorn, cecilia).channel_id)
    profile = said(await me.slash("kasino profile"))
    assert "bjorn" in profile and "cecilia" not in profile
    assert "2 matches" in profile  # the totals count both: they name nobody


async def test_forget_me_edits_no_group_dm_message(harness: Harness) -> None:
    """Forget-me after a group DM match: its messages are answers to interactions, which
    the bot cannot edit (no channel call is tried; they stay as they are)."""
    _, me = await group_dm_match(harness)
    installs = harness.installs
    assert installs is not None
    with no_channel_calls(installs):
        asked = await me.slash("kasino forget-me")
        yes = next(c for c in custom_ids(asked.response)
                   if c.startswith("k:forget:") and c.endswith("yes"))  # fmt: skip
        done = await me.click(asked.response, custom_id=yes)
        assert "Done" in said(done)
        await harness.cog.forget_posts.idle()
    assert harness.cog.forget_posts.edited == 0


async def test_a_foreign_servers_match_and_a_forced_private_profile(harness: Harness) -> None:
    """A server that did not add the bot keeps its own records (its games, not another
    server's); where its answers are forced private, the profile offers no "Show in
    channel" (it would show it to nobody)."""
    anna, bjorn = harness.members[:2]
    game = await harness.start_game(2, target=5)
    await harness.play_to_end(game)
    server = harness.foreign_server(anna, bjorn, external_apps=False)
    await move_to(harness, game.id, server.guild_id, server.channel_id)
    installs = harness.installs
    assert installs is not None
    me = Person(anna, server)
    with no_channel_calls(installs):
        page = await me.slash("kasino history")
        assert f"#{game.id}" in said(page) and "this server" in said(page)
        export = await me.slash("kasino export", game=game.id)
        assert export.ephemeral and export.response.attachments
        profile = await me.slash("kasino profile")
        assert profile.ephemeral and not any(
            c.startswith("k:show:") for c in custom_ids(profile.response)
        )
        other = UserHandle(harness.env, harness.env.backend.get_user(bjorn.id))
        versus = await me.slash("kasino versus", member=other)
        assert not custom_ids(versus.response)
    # where the server lets external apps answer publicly, the button is there
    server.set_external_apps(True)
    with no_channel_calls(installs):
        profile = await me.slash("kasino profile")
        assert any(c.startswith("k:show:") for c in custom_ids(profile.response))


@pytest.mark.parametrize("where", ("group-dm", "forced"))
async def test_lesson_and_puzzle_menus_answer_here(harness: Harness, where: str) -> None:
    """A lesson's and a puzzle's menus (the hand view's) are played here, each choice
    answered on the private message itself."""
    env = harness.env
    me = person_in(harness, where, env.create_user("sara"), env.create_user("olle"))
    installs = harness.installs
    assert installs is not None
    with no_channel_calls(installs):
        for command in ("kasino learn", "kasino puzzle"):
            shown = (await me.slash(command)).response
            before = shown.content
            menu = next(c for c in components(shown) if c.get("options"))
            value = menu["options"][0]["value"]
            chosen = await me.select(shown, [value], custom_id=menu["custom_id"])
            assert chosen.response.ephemeral and chosen.response.content != before, command


@pytest.mark.parametrize("where", PLACES)
async def test_ones_games_and_a_hand_from_here(harness: Harness, where: str) -> None:
    """``/kasino games`` here lists Sara's match of a group DM (reached only through
    clicks), and its hand opens here with its menus, through the interaction only; the
    table there waits for a click there."""
    env = harness.env
    sara, olle = env.create_user("sara"), env.create_user("olle")
    me = person_in(harness, where, sara, olle)
    table = PlaceTable(harness, harness.group_dm(sara, env.create_user("pia")))
    game = await table.open_game(table.place.member(sara), computer="easy")
    installs = harness.installs
    assert installs is not None
    with no_channel_calls(installs):
        listing = await me.slash("kasino games")
        assert listing.ephemeral or where == "forced"
        assert f"#{game.id}" in said(listing) and "group DM" in said(listing)
        opened = await me.click(listing.response, custom_id=cid(listing.response, "k:hand:"))
        assert opened.ephemeral and "Your hand" in (opened.response.content or "")
        if game.match.round.to_move == game.seat_of(sara.id):
            assert any(c.startswith("k:card:") for c in custom_ids(opened.response))
