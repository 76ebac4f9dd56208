"""Knockout: the bracket order, byes to the top seeds, winners advancing, the places."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.models import GameOptions
from bot.tournaments.decide import bye_result
from bot.tournaments.knockout import (
    bracket_order,
    knockout_places,
    knockout_round,
    knockout_rounds,
    seeds,
)
from bot.tournaments.model import Decided, Entrant, Format, Result, Settings, Table
from bot.tournaments.pairing import places

CASES = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_bracket_order() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (16, 32, 64, 128):
        order = bracket_order(size)
        assert sorted(order) == list(range(1, size + 1))
        # the two halves hold 1 and 2; the quarters 1, 2, 3, 4 one each
        assert 1 in order[: size // 2] and 2 in order[size // 2 :]
        quarters = [order[i : i + size // 4] for i in range(0, size, size // 4)]
        assert sorted(min(q) for q in quarters) == [1, 2, 3, 4]
        # every first-round pair adds up to size + 1
        assert {a + b for a, b in zip(order[::2], order[1::2], strict=True)} == {size + 1}


def decide(table: Table, winner: int) -> Result:
    places = tuple(0 if p == winner else 1 for p in table.players)
    return Result(table, places, tuple(16 if p == winner else 5 for p in table.players))


def run(people: list[Entrant], choose) -> list[Result]:
    """Play the whole knockout, ``choose(table)`` naming each table's winner."""
    results: list[Result] = []
    for round in range(1, knockout_rounds(len(people)) + 1):
        pairing = knockout_round(people, results, round, seed="ko")
        for table in pairing.tables:
            results.append(bye_result(table) if table.bye else decide(table, choose(table)))
    return results


@CASES
@given(players=st.integers(2, 40), seed=st.integers(0, 10**6))
def test_the_favourites_meet_in_the_final(players, seed) -> None:
    rng = random.Random(seed)
    people = [Entrant(i, f"p{i}", rating=rng.uniform(0, 40)) for i in range(1, players + 1)]
    rank = {e.user_id: i for i, e in enumerate(seeds(people, seed="ko"))}
    results = run(people, lambda table: min(table.players, key=rank.__getitem__))
    top_two = {seeds(people, seed="ko")[0].user_id, seeds(people, seed="ko")[1].user_id}
    final = knockout_rounds(players)
    meetings = [r.table for r in results if set(r.table.players) == top_two]
    assert [t.round for t in meetings] == [final]
    # byes: round 1 only, to the top seeds, as many as the bracket has empty places
    byes = [r.table for r in results if r.table.bye]
    empty = (1 << final) - players
    assert all(t.round == 1 for t in byes)
    assert sorted(rank[t.players[0]] for t in byes) == list(range(empty))


@CASES
@given(players=st.integers(2, 40), seed=st.integers(0, 10**6))
def test_winners_advance_and_the_places_follow_the_rounds(players, seed) -> None:
    rng = random.Random(seed)
    people = [Entrant(i, f"p{i}", rating=rng.uniform(0, 40)) for i in range(1, players + 1)]
    results = run(people, lambda table: rng.choice(table.players))
    final = knockout_rounds(players)
    for round in range(2, final + 1):
        before = {p for r in results if r.table.round == round - 1 for p in r.table.players
                  if r.places[r.table.players.index(p)] == 0}  # fmt: skip
        now = [p for r in results if r.table.round == round for p in r.table.players]
        assert sorted(now) == sorted(before)
    champion = next(r for r in results if r.table.round == final and not r.table.bye)
    winner = champion.table.players[champion.places.index(0)]
    finalist = next(p for p in champion.table.players if p != winner)
    settings_ = Settings(GameOptions(), Format.KNOCKOUT)
    shared = places(settings_, people, results, seed="ko")
    assert shared[0] == (winner, 1) and shared[1] == (finalist, 2)
    if players >= 4:
        semi = [p for r in results if r.table.round == final - 1 and not r.table.bye
                for p in r.table.players if p not in (winner, finalist)]  # fmt: skip
        assert sorted(p for p, place in shared if place == 3) == sorted(semi)
    lines = knockout_places(people, results, seed="ko", lowest_wins=False)
    assert [s.rank for s in lines] == list(range(1, players + 1))
    assert [s.user_id for s in lines] == [p for p, _ in shared]


def test_a_dropped_player_gives_a_bye() -> None:
    people = [Entrant(i, f"p{i}", rating=10.0 - i) for i in range(1, 5)]
    results = [decide(t, t.players[0]) for t in knockout_round(people, [], 1, seed="k").tables]
    people[0] = Entrant(1, "p1", 9.0, dropped=1)
    final = knockout_round(people, results, 2, seed="k")
    assert [t.players for t in final.tables] == [(2,)]


def test_a_stopped_final_is_decided_by_the_draw_in_a_knockout() -> None:
    """An equal score in a knockout: the result names one winner (decide's strict)."""
    from bot.tournaments.decide import result_of

    table = Table(1, 1, (1, 2))
    result = result_of(
        table, [1, 2], lambda s: s, [7, 7], lowest_wins=False, winner=None,
        decided=Decided.SCORE, game_id=3, strict=True, seed="k",
    )  # fmt: skip
    assert sorted(result.places) == [0, 1]


@pytest.mark.parametrize(
    ("players", "rounds"), [(1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (64, 6), (65, 7)]
)
def test_knockout_rounds(players, rounds) -> None:
    assert knockout_rounds(players) == rounds
