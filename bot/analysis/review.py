"""Reviewing a seat's moves in a finished game (see the package docstring)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from bot.ai import choose_move
from bot.ai.evaluate import evaluate
from bot.ai.explain import explain_review
from bot.ai.view import SeatView
from bot.engine import Move, Round
from bot.i18n import lang, languages
from bot.puzzles.solve import Solver, TooBig, solvable
from bot.records.record import GameRecord, RecordedMove

from .model import (
    ANALYSIS_VERSION,
    COST_DIGITS,
    SAME_WITHIN,
    Analysis,
    MoveReview,
    verdict_for,
)

# The typical budget of one move's review, in counted milliseconds (hard.WORK_PER_MS):
# hard's choice gets it as play gets its own (more for a full hand, less for the last
# card), twice play's 75 ms. The comparison of the played move with hard's, needed only
# when they differ, gets COMPARE_SHARE times as much: its noise is what can move a
# verdict (measured on normal's moves, two reviews with other worlds differ by 0.09 at
# p90 and 0.62 at worst at 75 ms, 0.07 / 0.51 at 150, 0.04 / 0.36 at 300).
DEFAULT_BUDGET_MS = 150.0
COMPARE_SHARE = 2.0
# A two-player last deal is solved exactly (bot/puzzles/solve.py) when both hands hold at
# most EXACT_CARDS cards and the search needs at most EXACT_NODES positions; a bigger one
# is estimated like any other position. Measured with tests/benchmarks/last_deal.py (five
# last deals per game, see bot/analysis/__init__.py): every move of the last deal in the
# games dealt 8 cards (Mulle 9 or 10) is exact; in South African Casino (20 cards), Swazi
# and Sotho (24) about half the moves of the last deal are (its second half: the first is
# too big). 12 cards is where a position of these games still often fits: 13 needs 40,000
# to 100,000 positions. The node limit bounds a review: a search cut short costs at most
# 3 s of one core in Swazi and Sotho, the slowest engine per position (20,000 positions:
# 4% more moves exact, twice that time).
EXACT_CARDS = 12
EXACT_NODES = 10_000


def moves_to_analyse(record: GameRecord, seat: int) -> list[int]:
    """The replay steps of ``seat``'s own chosen moves (not those the bot played for it
    when its time ran out): step ``n`` is the ``n``-th move (from 1), as
    :meth:`GameRecord.state_at` numbers them (the replay at step ``n`` shows it played)."""
    _check_seat(record, seat)
    return [n for n, m in enumerate(record.moves, 1) if m.seat == seat and not m.auto]


def review_move(
    record: GameRecord, step: int, seat: int, budget_ms: float | None = None
) -> MoveReview:
    """The review of ``seat``'s move at replay ``step`` (one of :func:`moves_to_analyse`).

    Replays the record to the position before it (its cost grows with ``step``; a worker
    runs it). Deterministic: seeded by the game, seat and step, bounded by counted work.
    ``ValueError`` if that step is not a chosen move of this seat.
    """
    recorded = _recorded(record, step, seat)
    before = record.state_at(step - 1).game.match
    assert before is not None
    return review_round(
        before.round, seat, recorded.move, step=step, round_number=recorded.round,
        key=_key(record, seat, step), budget_ms=budget_ms,
    )  # fmt: skip


def analyse(
    record: GameRecord,
    seat: int,
    *,
    progress: Callable[[int, int], None] | None = None,
    budget_ms: float | None = None,
) -> Analysis:
    """The reviews of every chosen move of ``seat`` in the game (``progress(done, total)``
    once before the first, with ``done`` 0, and after each). Replays the record once: the
    same reviews as :func:`review_move` gives one by one."""
    steps = moves_to_analyse(record, seat)
    wanted = set(steps)
    rounds: dict[int, Round] = {}
    if 1 in wanted:
        rounds[1] = record.start().round.copy()

    def keep(number: int, match: object, play: object, words: str) -> None:
        if number + 1 in wanted:
            rounds[number + 1] = match.round.copy()  # type: ignore[attr-defined]

    record.replay(keep)
    if progress is not None:
        progress(0, len(steps))
    reviews = []
    for done, step in enumerate(steps, 1):
        recorded = record.moves[step - 1]
        key = _key(record, seat, step)
        before = rounds.pop(step)
        number = recorded.round
        review = review_round(
            before,
            seat,
            recorded.move,
            step=step,
            round_number=number,
            key=key,
            budget_ms=budget_ms,
        )
        reviews.append(review)
        if progress is not None:
            progress(done, len(steps))
    return Analysis(record.game_id, seat, ANALYSIS_VERSION, tuple(reviews))


def review_round(
    round_: Round,
    seat: int,
    played: Move,
    *,
    step: int,
    round_number: int,
    key: str,
    budget_ms: float | None = None,
) -> MoveReview:
    """The review of ``played`` by ``seat`` (to move in ``round_``), from what that seat
    could see. In a two-player last deal small enough, exactly (:func:`exact_review`):
    the best move against any defence and what the played move gives away against it.
    Otherwise estimated: what ``hard`` plays there (seeded by ``key``) and the expected
    points the played move gives away against it, both valued on the same sampled worlds.
    A played move worth the best (estimated: within :data:`SAME_WITHIN`) is the best."""
    exact = exact_review(round_, seat, played)
    if exact is not None:
        best, cost = exact
    else:
        best, cost = _estimated(round_, seat, played, key, budget_ms)
    reasons = {
        code: explain_review(round_, seat, played, best, cost, lang(code)) for code in languages()
    }
    verdict = verdict_for(cost, best == played)
    return MoveReview(
        step, round_number, played, best, cost, verdict, reasons, exact=exact is not None
    )


def exact_review(round_: Round, seat: int, played: Move) -> tuple[Move, float] | None:
    """The best move and the points of the round ``played`` gives away against it, solved
    exactly, or None when the position is not a two-player last deal the search takes
    (more than :data:`EXACT_CARDS` cards in hands, or more than :data:`EXACT_NODES`
    positions to search). The best move is ``played`` when nothing does better, else the
    first better one in the engine's order."""
    if not solvable(round_, EXACT_CARDS) or not _all_known(round_, seat):
        return None
    try:
        compared = Solver(EXACT_NODES, cards_limit=EXACT_CARDS, match_end=True).compare(
            round_, played
        )
    except (TooBig, ValueError):  # too big; or a move the engine does not list: estimate
        return None
    return compared.best, float(compared.best_value - compared.played_value)


def _all_known(round_: Round, seat: int) -> bool:
    """Whether the cards ``seat`` cannot see are exactly the other hand (so solving the
    one position is fair: it is the only world that seat could be in)."""
    view = SeatView.of(round_, seat)
    others = [card for other, hand in enumerate(round_.hands) if other != seat for card in hand]
    return Counter(view.hidden()) == Counter(others)


def _estimated(
    round_: Round, seat: int, played: Move, key: str, budget_ms: float | None
) -> tuple[Move, float]:
    """hard's move and the expected points ``played`` gives away against it, valued on
    the same sampled worlds (the played move itself, cost 0, when it comes out as good
    within the estimate's noise)."""
    budget = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    view = SeatView.of(round_, seat)
    best = choose_move(round_, seat, "hard", seed=f"{key}/choose", budget_ms=budget)
    if best == played:
        return played, 0.0
    rng = random.Random(f"{key}/value")
    best_value, played_value = evaluate(view, rng, [best, played], budget * COMPARE_SHARE)
    cost = round(best_value - played_value, COST_DIGITS)
    if cost < SAME_WITHIN:  # as good as hard's move on this scale: it is the best here
        return played, 0.0
    return best, cost


# The version in the seeds: version 3 changed only the words of the reasons, so the worlds
# drawn (and the costs and verdicts measured on them) stay those of version 2.
SEED_VERSION = 2


def _key(record: GameRecord, seat: int, step: int) -> str:
    """The seed of one review: the same game, seat and step always draw the same worlds."""
    return f"analysis/{SEED_VERSION}/{record.game_id}/{seat}/{step}"


def _check_seat(record: GameRecord, seat: int) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < record.players:
        raise ValueError(f"seat must be 0..{record.players - 1}, not {seat!r}")


def _recorded(record: GameRecord, step: int, seat: int) -> RecordedMove:
    """The move at ``step``, which must be one ``seat`` chose."""
    _check_seat(record, seat)
    if not isinstance(step, int) or isinstance(step, bool) or not 1 <= step <= len(record.moves):
        raise ValueError(f"step {step!r} is not a move of this game (1..{len(record.moves)})")
    recorded = record.moves[step - 1]
    if recorded.seat != seat or recorded.auto:
        raise ValueError(f"step {step} is not a move seat {seat} chose")
    return recorded
