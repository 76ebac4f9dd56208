"""Per-game deadlines (turn reminders, automatic moves, the pause between rounds).

Deadlines are stored with the game, so they survive restarts: on start the bot schedules
every stored deadline again. Each game has at most one pending timer, an asyncio task
that sleeps until the deadline and then calls the handler with the game id and the
deadline it was scheduled for (the handler checks it is still current).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

log = logging.getLogger(__name__)

Handler = Callable[[int, float], Awaitable[None]]


def now() -> float:
    """Seconds since the epoch, following Discord's clock (virtual under SimCord)."""
    return discord.utils.utcnow().timestamp()


class Timers:
    """Schedules at most one deadline per game and calls ``handler`` when it passes.

    A pending deadline is a ``loop.call_later`` handle (no task sleeps meanwhile); when
    it fires, the handler runs in a new task.
    """

    def __init__(self, handler: Handler) -> None:
        self._handler = handler
        self._handles: dict[int, asyncio.TimerHandle] = {}
        self._running: set[asyncio.Task[None]] = set()

    def schedule(self, game_id: int, deadline: float | None) -> None:
        """Replace the game's pending timer with one for ``deadline`` (``None``: cancel)."""
        self.cancel(game_id)
        if deadline is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(deadline - now(), 0.0)
        self._handles[game_id] = loop.call_later(delay, self._fire, game_id, deadline)

    def cancel(self, game_id: int) -> None:
        """Forget the game's pending timer, if any (a handler already running finishes)."""
        handle = self._handles.pop(game_id, None)
        if handle is not None:
            handle.cancel()

    def pending(self, game_id: int) -> bool:
        """Whether a timer is waiting for this game."""
        return game_id in self._handles

    def cancel_all(self) -> None:
        """Cancel every pending timer (on shutdown)."""
        for game_id in list(self._handles):
            self.cancel(game_id)

    def _fire(self, game_id: int, deadline: float) -> None:
        self._handles.pop(game_id, None)
        task = asyncio.get_running_loop().create_task(
            self._run(game_id, deadline), name=f"kasino-timer-{game_id}"
        )
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _run(self, game_id: int, deadline: float) -> None:
        try:
            await self._handler(game_id, deadline)
        except Exception:
            log.exception("timer for game %s failed", game_id)
