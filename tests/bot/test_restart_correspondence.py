"""A restart with thousands of waiting correspondence games: every deadline is scheduled
again from the database (one query, one wake-up), the one that falls due acts, and
nothing is shown for the others."""

from __future__ import annotations

import asyncio
import copy

from bot.client import KasinoBot
from bot.config import Config
from bot.correspondence.clock import next_step, turn_clock
from bot.models import Game, GameOptions, Seat, Status, Timer
from bot.storage.base import game_steps
from bot.timers import now
from tests.bot.kasino_harness import Harness

WAITING = 3_000  # correspondence games elsewhere, each in a channel of its own
SERVERS = 500
DAY = 86_400.0


def waiting(game: Game, started: float) -> Game:
    """The game with its mover's turn started at ``started`` and already told (the turn's
    notice sent): its deadline is the warning's (:mod:`bot.correspondence.clock`)."""
    clock = {**turn_clock(started, game.options.move_seconds), "noticed": True}
    game.extra = {**game.extra, "clock": clock}
    game.deadline, game.timer = next_step(clock, started)
    return game


def waiting_games(template: Game, at: float) -> list[Game]:
    """Copies of a dealt match in other servers' channels (not on this Discord), their
    tables long posted, their turns' warnings spread over the next two days."""
    games = []
    for n in range(WAITING):
        game = copy.copy(template)  # the match is shared: only the row's columns differ
        game.guild_id = 1_000_000_000_000_000 + (n % SERVERS) * (1 << 22)
        game.channel_id = 2_000_000_000_000_000 + n
        game.message_id = 3_000_000_000_000_000 + n  # its table, posted before the restart
        games.append(waiting(game, at + n * 50.0))
    return games


async def test_restart_with_thousands_of_waiting_games(
    harness: Harness, bot_config: Config, virtual_waits: None
) -> None:
    service = harness.cog.games
    storage = service.storage
    at = now()
    seats = [Seat(m.id, m.name) for m in harness.members[:2]]
    pace = GameOptions(pace="1d")
    # the game in this channel, its warning due in a minute; its table is posted at the
    # restart (it had none kept)
    ours = service.dealt_table(harness.guild.id, harness.channel.id, seats, pace, at=at)
    waiting(ours, at + 60.0 - 0.75 * ours.options.move_seconds)
    assert ours.deadline == at + 60.0 and ours.timer is Timer.WARN
    others = service.dealt_table(1, 1, [Seat(1, "a"), Seat(2, "b")], pace, at=at)
    steps = [step for game in [ours, *waiting_games(others, at)] for step in game_steps(game, at)]
    await storage.write(steps)  # one transaction: cheap, and the same rows a save writes
    rows = await storage.fetch("SELECT id, version, deadline FROM games ORDER BY id")
    assert len(rows) == WAITING + 1
    ours_id = int(rows[0][0])
    before = {int(gid): (int(version), float(deadline)) for gid, version, deadline in rows[1:]}

    bot = KasinoBot(bot_config, seed=7)
    await harness.restart(bot)
    timers, storage = harness.cog.timers, harness.cog.games.storage
    assert timers.count() == WAITING + 1
    assert all(timers.pending(gid) for gid in before) and timers.pending(ours_id)
    assert len(timers._heap) == WAITING + 1  # one entry each
    assert len(wake_ups()) == 1  # and one wake-up for them all, not a task a game
    shown = {m.id for m in harness.public_messages()}
    assert shown  # the table of the game here, which had none kept

    await harness.env.advance_time(61.0)
    game = await harness.game()
    assert game is not None and game.id == ours_id and game.status is Status.PLAYING
    assert game.deadline != ours.deadline  # its deadline passed and was acted on
    assert game.timer is Timer.LATE and game.extra["clock"]["warned"]
    assert {m.id for m in harness.public_messages()} - shown  # and said so here
    assert not timers.pending(ours_id) or game.deadline > at + 60.0

    # the others: untouched, still waiting, nothing queued to show anywhere
    rows = await storage.fetch("SELECT id, version, deadline FROM games WHERE id <> ?", (ours_id,))
    assert {int(gid): (int(v), float(d)) for gid, v, d in rows} == before
    assert all(timers.pending(gid) for gid in before)
    assert await storage.fetch("SELECT id FROM outbox") == []
    assert len(wake_ups()) == 1


def wake_ups() -> list[asyncio.Task[object]]:
    """The bot's scheduled wake-ups (``virtual_waits`` makes each a task of this name)."""
    return [
        task
        for task in asyncio.all_tasks()
        if task.get_name() == "kasino-deadline" and not task.done()
    ]
