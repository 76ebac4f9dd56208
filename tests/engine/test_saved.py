"""Saved games refuse every state play cannot reach (issue 7: nothing crashed).

A game's saved form is its truth in SQLite, so ``Round.from_dict`` and ``Match.from_dict``
raise ``ValueError`` naming the problem, and nothing else, whatever JSON they are given.
"""

import copy
import json
import random

import pytest

from bot.engine import (
    Card,
    Match,
    Round,
    all_captures,
    capture_options,
    capture_targets,
    is_capture,
    parse_cards,
    rules_for,
)

SWEDISH = rules_for("swedish")


def saved_round(name="swedish", players=2, moves=5, seed=3):
    """A real round's saved form after a few moves."""
    round_ = Round.deal(rules_for(name), players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        round_.play(rng.choice(round_.legal_moves()))
    return json.loads(json.dumps(round_.to_dict()))


def saved_match(name="swedish", players=2, moves=5, seed=3):
    """A real match's saved form after a few moves."""
    match = Match.start(rules_for(name), players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        match.play(rng.choice(match.round.legal_moves()))
    return json.loads(json.dumps(match.to_dict()))


def changed(data, change):
    twin = copy.deepcopy(data)
    change(twin)
    return twin


def refused(load, data, words):
    with pytest.raises(ValueError, match=words or None):
        load(data)


def set_(key, value):
    return lambda data: data.__setitem__(key, value)


# -- the round's fields ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (set_("to_move", 2), "to_move is a seat"),
        (set_("to_move", -1), "to_move is a seat"),
        (set_("to_move", True), "to_move is a seat"),
        (set_("to_move", "1"), "to_move is a seat"),
        (set_("to_move", 1.0), "to_move is a seat"),
        (set_("to_move", None), "to_move is a seat"),
        (set_("dealer", 2), "dealer is a seat"),
        (set_("dealer", True), "dealer is a seat"),
        (set_("dealer", "0"), "dealer is a seat"),
        (set_("last_capturer", 5), "last_capturer is a seat"),
        (set_("last_capturer", False), "last_capturer is a seat"),
        (set_("last_capturer", [0]), "last_capturer is a seat"),
        (set_("version", True), "version"),
        (set_("version", 3), "version"),  # version 2 (builds) and 1 are read
    ],
)
def test_seats_and_versions_of_the_wrong_kind_are_refused(change, words):
    refused(Round.from_dict, changed(saved_round(), change), words)


@pytest.mark.parametrize("key", ["piles", "sweeps", "void_sweeps", "mulles", "scores"])
def test_per_seat_lists_of_the_wrong_length_are_refused(key):
    refused(Round.from_dict, changed(saved_round(), lambda d: d[key].append(d[key][0])), key)
    refused(Round.from_dict, changed(saved_round(), lambda d: d[key].pop()), key)


def test_a_missing_hand_is_refused():
    refused(Round.from_dict, changed(saved_round(players=3), lambda d: d["hands"].pop()), "")


@pytest.mark.parametrize("key", ["sweeps", "mulles", "scores"])
@pytest.mark.parametrize("value", [-1, True, "2", 1.5, None, [1]])
def test_counts_are_whole_numbers_from_zero(key, value):
    data = saved_round("mulle")
    data[key][0] = value
    refused(Round.from_dict, data, key if key != "scores" else "score")


@pytest.mark.parametrize("value", [-1, 0, 7, True, "2", 2.0])
def test_the_deal_number_fits_the_deck(value):
    refused(Round.from_dict, changed(saved_round(), set_("deal_number", value)), "deal")


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("name", "poker", "unknown variant"),
        ("name", ["swedish"], "unknown variant"),
        ("decks", 7, "decks"),
        ("decks", 2, "decks"),
        ("hand_size", 0, "hand_size"),
        ("hand_size", 5, "hand_size"),
        ("table_size", "4", "table_size"),
        ("mulle_points", 5, "mulle_points"),
        ("finnish_values", 1, "finnish_values"),
        ("target", 3, "target"),
        ("target", True, "target"),
        ("target", "16", "target"),
        pytest.param("target", 10**400, "target", id="target-huge"),
        ("teams", "yes", "teams"),
        ("tiebreak", "coin", "tiebreak"),
        ("live", 0, "live"),
    ],
)
def test_unknown_variants_and_impossible_rules_are_refused(key, value, words):
    data = saved_round()
    data["rules"][key] = value
    refused(Round.from_dict, data, words)


def test_a_round_over_with_cards_in_hand_is_refused():
    refused(Round.from_dict, changed(saved_round(), set_("is_over", True)), "over")


def test_a_card_missing_or_doubled_is_refused():
    refused(Round.from_dict, changed(saved_round(), lambda d: d["deck"].pop()), "missing")
    doubled = changed(saved_round(), lambda d: d["deck"].append(d["deck"][0]))
    refused(Round.from_dict, doubled, "times|too often")
    mulle = changed(saved_round("mulle"), lambda d: d["deck"].append(d["deck"][0]))
    refused(Round.from_dict, mulle, "times|too often")
    swapped = changed(saved_round(), lambda d: d["deck"].__setitem__(0, d["deck"][1]))
    refused(Round.from_dict, swapped, "missing|too often|times")


def test_empty_hands_with_cards_left_in_the_deck_are_refused():
    """Such a round had no legal move and was not over: stuck for ever."""

    def empty_hands(into):
        def change(data):
            for hand in data["hands"]:
                data[into].extend(hand)
                hand.clear()

        return change

    refused(Round.from_dict, changed(saved_round(), empty_hands("deck")), "deck")
    refused(Round.from_dict, changed(saved_round(), empty_hands("table")), "no one holds cards")


def test_the_player_to_move_holds_cards():
    def move_on(data):
        data["to_move"] = 1 - data["to_move"]

    refused(Round.from_dict, changed(saved_round(moves=5), move_on), "")


@pytest.mark.parametrize(
    "junk", [None, 3, "x", [], {"version": 1}, {"version": 1, "rules": []}, {"version": 1.0}]
)
def test_junk_is_refused_with_a_value_error(junk):
    refused(Round.from_dict, junk, "")
    refused(Match.from_dict, junk, "")


def test_cards_are_named_in_plain_notation():
    data = saved_round()
    data["table"][0] = {"rank": 2}
    refused(Round.from_dict, data, "card")
    data["table"][0] = "२S"
    refused(Round.from_dict, data, "not a card")


# -- the match's fields ---------------------------------------------------------------


def test_the_match_and_its_round_have_the_same_rules():
    data = saved_match()
    data["rules"]["target"] = 21
    refused(Match.from_dict, data, "rules")
    data = saved_match()
    data["players"] = 3
    refused(Match.from_dict, data, "")


@pytest.mark.parametrize("winner", [2, -1, True, "0", 0.0, [0]])
def test_a_winner_that_is_not_a_side_is_refused(winner):
    refused(Match.from_dict, changed(saved_match(), set_("winner", winner)), "winner")


def test_a_winner_that_has_not_reached_the_target_is_refused():
    refused(Match.from_dict, changed(saved_match(), set_("winner", 0)), "")


@pytest.mark.parametrize("value", [-1, True, "0", 1, None])
def test_rounds_played_must_fit(value):
    refused(Match.from_dict, changed(saved_match(), set_("rounds_played", value)), "round")


@pytest.mark.parametrize("banked", [[-1, 0], [0, 0, 0], [16, 0], ["0", 0], [0, True]])
def test_banked_scores_must_fit(banked):
    refused(Match.from_dict, changed(saved_match(), set_("banked", banked)), "")


@pytest.mark.parametrize("seed", [None, [1, 2], {"a": 1}, "huge"])
def test_the_seed_is_a_number_or_text(seed):
    seed = 10**5000 if seed == "huge" else seed  # too long to write out as a seed
    refused(Match.from_dict, changed(saved_match(), set_("seed", seed)), "")


@pytest.mark.parametrize("scores", [[-1, 0], [16, 3], [0, 20], [True, 0], ["3", 0]])
def test_match_start_refuses_impossible_scores(scores):
    with pytest.raises(ValueError, match=r"scores|already|over"):
        Match.start(SWEDISH, 2, seed=1, scores=scores)


def test_match_start_plays_on_from_a_tie_at_the_top():
    match = Match.start(SWEDISH, 2, seed=1, scores=[17, 17])
    assert match.scores == [17, 17] and not match.is_over


def test_a_seed_that_is_not_a_number_or_text_deals_the_same_and_round_trips():
    match = Match.start(SWEDISH, 2, seed=("table", 7))
    assert match.round.to_dict() == Match.start(SWEDISH, 2, seed="('table', 7)").round.to_dict()
    saved = json.loads(json.dumps(match.to_dict()))
    assert Match.from_dict(saved).to_dict() == match.to_dict()


# -- cards and captures ---------------------------------------------------------------


@pytest.mark.parametrize("text", ["२S", "٢S", "२♠", "Aſ", "ＡS", "1０D", "\u3000AS", "K\u0455"])
def test_only_plain_notation_and_suit_symbols_are_cards(text):
    with pytest.raises(ValueError):
        Card.parse(text)


ACE = Card.parse("AS")


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ((None, ACE, parse_cards("AH")), TypeError),
        ((SWEDISH, "AS", parse_cards("AH")), TypeError),
        ((SWEDISH, None, parse_cards("AH")), TypeError),
        ((SWEDISH, ACE, "AH"), TypeError),
        ((SWEDISH, ACE, None), TypeError),
        ((SWEDISH, ACE, 5), TypeError),
        ((SWEDISH, ACE, ["AH"]), TypeError),
        ((SWEDISH, ACE, [None]), TypeError),
        ((SWEDISH, ACE, {"AH": 1}), TypeError),
        ((SWEDISH, ACE, parse_cards("AS 2H")), ValueError),
        ((SWEDISH, ACE, parse_cards("AH AH")), ValueError),
        ((rules_for("mulle"), ACE, parse_cards("AS AS")), ValueError),
        ((rules_for("mulle"), ACE, parse_cards("AH AH AH")), ValueError),
    ],
)
def test_capture_functions_refuse_wrong_arguments_readably(args, error):
    for function in (is_capture, capture_options, capture_targets, all_captures):
        with pytest.raises(error):
            function(*args)


@pytest.mark.parametrize(("limit", "error"), [(0, ValueError), ("3", TypeError), (True, TypeError)])
def test_capture_options_refuses_a_bad_limit(limit, error):
    with pytest.raises(error):
        capture_options(SWEDISH, ACE, parse_cards("AH"), limit=limit)


def test_mulle_allows_the_twin_of_the_played_card_on_the_table():
    mulle = rules_for("mulle")
    assert is_capture(mulle, ACE, parse_cards("AS"))
    assert capture_options(mulle, ACE, parse_cards("AS AH"), limit=3)


def test_build_notation_is_ascii_only() -> None:
    from bot.engine import Build

    assert Build.parse("[3: AS 2S]").value == 3
    for text in ("[٣: AS 2S]", "[²: AS AH]", "[3 AS 2S]"):
        with pytest.raises(ValueError):
            Build.parse(text)
