"""The sealed move log: every stored move carries a hash chained to the one before it.

::

    h_0 = SHA-256("kasino-moves/v1|<game id>|0|start|<seed commitment>")
    h_i = SHA-256("kasino-moves/v1|<game id>|<round>|<seat>|<move>|<i>|<h_(i-1)>")

(UTF-8, hex digests), where ``<move>`` is the move as played in its canonical text
(:func:`canonical`: ``Move.to_dict()`` as JSON with sorted keys and no spaces), ``i`` its
order number in the match (1, 2, …) and the seed commitment
``SHA-256("kasino-seed/v1|<game id>|<match seed>")`` (:func:`bot.records.deals.seed_commitment`).
The head (the last ``h``) after each move is shown on the table (its first 16 hex digits),
and at the end of the match; given it, a record's moves can be checked to be exactly the
ones played: changing, swapping, dropping or adding any move changes every later hash.
Because ``h_0`` binds the match seed, which deals every round, the chain binds the deals
too. Nothing here imports Discord (``python -m bot verify`` uses it as it is).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from bot.records.deals import seed_commitment

TAG = "kasino-moves/v1"
SHORT = 16  # hex digits of the head the table and the end message show


def canonical(move: dict[str, Any]) -> str:
    """A move's canonical text: its ``Move.to_dict()`` as compact JSON, keys sorted (the
    same text whatever order the dict was written in)."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def origin(game_id: int, seed_commitment: str) -> str:
    """``h_0``: the chain's start, bound to the game and to its match seed's commitment."""
    return _sha(f"{TAG}|{int(game_id)}|0|start|{seed_commitment}")


def link(
    previous: str, game_id: int, round_number: int, seat: int, move_text: str, number: int
) -> str:
    """``h_i`` from ``h_(i-1)`` and move ``number`` (its canonical text ``move_text``)."""
    fields = (TAG, int(game_id), int(round_number), int(seat), move_text, int(number), previous)
    return _sha("|".join(map(str, fields)))


def chain(
    game_id: int, seed_commitment: str, moves: Iterable[tuple[int, int, dict[str, Any]]]
) -> list[str]:
    """Every head of a match's moves (``(round, seat, Move.to_dict())`` in order):
    ``[h_0, h_1, …, h_n]``."""
    heads = [origin(game_id, seed_commitment)]
    for number, (round_number, seat, move) in enumerate(moves, start=1):
        heads.append(link(heads[-1], game_id, round_number, seat, canonical(move), number))
    return heads


def short(head: str) -> str:
    """The head as the table shows it."""
    return head[:SHORT]


def matches_head(head: str, claimed: str) -> bool:
    """Whether ``claimed`` (what a player saw: at least 16 hex digits, any case) is the
    start of ``head``."""
    claimed = claimed.strip().lower()
    if len(claimed) < SHORT or any(c not in "0123456789abcdef" for c in claimed):
        return False
    return head.startswith(claimed)


def live_head(game: Any) -> str | None:
    """The head of a game's sealed log as it stands (``h_0`` before its first move), or
    ``None`` for a game without one (dealt before moves were sealed, or not dealt yet).
    A game keeps ``extra["seal"] = {"head": …, "moves": n}``, saved with each move."""
    state = game.extra.get("seal")
    if not isinstance(state, dict) or game.match is None:
        return None
    head = state.get("head")
    if isinstance(head, str) and head:
        return head
    # set at the deal, before the game had its id (a rematch): the start, from the seed
    return origin(game.id, seed_commitment(game.match.seed, game.id))


def seal_move(game: Any, round_number: int, seat: int, move: dict[str, Any]) -> str | None:
    """Chain a move onto a game's sealed log (``game.extra["seal"]``): its hash, to store
    with the move in the same transaction, or ``None`` for a game without a log."""
    head = live_head(game)
    if head is None:
        return None
    number = int(game.extra["seal"].get("moves", 0)) + 1
    sealed = link(head, game.id, round_number, seat, canonical(move), number)
    game.extra["seal"] = {"head": sealed, "moves": number}
    return sealed
