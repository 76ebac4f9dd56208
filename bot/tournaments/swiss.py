"""Swiss pairings: everyone plays every round, against players with a similar score.

The rule (docs/rules.md, "Tournaments"):

- The number of rounds is ``ceil(log2(players))`` (at least 1) unless the organiser sets it.
- Round 1 orders the players by rating, then the seeded draw; later rounds by the standings.
- Tables are groups of adjacent players in that order, top-down: at 2-player tables 1 and 2,
  3 and 4…; at bigger tables the table size, and one less where the variant allows it
  (:func:`layout`: as few small tables as possible). Who cannot be seated gets a bye (or,
  with fillers allowed, a table completed by computers).
- In order of importance: (1) byes (and tables with computers) go to those who have had the
  fewest; (2) as few repeated meetings as possible (two people at one table again), none
  while avoidable; (3) byes to the lowest-ranked; (4) tables as close to the order as
  possible. The search for (2) and (4) is :mod:`bot.tournaments.search`.
- Dropped players are not paired.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from bot.models import GameOptions
from bot.tournaments.model import Entrant, Pairing, Result, Table
from bot.tournaments.points import sides_at
from bot.tournaments.search import seat
from bot.tournaments.standings import draw_key, standings


def default_rounds(players: int) -> int:
    """The rounds of a Swiss for ``players``: ``ceil(log2(players))``, at least 1 (enough
    rounds for one player to be alone on top when everyone else loses once)."""
    return max(1, math.ceil(math.log2(players))) if players > 1 else 1


def in_round(entrant: Entrant, round: int) -> bool:
    """Whether ``entrant`` is paired in ``round``: still in, or dropped after it (``dropped``
    is the round after which they left)."""
    return entrant.dropped is None or entrant.dropped >= round


@dataclass(frozen=True, slots=True)
class Layout:
    """How many people each table seats, top-down; ``fillers`` computers complete the last
    table; ``byes`` players are left over."""

    tables: tuple[int, ...]
    fillers: int = 0
    byes: int = 0


def layout(players: int, table_size: int, sizes: frozenset[int], *, fillers: bool) -> Layout:
    """The tables for ``players``: of ``table_size``, and of one less where the variant
    allows it (``sizes``), seating as many as possible with as few small tables as
    possible; the rest get byes. With ``fillers`` everyone is seated: the last table is
    completed by as few computers as possible (then as few small tables)."""
    small = table_size - 1 if table_size - 1 >= 2 and table_size - 1 in sizes else 0
    best: tuple[int, int, int] | None = None  # (byes or fillers, small tables, big tables)
    for b in range(players + 2 if small else 1):
        for a in range(players // table_size + 2):
            seats = a * table_size + b * small
            last = small if b else table_size  # the last table, which the computers complete
            if fillers and (seats < players or a + b == 0 or seats - players >= last):
                continue  # someone unseated, or a table with no person
            if not fillers and seats > players:
                continue
            key = (abs(seats - players), b, a)
            if best is None or key < best:
                best = key
    if best is None:  # nobody to seat
        return Layout((), 0, 0)
    left, b, a = best
    tables = (table_size,) * a + (small,) * b
    if not fillers:
        return Layout(tables, 0, left)
    people = list(tables)
    people[-1] -= left
    return Layout(tuple(people), left, 0)


def met_counts(results: Sequence[Result]) -> dict[frozenset[int], int]:
    """How often each two people sat at one table."""
    counts: dict[frozenset[int], int] = {}
    for result in results:
        people = result.table.people
        for i, a in enumerate(people):
            for b in people[i + 1 :]:
                pair = frozenset((a, b))
                counts[pair] = counts.get(pair, 0) + 1
    return counts


def byes_had(results: Sequence[Result]) -> Counter[int]:
    """How many rounds each person sat out or played at a table completed by computers."""
    had: Counter[int] = Counter()
    for result in results:
        table = result.table
        if table.bye or None in table.players:
            had.update(table.people)
    return had


def ranked(
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    round: int,
    *,
    seed: str,
    lowest_wins: bool,
    options: GameOptions | None = None,
) -> list[int]:
    """The players to pair in ``round``, best first: by rating then the seeded draw in
    round 1, by the standings after."""
    playing = [e for e in entrants if in_round(e, round)]
    if round <= 1 or not results:
        playing.sort(key=lambda e: (-e.rating, draw_key(seed, e.user_id)))
        return [e.user_id for e in playing]
    order = standings(entrants, results, seed=seed, lowest_wins=lowest_wins, options=options)
    wanted = {e.user_id for e in playing}
    return [s.user_id for s in order if s.user_id in wanted]


def aside_choices(
    order: Sequence[int], had: Sequence[int], count: int
) -> Iterator[tuple[int, ...]]:
    """The sets of ``count`` players (indices into ``order``) who may sit out, best first:
    only those with the fewest byes so far (everyone with fewer than the ``count``-th
    fewest, then a choice among those with exactly that many), the lowest-ranked first."""
    if count == 0:
        yield ()
        return
    level = sorted(had)[count - 1]
    must = [i for i in reversed(range(len(order))) if had[i] < level]
    may = [i for i in reversed(range(len(order))) if had[i] == level]
    for chosen in itertools.combinations(may, count - len(must)):
        yield tuple(sorted((*must, *chosen)))


def seat_order(players: Sequence[int | None], sides: int) -> tuple[int | None, ...]:
    """A table's seats for players in standings order. Partners sit alternately (seat ``i``
    plays for side ``i % sides``); the players are dealt to the sides in a snake (1 2 2 1…)
    so partnerships are as even as the standings allow."""
    if sides >= len(players):
        return tuple(players)
    members: list[list[int | None]] = [[] for _ in range(sides)]
    for index, player in enumerate(players):
        lap, step = divmod(index, sides)
        members[step if lap % 2 == 0 else sides - 1 - step].append(player)
    return tuple(members[seat % sides][seat // sides] for seat in range(len(players)))


def swiss_round(
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    round: int,
    *,
    table_size: int,
    sizes: frozenset[int],
    seed: str,
    lowest_wins: bool,
    fillers: bool = False,
    options: GameOptions | None = None,
) -> Pairing:
    """The tables of Swiss round ``round`` (1-based) after ``results``. ``sizes``: the
    player counts the variant allows; ``options``: the game options, for partnerships
    (seat order and which players are one side in the standings)."""
    order = ranked(entrants, results, round, seed=seed, lowest_wins=lowest_wins, options=options)
    n = len(order)
    plan = layout(n, table_size, sizes, fillers=fillers)
    counts = met_counts(results)
    met = [[counts.get(frozenset((a, b)), 0) if a != b else 0 for b in order] for a in order]
    byes = byes_had(results)
    had = [byes[p] for p in order]
    together = bool(plan.fillers)
    aside = plan.tables[-1] if together else plan.byes
    sizes_seated = plan.tables[:-1] if together else plan.tables
    found = seat(met, sizes_seated, aside_choices(order, had, aside), together=together)
    tables: list[Table] = []
    for group in found.tables:
        people = [order[i] for i in group]
        tables.append(
            Table(round, len(tables) + 1, seat_order(people, sides_at(options, len(people))))
        )
    left = [order[i] for i in found.aside]
    if together:
        seats_ = [*left, *([None] * plan.fillers)]
        tables.append(
            Table(round, len(tables) + 1, seat_order(seats_, sides_at(options, len(seats_))))
        )
    else:
        for player in left:
            tables.append(Table(round, len(tables) + 1, (player,)))
    return Pairing(round, tuple(tables))
