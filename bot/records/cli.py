"""``python -m bot verify FILE`` and ``python -m bot replay FILE``: a game's exported record
(``/kasino export``) checked, or played back in a terminal, with no Discord and no
database."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, TextIO

from bot.i18n import EN
from bot.records.record import GameRecord, RecordError, read
from bot.records.seal import cuts_in, matches_head, shown
from bot.render import side_name, signed, total, variant_name


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


# how the match ended, as verify says it
ENDED = {
    "won": "winner: side {winner}",
    "stopped": "stopped before its end: no winner, the scores as they stood",
    "abandoned": "abandoned (a player missed their turns): no winner, the scores as they stood",
    "deadline": "stopped at its tournament round's deadline, which decides the table by"
    " these scores",
}
OK, FAILED, PARTLY = 0, 1, 2  # verify's exit codes: all proved, failed, only part proved
SEED_SHOWN = 32  # hex digits of a seed commitment that resist the operator (128 bits)


def verify_file(
    path: str, out: TextIO | None = None, head: str | None = None, seed: str | None = None
) -> int:
    """Check every round's commitment against its seed, replay every move through the
    engine to the record's final scores, and recompute the sealed log (``head``: the one a
    player saw; ``seed``: the seed's commitment they were sent). Prints OK and what it
    proved, or what failed. Exit code :data:`OK` (0) when everything given is proved,
    :data:`FAILED` (1), or :data:`PARTLY` (2): the head proves only some moves, or the
    record cannot prove the whole match (an older game), or the commitment given is too
    short to resist whoever runs the bot."""
    out = out or sys.stdout
    loaded = _load(path, out)
    if loaded is None:
        return FAILED
    record, commitments = loaded
    problems = record.verify(commitments, head)
    problems += seed_problems(record, seed)
    if problems:
        for problem in problems:
            print(f"FAILED: {problem}", file=out)
        return FAILED
    print(
        f"OK: game #{record.game_id}, {record.rounds} rounds: every deal matches its"
        f" commitment and all {len(record.moves)} moves replay to {record.scores}"
        f" ({ENDED[record.ended].format(winner=record.winner)}).",
        file=out,
    )
    lines, code = guarantees(record, head, seed)
    for line in lines:
        print(line, file=out)
    return code


def seed_problems(record: GameRecord, seed: str | None) -> list[str]:
    """What is wrong with the seed commitment a player gives (``--seed``): it must be the
    start (16 hex digits or more) of the record's."""
    if seed is None:
        return []
    # a tournament's table: the commitment each entrant was sent is the tournament's
    table = record.tournament
    full = str(table["commitment"]) if table is not None else record.seed_commitment()
    if not matches_head(full, seed):
        return [
            f"the seed commitment {seed.strip()[:64]} is not this record's ({shown(full)}):"
            " the seed was not the one committed to"
        ]
    return []


def guarantees(
    record: GameRecord, head: str | None, seed: str | None = None
) -> tuple[list[str], int]:
    """What a verified record proves, in lines, and the exit code: a record sealed whole
    (given its final head) the match played; an earlier head, or an older record's, only
    part of it; and who could have chosen the deals."""
    lines = [cut_words(record)]
    code = OK
    table = record.tournament
    if table is not None and table.get("seed") is not None:
        lines.append(
            f"Tournament #{table['id']}, round {table['round']}, table {table['table']}: the"
            " table's seed is derived from the tournament's, committed to when its sign-up"
            f" opened ({shown(str(table['commitment']))}: check it is the one you were sent,"
            " --seed), and the round and table number, which come from the documented"
            " pairing."
        )
    elif table is not None:
        lines.append(
            f"Tournament #{table['id']}, round {table['round']}, table {table['table']}: the"
            " table's seed is derived from the tournament's, which is revealed when the"
            " tournament is over: export this game again then to check that."
        )
        if seed is not None:
            code = PARTLY
    if seed is not None and len(seed.strip()) < SEED_SHOWN:
        lines.append(
            f"The seed commitment you gave has {len(seed.strip())} hex digits: fewer than"
            f" {SEED_SHOWN} (128 bits) do not stop whoever runs the bot from finding another"
            " seed that starts the same."
        )
        code = PARTLY
    if not record.sealed:
        lines.insert(
            0,
            "No sealed move log: this game was dealt before moves were sealed. The record"
            " proves a legal game dealt from the committed deals, not that these are the"
            " moves played in this order (any legal sequence with these deals would pass).",
        )
        return lines, code
    heads = record.heads()
    final = record.final()
    if final is not None:
        lines.append(f"Match sealed: final head {final} (the players were shown {shown(final)}).")
    else:
        lines.append(f"Sealed move log: head {heads[-1]} (the table showed {heads[-1][:16]}).")
    if head is None:
        lines.append(
            "Give the final head you saw in your hand view at the end (--head HEX) to prove this is"
            " the match that was played."
        )
        return lines, code
    if record.is_final(head):
        lines.append(
            "The head you saw is the final head: the seats, rules, options, every move (and"
            " whether the bot made it for a player), the round scores and the result are the"
            " ones played."
        )
        return lines, code
    sealed = record.sealed_by(head) or 0
    if final is None and sealed == len(record.moves):
        lines.append(
            f"The head you saw seals all {sealed} moves, in order: they are the ones played."
            " This game was dealt before the whole match was sealed: who sat where, the"
            " rules, whether the bot made a move and the scores are not proved by it."
        )
    elif sealed == len(record.moves):
        lines.append(
            f"The head you saw is the last move's (a table's): it proves only the first"
            f" {sealed} moves, all of them, but not the seats, rules, options nor the result."
            " Give the final head from your hand view at the end to prove the whole match."
        )
    else:
        lines.append(
            f"The head you saw proves only the first {sealed} moves, not the rest of the"
            " record. Give the final head from your hand view at the end to prove the whole match."
        )
    return lines, PARTLY


def cut_words(record: GameRecord) -> str:
    """Who could have chosen the deals, in a sentence (docs/record.md, the threat model)."""
    rounds = f"Rounds 1–{record.rounds}" if record.rounds > 1 else "Round 1"
    table = record.tournament
    committed = shown(str(table["commitment"]) if table else record.seed_commitment())
    if record.cut is None:
        return (
            "Dealt from the seed alone (before the players' cut): each deal is the one"
            " committed to, but whoever runs the bot could have chosen the seed."
        )
    if record.chain_version != 2:
        return (
            f"Round 1 cut by the click that dealt it ({record.cut}), each later round by the"
            " sealed moves of the round before: only the bot sees a click's id, and a"
            " computer's or an automatic last move cut the next round, so whoever runs the"
            " bot could have chosen these deals."
        )
    cuts = cuts_in(record.cut)
    if cuts:
        listed = " and ".join(f"seat {seat} ({number})" for seat, number in cuts.items())
        return (
            f"{rounds} dealt from the seed committed before anyone cut (commitment"
            f" {committed}, check it is the one you were sent: --seed) and the cuts of"
            f" {listed}: the bot could not choose these deals (only someone who knew the"
            " seed and cut after you could have steered them, among 25)."
        )
    if record.cut == "table:-":
        return (
            f"No player cut the deck: {rounds.lower()} dealt from the table's seed alone,"
            " derived from the tournament's committed seed (below)."
        )
    if record.cut.startswith("table:"):
        return (
            "No player cut the deck: the deals depend on the seed and the id Discord gave"
            " the table's thread, which the bot knew before it drew the seed; whoever runs"
            " the bot could have chosen them."
        )
    click = "Rematch click" if record.cut.startswith("rematch:") else "Start click"
    return (
        f"No player cut the deck: the deals depend on the seed (commitment {committed})"
        f" and the {click}'s id, which only the bot sees; whoever runs the bot could have"
        " chosen them."
    )


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
            f"{side_name(game, side, EN)} {total(score)}"
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
        f"{side_name(game, side, EN)} {total(score)}" for side, score in enumerate(match.scores)
    )
    if record.ended != "won":
        print(f"Final: {final}. {ENDED[record.ended].format(winner='')} (as recorded).", file=out)
        return 0
    winner = side_name(game, match.winner, EN) if match.winner is not None else "nobody"
    print(f"Final: {final}. {winner} wins (as recorded).", file=out)
    return 0
