"""Krypkasino's saved games are as strict as its rules (issue 30, docs/rules.md section 10).

A saved round credits each tabbe's reward to the seat just before its capturer; a won
match's totals are its last round's start plus that round's scores, and no earlier round
ended with a winner; Krypkasino offers neither ``live`` nor the spades tiebreak; its
numbers are whole numbers. Each refusal has a test of its own, and a property tampers
once with random saved rounds and matches: the result is refused exactly when it is no
state play can reach.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Match, Round, rules_for
from bot.engine.match import _winner

KRYP = rules_for("krypkasino")


def saved(thing: Round | Match) -> dict:
    """The saved form, as the database gives it back (through JSON)."""
    return json.loads(json.dumps(thing.to_dict()))


def played_round(players: int, seed: int, rules=KRYP, moves: int | None = None) -> Round:
    """A round of random legal moves: ``moves`` of them, or to its end."""
    rnd = Round.deal(rules, players, seed=seed)
    rng = random.Random(seed)
    while not rnd.is_over and (moves is None or len(rnd.plays) < moves):
        rnd.play(rng.choice(rnd.legal_moves()))
    return rnd


def played_match(players: int, seed: int, rules=KRYP, moves: int | None = None) -> Match:
    """A match of random legal moves: ``moves`` of them, or to its end."""
    match = Match.start(rules, players, seed=seed)
    rng = random.Random(seed)
    played = 0
    while not match.is_over and (moves is None or played < moves):
        match.play(rng.choice(match.round.legal_moves()))
        played += 1
    return match


def round_with_tabbar(players: int) -> Round:
    """A finished round whose tabbar are not the same at every seat."""
    for seed in range(200):
        rnd = played_round(players, seed)
        if len(set(rnd.sweeps)) > 1:
            return rnd
    raise AssertionError("no round with tabbar")


# -- (1) rewards go to the seat before the capturer -------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5])
def test_rewards_moved_to_other_seats_are_refused(players):
    """Equal sums are not enough: a reward credited to any other seat is refused."""
    rnd = round_with_tabbar(players)
    data = saved(rnd)
    assert data["rewards"] == rnd.sweeps[1:] + rnd.sweeps[:1]  # the seat before the taker
    Round.from_dict(data)
    for shift in range(1, players):
        bad = saved(rnd)
        bad["rewards"] = data["rewards"][shift:] + data["rewards"][:shift]
        if bad["rewards"] == data["rewards"]:
            continue
        with pytest.raises(ValueError, match=r"seat \d is rewarded for \d+ but seat \d"):
            Round.from_dict(bad)


def test_rewards_credited_to_the_taker_itself_are_refused():
    rnd = round_with_tabbar(3)
    bad = saved(rnd)
    bad["rewards"] = list(rnd.sweeps)  # the seat that made the tabbe, not the one before
    with pytest.raises(ValueError, match="rewards the seat before its capturer"):
        Round.from_dict(bad)


# -- (2) a match's totals -----------------------------------------------------------------


def won_match(players: int = 3, target: int = 20) -> Match:
    for seed in range(50):
        match = played_match(players, seed, rules_for("krypkasino", target=target))
        if match.rounds_played >= 2:
            return match
    raise AssertionError("no match of two rounds")


def test_a_won_matchs_totals_are_its_last_rounds_start_plus_its_scores():
    match = won_match()
    data = saved(match)
    Match.from_dict(data)
    loser = max(range(3), key=lambda side: match.banked[side])
    bad = saved(match)
    bad["banked"][loser] += 1  # the winner is still alone with the lowest total
    with pytest.raises(ValueError, match=r"not the last round.s start .* plus its scores"):
        Match.from_dict(bad)
    bad = saved(match)
    bad["round"]["scores"][loser] -= 1  # the round started elsewhere
    with pytest.raises(ValueError, match="not the last round's start"):
        Match.from_dict(bad)


def test_a_won_matchs_last_round_scores_are_its_cards():
    match = won_match()
    bad = saved(match)
    side = next(s for s in bad["round_scores"][-1] if s.get("spades", 0) >= 1)
    side["spades"] -= 1  # the same total, other items
    side["aces"] = side.get("aces", 0) + 1
    with pytest.raises(ValueError, match="saved scores are not the ones its cards give"):
        Match.from_dict(bad)


def test_round_scores_adding_up_to_more_than_the_totals_are_refused():
    match = played_match(2, 3, rules_for("swedish"), moves=60)
    assert match.rounds_played >= 1 and not match.is_over
    bad = saved(match)
    low = min(range(2), key=lambda side: match.banked[side])
    bad["round_scores"][0][low]["cards"] = match.banked[low] + 1
    with pytest.raises(ValueError, match="the match's start"):
        Match.from_dict(bad)


def test_an_earlier_round_with_a_winner_is_refused():
    """Counted back from the current round's start, the totals after an earlier round
    must not have ended the match (nor may the start itself)."""
    rules = rules_for("krypkasino", target=60)
    match = Match.start(rules, 3, seed=2)
    rng = random.Random(2)
    while match.rounds_played < 2:
        match.play(rng.choice(match.round.legal_moves()))
    assert not match.is_over
    Match.from_dict(saved(match))
    after_first = [b - s.total for b, s in zip(match.banked, match.round_scores[1], strict=True)]
    lowest = after_first.index(min(after_first))
    bad = saved(match)
    for side, items in enumerate(bad["round_scores"][1]):
        if side != lowest:  # 60 more after the first round: past the limit, one lowest
            items["reward"] = items.get("reward", 0) - 60
    with pytest.raises(ValueError, match="earlier round had a winner"):
        Match.from_dict(bad)
    bad = saved(match)
    for side, items in enumerate(bad["round_scores"][0]):
        if side != lowest:
            items["reward"] = items.get("reward", 0) - 60
    with pytest.raises(ValueError, match="would have started won"):
        Match.from_dict(bad)


# -- (3) neither live nor the spades tiebreak ---------------------------------------------


def test_rules_for_refuses_live_and_the_spades_tiebreak():
    with pytest.raises(ValueError, match="no counting as you go"):
        rules_for("krypkasino", live=True)
    with pytest.raises(ValueError, match="tiebreak is always 'extra-round', not 'spades'"):
        rules_for("krypkasino", tiebreak="spades")
    with pytest.raises(ValueError, match="tiebreak"):
        replace(KRYP, tiebreak="spades")
    assert rules_for("krypkasino", live=False, tiebreak="extra-round") == KRYP
    assert rules_for("swedish", tiebreak="spades", live=True).live  # others keep both


@pytest.mark.parametrize(
    ("key", "value", "words"), [("live", True, "live"), ("tiebreak", "spades", "tiebreak")]
)
def test_saved_rules_refuse_live_and_the_spades_tiebreak(key, value, words):
    rnd = saved(played_round(3, 1, moves=10))
    rnd["rules"][key] = value
    with pytest.raises(ValueError, match=words):
        Round.from_dict(rnd)
    match = saved(played_match(3, 1, moves=10))
    match["rules"][key] = value
    match["round"]["rules"][key] = value
    with pytest.raises(ValueError, match=words):
        Match.from_dict(match)


# -- (4) whole numbers ----------------------------------------------------------------------


@pytest.mark.parametrize("size", [2.0, 3.0, True, False, 1, 4, "2", None])
def test_team_size_is_a_whole_number(size):
    with pytest.raises(ValueError, match="team_size is 2 or 3"):
        rules_for("krypkasino", teams=True, team_size=size)
    data = saved(played_round(4, 1, rules_for("krypkasino", teams=True), moves=3))
    data["rules"]["team_size"] = size
    with pytest.raises(ValueError, match="team_size"):
        Round.from_dict(data)


@pytest.mark.parametrize("target", [50.0, True, "50", 5.5])
def test_target_is_a_whole_number(target):
    with pytest.raises(ValueError, match="target is a whole number"):
        rules_for("krypkasino", target=target)


# -- the property -------------------------------------------------------------------------

SETUPS = [
    ({}, 2),
    ({}, 3),
    ({}, 4),
    ({}, 5),
    ({}, 6),
    ({"teams": True}, 4),
    ({"teams": True}, 6),
    ({"teams": True, "team_size": 3}, 6),
    ({"majorities": True, "take_all": False}, 3),
]
PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))


def legal_with_target(match: Match, target: int) -> bool:
    """Whether the match's play, from zero, reaches its saved state with this limit:
    counted forwards from its round scores, no round before the last ended it, and the
    last one ended it with its winner if it is over."""
    rules = replace(match.rules, target=target)
    totals = [0] * rules.sides(match.players)
    for number, scores in enumerate(match.round_scores, 1):
        totals = [t + s.total for t, s in zip(totals, scores, strict=True)]
        winner = _winner(rules, totals)
        if match.is_over and number == len(match.round_scores):
            return winner == match.winner
        if winner is not None:
            return False
    return not match.is_over


def tamper(data: dict, thing: Round | Match, draw) -> bool:
    """Change one thing in ``data`` (a saved ``thing``); whether the result is a state
    play can reach (an option saved twice in a match, its rules and its round's, is
    changed in both)."""
    is_match = isinstance(thing, Match)
    rnd = thing.round if is_match else thing
    saved_round = data["round"] if is_match else data
    what = draw(st.sampled_from(["rewards", "banked", "start", "option"]))
    if what == "rewards" or (what in ("banked", "start") and not is_match):
        # Rewards follow from the tabbar; a lone round may start from any totals.
        seat = draw(st.integers(0, rnd.players - 1))
        saved_round["rewards"][seat] = draw(st.integers(0, 4))
        return saved_round["rewards"] == rnd.to_dict()["rewards"]
    if what in ("banked", "start"):
        # The totals and the round's start follow from the round scores and the cards.
        values = data["banked"] if what == "banked" else saved_round["scores"]
        side = draw(st.integers(0, len(values) - 1))
        before = values[side]
        values[side] = draw(st.integers(-30, 120))
        return values[side] == before
    option = draw(st.sampled_from(["live", "tiebreak", "team_size", "teams", "target"]))
    value = {
        "live": True,
        "tiebreak": "spades",
        "team_size": draw(st.sampled_from([2.0, 3.0, True, 1, 4, "2", 5 - rnd.rules.team_size])),
        "teams": not rnd.rules.teams,
        "target": draw(st.integers(5, 100)),
    }[option]
    for rules in (data["rules"], saved_round["rules"]) if is_match else (data["rules"],):
        rules[option] = value
    if option != "target":
        return False  # not offered, not a whole number, or another number of sides
    return legal_with_target(thing, value) if is_match else True


@PROPERTY
@given(st.data(), st.sampled_from(SETUPS), st.integers(0, 10**6), st.booleans())
def test_saved_krypkasino_games_round_trip_and_refuse_one_tampering(data, setup, seed, is_match):
    """Random rounds and matches (2-6 players, teams, mid-round or over) load back as
    they were saved, and one random change is refused exactly when no play reaches it.

    Exact because each changed thing follows from the rest: rewards from the tabbar, a
    match's totals and its round's start from the round scores (and, once won, the last
    round's cards), so such a change is legal only when it changes nothing; the options
    not offered, not whole or giving another number of sides are never legal; a new
    limit is legal where counting the round scores forwards from zero reaches the saved
    state with it (:func:`legal_with_target`). ``take_all`` and ``majorities`` are not
    changed: the saved plays are not replayed, so which of them the option allowed is
    not checked.
    """
    options, players = setup
    moves = data.draw(st.one_of(st.none(), st.integers(0, 300)), label="moves")
    if is_match:
        target = data.draw(st.integers(5, 40), label="target")
        rules = rules_for("krypkasino", target=target, **options)
        thing = played_match(players, seed, rules, moves)
        load = Match.from_dict
    else:
        rules = rules_for("krypkasino", **options)
        thing = played_round(players, seed, rules, moves)
        load = Round.from_dict
    original = saved(thing)
    assert load(original).to_dict() == thing.to_dict()
    changed = saved(thing)
    legal = tamper(changed, thing, data.draw)
    if legal:
        load(changed)
    else:
        with pytest.raises(ValueError):
            load(changed)
