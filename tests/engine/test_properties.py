"""Invariants of the engine, checked on random games with hypothesis."""

import copy
import json
import random
from collections import Counter
from itertools import combinations

from hypothesis import HealthCheck, example, given, settings
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
# a 22-card table on which the default steps run out before a largest capture is found
@example("swedish", 110963, 22, 1)
def test_capture_options_are_legal_maximal_and_limited(name, seed, size, limit):
    rules = rules_for(name)
    cards = random.Random(seed).sample(full_deck(rules.decks), size + 1)
    played, table = cards[0], cards[1:]
    full = capture_options(rules, played, table)
    maximal = {tuple(sorted(f)) for f in full}
    # with the steps it needs, a limited search gives maximal captures, a largest among them
    options = capture_options(rules, played, table, limit=limit, effort=10**9)
    assert len(options) <= limit
    assert all(tuple(sorted(option)) in maximal for option in options)
    assert max(map(len, options), default=0) == max(map(len, full), default=0)
    # with the default steps (which only a table of over 20 cards can use up), legal
    # captures still, one at least wherever there is one (capture_options' docstring)
    bounded = capture_options(rules, played, table, limit=limit)
    assert len(bounded) <= limit and bool(bounded) == bool(full)
    for option in bounded:
        assert is_capture(rules, played, option)
        assert not Counter(option) - Counter(table)
    if size <= 20:
        assert bounded == options


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


def round_trip(data: dict) -> dict:
    return json.loads(json.dumps(data))


@settings(max_examples=16, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6))
def test_matches_round_trip_at_every_move(setup, seed):
    """Every state real play reaches is accepted, equal, and plays on identically."""
    name, players, teams = setup
    live = {"live": True} if seed % 3 == 0 else {}  # counting as you go, in every variant
    rules = rules_for(name, teams=teams, target=5, **live)
    match = Match.start(rules, players, seed=seed, dealer=seed % players)
    rng = random.Random(seed)
    while not match.is_over:
        saved = match.to_dict()
        copy = Match.from_dict(round_trip(saved))
        assert copy.to_dict() == saved
        assert Round.from_dict(round_trip(saved["round"])).to_dict() == saved["round"]
        move = rng.choice(match.round.legal_moves(limit=3))
        match.play(move)
        copy.play(move)
        assert copy.to_dict() == match.to_dict()
    assert Match.from_dict(round_trip(match.to_dict())).to_dict() == match.to_dict()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=5,
)
CARD_LISTS = ("hands", "table", "deck", "piles", "leftovers")


def paths(data: object, path: tuple = ()) -> list[tuple]:
    """Every place in a nested saved form, as a path of keys and indexes."""
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found.extend(paths(value, (*path, key)))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found.extend(paths(value, (*path, index)))
    return found


def at(data: object, path: tuple) -> object:
    for key in path:
        data = data[key]
    return data


def card_lists(saved: dict, prefix: tuple) -> list[tuple]:
    """Paths of the lists of card names in a saved round."""
    found = []
    for key in CARD_LISTS:
        value = saved[key]
        if key in ("hands", "piles"):
            found.extend((*prefix, key, i) for i in range(len(value)))
        else:
            found.append((*prefix, key))
    return found


def mutate(data: dict, draw, round_path: tuple) -> None:
    """Change one thing in a saved form, the way damage or a careless edit might."""
    kind = draw(st.sampled_from(["replace", "nudge", "drop key", "list", "move card", "flip"]))
    places = paths(data)[1:]
    if kind == "move card":
        lists = card_lists(at(data, round_path), round_path)
        source = draw(st.sampled_from([p for p in lists if at(data, p)]))
        target = draw(st.sampled_from(lists))
        cards = at(data, source)
        at(data, target).append(cards.pop(draw(st.integers(0, len(cards) - 1))))
        return
    if kind == "nudge":
        numbers = [p for p in places if type(at(data, p)) is int]
        path = draw(st.sampled_from(numbers))
        at(data, path[:-1])[path[-1]] += draw(st.sampled_from([-2, -1, 1, 2, 10**30]))
        return
    if kind == "flip":
        flags = [p for p in places if type(at(data, p)) is bool]
        path = draw(st.sampled_from(flags))
        at(data, path[:-1])[path[-1]] = not at(data, path)
        return
    if kind == "drop key":
        path = draw(st.sampled_from([p for p in places if isinstance(at(data, p[:-1]), dict)]))
        del at(data, path[:-1])[path[-1]]
        return
    if kind == "list":
        lists = [p for p in places if isinstance(at(data, p), list) and at(data, p)]
        items = at(data, draw(st.sampled_from(lists)))
        index = draw(st.integers(0, len(items) - 1))
        change = draw(st.sampled_from(["pop", "double", "swap", "card"]))
        if change == "pop":
            items.pop(index)
        elif change == "double":
            items.append(copy.deepcopy(items[index]))
        elif change == "swap":
            items[0], items[index] = items[index], items[0]
        else:
            items.append(draw(st.sampled_from(["AS", "10D", "KH", "2C"])))
        return
    path = draw(st.sampled_from(places))
    at(data, path[:-1])[path[-1]] = draw(JSON)


def check_sound(round_: Round) -> None:
    """What every accepted round must be: whole, consistent, and playable on."""
    assert all_cards(round_) == Counter(full_deck(round_.rules.decks))
    assert Round.from_dict(round_trip(round_.to_dict())).to_dict() == round_.to_dict()
    if round_.is_over:
        round_.score()
    else:
        assert round_.hands[round_.to_move]


def saved_state(setup, seed: int, steps: int) -> Match:
    name, players, teams = setup
    match = Match.start(rules_for(name, teams=teams, target=10), players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if match.is_over:
            break
        match.play(rng.choice(match.round.legal_moves(limit=3)))
    return match


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=st.sampled_from(SETUPS),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 80),
    data=st.data(),
)
def test_damaged_saved_games_are_refused_or_sound(setup, seed, steps, data):
    """Any one change to a real saved game: ValueError, or a game that is whole and plays on."""
    match = saved_state(setup, seed, steps)
    saved = round_trip(match.to_dict())
    whole_match = data.draw(st.booleans())
    form = saved if whole_match else saved["round"]
    mutate(form, data.draw, ("round",) if whole_match else ())
    try:
        loaded = Match.from_dict(form) if whole_match else Round.from_dict(form)
    except ValueError:
        return
    round_ = loaded.round if whole_match else loaded
    check_sound(round_)
    rng = random.Random(seed)
    for _ in range(120):
        if loaded.is_over:
            break
        moves = round_.legal_moves(limit=3)
        assert moves
        loaded.play(rng.choice(moves))
        round_ = loaded.round if whole_match else loaded
        check_sound(round_)
    if whole_match:
        assert Match.from_dict(round_trip(loaded.to_dict())).to_dict() == loaded.to_dict()
