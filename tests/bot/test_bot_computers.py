"""Computer players through SimCord: the lobby, whole matches, hints and automatic moves."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.ai import choose_move
from bot.engine import Move
from bot.models import Game, Status
from bot.render import HINTED_MARK
from bot.storage import MIGRATIONS, BoardRow, Storage, is_postgres
from bot.storage.schema import for_postgres, statements
from tests.bot.kasino_harness import Harness, cid, custom_ids
from tests.bot.test_bot_lobby import buttons
from tests.dbrows import execute, query

PAUSE = 0.1  # the test configuration's computer pause


async def computer_lobby(harness: Harness, *levels: str, **options: object) -> object:
    """A lobby hosted by Anna with computer players of ``levels`` added by her."""
    lobby = await harness.open_lobby(harness.members[0], **options)
    for level in levels:
        result = await harness.click(harness.members[0], lobby, label=f"Add {level} computer")
        assert not result.ephemeral, result.response.content
    return lobby


async def let_computers_play(harness: Harness, game: Game, limit: int = 20) -> None:
    """Let the virtual clock run until a person is to move or the match is over."""
    for _ in range(limit):
        if not game.status.active or not game.seats[game.match.round.to_move].is_computer:
            return
        await harness.env.advance_time(PAUSE)
    raise AssertionError("the computer players did not move")


async def play_against_computers(harness: Harness, game: Game) -> int:
    """The person plays safe moves; the computers answer; returns the person's moves."""
    moves = 0
    while game.status.active:
        await let_computers_play(harness, game)
        if game.status.active:
            await harness.play_move(game)
            moves += 1
    return moves


def logged_moves(db_path: Path | str, game_id: int) -> list[tuple[int, str, str, int]]:
    """The move log of a game, read straight from the database."""
    sql = "SELECT seat, card, taken, auto FROM moves WHERE game_id = ? ORDER BY version"
    return [tuple(row.values()) for row in query(db_path, sql, (game_id,))]  # type: ignore[misc]


async def test_lobby_adds_and_removes_marked_computers(harness: Harness) -> None:
    anna, bjorn, *_ = harness.members
    lobby = harness.current(await computer_lobby(harness, "normal", "hard", "normal"))
    seats = lobby.embeds[0].fields[1].value
    assert "🤖 Normal bot" in seats and "🤖 Hard bot" in seats and "🤖 Normal bot 2" in seats
    assert buttons(lobby)["Add easy computer"] is True  # the table is full
    not_host = await harness.click(bjorn, lobby, label="Remove computer")
    assert not_host.ephemeral and "Only the host" in not_host.response.content
    removed = await harness.click(anna, lobby, label="Remove computer")
    assert "Normal bot 2" not in removed.response.embeds[0].fields[1].value
    await harness.click(anna, lobby, label="Remove computer")
    game = await harness.game()
    assert [s.name for s in game.seats] == ["anna", "🤖 Normal bot"]
    assert game.seats[1].is_computer and game.seats[1].user_id is None
    assert buttons(harness.current(lobby))["Start"] is False  # a person and a computer may play
    started = await harness.click(anna, lobby, label="Start")
    assert started.acknowledged and game.status is Status.PLAYING
    assert "🤖 Normal bot" in harness.table_message(game).embeds[0].fields[1].name


async def test_teams_need_four_seats_even_with_computers(harness: Harness) -> None:
    lobby = harness.current(await computer_lobby(harness, "easy", "easy", teams=True))
    assert buttons(lobby)["Start"] is True
    await harness.click(harness.members[0], lobby, label="Add normal computer")
    assert buttons(harness.current(lobby))["Start"] is False


@pytest.mark.usefixtures("virtual_waits")
async def test_one_person_against_two_computers_to_the_end(harness: Harness, db_path: Path) -> None:
    anna = harness.members[0]
    lobby = await computer_lobby(harness, "easy", "normal", target=5)
    await harness.click(anna, lobby, label="Start")
    game = await harness.game()
    moves = await play_against_computers(harness, game)
    assert game.status is Status.FINISHED and moves > 0
    log = logged_moves(db_path, game.id)
    assert {seat for seat, *_ in log} == {0, 1, 2} and not any(auto for *_, auto in log)
    sides = [f.name for f in harness.table_message(game).embeds[0].fields]
    assert sides == ["anna", "🤖 Easy bot", "🤖 Normal bot"]
    storage = harness.cog.games.storage
    assert (await storage.leaderboard(harness.guild.id))[1] == 0  # people's board
    rows, total = await storage.leaderboard(harness.guild.id, computers=True)
    assert total == 1 and rows[0].user_id == anna.id and rows[0].matches == 1
    board = await harness.slash(anna, "kasino scores", opponents="computers")
    embed = board.response.embeds[0]
    assert "vs computers" in embed.title and f"{anna.name}: " in embed.description
    people = await harness.click(anna, board.response, label="Against people")
    assert "No finished matches" in people.response.embeds[0].description


async def test_hint_is_private_and_only_when_on(harness: Harness) -> None:
    anna, bjorn, *_ = harness.members
    lobby = await computer_lobby(harness, "normal")
    toggled = await harness.click(anna, lobby, label="Hints: off")
    assert "Hints: on" in buttons(toggled.response)
    await harness.click(anna, lobby, label="Start")
    game = await harness.game()
    await let_computers_play(harness, game)
    hand = (await harness.open_hand(anna, game)).response
    result = await harness.click(anna, hand, label="Hint")
    # the hint heads the player's own hand view (no message of its own)
    assert result.response.id == hand.id and result.followups == [], result
    line = result.response.content.splitlines()[0].removeprefix("💡 Hint: ")
    assert line.startswith(("take ", "trail ")), line
    assert not any("Hint:" in m.content for m in harness.channel.history(viewer=bjorn))
    assert not any("Hint:" in m.content for m in harness.public_messages())
    # another person cannot use the button
    forged = await harness.forge(bjorn, hand, cid(hand, "k:hint:"))
    assert forged.ephemeral and "not playing" in forged.response.content


async def test_no_hint_button_when_hints_are_off(harness: Harness) -> None:
    anna = harness.members[0]
    lobby = await computer_lobby(harness, "easy")
    await harness.click(anna, lobby, label="Start")
    game = await harness.game()
    await let_computers_play(harness, game)
    hand = (await harness.open_hand(anna, game)).response
    assert not any(c.startswith("k:hint:") for c in custom_ids(hand))


async def test_hinted_match_between_people_is_marked(harness: Harness) -> None:
    anna, bjorn, *_ = harness.members
    lobby = await harness.open_lobby(anna, target=5)
    await harness.click(bjorn, lobby, label="Join")
    await harness.click(anna, lobby, label="Hints: off")
    assert "marked on the leaderboard" in harness.current(lobby).embeds[0].fields[2].value
    await harness.click(anna, lobby, label="Start")
    game = await harness.game()
    await harness.play_to_end(game)
    rows, total = await harness.cog.games.storage.leaderboard(harness.guild.id)
    assert total == 2 and all(r.hinted == 1 for r in rows)
    board = await harness.slash(anna, "kasino scores")
    embed = board.response.embeds[0]
    assert f"{anna.name} {HINTED_MARK}:" in embed.description  # apart from the name
    assert "played with hints" in embed.footer.text


async def test_automatic_move_is_the_normal_players(harness: Harness, db_path: Path) -> None:
    game = await harness.start_game(2)
    for _ in range(5):
        await harness.play_move(game)
    rnd = game.match.round
    mover = rnd.to_move
    expected = choose_move(rnd.copy(), mover, "normal")
    await harness.env.advance_time(600)  # reminder, then the automatic move
    seat, card, taken, auto = logged_moves(db_path, game.id)[-1]
    assert (seat, auto) == (mover, 1)
    played = Move.from_dict({"card": card, "taken": taken.split()})
    assert (played.card, sorted(played.taken)) == (expected.card, sorted(expected.taken))


def version_one(path: Path | str) -> None:
    """A database from before computer players (schema version 1), on either backend."""
    if is_postgres(path):
        for step in statements(MIGRATIONS[0]):
            execute(path, for_postgres(step))
        execute(path, "CREATE TABLE schema_version (version BIGINT NOT NULL)")
        execute(path, "INSERT INTO schema_version VALUES (1)")
    else:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with sqlite3.connect(path) as db:
            db.executescript(MIGRATIONS[0] + "; PRAGMA user_version=1;")


async def test_an_old_database_keeps_its_results(db_path: Path | str) -> None:
    version_one(db_path)
    execute(
        db_path,
        "INSERT INTO games (id, guild_id, channel_id, host_id, status, options, seats,"
        " created_at, updated_at) VALUES (1, 9, 9, 1, 'finished', '{}', '[]', 0, 0)",
    )
    execute(
        db_path,
        "INSERT INTO results (game_id, guild_id, variant, target, user_id, side, won,"
        " points, tabbar, finished_at) VALUES (1, 9, 'swedish', 16, 42, 0, 1, 16, 2, 1)",
    )
    storage = await Storage.open(db_path)
    try:
        assert await storage.schema_version() == len(MIGRATIONS)
        rows, total = await storage.leaderboard(9)
        assert total == 1 and rows[0] == BoardRow(42, 1, 1, 16, 2, 0)
        assert (await storage.leaderboard(9, computers=True))[1] == 0
    finally:
        await storage.close()
