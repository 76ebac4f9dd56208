"""Swiss pairings: everyone seated once a round, no rematch while avoidable (checked
against a brute force on small fields), byes spread, tables of the documented sizes."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.models import GameOptions
from bot.tournaments.model import Entrant, Result
from bot.tournaments.points import sides_at
from bot.tournaments.search import seat
from bot.tournaments.settings import table_sizes
from bot.tournaments.standings import draw_key, standings
from bot.tournaments.swiss import (
    byes_had,
    default_rounds,
    layout,
    met_counts,
    seat_order,
    swiss_round,
)
from tests.tournaments.helpers import best_seating, entrants, play

CASES = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MANY = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# (variant, table size): 2-player tables, 3 at Swedish, partnerships at Casino, Glimne's
# Mulle (no 3-player table), and Krypkasino's bigger tables
SHAPES = [
    ("swedish", 2),
    ("swedish", 3),
    ("swedish", 4),
    ("casino", 4),
    ("mulle-glimne", 4),
    ("krypkasino", 5),
    ("krypkasino", 6),
]


def run_round(
    options: GameOptions,
    size: int,
    people: list[Entrant],
    results: list[Result],
    round: int,
    rng: random.Random,
    *,
    fillers: bool = False,
):
    """Pair a round, check what every round must hold, play it; the pairing."""
    sizes = table_sizes(options)
    pairing = swiss_round(
        people,
        results,
        round,
        table_size=size,
        sizes=sizes,
        seed="s",
        lowest_wins=options.variant == "krypkasino",
        fillers=fillers,
        options=options,
    )
    active = sorted(e.user_id for e in people if e.dropped is None or e.dropped >= round)
    seated = sorted(p for t in pairing.tables for p in t.people)
    assert seated == active, "every active player exactly once"
    assert [t.number for t in pairing.tables] == list(range(1, len(pairing.tables) + 1))
    plan = layout(len(active), size, sizes, fillers=fillers)
    games = [t for t in pairing.tables if not t.bye]
    assert sorted(len(t.players) for t in games) == sorted(
        t + (plan.fillers if i == len(plan.tables) - 1 else 0) for i, t in enumerate(plan.tables)
    )
    assert all(len(t.players) in sizes for t in games)
    assert sum(t.players.count(None) for t in pairing.tables) == plan.fillers
    assert sum(t.bye for t in pairing.tables) == plan.byes
    for table in pairing.tables:
        results.append(play(table, rng, sides=sides_at(options, len(table.players))))
    return pairing


def optimal(pairing, people, results_before, round, options, size, fillers) -> None:
    """The pairing is as good as a brute force over every seating: byes to the fewest byes
    had, then the fewest repeated meetings."""
    active = [e.user_id for e in people if e.dropped is None or e.dropped >= round]
    index = {p: i for i, p in enumerate(active)}
    counts = met_counts(results_before)
    met = [[counts.get(frozenset((a, b)), 0) if a != b else 0 for b in active] for a in active]
    byes = byes_had(results_before)
    had = [byes[p] for p in active]
    plan = layout(len(active), size, table_sizes(options), fillers=fillers)
    together = bool(plan.fillers)
    filler_table = [t for t in pairing.tables if None in t.players]
    byes = [t for t in pairing.tables if t.bye]
    aside = [index[p] for t in (filler_table if together else byes) for p in t.people]
    seated = [t for t in pairing.tables if not t.bye and None not in t.players]
    cost = sum(
        met[index[a]][index[b]]
        for t in pairing.tables
        if not t.bye and (together or None not in t.players)
        for i, a in enumerate(t.people)
        for b in t.people[i + 1 :]
    )
    profile = tuple(sorted(had[i] for i in aside))
    sizes_seated = sorted(len(t.players) for t in seated)
    expected = best_seating(met, had, sizes_seated, len(aside), together=together)
    assert (profile, cost) == expected


@MANY
@given(
    shape=st.sampled_from(SHAPES),
    players=st.integers(1, 10),
    rounds=st.integers(1, 5),
    fillers=st.booleans(),
    drop=st.integers(0, 3),
    seed=st.integers(0, 10**6),
)
def test_rounds_are_complete_and_optimal(shape, players, rounds, fillers, drop, seed) -> None:
    variant, size = shape
    options = GameOptions(variant, target=50 if variant == "krypkasino" else 16)
    rng = random.Random(seed)
    people = entrants(players, rng)
    results: list[Result] = []
    for round in range(1, rounds + 1):
        if drop and round == drop + 1 and people:
            gone = rng.randrange(len(people))
            people[gone] = Entrant(people[gone].user_id, "x", people[gone].rating, round - 1)
        before = list(results)
        pairing = run_round(options, size, people, results, round, rng, fillers=fillers)
        optimal(pairing, people, before, round, options, size, fillers)


@CASES
@given(players=st.integers(2, 9), seed=st.integers(0, 10**6))
def test_byes_spread(players, seed) -> None:
    """With 2-player tables nobody has a second bye while an active player has none."""
    rng = random.Random(seed)
    people = entrants(players, rng)
    results: list[Result] = []
    options = GameOptions()
    for round in range(1, players + 2):
        run_round(options, 2, people, results, round, rng)
        byes = Counter(p for r in results if r.table.bye for p in r.table.people)
        had = [byes[e.user_id] for e in people]
        assert max(had) - min(had) <= 1


@CASES
@given(shape=st.sampled_from(SHAPES), players=st.integers(2, 14), seed=st.integers(0, 10**6))
def test_round_one_is_rating_order_top_down(shape, players, seed) -> None:
    """Round 1: adjacent players by rating (the seeded draw breaks equal ratings), top
    tables first; byes to the lowest."""
    variant, size = shape
    options = GameOptions(variant, target=50 if variant == "krypkasino" else 16)
    people = entrants(players, random.Random(seed))
    pairing = swiss_round(
        people,
        [],
        1,
        table_size=size,
        sizes=table_sizes(options),
        seed="s",
        lowest_wins=False,
        options=options,
    )
    order = [e.user_id for e in sorted(people, key=lambda e: (-e.rating, draw_key("s", e.user_id)))]
    flat = [p for t in pairing.tables for p in sorted(t.people, key=order.index)]
    assert flat == order


def test_layout_rule() -> None:
    """As many seated as possible, then as few small tables; with fillers everyone is
    seated with as few computers as possible (then as few small tables)."""
    for variant in ("swedish", "mulle-glimne", "krypkasino"):
        sizes = table_sizes(GameOptions(variant, target=50 if variant == "krypkasino" else 16))
        for size in sorted(sizes):
            small = size - 1 if size - 1 in sizes else None
            for players in range(0, 40):
                plan = layout(players, size, sizes, fillers=False)
                options = [
                    (players - (a * size + b * (small or 0)), b)
                    for a in range(players + 1)
                    for b in range(players + 1 if small else 1)
                    if a * size + b * (small or 0) <= players
                ]
                assert (plan.byes, sum(t == small for t in plan.tables)) == min(options)
                assert sum(plan.tables) + plan.byes == players
                assert all(t in (size, small) for t in plan.tables)
                if players == 0:
                    continue
                full = layout(players, size, sizes, fillers=True)
                assert sum(full.tables) == players and full.byes == 0
                assert full.fillers == min(
                    a * size + b * (small or 0) - players
                    for a in range(players + 1)
                    for b in range(players + 1 if small else 1)
                    if a * size + b * (small or 0) >= players
                )


def test_default_rounds() -> None:
    assert [default_rounds(n) for n in (1, 2, 3, 4, 5, 8, 9, 16, 17, 64, 128)] == [
        1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7
    ]  # fmt: skip


def test_dropped_players_are_not_paired() -> None:
    people = entrants(6, random.Random(1))
    people[2] = Entrant(people[2].user_id, "gone", 0.0, dropped=1)
    results: list[Result] = []
    run_round(GameOptions(), 2, people, results, 1, random.Random(2))
    pairing = run_round(GameOptions(), 2, people, results, 2, random.Random(3))
    assert people[2].user_id not in [p for t in pairing.tables for p in t.people]
    assert sum(t.bye for t in pairing.tables) == 1


def test_fillers_replace_the_bye() -> None:
    people = entrants(5, random.Random(4))
    pairing = swiss_round(
        people, [], 1, table_size=2, sizes=frozenset({2, 3, 4}), seed="s",
        lowest_wins=False, fillers=True,
    )  # fmt: skip
    assert not any(t.bye for t in pairing.tables)
    assert [t.players.count(None) for t in pairing.tables] == [0, 0, 1]


def test_a_big_field_pairs_without_rematches() -> None:
    """128 players, 7 rounds: never a rematch (one exists easily)."""
    rng = random.Random(7)
    people = entrants(128, rng)
    results: list[Result] = []
    for round in range(1, 8):
        run_round(GameOptions(), 2, people, results, round, rng)
    assert max(met_counts(results).values()) == 1


def test_partners_are_dealt_in_a_snake() -> None:
    assert seat_order([1, 2, 3, 4], 2) == (1, 2, 4, 3)  # 1+4 against 2+3
    assert seat_order([1, 2, 3, 4, 5, 6], 2) == (1, 2, 4, 3, 5, 6)  # 1 4 5 v 2 3 6
    assert seat_order([1, 2, 3, 4, 5, 6], 3) == (1, 2, 3, 6, 5, 4)  # 1 6, 2 5, 3 4
    assert seat_order([1, 2, 3], 3) == (1, 2, 3)


@given(
    n=st.integers(2, 9),
    triples=st.booleans(),
    density=st.floats(0, 1),
    limit=st.integers(1, 60),
    seed=st.integers(0, 10**6),
)
@CASES
def test_the_bounded_search_always_seats_everyone(n, triples, density, limit, seed) -> None:
    """However small the search's limit, it returns a whole seating; with room enough it
    has the least repeated meetings (a brute force's)."""
    rng = random.Random(seed)
    met = [[0] * n for _ in range(n)]
    for a in range(n):
        for b in range(a + 1, n):
            met[a][b] = met[b][a] = rng.randint(1, 2) if rng.random() < density else 0
    if triples and n >= 3:
        sizes = [3] * (n // 3) + ([2] if n % 3 == 2 else [])
        if n % 3 == 1:
            sizes[-1] = 2
            sizes.append(2)
    else:
        sizes = [2] * (n // 2)
    aside = n - sum(sizes)
    asides = [(i,) for i in reversed(range(n))] if aside else [()]
    small = seat(met, sizes, asides, limit=limit)
    seated = sorted([*small.aside, *(p for t in small.tables for p in t)])
    assert seated == list(range(n))
    assert sorted(len(t) for t in small.tables) == sorted(sizes)
    assert small.cost == sum(
        met[a][b] for t in small.tables for i, a in enumerate(t) for b in t[i + 1 :]
    )
    full = seat(met, sizes, asides)
    assert full.cost == best_seating(met, [0] * n, sizes, aside, together=False)[1]
    assert small.cost >= full.cost


def test_standings_order_the_later_rounds() -> None:
    """From round 2 the players are ordered by the standings: the leaders meet."""
    people = entrants(8, random.Random(5), rated=False)
    results: list[Result] = []
    run_round(GameOptions(), 2, people, results, 1, random.Random(6))
    order = [s.user_id for s in standings(people, results, seed="s", lowest_wins=False)]
    pairing = swiss_round(
        people, results, 2, table_size=2, sizes=frozenset({2, 3, 4}), seed="s", lowest_wins=False
    )
    first = pairing.tables[0].people
    assert order[0] in first
    assert all(order.index(p) <= 2 for p in first)


@pytest.mark.parametrize("players", [3, 5, 7])
def test_odd_fields_rotate_the_bye_through_everyone(players) -> None:
    rng = random.Random(players)
    people = entrants(players, rng)
    results: list[Result] = []
    for round in range(1, players + 1):
        run_round(GameOptions(), 2, people, results, round, rng)
    assert Counter(p for r in results if r.table.bye for p in r.table.people) == Counter(
        e.user_id for e in people
    )
