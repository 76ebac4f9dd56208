"""The daily choice: which puzzle a server gets today in a family.

Deterministic from (server, UTC day, family): the server's recent finished games of the
family are put in an order given by a hash of the three and each game's id, and the
first of them (at most :data:`TRIES`) with a puzzle gives it (its best one,
:func:`bot.puzzles.extract.best_candidate`); else the built-in set gives one, again by a
hash. The choice is stored the first time anyone asks (:mod:`bot.storage.puzzles`), so it
stays the same all day for everyone even as new games finish.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

RECENT = 200  # the finished games of a server the choice looks among
TRIES = 6  # the most of them searched for a puzzle (each is a replay and a few solves)


def _hash(*parts: object) -> int:
    text = ":".join(map(str, parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def game_order(guild_id: int, day: str, family: str, game_ids: Sequence[int]) -> list[int]:
    """The server's games in today's order (the first :data:`TRIES` are searched)."""
    return sorted(game_ids, key=lambda game: (_hash(guild_id, day, family, game), game))


def builtin_index(guild_id: int, day: str, family: str, count: int) -> int:
    """Which of ``count`` built-in puzzles the server gets today."""
    return _hash("builtin", guild_id, day, family) % count
