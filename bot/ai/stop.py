"""When the ``hard`` search stops: after its counted work, or, unseeded, on the clock too.

A seeded decision must be the same on any machine, however loaded, so a seeded search is
bounded by counted work alone (weighed steps, see :data:`bot.ai.hard.WORK_PER_MS`) and
never reads the clock. Unseeded play, which no one replays, also stops when its time is
up, so a slow machine still answers on time. A search gets one :class:`Stop`, which is
either the one kind or the other, and asks it only :meth:`Stop.out_of_time`; a counted
stop answers that without looking at the clock, so the two cannot be mixed.

Counted work bounds a search by construction: no world is started once the work reaches
the budget (at least ``MIN_WORLDS``, at most ``MAX_WORLDS`` of them), and one world's work
is bounded: a few candidate moves, each followed by a fixed horizon of greedy plies whose
captures are listed with bounds (:mod:`.fastcap`, :mod:`.buildmoves`), or one exact solve of
at most ``endgame.NODE_LIMIT`` positions. Its time is the work's: longer on a slower or
busier machine, never cut short.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Stop:
    """A search's budget: ``budget_ms`` of counted work, and for a timed search a
    ``perf_counter`` time to stop by as well. Made by :meth:`counted` or :meth:`timed`."""

    budget_ms: float
    _deadline: float | None = None

    @classmethod
    def counted(cls, budget_ms: float) -> Stop:
        """Counted work only: the seeded search, reproducible on any machine."""
        return cls(budget_ms)

    @classmethod
    def timed(cls, budget_ms: float, seconds: float | None = None) -> Stop:
        """Counted work, and ``seconds`` from now at the latest (by default the budget's
        own time): unseeded play, which must answer in time however slow the machine."""
        allowed = budget_ms / 1000 if seconds is None else seconds
        return cls(budget_ms, time.perf_counter() + allowed)

    @classmethod
    def of(cls, budget_ms: float, seeded: bool) -> Stop:
        """The stop of a decision: :meth:`counted` with a seed, else :meth:`timed`."""
        return cls.counted(budget_ms) if seeded else cls.timed(budget_ms)

    @property
    def is_timed(self) -> bool:
        """Whether this search may stop on the clock (never a seeded one)."""
        return self._deadline is not None

    def out_of_time(self) -> bool:
        """Whether a timed search's time is up; a counted search never reads the clock."""
        return self._deadline is not None and time.perf_counter() > self._deadline
