"""Captures for the search: every legal capture of small tables, remembered by ranks.

The engine answers the same question with full checks; the search asks it millions of
times on small tables, so here the answer for a tuple of table ranks and a target value
is worked out once (as bit masks over table positions) and kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from bot.engine import Card, Rules, capture_options, capture_values
from bot.engine.cards import LILLAN, STORAN

SMALL = 10  # up to this many table cards every capture is listed; above, maximal ones
MAX_UNIONS = 4096  # a guard against freak tables (many equal low cards)
SEARCH_MASKS = 48  # the search looks at no more than this many captures of one card


@lru_cache(maxsize=1 << 18)
def _masks(ranks: tuple[int, ...], target: int, aces_high: bool) -> tuple[int, ...]:
    """Bit masks of every capture (disjoint groups adding up to ``target``)."""
    options = [((1, 14) if r == 1 and aces_high else (r,)) for r in ranks]
    groups: list[int] = []

    def walk(start: int, left: int, mask: int) -> None:
        for index in range(start, len(options)):
            for value in options[index]:
                if value == left:
                    groups.append(mask | 1 << index)
                elif value < left:
                    walk(index + 1, left - value, mask | 1 << index)

    walk(0, target, 0)
    groups = sorted(set(groups))
    unions: set[int] = set()

    def join(start: int, mask: int) -> None:
        for index in range(start, len(groups)):
            group = groups[index]
            if not group & mask and len(unions) < MAX_UNIONS:
                unions.add(mask | group)
                join(index + 1, mask | group)

    join(0, 0)
    return tuple(sorted(unions, key=lambda m: (-m.bit_count(), m)))


_MEMO: dict[tuple, tuple[int, ...]] = {}
_SPECIAL = (LILLAN, STORAN)  # Finnish: worth more in hand than their rank
_MEMO_LIMIT = 1 << 18


def capture_masks(rules: Rules, card: Card, table: Sequence[Card]) -> tuple[int, ...]:
    """Masks over ``table`` positions of the captures ``card`` can make (small tables)."""
    played = card if rules.finnish_values and card in _SPECIAL else card.rank
    key = (rules.finnish_values, played, *[c.rank for c in table])
    found = _MEMO.get(key)
    if found is None:
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        found = _MEMO[key] = _compute(rules, card, table)
    return found


def _compute(rules: Rules, card: Card, table: Sequence[Card]) -> tuple[int, ...]:
    ranks = tuple(c.rank for c in table)
    aces_high = not rules.finnish_values
    targets = capture_values(rules, card, True)
    found: list[int] = []
    for target in targets:
        found.extend(_masks(ranks, target, aces_high))
    if len(targets) > 1:
        found = sorted(set(found), key=lambda m: (-m.bit_count(), m))
    return tuple(found)


def captures(rules: Rules, card: Card, table: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The captures of ``card`` from ``table``: all of them on small tables, else maximal."""
    if not table:
        return []
    if len(table) > SMALL:
        return capture_options(rules, card, table, limit=16)
    return [
        tuple(c for i, c in enumerate(table) if mask >> i & 1)
        for mask in capture_masks(rules, card, table)
    ]


def masks(rules: Rules, card: Card, table: Sequence[Card]) -> Sequence[int]:
    """Masks of the captures of ``card`` for the search: the biggest ``SEARCH_MASKS``."""
    if len(table) <= SMALL:
        return capture_masks(rules, card, table)[:SEARCH_MASKS]
    found = []
    for taken in capture_options(rules, card, table, limit=16):
        left = list(taken)
        mask = 0
        for i, c in enumerate(table):
            if c in left:
                left.remove(c)
                mask |= 1 << i
        found.append(mask)
    return found
