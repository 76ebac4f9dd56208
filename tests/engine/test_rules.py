"""Variants and rule options (RULES.md §2-§6) and capture values (§2, §5; API: rules_for)."""

import dataclasses

import pytest

from bot.engine import Match, Round, Rules, capture_values, parse_cards, rules_for

VARIANTS = ["swedish", "overspader", "finnish", "mulle"]


@pytest.mark.parametrize(
    ("name", "target"),
    [("swedish", 16), ("overspader", 21), ("finnish", 16), ("mulle", 50)],
)
def test_default_targets(name, target):
    """§2 target 16; §3 Överspader 21; §5 Finnish 16; §6 Mulle 50."""
    rules = rules_for(name)
    assert isinstance(rules, Rules)
    assert rules.name == name
    assert rules.target == target
    assert rules.teams is False


def test_swedish_defaults():
    """§2: tiebreak "spades" by default; §3: counting as you go is off by default."""
    rules = rules_for("swedish")
    assert rules.tiebreak == "spades"
    assert rules.live is False


@pytest.mark.parametrize("target", [5, 11, 16, 21, 50, 100])
def test_any_target_from_5_to_100(target):
    """§3: any target from 5 to 100 may be chosen."""
    for name in VARIANTS:
        assert rules_for(name, target=target).target == target


@pytest.mark.parametrize("target", [4, 0, -16, 101, 1000, 16.5, "16", None])
def test_target_out_of_range_is_refused(target):
    with pytest.raises(ValueError):
        rules_for("swedish", target=target)


@pytest.mark.parametrize("tiebreak", ["spades", "extra-round"])
def test_tiebreak_options(tiebreak):
    """§2: rule option tiebreak is "spades" or "extra-round"."""
    assert rules_for("swedish", tiebreak=tiebreak).tiebreak == tiebreak


@pytest.mark.parametrize("tiebreak", ["coin", "", "Spades ", None])
def test_unknown_tiebreak_is_refused(tiebreak):
    with pytest.raises(ValueError):
        rules_for("swedish", tiebreak=tiebreak)


def test_live_option():
    """§3: counting as you go is rule option live."""
    assert rules_for("swedish", live=True).live is True
    assert rules_for("swedish", live=False).live is False


@pytest.mark.parametrize("name", VARIANTS)
def test_teams_allowed_in_every_nordic_variant(name):
    """§4: partnerships (4 players) are allowed in every Nordic variant."""
    rules = rules_for(name, teams=True)
    assert rules.teams is True
    match = Match.start(rules, 4, seed=1)
    assert len(match.scores) == 2


@pytest.mark.parametrize("players", [2, 3])
def test_teams_need_four_players(players):
    """§4 / API: teams is for 4 players only."""
    rules = rules_for("swedish", teams=True)
    with pytest.raises(ValueError):
        Match.start(rules, players, seed=1)
    with pytest.raises(ValueError):
        Round.deal(rules, players, seed=1)


def test_teams_must_be_a_bool():
    with pytest.raises(ValueError):
        rules_for("swedish", teams="yes")


@pytest.mark.parametrize("players", [1, 5, 0])
def test_two_to_four_players(players):
    """§2: 2, 3 or 4 players."""
    with pytest.raises(ValueError):
        Round.deal(rules_for("swedish"), players, seed=1)


def test_unknown_variant_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="poker"):
        rules_for("poker")


def test_unknown_option_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="jokers"):
        rules_for("swedish", jokers=True)


def test_rules_are_frozen():
    rules = rules_for("swedish", target=21)
    assert dataclasses.is_dataclass(rules)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.target = 5
    assert rules == rules_for("swedish", target=21)
    assert rules != rules_for("swedish")


def test_overrides_keep_the_variant():
    rules = rules_for("finnish", target=21, teams=True)
    assert (rules.name, rules.target, rules.teams) == ("finnish", 21, True)


# -- capture values ---------------------------------------------------------------------

SWEDISH_LIKE = ["swedish", "overspader", "mulle"]


@pytest.mark.parametrize("name", SWEDISH_LIKE)
@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("2S", (2,)),
        ("2H", (2,)),
        ("5C", (5,)),
        ("9D", (9,)),
        ("10D", (10,)),
        ("10S", (10,)),
        ("JH", (11,)),
        ("QS", (12,)),
        ("KD", (13,)),
    ],
)
def test_swedish_values_same_in_hand_and_on_table(name, text, values):
    """§2: 2-10 face value, J 11, Q 12, K 13 (§3, §6: as Swedish)."""
    card = parse_cards(text)[0]
    rules = rules_for(name)
    assert capture_values(rules, card, True) == values
    assert capture_values(rules, card, False) == values


@pytest.mark.parametrize("name", SWEDISH_LIKE)
@pytest.mark.parametrize("text", ["AS", "AH", "AD", "AC"])
@pytest.mark.parametrize("from_hand", [True, False])
def test_swedish_ace_is_1_or_14(name, text, from_hand):
    """§2: an ace counts 1 or 14, both when played and when taken from the table."""
    assert capture_values(rules_for(name), parse_cards(text)[0], from_hand) == (1, 14)


@pytest.mark.parametrize(
    ("text", "in_hand", "on_table"),
    [
        ("AS", (14,), (1,)),
        ("AH", (14,), (1,)),
        ("2S", (15,), (2,)),
        ("2H", (2,), (2,)),
        ("2C", (2,), (2,)),
        ("10D", (16,), (10,)),
        ("10S", (10,), (10,)),
        ("10H", (10,), (10,)),
        ("JD", (11,), (11,)),
        ("QS", (12,), (12,)),
        ("KH", (13,), (13,)),
        ("7D", (7,), (7,)),
    ],
)
def test_finnish_values_in_hand_and_on_table(text, in_hand, on_table):
    """§5: A 14 from hand / 1 on table; 2♠ 15 / 2; 10♦ 16 / 10; others as Swedish."""
    rules = rules_for("finnish")
    card = parse_cards(text)[0]
    assert capture_values(rules, card, True) == in_hand
    assert capture_values(rules, card, False) == on_table
