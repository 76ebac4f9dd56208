"""The computer players in the building games: legal, reproducible, never peeking.

Positions come from random play that builds whenever it may, so tables hold builds of
both sides, multiple builds, Swazi pile tops, and owners who may not trail.
"""

import random

import pytest

from bot.ai import LEVELS, SeatView, choose_move, hard
from bot.ai.stop import Stop
from bot.engine import Build

from ..engine.worst import at_most_calls
from .conftest import BUILDING_SETUPS, building_positions, fair_reshuffle, same_move_unseen

TINY = 3  # ms of counted work for hard: a real search, with the least rollouts
IDS = [f"{v}-{n}{'-teams' if t else ''}" for v, n, t in BUILDING_SETUPS]


def owns_a_build(round_) -> bool:
    seat = round_.to_move
    return any(isinstance(b, Build) and b.owner == seat for b in round_.table)


@pytest.mark.parametrize("setup", BUILDING_SETUPS, ids=IDS)
def test_every_level_plays_legal_moves(setup):
    seen = {"owner": 0, "builds": 0}
    for seed in range(3):
        for round_ in building_positions(setup, seed):
            owner = owns_a_build(round_)
            several = sum(isinstance(b, Build) for b in round_.table) >= 2
            several = several or any(isinstance(b, Build) and b.multiple for b in round_.table)
            if not (owner or several or len(round_.plays) % 3 == 0):
                continue
            for level in LEVELS:
                move = choose_move(round_, round_.to_move, level, seed=seed, budget_ms=TINY)
                assert round_.is_legal(move), (level, str(move), round_.to_dict())
            seen["owner"] += owner
            seen["builds"] += several
    assert seen["owner"] and seen["builds"], seen  # the hard cases were met


@pytest.mark.parametrize("table_builds", [2, 3])
def test_swazi_turns_with_several_build_actions(table_builds):
    seen = used_tops = 0
    for seed in range(3):
        for round_ in building_positions(("swazi", 2, False), seed, table_builds=table_builds):
            for level in LEVELS:
                move = choose_move(round_, round_.to_move, level, seed=seed, budget_ms=TINY)
                assert round_.is_legal(move), (level, str(move))
            moves = round_.legal_moves()
            seen += any(len(m.table_builds) > 1 for m in moves)
            tops = {pile[-1] for pile in round_.piles if pile}
            used_tops += any(tops.intersection(m.taken) for m in moves)
    assert seen and used_tops  # several build actions, and captures of pile top cards


@pytest.mark.parametrize("level", LEVELS)
def test_moves_are_reproducible_with_a_seed(level):
    for setup in BUILDING_SETUPS[::2]:
        for round_ in building_positions(setup, seed=4, every=5):
            first = choose_move(round_, round_.to_move, level, seed=8, budget_ms=TINY)
            assert choose_move(round_, round_.to_move, level, seed=8, budget_ms=TINY) == first


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_cards_do_not_change_the_move(level):
    positions = (r for s in BUILDING_SETUPS for r in building_positions(s, seed=17, every=4))
    assert same_move_unseen(positions, level, fair_reshuffle) > 100


def test_a_twin_has_the_same_view_and_other_hidden_cards():
    rng = random.Random(2)
    count = differ = 0
    for round_ in building_positions(("swazi", 2, False), seed=1, every=3):
        twin = fair_reshuffle(round_, round_.to_move, rng)
        assert twin is not None
        assert SeatView.of(twin, round_.to_move) == SeatView.of(round_, round_.to_move)
        count += 1
        differ += twin.hands != round_.hands or twin.deck != round_.deck
    assert differ >= 0.8 * count  # the last cards of a round leave little to deal anew


def test_sampled_worlds_give_owners_their_cards():
    checked = 0
    for setup in BUILDING_SETUPS:
        for round_ in building_positions(setup, seed=3, every=3):
            view = SeatView.of(round_, round_.to_move)
            world = view.sample(random.Random(1))
            for build in view.builds:
                if build.owner != view.seat:
                    hand = world.hands[build.owner]
                    assert any(build.value in view.rules.hand_values[c] for c in hand)
                    checked += 1
            assert sorted(c for h in world.hands for c in h) + sorted(world.deck) != []
    assert checked > 20


def test_an_owner_never_trails_where_the_rules_forbid_it():
    checked = 0
    for setup in [s for s in BUILDING_SETUPS if s[0] in ("casino", "royal")]:
        for seed in range(4):
            for round_ in building_positions(setup, seed):
                if owns_a_build(round_):
                    for level in LEVELS:
                        move = choose_move(round_, round_.to_move, level, seed=1, budget_ms=TINY)
                        assert not move.is_trail
                    checked += 1
    assert checked > 20


def test_hard_stops_at_its_deadline_in_the_building_games():
    round_ = next(r for r in building_positions(("swazi", 2, False), seed=2) if len(r.table) > 5)
    view = SeatView.of(round_, round_.to_move)
    with at_most_calls(150_000):  # one world at most, not the 10 seconds asked for
        move = hard.choose(view, random.Random(1), Stop.timed(10_000, seconds=0))
    assert round_.is_legal(move)
