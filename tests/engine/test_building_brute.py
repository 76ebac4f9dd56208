"""``legal_moves()`` of every building game equals a brute-force generator (all subsets,
all declared values) on thousands of small random positions."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Move
from tests.engine.positions import (
    CASINO_FAMILY,
    SWAZI_FAMILY,
    random_position,
    random_swazi_position,
)
from tests.engine.reference import reference_moves, swazi_reference

MANY = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _compare(rnd):
    moves = rnd.legal_moves()
    assert len(moves) == len(set(moves)), "each legal move once"
    expected = reference_moves(rnd)
    got = set(moves)
    assert got == expected, (
        f"\nposition: {rnd.to_dict()}\nextra: {sorted(map(str, got - expected))}"
        f"\nmissing: {sorted(map(str, expected - got))}"
    )
    for move in expected:
        assert rnd.is_legal(move)


@MANY
@given(case=st.sampled_from(CASINO_FAMILY), seed=st.integers(0, 10**9))
def test_casino_family_legal_moves_equal_brute_force(case, seed):
    name, options = case
    _compare(random_position(random.Random(seed), name, options))


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(SWAZI_FAMILY), seed=st.integers(0, 10**9))
def test_swazi_family_legal_moves_equal_brute_force(case, seed):
    name, options = case
    rnd = random_swazi_position(random.Random(seed), name, options)
    moves = rnd.legal_moves()
    assert len(moves) == len(set(moves)), "each legal move once"
    expected = swazi_reference(rnd)
    got = set(moves)
    assert got == expected, (
        f"\nposition: {rnd.to_dict()}\nextra: {sorted(map(str, got - expected))}"
        f"\nmissing: {sorted(map(str, expected - got))}"
    )


def _candidates(rnd, rng, count):
    """Moves made up at random from the position's items (mostly illegal ones)."""
    items = list(rnd.table) + [c for pile in rnd.piles for c in pile[-4:]]
    hand = rnd.hands[rnd.to_move]
    for _ in range(count):
        card = rng.choice(hand)
        chosen = rng.sample(items, rng.randint(0, min(4, len(items))))
        kind = rng.choice(("trail", "capture", "build", "extra"))
        value = rng.randint(1, 16)
        if kind == "capture" and chosen:
            yield Move(card, chosen)
        elif kind == "build" and chosen:
            yield Move.build(card, chosen, value)
        elif kind == "extra" and chosen:
            yield Move(card, table_builds=[(value, chosen)])
        else:
            yield Move(card)


def _agrees(rnd, expected, rng):
    for move in [*expected, *_candidates(rnd, rng, 40)]:
        rnd._context = None  # check each move on its own, without the list of moves
        assert rnd.is_legal(move) == (move in expected), (str(move), rnd.to_dict())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASINO_FAMILY), seed=st.integers(0, 10**9))
def test_casino_family_checks_moves_as_the_generator_lists_them(case, seed):
    rng = random.Random(seed)
    rnd = random_position(rng, *case)
    _agrees(rnd, reference_moves(rnd), rng)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(SWAZI_FAMILY), seed=st.integers(0, 10**9))
def test_swazi_family_checks_moves_as_the_generator_lists_them(case, seed):
    rng = random.Random(seed)
    rnd = random_swazi_position(rng, *case)
    _agrees(rnd, swazi_reference(rnd), rng)
