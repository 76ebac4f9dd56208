"""Game records without Discord (bot/records/record.py, bot/records/deals.py,
python -m bot verify/replay):
every variant's finished match replays to its end and verifies; a changed seed, card or
commitment fails; an unfinished game has no record, so nothing of its hidden cards can
leave; the CLI answers with its exit code."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.__main__ import main
from bot.engine import Match, Move
from bot.models import VARIANT_NAMES, Game, GameOptions, Seat, Status
from bot.moves import auto_move
from bot.records.cli import verify_file
from bot.records.deals import commitment, new_seed, round_seed
from bot.records.record import GameRecord, NoRecord, RecordError, read
from bot.storage import StoredMove


def played(variant: str, seed: object, players: int = 2, stop: int | None = None) -> Game:
    """A game of ``variant`` played with the safe move to its end (or ``stop`` moves), and
    its move log as the storage keeps it (``game.extra['log']``)."""
    options = GameOptions(variant=variant, target=5)
    options = options.for_players(players)
    match = Match.start(options.rules(players), players, seed=seed)
    rows = []
    while not match.is_over and (stop is None or len(rows) < stop):
        move = auto_move(match.round, "test")
        seat, number = match.round.to_move, match.rounds_played + 1
        match.play(move)
        rows.append(
            StoredMove(len(rows) + 1, seat, str(move.card), "", False, 1.0, number,
                       json.dumps(move.to_dict()))
        )  # fmt: skip
    seats = [Seat(100 + i, f"p{i}") for i in range(players)]
    status = Status.FINISHED if match.is_over else Status.PLAYING
    game = Game(9, 1, 2, 100, options, seats, status=status, match=match)
    game.extra["log"] = rows
    return game


def record_of(game: Game) -> GameRecord:
    return GameRecord.from_game(game, game.extra["log"], 2.0)


@pytest.mark.parametrize("variant", sorted(VARIANT_NAMES))
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**64 - 1))
def test_every_variant_replays_and_verifies(variant: str, seed: int) -> None:
    # drawn seeds (hypothesis names and shrinks one that fails) rather than new_seed()'s
    # text, which a failure could not be repeated from
    game = played(variant, seed, players=4 if variant == "casino" else 2)
    record = record_of(game)
    loaded, commitments = read(record.to_json())
    assert loaded.verify(commitments) == []
    end = loaded.replay()
    assert end.scores == game.match.scores and end.winner == game.match.winner
    middle = loaded.state_at(len(loaded.moves) // 2)
    assert middle.text and middle.commitment == loaded.commitment(middle.round)
    assert sum(map(len, middle.game.match.round.hands)) >= 0


def test_a_penalty_game_below_zero_reads_and_verifies() -> None:
    """Krypkasino's reward can take a final score below zero (seed 144 ends [-2, 44]): its
    record reads and verifies; a game where the highest wins has no such score."""
    game = played("krypkasino", 144)
    assert min(game.match.scores) < 0
    loaded, commitments = read(record_of(game).to_json())
    assert loaded.scores == game.match.scores and loaded.verify(commitments) == []
    data = json.loads(record_of(played("swedish", "fixed-seed")).to_json())
    data["result"]["scores"][0] = -2
    with pytest.raises(RecordError, match=r'"scores" are whole numbers from 0 up, not -2'):
        read(json.dumps(data))


def test_a_changed_seed_card_or_commitment_fails(tmp_path: Path) -> None:
    record = record_of(played("swedish", "fixed-seed"))
    data = json.loads(record.to_json())
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    assert verify_file(str(path), io.StringIO()) == 0
    # another seed: its rounds' seeds no longer follow, and the commitments fail
    changed = json.loads(json.dumps(data))
    changed["seed"] = "another-seed"
    for entry in changed["rounds"]:
        entry["seed"] = round_seed("another-seed", entry["round"])
    path.write_text(json.dumps(changed))
    out = io.StringIO()
    assert verify_file(str(path), out) == 1
    assert "commitment" in out.getvalue()
    # a card changed in a move: the engine refuses it (not in that hand)
    changed = json.loads(json.dumps(data))
    first = changed["moves"][0]["move"]
    dealt = Match.start(record.start().rules, 2, seed="fixed-seed").round
    hand = dealt.hands[dealt.to_move]
    other = next(c for c in ("AS", "2H", "3C", "4D", "5S") if c not in map(str, hand))
    first["card"] = other
    first["taken"] = []
    path.write_text(json.dumps(changed))
    out = io.StringIO()
    assert verify_file(str(path), out) == 1 and "move 1" in out.getvalue()
    # a forged commitment
    changed = json.loads(json.dumps(data))
    changed["rounds"][0]["commitment"] = "0" * 64
    path.write_text(json.dumps(changed))
    assert verify_file(str(path), io.StringIO()) == 1
    # not a record at all
    path.write_text("{}")
    assert verify_file(str(path), io.StringIO()) == 1


def test_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played("finnish", "cli-seed", players=3)
    path = tmp_path / "game.json"
    path.write_text(record_of(game).to_json())
    assert main(["verify", str(path)]) == 0
    assert capsys.readouterr().out.startswith("OK: game #9")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Round 1 is over" in out and "(as recorded)" in out
    final = " · ".join(f"p{side} {score}" for side, score in enumerate(game.match.scores))
    assert f"Final: {final}." in out
    assert main(["verify", str(tmp_path / "missing.json")]) == 1


def test_the_commitment_is_documented_sha256() -> None:
    import hashlib

    text = "kasino-deal/v1|12|3|abc/2"
    assert commitment("abc/2", 12, 3) == hashlib.sha256(text.encode()).hexdigest()
    assert round_seed("abc", 3) == "abc/2"
    assert len(new_seed()) == 32 and new_seed() != new_seed()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(sorted(VARIANT_NAMES)),
    seed=st.integers(0, 2**64 - 1),
    stop=st.integers(0, 60),
)
def test_an_unfinished_game_has_no_record(variant: str, seed: int, stop: int) -> None:
    """Whatever the position, a game in play yields no record (no seed, no hand), and a
    finished one reveals its seeds only in its record."""
    game = played(variant, seed, stop=stop)
    if game.status is Status.PLAYING:
        with pytest.raises(NoRecord) as refused:
            record_of(game)
        assert refused.value.reason == "unfinished"
        assert str(seed) not in str(refused.value)
        return
    record = record_of(game)
    text = record.to_json()
    assert json.loads(text)["rounds"][0]["seed"] == f"{seed}/0"


def test_old_move_rows_cannot_be_replayed() -> None:
    game = played("swedish", "old")
    rows = game.extra["log"]
    rows[3] = StoredMove(4, rows[3].seat, rows[3].card, "", False, 1.0, None, None)
    with pytest.raises(NoRecord) as refused:
        GameRecord.from_game(game, rows)
    assert refused.value.reason == "old"


def test_damaged_records_are_refused() -> None:
    record = record_of(played("swedish", "x"))
    data = record.to_dict()
    for key in ("format", "schema", "moves", "seed", "rules"):
        broken = dict(data)
        broken[key] = {"bad": True} if key != "format" else "other"
        with pytest.raises(RecordError):
            GameRecord.from_dict(broken)
    with pytest.raises(RecordError):
        read("not json")
    with pytest.raises(RecordError):
        record.state_at(len(record.moves) + 1)
    assert Move.from_dict(data["moves"][0]["move"]) == record.moves[0].move
