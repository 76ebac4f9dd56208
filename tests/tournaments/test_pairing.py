"""The entry point: each format through ``next_round`` from round 1 to the final order."""

from __future__ import annotations

import random

import pytest

from bot.models import GameOptions
from bot.tournaments.model import Entrant, Format, Result, Settings
from bot.tournaments.pairing import (
    current_standings,
    final_standings,
    next_round,
    places,
    total_rounds,
)
from bot.tournaments.points import sides_at
from tests.tournaments.helpers import play


def run(settings: Settings, players: int, seed: int) -> tuple[list[Entrant], list[Result]]:
    rng = random.Random(seed)
    people = [Entrant(i, f"p{i}", rating=rng.uniform(0, 30)) for i in range(1, players + 1)]
    results: list[Result] = []
    lowest = settings.game.variant == "krypkasino"
    for round in range(1, total_rounds(settings, players) + 1):
        pairing = next_round(settings, people, results, round, seed="night")
        assert pairing.round == round
        assert all(t.round == round for t in pairing.tables)
        seated = sorted(p for t in pairing.tables for p in t.people)
        if settings.format is not Format.KNOCKOUT:
            assert seated == [e.user_id for e in people]
        for table in pairing.tables:
            sides = sides_at(settings.game, len(table.players))
            results.append(play(table, rng, sides=sides, lowest_wins=lowest))
    return people, results


@pytest.mark.parametrize("seed", range(3))
def test_a_16_player_swiss_of_swedish_kasino(seed) -> None:
    settings = Settings(GameOptions(), Format.SWISS)
    assert total_rounds(settings, 16) == 4
    people, results = run(settings, 16, seed)
    assert len(results) == 4 * 8
    pairs = [frozenset(r.table.players) for r in results]
    assert len(set(pairs)) == len(pairs), "no rematch in 4 rounds of 16"
    final = final_standings(settings, people, results, seed="night")
    assert final == current_standings(settings, people, results, seed="night")
    assert [p for _, p in places(settings, people, results, seed="night")] == list(range(1, 17))


def test_a_6_player_krypkasino_round_robin() -> None:
    settings = Settings(GameOptions("krypkasino", target=50), Format.ROUND_ROBIN, cap=16)
    assert total_rounds(settings, 6) == 5
    people, results = run(settings, 6, 1)
    met = {frozenset(r.table.players) for r in results}
    assert len(met) == 15
    assert [s.rank for s in final_standings(settings, people, results, seed="night")] == [
        1, 2, 3, 4, 5, 6
    ]  # fmt: skip


def test_a_knockout_of_5() -> None:
    settings = Settings(GameOptions(), Format.KNOCKOUT)
    assert total_rounds(settings, 5) == 3
    people, results = run(settings, 5, 2)
    final = final_standings(settings, people, results, seed="night")
    champion = next(r for r in results if r.table.round == 3)
    assert final[0].user_id == champion.table.players[champion.places.index(0)]


def test_a_swiss_at_four_player_tables_of_casino_plays_partnerships() -> None:
    settings = Settings(GameOptions("casino"), Format.SWISS, table_size=4, rounds=3)
    people, results = run(settings, 11, 4)
    sizes = sorted(len(r.table.players) for r in results if r.table.round == 1)
    assert sizes == [3, 4, 4]
    for result in results:
        if len(result.table.players) == 4:  # partners (seats 0+2, 1+3) share their place
            assert result.places[0] == result.places[2] and result.places[1] == result.places[3]
    lines = current_standings(settings, people, results, seed="night")
    assert all(s.match_points in (0, 0.5, 1, 1.5, 2, 2.5, 3) for s in lines)


def test_swiss_rounds_follow_the_setting() -> None:
    assert total_rounds(Settings(GameOptions(), rounds=7), 4) == 7
    assert total_rounds(Settings(GameOptions()), 64) == 6
