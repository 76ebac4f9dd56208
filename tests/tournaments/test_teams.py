"""Team play at tournament tables: every table is full (the table size, partners at
alternate seats), the leftovers get byes or computer fillers, partners share their side's
result, and partners come from the standings as 1st+4th against 2nd+3rd."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.i18n import lang, languages
from bot.models import GameOptions
from bot.tournaments.model import Format, Result, Settings
from bot.tournaments.pairing import next_round
from bot.tournaments.points import side_of_seat, sides_at
from bot.tournaments.settings import settings_problem, table_sizes
from bot.tournaments.standings import records
from bot.tournaments.swiss import ranked
from tests.tournaments.helpers import entrants, play

CASES = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SWEDISH_TEAMS = GameOptions(teams=True)
KRYP_TEAMS = GameOptions("krypkasino", target=50, teams=True)
KRYP_THREES = GameOptions("krypkasino", target=50, teams=True, team_size=3)
# (options, table size, sides at a table)
SHAPES = [
    (SWEDISH_TEAMS, 4, 2),
    (GameOptions("casino", teams=True), 4, 2),
    (KRYP_TEAMS, 4, 2),
    (KRYP_TEAMS, 6, 3),
    (KRYP_THREES, 6, 2),
]


def partners(players: tuple[int | None, ...], sides: int) -> list[list[int | None]]:
    """The sides of a table, each a list of its seats' players."""
    return [[p for seat, p in enumerate(players) if seat % sides == side] for side in range(sides)]


@CASES
@given(
    shape=st.sampled_from(SHAPES),
    players=st.integers(2, 15),
    rounds=st.integers(1, 4),
    fillers=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_team_tables_are_full_and_partners_share(shape, players, rounds, fillers, seed) -> None:
    options, size, sides = shape
    rng = random.Random(seed)
    people = entrants(players, rng)
    tour = Settings(options, table_size=size, fillers=fillers)
    lowest = options.variant == "krypkasino"
    results: list[Result] = []
    for round in range(1, rounds + 1):
        pairing = next_round(tour, people, results, round, seed="s")
        seated = sorted(p for t in pairing.tables for p in t.people)
        assert seated == [e.user_id for e in people], "everyone exactly once"
        games = [t for t in pairing.tables if not t.bye]
        assert all(len(t.players) == size for t in games), "a team table is full"
        assert all(sides_at(options, len(t.players)) == sides for t in games)
        if fillers:
            assert not any(t.bye for t in pairing.tables), "computers complete a table"
            assert sum(None in t.players for t in games) <= 1
        else:
            assert sum(t.bye for t in pairing.tables) == players % size
        for table in pairing.tables:
            result = play(table, rng, sides=sides_at(options, len(table.players)),
                          lowest_wins=lowest)  # fmt: skip
            results.append(result)
            if table.bye:
                continue
            # partners share the side's place, match points, win and points difference
            mine = records([result], lowest_wins=lowest, options=options)
            for index, side in enumerate(partners(table.players, sides)):
                shared = {
                    (mine[p].match_points, mine[p].wins, mine[p].difference)
                    for p in side
                    if p is not None
                }
                assert len(shared) <= 1
                places = {result.places[s] for s in range(size) if side_of_seat(s, sides) == index}
                assert len(places) == 1


def test_partners_come_from_adjacent_standings() -> None:
    """At a table of four adjacent players in the standings, 1st+4th play 2nd+3rd."""
    rng = random.Random(7)
    people = entrants(8, rng)
    tour = Settings(SWEDISH_TEAMS, table_size=4)
    results = [play(t, rng, sides=2) for t in next_round(tour, people, [], 1, seed="s").tables]
    order = ranked(people, results, 2, seed="s", lowest_wins=False, options=SWEDISH_TEAMS)
    for table in next_round(tour, people, results, 2, seed="s").tables:
        by_rank = sorted(table.people, key=order.index)
        first, second, third, fourth = by_rank
        assert {table.players[0], table.players[2]} == {first, fourth}
        assert {table.players[1], table.players[3]} == {second, third}


@pytest.mark.parametrize(
    ("settings", "players"),
    [
        (Settings(SWEDISH_TEAMS, table_size=4), 4),
        (Settings(GameOptions("casino", teams=True), table_size=4, fillers=True), 2),
        (Settings(KRYP_TEAMS, table_size=4), 5),
        (Settings(KRYP_TEAMS, table_size=6), 6),
        (Settings(KRYP_THREES, table_size=6), 7),
    ],
)
def test_team_settings_that_run(settings, players) -> None:
    assert settings_problem(settings, players) == ""


@pytest.mark.parametrize(
    ("settings", "players", "words"),
    [
        (Settings(SWEDISH_TEAMS, Format.ROUND_ROBIN, cap=8), None, "only in a Swiss"),
        (Settings(SWEDISH_TEAMS, Format.KNOCKOUT), None, "only in a Swiss"),
        (Settings(SWEDISH_TEAMS, table_size=3), None, "exactly 4 players"),
        (Settings(SWEDISH_TEAMS), None, "exactly 4 players"),
        (Settings(KRYP_TEAMS, table_size=5), None, "4 or 6"),
        (Settings(KRYP_THREES, table_size=4), None, "exactly 6 players"),
        (Settings(SWEDISH_TEAMS, table_size=4), 3, "at least 4 players"),
        (Settings(KRYP_THREES, table_size=6), 5, "at least 6 players"),
    ],
)
def test_team_settings_refused(settings, players, words) -> None:
    assert words in settings_problem(settings, players)
    for code in languages():
        assert settings_problem(settings, players, lang(code))


def test_team_tables_are_the_team_sizes() -> None:
    """A smaller table cannot play in teams, so a team Swiss never makes one."""
    assert table_sizes(SWEDISH_TEAMS) == {4}
    assert table_sizes(KRYP_THREES) == {6}
