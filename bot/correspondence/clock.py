"""A correspondence turn's clock: when the person to move is told, warned, and out of time.

A turn of a correspondence game (``GameOptions.pace``, days a move) is kept in the game's
``extra["clock"]`` as plain data, saved with the game:

- ``ends``: the moment the turn is lost on time (its start, or the end of the mover's
  vacation if they are away, plus the pace's time a move);
- ``warn``: the moment the mover (and a partner) is warned, a quarter of the pace before
  ``ends`` (moved to before the mover's quiet hours begin when it falls inside them);
- ``noticed`` / ``warned``: whether those were sent (never twice a turn); ``notice_at``:
  a notice held until the mover's quiet hours end;
- ``away``: the end of the mover's vacation, when the turn waits for it.

The game's one deadline (:class:`bot.timers.Timers`) is always the next of these steps
(:func:`next_step`), so thousands of waiting games cost one wake-up per process.
"""

from __future__ import annotations

from typing import Any

from bot.models import Game, Timer

# The warning comes when this share of a turn's time is left (6 hours of a day a move).
WARN_SHARE = 0.25


def turn_clock(start: float, seconds: int, away_until: float | None = None) -> dict[str, Any]:
    """The clock of a turn that starts at ``start`` with ``seconds`` to move; a mover away
    on vacation until ``away_until`` starts their time when it ends."""
    begins = max(start, away_until) if away_until else start
    ends = begins + seconds
    clock: dict[str, Any] = {
        "ends": ends,
        "warn": ends - seconds * WARN_SHARE,
        "noticed": False,
        "warned": False,
    }
    if away_until and away_until > start:
        clock["away"] = away_until
    return clock


def shifted(clock: dict[str, Any], seconds: float, at: float) -> dict[str, Any]:
    """The clock moved ``seconds`` later (a vacation begins) or earlier (ends early),
    never ending before ``at`` plus the share of a warning (a vacation ended early leaves
    a fair moment to move)."""
    span = float(clock["ends"]) - float(clock["warn"])
    ends = max(float(clock["ends"]) + seconds, at + span)
    moved = {**clock, "ends": ends, "warn": ends - span}
    if seconds > 0:
        moved["away"] = at + seconds
    else:
        moved.pop("away", None)
    return moved


def next_step(clock: dict[str, Any], at: float) -> tuple[float, Timer]:
    """The turn's next deadline and what it does: the notice (due at once), the warning,
    then the loss on time."""
    ends = float(clock["ends"])
    if not clock.get("noticed"):
        # due at once, or when the mover's quiet hours end (``notice_at``)
        return max(at, float(clock.get("notice_at") or at)), Timer.NOTICE
    warn = float(clock["warn"])
    if not clock.get("warned") and warn < ends:
        return warn, Timer.WARN
    return ends, Timer.LATE


def turn_ends(game: Game) -> float | None:
    """When the running turn's clock runs out: a correspondence turn's end, else the
    game's next deadline (a live turn's reminder or safe move)."""
    clock = game.extra.get("clock")
    if valid(clock):
        return float(clock["ends"])
    return game.deadline


def valid(clock: object) -> bool:
    """Whether a saved clock has what :func:`next_step` reads (a damaged one is replaced)."""
    if not isinstance(clock, dict):
        return False
    return all(isinstance(clock.get(key), (int, float)) for key in ("ends", "warn"))
