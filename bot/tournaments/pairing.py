"""The one entry point the running side calls: the next round, how many rounds, the end.

Each format's rule is in its own module (:mod:`.swiss`, :mod:`.roundrobin`,
:mod:`.knockout`); this module only picks the format's and passes the settings on.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.models import lowest_wins
from bot.tournaments.knockout import knockout_places, knockout_round, knockout_rounds, rounds_won
from bot.tournaments.model import Entrant, Format, Pairing, Result, Settings, Standing
from bot.tournaments.roundrobin import round_robin_round, round_robin_rounds
from bot.tournaments.settings import table_sizes
from bot.tournaments.standings import standings
from bot.tournaments.swiss import default_rounds, swiss_round


def next_round(
    settings: Settings,
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    round: int,
    *,
    seed: str,
) -> Pairing:
    """The tables of ``round`` (1-based) after ``results`` (every table of the rounds
    before). Dropped entrants are not paired; byes are tables of one (their result is
    :func:`bot.tournaments.decide.bye_result`); ``None`` in a table is a computer filler."""
    if settings.format is Format.ROUND_ROBIN:
        return round_robin_round(entrants, round, seed=seed)
    if settings.format is Format.KNOCKOUT:
        return knockout_round(entrants, results, round, seed=seed)
    return swiss_round(
        entrants,
        results,
        round,
        table_size=settings.table_size,
        sizes=table_sizes(settings.game),
        seed=seed,
        lowest_wins=lowest_wins(settings.game.variant),
        fillers=settings.fillers,
        options=settings.game,
    )


def total_rounds(settings: Settings, players: int) -> int:
    """How many rounds the tournament has for ``players`` entrants (fixed at the start)."""
    if settings.format is Format.ROUND_ROBIN:
        return round_robin_rounds(players)
    if settings.format is Format.KNOCKOUT:
        return knockout_rounds(players)
    return settings.rounds if settings.rounds is not None else default_rounds(players)


def current_standings(
    settings: Settings, entrants: Sequence[Entrant], results: Sequence[Result], *, seed: str
) -> list[Standing]:
    """The standings so far (for the message updated after every table), partners at a
    table counted as one side."""
    return standings(
        entrants,
        results,
        seed=seed,
        lowest_wins=lowest_wins(settings.game.variant),
        options=settings.game,
    )


def final_standings(
    settings: Settings, entrants: Sequence[Entrant], results: Sequence[Result], *, seed: str
) -> list[Standing]:
    """The final order: the standings (Swiss, round robin), or the knockout's places (by
    the round reached, then the tiebreaks)."""
    if settings.format is Format.KNOCKOUT:
        return knockout_places(
            entrants,
            results,
            seed=seed,
            lowest_wins=lowest_wins(settings.game.variant),
            options=settings.game,
        )
    return current_standings(settings, entrants, results, seed=seed)


def places(
    settings: Settings, entrants: Sequence[Entrant], results: Sequence[Result], *, seed: str
) -> list[tuple[int, int]]:
    """``(user_id, place)`` for the podium and the board, 1-based, in the final order.
    Swiss and round robin: the rank. Knockout: players out in the same round share a
    place (the semi-final losers are both 3rd, the quarter-final losers 5th…)."""
    final = final_standings(settings, entrants, results, seed=seed)
    if settings.format is not Format.KNOCKOUT:
        return [(s.user_id, s.rank) for s in final]
    won = rounds_won(entrants, results, seed=seed)
    shared: list[tuple[int, int]] = []
    for index, line in enumerate(final):
        if (
            index
            and won[line.user_id] == won[final[index - 1].user_id]
            and won[line.user_id] < (knockout_rounds(len(entrants)) - 1)
        ):
            shared.append((line.user_id, shared[-1][1]))
        else:
            shared.append((line.user_id, index + 1))
    return shared
