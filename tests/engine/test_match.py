"""A match: rounds to the target, tie-breaks, counting as you go (RULES.md §2, §3, §4, §5)."""

import json
import random

import pytest

from bot.engine import IllegalMove, Match, Move, Round, parse_cards, rules_for

SWEDISH = rules_for("swedish")
LIVE = rules_for("swedish", live=True)
FINNISH = rules_for("finnish")
DECK8 = "2D 3D 4D 5D 6D 9D JD QD"


def cards(text):
    return parse_cards(text)


def card(text):
    return parse_cards(text)[0]


def finish(rules, piles, banked, last_capturer, sweeps=None, dealer=0):
    """A match whose round ends when seat 0 trails its last card, the KC.

    The sides have captured ``piles``; the KC goes to ``last_capturer`` as a leftover.
    """
    hands = [[] for _ in piles]
    hands[0] = cards("KC")
    game = Round.from_position(
        rules,
        hands,
        [],
        piles=[cards(p) for p in piles],
        last_capturer=last_capturer,
        sweeps=sweeps,
        scores=banked,
        dealer=dealer,
        to_move=0,
    )
    match = Match(rules, len(piles), 1, game, list(banked))
    match.play(Move(card("KC")))
    return match


def middle(rules, banked, hands, table, deck=DECK8):
    """A match in the middle of a round, seat 0 to move."""
    game = Round.from_position(
        rules, [cards(h) for h in hands], cards(table), deck=cards(deck), scores=banked, to_move=0
    )
    return Match(rules, len(hands), 1, game, list(banked))


# -- §2 Winning -------------------------------------------------------------------------


def test_target_reached_highest_total_wins():
    """§2: after a round, if sides reached the target, the highest total wins
    (here side 1 was ahead before the round; side 0 scores 7 and side 1 1)."""
    match = finish(SWEDISH, ["AS AH 10D 3S 4S", "5H 6H"], [14, 15], last_capturer=1)
    assert match.round.is_over
    assert match.scores == [21, 16]
    assert match.is_over
    assert match.winner == 0
    assert match.rounds_played == 1


def test_target_not_reached_next_round_dealt_with_dealer_moved_left():
    """§1/§2: no side at the target: another round, the dealer passes left."""
    match = finish(SWEDISH, ["AS AH 10D 3S 4S", "5H 6H"], [0, 0], last_capturer=1)
    assert match.scores == [7, 1]
    assert match.winner is None and not match.is_over
    assert match.rounds_played == 1
    game = match.round
    assert not game.is_over
    assert game.dealer == 1
    assert game.to_move == 0
    assert [len(h) for h in game.hands] == [4, 4]
    assert len(game.table) == 4


def test_exactly_the_target_wins():
    """§2: reaching the target (16) is enough."""
    match = finish(SWEDISH, ["AH 3H", "5H"], [15, 3], last_capturer=1)
    assert match.scores == [16, 4]
    assert match.winner == 0


@pytest.mark.parametrize("spades_side", [0, 1])
def test_tie_at_the_top_goes_to_most_spades_in_the_round(spades_side):
    """§2: a tie at the top goes to the tied side with most spades in the last round.

    The spades side scores 2 (most spades); the other 1 ace + 1 sistan; both reach 16."""
    piles = ["3S 4S 5S 6S 7S 8S 9S", "AH 3H 4H 5H 6H 7H"]
    if spades_side == 1:
        piles.reverse()
    match = finish(SWEDISH, piles, [14, 14], last_capturer=1 - spades_side)
    assert match.scores == [16, 16]
    assert match.winner == spades_side


def test_tie_with_extra_round_option_plays_another_round():
    """§2: rule option tiebreak="extra-round": a tie always plays another round."""
    rules = rules_for("swedish", tiebreak="extra-round")
    match = finish(rules, ["3S 4S 5S 6S 7S 8S 9S", "AH 3H 4H 5H 6H 7H"], [14, 14], last_capturer=1)
    assert match.scores == [16, 16]
    assert match.winner is None
    assert match.rounds_played == 1
    assert match.round.dealer == 1 and not match.round.is_over


def test_tie_in_spades_too_plays_another_round():
    """§2: if the tied sides also tie in spades, play another round.

    Side 0: 2 aces; side 1: 1 ace + sistan; spades 2-2, cards 4-4."""
    match = finish(SWEDISH, ["AS AD 3S 5H", "AH 4S 7S"], [14, 14], last_capturer=1)
    assert match.scores == [16, 16]
    assert match.winner is None and not match.is_over
    assert match.rounds_played == 1


def test_spades_tiebreak_only_among_the_tied_sides():
    """§2: side 2 has most spades but is far behind; of the tied sides 0 (2 spades) and
    1 (1 spade), side 0 wins."""
    match = finish(
        SWEDISH, ["AD 3S 4S", "AH AC 6S", "7S 8S 9S 10S JS QS"], [15, 14, 0], last_capturer=2
    )
    assert match.scores == [16, 16, 4]
    assert match.winner == 0


def test_teams_win_as_a_side():
    """§4: partnership scores are per team (team 0 = seats 0+2)."""
    rules = rules_for("swedish", teams=True)
    match = finish(rules, ["AH", "", "AD", ""], [15, 10], last_capturer=2)
    assert match.scores == [19, 10]
    assert match.winner == 0


def test_dealer_passes_left_each_round():
    """§1: the dealer passes left after every round; the dealer's left starts."""
    match = Match.start(rules_for("swedish", target=100), 3, seed=5, dealer=2)
    dealers = []
    while match.rounds_played < 3:
        if not dealers or match.round.dealer != dealers[-1]:
            dealers.append(match.round.dealer)
            assert match.round.to_move == (match.round.dealer + 1) % 3
        match.play(match.round.legal_moves()[-1])
    dealers.append(match.round.dealer)
    assert dealers == [2, 0, 1, 2]
    assert match.rounds_played == 3 and not match.is_over


def test_no_move_after_the_match_is_over():
    """API: after the end, play raises IllegalMove("the match is over")."""
    match = finish(SWEDISH, ["AS AH 10D 3S 4S", "5H 6H"], [14, 15], last_capturer=1)
    assert match.is_over
    with pytest.raises(IllegalMove, match="the match is over"):
        match.play(Move(card("KC")))
    assert match.winner == 0


# -- §3 Counting as you go (live) -------------------------------------------------------

LIVE_CASES = [
    # (banked score of side 0, hand of seat 0, table, card played, cards taken): the item
    pytest.param(15, "5C 9C", "AH 4H KH", "5C", "AH 4H", id="ace"),
    pytest.param(14, "10C 9C", "10D KH", "10C", "10D", id="storan"),
    pytest.param(15, "2C 9C", "2S KH", "2C", "2S", id="lillan"),
    pytest.param(15, "9C 5C", "9H", "9C", "9H", id="tabbe"),
]


@pytest.mark.parametrize(("banked", "hand", "table", "played", "taken"), LIVE_CASES)
def test_live_swedish_wins_the_moment_the_target_is_reached(banked, hand, table, played, taken):
    """§3: with live, aces, storan, lillan and tabbar count when taken; win at once."""
    match = middle(LIVE, [banked, 3], [hand, "7D 8D"], table)
    match.play(Move(card(played), cards(taken)))
    assert match.is_over
    assert match.winner == 0
    assert match.scores == [16, 3]
    assert not match.round.is_over
    with pytest.raises(IllegalMove, match="the match is over"):
        match.play(Move(card("7D")))


@pytest.mark.parametrize(("banked", "hand", "table", "played", "taken"), LIVE_CASES)
def test_without_live_nothing_is_won_mid_round(banked, hand, table, played, taken):
    """§3: counting as you go is off by default: points wait for the end of the round."""
    match = middle(SWEDISH, [banked, 3], [hand, "7D 8D"], table)
    match.play(Move(card(played), cards(taken)))
    assert not match.is_over
    assert match.scores == [banked, 3]


def test_live_scores_show_points_taken_this_round():
    """API: scores include points already earned live."""
    match = middle(LIVE, [3, 0], ["5C 9C", "7D 8D"], "AH 4H KH")
    match.play(Move(card("5C"), cards("AH 4H")))
    assert match.scores == [4, 0]
    assert match.winner is None


@pytest.mark.parametrize(
    ("rules", "table", "taken"),
    [
        pytest.param(LIVE, "AH 4H KH", "AH 4H", id="swedish-live-ace"),
        pytest.param(LIVE, "9H", "9H", id="swedish-live-tabbe"),
        pytest.param(FINNISH, "AH 4H KH", "AH 4H", id="finnish-ace"),
    ],
)
def test_live_target_reached_with_the_last_card_wins_before_end_items(rules, table, taken):
    """§3/§5: live items count the moment they are taken, so the first side to reach the
    target wins at once; spades and cards are added only after that.

    Side 0 (15) takes an ace (or makes a tabbe) with the round's very last card: 16, a win.
    Side 1 (14) would only get there afterwards, with spades (16) and cards (17)."""
    game = Round.from_position(
        rules,
        [cards("9C" if taken == "9H" else "5C"), []],
        cards(table),
        piles=[[], cards("3S 4S 5S 6S 7S 8S 9D 10H 2H")],
        last_capturer=1,
        scores=[15, 14],
        to_move=0,
    )
    match = Match(rules, 2, 1, game, [15, 14])
    match.play(Move(game.hands[0][0], cards(taken)))
    assert match.round.is_over
    assert match.is_over
    assert match.winner == 0


def test_live_spades_and_cards_are_not_counted_mid_round():
    """§3: spades, cards and sistan are added only at the end of the round."""
    match = middle(LIVE, [15, 3], ["9C 5C", "7D 8D"], "4S 5S 3S 6S KH")
    match.play(Move(card("9C"), cards("4S 5S 3S 6S")))
    assert not match.is_over
    assert match.scores == [15, 3]


def test_live_end_of_round_spades_before_cards_and_sistan():
    """§3: at the end spades are added first; side 1 reaches 16 with spades and wins,
    though side 0 would reach 17 with cards and sistan."""
    match = finish(LIVE, ["3H 4H 5H 6H 7H", "3S 4S"], [15, 14], last_capturer=0)
    assert match.winner == 1


def test_without_live_the_same_round_is_won_on_the_total():
    """§2: without live all items are added together: 17 against 16."""
    match = finish(SWEDISH, ["3H 4H 5H 6H 7H", "3S 4S"], [15, 14], last_capturer=0)
    assert match.scores == [17, 16]
    assert match.winner == 0


def test_live_end_of_round_cards_before_sistan():
    """§3: cards are added before sistan: side 0 reaches 16 with cards and wins
    (without live it would be a 16-16 tie with equal spades: another round)."""
    piles = ["3H 4H 5H 6H", "7H"]
    match = finish(LIVE, piles, [15, 15], last_capturer=1)
    assert match.winner == 0
    plain = finish(SWEDISH, piles, [15, 15], last_capturer=1)
    assert plain.scores == [16, 16]
    assert plain.winner is None


# -- §5 Finnish -------------------------------------------------------------------------


FINNISH_LIVE_CASES = [
    pytest.param(FINNISH, 15, "5C 9C", "AH 4H KH", "5C", "AH 4H", id="ace"),
    pytest.param(FINNISH, 14, "10C 9C", "10D KH", "10C", "10D", id="storan"),
    pytest.param(FINNISH, 15, "2C 9C", "2S KH", "2C", "2S", id="lillan"),
    pytest.param(rules_for("finnish", target=5), 4, "9C 5C", "9H", "9C", "9H", id="mokki"),
]


@pytest.mark.parametrize(
    ("rules", "banked", "hand", "table", "played", "taken"), FINNISH_LIVE_CASES
)
def test_finnish_wins_mid_round(rules, banked, hand, table, played, taken):
    """§5: aces, lillan, storan and mökki count when captured; the match can end mid-round."""
    match = middle(rules, [banked, 3], [hand, "7D 8D"], table)
    match.play(Move(card(played), cards(taken)))
    assert match.is_over
    assert match.winner == 0
    assert match.scores[0] == rules.target
    assert not match.round.is_over


def test_finnish_mokki_does_not_count_at_10_points():
    """§5: with 10 or more match points a sweep scores nothing, live or at the end."""
    match = middle(FINNISH, [10, 3], ["9C 5C", "7D 8D"], "9H")
    match.play(Move(card("9C"), cards("9H")))
    assert match.scores == [10, 3]


def test_finnish_end_of_round_spades_first():
    """§5: spades then cards: side 1 reaches 16 with spades before side 0's cards point."""
    match = finish(FINNISH, ["3H 4H 5H 6H 7H", "3S 4S"], [15, 14], last_capturer=0)
    assert match.winner == 1


def test_finnish_tie_after_spades_goes_on_to_cards():
    """§5: spades split 1+1 makes a 16-16 tie; cards break it for side 0 (4 cards)."""
    match = finish(FINNISH, ["3S 4S 5H 6H", "5S 6S", "7H"], [15, 15, 0], last_capturer=2)
    assert match.winner == 0
    assert match.scores[:2] == [17, 16]


def test_finnish_tie_left_after_cards_plays_another_round():
    """§5: a tie left after cards plays another round (cards tied 3-3 too)."""
    match = finish(FINNISH, ["3S 4S 5H", "5S 6S 7H", ""], [15, 15, 0], last_capturer=2)
    assert match.scores == [16, 16, 0]
    assert match.winner is None and not match.is_over
    assert match.rounds_played == 1
    assert match.round.dealer == 1


# -- storing ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [
        ("swedish", 2, {}),
        ("swedish", 3, {"live": True}),
        ("overspader", 2, {}),
        ("finnish", 2, {}),
        ("mulle", 4, {"teams": True, "target": 30}),
    ],
)
def test_match_round_trips_and_plays_on_identically(name, players, options):
    """API: Match.from_dict(match.to_dict()) is JSON-able and plays on identically,
    across round boundaries to the end of the match."""
    match = Match.start(rules_for(name, **options), players, seed=f"{name}{players}")
    for _ in range(30):
        match.play(match.round.legal_moves()[-1])
    saved = json.loads(json.dumps(match.to_dict()))
    copy = Match.from_dict(saved)
    assert copy.to_dict() == match.to_dict()
    moves = 0
    while not match.is_over and moves < 3000:
        move = match.round.legal_moves()[-1]
        assert copy.round.legal_moves() == match.round.legal_moves()
        match.play(move)
        copy.play(move)
        moves += 1
    assert match.is_over
    assert match.rounds_played >= 1
    assert copy.to_dict() == match.to_dict()
    assert (copy.winner, copy.scores, copy.rounds_played) == (
        match.winner,
        match.scores,
        match.rounds_played,
    )
    assert max(match.scores) >= match.rules.target
    with pytest.raises(IllegalMove, match="the match is over"):
        Match.from_dict(match.to_dict()).play(Move(card("KC")))


def test_a_copy_plays_on_without_changing_the_match():
    """``Match.copy`` (a move checked off the event loop is played on one): the copy plays
    a whole match on while the original stays as it was, and equals it until then."""
    match = Match.start(rules_for("casino"), 2, seed=11)
    twin = match.copy()
    assert twin.to_dict() == match.to_dict()
    saved = json.dumps(match.to_dict())
    rng = random.Random(3)
    while not twin.is_over:
        twin.play(rng.choice(twin.round.legal_moves()))
    assert json.dumps(match.to_dict()) == saved
    assert twin.rounds_played > 0 and match.rounds_played == 0
