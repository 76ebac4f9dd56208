"""Swazi Casino (RULES.md 7.4) and Sotho Casino (7.5), with the worked examples of seed
pages 002 and 003 about their builds, pile tops, owners and partners."""

import random
from collections import Counter

import pytest

from bot.engine import Build, IllegalMove, Move, Round, rules_for
from bot.engine.cards import full_deck
from tests.engine.buildhelp import (
    build,
    card,
    cards,
    dealt_with_a_build,
    items,
    position,
    table_text,
    take,
    trail,
)

SWAZI = rules_for("swazi")
SOTHO = rules_for("sotho")


def legal(rnd, move):
    return move in rnd.legal_moves() and rnd.is_legal(move)


def refused(rnd, move, words=""):
    assert move not in rnd.legal_moves()
    with pytest.raises(IllegalMove) as error:
        rnd.play(move)
    assert words in str(error.value), str(error.value)


def with_extra(card_text, value, using, move=None):
    """A trail (or ``move``) plus one build made without the hand card."""
    extra = [(value, items(using))]
    if move is None:
        return Move(card(card_text), table_builds=extra)
    return Move(move.card, move.taken, value=move.value, using=move.using, table_builds=extra)


def first_twelve(rnd):
    rnd.deal_number = 1
    rnd._context = None
    return rnd


# -- deal, direction, values -----------------------------------------------------------------


def test_swazi_deal_layout_cut_from_the_middle_then_singly_anticlockwise():
    deck = full_deck()
    game = Round.deal(SWAZI, 3, dealer=0, deck=deck)
    assert game.table == deck[24:28]  # four cut from the middle of 52
    rest = deck[:24] + deck[28:]
    assert game.to_move == 2  # the dealer's right plays first (anticlockwise)
    assert game.hands[2][:2] == [rest[0], rest[3]] and game.hands[1][0] == rest[1]
    assert game.hands[0][0] == rest[2]  # the dealer is dealt (and plays) last
    assert [len(h) for h in game.hands] == [16, 16, 16] and not game.deck
    two = Round.deal(SWAZI, 2, seed=1)
    assert [len(h) for h in two.hands] == [12, 12] and len(two.deck) == 24
    assert two.deals_total == 2
    four = Round.deal(rules_for("swazi", teams=True), 4, seed=1)
    assert [len(h) for h in four.hands] == [12] * 4
    with pytest.raises(ValueError, match="partnerships"):
        Round.deal(SWAZI, 4, seed=1)


def test_swazi_play_goes_anticlockwise_and_the_deal_passes_right():
    game = Round.deal(SWAZI, 3, dealer=1, seed=2)
    assert game.to_move == 0
    game.play(game.legal_moves()[0])
    assert game.to_move == 2
    from bot.engine import Match

    match = Match.start(SWAZI, 3, seed=5, dealer=1)
    rng = random.Random(5)
    while match.rounds_played == 0 and not match.is_over:
        match.play(rng.choice(match.round.legal_moves()))
    if not match.is_over:
        assert match.round.dealer == 0 and match.round.to_move == 2


def test_swazi_redeal_option_keeps_scoring_cards_and_pictures_out_of_the_layout():
    for seed in range(30):
        game = Round.deal(rules_for("swazi", redeal=True), 2, seed=seed)
        layout = game.table
        assert not any(c.rank == 1 or c in cards("2S 10D") for c in layout)
        assert sum(c.rank > 10 for c in layout) < 3
        assert Counter([*layout, *game.deck, *game.hands[0], *game.hands[1]]) == Counter(
            full_deck()
        )


def test_swazi_values_and_sotho_values():
    assert SWAZI.hand_values[card("KD")] == (13,) and SWAZI.hand_values[card("AD")] == (1, 14)
    assert SOTHO.hand_values[card("KD")] == () and SOTHO.hand_values[card("AD")] == (1,)


# -- capturing ---------------------------------------------------------------------------------


def test_seed_capture_takes_single_cards_and_builds_of_the_played_value():
    """Seed 003: an 8-build (5+3), a 6-build (4+2) and a loose 6: an ace (14) takes
    nothing (no adding builds to make a sum); a 6 takes the loose 6 and the 6-build."""
    game = position(SWAZI, ["AC 6D", "8C 6H"], "[8: 5S 3S]@1 [6: 4H 2H]@1 6C")
    assert not [m for m in game.legal_moves() if m.card == card("AC") and m.kind == "capture"]
    refused(game, take("AC", "[8: 5S 3S]@1 [6: 4H 2H]@1"))
    assert legal(game, take("6D", "6C [6: 4H 2H]@1"))


def test_captures_of_cards_adding_up_are_builds_taken_at_once():
    """A build from table cards is made and taken in the same turn: sums are captured."""
    game = position(SWAZI, ["10S 3C", "2C"], "5C 3D 2H")
    assert legal(game, take("10S", "5C 3D 2H"))


# -- single builds ----------------------------------------------------------------------------


def test_seed_single_builds_from_table_cards_with_or_without_the_hand_card():
    """Seed 003: 5, 3, 2 on the table and a 10 in hand: build 10 from the table cards;
    4 and 5 on the table, a 5 and an ace in hand: the 5 with them makes 14."""
    game = position(SWAZI, ["10S 7C", "2C"], "5C 3D 2H")
    assert legal(game, with_extra("7C", 10, "5C 3D 2H"))
    game.play(with_extra("7C", 10, "5C 3D 2H"))
    assert table_text(game) == "[10: 2H 3D 5C] 7C" and game.table[0].owner == 0
    game = position(SWAZI, ["5H AS", "2C"], "4C 5D")
    game.play(build("5H", "4C 5D", 14))
    assert table_text(game) == "[14: 4C 5H 5D]"


def test_a_build_needs_another_card_of_its_value_in_hand():
    game = position(SWAZI, ["5H 7C", "2C"], "4C 5D")
    refused(game, build("5H", "4C 5D", 14), "keep a card of value 14")


def test_seed_no_pile_cards_in_single_builds():
    """Seed 003: cards of a capture pile are never used to create single builds."""
    game = position(SWAZI, ["9S 2C", "3C"], "4C", piles=["", "5H"])
    refused(game, with_extra("2C", 9, "4C 5H"))
    game = position(SWAZI, ["9S 2C", "3C"], "4C 9C", piles=["", "5H"])
    assert legal(game, with_extra("2C", 9, "9C 4C 5H"))  # augmenting a base, the 9


# -- changing a build's value ------------------------------------------------------------------


def test_seed_changing_an_opponents_single_build():
    """Seed 003: the opponent's single 9-build, you hold a 2 and a jack: the 2 makes it
    11 and you own it; not your own build, not an augmented build."""
    game = position(SWAZI, ["2C JD", "9C"], "[9: 6S 3S]@1")
    game.play(build("2C", "[9: 6S 3S]@1", 11))
    assert table_text(game) == "[11: 2C 3S 6S]" and game.table[0].owner == 0
    own = position(SWAZI, ["2C JD 9H", "3C"], "[9: 6S 3S]@0")
    refused(own, build("2C", "[9: 6S 3S]@0", 11))
    augmented = position(SWAZI, ["2C JD", "9D"], "[9: 6S 3S | 9C]@1")
    refused(augmented, build("2C", "[9: 6S 3S | 9C]@1", 11))


def test_seed_never_two_builds_of_one_value_merge_them():
    """Seed 002/003: you own a 13-build and the opponent a single 9 (6+3): your 4 raises
    the 9 to 13, and the two become one augmented 13; an opponent's 13 blocks yours."""
    game = position(SWAZI, ["4C KD", "9S"], "[13: 8S 5S]@0 [9: 6H 3H]@1")
    refused(game, build("4C", "[9: 6H 3H]@1", 13), "two builds of one value")
    game.play(build("4C", "[9: 6H 3H]@1 [13: 8S 5S]@0", 13))
    assert table_text(game) == "[13: 5S 8S | 3H 4C 6H]" and game.table[0].owner == 0
    blocked = position(SWAZI, ["6C KD", "KS"], "[13: 8S 5S]@1 7D")
    refused(blocked, build("6C", "7D", 13), "two builds of one value")


# -- augmented builds and capture piles --------------------------------------------------------


def test_seed_a_loose_card_you_can_take_is_a_base_for_an_augmented_build():
    game = position(SWAZI, ["9D 9H", "2C"], "9S")
    game.play(build("9D", "9S", 9))
    assert table_text(game) == "[9: 9S | 9D]" and game.table[0].multiple


def test_seed_pile_top_only_then_the_card_below():
    """Seed 003: a 9 and a 2 on the table, a 9 in hand, the opponent's pile shows a 5 with
    a 2 below: the 5 and the 2 cannot be taken together. With 9, 7 and 4 on the table the
    4 takes the 5 into an augmented 9, then the uncovered 2 joins the 7."""
    game = position(SWAZI, ["9D 9H", "3C"], "9S 2H", piles=["", "2C 5D"])
    assert all(card("5D") not in (*m.taken, *m.using) for m in game.legal_moves())
    refused(game, take("9D", "9S 2H 5D 2C"))
    game = position(SWAZI, ["9D 9H", "3C"], "9S 7H 4C", piles=["", "2C 5D"])
    assert legal(game, take("9D", "9S 4C 5D 7H 2C"))
    refused(game, take("9D", "9S 7H 2C"))  # the 2 is not uncovered yet
    game.play(build("9D", "9S 4C 5D 7H 2C", 9))
    assert game.piles[1] == [] and game.table[0].value == 9 and len(game.table[0].groups) == 4


def test_seed_tactics_opponent_takes_your_pile_top_into_its_build():
    """Seed 002/003: the opponent owns a 13-build; you capture with a 10; the opponent
    plays a 3 and takes your 10 with it into the 13-build."""
    game = position(SWAZI, ["3C KD", "2D"], "[13: 8S 5S]@0", piles=["", "4H 6H 10S"])
    game.play(build("3C", "[13: 5S 8S]@0 10S", 13))
    assert table_text(game) == "[13: 5S 8S | 3C 10S]" and game.piles[1] == cards("4H 6H")


def test_an_opponents_build_is_augmented_only_when_captured():
    game = position(SWAZI, ["9D 2C", "9S"], "[9: 6S 3S]@1 5H 4C")
    refused(game, with_extra("2C", 9, "[9: 6S 3S]@1 5H 4C"))
    assert legal(game, take("9D", "[9: 6S 3S]@1 5H 4C"))


def test_own_pile_is_never_used():
    game = position(SWAZI, ["9D 9H", "2C"], "9S", piles=["9C", ""])
    assert all(card("9C") not in (*m.taken, *m.using) for m in game.legal_moves())


# -- trailing, ownership -------------------------------------------------------------------------


def test_trail_always_allowed_but_never_the_last_card_that_takes_your_build():
    game = position(SWAZI, ["9D 3C", "2C", "4C"], "[9: 6S 3S]@0")
    assert legal(game, trail("3C"))
    refused(game, trail("9D"), "keep a card of value 9")


def test_two_players_first_twelve_cards_no_trail_while_owning_one_build_at_most():
    """Seed 002/003: while playing the first twelve cards you may not trail while you own
    a build, and you own at most one build at the end of your turn; stealing a card into
    a build you take at once is fine."""
    table = "[9: 6S 3S]@0 5S 5D 7H 10C 6C"
    game = first_twelve(position(SWAZI, ["9D 3C 10H", "2C"], table, piles=["", "4D"]))
    refused(game, trail("3C"), "may not trail while you own a build")
    refused(game, build("3C", "7H", 10), "one build at most")
    assert legal(game, take("10H", "10C 6C 4D"))  # the opponent's 4 stolen into a 10
    later = position(SWAZI, ["9D 3C 10H", "2C"], table)
    assert legal(later, trail("3C")) and legal(later, with_extra("3C", 10, "5S 5D"))
    assert legal(later, build("3C", "7H", 10))


def test_builds_without_the_hand_card_come_with_a_trail():
    """Decision: builds made without the hand card accompany a trail, not a capture or a
    build of the hand card (the turns would multiply past a million on busy tables)."""
    game = position(SWAZI, ["9D 3C 10H", "2C"], "[9: 6S 3S]@0 5S 5D")
    assert legal(game, with_extra("3C", 10, "5S 5D"))
    refused(game, with_extra("9D", 10, "5S 5D", take("9D", "[9: 3S 6S]@0")), "come with a trail")


def test_crazy_casino_eight_cards_and_a_draw_pile():
    rules = rules_for("swazi", crazy=True)
    game = Round.deal(rules, 2, seed=4)
    assert [len(h) for h in game.hands] == [8, 8] and len(game.deck) == 52 - 4 - 16
    seat = game.to_move
    game.play(game.legal_moves()[0])
    assert len(game.hands[seat]) == 8 and len(game.deck) == 52 - 4 - 17
    with pytest.raises(ValueError, match="2 players"):
        Round.deal(rules, 3, seed=1)


def test_crazy_casino_no_trailing_while_owning_until_the_pile_is_empty():
    rules = rules_for("swazi", crazy=True)
    game = position(rules, ["9D 3C 10H", "2C"], "[9: 6S 3S]@0 5S 5D", deck=cards("KC"))
    refused(game, trail("3C"), "")
    assert legal(game, with_extra("3C", 10, "5S 5D")) is False
    empty = position(rules, ["9D 3C 10H", "2C"], "[9: 6S 3S]@0 5S 5D")
    assert legal(empty, trail("3C"))


# -- aces, scoring -------------------------------------------------------------------------------


def test_seed_two_aces_make_a_build_of_1_or_14_as_announced():
    game = position(SWAZI, ["AS AD", "2C"], "AH")
    assert legal(game, build("AS", "AH", 14)) and legal(game, build("AS", "AH", 1))


def test_swazi_scoring_eleven_points_ties_one_each():
    game = Round.from_position(
        SWAZI,
        [[], []],
        [],
        piles=[cards("2S 3S 10D AH"), cards("4S 5S AD 9C")],
        last_capturer=0,
    )
    a, b = (s.items for s in game.score())
    assert a == {"cards": 1, "spades": 1, "lillan": 1, "storan": 2, "aces": 1}
    assert b == {"cards": 1, "spades": 1, "aces": 1}


def test_swazi_has_no_sweep_points_unless_the_option():
    game = position(SWAZI, ["5C", "9D"], "5H", to_move=0)
    assert game.play(take("5C", "5H")).sweep
    game.play(trail("9D"))
    assert game.score()[0]["tabbe"] == 0
    game = position(rules_for("swazi", sweeps=True), ["5C", "9D"], "5H", to_move=0)
    game.play(take("5C", "5H"))
    game.play(trail("9D"))
    assert game.score()[0]["tabbe"] == 1


def test_captures_go_face_up_with_the_capturing_card_on_top():
    game = position(SWAZI, ["9D 2C", "3C"], "5H 4C")
    game.play(take("9D", "5H 4C"))
    assert game.piles[0][-1] == card("9D")


# -- partnerships ---------------------------------------------------------------------------------


def test_partners_share_one_pile_and_its_top_is_not_theirs_to_use():
    rules = rules_for("swazi", teams=True)
    game = position(rules, ["9D 2C", "3C", "4C", "5C"], "5H 4D", piles=["9C", "", "", ""])
    game.play(take("9D", "5H 4D"))
    assert game.piles[0][-1] == card("9D") and game.pile_of(2) == 0
    game.to_move = 2
    game._context = None
    assert all(card("9D") not in m.using for m in game.legal_moves())


def test_building_for_a_partner_known_to_hold_the_value():
    """Seed 003: your partner's build was taken by an opponent: you know your partner
    holds that value and may build it for your partner, who then owns it."""
    rules = rules_for("swazi", teams=True)
    game = position(
        rules, ["6C 2D", "3C", "JS 4C", "5C"], "5H", known=[[], [], [11], []], to_move=0
    )
    move = build("6C", "5H", 11)
    assert legal(game, move)
    game.play(move)
    assert game.table[0].owner == 2
    plain = position(rules, ["6C 2D", "3C", "JS 4C", "5C"], "5H", to_move=0)
    refused(plain, build("6C", "5H", 11), "keep a card of value 11")


def test_partners_learn_what_a_captured_build_tells():
    rules = rules_for("swazi", teams=True)
    game = position(rules, ["9D 2C", "3C", "JS 4C", "5C"], "[9: 6S 3S]@1", to_move=0)
    game.play(take("9D", "[9: 6S 3S]@1"))
    assert game.known[1] == [9]


def test_a_partner_asked_not_to_capture_augments_and_hands_the_build_over():
    """Seed 003: your partner may play the capturing card onto your side's build instead,
    and the one who asked (holding that value) owns it."""
    rules = rules_for("swazi", teams=True)
    game = position(rules, ["9D 2C", "3C", "9S 4C", "5C"], "[9: 6S 3S]@0", to_move=0)
    move = build("9D", "[9: 6S 3S]@0", 9)
    assert legal(game, move)
    game.play(move)
    assert game.table[0].owner == 2


# -- Sotho ---------------------------------------------------------------------------------------


def test_sotho_pictures_pair_only_and_aces_count_one():
    game = position(SOTHO, ["QD AC", "2C"], "QS QH 5C 7D KD")
    assert legal(game, take("QD", "QS")) and legal(game, take("QD", "QS QH"))
    refused(game, take("QD", "5C 7D"))
    refused(game, take("AC", "KD"))
    assert not [m for m in game.legal_moves() if m.card == card("QD") and m.kind == "build"]


def test_sotho_partners_keep_piles_and_may_use_the_partners_top_card():
    rules = rules_for("sotho", teams=True)
    game = position(rules, ["9D 9H", "3C", "2C", "5C"], "9S 4C", piles=["", "", "5D", ""])
    assert legal(game, take("9D", "9S 4C 5D"))
    assert game.pile_of(2) == 2


def test_sotho_piles_keep_the_order_of_building_pictures_under_numerals():
    game = position(SOTHO, ["9D 2C", "3C"], "[9: 6S 3S | 9C]@0 KS")
    game.play(take("9D", "[9: 3S 6S | 9C]@0"))
    assert game.piles[0] == cards("3S 6S 9C 9D")
    game = position(SOTHO, ["KD 2C", "3C"], "KS")
    game.play(take("KD", "KS"))
    assert game.piles[0] == cards("KS KD")


def test_swazi_builds_round_trip():
    import json

    game = dealt_with_a_build(rules_for("swazi", teams=True), players=4)
    copy = Round.from_dict(json.loads(json.dumps(game.to_dict())))
    assert copy.known == game.known and copy.legal_moves() == game.legal_moves()
    assert any(isinstance(item, Build) for item in copy.table)


# -- the opponents' demands (option) ---------------------------------------------------------


def test_demands_option_a_capture_takes_everything_its_card_can_take():
    """Seed 003: an opponent may demand that you take every trick your card can take."""
    table = "9S 5C 4D 2H"
    free = position(SWAZI, ["9H KC", "3C"], table)
    assert legal(free, take("9H", "9S"))
    strict = position(rules_for("swazi", demands=True), ["9H KC", "3C"], table)
    refused(strict, take("9H", "9S"))
    assert legal(strict, take("9H", "9S 5C 4D"))


def test_demands_option_cards_that_fit_your_build_are_added():
    """Seed 003: the opponent may demand that table cards (or a pile's top card) fitting
    your build be added to it before your turn ends."""
    rules = rules_for("swazi", demands=True)
    game = position(rules, ["9D 2C", "3C"], "[9: 6S 3S]@0 5D 4C")
    refused(game, trail("2C"))
    assert legal(game, with_extra("2C", 9, "[9: 3S 6S]@0 5D 4C"))
    pile = position(rules, ["9D 2C", "3C"], "[9: 6S 3S]@0 5D", piles=["", "4H"])
    refused(pile, trail("2C"))
    assert legal(pile, with_extra("2C", 9, "[9: 3S 6S]@0 5D 4H"))


def test_demands_are_waived_when_no_move_can_meet_them():
    rules = rules_for("swazi", demands=True)
    # Fitting cards for two builds, one card to play: nothing meets both demands.
    game = position(rules, ["9D QS", "3C"], "[9: 6S 3S]@0 [12: 7H 5H]@0 5D 4C 8C 4S")
    relaxed = position(SWAZI, ["9D QS", "3C"], "[9: 6S 3S]@0 [12: 7H 5H]@0 5D 4C 8C 4S")
    assert set(game.legal_moves()) == set(relaxed.legal_moves())
    fresh = position(rules, ["9D QS", "3C"], "[9: 6S 3S]@0 [12: 7H 5H]@0 5D 4C 8C 4S")
    assert fresh.is_legal(take("9D", "[9: 3S 6S]@0 5D 4C"))  # checked without a move list
