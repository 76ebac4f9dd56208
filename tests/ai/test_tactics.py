"""Sanity tactics: the obvious good plays, and the seed pages' standard advice."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.ai import choose_move
from bot.engine import Card, Move, Round, capture_options, parse_cards, rules_for
from bot.engine.cards import full_deck

SMART = ("normal", "hard")


def position(
    hand: str,
    table: str,
    variant: str = "swedish",
    players: int = 2,
    others: str = "",
    last_deal: bool = False,
    seed: int = 0,
) -> Round:
    """Seat 0 to move holding ``hand``; the unseen cards dealt at random (four each)."""
    rules = rules_for(variant)
    mine, on_table = parse_cards(hand), parse_cards(table)
    rest = Counter(full_deck(rules.decks))
    rest.subtract(mine + on_table)
    pool = sorted(rest.elements())
    random.Random(seed).shuffle(pool)
    hands = [mine]
    fixed = parse_cards(others)
    for _ in range(1, players):
        size = len(mine) if not fixed else len(fixed)
        hand_cards = fixed or pool[:size]
        for card in hand_cards:
            pool.remove(card)
        hands.append(hand_cards)
    if last_deal:
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
    return Round.from_position(rules, hands, on_table, pool, dealer=players - 1, to_move=0)


def play(round_: Round, level: str) -> Move:
    return choose_move(round_, 0, level, seed=1, budget_ms=60)


def sweepable(rules, table: list[Card]) -> bool:
    """Whether some single card could take the whole table."""
    cards = [next(Card(r, s) for s in "HSDC" if Card(r, s) not in table) for r in range(1, 14)]
    return any(
        capture_options(rules, c, table)[:1]
        and len(capture_options(rules, c, table)[0]) == len(table)
        for c in cards
    )


@pytest.mark.parametrize("level", SMART)
def test_takes_a_tabbe(level):
    move = play(position("9D KH 4C 2H", "3H 6C"), level)
    assert move == Move(Card.parse("9D"), parse_cards("3H 6C"))


@pytest.mark.parametrize("level", SMART)
def test_takes_storan(level):
    move = play(position("10C 5H 8S 7D", "10D 5C JH"), level)
    assert move.card == Card.parse("10C") and Card.parse("10D") in move.taken


@pytest.mark.parametrize("level", SMART)
def test_takes_aces(level):
    # The seed page's example: an ace played as 14 takes A + 4 + 9, the king only 4 + 9.
    move = play(position("KH AH 6D 8C", "AS 4C 9D"), level)
    assert move == Move(Card.parse("AH"), parse_cards("AS 4C 9D"))


@pytest.mark.parametrize("level", SMART)
def test_does_not_trail_into_an_easy_tabbe(level):
    # Trailing the 3 lets any jack sweep 8 + 3; the queen leaves nothing to sweep.
    move = play(position("3D QC", "8H"), level)
    assert move == Move(Card.parse("QC"))


@pytest.mark.parametrize("level", SMART)
def test_leaves_a_card_to_deny_the_next_player_a_tabbe(level):
    # The seed page's example: Q, 5, 7, 3 on the table; taking Q + 5 + 7 leaves a lone 3.
    round_ = position("QD 9H KC 6D", "3H 5D 7C QH")
    move = play(round_, level)
    left = list(round_.table)
    for card in move.taken:
        left.remove(card)
    assert left and not sweepable(round_.rules, left)


@pytest.mark.parametrize("level", SMART)
def test_keeps_a_ten_while_storan_is_out(level):
    move = play(position("10H 6D", "9C KD"), level)
    assert move == Move(Card.parse("6D"))


@pytest.mark.parametrize("level", SMART)
def test_the_last_card_takes_the_leftovers_and_sistan(level):
    round_ = position("4D", "4H 9C 2D", others="", last_deal=True)
    round_.hands[1] = []
    move = play(round_, level)
    assert move.taken == (Card.parse("4H"),)


@pytest.mark.parametrize("level", SMART)
def test_a_mulle_beats_a_tabbe(level):
    move = play(position("7S 2H 9D KC JC", "7S 3H 4D", variant="mulle"), level)
    assert move == Move(Card.parse("7S"), parse_cards("7S"))


@pytest.mark.parametrize("level", SMART)
def test_plays_for_the_target_when_points_count_as_you_go(level):
    round_ = position("AH 5C 9D KC", "AD 3H 5S", variant="finnish")
    round_.scores = [15, 15]
    move = play(round_, level)  # the ace is the sixteenth point: the match is won at once
    assert Card.parse("AD") in move.taken
