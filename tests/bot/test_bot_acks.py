"""A rolling restart: another process of the same shard answered the interaction first, so
the bot's own answer fails with Discord's 40060 ("Interaction has already been
acknowledged"). For a slash command, a button, a select and a click only the cog's
listener answers, the bot logs one INFO line and counts it, and never a traceback."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from simcord import interactions as sim_interactions

from bot.acks import already_acknowledged, unless_answered_elsewhere
from tests.bot.kasino_harness import Harness, cid


class FakeResponse:
    """What discord.HTTPException reads from an aiohttp response."""

    status = 400
    reason = "Bad Request"


def acknowledged_error() -> discord.HTTPException:
    """The exception discord.py raises for Discord's answer to a second response."""
    body = {"code": 40060, "message": "Interaction has already been acknowledged."}
    return discord.HTTPException(FakeResponse(), body)  # type: ignore[arg-type]


async def _callback(interaction: discord.Interaction) -> None:
    """A command's body (never run)."""


def test_only_40060_counts() -> None:
    error = acknowledged_error()
    assert error.code == 40060 and already_acknowledged(error)
    command = discord.app_commands.Command(name="hand", description="x", callback=_callback)
    wrapped = discord.app_commands.CommandInvokeError(command, error)
    assert already_acknowledged(wrapped)
    other = discord.HTTPException(FakeResponse(), {"code": 50035, "message": "Invalid Form Body"})  # type: ignore[arg-type]
    assert not already_acknowledged(other)
    assert not already_acknowledged(RuntimeError("boom"))
    assert not already_acknowledged(None)


async def test_answered_elsewhere_is_one_info_line(
    harness: Harness, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await harness.start_game(2)
    anna = harness.member(int(game.seats[game.match.round.to_move].user_id))
    table = harness.table_message(game)
    hand = (await harness.open_hand(anna, game)).response
    bot = harness.env.bot
    assert bot.already_acknowledged == 0
    before = game.version

    original = sim_interactions.base_payload

    def answered(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **kwargs)
        record.responded = True  # the other process's answer reached Discord first
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", answered)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await harness.slash(anna, "kasino hand")  # the app-command tree
        await harness.click(anna, table, custom_id=cid(table, "k:hand:"))  # a button
        card = cid(hand, "k:card:")
        await harness.select(anna, hand, ["0"], custom_id=card)  # a select
        # a custom_id no component takes: the cog's on_interaction listener answers it (on
        # the table as it is now: the move was committed, and its new table posted, here)
        await harness.env.settle()
        table = harness.table_message(game)
        await harness.forge(anna, table, card + ":9", ["0"], doctor=False)
        await harness.env.settle()

    noted = [r for r in caplog.records if r.name == "bot.acks" and "already answered" in r.message]
    assert [r.levelno for r in noted] == [logging.INFO] * 4, [r.message for r in noted]
    assert bot.already_acknowledged == 4
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    wheres = " ".join(r.getMessage() for r in noted)
    assert "/kasino hand" in wheres and "k:hand" in wheres and "k:card" in wheres
    # SimCord records every error that reaches the tree's handler (here the slash command's,
    # which the handler noted); none reached a view's or the client's error handler
    assert [already_acknowledged(error) for error in harness.env.errors] == [True]
    # the select was a move in this process too (the other one answered it): it counts
    assert (await harness.game()).version >= before


async def test_other_errors_keep_their_traceback(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    interaction: Any = SimpleNamespace(
        client=harness.env.bot,
        id=1,
        command=None,
        data={"custom_id": "k:hand:1:1"},
        type=discord.InteractionType.component,
    )
    with pytest.raises(RuntimeError), unless_answered_elsewhere(interaction):
        raise RuntimeError("a real bug")
    with unless_answered_elsewhere(interaction):
        raise acknowledged_error()
    assert harness.env.bot.already_acknowledged == 1
