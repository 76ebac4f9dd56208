"""Issue 21: what players see is always current. The channel's posts survive a kill (the
durable outbox), every view of a game that ended says so at once, and a hint is shown in
the player's own hand view, gone when the position changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from bot.client import KasinoBot
from bot.config import Config
from bot.engine import Match
from bot.models import Game, Status
from bot.moves import auto_move
from bot.storage import is_postgres
from tests.bot.kasino_harness import Harness, cid, custom_ids
from tests.dbrows import execute, query


def message_now(harness: Harness, message: Any) -> Any:
    """A message (ephemeral ones too) as the backend holds it now."""
    return harness.env.backend.get_message(harness.channel.id, message.id)


def components_of(message: Any) -> list[str]:
    return [c.get("custom_id", "") for row in message.components for c in row["components"]]


def kill_before_posting(harness: Harness) -> None:
    """The process dies right after a move is answered: nothing it queued is posted."""
    harness.cog.table.outbox.put = lambda post: None


def ends_the_match(game: Game) -> bool:
    """Whether the next player's safe move (what ``play_move`` plays) ends the match."""
    copy = Match.from_dict(game.match.to_dict())
    copy.play(auto_move(copy.round))
    return copy.is_over


def outbox_rows(db_path: Path | str) -> list[dict[str, Any]]:
    return query(db_path, "SELECT * FROM outbox ORDER BY id")


async def test_a_kill_before_the_posts_loses_neither_table_nor_match_end(
    harness: Harness, bot_config: Config, db_path: Path | str
) -> None:
    game = await harness.start_game(2, target=5)
    while not ends_the_match(game):
        await harness.play_move(game)
    await harness.env.settle()
    before = {m.id for m in harness.public_messages()}
    kill_before_posting(harness)
    await harness.play_move(game)  # the last move: committed and answered, nothing posted
    assert game.status is Status.FINISHED
    assert {m.id for m in harness.public_messages()} == before
    # waiting: the end (it replaces the table) and the lobby's last word
    assert [row["is_table"] for row in outbox_rows(db_path)] == [1, 0]

    await harness.restart(KasinoBot(bot_config, seed=5))
    await harness.env.settle()
    ends = [m for m in harness.public_messages() if "Game over" in (m.content or "")]
    assert len(ends) == 1, [m.content for m in harness.public_messages()]
    assert f"k:rematch:{game.id}" in custom_ids(ends[0])
    posted = [m for m in harness.public_messages() if m.type is discord.MessageType.default]
    tables = [m for m in posted if f"Game #{game.id}" in _footers(m)]
    assert tables == ends  # the end replaced the last table, which is gone
    assert outbox_rows(db_path) == []
    # and a second restart posts nothing again
    await harness.restart(KasinoBot(bot_config, seed=6))
    await harness.env.settle()
    assert len([m for m in harness.public_messages() if "Game over" in (m.content or "")]) == 1


def _footers(message: Any) -> str:
    return " ".join(e.footer.text or "" for e in message.embeds)


async def test_a_kill_mid_match_leaves_the_current_table_and_summary(
    harness: Harness, bot_config: Config, db_path: Path | str
) -> None:
    game = await harness.start_game(2)
    rounds = game.match.rounds_played
    # play until the next move ends a round: its summary and the next table are due
    while True:
        copy = Match.from_dict(game.match.to_dict())
        copy.play(auto_move(copy.round))
        if copy.rounds_played > rounds:
            break
        await harness.play_move(game)
    await harness.env.settle()
    kill_before_posting(harness)
    await harness.play_move(game)
    version = game.version
    await harness.restart(KasinoBot(bot_config, seed=5))
    await harness.env.settle()
    summaries = [m for m in harness.public_messages() if _titled(m, "Round 1 is over")]
    assert len(summaries) == 1
    table = harness.table_message(game)
    reloaded = await harness.game()
    assert reloaded.version == version
    assert f"k:hand:{game.id}:{version}" in custom_ids(table)  # the current table
    mover = reloaded.seats[reloaded.match.round.to_move]
    assert f"<@{mover.user_id}>" in table.content
    tables = [m for m in harness.public_messages() if "k:hand:" in str(custom_ids(m))]
    assert tables == [table]  # the older table was deleted
    assert outbox_rows(db_path) == []


def _titled(message: Any, title: str) -> bool:
    return any(title in (e.title or "") for e in message.embeds)


async def test_stop_updates_the_lobby_and_every_open_hand_view(harness: Harness) -> None:
    lobby = await harness.open_lobby(harness.members[0])
    await harness.click(harness.members[1], lobby, label="Join")
    await harness.click(harness.members[0], lobby, label="Start")
    game = await harness.game()
    views = [(await harness.open_hand(member, game)).response for member in harness.members[:2]]
    result = await harness.slash(harness.members[0], "kasino stop")
    assert "stopped" in result.response.content
    await harness.env.settle()
    now_lobby = harness.current(lobby)
    assert "stopped" in now_lobby.embeds[0].description and not now_lobby.components
    for view in views:
        shown = message_now(harness, view)
        assert "stopped" in shown.content and "Waiting for" not in shown.content
        assert components_of(shown) == []
    # no table is left
    assert not [m for m in harness.public_messages() if "k:hand:" in str(custom_ids(m))]


async def test_a_stopped_lobby_says_so(harness: Harness) -> None:
    lobby = await harness.open_lobby(harness.members[0])
    await harness.slash(harness.members[0], "kasino stop")
    await harness.env.settle()
    now_lobby = harness.current(lobby)
    assert "stopped" in now_lobby.embeds[0].description and not now_lobby.components


async def test_an_abandoned_game_updates_its_lobby_and_hand_views(harness: Harness) -> None:
    lobby = await harness.open_lobby(harness.members[0], turn_minutes=1)
    await harness.click(harness.members[1], lobby, label="Join")
    await harness.click(harness.members[0], lobby, label="Start")
    game = await harness.game()
    waiting = harness.member(game.seats[1 - game.match.round.to_move].user_id)
    view = (await harness.open_hand(waiting, game)).response
    for _ in range(6):  # nobody plays: reminders and automatic moves until abandoned
        await harness.env.advance_time(120)
    assert game.status is Status.ABANDONED
    assert "abandoned" in harness.current(lobby).embeds[0].description
    shown = message_now(harness, view)
    assert "abandoned" in shown.content and components_of(shown) == []


async def test_a_hint_is_shown_in_the_hand_view_and_cleared_when_the_position_changes(
    harness: Harness,
) -> None:
    anna = harness.members[0]
    lobby = await harness.open_lobby(anna)
    await harness.click(anna, lobby, label="Add normal computer")
    await harness.click(anna, lobby, label="Hints: off")
    await harness.click(anna, lobby, label="Start")
    game = await harness.game()
    while game.seats[game.match.round.to_move].is_computer:
        await harness.env.advance_time(1)
    hand = (await harness.open_hand(anna, game)).response
    for _ in range(2):  # asked twice: still one hint, in the one hand view
        hint = cid(hand, "k:hint:")
        result = await harness.click(anna, hand, custom_id=hint)
        assert result.followups == [] and result.response.id == hand.id
    shown = message_now(harness, hand)
    assert shown.content.count("💡") == 1
    # (besides the seed's commitment, sent to the host privately with the lobby)
    mine = [
        m
        for m in harness.channel.history(viewer=anna)
        if m.flags.ephemeral and "seed is committed" not in m.content
    ]
    assert len(mine) == 1  # no message of its own
    before = game.version
    await harness.env.advance_time(600)  # the reminder, then a move is made for her
    await harness.env.settle()
    assert game.version > before
    assert "💡" not in message_now(harness, hand).content


async def test_a_damaged_game_tells_the_open_hand_views(
    harness: Harness, db_path: Path | str
) -> None:
    game = await harness.start_game(2)
    views = [(await harness.open_hand(member, game)).response for member in harness.members[:2]]
    damage = (
        "(state::jsonb #- '{round,hands}')::text"
        if is_postgres(db_path)
        else "json_remove(state, '$.round.hands')"
    )
    execute(db_path, f"UPDATE games SET state = {damage} WHERE id = ?", (game.id,))
    harness.cog.games._games.clear()  # as after a restart: the row is read again
    await harness.click(harness.members[0], views[0], custom_id=cid(views[0], "k:hand:"))
    await harness.env.settle()
    for view in views:
        shown = message_now(harness, view)
        assert "broken" in shown.content and components_of(shown) == []
