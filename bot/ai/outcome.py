"""What a move does to the table, as the mover can tell without the engine's bookkeeping.

The evaluation of ``normal`` asks this of every candidate move, so it is cheap: taken items
leave the table (pile top cards leave their pile: the owner loses them), a build move puts
one build of its value owned by the mover, and a trail puts the card down. The build's
groups are not worked out (one group holds all its cards): the evaluation only needs its
value, cards and owner. In the Nordic games only cards lie on the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from bot.engine import Build, Card, Move

from .view import SeatView, cards_of

Item = Card | Build


class Outcome(NamedTuple):
    """A move's result: the table left, the cards won, and pile cards taken from others."""

    table: tuple[Item, ...]
    gained: tuple[Card, ...]  # the played card and every card taken (empty unless a capture)
    stolen: tuple[tuple[int, Card], ...]  # (seat whose pile it was, card)
    made: tuple[Build, ...]  # builds the move makes or changes


def outcome(view: SeatView, move: Move) -> Outcome:
    """What ``move`` by the seat of ``view`` leaves on the table, and what it wins."""
    table = list(view.table)
    stolen: list[tuple[int, Card]] = []
    made: list[Build] = []
    for extra in move.table_builds:
        made.append(_build(view, table, stolen, None, extra.value, extra.using))
    if move.value is not None:
        made.append(_build(view, table, stolen, move.card, move.value, move.using))
        return Outcome(tuple(table), (), tuple(stolen), tuple(made))
    if not move.taken:
        table.append(move.card)
        return Outcome(tuple(table), (), tuple(stolen), tuple(made))
    _remove(view, table, stolen, move.taken)
    gained = (move.card, *(c for item in move.taken for c in cards_of(item)))
    return Outcome(tuple(table), gained, tuple(stolen), tuple(made))


def _build(
    view: SeatView,
    table: list[Item],
    stolen: list[tuple[int, Card]],
    played: Card | None,
    value: int,
    using: Sequence[Item],
) -> Build:
    _remove(view, table, stolen, using)
    cards = [c for item in using for c in cards_of(item)]
    if played is not None:
        cards.append(played)
    build = Build([cards], value, view.seat)
    table.append(build)
    return build


def _remove(
    view: SeatView, table: list[Item], stolen: list[tuple[int, Card]], items: Iterable[Item]
) -> None:
    """Take ``items`` off the table; those not there are pile tops (one deck: a card names
    its place), which leave their pile."""
    for item in items:
        if item in table:
            table.remove(item)
            continue
        owner = next((s for s, pile in enumerate(view.piles) if item in pile), None)
        if owner is not None and isinstance(item, Card):
            stolen.append((owner, item))


def split(table: Iterable[Item]) -> tuple[list[Card], list[Build]]:
    """A table's loose cards and its builds."""
    loose: list[Card] = []
    builds: list[Build] = []
    for item in table:
        (builds if isinstance(item, Build) else loose).append(item)
    return loose, builds
