"""The pause between rounds (needs its own bot configuration)."""

from __future__ import annotations

import pytest

from bot.config import Config
from bot.models import Timer
from tests.bot.kasino_harness import Harness, custom_ids


@pytest.fixture
def bot_config(db_path) -> Config:  # type: ignore[no-untyped-def]
    """A 30-second pause between rounds."""
    return Config(token=None, db_path=db_path, turn_seconds=300, round_pause=30)


async def test_pause_between_rounds(harness: Harness) -> None:
    game = await harness.start_game(2)
    while game.match.rounds_played == 0:
        await harness.play_move(game)
    assert game.extra.get("paused") and game.timer is Timer.DEAL
    summaries = [m for m in harness.public_messages() if "over" in (m.embeds[0].title or "")]
    assert "Round 1 is over" in summaries[-1].embeds[0].title
    mover = harness.member(game.seats[game.match.round.to_move].user_id)
    hand = await harness.slash(mover, "kasino hand")
    assert "Round 1 is over" in hand.response.content  # not "being dealt" beside new cards
    assert not any(c.startswith("k:card") for c in custom_ids(hand.response))
    await harness.env.advance_time(30)
    assert not game.extra.get("paused") and game.timer is Timer.REMIND
    assert "Round 2 is dealt" in harness.public_messages()[-1].content
    await harness.play_move(game)
