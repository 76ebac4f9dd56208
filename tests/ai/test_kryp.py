"""Krypkasino's computer players: legal, reproducible, no peeking, and they avoid points."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from bot.ai import LEVELS, choose_move, hint
from bot.ai.endgame import Solver
from bot.ai.kryp import KrypJudge, fast_options, options
from bot.ai.sim import Sim
from bot.ai.view import SeatView
from bot.engine import Move, Round, parse_cards, rules_for
from bot.engine.cards import full_deck
from bot.i18n import lang

from .conftest import TINY, reshuffle_hidden, same_move_unseen

# (players, teams, team_size): every seating Krypkasino has.
SEATINGS = [(2, False, 2), (3, False, 2), (4, False, 2), (5, False, 2), (6, False, 2)]
SEATINGS += [(4, True, 2), (6, True, 2), (6, True, 3)]
IDS = [f"{n}p{'-teams' + str(s) if t else ''}" for n, t, s in SEATINGS]


def kryp_rules(teams: bool = False, team_size: int = 2, **options: object):
    if teams:
        return rules_for("krypkasino", teams=True, team_size=team_size, **options)
    return rules_for("krypkasino", **options)


def kryp_positions(seating: tuple[int, bool, int], seed: int, every: int = 1) -> Iterator[Round]:
    """Positions met in a round of random legal moves (scores from earlier rounds)."""
    players, teams, size = seating
    rules = kryp_rules(teams, size)
    rng = random.Random(seed)
    scores = [rng.choice((0, 12, 30, -5)) for _ in range(rules.sides(players))]
    round_ = Round.deal(rules, players, dealer=rng.randrange(players), seed=seed, scores=scores)
    step = 0
    while not round_.is_over:
        if step % every == 0:
            yield round_
        round_.play(rng.choice(round_.legal_moves()))
        step += 1


def position(
    hand: str, table: str, others: str = "", players: int = 2, last_deal: bool = False, **kw
) -> Round:
    """Seat 0 to move holding ``hand``. Without ``last_deal`` the unseen cards are dealt at
    random (the others as many as seat 0); with it, ``others`` is every other hand (the
    same for each) and the rest of the deck lies in the piles, so nothing else is hidden."""
    rules = kryp_rules(**kw)
    mine, on_table = parse_cards(hand), parse_cards(table)
    rest = Counter(full_deck(2))
    rest.subtract(mine + on_table)
    pool = sorted(rest.elements())
    random.Random(0).shuffle(pool)
    hands = [mine]
    for _ in range(1, players):
        cards = parse_cards(others) if others else pool[: len(mine)]
        for card in cards:
            pool.remove(card)
        hands.append(cards)
    if not last_deal:
        return Round.from_position(rules, hands, on_table, pool, dealer=players - 1, to_move=0)
    piles = [pool[i::players] for i in range(players)]
    return Round.from_position(
        rules,
        hands,
        on_table,
        (),
        dealer=players - 1,
        to_move=0,
        piles=piles,
        last_capturer=1,
        last_deal=True,
    )


def play(round_: Round, level: str) -> Move:
    return choose_move(round_, 0, level, seed=1, budget_ms=40)


# -- the contract ---------------------------------------------------------------------------


@pytest.mark.parametrize("seating", SEATINGS, ids=IDS)
def test_every_level_plays_legal_reproducible_moves(seating):
    checked = 0
    for round_ in kryp_positions(seating, seed=3, every=4):
        for level in LEVELS:
            move = choose_move(round_, round_.to_move, level, seed=5, budget_ms=TINY)
            assert round_.is_legal(move), (level, move, round_.to_dict())
            assert choose_move(round_, round_.to_move, level, seed=5, budget_ms=TINY) == move
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("level", LEVELS)
def test_cards_the_seat_cannot_see_do_not_change_the_move(level):
    """The no-peeking property, for 2 to 6 players and every seating."""
    positions = (r for i, s in enumerate(SEATINGS) for r in kryp_positions(s, seed=40 + i, every=6))
    assert same_move_unseen(positions, level, reshuffle_hidden, tries=2) > 80


def test_whole_rounds_between_the_levels_with_six_players_in_teams_of_three():
    round_ = next(kryp_positions((6, True, 3), seed=8))
    seats = ["hard", "normal", "easy", "hard", "normal", "easy"]
    while not round_.is_over:
        seat = round_.to_move
        round_.play(choose_move(round_, seat, seats[seat], seed=seat, budget_ms=3))
    assert sum(s.total for s in round_.score()) == 42


def test_the_view_knows_krypkasinos_sides_and_rewards():
    round_ = next(kryp_positions((6, True, 2), seed=2))
    view = SeatView.of(round_, 4)
    assert view.side == 1 and view.sides == 3
    assert [view.side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert view.sample(random.Random(1)).rewards == round_.rewards


# -- playing to avoid points ----------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_krypa_rather_than_take_storan(level):
    # 10♦ must take 10♠ (storan 3 + a spade 1); 7♣ takes nothing (the table makes 3, 10, 13).
    round_ = position("10D 7C", "10S 3H")
    assert play(round_, level) == Move(parse_cards("7C")[0])


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_krypa_rather_than_take_lillan_with_four_players(level):
    round_ = position("2H 9C KD", "2S 5D", players=4)
    assert play(round_, level).is_trail


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_the_forced_capture_takes_no_points(level):
    # Worked example 2: no krypa; 7♥ would take lillan, 9♣ takes nothing that scores.
    round_ = position("7H 9C", "5D 2S 4H")
    assert play(round_, level) == Move(parse_cards("9C")[0], tuple(parse_cards("5D 4H")))


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_the_smaller_whole_capture_when_it_is_cheaper(level):
    # Worked example 7: 8♣ takes 6♦ 2♥ (0 points) or 4♠ 2♥ 2♥ (1 point).
    round_ = position("8C", "6D 2H 2H 4S", others="KH")
    assert play(round_, level) == Move(parse_cards("8C")[0], tuple(parse_cards("6D 2H")))


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_no_tabbe_when_a_capture_can_leave_something(level):
    # Both cards must capture: 8♦ takes 5♥ 3♣ (a tabbe), 5♣ takes 5♥ and leaves 3♣.
    round_ = position("8D 5C", "5H 3C")
    assert play(round_, level) == Move(parse_cards("5C")[0], tuple(parse_cards("5H")))


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_forcing_a_tabbe_on_the_next_player(level):
    # The last deal: the opponent's one card is Q♦ (every other card is in the piles).
    # Krypa 5♣ leaves 7♦ 5♣ = 12, so Q♦ must take the table: a tabbe, −5 for seat 0.
    # Krypa 9♥ leaves 7♦ 9♥, which Q♦ cannot take.
    round_ = position("5C 9H", "7D", others="QD", last_deal=True)
    assert play(round_, level) == Move(parse_cards("5C")[0])


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_a_penalty_card_is_played_away_as_a_krypa(level):
    # Nothing on the table adds up to 1, 3 or 14: any card may krypa; A♠ is worth 2.
    round_ = position("AS 3D", "9C 6H 4D")
    assert play(round_, level) == Move(parse_cards("AS")[0])


def test_normal_charges_a_tabbe_its_penalty_and_the_opponents_reward():
    round_ = position("8D 5C", "5H 3C", players=3)
    judge = KrypJudge(SeatView.of(round_, 0))
    parts = judge.parts(Move(parse_cards("8D")[0], tuple(parse_cards("5H 3C"))))
    assert parts["taken"] == 0 and parts["tabbe"] == -(5 + 5 / 2)


# -- the search's pieces --------------------------------------------------------------------


@pytest.mark.parametrize("take_all", (True, False))
def test_the_searchs_captures_are_the_engines(take_all):
    rules = kryp_rules(take_all=take_all)
    checked = 0
    for round_ in kryp_positions((3, False, 2), seed=12):
        table = sorted(round_.table)
        if len(table) > 10:
            continue
        for card in set(round_.hands[round_.to_move]):
            fast = Counter(tuple(sorted(t)) for t in fast_options(round_.rules, card, table))
            engine = Counter(tuple(sorted(t)) for t in round_.forced_captures(card))
            if take_all:
                assert set(fast) == set(engine), (card, table)
            else:
                assert set(fast) <= set(engine) and bool(fast) == bool(engine)
            assert set(map(tuple, map(sorted, options(rules, card, table)))) >= set(fast)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("seating", SEATINGS, ids=IDS)
def test_sim_counts_krypkasinos_points_as_the_engine(seating):
    players, teams, size = seating
    rules = kryp_rules(teams, size)
    lillan = parse_cards("2S")[0]
    for seed in range(4):
        rng = random.Random(seed)
        round_ = Round.deal(rules, players, dealer=seed % players, seed=seed)
        sim = Sim.from_round(round_)
        while not round_.is_over:
            move = rng.choice(round_.legal_moves())
            round_.play(move)
            sim.play_move(move)
            # The engine counts spades at the end; the search as they are taken.
            live = round_.live_totals()
            for side, pile in enumerate(round_.side_piles()):
                live[side] += sum(c.suit == "S" and c is not lillan for c in pile)
            assert sim.live_totals() == live
        assert sim.round_points() == [s.total for s in round_.score()]
        assert sum(sim.round_points()) == 42


def test_sim_counts_the_majorities_option():
    rules = kryp_rules(majorities=True)
    rng = random.Random(4)
    round_ = Round.deal(rules, 3, seed=4)
    sim = Sim.from_round(round_)
    while not round_.is_over:
        move = rng.choice(round_.legal_moves())
        round_.play(move)
        sim.play_move(move)
    assert sim.round_points() == [s.total for s in round_.score()]


def test_the_exact_endgame_lists_the_legal_moves():
    for round_ in kryp_positions((2, False, 2), seed=6):
        if round_.deck or len(round_.table) > 10:
            continue
        actions = Solver(0, lambda sim: 0.0).actions(Sim.from_round(round_))
        moves = {Move(card, taken) for card, taken in actions}
        assert moves == set(round_.legal_moves())


# -- hints ----------------------------------------------------------------------------------


def test_the_hint_for_a_krypa_says_it_takes_nothing():
    round_ = position("10D 7C", "10S 3H")
    move, text = hint(round_, 0, seed=1, budget_ms=TINY)
    assert move.is_trail
    assert text.startswith("krypa with 7♣: it takes nothing")


def test_the_hint_tells_a_forced_tabbe_on_the_next_player():
    round_ = position("5C 9H", "7D", others="QD", last_deal=True)
    _, text = hint(round_, 0, seed=1, budget_ms=TINY)
    assert "the next player will likely have to tabbe on 7♦ 5♣, giving you −5" in text


def test_the_hint_for_a_forced_capture_says_why_it_is_cheapest():
    _, text = hint(position("7H 9C", "5D 2S 4H"), 0, seed=1, budget_ms=TINY)
    assert text == (
        "take 4♥ 5♦ with 9♣: every card in your hand can capture, so one must, "
        "and it takes only 2 cards, worth no penalty points"
    )


def test_the_hint_names_lillan_when_every_move_takes_it():
    _, text = hint(position("7H", "5D 2S"), 0, seed=1, budget_ms=TINY)
    assert text == (
        "take 2♠ 5♦ with 7♥: it is the only legal move, and every move you have takes lillan"
    )


@pytest.mark.parametrize(("code", "sweep"), (("sv", "tabbe"), ("fi", "mökin")))
def test_hints_keep_krypa_and_say_the_readers_word_for_a_tabbe(code, sweep):
    t = lang(code)
    _, krypa = hint(position("10D 7C", "10S 3H"), 0, seed=1, budget_ms=TINY, t=t)
    _, tabbe = hint(position("5C 9H", "7D", others="QD", last_deal=True), 0, seed=1, t=t)
    assert "krypa" in krypa and "7♣" in krypa
    assert sweep in tabbe and "−5" in tabbe and "tabbe" not in tabbe.replace(sweep, "")
    assert krypa != hint(position("10D 7C", "10S 3H"), 0, seed=1, budget_ms=TINY)[1]


def test_the_hint_tells_the_tabbe_a_capture_avoids():
    _, text = hint(position("8D 5C", "5H 3C"), 0, seed=1, budget_ms=TINY)
    assert text == (
        "take 5♥ with 5♣: every card in your hand can capture, so one must, "
        "and 8♦ would take the whole table: a tabbe"
    )


def test_the_hint_names_lillan_in_the_readers_words():
    """A whole sentence per card, so Finnish says patakakkonen (not "kortin lillan")."""
    _, text = hint(position("7H", "5D 2S"), 0, seed=1, budget_ms=TINY, t=lang("fi"))
    assert "jokainen siirtosi vie patakakkosen" in text and "lillan" not in text, text
    _, text = hint(position("7H", "5D 2S"), 0, seed=1, budget_ms=TINY, t=lang("sv"))
    assert "alla dina drag tar lillan" in text, text
