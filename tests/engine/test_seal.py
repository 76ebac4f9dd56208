"""The sealed move log without Discord (bot/records/seal.py, record.py, verify --head): a
sealed record verifies against the head shown during play; any edit of its moves (swap,
change, drop, add) fails against that head, even where the replay alone would pass; a
record without a chain (an older game) still verifies, with its weaker guarantee said."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.__main__ import main
from bot.engine import Match, Move
from bot.engine.round import Round
from bot.models import VARIANT_NAMES, Game, GameOptions, Seat, Status
from bot.moves import auto_move
from bot.records.cli import verify_file
from bot.records.deals import round_seed, seed_commitment
from bot.records.record import GameRecord, RecordError, read
from bot.records.seal import canonical, chain, link, matches_head, next_seal, origin
from bot.storage import StoredMove
from tests.engine.test_records import played

CUT = "start:1456074443980800118"


def sealed(
    variant: str = "swedish",
    seed: object = "seal-seed",
    target: int = 5,
    cut: str = CUT,
    players: int = 2,
) -> GameRecord:
    """A finished game's record (anna against computers), dealt with the players' cut and
    its moves sealed as ``GameService.play`` does: before each move the head it will give
    is the engine's cut for the next round, should the move end this one."""
    options = GameOptions(variant=variant, target=target).for_players(players)
    seats = [Seat(111, "anna"), *(Seat.computer("normal", n) for n in range(1, players))]
    game = Game(9, 1, 2, 100, options, seats)
    game.status = Status.PLAYING
    game.match = match = Match.start(options.rules(players), players, seed=seed, cut=cut)
    game.extra.update(cuts=[cut], seal={"moves": 0})
    rows = []
    while not match.is_over:
        move = auto_move(match.round, "test")
        seat, number, whole = match.round.to_move, match.rounds_played + 1, move.to_dict()
        head, order = next_seal(game, number, seat, whole) or ("", 0)
        match.cut = head
        match.play(move)
        game.extra["seal"] = {"head": head, "moves": order}
        if match.rounds_played == number and not match.is_over:
            game.extra["cuts"].append(head)
        rows.append(StoredMove(order, seat, str(move.card), "", False, 1.0, number,
                               json.dumps(whole), head))  # fmt: skip
    game.status = Status.FINISHED
    return GameRecord.from_game(game, rows, 2.0)


RECORD = sealed(target=11)
EXPORTED = json.loads(RECORD.to_json())
HEAD = RECORD.heads()[-1]


def _verify(data: dict[str, Any], tmp: Path, head: str | None = HEAD) -> tuple[int, str]:
    path = tmp / "game.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    return verify_file(str(path), out, head=head), out.getvalue()


def test_the_chain_is_the_documented_hash() -> None:
    record = RECORD
    start = origin(record.game_id, seed_commitment(record.seed, record.game_id), CUT)
    assert record.heads()[0] == start
    first = record.moves[0]
    text = canonical(first.move.to_dict())
    assert " " not in text and text == json.dumps(
        first.move.to_dict(), sort_keys=True, separators=(",", ":")
    )
    assert record.heads()[1] == link(start, record.game_id, first.round, first.seat, text, 1)
    assert record.seals == record.heads()[1:]
    assert EXPORTED["schema"] == 3 and EXPORTED["chain"]["head"] == HEAD
    assert [m["seal"] for m in EXPORTED["moves"]] == record.seals


def test_a_sealed_record_verifies_against_the_head_shown(tmp_path: Path) -> None:
    # a game sealed before the whole match was: its last head proves the moves, not who
    # sat where nor the result, and the exit code says so (2)
    code, out = _verify(EXPORTED, tmp_path, head=HEAD[:16].upper())
    assert code == 2, out
    assert f"seals all {len(RECORD.moves)} moves" in out and "are not proved" in out
    # an earlier head (a table seen mid-game) proves only the moves up to it: exit code 2
    code, out = _verify(EXPORTED, tmp_path, head=RECORD.heads()[5][:20])
    assert code == 2 and "proves only the first 5 moves" in out
    # too short or not hex: refused
    for bad in (HEAD[:15], "z" * 16, ""):
        assert _verify(EXPORTED, tmp_path, head=bad)[0] == 1
    # through the command line
    path = tmp_path / "game.json"
    assert main(["verify", str(path), "--head", HEAD[:16]]) == 2
    assert main(["verify", str(path), "--head", "0" * 16]) == 1


def _edited(data: dict[str, Any], kind: str, i: int, j: int) -> dict[str, Any] | None:
    """``data`` with its move list edited: ``swap`` moves i and j, ``change`` move i into
    move j's, ``drop`` move i, ``add`` a copy of move j after i; ``None`` if no change."""
    moves = [dict(m) for m in data["moves"]]
    if kind == "swap":
        moves[i], moves[j] = moves[j], moves[i]
    elif kind == "change":
        moves[i] = {**moves[i], "move": moves[j]["move"]}
    elif kind == "drop":
        del moves[i]
    else:
        moves.insert(i + 1, dict(moves[j]))
    if [(m["seat"], m["round"], m["move"]) for m in moves] == [
        (m["seat"], m["round"], m["move"]) for m in data["moves"]
    ]:
        return None
    return {**data, "moves": moves}


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    kind=st.sampled_from(["swap", "change", "drop", "add"]),
    i=st.integers(0, len(RECORD.moves) - 1),
    j=st.integers(0, len(RECORD.moves) - 1),
    recompute=st.booleans(),
)
# found by Hypothesis: a copy of a move added after the last one, the seals recomputed
@example(kind="add", i=len(RECORD.moves) - 1, j=48, recompute=True)
def test_any_edit_of_the_moves_fails_against_the_head(
    tmp_path: Path, kind: str, i: int, j: int, recompute: bool
) -> None:
    edited = _edited(EXPORTED, kind, i, j)
    if edited is None:
        return
    if recompute:
        # a forger who rewrites every seal and the chain to match the edited moves: the
        # file is then consistent, but its head is not the one the players saw
        record = GameRecord.from_dict(edited)
        heads = record.heads()
        seals = zip(edited["moves"], heads[1:], strict=True)
        edited["moves"] = [{**m, "seal": h} for m, h in seals]
        edited["chain"] = {**edited["chain"], "head": heads[-1]}
    code, out = _verify(edited, tmp_path)
    assert code == 1, out
    # not only the replay: the chain itself refuses it (or, its head cutting the rounds
    # after, the file's later cuts no longer follow from its moves)
    try:
        record, _ = read(json.dumps(edited))
    except RecordError as error:
        assert "cut" in str(error)
        return
    if kind == "add" and i == len(RECORD.moves) - 1 and recompute:
        # a move added after the last one: the head the players saw seals exactly the
        # moves before it (a chain of version 1 has no final head to say the match ended
        # there), so the chain is consistent and the replay is what refuses the added move
        assert record.sealed_by(HEAD) == len(RECORD.moves) and "already over" in out
        return
    assert record.chain_problems(HEAD)


def _same_result_forgery(record: GameRecord) -> dict[str, Any] | None:
    """The record's export with one move replaced by another legal one such that the whole
    game still replays to the same scores and winner (the seals left as they were)."""
    data = json.loads(record.to_json())
    match = record.start()
    for index, recorded in enumerate(record.moves):
        for other in match.round.legal_moves():
            if other.to_dict() == recorded.move.to_dict():
                continue
            moves = [dict(m) for m in data["moves"]]
            moves[index] = {**moves[index], "move": other.to_dict()}
            forged = {**data, "moves": moves}
            unsealed = GameRecord.from_dict({**forged, "chain": None})
            if unsealed.verify() == []:
                return forged
        match.play(recorded.move)
    return None


def test_an_edit_that_scores_the_same_still_fails(tmp_path: Path) -> None:
    """A move replaced by another legal one (a jack trailed instead of taking a jack) and
    the game still ends the same: the replay alone passes, the sealed log does not."""
    forged = _same_result_forgery(sealed("swedish", "s0"))
    assert forged is not None
    code, out = _verify(forged, tmp_path, head=None)
    assert code == 1 and "seal" in out, out
    # rewriting every seal and the head to match: the head the players saw refuses it
    record = GameRecord.from_dict(forged)
    heads = record.heads()
    forged["moves"] = [{**m, "seal": h} for m, h in zip(forged["moves"], heads[1:], strict=True)]
    forged["chain"] = {**forged["chain"], "head": heads[-1]}
    assert _verify(forged, tmp_path, head=None)[0] == 0  # consistent in itself
    seen = sealed("swedish", "s0").heads()[-1]
    code, out = _verify(forged, tmp_path, head=seen[:16])
    assert code == 1 and "not the match that was played" in out
    # passing it off as an older, unsealed record: the head cannot be checked, so it fails
    old = {**forged, "chain": None, "moves": [{k: v for k, v in m.items() if k != "seal"}
                                              for m in forged["moves"]]}  # fmt: skip
    code, out = _verify(old, tmp_path, head=seen[:16])
    assert code == 1 and "no sealed move log" in out


def test_an_unsealed_record_verifies_with_its_weaker_guarantee(tmp_path: Path) -> None:
    game = played("swedish", "old-seed")  # its log has no seals: a game from before
    old = GameRecord.from_game(game, game.extra["log"], 2.0)
    assert not old.sealed
    data = json.loads(old.to_json())
    assert data["chain"] is None and "seal" not in data["moves"][0]
    code, out = _verify(data, tmp_path, head=None)
    assert code == 0 and "No sealed move log" in out and "legal game" in out
    # a head cannot be checked against it
    code, out = _verify(data, tmp_path, head="0" * 16)
    assert code == 1 and "no sealed move log" in out
    # a schema-1 file (exported before the seal) reads and verifies the same
    first = {k: v for k, v in data.items() if k != "chain"}
    first["schema"] = 1
    code, out = _verify(first, tmp_path, head=None)
    assert code == 0 and "No sealed move log" in out


def test_matches_head_wants_sixteen_hex_digits() -> None:
    full = chain(1, "c", [(1, 0, Move.from_dict(EXPORTED["moves"][0]["move"]).to_dict())])[-1]
    assert matches_head(full, full) and matches_head(full, full[:16])
    assert not matches_head(full, full[:15]) and not matches_head(full, "x" + full[1:])


# ------------------------------------------------------------- the players' cut


RULES = GameOptions(variant="swedish").rules(2)
DEALT = Match.start(RULES, 2, seed="same-seed", cut=CUT).round


@settings(max_examples=40, deadline=None)
@given(other=st.one_of(st.none(), st.text(max_size=30), st.integers(0, 2**64).map(str)))
def test_the_deal_depends_on_the_players_cut(other: str | None) -> None:
    """The same seed with another cut (or none) deals otherwise: without the players'
    click nobody, the bot included, can reproduce a deal from the seed alone."""
    if other == CUT:
        return
    again = Match.start(RULES, 2, seed="same-seed", cut=other).round
    assert (again.hands, again.table) != (DEALT.hands, DEALT.table)
    assert RECORD.round_seed(1) == f"seal-seed/0/{CUT}" == round_seed("seal-seed", 1, CUT)


def test_each_later_round_is_cut_by_the_moves_of_the_round_before() -> None:
    record = RECORD
    assert record.rounds >= 2
    heads = record.heads()
    data = json.loads(record.to_json())
    for number in range(2, record.rounds + 1):
        last = max(i for i, m in enumerate(record.moves, 1) if m.round == number - 1)
        assert record.round_cut(number) == heads[last]
        entry = data["rounds"][number - 1]
        assert entry["cut"] == heads[last] and entry["cut_by"] == "moves"
        assert entry["seed"] == f"seal-seed/{number - 1}/{heads[last]}"
    assert data["cut"] == CUT and data["rounds"][0]["cut_by"] == "start"
    # the replay deals round 2 exactly as Round.deal does from that seed
    match = record.start()
    first_of_two = next(i for i, m in enumerate(record.moves) if m.round == 2)
    for number in range(1, first_of_two + 1):
        record._play(match, number)
    deal = Round.deal(
        match.rules, 2, match.round.dealer, seed=record.round_seed(2), scores=match.banked
    )
    assert (deal.hands, deal.table) == (match.round.hands, match.round.table)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(cut=st.text(min_size=1, max_size=40), round_index=st.integers(0, 5))
def test_a_changed_cut_fails(tmp_path: Path, cut: str, round_index: int) -> None:
    """Another cut for round 1 (with its seeds and commitments rewritten to match) or for
    any round: verify fails."""
    data = json.loads(json.dumps(EXPORTED))
    rounds = data["rounds"]
    index = round_index % len(rounds)
    if rounds[index]["cut"] == cut:
        return
    rounds[index]["cut"] = cut
    assert _verify(data, tmp_path)[0] == 1
    if index == 0 and cut != data["cut"]:
        # a consistent forgery of round 1's cut: the file's own seeds and commitments agree
        forged = {**EXPORTED, "cut": cut}
        record = GameRecord.from_dict(forged)
        forged["rounds"] = [record._round_dict(n) for n in range(1, record.rounds + 1)]
        code, out = _verify(forged, tmp_path)
        assert code == 1, out


@pytest.mark.parametrize("variant", sorted(VARIANT_NAMES))
def test_every_variant_seals_and_verifies_after_export(variant: str) -> None:
    """The hash of a move as played is the hash of the move read back from its stored and
    exported JSON (builds, Swazi's table builds, Krypkasino's takes), in every variant."""
    record = sealed(variant, f"{variant}-seed", players=4 if variant == "casino" else 2)
    loaded, commitments = read(record.to_json())
    assert loaded.verify(commitments, loaded.heads()[-1][:16]) == []
    assert loaded.seals == record.seals == record.heads()[1:]
