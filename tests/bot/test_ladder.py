"""``/kasino queue`` (issue 42): two people in two servers queue, are paired, and play one
rated match each at their own table; leaving; where the ladder is refused."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.client import KasinoBot
from bot.config import Config
from bot.ladder import OFFER_COMPUTER_AFTER
from bot.models import Status
from bot.records.ratings import GLOBAL
from cogs.ladder.queue import PAIR_EVERY
from tests.bot.kasino_harness import Harness, button, cid
from tests.bot.test_two_tables import move_from, two_servers


async def queue(harness: Harness, member: Any, channel: Any, **options: Any) -> Any:
    """``/kasino queue`` in ``channel``: its waiting message."""
    harness.interactions += 1
    result = await member.slash(channel, "kasino queue", **options)
    assert result.response is not None and not result.ephemeral, result
    return result.response.message


@pytest.mark.usefixtures("virtual_waits")
async def test_two_servers_queue_are_paired_and_play_a_rated_match(harness: Harness) -> None:
    anna, here, erik, there = await two_servers(harness)
    waiting = await queue(harness, anna, here)
    assert "Looking for an opponent" in str(waiting.embeds[0].to_dict())
    assert "Swedish Kasino for 2: 1" in str(waiting.embeds[0].to_dict())
    await queue(harness, erik, there)
    await harness.env.advance_time(1)
    game = await harness.cog.games.active(here.id)
    assert game is not None and game.extra.get("ladder") and game.status is Status.PLAYING
    assert {s.user_id for s in game.seats} == {anna.id, erik.id}
    assert [m.channel_id for m in game.mirrors] == [there.id]
    # both waiting messages say so; the other server's in its language
    edited = harness.current(waiting)
    assert "Paired" in str(edited.embeds[0].to_dict())
    assert any("Ihopparade:" in str(m.embeds[0].to_dict()) for m in there.history() if m.embeds)
    moves = 0
    while game.status is Status.PLAYING and moves < 200:
        mover = game.seats[game.match.round.to_move].user_id
        await move_from(harness, game, here if mover == anna.id else there,
                        anna if mover == anna.id else erik)  # fmt: skip
        moves += 1
    assert game.status is Status.FINISHED
    rated = await harness.cog.games.storage.fetch(
        "SELECT DISTINCT guild_id FROM rating_changes WHERE game_id = ?", [game.id]
    )
    assert [int(g) for (g,) in rated] == [GLOBAL]
    assert await harness.cog.games.storage.ladder_counts() == {}


@pytest.mark.usefixtures("virtual_waits")
async def test_leaving_the_queue(harness: Harness) -> None:
    anna, bjorn = harness.members[:2]
    waiting = await queue(harness, anna, harness.channel)
    leave = cid(waiting, "k:ladder:leave:")
    refused = await harness.click(bjorn, waiting, custom_id=leave)
    assert refused.ephemeral  # someone else's place in the queue
    assert await harness.cog.games.storage.ladder_entry(anna.id) is not None
    left = await harness.click(anna, waiting, custom_id=leave)
    assert not left.ephemeral and "left the queue" in str(
        harness.current(waiting).embeds[0].to_dict()
    )
    assert await harness.cog.games.storage.ladder_entry(anna.id) is None


async def test_the_ladder_is_refused_where_the_bot_only_answers_clicks(harness: Harness) -> None:
    env = harness.env
    gdm = harness.group_dm(env.create_user("sara"), env.create_user("olle"))
    refused = await gdm.members[0].slash("kasino queue")
    assert refused.ephemeral and "ladder needs a channel" in refused.response.content
    assert harness.installs is not None and harness.installs.attempts == []


@pytest.mark.usefixtures("virtual_waits")
async def test_who_stops_moving_loses_on_time(harness: Harness, bot_config: Config) -> None:
    """Nobody moves: the turn clock plays for the late player until they have missed
    the documented number of turns in a row; then they lose on time, the result rated as
    any loss, shown at both tables, and the miss counts towards a pause of their queueing."""
    anna, here, erik, there = await two_servers(harness)
    await queue(harness, anna, here)
    await queue(harness, erik, there)
    game = await harness.cog.games.active(here.id)
    assert game is not None
    for _ in range(40):
        if not game.status.active:
            break
        await harness.env.advance_time(bot_config.turn_seconds)
    assert game.status is Status.ABANDONED
    late = game.extra["lost_on_time"]
    loser = game.seats[late].user_id
    storage = harness.cog.games.storage
    rows = await storage.fetch("SELECT user_id, won FROM results WHERE game_id = ?", [game.id])
    assert {int(u): bool(w) for u, w in rows} == {
        anna.id: loser != anna.id,
        erik.id: loser != erik.id,
    }
    rated = await storage.fetch(
        "SELECT DISTINCT guild_id FROM rating_changes WHERE game_id = ?", [game.id]
    )
    assert [int(g) for (g,) in rated] == [GLOBAL]
    for channel, said in ((here, "loses on time"), (there, "förlorar på tid")):
        assert any(said in (m.content or "") for m in channel.history())
    abandons = await storage.fetch(
        "SELECT COUNT(*) FROM ladder_abandons WHERE user_id = ?", [loser]
    )
    assert abandons[0][0] == 1


@pytest.mark.usefixtures("virtual_waits")
async def test_a_block_keeps_two_people_apart_until_undone(harness: Harness) -> None:
    anna, bjorn = harness.members[:2]
    here, there = harness.channel, harness.guild.create_text_channel("ladder")
    blocked = await harness.slash(anna, "kasino block", person=bjorn)
    assert blocked.ephemeral and "not be paired" in blocked.response.content
    again = await harness.slash(anna, "kasino block", person=bjorn)
    assert "already" in again.response.content
    assert "yourself" in (await harness.slash(anna, "kasino block", person=anna)).response.content
    await queue(harness, anna, here)
    await queue(harness, bjorn, there)
    await harness.env.advance_time(30)  # pairing rounds: never these two
    assert await harness.cog.games.active(here.id) is None
    assert await harness.cog.games.storage.ladder_counts() == {("swedish", 2): 2}
    undone = await harness.slash(anna, "kasino block", person=bjorn, undo=True)
    assert "again" in undone.response.content
    await harness.env.advance_time(6)  # the next round pairs them
    assert await harness.cog.games.active(here.id) is not None


@pytest.mark.usefixtures("virtual_waits")
async def test_an_admin_turns_the_ladder_off_and_those_waiting_leave(harness: Harness) -> None:
    anna, bjorn = harness.members[:2]
    waiting = await queue(harness, anna, harness.channel)
    refused = await harness.slash(bjorn, "kasino ladder", on=False)
    assert refused.ephemeral and "Manage Server" in refused.response.content
    role = harness.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = harness.guild.add_member(harness.env.create_user("admin"), roles=[role])
    off = await harness.slash(admin, "kasino ladder", on=False)
    assert off.ephemeral and "1 person waiting here left the queue" in off.response.content
    assert "ladder is off" in str(harness.current(waiting).embeds[0].to_dict())
    assert await harness.cog.games.storage.ladder_entry(anna.id) is None
    again = await harness.slash(anna, "kasino queue")
    assert again.ephemeral and "turned the ladder off" in again.response.content
    on = await harness.slash(admin, "kasino ladder", on=True)
    assert "on in this server" in on.response.content
    await queue(harness, anna, harness.channel)


@pytest.mark.usefixtures("virtual_waits")
async def test_after_a_long_wait_the_hard_computer_is_offered_once(harness: Harness) -> None:
    """Nobody comes: after the documented wait the waiting message offers a game with the
    hard computer meanwhile (its owner's button only); it is dealt here, unrated, and the
    person keeps their place in the queue."""
    anna, bjorn = harness.members[:2]
    waiting = await queue(harness, anna, harness.channel)
    assert not any(c.startswith("k:ladder:computer:") for c in ids(waiting))
    await harness.env.advance_time(OFFER_COMPUTER_AFTER + 2 * PAIR_EVERY)
    offered = harness.current(waiting)
    offer = cid(offered, "k:ladder:computer:")
    assert (await harness.click(bjorn, offered, custom_id=offer)).ephemeral  # not his
    assert await harness.cog.games.active(harness.channel.id) is None
    started = await harness.click(anna, offered, custom_id=offer)
    assert started.ephemeral and "unrated" in started.response.content
    game = await harness.cog.games.active(harness.channel.id)
    assert game is not None and game.extra.get("unrated")
    assert [s.level for s in game.seats if s.is_computer] == ["hard"]
    assert await harness.cog.games.storage.ladder_entry(anna.id) is not None
    for _ in range(400):
        if not game.status.active:
            break
        if game.seats[game.match.round.to_move].is_computer:
            await harness.env.advance_time(1)
        else:
            await harness.play_move(game)
    assert game.status is Status.FINISHED
    rated = await harness.cog.games.storage.fetch(
        "SELECT COUNT(*) FROM rating_changes WHERE game_id = ?", [game.id]
    )
    assert rated[0][0] == 0


def ids(message: Any) -> list[str]:
    return [c.custom_id for row in message.components for c in row.children if c.custom_id]


@pytest.mark.usefixtures("virtual_waits")
async def test_a_ladder_match_is_in_both_servers_history_with_its_replay(
    harness: Harness,
) -> None:
    """The finished match is in the history of each player's server (their own and the
    server's list), with its replay, and How to check answers at either table."""
    anna, here, erik, there = await two_servers(harness)
    await queue(harness, anna, here)
    await queue(harness, erik, there)
    game = await harness.cog.games.active(here.id)
    assert game is not None
    while game.status is Status.PLAYING:
        mover = game.seats[game.match.round.to_move].user_id
        await move_from(harness, game, here if mover == anna.id else there,
                        anna if mover == anna.id else erik)  # fmt: skip
    for member, channel in ((anna, here), (erik, there)):
        for options in ({}, {"member": member}):
            page = await member.slash(channel, "kasino history", **options)
            assert page.ephemeral and f"#{game.id}" in str(page.response.embeds[0].to_dict())
        replay = await member.slash(channel, "kasino export", game=game.id)
        assert replay.ephemeral and replay.response.attachments, replay


@pytest.mark.usefixtures("virtual_waits")
async def test_taking_a_seat_elsewhere_leaves_the_queue(harness: Harness) -> None:
    """One game at a time: opening or joining a lobby takes a person out of the queue, and
    their waiting message says so."""
    anna, bjorn = harness.members[:2]
    second = harness.guild.create_text_channel("ladder")
    waiting = await queue(harness, anna, second)
    lobby = await harness.open_lobby(bjorn)
    await harness.click(anna, lobby, custom_id=button(lobby, "join"))
    await harness.env.advance_time(1)
    assert await harness.cog.games.storage.ladder_entry(anna.id) is None
    now_shown = next(m for m in second.history() if m.id == waiting.id)
    assert "left the queue to play" in str(now_shown.embeds[0].to_dict())
    await queue(harness, bjorn, second)  # bjorn sits in that lobby too: a host
    opened = await harness.slash(bjorn, "kasino new")
    assert opened.ephemeral  # the channel has its game already
    other = harness.guild.create_text_channel("other")
    harness.channel = other
    await harness.open_lobby(bjorn)
    assert await harness.cog.games.storage.ladder_entry(bjorn.id) is None


@pytest.mark.usefixtures("virtual_waits")
async def test_queueing_again_ends_the_earlier_wait(harness: Harness) -> None:
    """One place in the queue a person: queueing again (another game, another channel)
    replaces it, and the earlier waiting message says that wait is over."""
    anna = harness.members[0]
    first = await queue(harness, anna, harness.channel)
    second_channel = harness.guild.create_text_channel("ladder")
    await queue(harness, anna, second_channel, players=4)
    assert "this wait is over" in str(harness.current(first).embeds[0].to_dict())
    entry = await harness.cog.games.storage.ladder_entry(anna.id)
    assert entry is not None and entry.players == 4 and entry.channel_id == second_channel.id


@pytest.mark.usefixtures("virtual_waits")
async def test_a_kill_after_pairing_loses_no_one(
    harness: Harness, bot_config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pairing and the game it makes are one transaction: a process killed right
    after it leaves a game without its tables, which the next start posts at both tables;
    one that fails before it leaves both people in the queue."""
    anna, here, erik, there = await two_servers(harness)
    flow = type(harness.cog.ladder)

    async def killed(self: Any, group: Any, home: int) -> None:
        raise RuntimeError("killed before the first tables were queued")

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(flow, "started", killed)
        await queue(harness, anna, here)
        await queue(harness, erik, there)
    storage = harness.cog.games.storage
    assert await storage.ladder_counts() == {}
    (row,) = await storage.fetch("SELECT id, message_id FROM games WHERE status = 'playing'")
    assert row[1] is None  # made, its tables not queued
    await harness.restart(KasinoBot(bot_config, seed=3))
    await harness.env.advance_time(1)
    game = await harness.cog.games.active(here.id)
    assert game is not None and game.id == row[0]
    for channel in (here, there):
        assert any(any("k:hand:" in c for c in ids(m)) for m in channel.history()), channel

    # a pairing that fails before its transaction commits pairs nobody
    def broken(self: Any, group: Any, busy: Any, at: float) -> None:
        raise RuntimeError("failed while dealing")

    monkeypatch.setattr(flow, "match_of", broken)
    bjorn, cecilia = harness.members[1:3]
    third = harness.guild.create_text_channel("third")
    fourth = harness.guild.create_text_channel("fourth")
    await queue(harness, bjorn, third)
    await queue(harness, cecilia, fourth)
    assert await harness.cog.games.storage.ladder_counts() == {("swedish", 2): 2}


@pytest.mark.usefixtures("virtual_waits")
async def test_the_waiting_counts_follow_the_pool(harness: Harness) -> None:
    """The waiting messages say how many wait for each game now: someone queueing for
    another game shows on the earlier waiting message at the next round."""
    anna, bjorn = harness.members[:2]
    waiting = await queue(harness, anna, harness.channel)
    other = harness.guild.create_text_channel("ladder")
    await queue(harness, bjorn, other, players=4)
    await harness.env.advance_time(PAIR_EVERY + 1)
    said = str(harness.current(waiting).embeds[0].to_dict())
    assert "Swedish Kasino for 2: 1" in said and "Swedish Kasino for 4: 1" in said
