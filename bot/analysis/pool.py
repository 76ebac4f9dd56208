"""The analyses' pool: one bounded set of worker processes shared by every game of the
process, fed one move at a time.

An analysis reviews each of a seat's moves with the ``hard`` searcher or the exact
last-deal solver (0.1-3 s of CPU a move, tens of seconds a match). In a thread it would
hold the event loop's GIL for that long; so it runs in a
:class:`concurrent.futures.ProcessPoolExecutor` of ``ANALYSIS_WORKERS`` processes
(default 1), started with the ``spawn`` method (``fork`` is unsafe in a process that runs
threads: the database's and asyncio's).

The unit of work is one move (:func:`bot.analysis.review_move`). The parent hands the
workers at most one move per worker at a time and picks the next move round-robin across
the analyses waiting: ten people asking at once each see their progress move, and a long
match does not hold back a short one behind it. Progress is counted here, in the parent,
as each move comes back. At most :data:`MAX_ANALYSES` analyses are running or queued;
one more is refused (:class:`PoolBusy`), never queued without bound. Asking for an
analysis already running joins it: the same :class:`asyncio.Future`, no work twice.

The workers run at the lowest CPU priority (``nice`` :data:`NICENESS`): an analysis
uses the cores play leaves idle, and when the bot's own process needs a core the kernel
gives it that core first. Without it, on a machine with few cores, a worker busy for a
minute takes half the CPU from the clicks (measured: every click's p99 doubled on two
shared cores).

The workers start on the first analysis (a bot nobody asks never starts one) and stop
with :meth:`AnalysisPool.close` (the bot's ``close``). Nothing here imports Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Hashable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

# Analyses running or queued at once in one process; one more is refused ("busy, try
# again in a minute"). A whole match is tens of seconds of one worker: with one worker,
# the last of sixteen waits some minutes, which is still an answer worth waiting for.
MAX_ANALYSES = 16
DEFAULT_WORKERS = 1
START_METHOD = "spawn"  # never fork: the bot's process runs threads
NICENESS = 19  # the workers' CPU priority: the lowest (play first)

Review = Callable[..., Any]  # review_move(record, step, seat, budget_ms) -> MoveReview
Progress = Callable[[int, int], None]  # (moves done, moves in all)


PR_SET_PDEATHSIG = 1  # Linux prctl: a signal for this process when its parent dies


def background(niceness: int = NICENESS) -> None:
    """A worker's start: the lowest CPU priority (where the system lets it be lowered),
    and on Linux killed with its parent, even while stopped (:meth:`AnalysisPool.play_first`)."""
    with contextlib.suppress(OSError, AttributeError):  # (not on Windows)
        os.nice(niceness)
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class PoolBusy(RuntimeError):
    """Too many analyses are running or queued; nothing was started."""


class PoolClosed(RuntimeError):
    """The pool was closed (the bot is stopping) before the analysis was done."""


class Discarded(RuntimeError):
    """The analysis was dropped before it was done (its player was forgotten): nothing
    of it may be stored."""


@dataclass(eq=False)
class Job:
    """One analysis: the moves to review, what came back, and who waits for it."""

    key: Hashable
    record: Any
    seat: int
    steps: list[int]
    future: asyncio.Future[list[Any]]
    listeners: list[Progress] = field(default_factory=list)
    sent: int = 0  # moves handed to a worker so far (in order)
    task: tuple[Callable[..., Any], tuple[Any, ...]] | None = None  # other work: one call
    results: dict[int, Any] = field(default_factory=dict)

    @property
    def done(self) -> int:
        """Moves reviewed so far."""
        return len(self.results)

    def tell(self) -> None:
        """Tell every listener the progress (a listener's failure stops nothing)."""
        for listener in list(self.listeners):
            try:
                listener(self.done, len(self.steps))
            except Exception:  # a progress note is a courtesy: the analysis goes on
                log.exception("analysis %s: progress listener failed", self.key)


class AnalysisPool:
    """The worker processes and the queue of analyses (one per process, on its loop).

    ``review`` is called in a worker as ``review(record, step, seat, budget_ms=...)`` and
    must be importable by name there (a module-level function): the real one is
    :func:`bot.analysis.review_move`, tests may hand a quicker one.
    """

    def __init__(
        self,
        review: Review,
        *,
        workers: int = DEFAULT_WORKERS,
        budget_ms: float | None = None,
        max_analyses: int = MAX_ANALYSES,
        start_method: str = START_METHOD,
    ) -> None:
        if workers < 1:
            raise ValueError("an analysis pool needs at least one worker")
        self.review = review
        self.workers = workers
        self.budget_ms = budget_ms
        self.max_analyses = max_analyses
        self.start_method = start_method
        self._executor: ProcessPoolExecutor | None = None
        self._jobs: dict[Hashable, Job] = {}
        self._turn: list[Hashable] = []  # round-robin order of the jobs with moves to send
        self._in_flight = 0
        self._closed = False
        self._clicks = 0  # clicks being handled (play_first): the workers stand still

    # ----------------------------------------------------------------- public

    @property
    def queued(self) -> int:
        """Analyses running or waiting."""
        return len(self._jobs)

    def running(self, key: Hashable) -> bool:
        """Whether the analysis ``key`` is running or queued."""
        return key in self._jobs

    def progress(self, key: Hashable) -> tuple[int, int] | None:
        """``(done, total)`` of a running analysis, or ``None``."""
        job = self._jobs.get(key)
        return None if job is None else (job.done, len(job.steps))

    def submit(
        self,
        key: Hashable,
        record: Any,
        seat: int,
        steps: list[int],
        on_progress: Progress | None = None,
    ) -> asyncio.Future[list[Any]]:
        """The reviews of ``steps`` (in their order), as a future: a new analysis, or the
        one already running under ``key`` (joined: ``record`` and ``steps`` are then not
        read again). :class:`PoolBusy` when :data:`MAX_ANALYSES` are already queued."""
        if self._closed:
            raise PoolClosed("the analysis pool is closed")
        job = self._jobs.get(key)
        if job is None:
            if len(self._jobs) >= self.max_analyses:
                raise PoolBusy(f"{len(self._jobs)} analyses are queued")
            loop = asyncio.get_running_loop()
            job = Job(key, record, seat, list(steps), loop.create_future())
            self._jobs[key] = job
            if job.steps:
                self._turn.append(key)
            else:
                self._finish(job)
        if on_progress is not None:
            job.listeners.append(on_progress)
        self._pump()
        return job.future

    @contextlib.contextmanager
    def play_first(self) -> Iterator[None]:
        """Around the handling of a click: the workers are stopped (``SIGSTOP``) while any
        click is being handled, and go on (``SIGCONT``) when none is. A low priority
        alone is not enough where the cores are shared below the system (a virtual
        machine's two CPUs): a busy worker slowed every click's p99 by 10-40 % there.
        Analyses only use the time between clicks; a click never waits for one."""
        self._clicks += 1
        if self._clicks == 1:
            self._signal(signal.SIGSTOP)
        try:
            yield
        finally:
            self._clicks -= 1
            if self._clicks == 0:
                self._signal(signal.SIGCONT)

    def _signal(self, number: int) -> None:
        """Send ``number`` to every worker process (POSIX only; none yet: nothing)."""
        if self._executor is None or not hasattr(signal, "SIGSTOP"):
            return
        # the executor's own table of its processes: there is no public one
        for pid in list(getattr(self._executor, "_processes", None) or {}):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, number)

    async def call(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in a worker: other CPU work of the bot (a puzzle of the day's
        replays and solves) shares the workers, taking its turn between the analyses'
        moves. ``function`` must be importable by name, its arguments and result plain
        data. :class:`PoolBusy` when :data:`MAX_ANALYSES` jobs are already queued."""
        if self._closed:
            raise PoolClosed("the analysis pool is closed")
        if len(self._jobs) >= self.max_analyses:
            raise PoolBusy(f"{len(self._jobs)} jobs are queued")
        loop = asyncio.get_running_loop()
        job = Job(object(), None, 0, [0], loop.create_future(), task=(function, args))
        self._jobs[job.key] = job
        self._turn.append(job.key)
        self._pump()
        return (await job.future)[0]

    def listen(self, key: Hashable, on_progress: Progress) -> bool:
        """Follow the progress of the running analysis ``key`` too (``False``: none runs:
        it is done, or was never asked for)."""
        job = self._jobs.get(key)
        if job is not None:
            job.listeners.append(on_progress)
        return job is not None

    def discard(self, keys: Iterable[Hashable]) -> int:
        """Drop the analyses ``keys`` whether queued or running: their futures fail with
        :class:`Discarded` at once, their moves not yet sent are never sent, and a move
        a worker is reviewing now is thrown away when it comes back (``_reviewed`` sees
        the future done). Says how many were dropped."""
        dropped = 0
        for key in list(keys):
            job = self._jobs.pop(key, None)
            if job is None:
                continue
            dropped += 1
            if key in self._turn:
                self._turn.remove(key)
            if not job.future.done():
                job.future.set_exception(Discarded("the analysis was discarded"))
                job.future.exception()  # retrieved: its waiter may be gone
        self._pump()
        return dropped

    async def close(self) -> None:
        """Refuse new analyses, fail the waiting ones (:class:`PoolClosed`) and stop the
        workers (a move being reviewed is finished first: at most a second or so)."""
        self._closed = True
        self._clicks = 0
        self._signal(signal.SIGCONT)  # a stopped worker could not stop
        for job in list(self._jobs.values()):
            if not job.future.done():
                job.future.set_exception(PoolClosed("the bot is stopping"))
                job.future.exception()  # retrieved: nobody may be waiting any more
        self._jobs.clear()
        self._turn.clear()
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)

    # -------------------------------------------------------------- scheduling

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            context = multiprocessing.get_context(self.start_method)
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=background
            )
        return self._executor

    def _pump(self) -> None:
        """Hand the workers moves until each has one, round-robin across the jobs."""
        while self._in_flight < self.workers and self._turn and not self._closed:
            key = self._turn.pop(0)
            job = self._jobs.get(key)
            if job is None or job.sent >= len(job.steps):
                continue
            step = job.steps[job.sent]
            job.sent += 1
            if job.sent < len(job.steps):
                self._turn.append(key)  # its next move waits for the others' turns
            try:
                if job.task is not None:
                    work = self._pool().submit(job.task[0], *job.task[1])
                else:
                    work = self._pool().submit(
                        self.review, job.record, step, job.seat, budget_ms=self.budget_ms
                    )
            except (BrokenProcessPool, RuntimeError) as error:
                self._broken(job, error)
                continue
            self._in_flight += 1
            work.add_done_callback(self._back_on_loop(job, step))

    def _back_on_loop(self, job: Job, step: int) -> Callable[[Future[Any]], None]:
        """A worker future's callback (run in the executor's thread): hands the result
        to :meth:`_reviewed` on the loop."""
        loop = asyncio.get_running_loop()

        def back(work: Future[Any]) -> None:
            if not loop.is_closed():
                loop.call_soon_threadsafe(self._reviewed, job, step, work)

        return back

    def _reviewed(self, job: Job, step: int, work: Future[Any]) -> None:
        """On the loop: one move came back."""
        self._in_flight -= 1
        if self._closed:
            return
        if job.future.done():  # dropped or failed meanwhile: its result goes nowhere,
            self._pump()  # and the worker it held takes the next job's move
            return
        error = work.exception() if not work.cancelled() else PoolClosed("cancelled")
        if error is not None:
            self._fail(job, error)
        else:
            job.results[step] = work.result()
            job.tell()
            if job.done == len(job.steps):
                self._finish(job)
        self._pump()

    def _finish(self, job: Job) -> None:
        self._jobs.pop(job.key, None)
        if not job.future.done():
            job.future.set_result([job.results[step] for step in job.steps])

    def _fail(self, job: Job, error: BaseException) -> None:
        """An analysis whose move failed is dropped whole (the person may ask again)."""
        log.error("analysis %s failed at a move: %r", job.key, error)
        self._jobs.pop(job.key, None)
        if job.key in self._turn:
            self._turn.remove(job.key)
        if not job.future.done():
            job.future.set_exception(error)
        if isinstance(error, BrokenProcessPool):
            self._drop_executor()  # a worker died: the next analysis starts new ones

    def _broken(self, job: Job, error: BaseException) -> None:
        self._drop_executor()
        self._fail(job, error)

    def _drop_executor(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
