"""``/kasino forget-me``: after it, no row of any table names the person (their id, their
name, a mention), on SQLite and PostgreSQL; the other players keep their games, results
and ratings (which still add up); it asks first, only the person can confirm, and not
while they are seated in a running game. And nothing the bot keeps in memory names them
after it either: records, replays, menu snapshots, decks (here, and when another process
forgot them: see also ``test_forget_shards.py``)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import cogs.records.history as records_cog
from bot.client import KasinoBot
from bot.config import Config
from bot.models import GameOptions
from bot.storage import Storage
from bot.storage.rerate import rebuild
from bot.storage.schema import TABLES
from bot.storage.tournaments import TableRow, TournamentRow
from bot.tournaments.model import Entrant, Phase, Result, Settings, Table
from cogs.records.forget_posts import BURST, WINDOW
from cogs.records.forgetting import LOOK_EVERY
from cogs.settings.decks import USER
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


async def finished_tournament(harness: Harness, game_id: int) -> None:
    """A finished tournament of the first two members (their entrant rows, a table of
    their match and their places), written through the storage's API."""
    storage = harness.cog.games.storage
    anna, bjorn = harness.members[:2]
    settings = Settings(GameOptions())
    row = TournamentRow(0, harness.guild.id, harness.channel.id, anna.id, "Cup", settings)
    row.entrants = [Entrant(anna.id, anna.name), Entrant(bjorn.id, bjorn.name)]
    row = await storage.create_tournament(row, 1.0)
    table = Table(1, 1, (anna.id, bjorn.id))
    row.phase, row.round = Phase.FINISHED, 1
    row.extra = {"podium": f"<@{anna.id}> {anna.name}"}
    played = TableRow(table, game_id, None, Result(table, (0, 1), (5, 2), game_id=game_id))
    await storage.save_tournament(row, 2.0, tables=[played], places=[(anna.id, 1), (bjorn.id, 2)])


async def test_forget_me_leaves_no_row_naming_the_person(
    harness: Harness, db_path: Path | str
) -> None:
    anna, bjorn = harness.members[:2]
    game = await played_match(harness)
    await finished_tournament(harness, game.id)
    await harness.slash(anna, "kasino deck", style="four")
    # she muted table talk and said a line at a ladder match (her row of table_talk)
    await harness.cog.games.storage.set_talk_muted(anna.id, True)
    assert await harness.cog.games.storage.say(anna.id, 1.0, 5.0, [])
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
    # nor while signed up to an open tournament
    cecilia = harness.members[2]
    storage = harness.cog.games.storage
    row = TournamentRow(
        0, harness.guild.id, harness.channel.id, anna.id, "Cup", Settings(GameOptions())
    )
    row = await storage.create_tournament(row, 1.0)
    assert await storage.add_entrant(row.id, Entrant(cecilia.id, cecilia.name), 2.0)
    refused = await harness.slash(cecilia, "kasino forget-me")
    assert refused.ephemeral and "tournament" in refused.response.content
    assert custom_ids(refused.response) == []


async def what_is_shown(harness: Harness, game: Any, member: Any) -> str:
    """Everything the bot shows ``member`` of a finished match, as text: its exported
    record, its replay (first and last step) and the history page."""
    exported = await harness.slash(member, "kasino export", game=game.id)
    (attachment,) = exported.response.attachments
    shown = [(await attachment.read()).decode("utf-8")]
    table = harness.table_message(game)
    opened = await harness.click(member, table, custom_id=f"k:replay:{game.id}:0:open")
    last = next(c for c in custom_ids(opened.response) if c.endswith(":last"))
    end = await harness.click(member, opened.response, custom_id=last)
    history = await harness.slash(member, "kasino history")
    for answer in (opened, end, history):
        shown += [str(embed.to_dict()) for embed in answer.response.embeds]
    return "\n".join(shown)


async def confirm_forget(harness: Harness, member: Any) -> None:
    asked = await harness.slash(member, "kasino forget-me")
    done = await harness.click(member, asked.response, custom_id=answer(asked.response, "yes"))
    assert "Done" in done.response.content


def held_in_memory(harness: Harness, user_id: int) -> list[str]:
    """The caches of the running bot that still hold the person: a record or a menu
    snapshot with their seat, their chosen deck, an open hand view (with their language)."""
    cog = harness.cog
    found = []
    for record, _ in cog.records._records.values():
        if str(user_id) in record.to_json():
            found.append(f"record {record.game_id}")
    for snapshot in cog.live.menus._snapshots.values():
        if any(seat.user_id == user_id for seat in snapshot.seats):
            found.append(f"snapshot {snapshot.id}")
    if cog.inks.chosen(USER, user_id) is not None:
        found.append("deck")
    # an open hand view keeps the reader's client language; a finished game keeps none
    found += [f"hand view {game}" for game, user in cog.live._open if user == user_id]
    return found


async def test_the_replay_export_and_history_forget_at_once(harness: Harness) -> None:
    anna, bjorn = harness.members[:2]
    game = await played_match(harness)
    await harness.slash(anna, "kasino deck", style="four")
    before = await what_is_shown(harness, game, bjorn)  # the record is cached now
    assert anna.name in before and str(anna.id) in before
    assert held_in_memory(harness, anna.id)
    await confirm_forget(harness, anna)
    assert held_in_memory(harness, anna.id) == []
    after = await what_is_shown(harness, game, bjorn)
    assert anna.name not in after and str(anna.id) not in after
    assert bjorn.name in after  # the others' records stay whole


async def test_a_forgetting_by_another_process_is_seen_at_the_next_interaction(
    harness: Harness, db_path: Path | str
) -> None:
    """Another process (here a second storage client on the same database: a second bot
    on the SQLite file, or a shard on PostgreSQL) forgets her; this bot learns it only
    through the database, before it serves anything from its caches."""
    anna, bjorn = harness.members[:2]
    game = await played_match(harness)
    await harness.slash(anna, "kasino deck", style="four")
    assert anna.name in await what_is_shown(harness, game, bjorn)
    await forgotten_elsewhere(db_path, anna.id)
    assert held_in_memory(harness, anna.id)  # not told yet: nothing was asked of it
    after = await what_is_shown(harness, game, bjorn)
    assert anna.name not in after and str(anna.id) not in after
    assert held_in_memory(harness, anna.id) == []


async def test_the_forgotten_count_survives_a_restart(harness: Harness, bot_config: Config) -> None:
    anna, bjorn = harness.members[:2]
    game = await played_match(harness)
    await confirm_forget(harness, anna)
    await harness.restart(KasinoBot(bot_config, seed=3))
    people = harness.cog.people
    assert await harness.cog.games.storage.forgotten_count() == 1
    # the restarted bot starts from the count: its first export drops nothing more
    shown = await what_is_shown(harness, game, bjorn)
    assert anna.name not in shown and people.epoch == 0
    await confirm_forget(harness, harness.members[2])
    assert await harness.cog.games.storage.forgotten_count() == 2 and people.epoch == 1


async def forgotten_elsewhere(db_path: Path | str, user_id: int) -> None:
    """Another process (a second storage client on the same database) forgets someone."""
    other = await Storage.open(db_path)
    try:
        await other.forget_user(user_id, 1.0)
    finally:
        await other.close()


async def test_any_command_or_click_first_drops_a_deck_forgotten_elsewhere(
    harness: Harness, db_path: Path | str
) -> None:
    anna, bjorn, cecilia = harness.members[:3]
    await harness.slash(anna, "kasino deck", style="four")
    await harness.slash(bjorn, "kasino deck", style="four")
    board = await harness.slash(cecilia, "kasino scores")
    inks = harness.cog.inks
    await forgotten_elsewhere(db_path, anna.id)
    assert inks.chosen(USER, anna.id) == "four"  # not told yet
    # the count is read at most every LOOK_EVERY seconds before an ordinary interaction
    await harness.slash(cecilia, "kasino help")
    assert inks.chosen(USER, anna.id) == "four"
    await harness.env.advance_time(LOOK_EVERY)
    await harness.slash(cecilia, "kasino help")  # a command that reads no record
    assert inks.chosen(USER, anna.id) is None
    assert inks.chosen(USER, bjorn.id) == "four"  # read again, not lost
    await forgotten_elsewhere(db_path, bjorn.id)
    await harness.env.advance_time(LOOK_EVERY)
    await harness.click(cecilia, board.response, label="By wins")  # a click, likewise
    assert inks.chosen(USER, bjorn.id) is None


async def test_a_record_read_before_a_forgetting_is_served_but_not_kept(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record still being read when someone is forgotten may hold them: it answers the
    one who asked before, but it is not cached for anyone after."""
    game = await played_match(harness)
    flow = harness.cog.records
    started, go_on = asyncio.Event(), asyncio.Event()
    load = records_cog.load_record

    async def slow_load(*args: Any, **kwargs: Any) -> Any:
        loaded = await load(*args, **kwargs)
        started.set()
        await go_on.wait()
        return loaded

    monkeypatch.setattr(records_cog, "load_record", slow_load)
    reading = asyncio.create_task(flow.record(game.id, harness.guild.id))
    await started.wait()
    await harness.cog.people.forgot()  # as after a forget-me, while the read goes on
    go_on.set()
    assert (await reading).game_id == game.id
    assert not flow._records
    await flow.record(game.id, harness.guild.id)  # read after it: kept
    assert list(flow._records) == [game.id]


async def test_no_one_id_links_a_forgotten_persons_games(
    harness: Harness, db_path: Path | str
) -> None:
    """Issue 39: one random id used to link all of a person's results, ratings and
    lineups. Now each game has its own nameless id (results, lineups, rating changes),
    each tournament its own, and their current ratings are gone; the others' ratings
    still add up, also after a match played later and when both players are forgotten."""
    anna, bjorn = harness.members[:2]
    first = await played_match(harness)
    second = await played_match(harness)
    await finished_tournament(harness, first.id)
    await finished_tournament(harness, second.id)
    await confirm_forget(harness, anna)
    by_game = query(db_path, "SELECT game_id, user_id FROM results WHERE user_id < 0")
    ids = {row["game_id"]: row["user_id"] for row in by_game}
    assert sorted(ids) == [first.id, second.id] and len(set(ids.values())) == 2
    for row in query(db_path, "SELECT game_id, user_id FROM rating_changes WHERE user_id < 0"):
        assert row["user_id"] == ids[row["game_id"]]  # the game's own id, nothing wider
    for row in query(db_path, "SELECT game_id, lineup FROM results"):
        others = [other for game, other in ids.items() if game != row["game_id"]]
        assert f'"u{ids[row["game_id"]]}"' in row["lineup"]
        assert not any(str(other) in row["lineup"] for other in others)
    assert query(db_path, "SELECT * FROM ratings WHERE user_id < 0") == []
    cups = query(
        db_path, "SELECT tournament_id, user_id FROM tournament_entrants WHERE user_id < 0"
    )
    cup_ids = {row["user_id"] for row in cups}
    assert len(cups) == 2 and len(cup_ids) == 2 and not cup_ids & set(ids.values())
    for row in query(
        db_path, "SELECT tournament_id, user_id FROM tournament_places WHERE user_id < 0"
    ):
        assert row["user_id"] == next(
            c["user_id"] for c in cups if c["tournament_id"] == row["tournament_id"]
        )
    storage = harness.cog.games.storage
    report = await rebuild(storage, write=False)
    assert report.matches == 2 and report.differences == 0, report.examples
    # Anna comes back and plays Björn again, then Björn is forgotten too: still exact
    await played_match(harness)
    await confirm_forget(harness, bjorn)
    report = await rebuild(storage, write=False)
    assert report.matches == 3 and report.differences == 0, report.examples
    # a rebuild writes no current rating of a forgotten person either
    await rebuild(storage, write=True)
    assert query(db_path, "SELECT * FROM ratings WHERE user_id < 0") == []
    assert (await rebuild(storage, write=False)).differences == 0


def shows(message: Any) -> str:
    """Everything a message shows, as text."""
    return (message.content or "") + "".join(str(e.to_dict()) for e in message.embeds)


async def test_the_kept_messages_of_her_games_are_edited_without_her(
    harness: Harness, db_path: Path | str
) -> None:
    """Issue 39: the game's lobby and its end message (the last table, with the final
    line and the Replay button) named her after forget-me; they are edited in place."""
    anna, bjorn = harness.members[:2]
    game = await played_match(harness)
    stored = await harness.cog.games.storage.get_game(game.id)
    lobby = harness.env.backend.get_message(harness.channel.id, stored.extra["lobby_id"])
    end = harness.table_message(game)
    assert end.id == stored.message_id
    for message in (lobby, end):
        assert anna.name in shows(harness.current(message))
    replay = next(c for c in custom_ids(end) if c.startswith("k:replay:"))
    await confirm_forget(harness, anna)
    await harness.cog.forget_posts.idle()
    assert harness.cog.forget_posts.edited == 2
    for message in (lobby, end):
        shown = shows(harness.current(message))
        assert anna.name not in shown and str(anna.id) not in shown, shown
        assert bjorn.name in shown and "former player" in shown
    assert "Game over" in shows(harness.current(end))
    # Replay and Analyse stay; no Rematch: her seat cannot be seated again
    assert replay in custom_ids(harness.current(end))
    assert not any(c.startswith("k:rematch:") for c in custom_ids(harness.current(end)))
    forged = await harness.forge(bjorn, harness.current(end), f"k:rematch:{game.id}")
    assert forged.ephemeral and "no rematch" in forged.response.content
    assert await harness.game() is None


async def test_the_edits_keep_within_the_channels_budget(
    harness: Harness, virtual_waits: None
) -> None:
    """Three games in one channel: six messages to edit. Four go at once, the rest once
    the channel's window has passed (Discord allows 5 messages in 5 s per channel)."""
    anna = harness.members[0]
    for _ in range(3):
        await played_match(harness)
    await confirm_forget(harness, anna)
    edits = harness.cog.forget_posts
    assert edits.edited == BURST
    await harness.env.advance_time(WINDOW + 1)
    await edits.idle()
    assert edits.edited == 6 and edits.skipped == 0
