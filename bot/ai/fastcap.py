"""Captures for the search: all of them on small tables, the biggest on large ones.

The engine's :func:`~bot.engine.capture_masks` remembers the answer for a table's ranks,
which is what makes the search's millions of questions about small tables cheap.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from bot.engine import Card, Rules, capture_masks, capture_options

SMALL = 10  # up to this many table cards every capture is listed; above, maximal ones
SEARCH_MASKS = 48  # the search looks at no more than this many captures of one card
LARGE_LIMIT = 16  # maximal captures listed on large tables
GUESS_EFFORT = 3000  # search steps for one guess on a large table (the engine's default: 20000)


def captures(rules: Rules, card: Card, table: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The captures of ``card`` from ``table``: all of them on small tables, else maximal."""
    if not table:
        return []
    if len(table) > SMALL:
        return capture_options(rules, card, table, limit=LARGE_LIMIT)
    return [_picked(table, mask) for mask in capture_masks(rules, card, table)]


def masks(rules: Rules, card: Card, table: Sequence[Card]) -> Sequence[int]:
    """Masks of the captures of ``card`` for the search: the biggest ``SEARCH_MASKS``."""
    if len(table) <= SMALL:
        return capture_masks(rules, card, table)[:SEARCH_MASKS]
    return _large_masks(rules, card, tuple(table))


@lru_cache(maxsize=4096)
def _large_masks(rules: Rules, card: Card, table: tuple[Card, ...]) -> tuple[int, ...]:
    """Masks of the biggest captures on a large table (bounded: the engine stops early)."""
    found = capture_options(rules, card, table, limit=LARGE_LIMIT, effort=GUESS_EFFORT)
    return tuple(_mask(table, taken) for taken in found)


def _picked(table: Sequence[Card], mask: int) -> tuple[Card, ...]:
    return tuple(c for i, c in enumerate(table) if mask >> i & 1)


def _mask(table: Sequence[Card], taken: Sequence[Card]) -> int:
    """The positions of ``taken`` in ``table`` (identical cards fill in order)."""
    left = Counter(taken)
    mask = 0
    for i, card in enumerate(table):
        if left[card]:
            left[card] -= 1
            mask |= 1 << i
    return mask


def clear_caches() -> None:
    """Forget remembered captures of large tables (benchmarks time cold searches)."""
    _large_masks.cache_clear()
