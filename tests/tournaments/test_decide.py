"""Deciding a table: the winner first, then by score; forfeits last; partners together."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Match
from bot.models import Game, GameOptions, Seat, Status
from bot.tournaments.decide import bye_result, game_result, result_of, side_places
from bot.tournaments.model import Decided, Table

CASES = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@CASES
@given(
    scores=st.lists(st.integers(0, 60), min_size=2, max_size=6),
    lowest=st.booleans(),
    finished=st.booleans(),
    strict=st.booleans(),
    data=st.data(),
)
def test_side_places_follow_the_rule(scores, lowest, finished, strict, data) -> None:
    sides = len(scores)
    winner = data.draw(st.integers(0, sides - 1)) if finished else None
    forfeits = set(data.draw(st.lists(st.integers(0, sides - 1), max_size=2)))
    draws = list(range(sides, 0, -1)) if strict else None
    places = side_places(scores, lowest_wins=lowest, winner=winner, forfeits=forfeits, draws=draws)

    def rank(side: int) -> tuple[bool, bool, int]:
        # forfeits after everyone; then the winner (of a finished match) before the rest;
        # then the score, the best first
        score = scores[side] if lowest else -scores[side]
        return (side in forfeits, side != winner or side in forfeits, score)

    for a in range(sides):
        for b in range(sides):
            if rank(a) < rank(b):
                assert places[a] < places[b]
            elif rank(a) == rank(b) and a != b:
                assert (places[a] == places[b]) != strict
            if a in forfeits and b not in forfeits:
                assert places[a] > places[b], "a forfeit finishes after everyone else"
    # a place is the number of sides ahead
    assert sorted(places)[0] == 0
    assert all(p == sum(q < p for q in places) for p in places)


def test_forfeits_are_last_even_when_ahead() -> None:
    table = Table(2, 1, (10, 20, 30))
    result = result_of(
        table, [10, 20, 30], lambda s: s, [40, 10, 25], lowest_wins=False, winner=None,
        timed_out=[10], decided=Decided.FORFEIT, game_id=9,
    )  # fmt: skip
    assert result.places == (2, 1, 0) and result.points == (40, 10, 25)
    assert result.decided is Decided.FORFEIT and result.game_id == 9


def test_lowest_wins_ranks_the_fewest_penalties_first() -> None:
    table = Table(1, 1, (1, 2, 3))
    result = result_of(
        table, [1, 2, 3], lambda s: s, [12, 30, 12], lowest_wins=True, winner=None,
        decided=Decided.SCORE, game_id=1,
    )  # fmt: skip
    assert result.places == (0, 2, 0)


def test_seats_map_by_user_id_and_partners_share() -> None:
    table = Table(1, 1, (1, 2, 3, 4))
    # the match seated them 3 1 4 2: partners (seats 0+2, 1+3) are 3+4 and 1+2
    result = result_of(
        table, [3, 1, 4, 2], lambda s: s % 2, [9, 14], lowest_wins=False, winner=1,
        decided=Decided.PLAYED, game_id=2,
    )  # fmt: skip
    assert result.places == (0, 0, 1, 1) and result.points == (14, 14, 9, 9)


def test_a_filler_seat_is_matched() -> None:
    table = Table(1, 3, (7, None))
    result = result_of(
        table, [None, 7], lambda s: s, [16, 4], lowest_wins=False, winner=0,
        decided=Decided.PLAYED, game_id=5,
    )  # fmt: skip
    assert result.places == (1, 0) and result.points == (4, 16)


def test_wrong_seats_are_refused() -> None:
    table = Table(1, 1, (1, 2))
    try:
        result_of(table, [1, 3], lambda s: s, [0, 0], lowest_wins=False, winner=None,
                  decided=Decided.SCORE, game_id=None)  # fmt: skip
    except ValueError:
        return
    raise AssertionError("seats of other players were accepted")


def game_of(options: GameOptions, users: list[int | None], banked: list[int], winner=None) -> Game:
    seats = [Seat(u, f"p{u}") if u is not None else Seat.computer("normal") for u in users]
    match = Match.start(options.rules(len(users)), len(users), seed=1)
    match.banked = banked
    match.winner = winner
    status = Status.FINISHED if winner is not None else Status.STOPPED
    return Game(11, 1, 2, users[0] or 0, options, seats, status=status, match=match)


def test_game_result_reads_a_stopped_game() -> None:
    game = game_of(GameOptions(), [5, 6], [12, 12])
    table = Table(3, 2, (6, 5))
    loose = game_result(game, table, decided=Decided.SCORE)
    assert loose.places == (0, 0) and loose.points == (12, 12) and loose.game_id == 11
    strict = game_result(game, table, decided=Decided.SCORE, strict=True, seed="s")
    assert sorted(strict.places) == [0, 1]


def test_game_result_reads_a_partnership() -> None:
    options = GameOptions("casino").for_players(4)
    game = game_of(options, [1, 2, 3, 4], [21, 15], winner=0)
    result = game_result(game, Table(1, 1, (1, 2, 3, 4)), decided=Decided.PLAYED)
    assert result.places == (0, 1, 0, 1)
    dropped = game_result(game, Table(1, 1, (1, 2, 3, 4)), decided=Decided.FORFEIT, timed_out=[3])
    assert dropped.places == (1, 0, 1, 0)


def test_game_result_reads_krypkasino() -> None:
    options = GameOptions("krypkasino", target=50)
    game = game_of(options, [1, 2, None], [20, 31, 12])
    result = game_result(game, Table(1, 1, (1, 2, None)), decided=Decided.SCORE)
    assert result.places == (1, 2, 0)


def test_bye_result() -> None:
    result = bye_result(Table(4, 9, (42,)))
    assert result.places == (0,) and result.points == (0,)
    assert result.decided is Decided.BYE and result.game_id is None
