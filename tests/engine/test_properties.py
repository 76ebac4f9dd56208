"""Invariants of the engine, checked on random games with hypothesis."""

import json
import random
from collections import Counter
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    Card,
    Match,
    Round,
    all_captures,
    capture_options,
    is_capture,
    rules_for,
)
from bot.engine.cards import full_deck

VARIANTS = ["swedish", "overspader", "finnish", "mulle"]
SETUPS = [(v, n, False) for v in VARIANTS for n in (2, 3, 4)] + [(v, 4, True) for v in VARIANTS]
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play_randomly(round_: Round, rng: random.Random, steps: int | None = None) -> None:
    """Play uniformly random legal moves until the round ends (or ``steps`` moves)."""
    while not round_.is_over and steps != 0:
        round_.play(rng.choice(round_.legal_moves()))
        steps = None if steps is None else steps - 1


def all_cards(round_: Round) -> Counter:
    everything = Counter(round_.table) + Counter(round_.deck)
    for cards in (*round_.hands, *round_.piles):
        everything.update(cards)
    return everything


@FAST
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6))
def test_cards_are_conserved_through_whole_rounds(setup, seed):
    name, players, teams = setup
    rules = rules_for(name, teams=teams)
    round_ = Round.deal(rules, players, dealer=seed % players, seed=seed)
    deck = Counter(full_deck(rules.decks))
    rng = random.Random(seed)
    while not round_.is_over:
        assert all_cards(round_) == deck
        round_.play(rng.choice(round_.legal_moves()))
    assert all_cards(round_) == deck
    assert not round_.table and not any(round_.hands) and not round_.deck


@FAST
@given(players=st.integers(2, 4), teams=st.booleans(), seed=st.integers(0, 10**6))
def test_swedish_rounds_give_eleven_points_plus_tabbar(players, teams, seed):
    teams = teams and players == 4
    round_ = Round.deal(rules_for("swedish", teams=teams), players, seed=seed)
    play_randomly(round_, random.Random(seed))
    scores = round_.score()
    tabbar = sum(s["tabbe"] for s in scores)
    cards = [len(p) for p in round_.side_piles()]
    cards_tied = cards.count(max(cards)) > 1
    spades = round_.spades_taken()
    spades_tied = spades.count(max(spades)) > 1
    expected = 11 - cards_tied - 2 * spades_tied + tabbar
    assert sum(s.total for s in scores) == expected


@FAST
@given(name=st.sampled_from(VARIANTS), players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_every_variant_awards_its_fixed_points_each_round(name, players, seed):
    """Aces, storan, lillan, sistan and most cards add up to the same each round."""
    rules = rules_for(name)
    round_ = Round.deal(rules, players, seed=seed)
    play_randomly(round_, random.Random(seed))
    scores = round_.score()
    cards = [len(p) for p in round_.side_piles()]
    cards_awarded = cards.count(max(cards)) == 1
    fixed = {"swedish": 9, "overspader": 9, "finnish": 8, "mulle": 15}[name]
    fixed -= 0 if cards_awarded else rules.cards_points
    keys = ("aces", "storan", "lillan", "sistan", "cards")
    assert sum(s[k] for s in scores for k in keys) == fixed


def brute_force(rules, played, table):
    """Reference: every legal capture by trying every subset, as multisets."""
    legal = set()
    for size in range(1, len(table) + 1):
        for chosen in combinations(table, size):
            if is_capture(rules, played, chosen):
                legal.add(tuple(sorted(chosen)))
    return legal


def maximal(captures):
    counters = {c: Counter(c) for c in captures}
    return {
        c for c in captures if not any(o != c and not counters[c] - counters[o] for o in captures)
    }


small_tables = st.tuples(
    st.sampled_from(VARIANTS),
    st.integers(0, 10**9),
    st.integers(0, 9),
)


@settings(max_examples=300, deadline=None)
@given(small_tables)
def test_capture_options_equals_brute_force_on_small_tables(case):
    name, seed, size = case
    rules = rules_for(name)
    cards = random.Random(seed).sample(full_deck(rules.decks), size + 1)
    played, table = cards[0], cards[1:]
    legal = brute_force(rules, played, table)
    options = [tuple(sorted(o)) for o in capture_options(rules, played, table)]
    assert len(options) == len(set(options))
    assert set(options) == maximal(legal)
    everything = [tuple(sorted(c)) for c in all_captures(rules, played, table)]
    assert len(everything) == len(set(everything))
    assert set(everything) == legal


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 10**9), st.integers(10, 22), st.integers(1, 30))
def test_capture_options_are_legal_maximal_and_limited(name, seed, size, limit):
    rules = rules_for(name)
    cards = random.Random(seed).sample(full_deck(rules.decks), size + 1)
    played, table = cards[0], cards[1:]
    options = capture_options(rules, played, table, limit=limit)
    assert len(options) <= limit
    full = capture_options(rules, played, table)
    for option in options:
        assert is_capture(rules, played, option)
        assert not Counter(option) - Counter(table)
        assert tuple(sorted(option)) in {tuple(sorted(f)) for f in full}
    if full:
        assert max(map(len, options)) == max(map(len, full))
    else:
        assert options == []


@FAST
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6), steps=st.integers(0, 60))
def test_round_round_trips_mid_game(setup, seed, steps):
    name, players, teams = setup
    round_ = Round.deal(rules_for(name, teams=teams), players, seed=seed)
    rng = random.Random(seed)
    play_randomly(round_, rng, steps)
    copy = Round.from_dict(json.loads(json.dumps(round_.to_dict())))
    assert copy.to_dict() == round_.to_dict()
    rest = random.Random(seed + 1)
    twin = random.Random(seed + 1)
    while not round_.is_over:
        move = rest.choice(round_.legal_moves())
        assert twin.choice(copy.legal_moves()) == move
        round_.play(move)
        copy.play(move)
    assert [s.items for s in copy.score()] == [s.items for s in round_.score()]


@settings(max_examples=12, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6))
def test_random_matches_end_with_a_winner_per_the_rules(setup, seed):
    name, players, teams = setup
    rules = rules_for(name, teams=teams, target=max(5, rules_for(name).target // 3))
    match = Match.start(rules, players, seed=seed)
    rng = random.Random(seed)
    moves = 0
    while not match.is_over:
        match.play(rng.choice(match.round.legal_moves()))
        moves += 1
        if moves == 150:
            match = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    scores = match.scores
    assert scores[match.winner] >= rules.target
    assert scores[match.winner] == max(scores)
    assert sum(s == max(scores) for s in scores) == 1 or rules.tiebreak == "spades"


def test_identical_cards_are_one_value():
    assert Card(5, "H") is Card.parse("5h")
    assert len({Card(5, "H"), Card.parse("5♥")}) == 1
