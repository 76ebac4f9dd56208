"""``python -m bot migrate-db``: an SQLite database with games in progress, copied into
PostgreSQL, plays on there; a target that holds data is refused unless told."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.client import KasinoBot
from bot.config import Config
from bot.models import Status
from bot.records.record import load_record
from tests.bot.kasino_harness import Harness
from tests.dbrows import query


@pytest.fixture
def backend() -> str:
    """The bot starts on SQLite here (the copy's source)."""
    return "sqlite"


def migrate(source: Path, url: str, *extra: str) -> int:
    return main(["migrate-db", "--from", str(source), "--to", url, *extra])


async def migrate_from_test(source: Path, url: str, *extra: str) -> int:
    """The command, run beside the test's event loop (it runs its own)."""
    return await asyncio.to_thread(migrate, source, url, *extra)


def table(target: Path | str, name: str) -> list[dict[str, object]]:
    return query(target, f"SELECT * FROM {name} ORDER BY 1")


async def test_games_in_progress_move_to_postgresql_and_play_on(
    harness: Harness, bot_config: Config, db_path: Path, postgres_url: str, capsys
) -> None:  # type: ignore[no-untyped-def]
    done = await harness.start_game(2)
    while done.status.active:
        await harness.play_move(done)
    harness.channel = harness.guild.create_text_channel("second")
    game = await harness.start_game(2)
    for _ in range(5):
        await harness.play_move(game)
    await harness.env.settle()
    # someone who played nothing was forgotten: the count goes along, so no process on
    # PostgreSQL takes its caches for newer than the forgetting
    await harness.cog.games.storage.forget_user(harness.members[3].id, 1.0)
    await harness.cog.games.storage.close()  # the bot is stopped for the copy
    harness.env.bot.storage = None

    assert await migrate_from_test(db_path, postgres_url) == 0
    line = capsys.readouterr().out
    assert "copied 2 games" in line and "1 games in progress" in line and "counts match" in line
    for name in ("games", "moves", "results", "meta", "ratings", "rating_changes", "forgotten"):
        assert table(postgres_url, name) == table(db_path, name), name
    assert len(table(postgres_url, "forgotten")) == 1
    # the finished match, rated on its server's ratings and the global ones
    assert len(table(postgres_url, "rating_changes")) == 4
    # the sealed log's hashes are copied with their moves
    assert all(row["seal"] for row in table(postgres_url, "moves"))

    # the bot starts on PostgreSQL and the match goes on where it was, to the end
    config = dataclasses.replace(bot_config, db_path=postgres_url)
    await harness.env.restart_bot(KasinoBot(config, seed=7))
    moved = await harness.game()
    assert moved is not None and moved.id == game.id and moved.version == game.version
    assert moved.match.to_dict() == game.match.to_dict()
    copied = await harness.cog.games.storage.move_count(game.id)
    played = 0
    while moved.status.active:
        await harness.play_move(moved)
        played += 1
    assert moved.status is Status.FINISHED
    storage = harness.cog.games.storage
    # the chain runs on across the copy: the record's seals are the moves' hashes
    record, _ = await load_record(storage, game.id)
    assert record.sealed and record.chain_problems(record.heads()[-1]) == []
    assert record.cut is not None and record.verify() == []  # each round's cut follows
    versions = [r["version"] for r in table(postgres_url, "moves") if r["game_id"] == game.id]
    assert len(versions) == len(set(versions)) == copied + played == 5 + played
    _, total = await storage.leaderboard(harness.guild.id)
    assert total == 2 and len(table(postgres_url, "results")) == 4
    # a new game gets a fresh id after the copied ones
    harness.channel = harness.guild.create_text_channel("third")
    assert (await harness.start_game(2)).id == 3
    # and the next forgetting counts on from the copied count
    assert await storage.forgotten_count() == 1
    await storage.forget_user(harness.members[2].id, 2.0)
    assert await storage.forgotten_count() == 2


async def test_a_target_with_data_is_refused_unless_replaced(
    harness: Harness, db_path: Path, postgres_url: str, capsys
) -> None:  # type: ignore[no-untyped-def]
    await harness.start_game(2)
    await harness.env.settle()
    assert await migrate_from_test(db_path, postgres_url) == 0
    before = table(postgres_url, "games")
    for _ in range(3):
        await harness.play_move(await harness.game())
    await harness.env.settle()
    assert await migrate_from_test(db_path, postgres_url) == 2
    assert "not empty" in capsys.readouterr().err
    assert table(postgres_url, "games") == before != table(db_path, "games")
    assert await migrate_from_test(db_path, postgres_url, "--replace") == 0
    assert table(postgres_url, "games") == table(db_path, "games")


def test_bad_arguments_get_one_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert migrate(tmp_path / "missing.db", "postgresql://u@127.0.0.1/db") == 2
    assert migrate(tmp_path / "missing.db", "sqlite:///elsewhere.db") == 2
    (tmp_path / "k.db").touch()
    assert migrate(tmp_path / "k.db", "postgresql://u:secret@127.0.0.1:1/db") == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("error: ") for line in err)
    assert "secret" not in err[-1] and "***" in err[-1]
