"""Which table cards a played card captures (RULES.md §2 Capturing, §5 values, §6 multisets).

Covers every capture example of RULES.md §2 and of the seed pages 000 and 001.
"""

import time
from collections import Counter

import pytest

from bot.engine import Move, Round, capture_options, is_capture, parse_cards, rules_for

SWEDISH = rules_for("swedish")
FINNISH = rules_for("finnish")
MULLE = rules_for("mulle")


def card(text):
    return parse_cards(text)[0]


def key(cards):
    """A capture as an order-free multiset of card names."""
    return tuple(sorted(str(c) for c in cards))


def options(played, table, rules=SWEDISH, limit=None):
    """capture_options as a set of order-free captures (checking each appears once)."""
    found = capture_options(rules, card(played), parse_cards(table), limit=limit)
    keys = [key(c) for c in found]
    assert len(keys) == len(set(keys)), f"a capture is listed twice: {keys}"
    return set(keys)


def caps(*captures):
    return {key(parse_cards(c)) for c in captures}


def legal(played, taken, rules=SWEDISH):
    return is_capture(rules, card(played), parse_cards(taken))


# -- RULES.md §2 examples ---------------------------------------------------------------


@pytest.mark.parametrize("taken", ["8S", "5H 3C", "4D 2H 2C", "8S 5H 3C", "8S 5H 3C 4D 2H 2C"])
def test_an_eight_takes_an_eight_sums_and_several_groups(taken):
    """§2: a played 8 takes an 8, a 5+3, a 4+2+2, or several such groups together."""
    assert legal("8D", taken)


@pytest.mark.parametrize("taken", ["5H", "5H 2C", "8S 5H", "4D 2H 2C 3C", "8S 8H 5H"])
def test_groups_must_each_add_up(taken):
    """§2: every group must add up to the played value exactly."""
    assert not legal("8D", taken)


TABLE_A23568 = "AH 2C 3D 5S 6H 8C"


@pytest.mark.parametrize("taken", ["8C 6H 2C 5S 3D", "8C 5S 2C AH"])
def test_eight_on_a23568_legal_captures(taken):
    """§2: with A 2 3 5 6 8 on the table an 8 takes 8,6+2,5+3 or 8,5+2+A."""
    assert legal("8D", taken)


def test_eight_never_takes_all_six_cards():
    """§2: ... but never all six cards (each table card is in at most one group)."""
    assert not legal("8D", TABLE_A23568)


def test_eight_on_a23568_maximal_options():
    """§2: the maximal captures are exactly all-but-the-ace and 8,5+2+A."""
    assert options("8D", TABLE_A23568) == caps("8C 6H 2C 5S 3D", "8C 5S 2C AH")


def test_eight_on_a23568_every_smaller_capture_is_a_legal_move():
    """§2: capturing is not compulsory; any legal set may be taken, and trailing is allowed.

    Groups: 8 | 6+2 | 5+3 | 5+2+A; the disjoint unions are 9 captures, plus the trail.
    """
    game = Round.from_position(
        SWEDISH, [parse_cards("8D"), parse_cards("KS")], parse_cards(TABLE_A23568), to_move=0
    )
    moves = game.legal_moves()
    taken = {key(m.taken) for m in moves if not m.is_trail}
    assert taken == caps(
        "8C",
        "6H 2C",
        "5S 3D",
        "5S 2C AH",
        "8C 6H 2C",
        "8C 5S 3D",
        "8C 5S 2C AH",
        "6H 2C 5S 3D",
        "8C 6H 2C 5S 3D",
    )
    assert Move(card("8D")) in moves
    assert len(moves) == 10
    assert all(game.is_legal(m) for m in moves)


# -- seed 000 (pagat) and 001 worked examples -------------------------------------------


def test_seed_nine_takes_the_nine_from_7_5_9_q():
    """Seed 000: table 7 5 9 Q, hand 2 9 10 K: the 9 takes the 9; the others take nothing."""
    table = "7C 5D 9H QS"
    assert options("9S", table) == caps("9H")
    for played in ("2D", "10C", "KH"):
        assert options(played, table) == set()


def test_seed_no_capture_possible_only_trails():
    """Seed 000: table 5 7 9 Q, hand 2 8 10 K: no capture, any card is trailed."""
    hand = parse_cards("2D 8S 10C KH")
    game = Round.from_position(
        SWEDISH, [hand, parse_cards("3C")], parse_cards("5D 7C 9H QS"), to_move=0
    )
    assert all(options(str(c), "5D 7C 9H QS") == set() for c in hand)
    assert sorted(map(str, game.legal_moves())) == sorted(f"{c} trails" for c in hand)


def test_seed_queen_takes_2_3_7_and_four_takes_ace_and_3():
    """Seed 000: table 2 3 7 A, hand Q 4: Q takes 2+3+7; the 4 takes A+3."""
    table = "2S 3D 7C AH"
    assert options("QS", table) == caps("2S 3D 7C")
    assert options("4H", table) == caps("AH 3D")


def test_seed_nine_takes_9_and_4_3_2():
    """Seed 000: table 9 4 3 2: the 9 takes everything (9, and 4+3+2)."""
    assert legal("9C", "9H 4S 3D 2C")
    assert options("9C", "9H 4S 3D 2C") == caps("9H 4S 3D 2C")


def test_seed_ten_on_2_3_5_8_not_all_four():
    """Seed 000: table 2 3 5 8, a 10 takes 2+3+5 or 2+8 but not all four."""
    table = "2H 3C 5D 8S"
    assert legal("10C", "2H 3C 5D")
    assert legal("10C", "2H 8S")
    assert not legal("10C", table)
    assert options("10C", table) == caps("2H 3C 5D", "2H 8S")


def test_seed_ace_as_14_takes_a_4_9():
    """Seed 000: table A 4 9 K; the K takes 4+9 and K, the A as 14 takes A(1)+4+9."""
    table = "AD 4C 9H KS"
    assert legal("KH", "4C 9H KS")
    assert options("KH", table) == caps("4C 9H KS")
    assert legal("AS", "AD 4C 9H")
    # The ace as 14 may also take the table ace as 1 with the king (1+13).
    assert options("AS", table) == caps("AD 4C 9H", "AD KS")


def test_seed_tabbe_nine_takes_3_6_and_9():
    """Seed 000 Tabbe: table 3 6 9, a 9 takes 3+6 and 9."""
    assert options("9D", "3C 6H 9S") == caps("3C 6H 9S")


def test_seed_ace_takes_a_a_2_4_6():
    """Seed 000 Tabbe: table A A 2 4 6: an ace as 14 takes all (1+1+2+4+6)."""
    table = "AH AC 2D 4S 6C"
    assert legal("AS", table)
    assert options("AS", table) == caps(table)
    assert not legal("KD", table)
    assert options("3H", table) == caps("AH 2D", "AC 2D")


@pytest.mark.parametrize("played", ["AS", "2C"])
def test_seed_ace_or_two_clears_a_a(played):
    """Seed 000 Tabbe: table A A: either the A or the 2 (1+1) takes both aces."""
    assert legal(played, "AH AD")
    assert options(played, "AH AD") == caps("AH AD")


def test_seed_ace_takes_a_a_5_8_with_aces_counted_14_and_1():
    """Seed 000 Tabbe: table A A 5 8: the A as 14 takes A(14) and A(1)+5+8."""
    assert legal("AS", "AH AD 5C 8D")
    assert options("AS", "AH AD 5C 8D") == caps("AH AD 5C 8D")


@pytest.mark.parametrize("taken", ["AH AD", "AH", "AH KC", "AH AD KC"])
def test_each_table_ace_counts_1_or_14_independently(taken):
    """§2: each ace taken may count 1 or 14; the played ace takes one value for the play."""
    assert legal("AS", taken)


@pytest.mark.parametrize(
    ("taken", "ok"),
    [
        ("5C 9D", True),
        ("AH 5C 9D", True),
        ("AH AD 4C 9D", True),
        ("KC", False),
        ("2C", False),
        ("AH 2C", False),
        ("5C 8D", False),
    ],
)
def test_played_ace_counts_1_or_14(taken, ok):
    """§2: the played ace counts 1 or 14 (5+9 is 14; a table ace may be a group of its own)."""
    assert legal("AS", taken) is ok


@pytest.mark.parametrize(
    ("played", "taken", "ok"),
    [
        ("JC", "5H 6D", True),
        ("QC", "5H 7D", True),
        ("KC", "6H 7D", True),
        ("KC", "KH 6S 7D", True),
        ("JC", "10H", False),
        ("QC", "JH AC", True),
    ],
)
def test_face_cards_capture_by_value(played, taken, ok):
    """§2: J 11, Q 12, K 13 capture sums like any other card."""
    assert legal(played, taken) is ok


def test_nothing_to_take_gives_no_options():
    """API: capture_options is [] when nothing can be taken (also on an empty table)."""
    assert capture_options(SWEDISH, card("KS"), parse_cards("2H 3C 4D")) == []
    assert capture_options(SWEDISH, card("KS"), []) == []


@pytest.mark.parametrize(
    ("played", "table"),
    [
        ("8D", TABLE_A23568),
        ("AS", "AD 4C 9H KS"),
        ("10C", "2H 3C 5D 8S"),
        ("7C", "AH AS 3D 4H 6C 2S"),
    ],
)
def test_options_are_legal_and_maximal(played, table):
    """API: every option passes is_capture and no option contains another."""
    found = capture_options(SWEDISH, card(played), parse_cards(table))
    assert found
    for option in found:
        assert is_capture(SWEDISH, card(played), option)
        for other in found:
            if other is not option:
                assert Counter(option) - Counter(other), f"{key(option)} inside {key(other)}"


# -- RULES.md §5 Finnish values -----------------------------------------------------------


def test_finnish_ace_cannot_capture_a_lone_ace():
    """§5: an ace is 14 from hand and 1 on the table, so it cannot take a lone ace."""
    assert not legal("AS", "AH", FINNISH)
    assert options("AS", "AH", FINNISH) == set()
    assert legal("AS", "AH KD", FINNISH)  # 1 + 13 = 14
    assert legal("AS", "5H 9D", FINNISH)


def test_finnish_ace_is_never_1_from_hand_or_14_on_table():
    assert not legal("AS", "AH AD", FINNISH)  # 1 + 1 is not 14
    assert not legal("KS", "AH", FINNISH)
    assert legal("5S", "AH 4D", FINNISH)
    assert options("AC", "AH AD 5C 8D", FINNISH) == caps("AH 5C 8D", "AD 5C 8D")


def test_finnish_lillan_is_15_from_hand_2_on_table():
    """§5: 2♠ is 15 from hand, 2 on the table; other twos are 2."""
    assert legal("2S", "7H 8D", FINNISH)
    assert not legal("2S", "2H", FINNISH)
    assert legal("2H", "2S", FINNISH)
    assert legal("9C", "2S 7H", FINNISH)
    assert legal("2H", "2C", FINNISH)


def test_finnish_storan_is_16_from_hand_10_on_table():
    """§5: 10♦ is 16 from hand, 10 on the table; other tens are 10."""
    assert legal("10D", "10S 6H", FINNISH)
    assert not legal("10D", "10S", FINNISH)
    assert legal("10H", "10D", FINNISH)
    assert legal("10H", "10S", FINNISH)
    assert options("10D", "10S 6H 9C 7C", FINNISH) == caps("10S 6H 9C 7C")


# -- RULES.md §6 Mulle: identical cards, multisets --------------------------------------


def test_mulle_identical_cards_give_each_capture_once():
    """API: with identical cards (Mulle) captures are multisets, each listed once."""
    found = capture_options(MULLE, card("5H"), parse_cards("2S 2S 3H"))
    assert [key(c) for c in found] == [key(parse_cards("2S 3H"))]


def test_mulle_both_identical_cards_can_be_taken():
    assert legal("9H", "9S 9S", MULLE)
    assert options("9H", "9S 9S 4H 5H", MULLE) == caps("9S 9S 4H 5H")
    assert options("9S", "9C 9C 9H", MULLE) == caps("9C 9C 9H")


def test_mulle_multiset_options_on_a_double_deck_table():
    """Two identical 3s and two identical 5s: 8 = 5+3 twice over, one option."""
    found = capture_options(MULLE, card("8C"), parse_cards("3D 3D 5D 5D 8S"))
    assert [key(c) for c in found] == [key(parse_cards("3D 3D 5D 5D 8S"))]
    assert not legal("8C", "3D 3D 3H 5D 5D", MULLE)  # three 3s, two 5s: a 3 is left over


# -- limit ------------------------------------------------------------------------------

LOW_TABLE = "AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H"


@pytest.mark.parametrize(
    ("played", "limit"), [("KS", 1), ("KS", 5), ("9C", 3), ("QS", 10), ("JC", 24)]
)
def test_limit_returns_at_most_k_including_a_largest(played, limit):
    """API: with limit=k at most k maximal captures, always one that takes the most cards."""
    full = capture_options(SWEDISH, card(played), parse_cards(LOW_TABLE))
    most = max(len(c) for c in full)
    assert len(full) > limit
    some = capture_options(SWEDISH, card(played), parse_cards(LOW_TABLE), limit=limit)
    assert 1 <= len(some) <= limit
    assert max(len(c) for c in some) == most
    assert {key(c) for c in some} <= {key(c) for c in full}
    assert len({key(c) for c in some}) == len(some)


def test_limit_is_fast_on_a_nasty_table():
    """API: with a limit it stays fast on any table (23 aces and low cards, double deck)."""
    table = parse_cards("AS AH AD AC AH AD AC " + "2S 2H 2D 2C 3S 3H 3D 3C " * 2)
    start = time.perf_counter()
    for played in ("AS", "KS", "QH", "7C"):
        found = capture_options(MULLE, card(played), table, limit=24)
        assert 1 <= len(found) <= 24
        assert all(is_capture(MULLE, card(played), c) for c in found)
    assert time.perf_counter() - start < 2.0
