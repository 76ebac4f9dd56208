"""One round: deal, turns, tabbe, sistan, illegal moves and scoring (RULES.md §1-§6).

Also the worked examples of seed pages 000 and 001 (tabbe, sistan, scoring).
"""

import json
import random
from collections import Counter

import pytest

from bot.engine import Card, IllegalMove, Move, Round, parse_cards, rules_for

SWEDISH = rules_for("swedish")
OVERSPADER = rules_for("overspader")
FINNISH = rules_for("finnish")
MULLE = rules_for("mulle")
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def cards(text):
    return parse_cards(text)


def card(text):
    return parse_cards(text)[0]


def deck52(seed=None):
    deck = [Card.parse(rank + suit) for suit in "SHDC" for rank in RANKS]
    if seed is not None:
        random.Random(seed).shuffle(deck)
    return deck


def same(a, b):
    """Same cards, order aside."""
    return Counter(a) == Counter(b)


def trail(game):
    """The player to move trails the first card of their hand."""
    return game.play(Move(game.hands[game.to_move][0]))


def items(score):
    return {key: value for key, value in score.items.items() if value}


def position(rules, hands, table="", deck="", **kwargs):
    return Round.from_position(
        rules, [cards(h) for h in hands], cards(table), deck=cards(deck), **kwargs
    )


def ended(rules, piles, last_capturer=None, sweeps=None, scores=None):
    """A finished round whose sides captured ``piles``; returns the items per side."""
    game = Round.from_position(
        rules,
        [[] for _ in piles],
        [],
        piles=[cards(p) for p in piles],
        last_capturer=last_capturer,
        sweeps=sweeps,
        scores=scores,
    )
    assert game.is_over
    return [items(s) for s in game.score()]


# -- §2 Deal ----------------------------------------------------------------------------


def test_deal_order_two_players_dealer_0_exactly_as_rules_say():
    """§2: 0-1 seat 1, 2-3 seat 0, 4-5 table, 6-7 seat 1, 8-9 seat 0, 10-11 table;
    next deal 12-13 seat 1, 14-15 seat 0, 16-17 seat 1, 18-19 seat 0, nothing to the table."""
    deck = deck52(seed=3)
    game = Round.deal(SWEDISH, 2, dealer=0, deck=deck)
    assert same(game.hands[1], deck[0:2] + deck[6:8])
    assert same(game.hands[0], deck[2:4] + deck[8:10])
    assert same(game.table, deck[4:6] + deck[10:12])
    assert list(game.deck) == deck[12:]
    assert not game.is_last_deal
    first_table = list(game.table)
    played = []
    for _ in range(8):
        played.append(game.hands[game.to_move][0])
        trail(game)
    assert same(game.hands[1], deck[12:14] + deck[16:18])
    assert same(game.hands[0], deck[14:16] + deck[18:20])
    assert same(game.table, first_table + played)
    assert list(game.deck) == deck[20:]


def expected_first_deal(deck, players, dealer):
    """RULES.md §2 first deal: pairs from the dealer's left, then two to the table, twice."""
    hands = [[] for _ in range(players)]
    table = []
    top = 0
    for _ in range(2):
        for step in range(1, players + 1):
            hands[(dealer + step) % players] += deck[top : top + 2]
            top += 2
        table += deck[top : top + 2]
        top += 2
    return hands, table, top


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (2, 1), (3, 0), (3, 2), (4, 0), (4, 2)])
def test_first_deal_in_pairs_from_dealers_left(players, dealer):
    """§2: two to each player from the dealer's left, two to the table, again: 4 each, 4 up."""
    deck = deck52(seed=players * 10 + dealer)
    game = Round.deal(SWEDISH, players, dealer=dealer, deck=deck)
    hands, table, top = expected_first_deal(deck, players, dealer)
    for seat in range(players):
        assert same(game.hands[seat], hands[seat]), f"seat {seat}"
    assert same(game.table, table)
    assert list(game.deck) == deck[top:]


def test_later_deal_three_players_dealer_2():
    """§2: later deals are four each in pairs from the dealer's left, nothing to the table."""
    deck = deck52(seed=11)
    game = Round.deal(SWEDISH, 3, dealer=2, deck=deck)
    for _ in range(12):
        trail(game)
    start = 16  # 4 to the table + 12 to the players
    order = [0, 1, 2]  # dealer 2: seat 0 is at the dealer's left
    for index, seat in enumerate(order):
        first = deck[start + 2 * index : start + 2 * index + 2]
        second = deck[start + 6 + 2 * index : start + 6 + 2 * index + 2]
        assert same(game.hands[seat], first + second)
    assert len(game.table) == 4 + 12


def play_out_by_trailing(game):
    """Trail every card to the end; return each deal's hand sizes and is_last_deal."""
    deals = [([len(h) for h in game.hands], game.is_last_deal)]
    last_seat = None
    while not game.is_over:
        before = len(game.deck)
        last_seat = game.to_move
        trail(game)
        if len(game.deck) < before:
            deals.append(([len(h) for h in game.hands], game.is_last_deal))
    return deals, last_seat


@pytest.mark.parametrize(("players", "count"), [(2, 6), (3, 4), (4, 3)])
def test_number_of_deals_and_sistan_announcement(players, count):
    """§2: 2 players 6 deals, 3 players 4, 4 players 3 (four cards each every deal);
    is_last_deal ("sistan") is announced with the last deal only."""
    game = Round.deal(SWEDISH, players, seed=players)
    deals, _ = play_out_by_trailing(game)
    assert len(deals) == count
    assert all(sizes == [4] * players for sizes, _ in deals)
    assert [last for _, last in deals] == [False] * (count - 1) + [True]


def test_mulle_first_deal_is_single_cards_five_each_and_five_to_table():
    """§6: deal singly from the dealer's left, one to each player then one to the table, x5;
    later deals five each singly, nothing to the table."""
    top = deck52(seed=8)
    deck = top + deck52(seed=9)
    game = Round.deal(MULLE, 2, dealer=0, deck=deck)
    assert same(game.hands[1], deck[0:15:3])
    assert same(game.hands[0], deck[1:15:3])
    assert same(game.table, deck[2:15:3])
    assert len(game.deck) == 104 - 15
    for _ in range(10):
        trail(game)
    assert same(game.hands[1], deck[15:25:2])
    assert same(game.hands[0], deck[16:25:2])
    assert len(game.table) == 15


def test_mulle_uses_a_double_deck():
    """§6: 104 cards, identical cards exist; a 52-card deck is refused."""
    game = Round.deal(MULLE, 2, seed=1)
    everything = game.deck + game.table + game.hands[0] + game.hands[1]
    assert len(everything) == 104
    assert set(Counter(everything).values()) == {2}
    with pytest.raises(ValueError):
        Round.deal(MULLE, 2, deck=deck52())


def test_mulle_uneven_last_deal_for_four_players():
    """§6: 104 = 5 + 20 + 20 + 20 + 20 + 19: in the last deal the dealer gets one card fewer,
    so the player at the dealer's right plays last."""
    game = Round.deal(MULLE, 4, dealer=1, seed=4)
    deals, last_seat = play_out_by_trailing(game)
    assert [sizes for sizes, _ in deals] == [[5, 5, 5, 5]] * 4 + [[5, 4, 5, 5]]
    assert [last for _, last in deals] == [False] * 4 + [True]
    assert last_seat == 0  # the dealer's right (dealer 1)


@pytest.mark.parametrize(
    ("players", "sizes"), [(2, [[5, 5]] * 9 + [[4, 5]]), (3, [[5, 5, 5]] * 6 + [[3, 3, 3]])]
)
def test_mulle_last_deal_goes_as_far_as_it_goes(players, sizes):
    """§6: 2 players: 5+10*8+9, the last deal 5 to the dealer's left, 4 to the dealer;
    3 players: 5+15*5+9, three each."""
    deals, _ = play_out_by_trailing(Round.deal(MULLE, players, dealer=0, seed=2))
    assert [s for s, _ in deals] == sizes


def test_seeded_deal_is_reproducible():
    one, two = Round.deal(SWEDISH, 3, seed=42), Round.deal(SWEDISH, 3, seed=42)
    assert one.hands == two.hands and one.table == two.table and one.deck == two.deck


def test_explicit_deck_must_be_a_full_deck():
    with pytest.raises(ValueError):
        Round.deal(SWEDISH, 2, deck=deck52()[:-1])


# -- §1/§2 Turns ------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (2, 1), (3, 1), (3, 2), (4, 3)])
def test_dealers_left_starts_and_play_goes_clockwise(players, dealer):
    """§1/§2: the player at the dealer's left starts; play goes clockwise."""
    game = Round.deal(SWEDISH, players, dealer=dealer, seed=7)
    assert game.dealer == dealer
    for step in range(1, 2 * players + 1):
        assert game.to_move == (dealer + step) % players
        trail(game)


def test_trail_is_always_allowed_even_when_a_capture_is_possible():
    """§2: capturing is never compulsory; you may trail even when you could capture."""
    game = position(SWEDISH, ["9C 4D", "KS"], "9H 5D", deck="2C 3C 4C 5C 6C 7C 8C 10C", to_move=0)
    assert Move(card("9C")) in game.legal_moves()
    assert game.is_legal(Move(card("9C")))
    game.play(Move(card("9C")))
    assert same(game.table, cards("9H 5D 9C"))
    assert game.piles == [[], []]
    assert game.to_move == 1


def test_any_legal_capture_not_only_the_largest():
    """§2: you may take any legal set, not only the largest."""
    game = position(SWEDISH, ["9C 4D", "KS"], "9H 5D 4S", to_move=0)
    game.play(Move(card("9C"), cards("9H")))
    assert same(game.table, cards("5D 4S"))
    assert same(game.piles[0], cards("9C 9H"))
    assert game.last_capturer == 0


# -- §2 Tabbe and sistan (seed 000 and 001 examples) ------------------------------------


def test_seed_tabbe_nine_takes_3_6_9_next_player_must_trail():
    """§2 / seed 000: 9 takes 3+6 and 9, a tabbe; the next player must trail."""
    game = position(SWEDISH, ["9H 4C", "5D KS"], "3C 6H 9S", to_move=0)
    game.play(Move(card("9H"), cards("3C 6H 9S")))
    assert game.table == []
    assert game.sweeps == [1, 0]
    moves = game.legal_moves()
    assert moves and all(m.is_trail for m in moves)
    assert {m.card for m in moves} == set(cards("5D KS"))
    game.play(Move(card("5D")))
    game.play(Move(card("4C")))
    game.play(Move(card("KS")))
    assert game.is_over
    assert game.sweeps == [1, 0]  # the leftovers are no tabbe
    assert same(game.piles[0], cards("9H 3C 6H 9S 5D 4C KS"))
    score = game.score()
    assert items(score[0]) == {"tabbe": 1, "sistan": 1, "cards": 1, "spades": 2}
    assert items(score[1]) == {}


def test_seed_tabbe_after_the_previous_player_takes_the_nine():
    """Seed 000: table 9 and 5; the player before takes 9 with 9; you take the 5: a tabbe;
    the player after you must simply put a card on the table."""
    game = position(
        SWEDISH,
        ["QC 3H", "9D 7C", "5C 8H"],
        "9H 5S",
        dealer=0,
        to_move=1,
        deck="AS AH AD AC 2S 2H 2D 2C 3S 3D 3C 4S",
    )
    game.play(Move(card("9D"), cards("9H")))
    assert game.sweeps == [0, 0, 0]
    game.play(Move(card("5C"), cards("5S")))
    assert game.sweeps == [0, 0, 1]
    assert game.to_move == 0
    assert all(m.is_trail for m in game.legal_moves())
    with pytest.raises(IllegalMove):
        game.play(Move(card("QC"), cards("9H")))


def test_tabbe_with_the_very_last_card_counts_with_sistan():
    """§2 / seeds: if the dealer's last card takes all table cards: 1 sistan + 1 tabbe."""
    game = position(SWEDISH, ["9C", ""], "4H 5D", dealer=0, to_move=0, last_capturer=1)
    game.play(Move(card("9C"), cards("4H 5D")))
    assert game.is_over
    assert game.sweeps == [1, 0]
    score = game.score()
    assert score[0].items["tabbe"] == 1
    assert score[0].items["sistan"] == 1
    assert items(score[1]) == {}


def test_seed_dealers_last_nine_takes_nine_and_the_leftover_two():
    """Seed 000: dealer's last card 9, table 9 and 2: takes the 9, the 2 too, sistan;
    taking leftovers is not a tabbe."""
    game = position(SWEDISH, ["9C", ""], "9H 2D", dealer=0, to_move=0, last_capturer=1)
    game.play(Move(card("9C"), cards("9H")))
    assert game.is_over
    assert game.table == []
    assert same(game.piles[0], cards("9C 9H 2D"))
    assert game.sweeps == [0, 0]
    score = game.score()
    assert score[0].items["sistan"] == 1
    assert score[0].items.get("tabbe", 0) == 0
    assert "sistan" not in items(score[1])


def test_seed_leftovers_go_to_the_last_capturer_three_players():
    """Seed 000: table 2 7 8 10 K, one card each; first takes K with K, 3 and A trail;
    the first player collects A 2 3 7 8 10 and scores sistan."""
    game = position(SWEDISH, ["AC", "KD", "3H"], "2H 7S 8C 10C KS", dealer=0, to_move=1)
    game.play(Move(card("KD"), cards("KS")))
    game.play(Move(card("3H")))
    assert not any(m.taken for m in game.legal_moves())  # the ace captures nothing here
    game.play(Move(card("AC")))
    assert game.is_over
    assert game.table == []
    assert same(game.piles[1], cards("KD KS AC 2H 3H 7S 8C 10C"))
    assert game.piles[0] == [] and game.piles[2] == []
    assert game.sweeps == [0, 0, 0]
    score = game.score()
    assert score[1].items["sistan"] == 1
    assert items(score[1]) == {"sistan": 1, "aces": 1, "cards": 1, "spades": 2}


def test_nobody_captured_no_sistan():
    """§2: if nobody captured anything all round, leftovers go to nobody, nobody scores sistan."""
    game = position(SWEDISH, ["5H", "KC"], "2C")
    game.play(Move(card("KC")))
    game.play(Move(card("5H")))
    assert game.is_over
    assert game.last_capturer is None
    assert game.piles == [[], []]
    assert [items(s) for s in game.score()] == [{}, {}]


def test_whole_round_of_trails_nobody_scores():
    """§2: the same over a whole dealt round where everyone only trails."""
    game = Round.deal(SWEDISH, 2, seed=5)
    play_out_by_trailing(game)
    assert game.piles == [[], []]
    assert [s.total for s in game.score()] == [0, 0]


# -- IllegalMove ------------------------------------------------------------------------


@pytest.fixture
def middle():
    """Seat 0 to move with 9C 4S; the table holds 4D 3C 2H 9S."""
    return position(
        SWEDISH, ["9C 4S", "9H KD"], "4D 3C 2H 9S", to_move=0, deck="AS AH AD AC 2S 2D 2C 3S"
    )


@pytest.mark.parametrize(
    ("move", "words"),
    [
        (Move(card("9H")), ["9H", "not in your hand"]),
        (Move(card("QH")), ["QH", "not in your hand"]),
        (Move(card("9H"), cards("9S")), ["9H", "not in your hand"]),
        (Move(card("9C"), cards("9D")), ["9D", "not on the table"]),
        (Move(card("9C"), cards("5D 4D")), ["5D", "not on the table"]),
        (Move(card("9C"), cards("9S 9S")), ["9S", "not on the table"]),
        (Move(card("9C"), cards("4D 3C")), ["4D", "3C", "9"]),
        (Move(card("9C"), cards("4D 3C 2H 9S 4D")), ["4D", "not on the table"]),
        (Move(card("4S"), cards("2H")), ["2H", "4"]),
        (Move(card("9C"), cards("9S 2H")), ["9S", "2H", "9"]),
    ],
)
def test_illegal_moves_are_refused_readably_and_change_nothing(middle, move, words):
    """API: play raises IllegalMove (a ValueError) with a message naming the problem,
    and the round is unchanged."""
    before = middle.to_dict()
    assert not middle.is_legal(move)
    with pytest.raises(IllegalMove) as error:
        middle.play(move)
    assert isinstance(error.value, ValueError)
    message = str(error.value)
    for word in words:
        assert word in message
    assert middle.to_dict() == before
    middle.play(Move(card("9C"), cards("4D 3C 2H 9S")))  # a legal move still works
    assert middle.table == []


def test_sum_message_reads_like_the_api_example(middle):
    """API example: "4S + 3C do not make 9" (here 4D and 3C)."""
    with pytest.raises(IllegalMove, match=r"do not make 9"):
        middle.play(Move(card("9C"), cards("4D 3C")))


def test_no_move_after_the_round_is_over():
    game = position(SWEDISH, ["9C", ""], "9H", to_move=0)
    game.play(Move(card("9C"), cards("9H")))
    assert game.is_over
    assert game.legal_moves() == []
    with pytest.raises(IllegalMove):
        game.play(Move(card("9C")))


def test_score_before_the_end_is_refused():
    game = position(SWEDISH, ["9C", "KD"], "9H")
    with pytest.raises(IllegalMove):
        game.score()


def test_round_round_trips_through_a_plain_dict():
    """API: Round.from_dict(round.to_dict()) is JSON-able and plays on identically."""
    game = Round.deal(SWEDISH, 3, seed=12)
    for _ in range(7):
        game.play(game.legal_moves()[-1])
    copy = Round.from_dict(json.loads(json.dumps(game.to_dict())))
    while not game.is_over:
        move = game.legal_moves()[-1]
        assert copy.legal_moves() == game.legal_moves()
        game.play(move)
        copy.play(move)
        assert copy.to_dict() == game.to_dict()
    assert [s.items for s in copy.score()] == [s.items for s in game.score()]


# -- §2 Swedish scoring -----------------------------------------------------------------


def test_swedish_scoring_table():
    """§2: spades 2, cards 1, aces 1 each, storan 2, lillan 1, sistan 1, tabbe 1 each."""
    sides = ended(
        SWEDISH, ["AS AH 10D 2S 3S 4S 5S KH", "6S 7S 8H 9H"], last_capturer=1, sweeps=[2, 0]
    )
    assert sides == [
        {"spades": 2, "cards": 1, "aces": 2, "storan": 2, "lillan": 1, "tabbe": 2},
        {"sistan": 1},
    ]


def test_swedish_round_is_worth_11_points_plus_tabbar():
    """§2: 11 points a round plus tabbar when nothing ties."""
    deck = deck52()
    spades_hearts = [c for c in deck if c.suit in "SH"] + cards("AD")
    rest = [c for c in deck if c not in spades_hearts]
    game = Round.from_position(
        SWEDISH, [[], []], [], piles=[spades_hearts, rest], last_capturer=1, sweeps=[1, 3]
    )
    scores = game.score()
    assert items(scores[0]) == {"spades": 2, "cards": 1, "aces": 3, "lillan": 1, "tabbe": 1}
    assert items(scores[1]) == {"aces": 1, "storan": 2, "sistan": 1, "tabbe": 3}
    assert sum(s.total for s in scores) == 11 + 4


def test_swedish_spades_tie_not_awarded():
    """§2: most spades is not awarded if the highest count is tied."""
    assert ended(SWEDISH, ["3S 4S 5H", "6S 7S"]) == [{"cards": 1}, {}]


def test_swedish_cards_tie_not_awarded():
    """§2: most cards is not awarded if the highest count is tied."""
    assert ended(SWEDISH, ["3S 4S 5H", "6S 7H 8H"]) == [{"spades": 2}, {}]


def test_swedish_three_players_tie_at_the_top_not_awarded():
    """§2: a tie for the highest count gives nobody the point (third side included)."""
    assert ended(SWEDISH, ["3S 4S 5H 6H", "7S 8S 9H 10H", "JS"]) == [{}, {}, {}]


# -- §3 Överspader ----------------------------------------------------------------------

SPADES = ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "2S"]


@pytest.mark.parametrize(("count", "points"), [(0, 0), (5, 0), (6, 0), (7, 1), (10, 4), (13, 7)])
def test_overspader_one_point_per_spade_beyond_six(count, points):
    """§3: 1 point for every spade beyond six (7 spades 1, 10 spades 4); key stays spades."""
    mine = " ".join(SPADES[:count]) + " 3H"
    theirs = " ".join(SPADES[count:]) + " 4H 5H"
    sides = ended(OVERSPADER, [mine, theirs])
    assert sides[0].get("spades", 0) == points
    assert sides[1].get("spades", 0) == max(0, 13 - count - 6)


def test_overspader_most_spades_alone_scores_nothing():
    """§3: instead of 2 points for most spades: 5 spades against 2 scores nothing."""
    sides = ended(OVERSPADER, ["3S 4S 5S 6S 7S", "8S 9S 3H"])
    assert "spades" not in sides[0] and "spades" not in sides[1]


def test_overspader_all_else_as_swedish():
    """§3: all else as Swedish (cards, aces, storan, lillan, sistan, tabbe)."""
    sides = ended(
        OVERSPADER, ["AS AH 10D 2S 3S 4S 5S 6S 7S KH", "8S 9H"], last_capturer=1, sweeps=[0, 1]
    )
    assert sides == [
        {"spades": 1, "cards": 1, "aces": 2, "storan": 2, "lillan": 1},
        {"sistan": 1, "tabbe": 1},
    ]


# -- §5 Finnish scoring -----------------------------------------------------------------


def test_finnish_scoring_table_no_sistan():
    """§5: cards 1, spades 2, aces 1 each, lillan 1, storan 2; no point for sistan."""
    sides = ended(FINNISH, ["AS AH 10D 2S 3S 4S 5S KH", "6S 7S 8H 9H"], last_capturer=1)
    assert sides == [{"spades": 2, "cards": 1, "aces": 2, "storan": 2, "lillan": 1}, {}]


def test_finnish_round_is_worth_10_points():
    deck = deck52()
    mine = [c for c in deck if c.suit in "SH"] + cards("AD")
    rest = [c for c in deck if c not in mine]
    game = Round.from_position(FINNISH, [[], []], [], piles=[mine, rest], last_capturer=1)
    assert sum(s.total for s in game.score()) == 10


def test_finnish_last_capturer_takes_leftovers_without_a_point():
    """§5: the last capturer still takes the leftovers, but scores no sistan."""
    game = position(FINNISH, ["KC", "3H"], "5D", to_move=0, last_capturer=1)
    game.play(Move(card("KC")))
    game.play(Move(card("3H")))
    assert game.is_over
    assert same(game.piles[1], cards("5D KC 3H"))
    assert "sistan" not in items(game.score()[1])


@pytest.mark.parametrize(
    ("piles", "spades"),
    [
        (["3S 4S", "5S 6S", "7S"], [1, 1, 0]),
        (["3S 4S", "5S 6S", "7S 8S"], [0, 0, 0]),
        (["3S 4S 9S", "5S 6S", "7S 8S"], [2, 0, 0]),
        (["3S", "5S 6S", "7S", "8S 9S"], [0, 1, 0, 1]),
        (["3S", "5S", "7S", "8S 9S"], [0, 0, 0, 2]),
        (["3S", "5S", "7S", ""], [0, 0, 0, 0]),
        (["3S 4S", "5S 6S"], [0, 0]),
        (["3S 4S 7S", "5S 6S"], [2, 0]),
    ],
)
def test_finnish_spades_two_way_tie_split_in_3_or_4_sides(piles, spades):
    """§5: most spades 2; in a 3- or 4-side game a two-way tie gives each 1; other ties none."""
    sides = ended(FINNISH, piles)
    assert [s.get("spades", 0) for s in sides] == spades


def test_finnish_spades_tie_between_two_teams_not_split():
    """§4/§5: a partnership game has two sides, so a tie gives nobody the spades."""
    sides = ended(rules_for("finnish", teams=True), ["3S", "4S", "5S", "6S"])
    assert [s.get("spades", 0) for s in sides] == [0, 0]


@pytest.mark.parametrize(
    ("sweeps", "points"),
    [
        ([1, 1], [0, 0]),
        ([2, 1], [1, 0]),
        ([3, 0], [3, 0]),
        ([2, 2], [0, 0]),
        ([2, 1, 1], [1, 0, 0]),
        ([2, 1, 0], [2, 1, 0]),
        ([1, 1, 1, 1], [0, 0, 0, 0]),
        ([2, 1, 3, 1], [1, 0, 2, 0]),
    ],
)
def test_finnish_mokki_cancel(sweeps, points):
    """§5: a side's sweep points are its sweeps minus the fewest sweeps any side has."""
    sides = ended(FINNISH, [""] * len(sweeps), sweeps=sweeps)
    assert [s.get("tabbe", 0) for s in sides] == points


@pytest.mark.parametrize(("sweeps", "points"), [([1, 1, 0, 0], [0, 0]), ([1, 0, 1, 0], [2, 0])])
def test_finnish_mokki_cancel_per_team(sweeps, points):
    """§4/§5: teams pool sweeps (team 0 = seats 0+2) before cancelling."""
    sides = ended(rules_for("finnish", teams=True), [""] * 4, sweeps=sweeps)
    assert [s.get("tabbe", 0) for s in sides] == points


def sweep_then_trail_out(rules, deck="", scores=None, piles=None):
    """Seat 0 sweeps 9S with 9C, then everyone trails to the end (8 more cards if a deck)."""
    game = position(rules, ["9C", "KD"], "9S", to_move=0, deck=deck, scores=scores, piles=piles)
    game.play(Move(card("9C"), cards("9S")))
    assert game.table == []
    while not game.is_over:
        trail(game)
    return [items(s) for s in game.score()]


EARLIER_DEAL = "2H 3H 4H 5H 6H 7H 8H 10H"


def test_finnish_mokki_before_the_last_deal_scores():
    """§5: a sweep in an earlier deal scores 1."""
    assert sweep_then_trail_out(FINNISH, deck=EARLIER_DEAL)[0].get("tabbe") == 1


def test_finnish_mokki_in_the_last_deal_scores_nothing():
    """§5: a sweep made during the last deal scores nothing (Swedish: it counts)."""
    assert "tabbe" not in sweep_then_trail_out(FINNISH)[0]
    assert sweep_then_trail_out(SWEDISH)[0].get("tabbe") == 1


@pytest.mark.parametrize(
    ("scores", "piles", "points"),
    [
        ([9, 9], None, 1),
        ([10, 0], None, 0),
        ([0, 10], None, 0),
        ([15, 3], None, 0),
        ([0, 9], [[], cards("AH 5C")], 0),  # 9 banked + an ace taken this round = 10
    ],
)
def test_finnish_mokki_void_once_a_side_has_10_points(scores, piles, points):
    """§5: a sweep made while any side already has 10 or more match points scores nothing."""
    sides = sweep_then_trail_out(FINNISH, deck=EARLIER_DEAL, scores=scores, piles=piles)
    assert sides[0].get("tabbe", 0) == points


def test_swedish_sweeps_have_no_limits():
    """§2: Swedish tabbar count in every deal whatever the match score (no Finnish limits)."""
    sides = sweep_then_trail_out(SWEDISH, deck=EARLIER_DEAL, scores=[12, 3])
    assert sides[0].get("tabbe") == 1
    assert ended(SWEDISH, ["", ""], sweeps=[1, 1]) == [{"tabbe": 1}, {"tabbe": 1}]


# -- §6 Mulle ---------------------------------------------------------------------------


def test_mulle_scores_five_and_can_be_a_tabbe():
    """§6: taking exactly one identical card scores a mulle (5); it can also be a tabbe."""
    game = position(MULLE, ["9S", ""], "9S", to_move=0, last_capturer=1)
    game.play(Move(card("9S"), cards("9S")))
    assert game.is_over
    assert items(game.score()[0]) == {"mulle": 5, "tabbe": 1, "sistan": 1, "spades": 1}


def test_mulle_without_tabbe_and_no_cards_point():
    """§6: mulle 5; most spades 1; no point for most cards (6 cards against none)."""
    game = position(MULLE, ["9S 5C", "KD"], "9S 3H", to_move=0)
    game.play(Move(card("9S"), cards("9S")))
    game.play(Move(card("KD")))
    game.play(Move(card("5C")))
    assert game.is_over
    assert same(game.piles[0], cards("9S 9S 3H KD 5C"))
    assert items(game.score()[0]) == {"mulle": 5, "sistan": 1, "spades": 1}


@pytest.mark.parametrize(
    ("table", "taken"),
    [("9H 3C", "9H"), ("9S 4H 5H 3C", "9S 4H 5H"), ("9S 9H 3C", "9S 9H"), ("4S 5S 3C", "4S 5S")],
)
def test_not_a_mulle(table, taken):
    """§6: only exactly one identical card (same rank and suit) and nothing else is a mulle."""
    game = position(MULLE, ["9S", "KD"], table, to_move=0)
    game.play(Move(card("9S"), cards(taken)))
    game.play(Move(card("KD")))
    assert game.is_over
    assert "mulle" not in items(game.score()[0])


def test_mulle_scoring_table_double_deck():
    """§6: aces 1 each, each storan 2, each lillan 1, spades 1, no cards point, sistan 1."""
    sides = ended(
        MULLE,
        ["10D 10D 2S 2S AS AS AH KH QH", "3S 4S 5S 6S 7S 8H 9H"],
        last_capturer=1,
        sweeps=[0, 2],
    )
    assert sides == [
        {"storan": 4, "lillan": 2, "aces": 3},
        {"spades": 1, "sistan": 1, "tabbe": 2},
    ]


def test_mulle_spades_tie_not_awarded():
    assert ended(MULLE, ["3S 4S", "3S 5S 6H"]) == [{}, {}]


# -- §4 Partnerships --------------------------------------------------------------------


def test_partnership_pools_piles_and_sweeps():
    """§4: seats 0+2 against 1+3; piles and sweeps pooled, "most" per team.

    Seat 1 alone has the most spades (5), but team 0 pools 4+4 = 8 against 5."""
    rules = rules_for("swedish", teams=True)
    sides = ended(
        rules,
        ["3S 4S 5S 6S", "JS QS KS AS 2S 3H", "7S 8S 9S 10S", ""],
        last_capturer=3,
        sweeps=[1, 0, 1, 1],
    )
    assert sides == [
        {"spades": 2, "cards": 1, "tabbe": 2},
        {"aces": 1, "lillan": 1, "sistan": 1, "tabbe": 1},
    ]


def test_partnership_sistan_for_the_partner_team():
    rules = rules_for("swedish", teams=True)
    sides = ended(rules, ["3H", "4H", "5H", "6H"], last_capturer=2)
    assert sides == [{"sistan": 1}, {}]


@pytest.mark.parametrize("name", ["swedish", "overspader", "finnish", "mulle"])
def test_partnership_round_scores_two_sides(name):
    """§4: allowed in every Nordic variant; score() gives one Score per team."""
    game = Round.deal(rules_for(name, teams=True), 4, seed=3)
    while not game.is_over:
        game.play(game.legal_moves()[-1])
    scores = game.score()
    assert len(scores) == 2
    total_cards = sum(len(p) for p in game.piles)
    assert total_cards == (104 if name == "mulle" else 52)
