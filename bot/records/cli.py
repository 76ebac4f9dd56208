"""``python -m bot verify FILE`` and ``python -m bot replay FILE``: a game's exported record
(``/kasino export``) checked, or played back in a terminal, with no Discord and no
database."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, TextIO

from bot.i18n import EN
from bot.records.record import GameRecord, RecordError, read
from bot.render import side_name, signed, variant_name


def _load(path: str, out: TextIO) -> tuple[GameRecord, list[Any]] | None:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"FAILED: cannot read {path}: {error}", file=out)
        return None
    try:
        return read(text)
    except RecordError as error:
        print(f"FAILED: {path}: {error}", file=out)
        return None


def verify_file(path: str, out: TextIO | None = None, head: str | None = None) -> int:
    """Check every round's commitment against its seed, replay every move through the
    engine to the record's final scores, and recompute the sealed move log (``head``: the
    one a player saw, which must be one of its heads): print OK and what the record
    guarantees (exit code 0) or what failed (1)."""
    out = out or sys.stdout
    loaded = _load(path, out)
    if loaded is None:
        return 1
    record, commitments = loaded
    problems = record.verify(commitments, head)
    if problems:
        for problem in problems:
            print(f"FAILED: {problem}", file=out)
        return 1
    print(
        f"OK: game #{record.game_id}, {record.rounds} rounds: every deal matches its"
        f" commitment and all {len(record.moves)} moves replay to {record.scores}"
        f" (winner: side {record.winner}).",
        file=out,
    )
    for line in guarantees(record, head):
        print(line, file=out)
    return 0


def guarantees(record: GameRecord, head: str | None) -> list[str]:
    """What a verified record proves, in lines: a sealed one its moves' order (and, given
    a head a player saw, that they are the moves played); an older one only a legal game
    from committed deals."""
    if record.cut is None:
        cut = (
            "Dealt from the seed alone (before the players' cut): each deal is the one"
            " committed to, but the bot drew the seed without the players' part."
        )
    else:
        cut = (
            f"Cut by the players: round 1 by the click that dealt it ({record.cut}), each"
            " later round by the sealed moves of the round before, after the seed was"
            " committed to: neither the host nor the bot could choose a deal."
        )
    if not record.sealed:
        return [
            "No sealed move log: this game was dealt before moves were sealed. The record"
            " proves a legal game dealt from the committed deals, not that these are the"
            " moves played in this order (any legal sequence with these deals would pass).",
            cut,
        ]
    heads = record.heads()
    lines = [cut, f"Sealed move log: head {heads[-1]} (the table showed {heads[-1][:16]})."]
    if head is None:
        lines.append(
            "Give the head you saw (--head HEX) to prove these are the moves that were played."
        )
        return lines
    sealed = record.sealed_by(head) or 0
    if sealed == len(record.moves):
        lines.append(f"The head you saw seals all {sealed} moves: they are the ones played.")
    else:
        lines.append(
            f"The head you saw seals the first {sealed} moves: they are the ones played;"
            " the later ones are checked only by the replay."
        )
    return lines


def replay_file(path: str, out: TextIO | None = None) -> int:
    """Play a record back: each move in words, a line per finished round, the final scores
    (which must be the record's: exit code 0, else 1)."""
    out = out or sys.stdout
    loaded = _load(path, out)
    if loaded is None:
        return 1
    record, _ = loaded
    game = record.game_at(record.start())
    names = ", ".join(seat.name for seat in game.seats)
    variant = variant_name(str(record.options.get("variant", "")), EN)
    print(f"Game #{record.game_id}: {variant} to {game.match.rules.target}, {names}", file=out)
    print(f"Round 1 (commitment {record.commitment(1)})", file=out)

    rounds = [0]  # rounds finished so far

    def on_move(number: int, match: Any, play: Any, words: str) -> None:
        print(f"{number:4}. {words}", file=out)
        if match.rounds_played == rounds[0] and not match.is_over:
            return
        ended = rounds[0] + 1
        rounds[0] = match.rounds_played
        points = [s.total for s in match.round_scores[-1]] if match.round_scores else []
        totals = " · ".join(
            f"{side_name(game, side, EN)} {score}"
            + (f" ({signed(points[side])})" if side < len(points) else "")
            for side, score in enumerate(match.scores)
        )
        print(f"Round {ended} is over: {totals}", file=out)
        if not match.is_over:
            print(f"Round {ended + 1} (commitment {record.commitment(ended + 1)})", file=out)

    try:
        match = record.replay(on_move)
    except RecordError as error:
        print(f"FAILED: {error}", file=out)
        return 1
    final = " · ".join(
        f"{side_name(game, side, EN)} {score}" for side, score in enumerate(match.scores)
    )
    winner = side_name(game, match.winner, EN) if match.winner is not None else "nobody"
    print(f"Final: {final}. {winner} wins (as recorded).", file=out)
    return 0
