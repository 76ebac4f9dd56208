"""The whole match sealed (issue 39 §2; bot/records/seal.py version 2, verify --head): the
final head the end message shows binds the seats, rules, options, every move and how it
was made, the round scores and the result. Each forgery the issue lists, made consistent
in itself (every seal and the chain rewritten), fails against the final head players saw;
an earlier head proves only a prefix and says so in its exit code; a forgotten person's
seat keeps the seal."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.engine import Match
from bot.models import Game, GameOptions, Seat, Status
from bot.moves import auto_move
from bot.records.cli import FAILED, OK, PARTLY, verify_file
from bot.records.deals import seed_commitment
from bot.records.record import GameRecord
from bot.records.seal import (
    forget_seat,
    live_final,
    next_seal,
    origin_v2,
    players_cut,
    seat_tag,
)
from bot.storage import StoredMove
from tests.engine.test_seal import EXPORTED as OLD_EXPORTED
from tests.engine.test_seal import HEAD as OLD_HEAD

CUT = players_cut("start:1456074443980800118", {0: 7, 1: 19})
SALTS = {"0": "a1" * 16, "1": "b2" * 16}


def whole_match(
    target: int = 5, seed: object = "whole-seed", autos: frozenset[int] = frozenset()
) -> tuple[Game, GameRecord]:
    """anna against bjorn, dealt and sealed as ``GameService`` does since the whole match
    is sealed (version 2: every round by the cut fixed at Start); ``autos``: the move
    numbers the bot made for a player out of time."""
    options = GameOptions(variant="swedish", target=target)
    game = Game(9, 1, 2, 111, options, [Seat(111, "anna"), Seat(222, "bjorn")])
    game.status = Status.PLAYING
    game.match = match = Match.start(options.rules(2), 2, seed=seed, cut=CUT)
    game.extra.update(cuts=[CUT], seal={"moves": 0, "v": 2}, salts=dict(SALTS))
    rows = []
    while not match.is_over:
        match.cut = CUT
        move = auto_move(match.round, "test")
        seat, number, whole = match.round.to_move, match.rounds_played + 1, move.to_dict()
        auto = len(rows) + 1 in autos
        head, order = next_seal(game, number, seat, whole, auto) or ("", 0)
        match.play(move)
        game.extra["seal"] = {**game.extra["seal"], "head": head, "moves": order}
        rows.append(StoredMove(order, seat, str(move.card), "", auto, 1.0, number,
                               json.dumps(whole), head))  # fmt: skip
    game.status = Status.FINISHED
    return game, GameRecord.from_game(game, rows, 2.0)


GAME, RECORD = whole_match(target=11, autos=frozenset({3, 4}))
EXPORTED = json.loads(RECORD.to_json())
FINAL = live_final(GAME) or ""  # what the end message showed (its first 32 hex digits)


def _verify(data: dict[str, Any], tmp: Path, head: str | None, seed: str | None = None):
    path = tmp / "game.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    return verify_file(str(path), out, head=head, seed=seed), out.getvalue()


def resealed(data: dict[str, Any]) -> dict[str, Any]:
    """A forger's finish: every seal, the chain and its final head rewritten to match the
    forged file, so it is consistent in itself."""
    record = GameRecord.from_dict(data)
    heads = record.heads()
    moves = [{**m, "seal": h} for m, h in zip(data["moves"], heads[1:], strict=True)]
    return {**data, "moves": moves, "chain": record.chain_dict()}


def test_the_final_head_is_the_documented_hash() -> None:
    assert FINAL and FINAL == RECORD.final() == EXPORTED["chain"]["final"]
    assert EXPORTED["schema"] == 3 and EXPORTED["chain"]["version"] == 2
    header = RECORD.header()
    assert header["seats"][0]["tag"] == seat_tag(9, 0, 111, SALTS["0"])
    assert header["cut"] == CUT == "players;0=7;1=19"  # no click id, no user id
    assert header["seed_commitment"] == seed_commitment("whole-seed", 9)
    assert RECORD.heads()[0] == origin_v2(9, header)
    assert EXPORTED["seats"][0]["salt"] == SALTS["0"] and "tag" not in EXPORTED["seats"][0]
    assert EXPORTED["result"]["ended"] == "won"
    # every round cut by the same cut, fixed at Start
    assert {r["cut"] for r in EXPORTED["rounds"]} == {CUT} and RECORD.rounds >= 2


def test_the_final_head_proves_the_whole_match(tmp_path: Path) -> None:
    code, out = _verify(EXPORTED, tmp_path, FINAL[:32])
    assert code == OK, out
    assert "the round scores and the result are the ones played" in out
    assert "the cuts of seat 0 (7) and seat 1 (19): the bot could not choose" in out
    # an earlier head proves only the first moves: exit code 2, said in words too
    code, out = _verify(EXPORTED, tmp_path, RECORD.heads()[-1][:16])
    assert code == PARTLY and f"only the first {len(RECORD.moves)} moves" in out
    code, out = _verify(EXPORTED, tmp_path, RECORD.heads()[10][:16])
    assert code == PARTLY and "only the first 10 moves" in out
    assert _verify(EXPORTED, tmp_path, "f" * 32)[0] == FAILED
    path = tmp_path / "game.json"
    assert main(["verify", str(path), "--head", FINAL[:16]]) == OK
    assert main(["verify", str(path), "--head", RECORD.heads()[1][:16]]) == PARTLY


def _swap_seats(data: dict[str, Any]) -> dict[str, Any]:
    seats = [dict(s) for s in data["seats"]]
    for key in ("name", "user_id", "salt"):
        seats[0][key], seats[1][key] = seats[1][key], seats[0][key]
    return {**data, "seats": seats}


def _change_options(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "options": {**data["options"], "turn_seconds": 30}}


def _nonsense_round_scores(data: dict[str, Any]) -> dict[str, Any]:
    rounds = [[{"cards": 9} for _ in r] for r in data["result"]["round_scores"]]
    return {**data, "result": {**data["result"], "round_scores": rounds}}


def _all_auto(data: dict[str, Any]) -> dict[str, Any]:
    moves = [{**m, "auto": m["seat"] == 1} for m in data["moves"]]
    return {**data, "moves": moves}


def _no_auto(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "moves": [{**m, "auto": False} for m in data["moves"]]}


FORGERIES = {
    "another server's": lambda data: {**data, "guild": "42"},
    "seats swapped": _swap_seats,
    "options changed": _change_options,
    "round scores replaced": _nonsense_round_scores,
    "a seat's moves relabelled automatic": _all_auto,
    "the automatic moves relabelled as the player's": _no_auto,
}


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_each_forgery_fails_against_the_final_head(tmp_path: Path, forgery: str) -> None:
    forged = resealed(FORGERIES[forgery](EXPORTED))
    assert forged != EXPORTED
    code, out = _verify(forged, tmp_path, FINAL[:32])
    assert code == FAILED and "not the match that was played" in out, out
    # and no earlier head of the real match vouches for it either (h_0 binds the header)
    if forgery in ("seats swapped", "options changed", "another server's"):
        assert _verify(forged, tmp_path, RECORD.heads()[1][:16])[0] == FAILED


def test_a_raised_target_with_moves_appended_fails(tmp_path: Path) -> None:
    """The issue's forgery: the target raised and moves appended that play on to another
    result from the same seed and cut (a legal game in itself): the final head refuses it,
    and so does every earlier head of the real match (the header binds the rules)."""
    _, longer = whole_match(target=21, autos=frozenset({3, 4}))
    assert len(longer.moves) > len(RECORD.moves)
    assert [m.move for m in longer.moves[:5]] == [m.move for m in RECORD.moves[:5]]
    forged = json.loads(longer.to_json())
    assert _verify(forged, tmp_path, None)[0] == OK  # consistent in itself
    for seen in (FINAL[:32], RECORD.heads()[-1][:16], RECORD.heads()[5][:16]):
        code, out = _verify(forged, tmp_path, seen)
        assert code == FAILED, out


def test_the_old_chain_no_longer_vouches_for_seats_or_result(tmp_path: Path) -> None:
    """A game sealed before this change (version 1): the seats swapped and the round
    scores replaced passed ``verify --head`` with exit code 0 ("they are the ones played");
    now the round scores fail the replay, and the swapped seats get exit code 2 with the
    words that the seats are not proved."""
    swapped = {**OLD_EXPORTED, "seats": list(reversed(OLD_EXPORTED["seats"]))}
    code, out = _verify(swapped, tmp_path, OLD_HEAD[:16])
    assert code == PARTLY and "who sat where" in out
    code, out = _verify(_nonsense_round_scores(OLD_EXPORTED), tmp_path, OLD_HEAD[:16])
    assert code == FAILED and "round scores" in out


def test_a_forgotten_person_keeps_the_seal(tmp_path: Path) -> None:
    """Forget-me's part (``forget_seat``): the seat keeps its tag, the salt and the id go,
    and the export still verifies against the same final head."""
    game, _ = whole_match(target=11, autos=frozenset({3, 4}))
    rows = [
        StoredMove(i, m.seat, str(m.move.card), "", m.auto, 1.0, m.round,
                   json.dumps(m.move.to_dict()), seal)
        for i, (m, seal) in enumerate(zip(RECORD.moves, RECORD.seals or [], strict=True), 1)
    ]  # fmt: skip
    forget_seat(game.extra, game.id, 1, 222)
    game.seats[1].user_id, game.seats[1].name = None, ""  # what forget-me does to the seat
    assert "1" not in game.extra["salts"] and game.extra["seat_tags"]["1"]
    assert live_final(game) == FINAL
    exported = json.loads(GameRecord.from_game(game, rows, 2.0).to_json())
    assert exported["seats"][1]["user_id"] is None and "salt" not in exported["seats"][1]
    assert exported["seats"][1]["tag"] == seat_tag(9, 1, 222, SALTS["1"])
    assert '"222"' not in json.dumps(exported)  # the id is nowhere (as a JSON string)
    assert _verify(exported, tmp_path, FINAL[:32])[0] == OK


def test_a_seed_swapped_after_start_fails_against_the_commitment_sent(tmp_path: Path) -> None:
    """The issue's attack: the seed swapped after the commitment was sent (the match then
    played, sealed and exported from the other seed, consistent in itself): the final head
    of that match passes, the commitment each player was sent does not."""
    _, swapped = whole_match(target=11, seed="the operator's other seed")
    data = json.loads(swapped.to_json())
    sent = seed_commitment("whole-seed", 9)[:32]
    assert _verify(data, tmp_path, swapped.final())[0] == OK
    code, out = _verify(data, tmp_path, swapped.final(), seed=sent)
    assert code == FAILED and "not the one committed to" in out


def test_a_64_bit_shown_commitment_no_longer_suffices(tmp_path: Path) -> None:
    """Two seeds whose commitments share their first 64 bits cost the operator about 2^32
    hashes: a commitment given with 16 hex digits is reported as not proving the seed (exit
    code 2); the 32 the bot now shows must all match, so such a seed fails."""
    full = seed_commitment("whole-seed", 9)
    code, out = _verify(EXPORTED, tmp_path, FINAL[:32], seed=full[:16])
    assert code == PARTLY and "fewer than 32" in out
    collided = full[:16] + ("0" if full[16] != "0" else "1") + full[17:32]
    assert _verify(EXPORTED, tmp_path, FINAL[:32], seed=collided)[0] == FAILED
    assert _verify(EXPORTED, tmp_path, FINAL[:32], seed=full[:32].upper())[0] == OK


@pytest.mark.parametrize(
    ("status", "ended"),
    [(Status.STOPPED, "stopped"), (Status.ABANDONED, "abandoned"), (Status.STOPPED, "deadline")],
)
def test_a_game_ended_without_a_result_has_a_sealed_record(
    tmp_path: Path, status: Status, ended: str
) -> None:
    """Stopped, abandoned and tournament tables stopped at the deadline: their record holds
    the moves played and the scores as they stood, no winner; its final head seals how it
    ended, so passing it off as another ending fails."""
    game, full = whole_match(target=11)
    rows = [
        StoredMove(i, m.seat, str(m.move.card), "", m.auto, 1.0, m.round,
                   json.dumps(m.move.to_dict()), seal)
        for i, (m, seal) in enumerate(zip(full.moves, full.seals or [], strict=True), 1)
    ][:30]  # fmt: skip
    game.match = full.start()
    for number in range(1, 31):
        full._play(game.match, number)
    game.extra["seal"] = {"v": 2, "head": rows[-1].seal, "moves": 30}
    game.status = status
    if ended == "deadline":
        game.extra["ended"] = "deadline"
    record = GameRecord.from_game(game, rows)
    data = json.loads(record.to_json())
    assert data["result"]["ended"] == ended and data["result"]["winner"] is None
    final = live_final(game) or ""
    assert final == record.final()
    code, out = _verify(data, tmp_path, final[:32], seed=seed_commitment("whole-seed", 9)[:32])
    assert code == OK, out
    other = "stopped" if ended != "stopped" else "abandoned"
    forged = resealed({**data, "result": {**data["result"], "ended": other}})
    assert _verify(forged, tmp_path, final[:32])[0] == FAILED
    won = resealed({**data, "result": {**data["result"], "ended": "won", "winner": 0}})
    assert _verify(won, tmp_path, None)[0] == FAILED  # the replay is not over


def test_the_worked_example_in_record_md_is_right() -> None:
    """docs/record.md's worked example: rebuilt from its seed, seat salt and cut, every
    value it prints is the one the code gives."""
    cut = players_cut("start:1456074443980800118", {0: 7})
    options = GameOptions(variant="swedish", target=11)
    seats = [Seat(111, "anna"), Seat.computer("normal")]
    game = Game(9, 1234567890, 1234567891, 111, options, seats)
    game.status = Status.PLAYING
    seed = "5f0c3b1e9a7d4c2f8e6b0a1d3c5e7f90"
    game.match = match = Match.start(options.rules(2), 2, seed=seed, cut=cut)
    salt = "3f1e0c5a9b7d2e4f6a8c0b1d3e5f7a9c"
    game.extra.update(cuts=[cut], seal={"moves": 0, "v": 2}, salts={"0": salt})
    rows = []
    while not match.is_over:
        match.cut = cut
        move = auto_move(match.round, "doc")
        seat, number, whole = match.round.to_move, match.rounds_played + 1, move.to_dict()
        head, order = next_seal(game, number, seat, whole) or ("", 0)
        match.play(move)
        game.extra["seal"] = {**game.extra["seal"], "head": head, "moves": order}
        rows.append(StoredMove(order, seat, str(move.card), "", False, 1.0, number,
                               json.dumps(whole), head))  # fmt: skip
    game.status = Status.FINISHED
    record = GameRecord.from_game(game, rows, 2.0)
    doc = (Path(__file__).resolve().parents[2] / "docs" / "record.md").read_text("utf-8")
    heads = record.heads()
    values = [
        record.seed_commitment(), record.commitment(1), record.commitment(2),
        seat_tag(9, 0, 111, salt), heads[0], heads[1], heads[2], heads[-1],
        record.final() or "", record.round_seed(2),
    ]  # fmt: skip
    for value in values:
        assert value in doc, value
    assert len(record.moves) == 96 and record.scores == [19, 4]
