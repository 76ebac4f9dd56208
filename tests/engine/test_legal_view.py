"""The lazy view of the legal moves (``Round.moves``) equals the full listing.

On the positions the brute-force references cover (small random positions of every
building variant, reachable positions of whole rounds), on the busy 16-item tables and on
Nordic tables big enough for the captures to be counted from rank vectors: the same moves
in the same order, the same count, the same answers per card and per kind, and the
menus' data (the first menu's kinds, the take menu's best 25) as the old full ranking.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Move, Round, rules_for
from bot.engine.cards import full_deck
from bot.engine.legal import KINDS, LegalMoves, of_kind
from bot.turns import best_moves, matching, moves_of
from tests.engine.busy import busy_positions, moves_by_card
from tests.engine.positions import (
    CASINO_FAMILY,
    SWAZI_FAMILY,
    played_position,
    random_position,
    random_swazi_position,
)

SOME = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def same_as_listing(rnd: Round, order: bool = True) -> None:
    """Every question the view answers, asked on a fresh copy (nothing listed yet), equals
    the answer read from ``legal_moves()``."""
    moves = rnd.copy().legal_moves()
    hand = list(dict.fromkeys(rnd.hands[rnd.to_move])) if not rnd.is_over else []
    fresh = rnd.copy()
    view = fresh.moves
    answers = {(card, kind): view.of(card).has(kind) for card in hand for kind in (None, *KINDS)}
    assert view.any() == bool(moves)
    for card in hand:
        mine = [m for m in moves if m.card == card]
        for kind in (None, *KINDS):
            expected = any(of_kind(m, kind) for m in mine)
            assert answers[card, kind] == expected, (card, kind, rnd.to_dict())
            assert list(fresh.moves.of(card).moves(kind)) == [m for m in mine if of_kind(m, kind)]
        assert fresh.moves.of(card).count() == len(mine)
    assert view.count() == len(moves)
    listed = list(view)
    assert listed == moves if order else set(listed) == set(moves)
    for index in sorted({0, len(moves) // 2, len(moves) - 1}):
        if moves:
            assert rnd.copy().moves.pick(index) == moves[index]
    if len(moves) <= 400:  # every move picked by number (a plain position counts masks)
        picker = rnd.copy().moves
        assert [picker.pick(index) for index in range(len(moves))] == moves
    with pytest.raises(IndexError):
        view.pick(len(moves))
    for move in moves[:: max(1, len(moves) // 20)]:
        assert move in rnd.copy().moves


@SOME
@given(case=st.sampled_from(CASINO_FAMILY), seed=st.integers(0, 10**9))
def test_casino_family_view_equals_listing(case, seed):
    name, options = case
    same_as_listing(random_position(random.Random(seed), name, options))


@SOME
@given(case=st.sampled_from(SWAZI_FAMILY), seed=st.integers(0, 10**9))
def test_swazi_family_view_equals_listing(case, seed):
    name, options = case
    same_as_listing(random_swazi_position(random.Random(seed), name, options))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(CASINO_FAMILY + SWAZI_FAMILY),
    players=st.sampled_from((2, 2, 3, 4)),
    steps=st.integers(0, 30),
    seed=st.integers(0, 10**9),
)
def test_reachable_positions_view_equals_listing(case, players, steps, seed):
    name, options = case
    rules = rules_for(name, **options)
    if players not in rules.player_counts or (players == 4 and rules.four_in_teams):
        players = 2
    if options.get("crazy"):
        players = 2
    same_as_listing(played_position(random.Random(seed), name, options, players, False, steps))


@pytest.mark.parametrize("name", list(busy_positions()))
def test_busy_tables_view_equals_listing(name):
    same_as_listing(busy_positions()[name])


def test_issue_example_counts_its_moves():
    rnd = busy_positions()["swazi: issue 23"]
    assert rnd.moves.count() == 24_224


@pytest.mark.parametrize("size", [5, 12, 13, 16])
@pytest.mark.parametrize("variant", ["swedish", "mulle", "finnish"])
def test_nordic_view_equals_listing(variant, size):
    rules = rules_for(variant)
    rng = random.Random(size)
    for _ in range(6):
        deck = full_deck(rules.decks)
        rng.shuffle(deck)
        low = [c for c in deck if c.rank <= 6][:size]
        rest = [c for c in deck if c not in low]
        rnd = Round.from_position(rules, [rest[:4], rest[4:8]], low)
        same_as_listing(rnd)


def test_nordic_view_counts_a_million_captures_without_listing_them():
    """28 low cards: over a million captures; counted, and the last one picked, from the
    rank vectors (listing them all would take seconds)."""
    from tests.engine.worst import low_table

    rnd = low_table("swedish", 2)
    view = rnd.moves
    card = rnd.hands[rnd.to_move][0]
    count = view.of(card).count()
    assert count > 1_000_000
    last = view.pick(count - 1)
    assert last.card == card and rnd.is_legal(last)
    first = next(iter(view.of(card).moves("capture")))
    assert rnd.is_legal(first)


def test_view_follows_the_round():
    rnd = busy_positions()["casino"]
    view = rnd.moves
    before = view.count()
    move = rnd.legal_moves()[0]
    rnd.play(move)
    assert view.count() == len(rnd.legal_moves()) != before or not rnd.is_over
    assert LegalMoves(rnd).cards() == list(dict.fromkeys(rnd.hands[rnd.to_move]))


def test_a_card_not_in_hand_has_no_moves():
    rnd = busy_positions()["swazi"]
    stranger = next(c for c in rnd.rules.deck() if c not in rnd.hands[0])
    assert not rnd.moves.of(stranger)
    assert list(rnd.moves.of(stranger)) == []
    assert rnd.moves.of(stranger).count() == 0
    with pytest.raises(ValueError):
        rnd.moves.of(rnd.hands[0][0]).has("sweep")


def check_menus(rnd: Round) -> None:
    # the full ranking of every card (the take menu before the lazy view), computed once:
    # it is the reference, and the slow part
    full = moves_by_card(rnd.copy())
    for card in dict.fromkeys(rnd.hands[rnd.to_move]):
        everything = full.get(card, [])
        ranked = [m for m in everything if m != Move(card)]  # the plain trail out
        assert best_moves(rnd.copy(), card, 25, plain=False) == ranked[:25]
        assert best_moves(rnd.copy(), card, 7) == moves_of(rnd.copy(), card)[:7]
        assert moves_of(rnd.copy(), card) == everything
        for move in ranked[:3]:
            used = [*move.taken, *move.using, *(i for b in move.table_builds for i in b.using)]
            old = [m for m in everything if _same(m, used)]
            assert matching(rnd.copy(), card, used) == old


def _same(move: Move, used: list) -> bool:
    mine = [*move.taken, *move.using, *(i for b in move.table_builds for i in b.using)]
    return sorted(map(str, mine)) == sorted(map(str, used))


@pytest.mark.parametrize("name", list(busy_positions()))
def test_take_menus_on_busy_tables_equal_the_full_ranking(name):
    check_menus(busy_positions()[name])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASINO_FAMILY + SWAZI_FAMILY), seed=st.integers(0, 10**9))
def test_take_menus_equal_the_full_ranking(case, seed):
    name, options = case
    rng = random.Random(seed)
    if (name, options) in SWAZI_FAMILY:
        rnd = random_swazi_position(rng, name, options)
    else:
        rnd = random_position(rng, name, options, max_items=8)
    check_menus(rnd)


@pytest.mark.parametrize(
    "variant", ["swedish", "mulle", "casino", "royal", "mulle-glimne", "south-african", "swazi"]
)
def test_a_uniform_pick_by_number_plays_what_choice_plays(variant):
    """``pick(randrange(count()))`` is ``choice(legal_moves())``: the same number drawn,
    the same order, so a seeded random round plays the same moves either way."""
    import random as random_module

    rules = rules_for(variant)
    for seed in range(3):
        listed, lazy = Round.deal(rules, 2, seed=seed), Round.deal(rules, 2, seed=seed)
        rng_listed, rng_lazy = random_module.Random(seed), random_module.Random(seed)
        while not listed.is_over:
            move = rng_listed.choice(listed.legal_moves())
            view = lazy.moves
            picked = view.pick(rng_lazy.randrange(view.count()))
            assert picked == move
            listed.play(move)
            lazy.play(picked)
        assert lazy.score() == listed.score()
