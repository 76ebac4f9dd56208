"""A seeded search never reads the clock; an unseeded one also stops on it (issue 32).

A seeded move must be the same on any machine, however loaded: ``hard`` with a seed is
bounded by counted work alone. Until issue 32 it also had a wall-clock safety stop, and
under heavy load that stop cut the search short and changed the move. Here every clock of
the ``time`` module raises while seeded searches run, in every kind of search (a hand
being played, the exact end of a round with two and with more players, Krypkasino, the
building games), and the moves must be the ones found with the clock in place.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.ai import choose_move, hard, hint
from bot.ai.stop import Stop
from bot.ai.view import SeatView
from bot.engine import Round

from ..engine.worst import at_most_calls
from .conftest import TINY, building_positions, random_positions

CLOCKS = [
    f"{name}{ns}"
    for name in ("perf_counter", "monotonic", "time", "process_time", "thread_time")
    for ns in ("", "_ns")
]
SETUPS = [
    ("swedish", 2, False),
    ("finnish", 3, False),
    ("mulle", 4, True),
    ("krypkasino", 4, False),
]
BUILDING = [("casino", 2, False), ("swazi", 2, False)]


class ClockRead(AssertionError):
    """A clock was read where none may be."""


@contextmanager
def no_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every clock of the ``time`` module raises :class:`ClockRead` inside."""

    def refuse(*args: object) -> float:
        raise ClockRead("a seeded search read the clock")

    with monkeypatch.context() as patch:
        for name in CLOCKS:
            patch.setattr(time, name, refuse)
        yield


def positions() -> Iterator[Round]:
    """Positions of every kind of search, the deck's last cards and the end included."""
    for setup in SETUPS:
        yield from random_positions(setup, seed=4, every=3)
    for setup in BUILDING:
        yield from building_positions(setup, seed=4, every=6)


def test_a_seeded_search_never_reads_the_clock(monkeypatch):
    found = [
        (r.copy(), choose_move(r, r.to_move, "hard", seed=2, budget_ms=TINY)) for r in positions()
    ]
    assert sum(not r.deck for r, _ in found) > 10  # the exact end of rounds is searched
    with no_clock(monkeypatch):
        for round_, move in found:
            assert choose_move(round_, round_.to_move, "hard", seed=2, budget_ms=TINY) == move
        round_, move = found[0]
        assert hint(round_, round_.to_move, seed=2, budget_ms=TINY)[0] == move


def test_the_guard_catches_a_search_that_reads_the_clock(monkeypatch):
    """Without a seed the search does look at the clock, and the guard sees it."""
    round_ = next(random_positions(SETUPS[0], seed=4))
    with no_clock(monkeypatch), pytest.raises(ClockRead):
        choose_move(round_, round_.to_move, "hard", budget_ms=TINY)


def test_a_seed_gets_a_counted_stop_and_no_seed_a_timed_one():
    assert not Stop.of(10, seeded=True).is_timed
    assert Stop.of(10, seeded=True) == Stop.counted(10)
    assert Stop.of(10, seeded=False).is_timed
    assert not Stop.counted(10).out_of_time()
    assert Stop.timed(10, seconds=0).out_of_time()


@pytest.mark.parametrize("setup", [("swedish", 2, False), ("finnish", 4, False)])
def test_an_unseeded_search_stops_on_the_clock(setup):
    """Ten seconds of counted work asked, none of time: at most a world is searched,
    in play and in the exact end of a round (the building games: test_builds)."""
    rounds = [r.copy() for r in random_positions(setup, seed=6)]
    for round_ in (rounds[0], next(r for r in rounds if not r.deck and len(r.table) > 1)):
        view = SeatView.of(round_, round_.to_move)
        with at_most_calls(150_000):
            move = hard.choose(view, random.Random(1), Stop.timed(10_000, seconds=0))
        assert round_.is_legal(move)
