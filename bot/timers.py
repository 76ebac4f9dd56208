"""Per-game deadlines (turn reminders, automatic moves, the pause between rounds).

Deadlines are stored with the game, so they survive restarts: on start the bot schedules
every stored deadline again (one query; one wake-up per process, see :class:`Timers`).
The handler gets the game id and the deadline it was scheduled for, and checks that it is
still the game's current one.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import math
from collections.abc import Awaitable, Callable

import discord

log = logging.getLogger(__name__)

CLOCK_SLACK = 0.001  # a wake-up this close to a deadline counts as reaching it
# a heap this long with more stale entries than live ones is rebuilt (see Timers._compact)
COMPACT_AT = 64
Handler = Callable[[int, float], Awaitable[None]]


def now() -> float:
    """Seconds since the epoch, following Discord's clock (virtual under SimCord)."""
    return discord.utils.utcnow().timestamp()


# The bot's deliberate waits (a game's deadline, a channel's or a thread's budget) go
# through the two functions below, looked up when called, so that a test can put them on
# SimCord's virtual clock alone (tests/bot/conftest.py, ``virtual_waits``).


def call_later(delay: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
    """Call ``callback`` on the running loop after ``delay`` seconds."""
    return asyncio.get_running_loop().call_later(delay, callback)


async def pause(seconds: float) -> None:
    """Wait ``seconds`` on purpose (pacing), not for an answer."""
    await asyncio.sleep(seconds)


class Timers:
    """Keeps one deadline per game and calls ``handler`` when a deadline passes.

    A single :func:`call_later` handle waits for the earliest deadline of all games, so
    thousands of waiting games cost one scheduled wake-up, not a task each. The deadlines
    are kept in a heap with lazy invalidation: the dict ``_deadlines`` is the truth, and a
    heap entry counts only while it still matches it (a moved or cancelled deadline leaves
    its old entry behind, skipped when it reaches the top). Scheduling and cancelling cost
    O(log n); a wake-up pops only the due entries. Moving a game's deadline later (the
    usual case after every move) costs a heap push, not a new timer handle. When the
    handle fires, every due game's handler runs in its own task.
    """

    def __init__(self, handler: Handler) -> None:
        self._handler = handler
        self._deadlines: dict[int, float] = {}
        self._heap: list[tuple[float, int]] = []  # (deadline, game id), some stale
        self._handle: asyncio.TimerHandle | None = None
        self._handle_at = math.inf
        self._running: set[asyncio.Task[None]] = set()

    def schedule(self, game_id: int, deadline: float | None) -> None:
        """Set (or with ``None`` clear) the game's deadline."""
        if deadline is None:
            self.cancel(game_id)
            return
        if self._deadlines.get(game_id) == deadline:
            return  # already waiting for exactly this
        self._deadlines[game_id] = deadline
        heapq.heappush(self._heap, (deadline, game_id))
        self._compact()
        self._arm()

    def cancel(self, game_id: int) -> None:
        """Forget the game's deadline (a handler already running finishes)."""
        self._deadlines.pop(game_id, None)

    def pending(self, game_id: int) -> bool:
        """Whether a deadline is waiting for this game."""
        return game_id in self._deadlines

    def count(self) -> int:
        """How many games have a deadline waiting."""
        return len(self._deadlines)

    def cancel_all(self) -> None:
        """Forget every deadline and stop waiting (on shutdown)."""
        self._deadlines.clear()
        self._heap.clear()
        if self._handle is not None:
            self._handle.cancel()
        self._handle, self._handle_at = None, math.inf

    def _current(self, entry: tuple[float, int]) -> bool:
        """Whether a heap entry is still its game's deadline."""
        at, game_id = entry
        return self._deadlines.get(game_id) == at

    def _compact(self) -> None:
        """Rebuild the heap from the truth once stale entries outnumber live ones (games
        cancelled days before their deadline would otherwise stay until then): O(n),
        once every n changes at most."""
        if len(self._heap) > COMPACT_AT and len(self._heap) > 2 * len(self._deadlines):
            self._heap = [(at, game_id) for game_id, at in self._deadlines.items()]
            heapq.heapify(self._heap)

    def _earliest(self) -> float:
        """The earliest live deadline (stale entries on top are dropped on the way)."""
        heap = self._heap
        while heap and not self._current(heap[0]):
            heapq.heappop(heap)
        return heap[0][0] if heap else math.inf

    def _arm(self) -> None:
        earliest = self._earliest()
        if earliest == math.inf:
            return
        if self._handle is not None and self._handle_at <= earliest:
            return  # the pending wake-up comes first anyway
        if self._handle is not None:
            self._handle.cancel()
        self._handle = call_later(max(earliest - now(), 0.0), self._fire)
        self._handle_at = earliest

    def _fire(self) -> None:
        self._handle, self._handle_at = None, math.inf
        moment = now() + CLOCK_SLACK
        heap = self._heap
        loop = asyncio.get_running_loop()
        while heap and heap[0][0] <= moment:
            entry = heapq.heappop(heap)
            if not self._current(entry):
                continue  # moved or cancelled since it was pushed
            deadline, game_id = entry
            del self._deadlines[game_id]
            task = loop.create_task(self._run(game_id, deadline), name=f"kasino-timer-{game_id}")
            self._running.add(task)
            task.add_done_callback(self._running.discard)
        self._arm()

    async def _run(self, game_id: int, deadline: float) -> None:
        try:
            await self._handler(game_id, deadline)
        except Exception:
            log.exception("timer for game %s failed", game_id)
