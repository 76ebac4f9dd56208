"""Reviewing a seat's moves in a finished game (see the package docstring)."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.ai import hard, normal
from bot.ai.buildmoves import building_moves
from bot.ai.evaluate import evaluate
from bot.ai.explain import explain_move
from bot.ai.view import SeatView
from bot.engine import Move, Round
from bot.i18n import lang, languages
from bot.records.record import GameRecord, RecordedMove

from .model import ANALYSIS_VERSION, COST_DIGITS, Analysis, MoveReview, verdict_for

# The typical budget of one move's review, in counted milliseconds (hard.WORK_PER_MS):
# hard's choice gets it as play gets its own (more for a full hand, less for the last
# card), twice play's 75 ms. The comparison of the played move with hard's, needed only
# when they differ, gets COMPARE_SHARE times as much: its noise is what can move a
# verdict (measured on normal's moves, two reviews with other worlds differ by 0.09 at
# p90 and 0.62 at worst at 75 ms, 0.07 / 0.51 at 150, 0.04 / 0.36 at 300).
DEFAULT_BUDGET_MS = 150.0
COMPARE_SHARE = 2.0


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
    could see: what ``hard`` plays there (seeded by ``key``) and the expected points the
    played move gives away against it, both valued on the same sampled worlds."""
    budget = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    view = SeatView.of(round_, seat)
    best = _hard_move(round_, view, random.Random(f"{key}/choose"), budget)
    cost = 0.0
    if best != played:
        rng = random.Random(f"{key}/value")
        best_value, played_value = evaluate(view, rng, [best, played], budget * COMPARE_SHARE)
        if played_value >= best_value:
            best = played  # on the points scale the played move is at least as good
        else:
            cost = round(best_value - played_value, COST_DIGITS)
    reasons = {code: explain_move(round_, seat, best, lang(code)) for code in languages()}
    verdict = verdict_for(cost, best == played)
    return MoveReview(step, round_number, played, best, cost, verdict, reasons)


def _hard_move(round_: Round, view: SeatView, rng: random.Random, budget: float) -> Move:
    """hard's move, as :func:`bot.ai.choose_move` makes it but with no clock at all."""
    move = hard.choose(view, rng, hard.budget_for(view, budget), None)
    if view.rules.builds and not round_.is_legal(move):
        # as in play: a Swazi partner's hand may not allow a build made for them
        move = normal.ranked(view, building_moves(round_))[0][1]
    return move


def _key(record: GameRecord, seat: int, step: int) -> str:
    """The seed of one review: the same game, seat and step always draw the same worlds."""
    return f"analysis/{ANALYSIS_VERSION}/{record.game_id}/{seat}/{step}"


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
