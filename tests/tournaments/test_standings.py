"""Match points and standings: the documented keys, checked against a plain reference."""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.models import GameOptions
from bot.tournaments.model import Decided, Entrant, Result, Table
from bot.tournaments.points import match_points, sides_at
from bot.tournaments.settings import table_sizes
from bot.tournaments.standings import draw_key, standings
from bot.tournaments.swiss import swiss_round
from tests.tournaments.helpers import entrants, exact_points, play

CASES = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_match_points_examples() -> None:
    two = Table(1, 1, (1, 2))
    assert match_points(Result(two, (0, 1), (16, 9))) == {1: 1.0, 2: 0.0}
    assert match_points(Result(two, (0, 0), (8, 8), Decided.SCORE)) == {1: 0.5, 2: 0.5}
    three = Table(1, 1, (1, 2, 3))
    assert match_points(Result(three, (0, 1, 2), (16, 9, 3))) == {1: 1.0, 2: 0.5, 3: 0.0}
    assert match_points(Result(three, (0, 1, 1), (16, 9, 9))) == {1: 1.0, 2: 0.25, 3: 0.25}
    four = Table(1, 1, (1, 2, 3, 4))
    # partners 1+3 against 2+4: the winning side's partners both have a win
    assert match_points(Result(four, (0, 1, 0, 1), (21, 12, 21, 12)), sides=2) == {
        1: 1.0, 2: 0.0, 3: 1.0, 4: 0.0
    }  # fmt: skip
    assert match_points(Result(Table(1, 3, (5,)), (0,), (0,), Decided.BYE)) == {5: 1.0}
    with_computer = Table(1, 1, (1, None))
    assert match_points(Result(with_computer, (1, 0), (3, 16))) == {1: 0.0}


@CASES
@given(sides=st.integers(2, 6), data=st.data())
def test_a_tables_match_points_add_up_to_half_its_sides(sides, data) -> None:
    places = data.draw(st.lists(st.integers(0, sides - 1), min_size=sides, max_size=sides))
    # places as a result has them: shared places, the count of sides ahead
    ranks = tuple(sum(q < p for q in places) for p in places)
    table = Table(1, 1, tuple(range(1, sides + 1)))
    points = match_points(Result(table, ranks, (0,) * sides))
    assert abs(sum(points.values()) - sides / 2) < 1e-9
    best = min(ranks)
    assert all(points[p] >= points[q] for p in points for q in points if ranks[p - 1] == best)


def reference(people, results, seed, lowest_wins, options):
    """The standings order written out plainly from the documented keys."""
    mp = defaultdict(Fraction)
    rounds = defaultdict(int)
    opponents = defaultdict(list)
    difference = defaultdict(Fraction)
    for result in results:
        table = result.table
        sides = sides_at(options, len(table.players))
        for person, value in exact_points(result, sides).items():
            mp[person] += value
            rounds[person] += 1
        if table.bye:
            continue
        score = {seat % sides: result.points[seat] for seat in range(len(table.players))}
        for seat, person in enumerate(table.players):
            if person is None:
                continue
            others = [s for s in score if s != seat % sides]
            diff = score[seat % sides] - Fraction(sum(score[s] for s in others), len(others))
            difference[person] += -diff if lowest_wins else diff
            opponents[person] += [
                p
                for other, p in enumerate(table.players)
                if p is not None and other % sides != seat % sides
            ]

    def share(p):
        return max(Fraction(1, 3), mp[p] / rounds[p]) if rounds[p] else Fraction(1, 3)

    def opp(p):
        met = opponents[p]
        return sum((share(o) for o in met), Fraction(0)) / len(met) if met else Fraction(0)

    keys = {
        e.user_id: (
            -mp[e.user_id],
            -opp(e.user_id),
            -difference[e.user_id],
            draw_key(seed, e.user_id),
        )
        for e in people
    }
    return sorted(keys, key=keys.__getitem__), mp, opp, difference


@CASES
@given(
    shape=st.sampled_from([("swedish", 2), ("swedish", 3), ("casino", 4), ("krypkasino", 6)]),
    players=st.integers(1, 12),
    rounds=st.integers(0, 4),
    seed=st.integers(0, 10**6),
)
def test_standings_follow_the_documented_keys(shape, players, rounds, seed) -> None:
    variant, size = shape
    options = GameOptions(variant, target=50 if variant == "krypkasino" else 16)
    lowest = variant == "krypkasino"
    rng = random.Random(seed)
    people = entrants(players, rng)
    results: list[Result] = []
    for round in range(1, rounds + 1):
        pairing = swiss_round(
            people, results, round, table_size=size, sizes=table_sizes(options),
            seed="t", lowest_wins=lowest, options=options,
        )  # fmt: skip
        for table in pairing.tables:
            sides = sides_at(options, len(table.players))
            results.append(play(table, rng, sides=sides, lowest_wins=lowest))
    lines = standings(people, results, seed="t", lowest_wins=lowest, options=options)
    order, mp, opp, difference = reference(people, results, "t", lowest, options)
    assert [s.user_id for s in lines] == order
    assert [s.rank for s in lines] == list(range(1, players + 1))
    for line in lines:
        assert line.match_points == float(mp[line.user_id])
        assert line.opponents == float(opp(line.user_id))
        assert line.difference == float(difference[line.user_id])
    keys = [(-s.match_points, -s.opponents, -s.difference) for s in lines]
    assert keys == sorted(keys)


def test_partners_share_and_are_no_opponents() -> None:
    options = GameOptions("casino")
    people = [Entrant(i, f"p{i}") for i in (1, 2, 3, 4)]
    table = Table(1, 1, (1, 2, 3, 4))
    result = Result(table, (0, 1, 0, 1), (21, 12, 21, 12))
    lines = {
        s.user_id: s
        for s in standings(people, [result], seed="x", lowest_wins=False, options=options)
    }
    assert lines[1].match_points == lines[3].match_points == 1.0
    assert lines[1].wins == lines[3].wins == 1
    assert lines[2].match_points == 0.0
    assert lines[1].difference == 9.0
    # 1's opponents are 2 and 4 (share floored at 1/3), not their partner 3
    assert lines[1].opponents == float(Fraction(1, 3))


def test_lowest_wins_reverses_the_difference() -> None:
    people = [Entrant(1, "a"), Entrant(2, "b")]
    result = Result(Table(1, 1, (1, 2)), (0, 1), (20, 55))
    lines = {s.user_id: s for s in standings(people, [result], seed="x", lowest_wins=True)}
    assert lines[1].difference == 35.0 and lines[2].difference == -35.0


def test_the_draw_is_fixed_by_the_seed() -> None:
    assert draw_key("abc", 5) == draw_key("abc", 5)
    assert draw_key("abc", 5) != draw_key("abd", 5)
    people = [Entrant(i, f"p{i}") for i in range(1, 9)]
    first = [s.user_id for s in standings(people, [], seed="one", lowest_wins=False)]
    assert first == sorted(range(1, 9), key=lambda p: draw_key("one", p))


def test_dropped_players_keep_their_line() -> None:
    people = [Entrant(1, "a", dropped=1), Entrant(2, "b")]
    result = Result(Table(1, 1, (1, 2)), (0, 1), (16, 3))
    lines = standings(people, [result], seed="x", lowest_wins=False)
    assert [(s.user_id, s.dropped) for s in lines] == [(1, True), (2, False)]
