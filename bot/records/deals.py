"""Deals anyone can verify: each round's seed, and the commitment the table shows.

A match is dealt from one secret seed the bot draws with :mod:`secrets` (128 bits, as 32
hex digits); round ``n`` (1, 2, …) is shuffled from the round seed ``"<seed>/<n-1>"``
(the engine's ``_round_seed``). While the match is played only the commitment is shown::

    SHA-256("kasino-deal/v1|<game id>|<round number>|<round seed>"), hex

The table shows its first 16 hex digits; the full value, and once the match is over the
seeds themselves, are in the game's record (see docs/record.md). Nothing here imports
Discord, so ``python -m bot verify`` uses it as it is.
"""

from __future__ import annotations

import hashlib
import secrets

COMMITMENT_PREFIX = "kasino-deal/v1"
SEED_PREFIX = "kasino-seed/v1"
SHORT = 16  # hex digits of the commitment the table shows


def new_seed() -> str:
    """A match seed nobody can guess: 128 random bits from :mod:`secrets`, as hex."""
    return secrets.token_hex(16)


def round_seed(seed: object, round_number: int, cut: str | None = None) -> str:
    """The seed round ``round_number`` (from 1) is shuffled from, as the engine makes it:
    with the players' ``cut`` (bot.records.seal) ``"<seed>/<n-1>/<cut>"``."""
    if round_number < 1:
        raise ValueError("rounds are numbered from 1")
    base = f"{seed}/{round_number - 1}"
    return base if cut is None else f"{base}/{cut}"


def commitment(round_seed_text: str, game_id: int, round_number: int) -> str:
    """The full commitment (64 hex digits) to a round's deal."""
    text = f"{COMMITMENT_PREFIX}|{int(game_id)}|{int(round_number)}|{round_seed_text}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def short(full: str) -> str:
    """The commitment as the table shows it."""
    return full[:SHORT]


def round_commitment(seed: object, game_id: int, round_number: int, cut: str | None = None) -> str:
    """The commitment of round ``round_number`` of a match dealt from ``seed`` (and the
    round's ``cut``)."""
    return commitment(round_seed(seed, round_number, cut), game_id, round_number)


def seed_commitment(seed: object, game_id: int) -> str:
    """The commitment to a whole match's seed (64 hex digits), which starts its sealed move
    log (:mod:`bot.records.seal`), so the log binds every deal the seed makes."""
    text = f"{SEED_PREFIX}|{int(game_id)}|{seed}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


TOURNAMENT_PREFIX = "kasino-tournament/v1"
TABLE_PREFIX = "kasino-table/v1"


def tournament_commitment(tournament_id: int, seed: str) -> str:
    """The commitment to a tournament's deal seed (64 hex digits), shown from its sign-up
    on (32 of them) and sent to each entrant on Join."""
    text = f"{TOURNAMENT_PREFIX}|{int(tournament_id)}|{seed}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def table_seed(seed: str, round_number: int, table: int) -> str:
    """A tournament table's match seed, derived from the tournament's deal seed, the round
    and the table's number (from the documented pairing): nothing the bot learns later
    (no thread id) goes in. A hash, so a table's seed revealed at its end tells nothing of
    the tournament's seed, nor of the other tables' deals."""
    text = f"{TABLE_PREFIX}|{seed}|{int(round_number)}|{int(table)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
