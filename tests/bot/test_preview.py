"""The preview (``python -m bot --preview``) shows what the bot does by itself: a round
ends and the next one is dealt on the page with nobody clicking or refreshing.

SimCord's Preview publishes a page only after the page's own action settled (or a
Refresh); the bot's timers (the pause between rounds, a computer's move) fire later, on
the wall clock. This runs the Preview as ``bot.preview`` does, plays a round to its end
through SimCord, then only waits (real time, as in the browser)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import simcord

from bot.client import KasinoBot
from bot.config import Config
from bot.preview import following
from tests.bot.kasino_harness import Harness

DEALT = "Round 2 is dealt."  # what the channel is told when the pause is over
ROUND_PAUSE = 6.0  # beyond SimCord's settling (5 s): the deal comes after the click settled


def page_text(preview: Any) -> str:
    """What the Preview's page was last given (the snapshot the browser polls)."""
    return json.dumps(preview._python.snapshot)


async def test_the_next_round_comes_without_a_click(tmp_path: Path) -> None:
    config = Config(
        token=None,
        db_path=tmp_path / "kasino.db",
        turn_seconds=300,
        round_pause=ROUND_PAUSE,
        computer_pause=0.1,
        card_faces=False,
    )
    bot = KasinoBot(config, seed=20240607)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            harness = Harness(env)
            async with (
                env.preview(harness.channel, viewers=harness.members, layout="channel") as preview,
                following(env, preview),
            ):
                game = await harness.start_game(2)
                while game.match.rounds_played == 0:
                    await harness.play_move(game)  # 1.5 s of virtual time after each
                assert game.extra.get("paused")  # the pause is running
                assert DEALT not in page_text(preview)
                end = time.monotonic() + ROUND_PAUSE + 15
                while DEALT not in page_text(preview) and time.monotonic() < end:
                    await asyncio.sleep(0.2)  # the browser only polls
                assert DEALT in page_text(preview)
                assert not game.extra.get("paused")
    finally:
        await bot.close_storage()
