"""The search's lean round plays exactly like the engine's."""

import random

import pytest

from bot.ai.sim import Sim
from bot.engine import Round, rules_for

SETUPS = [(v, n, False) for v in ("swedish", "overspader", "finnish", "mulle") for n in (2, 3, 4)]
SETUPS += [(v, 4, True) for v in ("swedish", "finnish", "mulle")]


def same(sim: Sim, round_: Round) -> None:
    assert sim.hands == round_.hands
    assert sim.table == sorted(round_.table)
    assert sim.deck == round_.deck
    assert sim.to_move == round_.to_move or round_.is_over
    assert sim.is_last_deal == round_.is_last_deal
    assert sim.live_totals() == round_.live_totals()
    piles = round_.side_piles()
    assert sim.cards == [len(p) for p in piles]
    assert sim.spades == round_.spades_taken()


@pytest.mark.parametrize(("variant", "players", "teams"), SETUPS)
def test_sim_follows_the_engine(variant, players, teams):
    rules = rules_for(variant, teams=teams)
    for seed in range(15):
        rng = random.Random(seed)
        scores = [rng.choice((0, 5, 9, 12)) for _ in range(rules.sides(players))]
        round_ = Round.deal(rules, players, dealer=seed % players, seed=seed, scores=scores)
        sim = Sim.from_round(round_)
        while not round_.is_over:
            move = rng.choice(round_.legal_moves())
            round_.play(move)
            sim.play_move(move)
            if sim.winner is not None:  # counting as you go: the match ends mid-round
                totals = round_.live_totals()
                assert totals[sim.winner] >= rules.target
                assert totals.count(max(totals)) == 1
                break
            same(sim, round_)
        else:
            assert sim.over
            assert sim.round_points() == [s.total for s in round_.score()]
