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
    """Schedules at most one deadline per game and calls ``handler`` when it passes."""

    def __init__(self, handler: Handler) -> None:
        self._handler = handler
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def schedule(self, game_id: int, deadline: float | None) -> None:
        """Replace the game's pending timer with one for ``deadline`` (``None``: cancel)."""
        self.cancel(game_id)
        if deadline is None:
            return
        task = asyncio.get_running_loop().create_task(
            self._wait(game_id, deadline), name=f"kasino-timer-{game_id}"
        )
        self._tasks[game_id] = task

    def cancel(self, game_id: int) -> None:
        """Forget the game's pending timer, if any (never cancels the running handler)."""
        task = self._tasks.pop(game_id, None)
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    def pending(self, game_id: int) -> bool:
        """Whether a timer is waiting for this game."""
        task = self._tasks.get(game_id)
        return task is not None and not task.done()

    def cancel_all(self) -> None:
        """Cancel every pending timer (on shutdown)."""
        for game_id in list(self._tasks):
            self.cancel(game_id)

    async def _wait(self, game_id: int, deadline: float) -> None:
        delay = deadline - now()
        if delay > 0:
            await asyncio.sleep(delay)
        if self._tasks.get(game_id) is asyncio.current_task():
            del self._tasks[game_id]
        try:
            await self._handler(game_id, deadline)
        except Exception:
            log.exception("timer for game %s failed", game_id)
