"""Lobbies, the informational commands, and one game per channel."""

from __future__ import annotations

import re

import discord

from bot.models import VARIANT_NAMES, Game, GameOptions, Seat, Status
from bot.storage import ResultRecord
from tests.bot.kasino_harness import Harness, components, custom_ids


def buttons(message) -> dict[str, bool]:
    """Button label -> disabled."""
    return {c["label"]: bool(c.get("disabled")) for c in components(message) if c.get("label")}


async def test_lobby_join_leave_start(harness: Harness) -> None:
    anna, bjorn, cecilia, _ = harness.members
    lobby = await harness.open_lobby(anna, variant="overspader")
    embed = lobby.embeds[0]
    assert "Överspader to 21" in embed.fields[0].value
    # embeds name players by name (a mention shows as a number where not cached)
    assert "**anna** (host)" in embed.fields[1].value and "<@" not in embed.fields[1].value
    assert buttons(lobby) == {
        "Join": False,
        "Leave": False,
        "Start": True,
        "Cancel": False,
        "How to check": False,
        "Add easy computer": False,
        "Add normal computer": False,
        "Add hard computer": False,
        "Remove computer": True,
        "Hints: off": False,
    }

    joined = await harness.click(bjorn, lobby, label="Join")
    assert "**bjorn**" in joined.response.embeds[0].fields[1].value
    assert buttons(joined.response)["Start"] is False
    again = await harness.click(bjorn, lobby, label="Join")
    assert again.ephemeral and "already have a seat" in again.response.content

    await harness.click(cecilia, lobby, label="Join")
    left = await harness.click(cecilia, lobby, label="Leave")
    assert cecilia.mention not in left.response.embeds[0].fields[1].value
    host_leaves = await harness.click(anna, lobby, label="Leave")
    assert host_leaves.ephemeral and "Cancel" in host_leaves.response.content

    not_host = await harness.click(bjorn, lobby, label="Start")
    assert not_host.ephemeral and "Only the host" in not_host.response.content
    started = await harness.click(anna, lobby, label="Start")
    assert buttons(started.response) == {}  # the lobby stays as the record of the seats
    game = await harness.game()
    # the turn notice is the table itself, posted fresh below the lobby, with one mention
    ping = harness.public_messages()[-1]
    assert game.status is Status.PLAYING and game.message_id == ping.id != lobby.id
    to_move = game.seats[game.match.round.to_move]
    assert f"<@{to_move.user_id}>, your turn" in ping.content
    assert "Your hand" in buttons(ping)


async def test_second_game_in_a_channel_links_to_the_first(harness: Harness) -> None:
    anna, bjorn, *_ = harness.members
    lobby = await harness.open_lobby(anna)
    second = await harness.slash(bjorn, "kasino new", variant="mulle")
    assert second.ephemeral
    assert "already running" in second.response.content
    assert f"/{harness.channel.id}/{lobby.id}" in second.response.content
    # another channel is free, and a person may play in both
    other = harness.guild.create_text_channel("kasino-2")
    elsewhere = await anna.slash(other, "kasino new")
    assert not elsewhere.ephemeral


async def test_no_game_opens_where_its_tables_cannot_be_posted(harness: Harness) -> None:
    """Every table after the lobby is a message the bot sends itself: where it may not send
    messages (or embeds), Discord would refuse each one, so the game does not open and the
    host is told what to ask for; in a thread, sending in threads is what counts."""
    anna = harness.members[0]
    for denied in ({"send_messages": False}, {"embed_links": False}):
        closed = harness.guild.create_text_channel(
            "closed", overwrites={harness.guild.me: discord.PermissionOverwrite(**denied)}
        )
        refused = await anna.slash(closed, "kasino new")
        assert refused.ephemeral and "**Send Messages**" in refused.response.content
        assert await harness.cog.games.active(closed.id) is None
    allowed = harness.guild.create_text_channel(
        "open", overwrites={harness.guild.me: discord.PermissionOverwrite(send_messages=True)}
    )
    assert not (await anna.slash(allowed, "kasino new")).ephemeral


async def test_cancel_frees_the_channel(harness: Harness) -> None:
    anna, bjorn, *_ = harness.members
    lobby = await harness.open_lobby(anna)
    refused = await harness.click(bjorn, lobby, label="Cancel")
    assert refused.ephemeral and "Only the host" in refused.response.content
    cancelled = await harness.click(anna, lobby, label="Cancel")
    assert "cancelled" in cancelled.response.embeds[0].description
    assert cancelled.response.components == []
    assert await harness.game() is None
    fresh = await harness.slash(bjorn, "kasino new")
    assert not fresh.ephemeral


async def test_teams_need_four_and_the_table_holds_four(harness: Harness) -> None:
    anna, bjorn, cecilia, david = harness.members
    erik = harness.guild.add_member(harness.env.create_user("erik"))
    lobby = await harness.open_lobby(anna, teams=True)
    for member in (bjorn, cecilia):
        await harness.click(member, lobby, label="Join")
    forced = await harness.forge(anna, lobby, f"k:lobby:{(await harness.game()).id}:start")
    assert forced.ephemeral and "exactly 4" in forced.response.content
    await harness.click(david, lobby, label="Join")
    full = await harness.click(erik, lobby, label="Join")
    assert full.ephemeral and "full" in full.response.content
    started = await harness.click(anna, lobby, label="Start")
    assert started.acknowledged
    assert "team" in harness.table_message(await harness.game()).embeds[0].title


async def test_rules_and_empty_channel_answers(harness: Harness) -> None:
    anna = harness.members[0]
    rules = await harness.slash(anna, "kasino rules", variant="finnish")
    assert rules.ephemeral and "mökki" in rules.response.embeds[0].description
    default = (await harness.slash(anna, "kasino rules")).response.embeds[0]
    assert default.description.startswith("**Swedish Kasino**") and not default.fields
    # each variant's own usual target, which the lobby may change
    targets = []
    for key in VARIANT_NAMES:
        embed = (await harness.slash(anna, "kasino rules", variant=key)).response.embeds[0]
        assert len(embed) <= 6000 and "First to" not in embed.description
        found = re.search(
            r"A match is to (\d+) points unless the lobby sets|reaches the limit, (\d+) points",
            embed.description,
        )
        assert found is not None, embed.description
        # Krypkasino's is a limit: the match ends when a side reaches it, lowest wins
        assert (found[2] is not None) == (key == "krypkasino"), key
        targets.append(int(found[1] or found[2]))
    assert sorted(targets) == [16] * 2 + [21] * 6 + [50] * 3
    hand = await harness.slash(anna, "kasino hand")
    assert hand.ephemeral and "no Kasino game" in hand.response.content
    stop = await harness.slash(anna, "kasino stop")
    assert stop.ephemeral
    scores = await harness.slash(anna, "kasino scores", target=21)
    assert "No finished matches" in scores.response.embeds[0].description
    assert "to 21" in scores.response.embeds[0].title


async def test_stop_by_host_or_channel_manager_only(harness: Harness) -> None:
    bjorn = harness.members[1]
    game = await harness.start_game(2)
    version = game.version
    refused = await harness.slash(bjorn, "kasino stop")
    assert refused.ephemeral and "Only the host" in refused.response.content
    assert game.status is Status.PLAYING and game.version == version
    mods = harness.guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    moderator = harness.guild.add_member(harness.env.create_user("mod"), roles=[mods])
    stopped = await harness.slash(moderator, "kasino stop")
    assert not stopped.ephemeral and "No result is recorded" in stopped.response.content
    assert game.status is Status.STOPPED
    # the table is removed: no "Your hand" button or turn notice is left behind
    assert not any(custom_ids(m) for m in harness.public_messages() if m.id != stopped.response.id)
    assert not any("your turn" in (m.content or "") for m in harness.public_messages())
    _, total = await harness.cog.games.storage.leaderboard(harness.guild.id)
    assert total == 0


async def test_scores_pages_and_running_match_standings(harness: Harness) -> None:
    storage = harness.cog.games.storage
    for n in range(12):  # twelve finished one-player-each boards, made directly in storage
        game = await storage.create_game(new_game_row(harness, channel=1000 + n), now=1.0)
        game.status = Status.FINISHED
        await storage.save_game(
            game, 2.0, results=[ResultRecord(5000 + n, 0, n % 2 == 0, 16 + n, n)]
        )
    await harness.start_game(2)
    first = await harness.slash(harness.members[0], "kasino scores", sort="wins")
    embed = first.response.embeds[0]
    assert embed.footer.text == "Page 1 of 2" and embed.description.count("\n") == 9
    assert any(f.name.startswith("This match") for f in embed.fields)
    second = await harness.click(harness.members[1], first.response, label="Next")
    assert second.response.embeds[0].footer.text == "Page 2 of 2"
    assert second.response.embeds[0].description.startswith("**11.**")


def new_game_row(harness: Harness, channel: int) -> Game:
    seat = Seat(harness.members[0].id, "anna")
    return Game(0, harness.guild.id, channel, seat.user_id or 0, GameOptions(), [seat])


async def test_a_cancelled_lobby_says_it_was_cancelled(harness: Harness) -> None:
    """Issue 39: a Join sent to a lobby the host cancelled says so (not "over")."""
    anna, bjorn = harness.members[:2]
    lobby = await harness.open_lobby(anna)
    game = await harness.game()
    await harness.click(anna, lobby, label="Cancel")
    join = await harness.forge(bjorn, lobby, f"k:lobby:{game.id}:join")
    assert join.ephemeral and "cancelled before it started" in join.response.content
