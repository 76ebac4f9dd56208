"""Games saved by the engine before builds (format version 1) still load and play on.

``data/saved_v1.json`` was written by the engine as it was before issue 8: three matches
saved mid-round (Swedish, Mulle with 3 players, Finnish in partnerships), with the moves
that were played after the save and the result they led to.
"""

import json
from pathlib import Path

import pytest

from bot.engine import Match, Move, Round

SAVED = json.loads((Path(__file__).parent / "data" / "saved_v1.json").read_text())


@pytest.mark.parametrize("name", sorted(SAVED))
def test_a_version_1_match_loads_and_plays_on_to_the_same_result(name):
    case = SAVED[name]
    assert case["saved"]["version"] == 1
    match = Match.from_dict(case["saved"])
    for data in case["moves"]:
        move = Move.from_dict(data)
        assert match.round.is_legal(move)
        match.play(move)
    assert match.winner == case["winner"]
    assert match.scores == case["scores"]
    assert match.rounds_played == case["rounds_played"]


@pytest.mark.parametrize("name", sorted(SAVED))
def test_a_version_1_round_loads_and_saves_as_version_2(name):
    data = SAVED[name]["saved"]["round"]
    rnd = Round.from_dict(data)
    again = rnd.to_dict()
    assert again["version"] == 2 and again["table"] == data["table"]
    assert Round.from_dict(again).to_dict() == again
