"""Restarts on the same database, virtual time: reminders, automatic moves, pauses."""

from __future__ import annotations

from bot.client import KasinoBot
from bot.config import Config
from bot.models import Status, Timer
from tests.bot.kasino_harness import Harness, cid, custom_ids


async def restart(harness: Harness, config: Config) -> KasinoBot:
    bot = KasinoBot(config, seed=7)
    await harness.restart(bot)
    return bot


async def test_restart_mid_match_and_finish_with_old_messages(
    harness: Harness, bot_config: Config
) -> None:
    game = await harness.start_game(2)
    for _ in range(30):
        await harness.play_move(game)
    index = await harness.ready_to_capture(game)
    table_id, game_id, version = game.message_id, game.id, game.version
    mover = harness.member(game.seats[game.match.round.to_move].user_id)
    old_hand = (await harness.open_hand(mover, game)).response

    bot = await restart(harness, bot_config)
    assert bot.synced is False  # same command set: no sync at start
    reloaded = await harness.game()
    assert reloaded is not game and reloaded.id == game_id and reloaded.version == version
    assert reloaded.match.to_dict() == game.match.to_dict()

    # the hand view opened before the restart still works
    assert reloaded.message_id == table_id
    step = await harness.select(mover, old_hand, [str(index)], custom_id=cid(old_hand, "k:card:"))
    assert "What does it take" in step.response.content
    result = await harness.select(
        mover, step.response, ["trail"], custom_id=cid(step.response, "k:take:")
    )
    assert "trailed" in result.response.content
    assert reloaded.version == version + 1
    # the rest of the match through the table's "Your hand" button
    moves = 0
    while reloaded.status.active:
        await harness.play_move(reloaded)
        moves += 1
    assert reloaded.status is Status.FINISHED
    rows, total = await harness.cog.games.storage.leaderboard(harness.guild.id)
    assert total == 2 and sum(r.wins for r in rows) == 1
    # commands still answer after the restart
    scores = await harness.slash(harness.members[0], "kasino scores")
    assert "1 win in 1 match" in scores.response.embeds[0].description


async def test_table_still_updates_after_twenty_minutes(harness: Harness) -> None:
    game = await harness.start_game(2, turn_minutes=60)
    mover = harness.member(game.seats[game.match.round.to_move].user_id)
    hand = (await harness.open_hand(mover, game)).response
    await harness.env.advance_time(20 * 60)  # every interaction token so far has expired
    step = await harness.select(mover, hand, ["0"], custom_id=cid(hand, "k:card:"))
    if "k:take:" in str(custom_ids(step.response)):
        take_id = cid(step.response, "k:take:")
        await harness.select(mover, step.response, ["trail"], custom_id=take_id)
    table = harness.table_message(game)
    ink = harness.cog.inks.public(game.guild_id)
    assert ink.line(game.last_move) in table.embeds[0].description
    assert f"k:hand:{game.id}:{game.version}" in custom_ids(table)


async def test_reminder_then_automatic_moves_then_abandoned(harness: Harness) -> None:
    game = await harness.start_game(2)  # five-minute turns
    env = harness.env
    first = game.seats[game.match.round.to_move]
    version = game.version
    await env.advance_time(300)
    reminder = harness.public_messages()[-1]
    assert "Reminder" in reminder.content and f"<@{first.user_id}>" in reminder.content
    assert game.version == version and game.timer is Timer.AUTO
    await env.advance_time(300)
    assert game.version == version + 1
    assert "automatic move" in game.last_move and first.name in game.last_move
    assert "automatic move" in harness.table_message(game).embeds[0].description
    assert first.idle == 1
    # nobody plays: each seat gets reminded and moved for, until one seat misses 3 in a row
    for _ in range(4):
        await env.advance_time(600)
    assert game.status is Status.ABANDONED
    assert "abandoned" in harness.public_messages()[-1].content
    assert await harness.cog.games.storage.move_count(game.id) == 5
    _, total = await harness.cog.games.storage.leaderboard(harness.guild.id)
    assert total == 0
    assert await harness.game() is None


async def test_a_move_resets_the_idle_count(harness: Harness) -> None:
    game = await harness.start_game(2)
    await harness.env.advance_time(600)  # auto move for the first player
    seat = 1 - game.match.round.to_move
    assert game.seats[seat].idle == 1
    await harness.play_move(game)  # the second player plays
    await harness.env.advance_time(600)  # the first player is moved for again
    assert game.seats[seat].idle == 2
    await harness.play_move(game)
    await harness.play_move(game)  # the first player plays at last
    assert game.seats[seat].idle == 0


async def test_timers_survive_a_restart(harness: Harness, bot_config: Config) -> None:
    await harness.start_game(2)
    await harness.env.advance_time(200)
    await restart(harness, bot_config)
    reloaded = await harness.game()
    await harness.env.advance_time(100)  # 300 s after the turn began: the reminder
    assert "Reminder" in harness.public_messages()[-1].content
    assert reloaded.timer is Timer.AUTO
