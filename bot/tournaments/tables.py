"""A running tournament's tables as the round runner reads them: a round's tables, the
results so far, a table's thread's name, and a table's result from its ended game.

Pure functions of the stored tournament (:class:`bot.storage.tournaments.TournamentRow`)
and a game (:class:`bot.models.Game`): no Discord, no storage calls.
"""

from __future__ import annotations

from bot.models import Game, Status
from bot.storage.tournaments import TableRow, TournamentRow
from bot.tournaments.decide import game_result, result_of
from bot.tournaments.model import Decided, Format, Result, Table


def thread_name(row: TournamentRow, table: Table) -> str:
    """A table's thread's name: unique in the tournament, so a thread made before a kill
    is found again by it."""
    return f"🏆 #{row.id} {row.name[:60]} · R{table.round} T{table.number}"


def round_tables(row: TournamentRow, number: int | None = None) -> list[TableRow]:
    """The tables of a round (default: the current one)."""
    wanted = row.round if number is None else number
    return [tr for tr in row.tables if tr.table.round == wanted]


def results_of(row: TournamentRow) -> list[Result]:
    """Every result kept so far."""
    return [tr.result for tr in row.tables if tr.result is not None]


def table_result(
    row: TournamentRow, tr: TableRow, game: Game | None, *, max_auto_moves: int
) -> Result:
    """A table's result from its ended game: played to the end (``PLAYED``), abandoned
    (the seat that missed ``max_auto_moves`` turns in a row forfeits), stopped (by the
    score); a player who dropped always forfeits (``FORFEIT``: they finish last)."""
    table = tr.table
    dropped = {e.user_id for e in row.entrants if not e.active}
    timed_out = {p for p in table.people if p in dropped}
    knockout = row.settings.format is Format.KNOCKOUT
    if game is None or game.match is None:  # never dealt, or its record is damaged
        # nothing was scored: all equal, but for forfeits; a knockout still needs one
        # winner, so the seeded draw separates them there
        return result_of(
            table,
            table.players,
            lambda seat: seat,
            [0] * len(table.players),
            lowest_wins=False,
            winner=None,
            timed_out=timed_out,
            decided=Decided.FORFEIT if timed_out else Decided.SCORE,
            game_id=tr.game_id,
            strict=knockout,
            seed=row.seed,
        )
    if game.status is Status.ABANDONED:
        timed_out |= {
            int(seat.user_id)
            for seat in game.seats
            if seat.is_human and seat.user_id is not None and seat.idle >= max_auto_moves
        }
    if timed_out:
        decided = Decided.FORFEIT
    elif game.status is Status.FINISHED:
        decided = Decided.PLAYED
    else:
        decided = Decided.SCORE
    return game_result(
        game, table, decided=decided, timed_out=timed_out, strict=knockout, seed=row.seed
    )
