"""A table's result from its match: places from the sides' scores, finished or not.

The rule (docs/rules.md, "Tournaments"):

- A finished match: the winner first, the other sides by their match score.
- A match stopped at the round's deadline (:attr:`Decided.SCORE`): every side by its
  current match score.
- Whoever timed out or dropped (:attr:`Decided.FORFEIT`) finishes last, after everyone
  else, whatever the score; partners share their side's fate.
- The score order is the highest first, the lowest first where the lowest wins
  (Krypkasino). Equal scores share the place, except in a knockout (``strict``), where the
  seeded draw separates them.
- Partners share their side's place and match score.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from bot.models import Game
from bot.models import lowest_wins as variant_lowest_wins
from bot.tournaments.model import Decided, Result, Table
from bot.tournaments.standings import draw_key

_NO_DRAW = 1 << 64  # a side of computers only draws after every person


def side_places(
    scores: Sequence[int],
    *,
    lowest_wins: bool,
    winner: int | None,
    forfeits: Collection[int] = (),
    draws: Sequence[int] | None = None,
) -> list[int]:
    """Each side's place (0 first, equal places shared) from its match score: ``winner``
    first, ``forfeits`` (sides) last, the rest by score. With ``draws`` (a seeded draw per
    side, the lower first) no two places are equal."""

    def key(side: int) -> tuple[int, ...]:
        score = scores[side] if lowest_wins else -scores[side]
        first = 0 if side == winner and side not in forfeits else 1
        return (side in forfeits, first, score)

    places = []
    for side in range(len(scores)):
        mine = key(side)
        ahead = 0
        for other in range(len(scores)):
            if other == side:
                continue
            theirs = key(other)
            if theirs < mine or (
                theirs == mine and draws is not None and draws[other] < draws[side]
            ):
                ahead += 1
        places.append(ahead)
    return places


def result_of(
    table: Table,
    seats: Sequence[int | None],
    side_of: Callable[[int], int],
    scores: Sequence[int],
    *,
    lowest_wins: bool,
    winner: int | None,
    timed_out: Collection[int] = (),
    decided: Decided,
    game_id: int | None,
    strict: bool = False,
    seed: str = "",
) -> Result:
    """The result of ``table`` from its match. ``seats``: the match's seats' user ids
    (``None`` for a computer) in seat order; ``side_of``: a seat's side; ``scores``: the
    match score per side; ``winner``: the winning side if the match finished; ``timed_out``:
    user ids who forfeit. ``strict`` (knockout) separates equal places with the seeded
    draw. Raises ``ValueError`` when the seats do not hold the table's players."""
    seat_of: dict[int, int] = {}
    computers = [i for i, user in enumerate(seats) if user is None]
    for index, user in enumerate(seats):
        if user is not None:
            seat_of[user] = index
    if sorted(table.people) != sorted(seat_of) or table.players.count(None) != len(computers):
        raise ValueError(f"the match's seats {list(seats)} are not table {table.players}")
    side_count = len(scores)
    forfeits = {side_of(seat_of[user]) for user in timed_out if user in seat_of}
    draws = None
    if strict:
        draws = [_NO_DRAW] * side_count
        for user, seat in seat_of.items():
            side = side_of(seat)
            draws[side] = min(draws[side], draw_key(seed, user))
    places = side_places(
        scores, lowest_wins=lowest_wins, winner=winner, forfeits=forfeits, draws=draws
    )
    fillers = iter(computers)
    player_seats = [seat_of[p] if p is not None else next(fillers) for p in table.players]
    return Result(
        table=table,
        places=tuple(places[side_of(seat)] for seat in player_seats),
        points=tuple(scores[side_of(seat)] for seat in player_seats),
        decided=decided,
        game_id=game_id,
    )


def game_result(
    game: Game,
    table: Table,
    *,
    decided: Decided,
    timed_out: Collection[int] = (),
    strict: bool = False,
    seed: str = "",
) -> Result:
    """The result of ``table`` from its game (finished, stopped or abandoned): the seats
    map to the table's players by user id. A game that never started scores 0 each."""
    seats = [seat.user_id if seat.is_human else None for seat in game.seats]
    match = game.match
    scores = list(match.scores) if match is not None else [0] * game.sides
    winner = match.winner if match is not None else None
    return result_of(
        table,
        seats,
        game.side_of,
        scores,
        lowest_wins=variant_lowest_wins(game.options.variant),
        winner=winner,
        timed_out=timed_out,
        decided=decided,
        game_id=game.id,
        strict=strict,
        seed=seed,
    )


def bye_result(table: Table) -> Result:
    """A bye's result: first place, no points."""
    return Result(
        table,
        places=(0,) * len(table.players),
        points=(0,) * len(table.players),
        decided=Decided.BYE,
        game_id=None,
    )
