"""The global ratings (guild id :data:`bot.records.ratings.GLOBAL`) in storage, on SQLite and
PostgreSQL: a server's match moves its server's rating and the global one, each exactly
once; two servers' matches move one global rating; the rebuild and the migration that
added them reproduce them bit for bit; two processes finishing matches at once lose no
update; forgetting a person removes their global ratings for good."""

from __future__ import annotations

import asyncio
import itertools
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.games import GameService
from bot.models import GameOptions, Seat, Status
from bot.moves import auto_move
from bot.records import ratings
from bot.storage import Storage, is_postgres
from bot.storage.rerate import rebuild
from bot.storage.schema import for_postgres
from tests.bot.test_ratings_storage import config, play_match
from tests.bot.test_shards import run_in_thread
from tests.conftest import BACKENDS
from tests.dbrows import execute, query

GLOBAL = ratings.GLOBAL
ONE, TWO = 77 << 22, 78 << 22  # two servers (of two shards, as Discord would have them)
CHANGE_COLUMNS = (
    "game_id, guild_id, variant, board, user_id, seq, mu_before, sigma_before, mu_after,"
    " sigma_after, at"
)


def test_a_game_counts_on_its_server_and_globally_or_only_globally() -> None:
    assert ratings.rating_scopes(ONE) == (ONE, GLOBAL)
    assert ratings.rating_scopes(0) == (GLOBAL,)  # no server: a DM or a group DM
    assert ratings.rating_scopes(None) == (GLOBAL,)


def changes_of(target: Path | str, where: str = "1 = 1") -> list[dict[str, Any]]:
    """The rating changes (without their row ids) in a fixed order."""
    return query(
        target,
        f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE {where}"
        " ORDER BY guild_id, variant, board, seq, user_id",
    )


def ratings_of(target: Path | str, where: str = "1 = 1") -> list[dict[str, Any]]:
    return query(
        target,
        "SELECT guild_id, variant, board, user_id, mu, sigma, matches, wins, hinted FROM ratings"
        f" WHERE {where} ORDER BY guild_id, variant, board, user_id",
    )


async def test_two_servers_games_move_one_global_rating(db_path: Path | str) -> None:
    """Anna (1) and Bjorn (2) play two matches in one server and one in another: each
    server's rating counts its own matches, the global one all three, in the order they
    were played, each match once; a restarted storage saving a finished match again
    rates nothing more."""
    storage = await Storage.open(db_path)
    service = GameService(storage, config(db_path), seed=11)
    try:
        first = await play_match(service, 10, [1, 2], guild=ONE)
        second = await play_match(service, 20, [2, 1], guild=TWO)
        third = await play_match(service, 11, [1, 2], guild=ONE)
    finally:
        await storage.close()
    counts = {(r["guild_id"], r["user_id"]): r["matches"] for r in ratings_of(db_path)}
    assert counts == {(ONE, 1): 2, (ONE, 2): 2, (TWO, 1): 1, (TWO, 2): 1, (GLOBAL, 1): 3,
                      (GLOBAL, 2): 3}  # fmt: skip
    global_changes = changes_of(db_path, f"guild_id = {GLOBAL}")
    assert [(r["seq"], r["game_id"]) for r in global_changes] == [
        (1, first), (1, first), (2, second), (2, second), (3, third), (3, third)
    ]  # fmt: skip
    for user in (1, 2):  # one chain: each match starts from the one before
        chain = [r for r in global_changes if r["user_id"] == user]
        assert chain[0]["mu_before"] == ratings.MODEL.mu
        for before, after in itertools.pairwise(chain):
            assert (after["mu_before"], after["sigma_before"]) == (
                before["mu_after"],
                before["sigma_after"],
            )
    # the second server's match started from the server's new player, not the global one
    two = changes_of(db_path, f"guild_id = {TWO}")
    assert {r["mu_before"] for r in two} == {ratings.MODEL.mu}
    assert {r["mu_before"] for r in global_changes if r["game_id"] == second} != {ratings.MODEL.mu}
    # a restart: a new storage saves the finished match's results once more
    storage = await Storage.open(db_path)
    service = GameService(storage, config(db_path), seed=11)
    try:
        game = await storage.get_game(third)
        assert game is not None and game.status is Status.FINISHED
        kept = changes_of(db_path)
        game.version += 1
        await storage.save_game(game, 99.0, results=service.results(game))
        assert changes_of(db_path) == kept
        report = await rebuild(storage, write=False)
        assert report.differences == 0 and report.matches == 3, report.summary()
    finally:
        await storage.close()


async def test_the_rebuild_reproduces_the_global_ratings(db_path: Path | str) -> None:
    """Matches of every shape in two servers; the global rows deleted are found missing
    by the check and written again by the rebuild exactly as the bot wrote them."""
    storage = await Storage.open(db_path)
    service = GameService(storage, config(db_path), seed=4)
    try:
        shapes = [([1, 2], ()), ([3, 1, 2], ()), ([2], ("normal",)), ([1, 3], ("easy",))]
        for n in range(8):
            people, bots = shapes[n % len(shapes)]
            variant = "swedish" if n % 3 else "finnish"
            guild = ONE if n % 2 else TWO
            await play_match(service, 100 + n, people, bots, variant=variant, guild=guild)
        kept, held = changes_of(db_path), ratings_of(db_path)
        assert {r["guild_id"] for r in kept} == {ONE, TWO, GLOBAL}
        assert (await rebuild(storage, write=False)).differences == 0
        execute(db_path, f"DELETE FROM rating_changes WHERE guild_id = {GLOBAL}")
        execute(db_path, f"DELETE FROM ratings WHERE guild_id = {GLOBAL}")
        report = await rebuild(storage, write=False)
        assert report.differences > 0 and "not rated globally" in report.summary()
        assert (await rebuild(storage, write=True)).written
        assert changes_of(db_path) == kept and ratings_of(db_path) == held
        assert (await rebuild(storage, write=False)).differences == 0
    finally:
        await storage.close()


def as_version_14(target: Path | str) -> None:
    """Make a database look as one from before the global ratings: no global rows, the
    old exactly-once constraint, schema version 14."""
    execute(target, f"DELETE FROM ratings WHERE guild_id = {GLOBAL}")
    old = [
        "CREATE TABLE rating_changes_old (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL,"
        " guild_id INTEGER NOT NULL, variant TEXT NOT NULL, board TEXT NOT NULL,"
        " user_id INTEGER NOT NULL, seq INTEGER NOT NULL, mu_before REAL NOT NULL,"
        " sigma_before REAL NOT NULL, mu_after REAL NOT NULL, sigma_after REAL NOT NULL,"
        " at REAL NOT NULL, UNIQUE (game_id, user_id, board))",
        f"INSERT INTO rating_changes_old ({CHANGE_COLUMNS}) SELECT {CHANGE_COLUMNS}"
        f" FROM rating_changes WHERE guild_id <> {GLOBAL} ORDER BY id",
        "DROP TABLE rating_changes",
        "ALTER TABLE rating_changes_old RENAME TO rating_changes",
        # what versions 16 and later add, which a version-14 database has not yet
        "DROP INDEX outbox_courier",
        "ALTER TABLE outbox DROP COLUMN courier",
        "DROP TABLE stages",
        "DROP INDEX games_channel",
        *(f"DROP TABLE ladder_{name}" for name in ("queue", "blocks", "recent", "abandons", "off")),
        "DROP TABLE table_talk",
        "DROP TABLE game_players",
        "DROP TABLE notice_prefs",
    ]
    for sql in old:
        execute(target, for_postgres(sql) if is_postgres(target) else sql)
    if is_postgres(target):
        execute(target, "UPDATE schema_version SET version = 14")
    else:
        execute(target, "PRAGMA user_version = 14")


async def test_the_migration_gives_an_older_database_its_global_ratings(
    db_path: Path | str,
) -> None:
    """A database from before the global ratings, with matches in two servers, is
    migrated: its global rows are computed from the stored lineups in the order the
    matches finished, exactly the rows the bot would have written as they were played."""
    storage = await Storage.open(db_path)
    service = GameService(storage, config(db_path), seed=8)
    try:
        for n in range(6):
            people = [[1, 2], [2, 3, 1], [3, 1]][n % 3]
            await play_match(service, 200 + n, people, guild=ONE if n % 2 else TWO)
    finally:
        await storage.close()
    want_changes = changes_of(db_path, f"guild_id = {GLOBAL}")
    want_ratings = ratings_of(db_path, f"guild_id = {GLOBAL}")
    assert len(want_changes) == 14 and len(want_ratings) == 3
    as_version_14(db_path)
    assert changes_of(db_path, f"guild_id = {GLOBAL}") == []
    storage = await Storage.open(db_path)  # migrates
    try:
        assert await storage.schema_version() >= 15
        assert changes_of(db_path, f"guild_id = {GLOBAL}") == want_changes
        assert ratings_of(db_path, f"guild_id = {GLOBAL}") == want_ratings
        assert (await rebuild(storage, write=False)).differences == 0
        # the new exactly-once constraint holds per scope: a second global change refused
        with pytest.raises(Exception):  # noqa: B017 (either database's integrity error)
            execute(
                db_path,
                f"INSERT INTO rating_changes ({CHANGE_COLUMNS})"
                f" SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE guild_id = {GLOBAL}"
                " ORDER BY id LIMIT 1",
            )
    finally:
        await storage.close()


async def test_forgetting_a_person_removes_their_global_ratings_for_good(
    db_path: Path | str,
) -> None:
    storage = await Storage.open(db_path)
    service = GameService(storage, config(db_path), seed=2)
    try:
        await play_match(service, 30, [1, 2], guild=ONE)
        await play_match(service, 31, [2, 1, 3], guild=TWO)
        await play_match(service, 32, [1], ("normal",), guild=TWO)
        await storage.forget_user(1, 500.0)
        assert ratings_of(db_path, "user_id = 1") == []
        assert changes_of(db_path, "user_id = 1") == []
        board, total = await storage.rating_board(GLOBAL, "swedish")
        assert total == 2 and {row.user_id for row in board} == {2, 3}
        # the others' global ratings still add up, and the rebuild never brings them back
        assert (await rebuild(storage, write=False)).differences == 0
        await rebuild(storage, write=True)
        assert ratings_of(db_path, "user_id = 1") == []
        assert not [r for r in ratings_of(db_path) if r["user_id"] < 0]
        assert (await rebuild(storage, write=False)).differences == 0
        # nor does the migration that computes them
    finally:
        await storage.close()
    as_version_14(db_path)
    storage = await Storage.open(db_path)
    try:
        assert ratings_of(db_path, "user_id = 1") == []
        assert not [r for r in ratings_of(db_path) if r["user_id"] < 0]
        assert {r["user_id"] for r in ratings_of(db_path, f"guild_id = {GLOBAL}")} == {2, 3}
        assert (await rebuild(storage, write=False)).differences == 0
    finally:
        await storage.close()


# ------------------------------------------------------------- two processes at once


async def to_last_move(service: GameService, guild: int, channel: int) -> tuple[int, Any]:
    """A match between 1 and 2 played to its last move: the game id and that move."""
    game = await service.open_lobby(guild, channel, Seat(1, "anna"), GameOptions(target=5))
    await service.join(game, Seat(2, "bjorn"))
    await service.start(game, 1)
    while True:
        rnd = game.match.round
        move = auto_move(rnd, f"{game.id}:{game.version}")
        probe = type(game.match).from_dict(game.match.to_dict())
        probe.play(move)
        if probe.is_over:
            return game.id, move
        await service.play(game, rnd.to_move, move)


def finishing_process(url: str, guild: int, meet: Any, matches: int) -> list[int]:
    """One process (its own event loop and connections): plays ``matches`` matches in its
    server, each to its last move, then waits for the other process and both finish at
    once."""

    async def run() -> list[int]:
        storage = await Storage.open(url)
        service = GameService(storage, config(url), seed=guild % 1000)
        games = []
        try:
            for n in range(matches):
                game_id, move = await to_last_move(service, guild, guild + n)
                await asyncio.to_thread(meet)
                async with service.session(game_id) as game:
                    assert game is not None
                    await service.play(game, game.match.round.to_move, move)
                    assert game.status is Status.FINISHED
                games.append(game_id)
        finally:
            await storage.close()
        return games

    return asyncio.run(run())


@pytest.mark.skipif("postgresql" not in BACKENDS, reason="two processes need PostgreSQL")
def test_two_processes_finishing_at_once_lose_no_global_update(postgres_url: str) -> None:
    """Two processes (threads with their own loops and pools, as two shards would be)
    finish matches of the same two people in two servers at the same instant, five times:
    the global lock puts each pair in turn, so the global rating counts all ten, each
    match reads the other's new rating (one unbroken chain per person), and the global
    ``seq`` runs 1 to 10 without a gap or a repeat."""
    matches = 5
    barrier = threading.Barrier(2, timeout=120)
    getters = [
        run_in_thread(
            lambda guild=guild: finishing_process(postgres_url, guild, barrier.wait, matches),
            barrier,
        )
        for guild in (ONE, TWO)
    ]
    results = [get() for get in getters]
    for result in results:
        if isinstance(result, BaseException):
            raise result
    glob = changes_of(postgres_url, f"guild_id = {GLOBAL}")
    assert sorted({r["seq"] for r in glob}) == list(range(1, 2 * matches + 1))
    assert len(glob) == 4 * matches  # two people, each match once
    for user in (1, 2):
        chain = [r for r in glob if r["user_id"] == user]
        assert [r["seq"] for r in chain] == list(range(1, 2 * matches + 1))
        for before, after in itertools.pairwise(chain):
            assert (after["mu_before"], after["sigma_before"]) == (
                before["mu_after"],
                before["sigma_after"],
            ), "a global update was lost"
        (row,) = ratings_of(postgres_url, f"guild_id = {GLOBAL} AND user_id = {user}")
        assert row["matches"] == 2 * matches
        assert (row["mu"], row["sigma"]) == (chain[-1]["mu_after"], chain[-1]["sigma_after"])

    async def check() -> int:
        storage = await Storage.open(postgres_url)
        try:
            return (await rebuild(storage, write=False)).differences
        finally:
            await storage.close()

    assert asyncio.run(check()) == 0
