"""A tournament table's result from its ended game (bot.tournaments.tables.table_result):
played to the end, abandoned, stopped at the deadline, or with a player who dropped."""

from __future__ import annotations

from bot.engine import Match
from bot.models import Game, GameOptions, Seat, Status
from bot.moves import auto_move
from bot.storage.tournaments import TableRow, TournamentRow
from bot.tournaments.model import Decided, Entrant, Format, Phase, Settings, Table
from bot.tournaments.tables import table_result

ANNA, BJORN = 11, 22
TABLE = Table(1, 1, (ANNA, BJORN))


def tournament(*, dropped: int | None = None, fmt: Format = Format.SWISS) -> TournamentRow:
    entrants = [Entrant(u, f"p{u}", dropped=1 if u == dropped else None) for u in (ANNA, BJORN)]
    settings = Settings(GameOptions(target=5), format=fmt)
    return TournamentRow(1, 1, 1, 1, "Cup", settings, Phase.RUNNING, 1, "seed", entrants=entrants)


def game(moves: int | None = None) -> Game:
    """Anna and Bjorn's match, played ``moves`` moves (``None``: to its end)."""
    options = GameOptions(target=5)
    played = Game(7, 1, 5, ANNA, options, [Seat(ANNA, "anna"), Seat(BJORN, "bjorn")])
    played.match = Match.start(options.rules(2), 2, seed=3)
    count = 0
    while not played.match.is_over and (moves is None or count < moves):
        played.match.play(auto_move(played.match.round))
        count += 1
    played.status = Status.FINISHED if played.match.is_over else Status.STOPPED
    return played


def test_a_match_played_to_its_end_ranks_its_winner_first() -> None:
    finished = game()
    result = table_result(tournament(), TableRow(TABLE, 7), finished, max_auto_moves=3)
    winner = (ANNA, BJORN)[finished.match.winner]
    assert result.decided is Decided.PLAYED and result.game_id == 7
    assert result.places[TABLE.players.index(winner)] == 0
    assert sorted(result.places) == [0, 1]
    assert list(result.points) == list(finished.match.scores)


def test_a_dropped_player_forfeits_even_a_match_they_won() -> None:
    finished = game()
    winner = (ANNA, BJORN)[finished.match.winner]
    row = tournament(dropped=winner)
    result = table_result(row, TableRow(TABLE, 7), finished, max_auto_moves=3)
    assert result.decided is Decided.FORFEIT
    assert result.places[TABLE.players.index(winner)] == 1


def test_the_seat_that_timed_out_forfeits_an_abandoned_match() -> None:
    abandoned = game(moves=6)
    abandoned.status = Status.ABANDONED
    abandoned.seats[1].idle = 3
    result = table_result(tournament(), TableRow(TABLE, 7), abandoned, max_auto_moves=3)
    assert result.decided is Decided.FORFEIT and result.places == (0, 1)


def test_a_stopped_match_is_ranked_by_its_score_and_a_lost_one_shares() -> None:
    stopped = game(moves=10)
    result = table_result(tournament(), TableRow(TABLE, 7), stopped, max_auto_moves=3)
    assert result.decided is Decided.SCORE
    assert list(result.points) == list(stopped.match.scores)
    nothing = table_result(tournament(), TableRow(TABLE), None, max_auto_moves=3)
    assert nothing.decided is Decided.SCORE and nothing.places == (0, 0)
    # a knockout table never dealt (its thread could not be made) still has one winner
    undealt = table_result(tournament(fmt=Format.KNOCKOUT), TableRow(TABLE), None, max_auto_moves=3)
    assert sorted(undealt.places) == [0, 1] and undealt.decided is Decided.SCORE
    left = table_result(tournament(dropped=ANNA), TableRow(TABLE), None, max_auto_moves=3)
    assert left.decided is Decided.FORFEIT and left.places == (1, 0)
    # a knockout separates equal scores with the seeded draw
    even = game(moves=0)
    knockout = tournament(fmt=Format.KNOCKOUT)
    drawn = table_result(knockout, TableRow(TABLE, 7), even, max_auto_moves=3)
    assert sorted(drawn.places) == [0, 1]
