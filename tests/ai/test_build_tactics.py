"""Build tactics and hints on hand-made Casino positions, and the timed-out player's move."""

from __future__ import annotations

import pytest

from bot.ai import LEVELS, choose_move, explain_move, hint
from bot.engine import Build, Card, Move, Round, parse_cards, rules_for
from bot.moves import auto_move

from .conftest import BUILDING_SETUPS, building_positions

SMART = ("normal", "hard")
BUDGET = 60


def casino(mine: str, theirs: str, table: list, deck: str = "", variant: str = "casino") -> Round:
    """Seat 0 to move in a 2-player game (the deck: whatever is left, or ``deck``)."""
    rules = rules_for(variant)
    hands = [parse_cards(mine), parse_cards(theirs)]
    items = [Build.parse(i, owner=o) if isinstance(i, str) else i for i, o in _owned(table)]
    return Round.from_position(rules, hands, items, parse_cards(deck), dealer=1, to_move=0)


def _owned(table: list) -> list[tuple[object, int]]:
    """Table entries: cards as text, builds as ``(text, owner)``."""
    out: list[tuple[object, int]] = []
    for entry in table:
        if isinstance(entry, tuple):
            out.append(entry)
        else:
            out.extend((card, 0) for card in parse_cards(entry))
    return out


@pytest.mark.parametrize("level", SMART)
def test_builds_what_it_can_keep_and_the_hint_says_why(level):
    # 3♣ on the 6♥ makes 9; seat 0 keeps 9♥, and every other 9 is already taken.
    game = casino("3C 9H KS", "KH 4D QC", ["6H", "JD"], deck="", variant="casino")
    game = _with_nines_gone(game)
    move = choose_move(game, 0, level, seed=1, budget_ms=BUDGET)
    assert move == Move.build(Card.parse("3C"), [Card.parse("6H")], 9)
    text = explain_move(game, 0, move)
    assert text.startswith("build 9 with 3♣ + 6♥: you hold another 9 (9♥)")


def _with_nines_gone(game: Round) -> Round:
    """The same position with the other nines in seat 1's capture pile."""
    piles = [[], parse_cards("9C 9D 9S AS")]
    return Round.from_position(
        game.rules, game.hands, game.table, [], dealer=1, to_move=0, piles=piles, last_capturer=1
    )


@pytest.mark.parametrize("level", SMART)
def test_takes_the_opponents_build(level):
    eight = ("[8: 3D 5H]", 1)
    game = casino("8C 2D", "8S 4C", [eight, "KD"])
    move = choose_move(game, 0, level, seed=1, budget_ms=BUDGET)
    assert move.taken == (Build.parse("[8: 3D 5H]", owner=1),)
    assert "denies the opponent their 8-build" in explain_move(game, 0, move)


@pytest.mark.parametrize("level", LEVELS)
def test_an_owner_takes_its_build_rather_than_trail(level):
    game = casino("9S 4H", "KH 2C", [("[9: 3H 6D]", 0), "QD"])
    move = choose_move(game, 0, level, seed=1, budget_ms=BUDGET)
    assert game.is_legal(move) and not move.is_trail
    assert not game.is_legal(Move(Card.parse("4H")))  # the rules refuse the trail


def test_hints_name_raises_adds_and_captures_of_builds():
    five = Build.parse("[5: 2C 3D]", owner=1)
    game = casino("3C 8H 5D 5C", "KH 4D", [("[5: 2C 3D]", 1), "5S"])
    raise_ = Move.build(Card.parse("3C"), [five], 8)
    add = Move.build(Card.parse("5D"), [five, Card.parse("5S")], 5)
    take = Move(Card.parse("5D"), [five, Card.parse("5S")])
    assert all(game.is_legal(m) for m in (raise_, add, take))
    assert explain_move(game, 0, raise_).startswith("raise the 5-build to 8 with 3♣:")
    assert "takes over the opponent's build" in explain_move(game, 0, raise_)
    assert explain_move(game, 0, add).startswith("add 5♦ + 5♠ to the 5-build: you hold another")
    assert explain_move(game, 0, take).startswith("take the 5-build and 5♠ with 5♦: it denies")


def test_hint_on_a_build_move_is_one_line():
    game = _with_nines_gone(casino("3C 9H KS", "KH 4D QC", ["6H", "JD"]))
    move, text = hint(game, 0, seed=1, budget_ms=BUDGET)
    assert move.kind == "build" and "\n" not in text and "build 9" in text


@pytest.mark.parametrize("setup", BUILDING_SETUPS[::2], ids=lambda s: f"{s[0]}-{s[1]}")
def test_auto_move_is_legal_everywhere(setup):
    owners = 0
    for round_ in building_positions(setup, seed=6):
        move = auto_move(round_, seed=3)
        assert round_.is_legal(move), (str(move), round_.to_dict())
        owners += any(isinstance(b, Build) and b.owner == round_.to_move for b in round_.table)
    assert owners


def test_auto_move_plays_a_whole_round_of_every_building_game():
    for variant, players, teams in BUILDING_SETUPS:
        game = Round.deal(rules_for(variant, teams=teams), players, seed=9)
        while not game.is_over:
            game.play(auto_move(game, seed=len(game.plays)))
        assert sum(s.total for s in game.score()) > 0
