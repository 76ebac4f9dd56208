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

Version 2 (games dealt since the whole match is sealed) binds more, ending in one *final
head* over the whole match::

    h_0   = SHA-256("kasino-moves/v2|<g>|0|header|<canonical JSON of the header>")
    h_i   = SHA-256("kasino-moves/v2|<g>|<round>|<seat>|<auto>|<move>|<i>|<h_(i-1)>")
    final = SHA-256("kasino-match/v2|<g>|<h_n>|<canonical JSON of the result>")

The header (:func:`header`) is the game id, the rules, the lobby's options, the seats in
order (kind, computer level, side and, for a person, a seat tag :func:`seat_tag`), the
seed's commitment and the cut; ``<auto>`` is ``1`` when the bot moved for a player out of
time; the result (:func:`result_dict`) is each round's score items per side, the final
scores, the winner and how the match ended. In version 2 every round is cut by the same
cut, fixed at Start (the players' own cuts, or the click where nobody cut:
:func:`players_cut`): the moves no longer cut later rounds (a computer's or an automatic
last move could steer them).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Iterable
from typing import Any

from bot.records.deals import seed_commitment

TAG = "kasino-moves/v1"
TAG2 = "kasino-moves/v2"
MATCH_TAG = "kasino-match/v2"
SEAT_TAG = "kasino-seat/v1"
SHORT = 16  # hex digits of the head the table shows during play
SHOWN = 32  # hex digits (128 bits) of the final head and the seed's commitment shown
VERSION = 2  # the chain version of games dealt from now on
CUT_MAX = 25  # a player cuts the deck at 1..25 (a select menu holds at most 25 options)


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


# ------------------------------------------------------------------ version 2


def seat_tag(game_id: int, seat: int, user_id: object, salt: str) -> str:
    """A person's seat as the header seals it: ``SHA-256("kasino-seat/v1|<g>|<seat>|<user
    id>|<salt>")``. The export carries the user id and the salt (verify recomputes the
    tag) or, once the person was forgotten, the tag alone (:func:`forget_seat`)."""
    return _sha(f"{SEAT_TAG}|{int(game_id)}|{int(seat)}|{user_id}|{salt}")


def new_salt() -> str:
    """A seat's salt: 128 random bits, so a seat tag cannot be matched to a user id by
    trying ids."""
    return secrets.token_hex(16)


def header(
    game_id: int,
    rules: dict[str, Any],
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    seed_commitment: str,
    cut: str | None,
    tournament: dict[str, Any] | None = None,
    place: tuple[str, str] = ("", ""),
) -> dict[str, Any]:
    """What ``h_0`` seals of a version-2 match: the game and where it was played (``place``:
    the server's and channel's ids, as text), its rules (``rules_to_dict``),
    the lobby's options, the seats in order (``kind``, ``level``, ``side``, ``tag``), the
    seed's commitment and the cut; for a tournament's table also the tournament, round,
    table and the commitment to the tournament's deal seed (:func:`table_mark`)."""
    extra = {} if tournament is None else {"tournament": table_mark(tournament)}
    return {
        **extra,
        "game": int(game_id),
        "guild": place[0],
        "channel": place[1],
        "rules": rules,
        "options": options,
        "seats": [
            {
                "kind": seat.get("kind"),
                "level": seat.get("level"),
                "side": seat.get("side"),
                "tag": seat.get("tag"),
            }
            for seat in seats
        ],
        "seed_commitment": seed_commitment,
        "cut": cut,
    }


def table_mark(mark: dict[str, Any]) -> dict[str, Any]:
    """What a tournament table's header seals of its tournament (not its name, nor the
    seed itself, revealed only once the tournament is over)."""
    return {key: mark.get(key) for key in ("id", "round", "table", "commitment")}


def tournament_of(extra: dict[str, Any]) -> dict[str, Any] | None:
    """A tournament table's mark (``extra["tournament"]``) when its seed was derived from
    the tournament's committed one (it has ``"commitment"``), else ``None``."""
    mark = extra.get("tournament")
    if isinstance(mark, dict) and isinstance(mark.get("commitment"), str):
        return mark
    return None


def origin_v2(game_id: int, sealed_header: dict[str, Any]) -> str:
    """``h_0`` of a version-2 chain: the header's canonical text, hashed."""
    return _sha(f"{TAG2}|{int(game_id)}|0|header|{canonical(sealed_header)}")


def link_v2(
    previous: str,
    game_id: int,
    round_number: int,
    seat: int,
    auto: bool,
    move_text: str,
    number: int,
) -> str:
    """``h_i`` of a version-2 chain: also binds whether the bot moved for the player."""
    fields = (
        TAG2, int(game_id), int(round_number), int(seat), int(bool(auto)), move_text,
        int(number), previous,
    )  # fmt: skip
    return _sha("|".join(map(str, fields)))


def chain_v2(
    game_id: int,
    sealed_header: dict[str, Any],
    moves: Iterable[tuple[int, int, bool, dict[str, Any]]],
) -> list[str]:
    """Every head of a version-2 chain (moves as ``(round, seat, auto, Move.to_dict())``):
    ``[h_0, …, h_n]``."""
    heads = [origin_v2(game_id, sealed_header)]
    for number, (round_number, seat, auto, move) in enumerate(moves, start=1):
        heads.append(link_v2(heads[-1], game_id, round_number, seat, auto, canonical(move), number))
    return heads


def result_dict(
    round_scores: list[list[dict[str, int]]],
    scores: list[int],
    winner: int | None,
    ended: str,
) -> dict[str, Any]:
    """What the final head seals of how the match came out: each round's score items per
    side, the final scores, the winner, and how it ended (``won``, ``stopped``,
    ``abandoned``, ``deadline``)."""
    return {
        "round_scores": [
            [{k: int(v) for k, v in side.items()} for side in r] for r in round_scores
        ],
        "scores": [int(s) for s in scores],
        "winner": winner,
        "ended": ended,
    }


def final_head(game_id: int, head: str, result: dict[str, Any]) -> str:
    """The final head: the chain's last head and the result, in one hash."""
    return _sha(f"{MATCH_TAG}|{int(game_id)}|{head}|{canonical(result)}")


def shown(head: str) -> str:
    """A final head or seed commitment as the bot shows it (32 hex digits, 128 bits)."""
    return head[:SHOWN]


def players_cut(click: str, cuts: dict[int, int]) -> str:
    """The cut fixed at Start for every round. Where people cut the deck, their cuts by
    seat alone, ``"players;0=7;2=19"`` (no user id: forget-me): the click's id is left out
    on purpose, since only the bot sees it, so whoever runs the bot could claim another
    and try it against the seed. Where nobody cut, the click (``start:<id>``): ``verify``
    then says the operator could have chosen the deals."""
    if not cuts:
        return click
    return ";".join(["players", *(f"{seat}={cuts[seat]}" for seat in sorted(cuts))])


def cuts_in(cut: str | None) -> dict[int, int]:
    """The players' cuts a version-2 cut holds, by seat (``{}``: nobody cut)."""
    found: dict[int, int] = {}
    for part in (cut or "").split(";")[1:]:
        seat, _, number = part.partition("=")
        if seat.isdigit() and number.isdigit():
            found[int(seat)] = int(number)
    return found


def options_of(options: Any, hints: bool = False) -> dict[str, Any]:
    """A lobby's options as the record and the header write them (``GameOptions``)."""
    return {
        "variant": options.variant,
        "target": options.target,
        "teams": options.teams,
        "turn_seconds": options.turn_seconds,
        **options.switches,
        **options.kryp_options,
        "hints": bool(hints),
    }


def version(game: Any) -> int:
    """The chain version of a game's sealed log (1: dealt before the whole match was
    sealed; 0: no log)."""
    state = game.extra.get("seal")
    if not isinstance(state, dict):
        return 0
    return 2 if state.get("v") == 2 else 1


def seat_tag_of(game: Any, seat: int) -> str | None:
    """A seat's tag in a version-2 game: kept once the person was forgotten, else from
    their id and salt (``None``: a computer's seat)."""
    extra = game.extra
    tags = extra.get("seat_tags")
    if isinstance(tags, dict) and isinstance(tags.get(str(seat)), str):
        return tags[str(seat)]
    salts = extra.get("salts")
    salt = salts.get(str(seat)) if isinstance(salts, dict) else None
    user_id = game.seats[seat].user_id
    if salt is None or user_id is None:
        return None
    return seat_tag(game.id, seat, user_id, salt)


def keep_seat_tags(game: Any) -> None:
    """Keep every person's seat tag in a version-2 game (``extra["seat_tags"]``) once it has
    its id (at its first move, or when it ends): the header then no longer needs the
    person's id, so removing it (forget-me) leaves the seal whole."""
    if version(game) != 2 or not game.id or isinstance(game.extra.get("seat_tags"), dict):
        return
    tags = {str(i): seat_tag_of(game, i) for i in range(len(game.seats))}
    game.extra["seat_tags"] = {seat: tag for seat, tag in tags.items() if tag is not None}


def forget_seat(extra: dict[str, Any], game_id: int, seat: int, user_id: int) -> None:
    """Forget-me's part of the seal, on a game's stored ``extra``: keep seat ``seat``'s tag
    (``extra["seat_tags"]``) and drop its salt, so the person's id can be removed from the
    seat and the match still verifies (the export then carries the tag alone)."""
    salts = extra.get("salts")
    if not isinstance(salts, dict) or salts.get(str(seat)) is None:
        return
    tags = extra.setdefault("seat_tags", {})
    tags[str(seat)] = seat_tag(game_id, seat, user_id, salts.pop(str(seat)))


def game_header(game: Any) -> dict[str, Any]:
    """The header of a version-2 game, from the game itself."""
    from bot.engine.rules import rules_to_dict  # the engine, not Discord

    seats = [
        {
            "kind": seat.kind,
            "level": seat.level,
            "side": game.side_of(index),
            "tag": seat_tag_of(game, index),
        }
        for index, seat in enumerate(game.seats)
    ]
    committed = seed_commitment(game.match.seed, seed_shown_in(game))
    return header(
        game.id,
        rules_to_dict(game.match.rules),
        options_of(game.options, game.hints),
        seats,
        committed,
        round_cut(game, 1),
        tournament_of(game.extra),
        (str(game.guild_id), str(game.channel_id)),
    )


def ended_of(game: Any) -> str | None:
    """How a game that is over ended, as its record and final head say it: ``won``,
    ``stopped``, ``deadline`` (a tournament table stopped at its round's deadline) or
    ``abandoned``; ``None`` for a game not over (or cancelled, broken: never dealt whole)."""
    status = str(getattr(game.status, "value", game.status))
    if status == "finished":
        return "won"
    if status == "abandoned":
        return "abandoned"
    if status == "stopped":
        return "deadline" if game.extra.get("ended") == "deadline" else "stopped"
    return None


def live_final(game: Any, ended: str | None = None) -> str | None:
    """The final head of a version-2 game as it ended (``None``: an older game, or one
    not over)."""
    ended = ended or ended_of(game)
    head = live_head(game)
    if ended is None:
        return None
    if head is None or version(game) != 2:
        return None
    match = game.match
    round_scores = [[dict(s.items) for s in scores] for scores in match.round_scores]
    winner = match.winner if ended == "won" else None
    result = result_dict(round_scores, list(match.scores), winner, ended)
    return final_head(game.id, head, result)


def live_head(game: Any) -> str | None:
    """The head of a game's sealed log as it stands (``h_0`` before its first move), or
    ``None`` for a game without one (dealt before moves were sealed, or not dealt yet).
    A game keeps ``extra["seal"] = {"head": …, "moves": n}`` (and ``"v": 2`` in a game
    sealed whole), saved with each move."""
    state = game.extra.get("seal")
    if not isinstance(state, dict) or game.match is None:
        return None
    head = state.get("head")
    if isinstance(head, str) and head:
        return head
    # set at the deal, before the game had its id (a rematch): the start, from the seed
    if version(game) == 2:
        return origin_v2(game.id, game_header(game))
    committed = seed_commitment(game.match.seed, seed_shown_in(game))
    return origin(game.id, committed, round_cut(game, 1))


def seed_shown_in(game: Any) -> int:
    """The game whose message first showed the match seed's commitment: its own lobby,
    or for a rematch the end message of the match before it (``extra["seed_game"]``)."""
    shown = game.extra.get("seed_game")
    return shown if isinstance(shown, int) and not isinstance(shown, bool) else game.id


def round_cut(game: Any, number: int) -> str | None:
    """Round ``number``'s cut in a game dealt with cuts (``game.extra["cuts"]``, one per
    round dealt; in a version-2 game one for every round), else ``None``."""
    cuts = game.extra.get("cuts")
    if not isinstance(cuts, list) or not cuts or number < 1:
        return None
    if version(game) == 2:
        return str(cuts[0])
    if number > len(cuts):
        return None
    return str(cuts[number - 1])


def next_seal(
    game: Any, round_number: int, seat: int, move: dict[str, Any], auto: bool = False
) -> tuple[str, int] | None:
    """The hash a move would get on the game's sealed log and its order number, without
    changing the game (the move may still be refused); ``None``: a game without a log."""
    head = live_head(game)
    if head is None:
        return None
    number = int(game.extra["seal"].get("moves", 0)) + 1
    if version(game) == 2:
        return link_v2(head, game.id, round_number, seat, auto, canonical(move), number), number
    return link(head, game.id, round_number, seat, canonical(move), number), number


def seal_move(
    game: Any, round_number: int, seat: int, move: dict[str, Any], auto: bool = False
) -> str | None:
    """Chain a move onto a game's sealed log (``game.extra["seal"]``): its hash, to store
    with the move in the same transaction, or ``None`` for a game without a log."""
    sealed = next_seal(game, round_number, seat, move, auto)
    if sealed is None:
        return None
    game.extra["seal"] = {**game.extra["seal"], "head": sealed[0], "moves": sealed[1]}
    return sealed[0]
