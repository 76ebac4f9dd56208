"""An analysis as data (bot/analysis/model.py): verdicts by the documented thresholds,
the costliest moves, and a JSON form read back whole or refused."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.analysis import ANALYSIS_VERSION, VERDICTS, Analysis, MoveReview, verdict_for
from bot.engine import Move, parse_cards
from bot.i18n import languages

MOVES = [
    Move.trail(parse_cards("7H")[0]),
    Move(parse_cards("10D")[0], parse_cards("AS 9C")),
    Move(parse_cards("KS")[0], parse_cards("KH")),
    Move.build(parse_cards("3C")[0], parse_cards("5D"), 8),
]


@st.composite
def reviews(draw: st.DrawFn, step: int) -> MoveReview:
    played = draw(st.sampled_from(MOVES))
    best = draw(st.sampled_from(MOVES))
    exact = draw(st.booleans())
    # a cost is 0 exactly when the best move is the one played; an estimated one below
    # SAME_WITHIN is folded into 0, and an exact one is whole points
    if best == played:
        cost = 0.0
    elif exact:
        cost = float(draw(st.integers(1, 9)))
    else:
        cost = draw(st.integers(10, 900)) / 100
    reasons = {code: draw(st.text(min_size=1, max_size=30)) for code in languages()}
    number = draw(st.integers(1, 9))
    verdict = verdict_for(cost, best == played)
    return MoveReview(step, number, played, best, cost, verdict, reasons, exact)


@st.composite
def analyses(draw: st.DrawFn) -> Analysis:
    steps = sorted(draw(st.sets(st.integers(1, 400), max_size=12)))
    made = tuple(draw(reviews(step)) for step in steps)
    return Analysis(draw(st.integers(0, 10**12)), draw(st.integers(0, 5)), ANALYSIS_VERSION, made)


@settings(max_examples=60, deadline=None)
@given(analyses())
def test_an_analysis_reads_back_whole_from_its_json(analysis: Analysis) -> None:
    text = json.dumps(analysis.to_dict())
    assert Analysis.from_dict(json.loads(text)) == analysis
    counts = analysis.counts()
    assert list(counts) == list(VERDICTS) and sum(counts.values()) == len(analysis.reviews)
    worst = analysis.costliest()
    assert len(worst) <= 3 and all(r.verdict != "best" for r in worst)
    assert [r.cost for r in worst] == sorted((r.cost for r in worst), reverse=True)
    others = [r for r in analysis.reviews if r.verdict != "best" and r not in worst]
    assert all(r.cost <= worst[-1].cost for r in others)


def _sample() -> dict:
    reasons = dict.fromkeys(languages(), "x")
    review = MoveReview(4, 1, MOVES[0], MOVES[1], 0.75, "inaccuracy", reasons)
    same = MoveReview(6, 1, MOVES[2], MOVES[2], 0.0, "best", dict.fromkeys(languages(), "y"))
    exact = MoveReview(8, 1, MOVES[0], MOVES[3], 2.0, "mistake", reasons, exact=True)
    return Analysis(7, 1, ANALYSIS_VERSION, (review, same, exact)).to_dict()


def _broken() -> list[object]:
    """Malformed forms of :func:`_sample`, each wrong in one way."""
    out: list[object] = [None, [], "x", {}]

    def change(edit) -> None:
        data = copy.deepcopy(_sample())
        edit(data)
        out.append(data)

    change(lambda d: d.update(version=ANALYSIS_VERSION + 1))
    change(lambda d: d.update(version=True))
    change(lambda d: d.update(game=-1))
    change(lambda d: d.update(seat="1"))
    change(lambda d: d.update(extra=1))
    change(lambda d: d.pop("reviews"))
    change(lambda d: d.update(reviews={}))
    change(lambda d: d["reviews"].reverse())  # not in the order played
    change(lambda d: d["reviews"].append(d["reviews"][0]))  # a step twice
    change(lambda d: d["reviews"][0].update(cost=-0.5))
    change(lambda d: d["reviews"][0].update(cost=0.755))
    change(lambda d: d["reviews"][0].update(cost=float("nan")))
    change(lambda d: d["reviews"][0].update(cost="0.75"))
    change(lambda d: d["reviews"][0].update(verdict="mistake"))  # not what 0.75 gives
    change(lambda d: d["reviews"][0].update(verdict="blunder"))
    change(lambda d: d["reviews"][1].update(verdict="fine"))  # the best move itself
    change(lambda d: d["reviews"][0].update(step=0))
    change(lambda d: d["reviews"][0].update(round=True))
    change(lambda d: d["reviews"][0].update(played={"card": "ZZ"}))
    change(lambda d: d["reviews"][0].update(best={"card": "7H", "taken": "7H"}))
    change(lambda d: d["reviews"][0].update(best={"card": "7H", "taken": [], "x": 1}))
    change(lambda d: d["reviews"][0].update(reasons={"en": "x"}))
    change(lambda d: d["reviews"][0]["reasons"].update(en=""))
    change(lambda d: d["reviews"][0].pop("reasons"))
    change(lambda d: d["reviews"][0].update(cost=0.0, verdict="best"))  # a better move, no cost
    change(lambda d: d["reviews"][1].update(cost=0.05))  # the best move itself, a cost
    change(lambda d: d["reviews"][0].pop("exact"))
    change(lambda d: d["reviews"][0].update(exact=1))
    change(lambda d: d["reviews"][2].update(cost=1.5, verdict="mistake"))  # exact: whole points
    return out


@pytest.mark.parametrize("data", _broken())
def test_a_malformed_analysis_is_refused(data: object) -> None:
    Analysis.from_dict(_sample())  # the sample itself is fine
    with pytest.raises(ValueError):
        Analysis.from_dict(data)


@settings(max_examples=80, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)))  # fmt: skip
def test_arbitrary_json_is_refused_or_read_whole(data: object) -> None:
    try:
        analysis = Analysis.from_dict(data)
    except ValueError:
        return
    assert analysis.to_dict() == data


def test_verdicts_follow_the_documented_thresholds() -> None:
    assert [verdict_for(c) for c in (0.0, 0.09, 0.1, 0.59, 0.6, 1.49, 1.5, 9.0)] == [
        "best", "best", "fine", "fine", "inaccuracy", "inaccuracy", "mistake", "mistake"
    ]  # fmt: skip
    assert verdict_for(3.0, same=True) == "best"
