"""Correspondence games (issue 43): a pace of days a move, the turn's notice, its warning
and the loss on time, over virtual days."""

from __future__ import annotations

import pytest

from bot.models import PACES, Status, Timer
from tests.bot.kasino_harness import Harness

DAY = PACES["1d"]
HOUR = 3600


def mentions_of(harness: Harness, user_id: int) -> list[str]:
    """Every public message's content that pings this person."""
    return [
        m.content for m in harness.public_messages() if m.content and f"<@{user_id}>" in m.content
    ]


@pytest.mark.usefixtures("virtual_waits")
async def test_a_day_a_move_warns_then_loses_on_time(harness: Harness) -> None:
    """The table pings the person to move once (their notice) and says until when they
    have; a quarter of the day before the end a warning mentions them; at the end they
    lose the match, rated as any loss."""
    game = await harness.start_game(pace="1d")
    assert game.options.correspondence and game.options.move_seconds == DAY
    mover = game.seats[game.match.round.to_move]
    clock = game.extra["clock"]
    assert clock["noticed"] and game.timer is Timer.WARN
    assert clock["ends"] - clock["warn"] == DAY / 4
    table = harness.table_message(game)
    assert f"<@{mover.user_id}>, your turn" in table.content
    assert f"<t:{int(clock['ends'])}:R>" in str(table.embeds[0].to_dict())
    assert "1 day a move" in str(table.embeds[0].to_dict())
    pinged = len(mentions_of(harness, int(mover.user_id)))
    await harness.env.advance_time(DAY * 3 / 4 - HOUR)
    assert len(mentions_of(harness, int(mover.user_id))) == pinged  # nothing more yet
    await harness.env.advance_time(2 * HOUR)
    warned = mentions_of(harness, int(mover.user_id))
    assert len(warned) == pinged + 1 and "runs out" in warned[-1]
    assert game.timer is Timer.LATE and game.extra["clock"]["warned"]
    await harness.env.advance_time(DAY / 4)
    stored = await harness.cog.games.storage.get_game(game.id)
    assert stored.status is Status.ABANDONED
    late = stored.extra["lost_on_time"]
    assert stored.seats[late].user_id == mover.user_id
    assert any("ran out of time" in (m.content or "") for m in harness.public_messages())
    rows = await harness.cog.games.storage.fetch(
        "SELECT user_id, won FROM results WHERE game_id = ?", [game.id]
    )
    assert {int(u): bool(w) for u, w in rows} == {
        int(s.user_id): s.user_id != mover.user_id for s in game.seats
    }


@pytest.mark.usefixtures("virtual_waits")
async def test_a_move_starts_the_next_turn_with_a_whole_day(harness: Harness) -> None:
    game = await harness.start_game(pace="12h")
    await harness.env.advance_time(5 * HOUR)
    await harness.play_move(game, pace=0)
    clock = game.extra["clock"]
    assert clock["ends"] - harness.env.now().timestamp() == pytest.approx(PACES["12h"], abs=1)
    assert not clock.get("warned")
    mover = game.seats[game.match.round.to_move]
    assert f"<@{mover.user_id}>, your turn" in harness.table_message(game).content
