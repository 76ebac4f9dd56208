"""Single elimination, seeded by rating, at 2-player tables.

The rule (docs/rules.md, "Tournaments"):

- The bracket has the next power of two places. Seeds: by rating, then the seeded draw.
- Round 1 in the standard bracket order (1 v N, then the pairs that keep 1 and 2 apart
  until the final, 1 and 4 until the semi-finals…); a seed without an opponent (more
  places than players) has a bye, so the byes go to the top seeds.
- The winner of each table advances; the bracket keeps its order (the winners of tables 1
  and 2 meet, of 3 and 4…). A player who dropped is not paired: their next opponent has a
  bye.
- The bracket is drawn over every entrant, so players can be added only before round 1.
- Places: by the rounds won (the winner, then the finalist, then the semi-final losers who
  share third place…), each group ordered by the standings' tiebreaks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.models import GameOptions
from bot.tournaments.model import Entrant, Pairing, Result, Standing, Table
from bot.tournaments.standings import Record, draw_key, opponents_share, records, sort_key
from bot.tournaments.swiss import in_round


def knockout_rounds(players: int) -> int:
    """The rounds of a knockout: ``ceil(log2(players))`` (0 for fewer than two)."""
    return math.ceil(math.log2(players)) if players >= 2 else 0


def bracket_order(places: int) -> list[int]:
    """The seeds (1-based) in bracket order for ``places`` (a power of two): 1 v N first,
    and each half of the bracket holding the seeds that keep the best apart longest
    (8 places: 1 8 4 5 2 7 3 6)."""
    order = [1]
    while len(order) < places:
        size = len(order) * 2
        order = [s for seed in order for s in (seed, size + 1 - seed)]
    return order


def seeds(entrants: Sequence[Entrant], *, seed: str) -> list[Entrant]:
    """The entrants in seed order: by rating, then the seeded draw."""
    return sorted(entrants, key=lambda e: (-e.rating, draw_key(seed, e.user_id)))


def _winner(result: Result | None, players: tuple[int, ...], seed: str) -> int | None:
    """Who advanced from a table (the best place; equal places by the seeded draw)."""
    if result is None:
        return None
    ranked = sorted(
        zip(result.places, result.table.players, strict=True),
        key=lambda pair: (pair[0], draw_key(seed, pair[1]) if pair[1] is not None else 1 << 64),
    )
    best = ranked[0][1]
    return best if best in players else None


def slots(
    entrants: Sequence[Entrant], results: Sequence[Result], round: int, *, seed: str
) -> list[int | None]:
    """Who holds each bracket place at the start of ``round`` (``None``: nobody, a bye for
    the neighbour). Round 1's places are the seeds in bracket order; each later round
    halves them: the winner of each pair of places, or the one who had a bye."""
    ordered = seeds(entrants, seed=seed)
    places = 1 << knockout_rounds(len(ordered)) if len(ordered) >= 2 else len(ordered)
    by_seed = {i + 1: e.user_id for i, e in enumerate(ordered)}
    current: list[int | None] = [by_seed.get(s) for s in bracket_order(places)] if places else []
    dropped = {e.user_id: e for e in entrants}
    by_round: dict[int, dict[int, Result]] = {}
    for result in results:
        for person in result.table.people:
            by_round.setdefault(result.table.round, {})[person] = result
    for done in range(1, round):
        current = [p if p is not None and in_round(dropped[p], done) else None for p in current]
        played = by_round.get(done, {})
        nxt: list[int | None] = []
        for i in range(0, len(current) - 1, 2):
            pair = tuple(p for p in current[i : i + 2] if p is not None)
            if len(pair) == 2:
                nxt.append(_winner(played.get(pair[0]), pair, seed))
            else:
                nxt.append(pair[0] if pair else None)
        current = nxt
    return [p if p is not None and in_round(dropped[p], round) else None for p in current]


def knockout_round(
    entrants: Sequence[Entrant], results: Sequence[Result], round: int, *, seed: str
) -> Pairing:
    """The tables of knockout round ``round`` (1-based): the bracket's pairs of places, a
    bye where one place is empty. Round 1 from the seeds, later rounds from the winners of
    the round before (its results must all be in)."""
    if not 1 <= round <= knockout_rounds(len(entrants)):
        return Pairing(round, ())
    current = slots(entrants, results, round, seed=seed)
    tables: list[Table] = []
    byes: list[int] = []
    for i in range(0, len(current) - 1, 2):
        pair = tuple(p for p in current[i : i + 2] if p is not None)
        if len(pair) == 2:
            tables.append(Table(round, len(tables) + 1, pair))
        elif pair:
            byes.append(pair[0])
    for player in byes:
        tables.append(Table(round, len(tables) + 1, (player,)))
    return Pairing(round, tuple(tables))


def rounds_won(
    entrants: Sequence[Entrant], results: Sequence[Result], *, seed: str
) -> dict[int, int]:
    """How many rounds each entrant came through (won, or had a bye in), counting only
    rounds whose results are in: a table still playing advances nobody yet."""
    total = knockout_rounds(len(entrants))
    won = {e.user_id: 0 for e in entrants}
    for round in range(2, total + 2):
        for player in slots(entrants, results, round, seed=seed):
            if player is not None:
                won[player] = round - 1
    return won


def knockout_places(
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    *,
    seed: str,
    lowest_wins: bool,
    options: GameOptions | None = None,
) -> list[Standing]:
    """The final order of a knockout: by the rounds won, then the standings' tiebreaks
    (match points, opponents' share, points difference, the seeded draw)."""
    won = rounds_won(entrants, results, seed=seed)
    everyone = records(results, lowest_wins=lowest_wins, options=options)
    lines = []
    for entrant in entrants:
        record = everyone.get(entrant.user_id, Record())
        key = (-won[entrant.user_id], *sort_key(entrant.user_id, record, everyone, seed))
        lines.append((key, entrant, record))
    lines.sort(key=lambda line: line[0])
    return [
        Standing(
            user_id=entrant.user_id,
            rank=rank,
            match_points=float(record.match_points),
            played=record.played,
            wins=record.wins,
            opponents=float(opponents_share(record, everyone)),
            difference=float(record.difference),
            byes=record.byes,
            dropped=not entrant.active,
        )
        for rank, (_, entrant, record) in enumerate(lines, start=1)
    ]
