"""The sealed move log: every stored move carries a hash chained to the one before it.

::

    h_0 = SHA-256("kasino-moves/v1|<game id>|0|start|<seed commitment>|<round 1's cut>")
    h_i = SHA-256("kasino-moves/v1|<game id>|<round>|<seat>|<move>|<i>|<h_(i-1)>")

(UTF-8, hex digests), where ``<move>`` is the move as played in its canonical text
(:func:`canonical`: ``Move.to_dict()`` as JSON with sorted keys and no spaces), ``i`` its
order number in the match (1, 2, …) and the seed commitment
``SHA-256("kasino-seed/v1|<game id>|<match seed>")`` (:func:`bot.records.deals.seed_commitment`).
The head (the last ``h``) after each move is shown on the table (its first 16 hex digits),
and at the end of the match; given it, a record's moves can be checked to be exactly the
ones played: changing, swapping, dropping or adding any move changes every later hash.
Because ``h_0`` binds the match seed and round 1's cut, and each later round is cut by
the chain's head at the end of the round before (:func:`round_cut`), the chain binds the
deals too. Nothing here imports Discord (``python -m bot verify`` uses it as it is).

The players' cut: round 1 is shuffled from ``"<seed>/0/<cut>"`` where the cut is
``"start:<id of the Start click>"`` (:func:`start_cut`), and
round ``k > 1`` from ``"<seed>/<k-1>/<h>"``, ``h`` the head after round ``k-1``'s last
move. The seed is drawn (and its commitment shown) when the lobby opens, before anyone
clicks; the click's id is Discord's, not the bot's, so neither can choose a deal.
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


def origin(game_id: int, seed_commitment: str, cut: str | None = None) -> str:
    """``h_0``: the chain's start, bound to the game, its match seed's commitment and
    round 1's cut (none: ``""``)."""
    return _sha(f"{TAG}|{int(game_id)}|0|start|{seed_commitment}|{cut or ''}")


def start_cut(click_id: object, how: str = "start") -> str:
    """Round 1's cut: ``how`` it was dealt (``start`` or ``rematch``) and the click's
    Discord id, as text. Nobody picks it: Discord numbers the click (from the moment it
    reaches Discord), after the bot committed to the seed, and the host does not know
    the seed. No person's id goes in: a cut is kept for good (it is hashed into the
    chain), and a person who has the bot forget them must not stay in it."""
    return f"{how}:{'-' if click_id is None else click_id}"


def link(
    previous: str, game_id: int, round_number: int, seat: int, move_text: str, number: int
) -> str:
    """``h_i`` from ``h_(i-1)`` and move ``number`` (its canonical text ``move_text``)."""
    fields = (TAG, int(game_id), int(round_number), int(seat), move_text, int(number), previous)
    return _sha("|".join(map(str, fields)))


def chain(
    game_id: int,
    seed_commitment: str,
    moves: Iterable[tuple[int, int, dict[str, Any]]],
    cut: str | None = None,
) -> list[str]:
    """Every head of a match's moves (``(round, seat, Move.to_dict())`` in order) from
    round 1's ``cut``: ``[h_0, h_1, …, h_n]``."""
    heads = [origin(game_id, seed_commitment, cut)]
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
    committed = seed_commitment(game.match.seed, seed_shown_in(game))
    return origin(game.id, committed, round_cut(game, 1))


def seed_shown_in(game: Any) -> int:
    """The game whose message first showed the match seed's commitment: its own lobby,
    or for a rematch the end message of the match before it (``extra["seed_game"]``)."""
    shown = game.extra.get("seed_game")
    return shown if isinstance(shown, int) and not isinstance(shown, bool) else game.id


def round_cut(game: Any, number: int) -> str | None:
    """Round ``number``'s cut in a game dealt with cuts (``game.extra["cuts"]``, one per
    round dealt), else ``None``."""
    cuts = game.extra.get("cuts")
    if not isinstance(cuts, list) or not 1 <= number <= len(cuts):
        return None
    return str(cuts[number - 1])


def next_seal(
    game: Any, round_number: int, seat: int, move: dict[str, Any]
) -> tuple[str, int] | None:
    """The hash a move would get on the game's sealed log and its order number, without
    changing the game (the move may still be refused); ``None``: a game without a log."""
    head = live_head(game)
    if head is None:
        return None
    number = int(game.extra["seal"].get("moves", 0)) + 1
    return link(head, game.id, round_number, seat, canonical(move), number), number


def seal_move(game: Any, round_number: int, seat: int, move: dict[str, Any]) -> str | None:
    """Chain a move onto a game's sealed log (``game.extra["seal"]``): its hash, to store
    with the move in the same transaction, or ``None`` for a game without a log."""
    sealed = next_seal(game, round_number, seat, move)
    if sealed is None:
        return None
    game.extra["seal"] = {"head": sealed[0], "moves": sealed[1]}
    return sealed[0]
