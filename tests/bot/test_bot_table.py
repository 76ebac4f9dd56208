"""Issue 9: a hand that follows the game, fewer clicks, the table in view within Discord's
limits, names not mentions."""

from __future__ import annotations

import collections
from typing import Any

import discord
import pytest

from bot.config import Config
from bot.moves import rank_choices
from bot.timers import now
from cogs.play.outbox import MAX_POSTS, WINDOW
from tests.bot.kasino_harness import Harness, cid, custom_ids


def message_now(harness: Harness, message: Any) -> Any:
    """A message (ephemeral ones too) as the backend holds it now."""
    return harness.env.backend.get_message(harness.channel.id, message.id)


def mover(harness: Harness, game: Any) -> Any:
    return harness.member(game.seats[game.match.round.to_move].user_id)


async def test_an_open_hand_updates_itself_when_your_turn_comes(harness: Harness) -> None:
    game = await harness.start_game(2)
    waiting = harness.member(game.seats[1 - game.match.round.to_move].user_id)
    view = (await harness.open_hand(waiting, game)).response
    assert "Waiting for" in view.content and "k:card:" not in str(custom_ids(view))
    await harness.play_move(game)  # the other player moves: now it is the waiting one's turn
    now_view = message_now(harness, view)
    assert "**Your turn**" in now_view.content
    assert "Last move:" in now_view.content and "<t:" in now_view.content
    selects = [c.get("custom_id") for row in now_view.components for c in row["components"]]
    assert any(c.startswith(f"k:card:{game.id}:{game.version}:") for c in selects)
    # and it can be played from at once
    index = await harness.ready_to_capture(game)
    if mover(harness, game).id == waiting.id:
        step = await harness.select(waiting, view, [str(index)], custom_id=cid(view, "k:card:"))
        assert "What does it take" in step.response.content
        assert "choose what it takes" in step.response.content  # not "choose a card"


async def test_a_hand_older_than_fifteen_minutes_is_left_alone(harness: Harness) -> None:
    game = await harness.start_game(2, turn_minutes=60)
    waiting = harness.member(game.seats[1 - game.match.round.to_move].user_id)
    view = (await harness.open_hand(waiting, game)).response
    await harness.env.advance_time(16 * 60)  # its interaction token has expired
    await harness.play_move(game)
    assert "Waiting for" in message_now(harness, view).content
    # the table brings it back in one click
    again = await harness.open_hand(waiting, game)
    assert "**Your turn**" in again.response.content


async def test_a_card_that_can_take_nothing_is_trailed_in_one_selection(
    harness: Harness,
) -> None:
    game = await harness.start_game(2)
    for _ in range(40):
        rnd = game.match.round
        hand = rnd.hands[rnd.to_move]
        lone = [
            i for i, c in enumerate(hand) if not rank_choices(game.match.rules, c, rnd.table, 1)
        ]
        if lone:
            break
        await harness.play_move(game)
    member = mover(harness, game)
    view = (await harness.open_hand(member, game)).response
    option = next(o for o in view.components[0]["components"][0]["options"]
                  if o["value"] == str(lone[0]))  # fmt: skip
    # the card's face (never Discord's own near-black suit emoji) and a text label
    assert "trail" in option["label"] and "_of_" in option["emoji"]["name"]
    assert option["emoji"]["id"]
    before = game.version
    result = await harness.select(member, view, [str(lone[0])], custom_id=cid(view, "k:card:"))
    assert game.version == before + 1 and "trailed" in result.response.content


async def test_the_table_is_reposted_each_turn_and_the_old_one_deleted(harness: Harness) -> None:
    game = await harness.start_game(2)
    first = harness.table_message(game)
    await harness.play_move(game)
    second = harness.table_message(game)
    assert second.id != first.id
    public = harness.public_messages()
    assert first.id not in [m.id for m in public]
    assert public[-1].id == second.id  # the latest message of the channel
    assert second.content.count("<@") == 1 and "your turn" in second.content
    for embed in second.embeds:
        assert "<@" not in (embed.description or "") + str([f.value for f in embed.fields])
    tables = [m for m in public if any(c.startswith("k:hand:") for c in custom_ids(m))]
    assert len(tables) == 1


@pytest.fixture
def bot_config(db_path: Any) -> Config:
    """Computers moving every 0.3 s: faster than the channel may take new messages."""
    return Config(token=None, db_path=db_path, round_pause=0, computer_pause=0.3,
                  hard_budget_ms=5)  # fmt: skip


@pytest.mark.usefixtures("virtual_waits")
async def test_computers_stay_within_the_channel_rate_limit(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    posted: dict[int, list[float]] = collections.defaultdict(list)
    send = discord.PartialMessageable.send

    async def counted(self: discord.PartialMessageable, *args: Any, **kw: Any) -> Any:
        posted[self.id].append(now())
        return await send(self, *args, **kw)

    monkeypatch.setattr(discord.PartialMessageable, "send", counted)
    anna = harness.members[0]
    lobby = await harness.open_lobby(anna)
    for level in ("easy", "normal", "normal"):
        await harness.click(anna, lobby, label=f"Add {level} computer")
    await harness.click(anna, lobby, label="Start")
    game = await harness.game()
    times = posted[harness.channel.id]
    while game.status.active and len(times) <= 2 * MAX_POSTS:
        if game.seats[game.match.round.to_move].is_computer:
            await harness.env.advance_time(0.3)
        else:
            await harness.play_move(game, pace=0.2)
    assert len(times) > MAX_POSTS  # more moves than the window allows posts
    worst = max(sum(1 for t in times if start <= t < start + WINDOW) for start in times)
    assert worst <= MAX_POSTS
    # coalesced: the table shown is the latest state
    await harness.env.advance_time(WINDOW + 1)
    if game.status.active:
        table = harness.table_message(game)
        assert f"k:hand:{game.id}:{game.version}" in custom_ids(table)
