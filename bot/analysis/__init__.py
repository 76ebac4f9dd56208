"""The analysis of one seat's moves in a finished game (pure: no Discord here).

For each move the seat chose (:func:`moves_to_analyse`), :func:`review_move` rebuilds the
round just before it and looks at it only as that seat could (:class:`bot.ai.SeatView`:
its own hand and what is public, never a hidden card). It asks what ``hard`` would have
played there, then values the played move and hard's move in expected points of the
round on the *same* sampled worlds (:func:`bot.ai.evaluate.evaluate`; exact by minimax
once the deck is empty in a two-player game without builds). The scale is the same in
every variant: the seat's side's points minus the mean of the other sides' points; in
Krypkasino, where points are penalties, giving points away means taking extra penalty.
The ``cost`` of a move is what it gave away against hard's move (never below zero: when
the played move comes out at least as good, it is itself the best, with cost 0).

Verdicts (:func:`bot.analysis.model.verdict_for`), by the cost in points of the round:

============  =====================  ==============================================
verdict       cost                   why there
============  =====================  ==============================================
best          < 0.1, or hard's move  within the evaluation's own noise
fine          0.1 to < 0.4           a small loss; hard's own moves land here
inaccuracy    0.4 to < 1             a real loss, under a point
mistake       1 or more              a whole point or more given away
============  =====================  ==============================================

The thresholds were measured (``tests/benchmarks/analysis.py --calibrate``): ``hard``'s own
moves, played with a different seed and play's budget, are reviewed as best or fine.

Each review is seeded by the game, the seat and the step and bounded by counted work,
never by the clock, so an analysis comes out the same on any machine. A review costs
about ``DEFAULT_BUDGET_MS`` of hard's search twice (hard's choice, then the comparison):
the bot runs reviews in worker processes (``bot/analysis/pool.py``).
"""

from __future__ import annotations

from .model import ANALYSIS_VERSION, VERDICTS, Analysis, MoveReview, verdict_for
from .review import DEFAULT_BUDGET_MS, analyse, moves_to_analyse, review_move, review_round

__all__ = [
    "ANALYSIS_VERSION",
    "DEFAULT_BUDGET_MS",
    "VERDICTS",
    "Analysis",
    "MoveReview",
    "analyse",
    "moves_to_analyse",
    "review_move",
    "review_round",
    "verdict_for",
]
