"""``/kasino forget-me``: after it, no row of any table names the person (their id, their
name, a mention), on SQLite and PostgreSQL; the other players keep their games, results
and ratings (which still add up); it asks first, only the person can confirm, and not
while they are seated in a running game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.storage.rerate import rebuild
from bot.storage.schema import TABLES
from tests.bot.kasino_harness import Harness, button, custom_ids
from tests.dbrows import query


def naming(db_path: Path | str, user_id: int, name: str) -> list[tuple[str, Any]]:
    """Every (table, row) holding the person's id, name or mention anywhere."""
    found = []
    for table in TABLES:
        for row in query(db_path, f"SELECT * FROM {table}"):
            for value in row.values():
                text = str(value)
                if value == user_id or str(user_id) in text or name in text:
                    found.append((table, row))
                    break
    return found


async def played_match(harness: Harness) -> Any:
    game = await harness.start_game(2, target=5)  # between people: rated
    await harness.play_to_end(game)
    return game


def answer(message: Any, word: str) -> str:
    return next(c for c in custom_ids(message) if c.startswith("k:forget:") and c.endswith(word))


async def test_forget_me_leaves_no_row_naming_the_person(
    harness: Harness, db_path: Path | str
) -> None:
    anna, bjorn = harness.members[:2]
    await played_match(harness)
    await harness.slash(anna, "kasino deck", style="four")
    assert naming(db_path, anna.id, anna.name)
    asked = await harness.slash(anna, "kasino forget-me")
    assert asked.ephemeral and "Forget me?" in asked.response.content
    # someone else cannot confirm it, even with a forged button on their own message
    forged = await harness.forge(bjorn, asked.response, answer(asked.response, "yes"))
    assert forged.ephemeral and "not valid" in forged.response.content
    assert naming(db_path, anna.id, anna.name)
    done = await harness.click(anna, asked.response, custom_id=answer(asked.response, "yes"))
    assert "Done" in done.response.content and custom_ids(done.response) == []
    assert naming(db_path, anna.id, anna.name) == []
    # the other player keeps the game and the result; hers stays under a nameless id
    assert naming(db_path, bjorn.id, bjorn.name)
    ids = sorted(row["user_id"] for row in query(db_path, "SELECT user_id FROM results"))
    assert len(ids) == 2 and ids[0] < 0 and ids[1] == bjorn.id
    for sort in ("wins", "rating"):
        board = await harness.slash(bjorn, "kasino scores", sort=sort)
        shown = str(board.response.embeds[0].to_dict())
        assert anna.name not in shown and str(ids[0]) not in shown
    # the ratings still add up without her
    report = await rebuild(harness.cog.games.storage, write=False)
    assert report.matches == 1 and report.differences == 0, report.examples


async def test_keep_my_data_removes_nothing(harness: Harness, db_path: Path | str) -> None:
    anna = harness.members[0]
    await played_match(harness)
    asked = await harness.slash(anna, "kasino forget-me")
    kept = await harness.click(anna, asked.response, custom_id=answer(asked.response, "no"))
    assert "Nothing was removed" in kept.response.content
    assert len(query(db_path, "SELECT * FROM results")) == 2


async def test_not_while_seated_in_a_running_game(harness: Harness, db_path: Path | str) -> None:
    anna, bjorn = harness.members[:2]
    lobby = await harness.open_lobby(anna)
    await harness.click(bjorn, lobby, custom_id=button(lobby, "join"))
    refused = await harness.slash(bjorn, "kasino forget-me")
    assert refused.ephemeral and "still running" in refused.response.content
    assert custom_ids(refused.response) == []
