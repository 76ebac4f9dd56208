"""Table talk at a ladder match (issue 42, §4): five canned lines as buttons on the table,
each said at both tables in each place's language, one line per person every 5 s, only by
the match's players, never free text; each person may mute it (kept in the database);
no talk at a game that is not a ladder match."""

from __future__ import annotations

from typing import Any

import pytest

from bot.models import Status
from bot.talk import LINES, TALK_AFTER_END, TALK_EVERY
from cogs.custom_ids import BadComponent, parse_click
from tests.bot.kasino_harness import Harness, cid, custom_ids
from tests.bot.test_two_tables import ids, ladder_match, move_from, table_in, two_servers


def said(channel: Any) -> list[str]:
    """The table talk lines shown in a channel, oldest first."""
    lines = [m for m in channel.history() if (m.content or "").startswith("💬")]
    return [m.content for m in sorted(lines, key=lambda m: m.id)]


async def say(harness: Harness, member: Any, channel: Any, game: Any, line: str) -> Any:
    """``member`` presses a line on the game's table in ``channel``; the posts go out."""
    table = table_in(harness, channel, game)
    result = await harness.click(member, table, custom_id=cid(table, f"k:say:{game.id}:{line}"))
    await harness.env.advance_time(1)
    return result


async def test_a_line_shows_on_both_tables_in_each_places_language(harness: Harness) -> None:
    anna, here, erik, there = await two_servers(harness)
    game = await ladder_match(harness, anna, here, erik, there)
    table = table_in(harness, here, game)
    # five lines and the mute switch, in each table's language
    talk = [f"k:say:{game.id}:{key}" for key in ("mute", *LINES)]
    assert [c for c in custom_ids(table) if c.startswith("k:say:")] == talk
    assert "Lycka till!" in str(table_in(harness, there, game).components)
    answer = await say(harness, anna, here, game, "luck")
    assert not answer.ephemeral  # no message: the line shows on the table itself
    assert said(here) == ["💬 anna: Good luck!"]
    assert said(there) == ["💬 anna: Lycka till!"]
    await harness.env.advance_time(TALK_EVERY)
    await say(harness, erik, there, game, "thanks")
    assert said(here) == ["💬 anna: Good luck!", "💬 erik: Thanks!"]
    assert said(there) == ["💬 anna: Lycka till!", "💬 erik: Tack!"]
    assert not any("<@" in line for line in said(here) + said(there))  # names, no pings


async def test_good_game_on_the_end_message(harness: Harness) -> None:
    anna, here, erik, there = await two_servers(harness)
    game = await ladder_match(harness, anna, here, erik, there)
    while game.status is Status.PLAYING:
        mover = game.seats[game.match.round.to_move].user_id
        if mover == anna.id:
            await move_from(harness, game, here, anna)
        else:
            await move_from(harness, game, there, erik)
    await harness.click(erik, table_in_end(there), custom_id=f"k:say:{game.id}:gg")
    await harness.env.advance_time(1)
    assert said(here) == ["💬 erik: Good game!"] and said(there) == ["💬 erik: Bra parti!"]
    # its end message takes lines for 15 minutes after the end, then no more
    await harness.env.advance_time(TALK_AFTER_END)
    over = await harness.click(anna, table_in_end(here), custom_id=f"k:say:{game.id}:wp")
    assert over.ephemeral and "table talk is over" in over.response.content
    await harness.env.advance_time(1)
    assert len(said(here)) == 1 and len(said(there)) == 1


def table_in_end(channel: Any) -> Any:
    """A finished match's end message in a channel."""
    (end,) = [m for m in channel.history() if any(c.startswith("k:replay:") for c in ids(m))]
    return end


async def test_a_line_is_written_with_the_speakers_turn_or_not_at_all(harness: Harness) -> None:
    anna, here, erik, there = await two_servers(harness)
    game = await ladder_match(harness, anna, here, erik, there)
    storage = harness.cog.games.storage
    line = harness.cog.talk._line(game, game.mirrors[0], anna.id, "oops")
    assert await storage.say(anna.id, 1000.0, TALK_EVERY, [])
    # a second click at once (another process's, say): its turn is taken, nothing written
    # (its row looked up by its own key: the game's table rows drain meanwhile)
    assert not await storage.say(anna.id, 1000.0 + TALK_EVERY - 0.5, TALK_EVERY, [line])
    written = "SELECT id FROM outbox WHERE nonce_key = ?"
    assert await storage.fetch(written, [line.nonce_key]) == []
    assert await storage.talk_said_at(anna.id) == 1000.0
    assert await storage.say(anna.id, 1000.0 + TALK_EVERY, TALK_EVERY, [line])
    assert line.id is not None and await storage.talk_said_at(anna.id) == 1000.0 + TALK_EVERY


async def test_one_line_every_five_seconds(harness: Harness) -> None:
    anna, here, erik, there = await two_servers(harness)
    game = await ladder_match(harness, anna, here, erik, there)
    await say(harness, anna, here, game, "luck")
    too_soon = await say(harness, anna, here, game, "oops")
    assert too_soon.ephemeral
    assert "you can say another in 4 seconds" in too_soon.response.content
    assert said(here) == ["💬 anna: Good luck!"] and len(said(there)) == 1
    # the other player is not held back by it
    await say(harness, erik, there, game, "luck")
    assert len(said(here)) == 2
    await harness.env.advance_time(TALK_EVERY - 1)
    await say(harness, anna, here, game, "oops")
    assert said(here)[-1] == "💬 anna: Oops!" and said(there)[-1] == "💬 anna: Hoppsan!"


async def test_someone_not_at_the_table_cannot_talk(harness: Harness) -> None:
    anna, here, erik, there = await two_servers(harness)
    game = await ladder_match(harness, anna, here, erik, there)
    bjorn = harness.members[1]  # in anna's server, watching her table
    refused = await say(harness, bjorn, here, game, "gg")
    assert refused.ephemeral and "not playing in this game" in refused.response.content
    assert said(here) == [] and said(there) == []


async def test_forged_lines_are_refused(harness: Harness) -> None:
    anna, here, erik, there = await two_servers(harness)
    game = await ladder_match(harness, anna, here, erik, there)
    table = table_in(harness, here, game)
    for forged in (
        f"k:say:{game.id}:hello",  # no such line: never free text
        f"k:say:{game.id}:Good luck!",
        f"k:say:{game.id}:luck:x",
        f"k:say:{game.id + 1}:luck",  # another game's
        f"k:say:0{game.id}:luck",
    ):
        refused = await harness.forge(anna, table, forged)
        assert refused.ephemeral, forged
        assert "nothing happened" in refused.response.content, forged
    await harness.env.advance_time(1)
    assert said(here) == [] and said(there) == []
    # a genuine line, carried by a message that is not the game's table there (a line)
    await say(harness, anna, here, game, "luck")
    (line,) = [m for m in here.history() if (m.content or "").startswith("💬")]
    await harness.env.advance_time(TALK_EVERY)
    refused = await harness.forge(anna, line, f"k:say:{game.id}:oops")
    assert refused.ephemeral and "nothing happened" in refused.response.content
    await harness.env.advance_time(1)
    assert said(here) == ["💬 anna: Good luck!"]


def test_the_custom_id_is_read_strictly() -> None:
    assert parse_click("k:say:12:gg").action == "gg"
    assert parse_click("k:say:12:mute").game == 12
    for bad in ("k:say:12", "k:say:12:GG", "k:say:x:gg", "k:say:0:gg", "k:say:12:gg:1"):
        with pytest.raises(BadComponent):
            parse_click(bad)
    with pytest.raises(BadComponent):
        parse_click("k:say:12:gg", ["1"])


async def test_a_muted_persons_table_shows_no_lines(harness: Harness) -> None:
    anna, here, erik, there = await two_servers(harness)
    game = await ladder_match(harness, anna, here, erik, there)
    storage = harness.cog.games.storage
    # his answers are private, in his own Discord language (English here)
    muted = await say(harness, erik, there, game, "mute")
    assert muted.ephemeral and "Table talk is muted for you" in muted.response.content
    assert await storage.talk_muted([anna.id, erik.id]) == {erik.id}
    await say(harness, anna, here, game, "luck")
    assert said(here) == ["💬 anna: Good luck!"] and said(there) == []
    # he may still speak: only anna's table shows it, and he is told so
    spoke = await say(harness, erik, there, game, "thanks")
    assert spoke.ephemeral and "at the other table" in spoke.response.content
    assert said(here)[-1] == "💬 erik: Thanks!" and said(there) == []
    # pressed again: he hears it again
    heard = await say(harness, erik, there, game, "mute")
    assert "on for you again" in heard.response.content
    await harness.env.advance_time(TALK_EVERY)
    await say(harness, anna, here, game, "gg")
    assert said(there) == ["💬 anna: Bra parti!"]


async def test_no_talk_at_a_game_that_is_not_a_ladder_match(harness: Harness) -> None:
    game = await harness.start_game(2)
    table = table_in(harness, harness.channel, game)
    assert not any(c.startswith("k:say:") for c in custom_ids(table))
    refused = await harness.forge(harness.members[0], table, f"k:say:{game.id}:luck")
    assert refused.ephemeral and "nothing happened" in refused.response.content
    await harness.env.advance_time(1)
    assert said(harness.channel) == []
