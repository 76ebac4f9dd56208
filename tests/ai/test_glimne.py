"""Glimne's Mulle: ``hard``'s rollout policy knows what a mulle (a capture holding the
played card's twin) scores, as ``normal`` does."""

from __future__ import annotations

import pytest

from bot.ai import choose_move, normal
from bot.ai.buildrollout import BuildRollout
from bot.ai.view import SeatView
from bot.engine import Card, Move, Round, parse_cards, rules_for


def glimne(mine: str, theirs: str, table: str) -> Round:
    """Seat 0 to move in a 2-player Glimne's Mulle round, the deck empty."""
    rules = rules_for("mulle-glimne")
    hands = [parse_cards(mine), parse_cards(theirs)]
    return Round.from_position(rules, hands, parse_cards(table), [], dealer=1, to_move=0)


def policy(game: Round) -> BuildRollout:
    view = SeatView.of(game, game.to_move)
    return BuildRollout(view, normal.Judge(view).marginals)


def test_the_policy_takes_a_mulle_before_a_spade():
    # 9♥ on its twin scores 9 (the mulle); 4♦ on the 4♠ scores the spade's 1.
    game = glimne("9H 4D", "KC QD", "9H 4S KD")
    best = policy(game).options(game)[0][1]
    assert best == Move(Card.parse("9H"), [Card.parse("9H")])
    game.play(best)
    assert game.mulle_points[0] == 9


def test_the_policy_does_not_trail_a_card_whose_twin_the_opponent_holds():
    # Nothing to take: trailing the 9♥ gives the opponent a 9-point mulle with its twin.
    game = glimne("9H 5C", "9H 2D", "KC")
    options = policy(game).options(game)
    trails = [move for _, move in options if move.is_trail]
    assert trails[0] == Move.trail(Card.parse("5C"))
    assert options[0][1] == Move.trail(Card.parse("5C"))


def last_cards(mine: str, theirs: str, table: str) -> Round:
    """``glimne`` at the end of the round: every other card already in the piles."""
    rules = rules_for("mulle-glimne")
    rest = list(rules.deck())
    for card in parse_cards(f"{mine} {theirs} {table}"):
        rest.remove(card)
    hands = [parse_cards(mine), parse_cards(theirs)]
    piles = [rest[0::2], rest[1::2]]
    return Round.from_position(
        rules, hands, parse_cards(table), [], dealer=1, to_move=0, piles=piles, last_capturer=1
    )


@pytest.mark.parametrize("seed", range(3))
def test_hard_takes_the_small_mulle_first_and_keeps_the_big_one(seed):
    # 6♣ on its twin now (6 points) and the J♣ on its twin next turn (11: the opponent's
    # A♠ and 2♥ cannot take it) make 17; the J♣ taking 5♦ 6♣ J♣ at once spoils the 6♣'s
    # mulle and makes 11.
    game = last_cards("6C 3C JC", "AS 2H", "5D 4D 6C 8H JC")
    move = choose_move(game, 0, "hard", seed=seed)
    assert move == Move(Card.parse("6C"), [Card.parse("6C")])
