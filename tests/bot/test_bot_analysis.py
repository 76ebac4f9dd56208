"""Analyse my moves through SimCord (issue 31), on both databases: a player's analysis
of a finished match arrives privately, is computed once (stored: a second press and a
restart read it back), and its pages turn; anyone else's, forged or stale buttons are
refused with nothing changed. The first test runs the real analysis end to end in the
pool's worker process; the others hand the pool a quick review (``quick_review``)."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.analysis import ANALYSIS_VERSION, MoveReview, moves_to_analyse
from bot.client import KasinoBot
from bot.config import Config
from bot.i18n import languages
from bot.records.record import GameRecord
from cogs.common import NOT_MINE
from cogs.learning.analysis import FORGOTTEN, NOT_A_PLAYER
from tests.bot.kasino_harness import WAITS_ON_WORKERS, Harness, cid, custom_ids
from tests.bot.test_bot_computers import computer_lobby, play_against_computers
from tests.bot.test_forget import forgotten_elsewhere
from tests.dbrows import query

pytestmark = WAITS_ON_WORKERS


def quick_review(
    record: GameRecord, step: int, seat: int, budget_ms: float | None = None
) -> MoveReview:
    """A review without search (in the worker process): the played move, as best."""
    move = record.moves[step - 1]
    assert move.seat == seat
    reasons = dict.fromkeys(languages(), "It was the move.")
    return MoveReview(step, move.round, move.move, move.move, 0.0, "best", reasons)


async def finished_against_computer(harness: Harness) -> Any:
    """Anna against an easy computer, Swedish Kasino to 5; the end message."""
    lobby = await computer_lobby(harness, "easy", target=5)
    anna = harness.members[0]
    result = await harness.click(anna, harness.current(lobby), label="Start")
    assert result.acknowledged
    game = await harness.game()
    assert game is not None
    await play_against_computers(harness, game)
    return game


def stored(db_path: Path | str, game_id: int) -> list[dict[str, Any]]:
    return query(db_path, "SELECT seat, version FROM analyses WHERE game_id = ?", (game_id,))


async def test_real_analysis_is_private_stored_once_and_survives_a_restart(
    harness: Harness, db_path: Path | str, bot_config: Config
) -> None:
    anna, bjorn = harness.members[:2]
    game = await finished_against_computer(harness)
    end = harness.table_message(game)
    analyse = cid(end, "k:analyse:")
    # someone who did not play: refused, privately, nothing started or stored
    refused = await harness.click(bjorn, end, custom_id=analyse)
    assert refused.ephemeral
    assert refused.response.content == NOT_A_PLAYER.format(id=game.id)
    assert harness.env.bot.analysis_pool is None and not stored(db_path, game.id)
    # the player: a private message that becomes the summary once every move is reviewed
    asked = await harness.click(anna, end, custom_id=analyse)
    assert asked.ephemeral
    await harness.env.settle()
    summary = asked.response
    assert summary.flags.ephemeral
    record = await harness.cog.records.record(game.id, harness.guild.id)
    seat = next(i for i, s in enumerate(game.seats) if s.user_id == anna.id)
    moves = len(moves_to_analyse(record, seat))
    assert f"{moves} moves analysed" in summary.embeds[0].description
    assert stored(db_path, game.id) == [{"seat": seat, "version": ANALYSIS_VERSION}]
    # a move's page, and its replay at that step
    start = f"k:review:{game.id}:{seat}:1:next"
    assert start in custom_ids(summary)
    page = await harness.click(anna, summary, custom_id=start)
    first = asked.response  # edited in place
    assert "move 1 of" in first.embeds[0].title
    assert any(c.startswith(f"k:replay:{game.id}:") for c in custom_ids(first)), page
    # another member sending the page's button (as a tampered client could): refused
    other = await harness.forge(bjorn, first, f"k:review:{game.id}:{seat}:2:next", doctor=False)
    assert other.ephemeral and other.response.content == NOT_MINE
    # the restart keeps it: the second press reads the store (no pool is even started)
    await harness.restart(KasinoBot(bot_config, seed=20240607))
    again = await harness.click(anna, harness.current(end), custom_id=analyse)
    assert again.ephemeral and f"{moves} moves analysed" in again.response.embeds[0].description
    assert harness.env.bot.analysis_pool is None
    assert len(stored(db_path, game.id)) == 1


async def test_forged_and_stale_analysis_buttons_change_nothing(
    harness: Harness, db_path: Path | str
) -> None:
    anna = harness.members[0]
    harness.env.bot.analysis_review = quick_review
    game = await finished_against_computer(harness)
    end = harness.table_message(game)
    computer = next(i for i, s in enumerate(game.seats) if s.is_computer)
    mine = next(i for i, s in enumerate(game.seats) if s.user_id == anna.id)
    # a page before any analysis is stored, a seat that is not hers, a page out of range
    for forged in (
        f"k:review:{game.id}:{mine}:0:summary",
        f"k:review:{game.id}:{computer}:1:next",
        f"k:review:{game.id}:{mine}:99:next",
        f"k:review:{game.id}:{mine}:1:sideways",
        f"k:analyse:{game.id}:1",
        "k:analyse:0",
    ):
        result = await harness.forge(anna, end, forged)
        assert result.ephemeral, forged
    assert not stored(db_path, game.id)
    # two presses at once: one analysis (joined), stored once, both messages show it
    pool_calls: list[object] = []
    made = harness.env.bot.analyses()
    submit = made.submit
    made.submit = lambda *args, **kw: pool_calls.append(args) or submit(*args, **kw)
    data = {"custom_id": cid(end, "k:analyse:"), "component_type": 2}
    records = harness.emit_component(anna, end, data, times=2)
    await harness.env.settle()
    assert len(pool_calls) == 1
    for record in records:
        asked = simcord.InteractionResult(harness.env, record)
        assert asked.ephemeral
        assert "moves analysed" in asked.response.embeds[0].description
    assert len(stored(db_path, game.id)) == 1
    # forgetting her deletes her analysis (it is about how she played)
    asked = await harness.slash(anna, "kasino forget-me")
    yes = next(c for c in custom_ids(asked.response) if c.endswith(":yes"))
    done = await harness.click(anna, asked.response, custom_id=yes)
    assert "Done" in done.response.content
    assert not stored(db_path, game.id)


GATE = "KASINO_TEST_ANALYSIS_GATE"


def gated_review(
    record: GameRecord, step: int, seat: int, budget_ms: float | None = None
) -> MoveReview:
    """:func:`quick_review`, once the file named by ``$KASINO_TEST_ANALYSIS_GATE`` exists
    (the test holds the analysis running while it forgets the player)."""
    gate = Path(os.environ[GATE])
    for _ in range(600):  # at most a minute: a test that fails must not hang the worker
        if gate.exists():
            break
        time.sleep(0.1)
    return quick_review(record, step, seat, budget_ms)


async def running_analysis(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, gate: Path
) -> tuple[Any, Any, asyncio.Task[Any]]:
    """Anna's finished match and her analysis held running (its first move in the worker):
    the game, her private progress message and the analysis's task."""
    monkeypatch.setenv(GATE, str(gate))  # before the worker starts: it inherits it
    harness.env.bot.analysis_review = gated_review
    pool = harness.env.bot.analyses()
    submit = pool.submit

    def declared(*args: Any, **kw: Any) -> Any:
        """The pool's future, awaited as an input from outside SimCord (the worker waits
        for the test): commands and clicks settle meanwhile."""
        return harness.env.external_wait(submit(*args, **kw), reason="the held analysis")

    monkeypatch.setattr(pool, "submit", declared)
    game = await finished_against_computer(harness)
    anna, end = harness.members[0], harness.table_message(game)
    # sent without settling: the bot would settle only once the analysis is done
    data = {"custom_id": cid(end, "k:analyse:"), "component_type": 2}
    (record,) = harness.emit_component(anna, end, data)
    flow = harness.cog.analysis
    for _ in range(3000):  # (real time: the worker process starts)
        if harness.env.bot.analysis_pool is not None and flow._computing:
            break
        await asyncio.sleep(0.01)
    asked = simcord.InteractionResult(harness.env, record)
    assert asked.ephemeral
    (key,) = flow._computing
    return game, asked, flow._computing[key]


async def test_forgetting_drops_a_running_analysis_and_stores_nothing_of_it(
    harness: Harness, db_path: Path | str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    anna = harness.members[0]
    gate = tmp_path / "go"
    game, asked, task = await running_analysis(harness, monkeypatch, gate)
    pool = harness.env.bot.analysis_pool
    assert pool is not None and pool.queued == 1
    confirm = await harness.slash(anna, "kasino forget-me")
    yes = next(c for c in custom_ids(confirm.response) if c.endswith(":yes"))
    done = await harness.click(anna, confirm.response, custom_id=yes)
    assert "Done" in done.response.content
    # dropped at once: nothing queued, the move in the worker is thrown away on return
    assert pool.queued == 0 and not harness.cog.analysis._computing
    assert task.done()
    gate.touch()
    assert await asyncio.wait_for(asyncio.shield(task), 60) is None
    await harness.env.settle()
    assert not stored(db_path, game.id)
    assert asked.response.content == FORGOTTEN
    # the pool goes on serving others: nothing of hers is left in it
    assert pool.queued == 0


async def test_an_analysis_ending_after_another_process_forgot_the_player_is_not_stored(
    harness: Harness, db_path: Path | str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A shard that did not run the forget-me still has her analysis running: it ends
    after the forgetting, and its store is refused by the database (the same statement
    checks that she is still a player of the game)."""
    anna = harness.members[0]
    gate = tmp_path / "go"
    game, asked, task = await running_analysis(harness, monkeypatch, gate)
    await forgotten_elsewhere(db_path, anna.id)
    gate.touch()
    assert await asyncio.wait_for(asyncio.shield(task), 60) is None
    await harness.env.settle()
    assert not stored(db_path, game.id)
    assert asked.response.content == FORGOTTEN
