"""Who sits where (schema version 20, bot.storage.players), on SQLite and PostgreSQL: the
index follows a game's seats and status in the transactions of its saves (join, leave,
start, the end, a cancelled lobby, a broken game), a person's games are read everywhere
from it, the migration fills it for the games active before it, a copy carries it, and
forget-me removes a person's rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games import GameService
from bot.models import GameOptions, Seat, Status
from bot.moves import auto_move
from bot.storage import MIGRATIONS, Storage, is_postgres
from bot.storage.copy import copy_database
from bot.storage.schema import TABLES
from tests.bot.test_ratings_storage import config
from tests.conftest import BACKENDS
from tests.dbrows import execute, query

ONE, TWO = 77 << 22, 78 << 22  # two servers
DM = 0  # no server: a DM or a group DM


def seated(target: Path | str) -> set[tuple[int, int]]:
    """The index's rows: (person, game)."""
    rows = query(target, "SELECT user_id, game_id FROM game_players")
    return {(r["user_id"], r["game_id"]) for r in rows}


async def lobby(service: GameService, guild: int, channel: int, people: list[int]) -> int:
    game = await service.open_lobby(guild, channel, Seat(people[0], f"p{people[0]}"),
                                    GameOptions(variant="swedish", target=5))  # fmt: skip
    for person in people[1:]:
        await service.join(game, Seat(person, f"p{person}"))
    return game.id


async def test_the_index_follows_seats_and_status(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    service = GameService(storage, config(db_path), seed=3)
    try:
        assert await storage.schema_version() == len(MIGRATIONS) >= 20
        assert "game_players" in TABLES
        first = await lobby(service, ONE, 10, [1, 2])
        second = await lobby(service, TWO, 20, [3, 1])
        third = await lobby(service, DM, 30, [1])
        assert seated(db_path) == {(1, first), (2, first), (3, second), (1, second), (1, third)}
        # a computer is no one in the index; leaving and cancelling take rows away
        async with service.session(third) as game:
            assert game is not None
            await service.add_computer(game, 1, "easy")
        async with service.session(second) as game:
            assert game is not None
            await service.leave(game, 1)
        assert seated(db_path) == {(1, first), (2, first), (3, second), (1, third)}
        async with service.session(third) as game:
            assert game is not None
            await service.cancel(game, 1)
        assert seated(db_path) == {(1, first), (2, first), (3, second)}
        # a person's games, everywhere, by id
        assert [g.id for g in await storage.person_games(1)] == [first]
        assert [g.id for g in await storage.person_games(3)] == [second]
        assert await storage.person_games(99) == []
        # a match played to the end: its rows go with the move that ends it, and a move
        # that changes no seat writes no row (counted by the rows' unchanged content)
        async with service.session(first) as game:
            assert game is not None
            await service.start(game, 1)
            assert game.status is Status.PLAYING
            rnd = game.match.round
            await service.play(game, rnd.to_move, auto_move(rnd, "x"))
        playing = await storage.person_games(2)
        assert [g.id for g in playing] == [first] and playing[0].status is Status.PLAYING
        assert playing[0].match is not None  # whose turn can be read from it
        async with service.session(first) as game:
            assert game is not None
            while game.status.active:
                rnd = game.match.round
                await service.play(game, rnd.to_move, auto_move(rnd, f"{game.version}"))
        assert seated(db_path) == {(3, second)}
        assert await storage.person_games(1) == []
        # a broken game is closed with its rows
        await storage.close_broken(second, 50.0)
        assert seated(db_path) == set()
    finally:
        await storage.close()


async def test_the_migration_fills_the_index_of_active_games(db_path: Path | str) -> None:
    """A database from before the index (version 19) with a lobby, a match in play and a
    finished match: the migration writes the rows of the two active games only."""
    storage = await Storage.open(db_path)
    service = GameService(storage, config(db_path), seed=5)
    try:
        waiting = await lobby(service, ONE, 11, [1, 2])
        playing = await lobby(service, DM, 12, [2, 3])
        ended = await lobby(service, TWO, 13, [4, 5])
        async with service.session(playing) as game:
            assert game is not None
            await service.add_computer(game, 2, "easy")
            await service.start(game, 2)
        async with service.session(ended) as game:
            assert game is not None
            await service.start(game, 4)
            while game.status.active:
                rnd = game.match.round
                await service.play(game, rnd.to_move, auto_move(rnd, f"{game.version}"))
    finally:
        await storage.close()
    want = {(1, waiting), (2, waiting), (2, playing), (3, playing)}
    assert seated(db_path) == want
    execute(db_path, "DROP TABLE game_players")
    execute(db_path, "DROP TABLE notice_prefs")  # version 21's, later
    if is_postgres(db_path):
        execute(db_path, "UPDATE schema_version SET version = 19")
    else:
        execute(db_path, "PRAGMA user_version = 19")
    storage = await Storage.open(db_path)  # migrates
    try:
        assert await storage.schema_version() == len(MIGRATIONS)
        assert seated(db_path) == want
        assert {g.id for g in await storage.person_games(2)} == {waiting, playing}
    finally:
        await storage.close()


async def test_forget_me_removes_the_rows(db_path: Path | str) -> None:
    """Forget-me removes the person's rows of who sits where, and no other's."""
    storage = await Storage.open(db_path)
    service = GameService(storage, config(db_path), seed=7)
    try:
        game_id = await lobby(service, ONE, 14, [1, 2])
        await storage.forget_user(2, 60.0)
        assert seated(db_path) == {(1, game_id)}
    finally:
        await storage.close()


@pytest.mark.skipif("postgresql" not in BACKENDS, reason="a copy goes to PostgreSQL")
async def test_the_index_is_copied_to_postgresql(tmp_path: Path, postgres_url: str) -> None:
    source = await Storage.open(tmp_path / "kasino.db")
    target = await Storage.open(postgres_url)
    try:
        service = GameService(source, config(tmp_path / "kasino.db"), seed=7)
        game_id = await lobby(service, ONE, 14, [1, 2])
        report = await copy_database(source, target)
        assert report.counts["game_players"] == 2
        assert [g.id for g in await target.person_games(2)] == [game_id]
    finally:
        await source.close()
        await target.close()
