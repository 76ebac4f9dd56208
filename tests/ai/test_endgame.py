"""The exact end of a round (issue 11): the solver against brute force, and known positions."""

from __future__ import annotations

import random

import pytest

from bot.ai import choose_move, endgame
from bot.ai.sim import Sim
from bot.ai.values import objective
from bot.engine import Move, Round, parse_cards, rules_for
from bot.engine.cards import full_deck

from .conftest import reshuffle_hidden, same_move_unseen
from .test_tactics import position


def brute_force(round_: Round, side: int) -> float:
    """Plain minimax on the engine itself: the round's final points, ``side`` against the rest."""
    if round_.is_over:
        return objective([s.total for s in round_.score()], side)
    values = []
    for move in round_.legal_moves():
        twin = round_.copy()
        twin.play(move)
        values.append(brute_force(twin, side))
    mine = round_.rules.side_of(round_.to_move, round_.players) == side
    return max(values) if mine else min(values)


def last_deal(variant: str, players: int, held: int, seed: int, teams: bool = False) -> Round:
    """A random position of the last deal: ``held`` cards each, the deck empty."""
    rules = rules_for(variant, teams=teams)
    rng = random.Random(seed)
    deck = list(full_deck(rules.decks))
    rng.shuffle(deck)
    hands = [deck[i * held : (i + 1) * held] for i in range(players)]
    rest = deck[players * held :]
    table, rest = rest[: rng.randint(1, 5)], rest[6:]
    piles = [rest[i::players] for i in range(players)]
    return Round.from_position(
        rules,
        hands,
        table,
        (),
        dealer=players - 1,
        to_move=0,
        piles=piles,
        last_capturer=rng.randrange(players),
        last_deal=True,
    )


def points(side: int):
    """The solver's value of a finished round: its points, ``side`` against the rest."""
    return lambda sim: objective(sim.round_points(), side)


@pytest.mark.parametrize(
    "variant, players, held, teams",
    [
        ("swedish", 2, 3, False),
        ("overspader", 2, 3, False),
        ("swedish", 3, 2, False),
        ("swedish", 4, 2, True),
    ],
)
def test_the_solver_values_every_move_as_brute_force_does(variant, players, held, teams):
    for seed in range(12):
        round_ = last_deal(variant, players, held, seed, teams)
        side = round_.rules.side_of(round_.to_move)
        solver = endgame.Solver(side, points(side))
        moves = round_.legal_moves()
        values = solver.values(Sim.from_round(round_), [(m.card, m.taken) for m in moves])
        for move, value in zip(moves, values, strict=True):
            twin = round_.copy()
            twin.play(move)
            assert value == pytest.approx(brute_force(twin, side)), (seed, move)


def test_ranked_values_put_the_best_move_first_and_alone():
    for seed in range(20):
        round_ = last_deal("swedish", 2, 3, seed)
        sim = Sim.from_round(round_)
        moves = round_.legal_moves()
        actions = [(m.card, m.taken) for m in moves]
        exact = endgame.Solver(0, points(0)).values(sim, actions)
        ranked = endgame.Solver(0, points(0)).ranked(sim, actions)
        top = ranked.index(max(ranked))
        assert exact[top] == max(exact) == ranked[top]
        assert sum(r == max(ranked) for r in ranked) == 1


def test_a_position_too_big_is_given_up():
    round_ = last_deal("swedish", 2, 4, seed=3)
    solver = endgame.Solver(0, points(0), limit=5)
    with pytest.raises(endgame.TooBig):
        solver.values(Sim.from_round(round_), [(m.card, m.taken) for m in round_.legal_moves()])


def test_keeps_storan_back_to_take_the_last_trick_and_the_table():
    # Taking 10♥ with storan now leaves 6♣ to trail and the opponent the last capture
    # (6♦ takes it, with sistan); trailing 6♣ first keeps storan for the last word.
    round_ = position("10D 6C", "AC QD 10H", others="6D 3C", last_deal=True)
    move = choose_move(round_, 0, "hard", seed=1)
    assert move == Move.trail(parse_cards("6C")[0])
    assert choose_move(round_, 0, "hard", seed=2) == move


def test_the_exact_end_sees_through_any_dealing_of_the_unseen_cards():
    # Two players, the deck empty: the unseen cards are the opponent's hand, whatever the
    # order they were dealt in, so the move is the same.
    round_ = position("10D 6C", "AC QD 10H", others="6D 3C", last_deal=True)
    twin = position("10D 6C", "AC QD 10H", others="3C 6D", last_deal=True)
    assert choose_move(round_, 0, "hard", seed=1) == choose_move(twin, 0, "hard", seed=1)


def test_four_players_solve_each_sampled_world_and_stay_legal():
    for seed in range(6):
        round_ = last_deal("swedish", 4, 2, seed, teams=True)
        move = choose_move(round_, round_.to_move, "hard", seed=seed, budget_ms=20)
        assert round_.is_legal(move)


def test_the_exact_end_does_not_peek_with_four_players():
    positions = [last_deal("swedish", 4, 2, seed, teams=True) for seed in range(8)]
    positions += [last_deal("swedish", 3, 2, seed) for seed in range(8)]
    assert same_move_unseen(positions, "hard", reshuffle_hidden, tries=2) == 16
