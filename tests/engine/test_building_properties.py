"""Invariants of the building games on random rounds and matches (hypothesis).

Cards are conserved (52, 40 or 104), every round gives the points the rules say, no
reachable position is without a legal move (owners always hold a card for each value
they own, one card per value), saved rounds play on identically, matches end with a
winner, and legal moves of reachable positions equal the brute-force generator.
"""

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Build, Card, Match, Round, rules_for
from tests.engine.reference import can_hold, reference_moves

# (variant, options) and the player counts each is played with.
VARIANTS = [
    ("casino", {}),
    ("casino", {"permissive": True, "sweeps": True}),
    ("casino", {"last_capture_point": True}),
    ("royal", {}),
    ("royal", {"permissive": True}),
    ("mulle-glimne", {}),
    ("south-african", {}),
    ("swazi", {}),
    ("swazi", {"crazy": True}),
    ("swazi", {"redeal": True}),
    ("swazi", {"demands": True, "table_builds": 2}),
    ("sotho", {}),
    ("sotho", {"demands": True}),
]
SETUPS = [
    (name, options, players, teams)
    for name, options in VARIANTS
    for players, teams in ((2, False), (3, False), (4, False), (4, True))
    if players in rules_for(name).player_counts
    and not (players == 4 and rules_for(name).four_in_teams and not teams)
    and not (options.get("crazy") and players != 2)
]
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def everything(rnd: Round) -> Counter:
    total = Counter(rnd.deck)
    for item in rnd.table:
        total.update(item.cards if isinstance(item, Build) else [item])
    for cards in (*rnd.hands, *rnd.piles):
        total.update(cards)
    return total


def check_owners(rnd: Round) -> None:
    """Each seat holds its own card for every distinct value of the builds it owns."""
    for seat in range(rnd.players):
        owned = {b.value for b in rnd.table if isinstance(b, Build) and b.owner == seat}
        assert can_hold(rnd.rules, owned, rnd.hands[seat]), (seat, owned, rnd.to_dict())
    values = [b.value for b in rnd.table if isinstance(b, Build)]
    if rnd.rules.builds == "swazi":
        assert len(values) == len(set(values)), "never two builds of one value"


def play_round(rnd: Round, rng: random.Random, check=None) -> None:
    deck = Counter(rnd.rules.deck())
    while not rnd.is_over:
        assert everything(rnd) == deck
        check_owners(rnd)
        if check is not None:
            check(rnd)
        moves = rnd.legal_moves()
        assert moves, f"no legal move: {rnd.to_dict()}"
        rnd.play(rng.choice(moves))
    assert everything(rnd) == deck
    assert not rnd.table and not any(rnd.hands) and not rnd.deck


@FAST
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6))
def test_whole_rounds_conserve_cards_and_never_get_stuck(setup, seed):
    name, options, players, teams = setup
    rules = rules_for(name, teams=teams, **options)
    rnd = Round.deal(rules, players, dealer=seed % players, seed=seed)
    assert sum(everything(rnd).values()) == {52: 52, 40: 40, 104: 104}[rules.cards_in_deck]
    play_round(rnd, random.Random(seed))


def expected_points(rnd: Round) -> int:
    """The round's points from the rules text, counted from the piles."""
    rules = rnd.rules
    piles = rnd.side_piles()
    cards = [len(p) for p in piles]
    spades = [sum(c.suit == "S" for c in p) for p in piles]
    tied_cards = cards.count(max(cards))
    tied_spades = spades.count(max(spades))
    sweeps = sum(s["tabbe"] for s in rnd.score())
    mulle = sum(rnd.mulle_points)
    if rules.name in ("casino", "royal"):
        if rules.last_capture_point:
            most = 2 * (tied_cards == 1) + 1 * (rnd.last_capturer is not None)
        else:
            most = 3 * (tied_cards == 1)
        return 4 + 2 + 1 + most + (tied_spades == 1) + sweeps
    if rules.name == "mulle-glimne":
        return 2 * 3 + 2 * 2 + 8 * 2 + 2 * 11 + sweeps + mulle
    if rules.name in ("swazi", "sotho"):
        split_cards = 2 if tied_cards == 1 else tied_cards
        split_spades = 2 if tied_spades == 1 else tied_spades
        return 4 + 1 + 2 + split_cards + split_spades + sweeps
    assert rules.name == "south-african"
    split_cards = 2 if tied_cards == 1 else tied_cards
    return 4 + 1 + 2 + split_cards + sum(n > 5 for n in spades) + sweeps


@FAST
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6))
def test_points_per_round_as_the_rules_say(setup, seed):
    name, options, players, teams = setup
    rules = rules_for(name, teams=teams, **options)
    rnd = Round.deal(rules, players, seed=seed)
    play_round(rnd, random.Random(seed))
    assert sum(s.total for s in rnd.score()) == expected_points(rnd)


@FAST
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6), steps=st.integers(0, 80))
def test_saved_rounds_play_on_identically(setup, seed, steps):
    name, options, players, teams = setup
    rnd = Round.deal(rules_for(name, teams=teams, **options), players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if rnd.is_over:
            break
        rnd.play(rng.choice(rnd.legal_moves()))
    copy = Round.from_dict(json.loads(json.dumps(rnd.to_dict())))
    assert copy.to_dict() == rnd.to_dict()
    one, two = random.Random(seed + 1), random.Random(seed + 1)
    while not rnd.is_over:
        moves = rnd.legal_moves()
        assert copy.legal_moves() == moves
        move = one.choice(moves)
        assert two.choice(copy.legal_moves()) == move
        rnd.play(move)
        copy.play(move)
    assert [s.items for s in copy.score()] == [s.items for s in rnd.score()]


@settings(max_examples=25, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6))
def test_random_matches_end_with_a_winner(setup, seed):
    name, options, players, teams = setup
    base = rules_for(name, teams=teams, **options)
    rules = rules_for(name, teams=teams, target=max(5, base.target // 3), **options)
    match = Match.start(rules, players, seed=seed)
    rng = random.Random(seed)
    moves = 0
    while not match.is_over:
        match.play(rng.choice(match.round.legal_moves()))
        moves += 1
        if moves == 120:
            match = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    scores = match.scores
    assert scores[match.winner] >= rules.target
    assert scores[match.winner] == max(scores)


def _small(rnd: Round) -> bool:
    return len(rnd.table) + sum(1 for p in rnd.piles if p) <= 7 and len(rnd.hands[rnd.to_move]) <= 5


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=st.sampled_from([s for s in SETUPS if s[0] not in ("swazi", "sotho")]),
    seed=st.integers(0, 10**6),
)
def test_reachable_positions_equal_brute_force(setup, seed):
    name, options, players, teams = setup
    rnd = Round.deal(rules_for(name, teams=teams, **options), players, seed=seed)
    rng = random.Random(seed)
    while not rnd.is_over:
        if _small(rnd):
            assert set(rnd.legal_moves()) == reference_moves(rnd), rnd.to_dict()
        rnd.play(rng.choice(rnd.legal_moves()))


def test_every_card_is_a_card():
    assert all(isinstance(c, Card) for c in rules_for("south-african").deck())
