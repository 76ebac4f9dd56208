"""Work whose cost grows with the position, kept off the bot's event loop.

One process serves every game of its shards on one asyncio loop. The menus of a busy table
in the games with builds list and rank tens of thousands of moves (a 16-item Swazi table:
100-500 ms): on the loop, every other table would wait meanwhile. :class:`Menus` runs such
work in a worker thread and keeps what it built per game version, so people opening the
same hand again on a busy table do not build it twice.

Thread safety: a worker only ever reads a *snapshot* of a game, one per game version,
never the live game. The live round is mutated on the loop when a move is played (and its
``_context`` caches the engine's listing), so a worker reading it could see a half-played
move; holding the game's lock while the worker runs would cover the clicks, but not the
hand views that follow a game after the lock is released, nor a click cancelled while its
worker still runs. A snapshot costs a round copy (~0.03 ms) and is shared by every job of
its version, so the engine's listing cache still serves the hand view, the card's menu and
the move it resolves. Jobs run one at a time in a single thread: two never touch one
snapshot together, and pure-Python work gains nothing from more threads (the GIL), while
each extra one would compete with the loop for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from bot.i18n import Lang
from bot.models import Game, Status
from bot.render import CardInk
from bot.turns import building

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_KEPT = 512  # built menus kept (the least recently used go first)
# Snapshots kept: one per game (its latest version), a few games. Each holds its round's
# listing (tens of thousands of moves on a busy table), and every object kept alive makes
# the garbage collector's full passes, which run on whichever thread allocates, longer.
MAX_SNAPSHOTS = 8


def heavy(game: Game, seat: int) -> bool:
    """Whether the seat's menus may cost more than a few milliseconds to build: in a game
    with builds, on the seat's turn (the Nordic games' capture menus are bounded, and a
    hand view off turn lists nothing)."""
    if game.status is not Status.PLAYING or game.match is None or game.extra.get("paused"):
        return False
    rnd = game.match.round
    return building(rnd) and rnd.to_move == seat and bool(rnd.hands[seat])


def ink_key(ink: CardInk) -> Hashable:
    """What tells two inks' menus apart: the ink (a deck), and its faces as they are now
    (uploading them, or replacing some redrawn, changes what the menus show)."""
    return id(ink), ink.version


def view_key(step: str, seat: int, t: Lang, ink: CardInk, *more: Hashable) -> tuple[Hashable, ...]:
    """The key of a menu built for a reader (language and ink) at a step of a seat's turn."""
    return (step, seat, t.code, ink_key(ink), *more)


def snapshot(game: Game) -> Game:
    """A copy of the game a worker may read while the loop moves the live one on: the
    match copied (a move mutates its round), seats and extras copied shallowly (a move
    replaces what they hold rather than changing it, except the seats' counters)."""
    twin = copy.copy(game)
    twin.seats = [copy.copy(seat) for seat in game.seats]
    twin.extra = dict(game.extra)
    twin.outbox = []
    if game.match is not None:
        twin.match = game.match.copy()
    return twin


class Menus:
    """Builds menus in one worker thread from per-version snapshots, and keeps them.

    A job is keyed by the game, its version and ``key`` (what it builds, for whom): a job
    asked for again while it runs, or once it is done, is not run twice. The results are
    shared, so they must not be changed by their users (a view is reissued, see
    :func:`cogs.components.reissue`).
    """

    def __init__(self, kept: int = MAX_KEPT) -> None:
        self._kept = kept
        self._built: OrderedDict[tuple[Hashable, ...], asyncio.Future[Any]] = OrderedDict()
        self._snapshots: OrderedDict[tuple[int, int], Game] = OrderedDict()
        self._executor: ThreadPoolExecutor | None = None

    def start(
        self, game: Game, key: tuple[Hashable, ...], build: Callable[[Game], T]
    ) -> asyncio.Future[T]:
        """``build(snapshot)`` of the game as it is now, in the worker thread; the same
        future for a key already asked for at this version (await it through
        :func:`asyncio.shield`: it is shared)."""
        full = (game.id, game.version, *key)
        found = self._built.get(full)
        if found is not None:
            self._built.move_to_end(full)
            return found
        twin = self._snapshot(game)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.run_in_executor(self._worker(), build, twin)
        self._built[full] = future
        future.add_done_callback(lambda done: self._settled(full, done))
        while len(self._built) > self._kept:
            self._built.popitem(last=False)
        return future

    def close(self) -> None:
        """Stop the worker (jobs not started are dropped) and forget everything."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        self._built.clear()
        self._snapshots.clear()

    def drop_kept(self) -> None:
        """Drop the kept snapshots and menus (someone was forgotten: a finished game's
        snapshot names its players); what is asked for again is built again."""
        self._built.clear()
        self._snapshots.clear()

    def _worker(self) -> ThreadPoolExecutor:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(1, thread_name_prefix="kasino-menus")
        return self._executor

    def _snapshot(self, game: Game) -> Game:
        """The game's snapshot at its version (one per version, so its round's listing
        cache serves every job of that version)."""
        at = (game.id, game.version)
        twin = self._snapshots.get(at)
        if twin is None:
            for older in [key for key in self._snapshots if key[0] == game.id]:
                del self._snapshots[older]
            twin = self._snapshots[at] = snapshot(game)
            while len(self._snapshots) > MAX_SNAPSHOTS:
                self._snapshots.popitem(last=False)
        else:
            self._snapshots.move_to_end(at)
        return twin

    def _settled(self, key: tuple[Hashable, ...], done: asyncio.Future[Any]) -> None:
        """A failed job is not kept (it is tried again when asked again)."""
        failed = done.cancelled() or done.exception() is not None
        if failed and self._built.get(key) is done:
            del self._built[key]


async def ready(future: asyncio.Future[T], grace: float, late: Callable[[], Any]) -> T:
    """The result of a shared ``future``; if it is not ready within ``grace`` seconds of
    wall time, ``await late()`` first (it defers the interaction waiting for it).

    The grace is timed by a thread timer, not the loop's clock: Discord's answer window
    is wall time (under SimCord the loop's clock is virtual and stands still while a
    click is handled)."""
    if not future.done():
        loop = asyncio.get_running_loop()
        alarm: asyncio.Future[None] = loop.create_future()
        timer = threading.Timer(grace, _ring, (loop, alarm))
        timer.daemon = True
        timer.start()
        try:
            await asyncio.wait((future, alarm), return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
            alarm.cancel()
        if not future.done():
            await late()
    return await asyncio.shield(future)


def _ring(loop: asyncio.AbstractEventLoop, alarm: asyncio.Future[None]) -> None:
    def set_alarm() -> None:
        if not alarm.done():
            alarm.set_result(None)

    with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
        loop.call_soon_threadsafe(set_alarm)
