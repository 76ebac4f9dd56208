"""The analyses' pool (bot/analysis/pool.py) with a real worker process: moves go
round-robin across the analyses queued, asking again joins, a full queue is refused, a
failing move fails its analysis only, the workers run at the lowest CPU priority, and
closing leaves no process behind."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time

import pytest

from bot.analysis.pool import AnalysisPool, Discarded, PoolBusy, PoolClosed


def echo(record: str, step: int, seat: int, budget_ms: float | None = None) -> tuple[str, int]:
    """A review that names what it was given (in the worker); step 13 fails."""
    if step == 13:
        raise ValueError("unlucky move")
    return record, step


async def test_moves_go_round_robin_and_asking_again_joins() -> None:
    pool = AnalysisPool(echo, workers=1, max_analyses=2)
    order: list[str] = []
    try:
        first = pool.submit("a", "A", 0, [1, 2, 3], lambda done, total: order.append("A"))
        second = pool.submit("b", "B", 1, [10, 20], lambda done, total: order.append("B"))
        joined = pool.submit("a", "ignored", 0, [99])
        assert joined is first and pool.queued == 2
        with pytest.raises(PoolBusy):
            pool.submit("c", "C", 0, [1])
        assert await first == [("A", 1), ("A", 2), ("A", 3)]
        assert await second == [("B", 10), ("B", 20)]
        # A's first move went out alone and A's next queued behind it; then B joined the
        # turn: from there one move each in turn
        assert order == ["A", "A", "B", "A", "B"]
        assert pool.queued == 0 and not pool.running("a")
        # a failing move fails its own analysis; the next one runs as before
        with pytest.raises(ValueError, match="unlucky"):
            await pool.submit("d", "D", 0, [12, 13, 14])
        assert await pool.submit("e", "E", 0, [5]) == [("E", 5)]
    finally:
        await pool.close()
    assert multiprocessing.active_children() == []


def niceness(record: str, step: int, seat: int, budget_ms: float | None = None) -> int:
    """A review that tells the worker's CPU priority."""
    return os.nice(0)


async def test_workers_run_at_the_lowest_priority() -> None:
    pool = AnalysisPool(niceness, workers=1)
    try:
        assert await pool.submit("a", "A", 0, [1]) == [min(19, os.nice(0) + 19)]
    finally:
        await pool.close()


async def test_closing_fails_the_waiting_and_refuses_more() -> None:
    pool = AnalysisPool(echo, workers=1)
    waiting = pool.submit("a", "A", 0, list(range(1, 13)))
    await asyncio.sleep(0)
    await pool.close()
    with pytest.raises(PoolClosed):
        await waiting
    with pytest.raises(PoolClosed):
        pool.submit("b", "B", 0, [1])
    assert multiprocessing.active_children() == []


async def test_other_work_takes_its_turn_between_the_moves() -> None:
    pool = AnalysisPool(echo, workers=1, max_analyses=2)
    try:
        analysis = pool.submit("a", "A", 0, [1, 2, 3])
        call = asyncio.ensure_future(pool.call(divmod, 17, 5))
        await asyncio.sleep(0)
        assert pool.queued == 2
        with pytest.raises(PoolBusy):
            await pool.call(divmod, 1, 1)
        assert await call == (3, 2)
        assert not analysis.done()  # the call went before the analysis's last moves
        assert await analysis == [("A", 1), ("A", 2), ("A", 3)]
        with pytest.raises(ZeroDivisionError):  # its own error, raised to its caller
            await pool.call(divmod, 1, 0)
    finally:
        await pool.close()
    assert multiprocessing.active_children() == []


def states(pool: AnalysisPool) -> set[str]:
    """The workers' process states (Linux /proc: ``T`` stopped)."""
    found = set()
    for pid in pool._executor._processes:  # type: ignore[union-attr]
        with open(f"/proc/{pid}/stat") as stat:
            found.add(stat.read().rsplit(")", 1)[1].split()[0])
    return found


def become(pool: AnalysisPool, stopped: bool) -> bool:
    """Whether every worker becomes stopped (or every one running) once the signal sent
    has had its effect: the kernel acts when the process next runs (waited for, up to a
    few seconds, never timed)."""
    for _ in range(2000):
        now = states(pool)
        if (now <= {"T", "t"}) == stopped and (not now & {"T", "t"}) != stopped:
            return True
        time.sleep(0.002)
    return False


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads Linux's /proc")
async def test_the_workers_stand_still_while_a_click_is_handled() -> None:
    pool = AnalysisPool(echo, workers=1)
    try:
        assert await pool.call(divmod, 7, 2) == (3, 1)  # the worker is started
        with pool.play_first():
            with pool.play_first():  # two clicks at once
                assert become(pool, stopped=True)
                work = asyncio.ensure_future(pool.call(divmod, 9, 4))
                await asyncio.sleep(0.2)
                assert not work.done()  # sent, but the worker stands still
            assert become(pool, stopped=True)  # one click is still being handled
        assert become(pool, stopped=False)
        assert await work == (2, 1)
        with pool.play_first():
            pass
        assert become(pool, stopped=False)
    finally:
        await pool.close()
    assert multiprocessing.active_children() == []


async def test_a_discarded_analysis_fails_at_once_and_the_others_go_on() -> None:
    pool = AnalysisPool(echo, workers=1, max_analyses=3)
    try:
        dropped = pool.submit("a", "A", 0, [1, 2, 3, 4])
        kept = pool.submit("b", "B", 1, [10, 20])
        assert pool.discard(["a", "nothing"]) == 1
        assert dropped.done() and not pool.running("a") and pool.queued == 1
        with pytest.raises(Discarded):
            await dropped
        # its move already in the worker comes back to nobody; the other is whole
        assert await kept == [("B", 10), ("B", 20)]
        assert pool.queued == 0
    finally:
        await pool.close()
