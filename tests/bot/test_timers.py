"""bot.timers.Timers on a fake clock: one wake-up for every game, a heap of deadlines whose
due games at any moment are those of a plain dict of deadlines (checked by hypothesis)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from bot import timers
from bot.timers import CLOCK_SLACK, Timers


@dataclass
class FakeHandle:
    """What ``call_later`` returns: cancellable."""

    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class FakeClock:
    """A clock and a queue of wake-ups, run in time order as an event loop would."""

    at: float = 1_000.0
    queue: list[tuple[float, int, FakeHandle, Callable[[], None]]] = field(default_factory=list)
    handles: int = 0  # how many wake-ups were ever asked for
    _order: Iterator[int] = field(default_factory=itertools.count)

    def now(self) -> float:
        return self.at

    def call_later(self, delay: float, callback: Callable[[], None]) -> FakeHandle:
        handle = FakeHandle()
        self.handles += 1
        heapq.heappush(self.queue, (self.at + delay, next(self._order), handle, callback))
        return handle

    def waiting(self) -> int:
        """Wake-ups asked for and neither run nor cancelled."""
        return sum(1 for _, _, handle, _ in self.queue if not handle.cancelled)

    async def advance(self, seconds: float) -> None:
        """Run every wake-up due within ``seconds``, each at its own moment, then let the
        handlers' tasks run."""
        end = self.at + seconds
        while self.queue and self.queue[0][0] <= end:
            when, _, handle, callback = heapq.heappop(self.queue)
            if handle.cancelled:
                continue
            self.at = max(self.at, when)
            callback()
        self.at = end
        for _ in range(3):
            await asyncio.sleep(0)


@contextmanager
def fake_clock() -> Iterator[FakeClock]:
    clock = FakeClock()
    with (
        mock.patch.object(timers, "now", clock.now),
        mock.patch.object(timers, "call_later", clock.call_later),
    ):
        yield clock


class Fired:
    """A handler that remembers what it was called with."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, float]] = []

    async def __call__(self, game_id: int, deadline: float) -> None:
        self.calls.append((game_id, deadline))


async def test_thousands_of_games_one_wake_up_and_each_fires_once() -> None:
    fired = Fired()
    with fake_clock() as clock:
        timers_ = Timers(fired)
        for game in range(5_000):
            timers_.schedule(game, clock.at + 60 + game)  # the latest first, later ones after
        assert clock.waiting() == 1 and clock.handles == 1
        assert all(timers_.pending(game) for game in range(5_000)) and timers_.count() == 5_000
        await clock.advance(60 + 99.5)  # games 0..99 are due
        assert sorted(g for g, _ in fired.calls) == list(range(100))
        assert not timers_.pending(99) and timers_.pending(100)
        assert clock.waiting() == 1  # still one wake-up, now for game 100
        timers_.cancel_all()
        assert clock.waiting() == 0 and timers_.count() == 0


async def test_a_deadline_moved_later_costs_no_new_wake_up() -> None:
    fired = Fired()
    with fake_clock() as clock:
        timers_ = Timers(fired)
        timers_.schedule(1, clock.at + 10)
        timers_.schedule(2, clock.at + 50)
        assert clock.handles == 1
        for step in range(1, 20):  # every move moves game 1's deadline later
            timers_.schedule(1, clock.at + 10 + step)
        assert clock.handles == 1
        timers_.schedule(2, clock.at + 5)  # an earlier one: a new wake-up, the old cancelled
        assert clock.handles == 2 and clock.waiting() == 1
        await clock.advance(5)
        assert fired.calls == [(2, clock.at)]
        await clock.advance(24)
        assert fired.calls[1:] == [(1, clock.at)]


async def test_cancelled_and_moved_games_do_not_fire_and_the_heap_stays_small() -> None:
    fired = Fired()
    with fake_clock() as clock:
        timers_ = Timers(fired)
        start = clock.at
        for game in range(1_000):
            timers_.schedule(game, start + 3 * 86_400)
        for game in range(1_000):
            timers_.cancel(game)  # games that ended days before their deadline
            timers_.schedule(game + 10_000, start + 3 * 86_400 + game)
            timers_.schedule(game + 10_000, None)
        timers_.schedule(7, start + 60)
        # stale entries are dropped long before their moment
        assert len(timers_._heap) <= 2 * 64 + 2
        await clock.advance(4 * 86_400)
        assert fired.calls == [(7, start + 60)]


async def test_a_failing_handler_does_not_stop_the_others() -> None:
    seen: list[int] = []

    async def handler(game_id: int, deadline: float) -> None:
        seen.append(game_id)
        if game_id == 1:
            raise RuntimeError("boom")

    with fake_clock() as clock:
        timers_ = Timers(handler)
        for game in (1, 2, 3):
            timers_.schedule(game, clock.at + 1)
        await clock.advance(1)
        assert sorted(seen) == [1, 2, 3]


# one step of the property: (kind, game, seconds)
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("schedule"), st.integers(0, 7), st.integers(0, 40).map(lambda s: s / 4)),
        st.tuples(st.just("clear"), st.integers(0, 7), st.just(0.0)),
        st.tuples(st.just("cancel"), st.integers(0, 7), st.just(0.0)),
        st.tuples(st.just("advance"), st.just(0), st.integers(0, 24).map(lambda s: s / 4)),
    ),
    max_size=80,
)


@settings(max_examples=300, deadline=None)
@given(steps=STEPS)
def test_due_games_are_those_of_a_plain_dict(steps: list[tuple[str, int, float]]) -> None:
    """Whatever the order of schedules, moves, cancels and waits, the games that fire (and
    with which deadline), and those still pending, are a naive dict's, and there is never
    more than one wake-up waiting."""
    asyncio.run(_run_steps(steps))


async def _run_steps(steps: list[tuple[str, int, float]]) -> None:
    fired = Fired()
    reference: dict[int, float] = {}
    expected: list[tuple[int, float]] = []
    with fake_clock() as clock:
        timers_ = Timers(fired)
        for kind, game, seconds in steps:
            if kind == "schedule":
                timers_.schedule(game, clock.at + seconds)
                reference[game] = clock.at + seconds
            elif kind == "clear":
                timers_.schedule(game, None)
                reference.pop(game, None)
            elif kind == "cancel":
                timers_.cancel(game)
                reference.pop(game, None)
            else:
                await clock.advance(seconds)
                due = {g: at for g, at in reference.items() if at <= clock.at + CLOCK_SLACK}
                for g in due:
                    del reference[g]
                expected.extend(due.items())
            assert sorted(fired.calls) == sorted(expected)
            assert {g for g in range(8) if timers_.pending(g)} == set(reference)
            assert clock.waiting() <= 1
        await clock.advance(100)
        expected.extend(reference.items())
        assert sorted(fired.calls) == sorted(expected)
