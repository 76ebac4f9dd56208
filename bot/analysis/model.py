"""An analysis as data: one review per move, verdicts by documented thresholds, and a
strict JSON form (what the bot stores; anything malformed or of another version is
refused, so a stored analysis is either read whole or computed again)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine import Move
from bot.i18n import languages

ANALYSIS_VERSION = 3  # bump when reviews would come out differently: stored ones are redone
VERDICTS = ("best", "fine", "inaccuracy", "mistake")

# Expected points of the round given away against the best move (see bot/analysis/__init__).
# Measured (tests/benchmarks/analysis.py --calibrate, see the package docstring): hard's
# own moves cost 0.00 up to p95, 0.19 at p99, 0.55 at worst (321 moves, every variant).
BEST_BELOW = 0.1  # as good as the best: within the evaluation's noise (p90 0.00-0.07)
FINE_BELOW = 0.6  # a small, defensible difference: where hard's own moves land
INACCURACY_BELOW = 1.5  # a real loss; from one and a half points on, a mistake
# An estimated cost below this is no cost: the played move is then the best (cost 0, no
# better move shown), since the estimate cannot tell them apart. An exact cost is whole
# points, so an exact move is the best only when it is worth the best.
SAME_WITHIN = BEST_BELOW
COST_DIGITS = 2  # costs are kept to hundredths of a point


def verdict_for(cost: float, same: bool = False) -> str:
    """The verdict for a move that gave away ``cost`` expected points (``same``: it is the
    move the analysis would have played, which is always ``"best"``)."""
    if same or cost < BEST_BELOW:
        return "best"
    if cost < FINE_BELOW:
        return "fine"
    if cost < INACCURACY_BELOW:
        return "inaccuracy"
    return "mistake"


@dataclass(frozen=True)
class MoveReview:
    """One of the seat's moves: the replay ``step`` it was played at (the replay at that
    step shows it played; the seat chose from step ``step - 1``), its round (from 1), the
    move ``played``, the ``best`` one, the expected points ``cost`` it gave away against
    it (>= 0; 0 exactly when ``best`` is ``played``), its ``verdict`` (one of
    :data:`VERDICTS`), ``reasons``: in sentences, what the played move gave away and
    what the better one gains (or why the played move is the best), per language code
    (:func:`bot.i18n.languages`), and whether the values are ``exact``
    (a two-player last deal solved to the end) or estimated."""

    step: int
    round_number: int
    played: Move
    best: Move
    cost: float
    verdict: str
    reasons: Mapping[str, str]
    exact: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "step": self.step,
            "round": self.round_number,
            "played": self.played.to_dict(),
            "best": self.best.to_dict(),
            "cost": self.cost,
            "verdict": self.verdict,
            "reasons": dict(self.reasons),
            "exact": self.exact,
        }

    @classmethod
    def from_dict(cls, data: object) -> MoveReview:
        """The inverse of :meth:`to_dict`; ``ValueError`` for anything else."""
        fields = _exact_keys(data, ("step", "round", "played", "best", "cost", "verdict",
                                    "reasons", "exact"), "a move review")  # fmt: skip
        step = _whole(fields["step"], "step", least=1)
        number = _whole(fields["round"], "round", least=1)
        played, best = _move(fields["played"]), _move(fields["best"])
        cost = fields["cost"]
        if (
            not isinstance(cost, int | float)
            or isinstance(cost, bool)
            or not math.isfinite(cost)
            or cost < 0
            or round(cost, COST_DIGITS) != cost
        ):
            raise ValueError(f"a cost is a number >= 0 in hundredths, not {cost!r}")
        if (cost == 0) != (played == best):
            raise ValueError("a cost is 0 exactly when the best move is the one played")
        exact = fields["exact"]
        if not isinstance(exact, bool) or (exact and cost != int(cost)):
            raise ValueError(f"exact is true or false (an exact cost whole), not {exact!r}")
        verdict = fields["verdict"]
        if verdict != verdict_for(float(cost), played == best):
            raise ValueError(f"verdict {verdict!r} does not follow from cost {cost!r}")
        reasons = fields["reasons"]
        if (
            not isinstance(reasons, dict)
            or set(reasons) != set(languages())
            or not all(isinstance(text, str) and text for text in reasons.values())
        ):
            raise ValueError(f"reasons are one text per language {languages()}")
        return cls(step, number, played, best, float(cost), verdict, dict(reasons), exact)


@dataclass(frozen=True)
class Analysis:
    """The reviews of one seat's moves in one finished game, in the order played."""

    game_id: int
    seat: int
    version: int
    reviews: tuple[MoveReview, ...]

    def costliest(self, n: int = 3) -> list[MoveReview]:
        """The ``n`` costliest moves that are not ``"best"``, costliest first (earlier
        first among equal costs)."""
        flawed = [r for r in self.reviews if r.verdict != "best"]
        flawed.sort(key=lambda r: (-r.cost, r.step))
        return flawed[: max(0, n)]

    def counts(self) -> dict[str, int]:
        """How many moves got each verdict (every verdict present, in :data:`VERDICTS`
        order)."""
        counts = dict.fromkeys(VERDICTS, 0)
        for review in self.reviews:
            counts[review.verdict] += 1
        return counts

    @property
    def exact_count(self) -> int:
        """How many moves were valued exactly (the rest were estimated)."""
        return sum(review.exact for review in self.reviews)

    @property
    def total_cost(self) -> float:
        """The expected points given away over the game."""
        return round(sum(r.cost for r in self.reviews), COST_DIGITS)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (only JSON types: dicts, lists, str, int, float)."""
        return {
            "version": self.version,
            "game": self.game_id,
            "seat": self.seat,
            "reviews": [review.to_dict() for review in self.reviews],
        }

    @classmethod
    def from_dict(cls, data: object) -> Analysis:
        """The inverse of :meth:`to_dict`; ``ValueError`` for anything malformed, and for
        an analysis of another :data:`ANALYSIS_VERSION` (to be computed again)."""
        fields = _exact_keys(data, ("version", "game", "seat", "reviews"), "an analysis")
        version = fields["version"]
        if version != ANALYSIS_VERSION or isinstance(version, bool):
            raise ValueError(f"analysis version {version!r}, this bot writes {ANALYSIS_VERSION}")
        game = _whole(fields["game"], "game")
        seat = _whole(fields["seat"], "seat")
        reviews = fields["reviews"]
        if not isinstance(reviews, list):
            raise ValueError("reviews are a list")
        parsed = tuple(MoveReview.from_dict(r) for r in reviews)
        steps = [r.step for r in parsed]
        if steps != sorted(set(steps)):
            raise ValueError("reviews are in the order played, one per step")
        return cls(game, seat, ANALYSIS_VERSION, parsed)


def _exact_keys(data: object, keys: tuple[str, ...], what: str) -> dict[str, Any]:
    if not isinstance(data, dict) or set(data) != set(keys):
        raise ValueError(f"{what} is a mapping of exactly {', '.join(keys)}")
    return data


def _whole(value: object, name: str, least: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise ValueError(f"{name} is a whole number >= {least}, not {value!r}")
    return value


def _move(data: object) -> Move:
    """A move from its JSON form, which must be the canonical one."""
    try:
        move = Move.from_dict(data)  # type: ignore[arg-type]
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as error:
        raise ValueError(f"not a move: {error}") from None
    if move.to_dict() != data:
        raise ValueError(f"not a move in its saved form: {data!r}")
    return move
