"""Skill ratings in storage, on SQLite and PostgreSQL: openskill's own numbers, rated in the
result's transaction exactly once, people's boards kept apart from computers', and
``python -m bot ratings`` reproducing every stored value bit for bit."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.__main__ import main
from bot.config import Config
from bot.games import GameService
from bot.models import GameOptions, Seat, Status
from bot.moves import auto_move
from bot.records import ratings
from bot.storage import StaleGame, Statement, Storage
from bot.storage.base import Computed
from bot.storage.rerate import rebuild
from tests.dbrows import query

GUILD = 77


def lineup(*sides: tuple[tuple[str, ...], int, bool]) -> ratings.Lineup:
    return ratings.Lineup(tuple(ratings.Side(*side) for side in sides))


def test_ratings_are_openskills_plackett_luce() -> None:
    model = PlackettLuce()
    # three sides, a tie for second place
    match = lineup((("u1",), 16, True), (("u2",), 9, False), (("u3",), 9, False))
    assert match.ranks() == [0, 1, 1]
    start = {2: ratings.Rating(27.0, 5.0)}
    got = ratings.rate(match, start)
    want = model.rate(
        [[model.rating()], [model.rating(mu=27.0, sigma=5.0)], [model.rating()]], ranks=[0, 1, 1]
    )
    assert [(got[u].mu, got[u].sigma) for u in (1, 2, 3)] == [
        (team[0].mu, team[0].sigma) for team in want
    ]
    # partnerships are teams; a computer plays at its level's fixed rating and is not rated
    teams = lineup((("u1", "c:hard"), 12, False), (("u2", "u3"), 16, True))
    assert teams.ranks() == [1, 0] and teams.board == ratings.COMPUTERS
    got = ratings.rate(teams, {})
    mu, sigma = ratings.COMPUTER_RATINGS["hard"]
    want = model.rate(
        [[model.rating(), model.rating(mu=mu, sigma=sigma)], [model.rating(), model.rating()]],
        ranks=[1, 0],
    )
    assert set(got) == {1, 2, 3}
    assert (got[1].mu, got[1].sigma) == (want[0][0].mu, want[0][0].sigma)
    assert (got[3].mu, got[3].sigma) == (want[1][1].mu, want[1][1].sigma)
    # the winner is first even with fewer points (a live count-out), then by points
    odd = lineup((("u1",), 20, False), (("u2",), 21, True), (("u3",), 20, False))
    assert odd.ranks() == [1, 0, 1]
    spread = lineup((("u1",), 5, False), (("u2",), 21, True), (("u3",), 9, False))
    assert spread.ranks() == [2, 0, 1]


def config(db_path: Path | str) -> Config:
    return Config(token=None, db_path=db_path, round_pause=0)


async def play_match(
    service: GameService,
    channel: int,
    people: list[int],
    computers: tuple[str, ...] = (),
    *,
    variant: str = "swedish",
    target: int = 5,
    teams: bool = False,
    guild: int = GUILD,
) -> int:
    """A whole match through the game service (safe moves for everyone); its game id."""
    host = Seat(people[0], f"p{people[0]}")
    game = await service.open_lobby(
        guild, channel, host, GameOptions(variant=variant, target=target, teams=teams)
    )
    for person in people[1:]:
        await service.join(game, Seat(person, f"p{person}"))
    for level in computers:
        await service.add_computer(game, people[0], level)
    await service.start(game, people[0])
    while game.status.active:
        rnd = game.match.round
        await service.play(game, rnd.to_move, auto_move(rnd, f"{game.id}:{game.version}"))
    assert game.status is Status.FINISHED
    return game.id


def rated(target: Path | str) -> list[dict[str, object]]:
    return query(target, "SELECT * FROM rating_changes ORDER BY game_id, guild_id, user_id")


def once_in_each_scope(target: Path | str, game: int, guild: int = GUILD) -> bool:
    """Whether the game's two people each have one change on the server's ratings and one
    on the global ones."""
    rows = query(target, "SELECT guild_id, user_id FROM rating_changes WHERE game_id = ?", (game,))
    pairs = [(r["guild_id"], r["user_id"]) for r in rows]
    return sorted(pairs) == sorted((scope, user) for scope in (guild, 0) for user in (1, 2))


async def test_finished_matches_are_rated_and_the_rebuild_reproduces_them(
    db_path: Path | str, capsys: pytest.CaptureFixture[str]
) -> None:
    storage = await Storage.open(db_path)
    service = GameService(storage, config(db_path), seed=5)
    rng = random.Random(3)
    try:
        channel = 100
        shapes = [(2, False, ()), (3, False, ()), (4, False, ()), (4, True, ()),
                  (1, False, ("normal",)), (2, True, ("easy", "hard"))]  # fmt: skip
        for n in range(14):
            players, teams, bots = shapes[n % len(shapes)]
            people = rng.sample(range(1, 9), players)
            variant = "swedish" if n % 3 else "finnish"
            await play_match(service, channel + n, people, bots, variant=variant, teams=teams)
        changes = rated(db_path)
        # every person of each match rated once; people's matches on the people's board
        results = query(db_path, "SELECT game_id, user_id, vs_computer FROM results")
        assert {(r["game_id"], r["user_id"]) for r in changes} == {
            (r["game_id"], r["user_id"]) for r in results
        }
        board = {r["game_id"]: r["board"] for r in changes}
        assert all(
            board[r["game_id"]] == ("computers" if r["vs_computer"] else "people") for r in results
        )
        stats = query(db_path, "SELECT rounds, aces, lineup FROM results")
        assert all(r["rounds"] >= 1 and r["lineup"] for r in stats)
        assert sum(r["aces"] for r in stats) > 0
        # a team's partners move together; the people's ratings never saw a computer
        report = await rebuild(storage, write=False)
        assert report.differences == 0 and report.matches == 14, report.summary()
    finally:
        await storage.close()
    assert await asyncio.to_thread(main, ["ratings", "--check", "--db", str(db_path)]) == 0
    assert "0 differences" in capsys.readouterr().out
    # a stored value that differs is found, and the rebuild puts it right
    someone = query(db_path, "SELECT user_id FROM ratings ORDER BY 1")[0]["user_id"]
    query(db_path, "UPDATE ratings SET mu = 20.0 WHERE user_id = ?", (someone,))
    assert await asyncio.to_thread(main, ["ratings", "--check", "--db", str(db_path)]) == 1
    assert "rating of player" in capsys.readouterr().out
    kept = rated(db_path)
    assert await asyncio.to_thread(main, ["ratings", "--rebuild", "--db", str(db_path)]) == 0
    assert await asyncio.to_thread(main, ["ratings", "--check", "--db", str(db_path)]) == 0
    strip = ("id",)
    assert [{k: v for k, v in r.items() if k not in strip} for r in rated(db_path)] == [
        {k: v for k, v in r.items() if k not in strip} for r in kept
    ]


async def test_a_match_is_rated_once_and_only_with_its_result(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    service = GameService(storage, config(db_path), seed=9)
    try:
        host = Seat(1, "anna")
        game = await service.open_lobby(GUILD, 5, host, GameOptions(target=5))
        await service.join(game, Seat(2, "bjorn"))
        await service.start(game, 1)
        # play to the last move, then let the final save fail inside its transaction
        while True:
            rnd = game.match.round
            move = auto_move(rnd, game.version)
            trial = game.match.to_dict()
            probe = type(game.match).from_dict(trial)
            probe.play(move)
            if probe.is_over:
                break
            await service.play(game, rnd.to_move, move)
        real_write = storage.write

        async def failing(steps):  # type: ignore[no-untyped-def]
            # the rating step runs, then a statement after it fails: all is rolled back
            assert any(isinstance(s, Computed) for s in steps)
            return await real_write([*steps, Statement("INSERT INTO nowhere VALUES (1)")])

        storage.write = failing  # type: ignore[method-assign]
        async with service.session(game.id) as loaded:
            assert loaded is not None
            with pytest.raises(Exception, match="nowhere"):
                await service.play(loaded, loaded.match.round.to_move, move)
        storage.write = real_write  # type: ignore[method-assign]
        assert query(db_path, "SELECT * FROM results") == []
        assert rated(db_path) == [] and query(db_path, "SELECT * FROM ratings") == []
        # the retry (the game reloaded from its row) rates it once
        async with service.session(game.id) as loaded:
            assert loaded is not None and loaded.status is Status.PLAYING
            await service.play(loaded, loaded.match.round.to_move, move)
            finished = loaded
        assert len(query(db_path, "SELECT * FROM results")) == 2
        assert once_in_each_scope(db_path, game.id)
        # a replayed save of the same result: refused on the version, and even a save that
        # passes the version check cannot rate the match again
        finished.stored_version = finished.version - 1
        with pytest.raises(StaleGame):
            await storage.save_game(finished, 9.0, results=service.results(finished))
        finished.stored_version = finished.version
        finished.version += 1
        await storage.save_game(finished, 9.0, results=service.results(finished))
        assert once_in_each_scope(db_path, game.id)
        assert {r["matches"] for r in query(db_path, "SELECT matches FROM ratings")} == {1}
        assert (await rebuild(storage, write=False)).differences == 0
    finally:
        await storage.close()


async def test_matches_finishing_together_are_rated_in_turn(db_path: Path | str) -> None:
    """Two processes (two connections to one database) finish matches of one board at once:
    the board's lock puts them in turn, and each reads the other's new ratings."""
    first, second = await Storage.open(db_path), await Storage.open(db_path)
    try:
        services = [GameService(s, config(db_path), seed=n) for n, s in enumerate((first, second))]
        await asyncio.gather(
            *(play_match(services[n % 2], 300 + n, [1, 2] if n % 2 else [2, 1]) for n in range(6))
        )
        changes = rated(db_path)
        assert sorted({r["seq"] for r in changes}) == list(range(1, 7))
        assert (
            query(db_path, "SELECT matches FROM ratings ORDER BY guild_id, user_id")
            == [{"matches": 6}] * 4
        )  # the server's ratings and the global ones
        assert (await rebuild(first, write=False)).differences == 0
    finally:
        await first.close()
        await second.close()


async def test_the_rating_board_pages_through_every_player(db_path: Path | str) -> None:
    """Fourteen provisional players and four rated ones: one list, the rated first, then
    the provisional, each by the shown rating (mu), ties by more matches, then user id;
    every player on exactly one page, and each one's profile rank is their place on it."""
    storage = await Storage.open(db_path)
    try:
        rows = [
            # user, mu, matches: rated players (5+ matches) and provisional ones (1–4)
            *((100 + n, 20.0 + n, 5 + n) for n in range(4)),
            *((200 + n, 30.0 - (n // 2), 1 + n % 4) for n in range(14)),
        ]
        other = Statement(
            "INSERT INTO ratings (guild_id, variant, board, user_id, mu, sigma, matches, wins,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (GUILD, "finnish", ratings.PEOPLE, 999, 40.0, 1.0, 9, 9, 0.0),
        )  # another variant: not on the board
        await storage.write(
            [
                Statement(
                    "INSERT INTO ratings (guild_id, variant, board, user_id, mu, sigma, matches,"
                    " wins, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (GUILD, "swedish", ratings.PEOPLE, user, mu, 2.0, matches, 0, 0.0),
                )
                for user, mu, matches in rows
            ]
            + [other]
        )
        listed: list[int] = []
        for page in range(3):
            found, total = await storage.rating_board(GUILD, "swedish", page * 7, 7)
            assert total == 18
            listed += [row.user_id for row in found]
        assert sorted(listed) == sorted(user for user, _, _ in rows)  # each on one page
        tier = {user: matches < ratings.PROVISIONAL for user, _, matches in rows}
        mus = {user: mu for user, mu, _ in rows}
        played = {user: matches for user, _, matches in rows}
        assert listed == sorted(listed, key=lambda u: (tier[u], -mus[u], -played[u], u))
        assert listed[:4] == [103, 102, 101, 100]  # the rated first, though lower
        for place, user in enumerate(listed, 1):
            row, rank, count = await storage.rating(GUILD, "swedish", user)
            assert row is not None and (rank, count) == (place, 18), user
            assert row.shown.endswith("?") == tier[user]
        assert await storage.rating(GUILD, "swedish", 12345) == (None, 0, 18)
    finally:
        await storage.close()
