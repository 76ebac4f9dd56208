"""The analysis of one seat's moves in a finished game (pure: no Discord here).

For each move the seat chose (:func:`moves_to_analyse`), :func:`review_move` rebuilds the
round just before it and values the played move against the best one in points of the
round, on the same scale in every variant: the seat's side's points minus the mean of the
other sides' points; in Krypkasino, where points are penalties, giving points away means
taking extra penalty. The ``cost`` of a move is what it gave away against the best move
(never below zero). Two ways, and the review says which (``MoveReview.exact``):

- **Exact** in a two-player last deal (:func:`bot.analysis.review.exact_review`): nothing
  is left to deal, so the cards the seat cannot see are exactly the other hand, and the
  puzzles' solver (:mod:`bot.puzzles.solve`, the one exact solver) plays the rest of the
  round out against every defence, when both hands hold at most ``EXACT_CARDS`` cards and
  the search fits in ``EXACT_NODES`` positions. The best move is the played one when it is
  worth the best, else the first better one; the cost is whole points.
- **Estimated** everywhere else, looking at the round only as the seat could
  (:class:`bot.ai.SeatView`: its own hand and what is public, never a hidden card): what
  ``hard`` would have played there, then both moves valued in expected points of the
  round on the *same* sampled worlds (:func:`bot.ai.evaluate.evaluate`). A played move
  within ``SAME_WITHIN`` (0.1, the estimate's noise) of hard's is the best, cost 0.

So a move worth the best is always "best", with no cost and no better move, and the
better move shown is never worth less than the played one (exactly, or on the estimate's
own values).

Verdicts (:func:`bot.analysis.model.verdict_for`), by the cost in expected points of the
round:

============  =====================  =================================================
verdict       cost                   why there
============  =====================  =================================================
best          0                      worth the best (estimated: within 0.1, the noise)
fine          0.1 to < 0.6           a small loss: where hard's own moves land
inaccuracy    0.6 to < 1.5           a real loss, about a point (a tabbe, an ace)
mistake       1.5 or more            more than a point given away in one move
============  =====================  =================================================

Measured with ``python tests/benchmarks/analysis.py --calibrate``: fourteen matches to 5
(every variant; 2 to 5 players; teams), ``hard`` playing every seat at play's 75 ms,
seat 0's 341 moves reviewed at 150 ms with other worlds. 96% of them are the analysis's
best move again; their costs are 0.00 up to p95, 0.76 at p99 and 4.00 at worst: 326 best,
11 fine, 2 inaccuracies and 2 mistakes. The two mistakes are exact, in two-player last
deals of building games, where hard itself only estimates (its play-outs there are
greedy): a Glimne's Mulle build that gives away 2 points and a South African Casino
capture that gives away 4, real slips that the estimate used to hide. The estimated costs
are 0.84 at worst (a Finnish Kasino trail with three players, 0.89 again with other
worlds: a real slip, an inaccuracy). Reviewing the same moves again with other worlds
changes a cost by 0.00 at the median and p90, 0.76 at worst (an estimated Glimne's Mulle
trail): "best" is that noise band. The moves of ``normal`` (``--level normal``, 315
moves) come out 267 best, 34 fine, 9 inaccuracies and 5 mistakes (6.00 at worst): the
thresholds tell the levels apart.
A mistake gives away more than a whole point in one move (a tabbe and its cards, storan).

Each review is seeded by the game, the seat and the step and bounded by counted work,
never by the clock, so an analysis comes out the same on any machine. A review costs
hard's search at twice play's budget (``DEFAULT_BUDGET_MS``, 150 ms, shared by hand size
as in play: up to five times as much for a full hand), then, when the played move is
another, the comparison of the two at 300 ms (``COMPARE_SHARE``). Measured with
``python tests/benchmarks/analysis.py`` (one match to the default target per variant,
seat 0, on the project's 2 shared cores): 0.1 to 0.4 s of CPU a move at the median,
2.9 s at worst (a Sotho last-deal search stopped at its limit, then estimated), 5 to 23 s
of CPU for one seat's moves in a whole match. The bot runs
the reviews in worker processes (``bot/analysis/pool.py``).

The exact reviews, measured with ``python tests/benchmarks/last_deal.py --matches 5``
(every move of five two-player last deals per game, both seats, ``normal`` players; CPU
time on the project's 2 shared cores): in the games whose last deal holds 8 cards in
hands (9 or 10 in Mulle), every move is exact, 1 to 3 ms a move at the median, 152 ms at
worst, a quarter of a second at most for a whole deal. South African Casino (20 cards):
51 of 100 moves exact, 138 ms a move at the median, 1.3 s at worst, 4.4 s a deal (5.2 s
at worst); Swazi (24): 54 of 120 exact, 210 ms, 2.7 s, 8.6 s (9.8 s); Sotho (24): 54 of
120, 187 ms, 2.6 s, 7.6 s (10.6 s). Their worst review is a search stopped at
``EXACT_NODES`` and then estimated; the worst exact one took 1.7 s (Swazi).
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
