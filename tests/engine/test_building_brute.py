"""``legal_moves()`` of every building game equals a brute-force generator (all subsets,
all declared values) on thousands of small random positions."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .positions import CASINO_FAMILY, SWAZI_FAMILY, random_position, random_swazi_position
from .reference import reference_moves, swazi_reference

MANY = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


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


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
