"""The suite's guard against tests that hang on the machine's speed (``drains_little`` in
``conftest.py``), and the ``virtual_waits`` fixture that cures them."""

from __future__ import annotations

import pytest

from bot.config import Config
from bot.models import Game
from tests.bot.kasino_harness import Harness

PAUSE = 1.5  # two computers' moves: 3 s, over half of SimCord's 5 s settle timeout


@pytest.fixture
def bot_config(db_path) -> Config:  # type: ignore[no-untyped-def]
    """Computers that think for the default 1.5 s."""
    return Config(token=None, db_path=db_path, turn_seconds=300, round_pause=0,
                  computer_pause=PAUSE, hard_budget_ms=10)  # fmt: skip


async def two_computers_start(harness: Harness) -> Game:
    """A person and two computers, the computers to move first."""
    anna = harness.members[0]
    lobby = await harness.open_lobby(anna)
    for _ in range(2):
        await harness.click(anna, lobby, label="Add normal computer")
    await harness.click(anna, lobby, label="Start")
    game = await harness.game()
    assert game is not None
    return game


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_click_that_waits_out_the_computers_is_caught(
    harness: Harness, drains_little: list[tuple[float, float, str]]
) -> None:
    await two_computers_start(harness)
    # Start's click waited (in real time) for both computers' pauses
    assert [(waited, limit) for waited, limit, _ in drains_little] == [
        (pytest.approx(2 * PAUSE, abs=0.01), 2.5)
    ]
    drains_little.clear()  # seen: this test passes


@pytest.mark.parametrize("backend", ["sqlite"])
@pytest.mark.usefixtures("virtual_waits")
async def test_virtual_waits_leave_the_pauses_to_the_test(
    harness: Harness, drains_little: list[tuple[float, float, str]]
) -> None:
    game = await two_computers_start(harness)
    assert game.match.round.to_move == 1 and game.seats[1].is_computer
    await harness.env.advance_time(PAUSE - 0.1)
    assert game.match.round.to_move == 1  # not before its pause is over
    await harness.env.advance_time(0.1)
    assert game.match.round.to_move == 2
    await harness.env.advance_time(PAUSE)
    assert game.match.round.to_move == 0
    assert drains_little == []
