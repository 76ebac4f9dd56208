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


class _Started(Exception):
    """What the stand-in for ``simcord.run`` raises: the preview got that far."""


def test_the_preview_draws_the_faces_before_simcord_starts(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """The faces are drawn before SimCord runs the bot: drawn by the bot's first start,
    they counted as its work, and the preview's set-up, which waits 5 s of wall clock for
    that to settle, failed on a busy machine ("bot did not settle")."""
    import bot.preview
    from bot.card_emojis import wanted_names

    seen: list[int] = []

    def run(*args: Any, **kwargs: Any) -> Any:
        seen.append(wanted_names.cache_info().currsize)
        raise _Started

    wanted_names.cache_clear()  # the session drew them for the tests (the pictures stay)
    monkeypatch.setattr(simcord, "run", run)
    config = Config(token=None, db_path=tmp_path / "kasino.db")
    try:
        asyncio.run(bot.preview.run_preview(config))
    except _Started:
        pass
    finally:
        wanted_names()
    assert seen == [1]


def test_a_bot_that_did_not_settle_is_not_blamed_on_the_port(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """A TimeoutError is an OSError in Python: "cannot start the preview on port …,
    choose another --port" was said for a bot that did not settle, which no port fixes."""
    import bot.__main__
    import bot.preview

    async def not_settled(*args: Any, **kwargs: Any) -> None:
        raise TimeoutError("bot did not settle (timeout=5s)")

    monkeypatch.setattr(bot.preview, "run_preview", not_settled)
    config = Config(token=None, db_path=tmp_path / "kasino.db")
    try:
        code = bot.__main__._preview(config, port=8123)
    except TimeoutError:
        return
    raise AssertionError(f"the port was blamed (exit code {code})")
