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

Verdicts (:func:`bot.analysis.model.verdict_for`), by the cost in expected points of the
round:

============  =====================  =================================================
verdict       cost                   why there
============  =====================  =================================================
best          < 0.1, or hard's move  within the evaluation's own noise
fine          0.1 to < 0.6           a small loss: where hard's own moves land
inaccuracy    0.6 to < 1.5           a real loss, about a point (a tabbe, an ace)
mistake       1.5 or more            more than a point given away in one move
============  =====================  =================================================

Measured with ``python tests/benchmarks/analysis.py --calibrate`` (seven matches to 5,
Swedish 2 and 4 players in teams, Finnish 3, Mulle, Casino, Swazi 4 in teams and
Krypkasino 3, ``hard`` playing every seat at play's 75 ms, seat 0's 169 moves reviewed
at 150 ms with other worlds): 91% of hard's own moves are hard's move again, and their
costs are 0.00 at the median and p90, 0.18 at p95, 0.56 at p99, 1.00 at worst. Two
reviews of one move with different worlds differ by 0.00 at the median, 0.02 at p90,
0.81 at worst (a Krypkasino position whose cost falls to 0.16 at eight times the
budget). So "best" is the noise band, "fine" holds 99% of hard's own moves, and the one
move of hard's above it (a Finnish Kasino trail that hard's own search with other seeds
rejects three times in four, 0.88 at eight times the budget) is a real slip, correctly
an inaccuracy. A mistake gives away more than a whole point: a tabbe and more.

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
