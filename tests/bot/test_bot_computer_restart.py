"""A computer player's turn across a restart, and duplicate wake-ups (a long pause)."""

from __future__ import annotations

import pytest

from bot.client import KasinoBot
from bot.config import Config
from bot.models import Game, Timer
from tests.bot.kasino_harness import Harness

PAUSE = 30.0


@pytest.fixture
def bot_config(db_path) -> Config:  # type: ignore[no-untyped-def]
    """Computer players wait 30 seconds, so a test can act during their pause."""
    return Config(
        token=None,
        db_path=db_path,
        turn_seconds=300,
        round_pause=0,
        computer_pause=PAUSE,
        hard_budget_ms=10,
    )


async def computer_to_move(harness: Harness, level: str) -> Game:
    """Anna against one computer, started, and played up to the computer's turn."""
    anna = harness.members[0]
    lobby = await harness.open_lobby(anna)
    await harness.click(anna, lobby, label=f"Add {level} computer")
    await harness.click(anna, lobby, label="Start")
    game = await harness.game()
    if not game.seats[game.match.round.to_move].is_computer:
        await harness.play_move(game)
    assert game.timer is Timer.COMPUTER
    return game


async def test_restart_resumes_a_computers_turn(harness: Harness, bot_config: Config) -> None:
    game = await computer_to_move(harness, "hard")
    version = game.version
    assert "thinking" in harness.public_messages()[-1].content
    await harness.env.advance_time(PAUSE / 2)
    await harness.restart(KasinoBot(bot_config, seed=7))
    reloaded = await harness.game()
    assert reloaded.version == version and reloaded.timer is Timer.COMPUTER
    await harness.env.advance_time(PAUSE / 2)  # the stored deadline passes
    assert reloaded.version == version + 1 and reloaded.timer is Timer.REMIND
    assert reloaded.last_move.startswith("🤖 Hard bot")
    assert (
        harness.member(reloaded.seats[0].user_id).mention in harness.public_messages()[-1].content
    )


async def test_a_duplicate_computer_wake_up_changes_nothing(harness: Harness) -> None:
    game = await computer_to_move(harness, "normal")
    deadline, version = game.deadline, game.version
    await harness.env.advance_time(PAUSE)
    assert game.version == version + 1 and game.timer is Timer.REMIND
    storage = harness.cog.games.storage
    moves = await storage.move_count(game.id)
    await harness.cog.on_deadline(game.id, deadline)  # the same deadline, again
    assert game.version == version + 1 and await storage.move_count(game.id) == moves
