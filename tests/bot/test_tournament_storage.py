"""Tournaments in storage (bot/storage/tournaments.py, schema version 13), on SQLite and
PostgreSQL: a tournament reads back as written; a save from a stale copy is refused and
writes nothing; a person signs up once (and never past the cap); a channel has one open
tournament; the open ones are found by shard; the board and the profile's list are in
their order; a damaged row is refused saying why; a copy and a backup take the tables
along; forgetting a person leaves no row naming them."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from bot.backup import backup
from bot.models import GameOptions
from bot.nonces import legacy_key, nonce
from bot.storage import Shards, Statement, Storage
from bot.storage.copy import copy_database
from bot.storage.schema import ID_TABLES, TABLES
from bot.storage.tournaments import (
    ChannelHasTournament,
    CorruptTournament,
    PlayerTournament,
    StaleTournament,
    TableRow,
    TournamentBoardRow,
    TournamentRow,
    settings_from_json,
    settings_json,
)
from bot.tournaments.model import Decided, Entrant, Format, Phase, Result, Settings, Table
from tests.bot.test_forget import naming
from tests.dbrows import execute

GUILD, CHANNEL = 5 << 22, 900  # shard 1 of 2 (Discord's rule: (id >> 22) % count)
ANNA, BJORN, CECILIA, DAVID = 1041, 1042, 1043, 1044
SETTINGS = Settings(
    GameOptions(variant="krypkasino", target=21, teams=True, majorities=True),
    format=Format.SWISS,
    table_size=4,
    rounds=3,
    hints=True,
    cap=8,
)


def new_row(
    channel: int = CHANNEL, guild: int = GUILD, name: str = "Friday night"
) -> TournamentRow:
    return TournamentRow(0, guild, channel, ANNA, name, SETTINGS, seed="s33")


def entrant(user_id: int) -> Entrant:
    return Entrant(user_id, f"player{user_id}")


async def finished_tournament(
    storage: Storage, channel: int, places: list[tuple[int, int]], now: float, name: str = "Cup"
) -> TournamentRow:
    """A two-player tournament of the given people, finished at ``now`` with ``places``."""
    row = await storage.create_tournament(new_row(channel, name=name), now - 10)
    for user_id, _ in places:
        assert await storage.add_entrant(row.id, entrant(user_id), now - 9)
    row.phase, row.round = Phase.FINISHED, 1
    await storage.save_tournament(row, now, places=places)
    return row


async def test_a_tournament_reads_back_and_a_stale_save_is_refused(db_path: Path | str) -> None:
    assert {"tournaments", "tournament_entrants"} <= set(ID_TABLES)
    assert {"tournament_tables", "tournament_places"} <= set(TABLES)
    storage = await Storage.open(db_path)
    try:
        row = await storage.create_tournament(new_row(), 100.0)
        assert row.id and row.phase is Phase.SIGNUP and row.version == 0
        loaded = await storage.get_tournament(row.id)
        assert loaded == row and loaded.settings == SETTINGS
        assert await storage.get_tournament(row.id + 99) is None

        for user_id in (ANNA, BJORN, CECILIA, DAVID):
            assert await storage.add_entrant(row.id, entrant(user_id), 101.0)
        stale = await storage.get_tournament(row.id)
        assert stale is not None and [e.user_id for e in stale.entrants] == [
            ANNA, BJORN, CECILIA, DAVID
        ]  # fmt: skip

        # round 1 starts: two tables, one decided, ratings kept for the seeding
        table = Table(1, 1, (ANNA, BJORN, None, CECILIA))
        result = Result(table, (0, 1, 2, 2), (21, 14, 9, 9), Decided.SCORE, 77)
        tables = [TableRow(table, 77, 500, result), TableRow(Table(1, 2, (DAVID,)))]
        row.phase, row.round, row.deadline, row.extra = Phase.RUNNING, 1, 4000.0, {"m": [1]}
        rated = dataclasses.replace(stale.entrants[1], rating=1512.5)
        row.entrants = list(stale.entrants)
        await storage.save_tournament(row, 102.0, tables=tables, entrants=[rated])
        assert row.version == 1 and row.tables == tables and row.entrants[1] == rated
        again = await storage.get_tournament(row.id)
        assert again == row and again.results == [result]
        assert await storage.table_of_game(77) == (row.id, table)
        assert await storage.table_of_game(78) is None

        # the copy loaded before that save is refused, and writes nothing of its own
        stale.name = "Overwritten"
        with pytest.raises(StaleTournament):
            await storage.save_tournament(stale, 103.0, tables=[TableRow(Table(1, 3, (ANNA,)))])
        assert await storage.get_tournament(row.id) == row
        # a result replaces the table's row (an upsert by round and number)
        bye = TableRow(Table(1, 2, (DAVID,)), result=Result(Table(1, 2, (DAVID,)), (0,), (0,)))
        await storage.save_tournament(row, 104.0, tables=[bye])
        assert row.round_tables(1) == [tables[0], bye] and row.version == 2
        assert await storage.get_tournament(row.id) == row
        with pytest.raises(ValueError, match="finishes"):  # places only when it finishes
            await storage.save_tournament(row, 105.0, places=[(ANNA, 1)])
    finally:
        await storage.close()


async def test_sign_up_once_within_the_cap_and_drop(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        row = await storage.create_tournament(new_row(), 1.0)
        assert await storage.add_entrant(row.id, entrant(ANNA), 2.0)
        assert not await storage.add_entrant(row.id, entrant(ANNA), 3.0)  # twice: refused
        assert await storage.add_entrant(row.id, entrant(BJORN), 3.0, cap=2)
        assert not await storage.add_entrant(row.id, entrant(CECILIA), 4.0, cap=2)  # full
        assert not await storage.add_entrant(row.id + 1, entrant(CECILIA), 4.0)  # no such
        assert await storage.remove_entrant(row.id, BJORN)
        assert not await storage.remove_entrant(row.id, BJORN)
        assert await storage.add_entrant(row.id, entrant(CECILIA), 5.0, cap=2)
        assert await storage.drop_entrant(row.id, CECILIA, 2)
        assert not await storage.drop_entrant(row.id, CECILIA, 3)  # dropped already
        assert not await storage.drop_entrant(row.id, DAVID, 3)  # never signed up
        # forget-me waits while someone is in an open tournament (not once dropped)
        assert await storage.in_open_tournament(ANNA)
        assert not await storage.in_open_tournament(CECILIA)
        loaded = await storage.get_tournament(row.id)
        assert loaded is not None and loaded.entrants == [
            entrant(ANNA), Entrant(CECILIA, f"player{CECILIA}", dropped=2)
        ]  # fmt: skip
        loaded.phase = Phase.CANCELLED
        await storage.save_tournament(loaded, 6.0)
        assert not await storage.add_entrant(row.id, entrant(DAVID), 7.0)  # closed
        assert not await storage.in_open_tournament(ANNA)
    finally:
        await storage.close()


async def test_one_open_tournament_a_channel_and_the_open_ones_by_shard(
    db_path: Path | str,
) -> None:
    storage = await Storage.open(db_path)
    try:
        first = await storage.create_tournament(new_row(), 1.0)
        first_entrants = [entrant(ANNA)]
        with pytest.raises(ChannelHasTournament) as busy:
            refused = new_row()
            refused.entrants = first_entrants
            await storage.create_tournament(refused, 2.0)
        assert busy.value.tournament_id == first.id
        assert await storage.channel_tournament(CHANNEL) == first.id
        assert (await storage.get_tournament(first.id)).entrants == []  # type: ignore[union-attr]
        other_guild = 6 << 22  # shard 0 of 2
        elsewhere = new_row(CHANNEL + 1, other_guild)
        elsewhere.entrants = [entrant(BJORN), entrant(ANNA)]
        second = await storage.create_tournament(elsewhere, 3.0)
        loaded = await storage.get_tournament(second.id)
        assert loaded is not None and [e.user_id for e in loaded.entrants] == [BJORN, ANNA]
        first.phase, first.deadline = Phase.RUNNING, 50.0
        await storage.save_tournament(first, 4.0)
        assert await storage.open_tournaments() == [(first.id, 50.0), (second.id, None)]
        assert await storage.open_tournaments(Shards(2, (1,))) == [(first.id, 50.0)]
        assert await storage.open_tournaments(Shards(2, (0,))) == [(second.id, None)]
        first.phase = Phase.FINISHED
        await storage.save_tournament(first, 5.0)
        assert first.finished_at == 5.0
        assert await storage.channel_tournament(CHANNEL) is None
        third = await storage.create_tournament(new_row(), 6.0)  # the channel is free again
        assert await storage.channel_tournament(CHANNEL) == third.id
    finally:
        await storage.close()


async def test_the_board_and_a_players_tournaments_in_order(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        await finished_tournament(storage, 1, [(ANNA, 1), (BJORN, 2), (CECILIA, 3)], 100.0, "A")
        await finished_tournament(storage, 2, [(BJORN, 1), (ANNA, 4), (DAVID, 2)], 200.0, "B")
        await finished_tournament(storage, 3, [(CECILIA, 2), (DAVID, 3)], 300.0, "C")
        await finished_tournament(storage, 4, [(BJORN, 2), (DAVID, 1)], 400.0, "D")
        # a tournament of another server counts on its board only
        other = new_row(5, GUILD + (1 << 22))
        other = await storage.create_tournament(other, 1.0)
        other.phase = Phase.FINISHED
        await storage.save_tournament(other, 500.0, places=[(CECILIA, 1)])

        board, total = await storage.tournament_board(GUILD, 0, 10)
        assert total == 4
        # wins, then podiums, then tournaments played, then the id
        assert board == [
            TournamentBoardRow(BJORN, 3, 1, 3),
            TournamentBoardRow(DAVID, 3, 1, 3),
            TournamentBoardRow(ANNA, 2, 1, 1),
            TournamentBoardRow(CECILIA, 2, 0, 2),
        ]
        assert (await storage.tournament_board(GUILD, 2, 1)) == ([board[2]], 4)
        mine = await storage.player_tournaments(GUILD, ANNA)
        assert [(t.name, t.place, t.players, t.finished_at) for t in mine] == [
            ("B", 4, 3, 200.0), ("A", 1, 3, 100.0)
        ]  # fmt: skip
        assert mine[0] == PlayerTournament(mine[0].tournament_id, "B", "krypkasino", 4, 3, 200.0)
        assert len(await storage.player_tournaments(GUILD, BJORN, limit=2)) == 2
        assert await storage.player_tournaments(GUILD + (1 << 22), ANNA) == []
        assert await storage.player_tournaments(GUILD, ANNA, variant="krypkasino") == mine
        assert await storage.player_tournaments(GUILD, ANNA, variant="casino") == []
    finally:
        await storage.close()


@pytest.mark.parametrize(
    ("column", "damage", "reason"),
    [
        ("settings", "{not json", "settings is not valid JSON"),
        ("settings", '{"game": {"variant": "casino", "colour": 1}}', "unknown options"),
        ("settings", '{"game": {"target": "16"}, "format": "swiss"}', "settings.game.target"),
        ("extra", "[]", "extra is not a JSON object"),
    ],
)
async def test_a_damaged_row_is_refused_saying_why(
    db_path: Path | str, column: str, damage: str, reason: str
) -> None:
    storage = await Storage.open(db_path)
    try:
        row = await storage.create_tournament(new_row(), 1.0)
        sane = await storage.create_tournament(new_row(CHANNEL + 1), 1.0)
        sql = f"UPDATE tournaments SET {column} = ? WHERE id = ?"
        await storage.write([Statement(sql, (damage, row.id))])
        with pytest.raises(CorruptTournament, match=reason) as refused:
            await storage.get_tournament(row.id)
        assert refused.value.tournament_id == row.id
        # the others still load, and the restart's list reads no JSON
        assert await storage.get_tournament(sane.id) == sane
        assert [tid for tid, _ in await storage.open_tournaments()] == [row.id, sane.id]
    finally:
        await storage.close()


async def test_a_damaged_table_result_is_refused(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        row = await storage.create_tournament(new_row(), 1.0)
        table = Table(1, 1, (ANNA, BJORN))
        done = TableRow(table, result=Result(table, (0, 1), (16, 3), game_id=4))
        await storage.save_tournament(row, 2.0, tables=[done])
        sql = "UPDATE tournament_tables SET result = ? WHERE tournament_id = ?"
        await storage.write([Statement(sql, ('{"places": [0], "points": [1]}', row.id))])
        with pytest.raises(CorruptTournament, match="one place and score per player"):
            await storage.get_tournament(row.id)
    finally:
        await storage.close()


def test_settings_json_round_trips_and_refuses_a_bool_for_a_number() -> None:
    assert settings_from_json(settings_json(SETTINGS)) == SETTINGS
    text = settings_json(SETTINGS).replace('"cap": 8', '"cap": true')
    with pytest.raises(ValueError, match=r"settings\.cap"):
        settings_from_json(text)


async def test_forgetting_a_person_leaves_no_tournament_row_naming_them(
    db_path: Path | str,
) -> None:
    storage = await Storage.open(db_path)
    try:
        name = f"player{BJORN}"
        row = await finished_tournament(storage, 1, [(ANNA, 1), (BJORN, 2)], 100.0)
        table = Table(1, 1, (BJORN, ANNA))
        result = Result(table, (1, 0), (5, 16), game_id=None)
        row.extra = {"podium": f"<@{BJORN}> was second", "ids": [BJORN, ANNA]}
        await storage.save_tournament(row, 101.0, tables=[TableRow(table, None, 3, result)])
        organised = await storage.create_tournament(new_row(2), 102.0)
        organised.organiser_id = BJORN
        await storage.save_tournament(organised, 103.0)
        assert naming(db_path, BJORN, name)

        await storage.forget_user(BJORN, 200.0)
        assert naming(db_path, BJORN, name) == []
        # the others keep theirs: the tournament still reads, with a nameless entrant
        kept = await storage.get_tournament(row.id)
        assert kept is not None
        anna, gone = kept.entrants
        assert gone.user_id < 0 and gone.name == "" and anna == entrant(ANNA)
        assert kept.tables[0].table.players == (gone.user_id, ANNA)
        assert kept.extra == {"podium": "👤 was second", "ids": [gone.user_id, ANNA]}
        board, total = await storage.tournament_board(GUILD, 0, 10)
        assert total == 1 and board == [TournamentBoardRow(ANNA, 1, 1, 1)]
        assert await storage.player_tournaments(GUILD, BJORN) == []
        assert [t.players for t in await storage.player_tournaments(GUILD, ANNA)] == [2]
    finally:
        await storage.close()


async def test_a_copy_and_a_backup_take_the_tournaments_along(
    postgres_url: str, tmp_path: Path
) -> None:
    db_path = tmp_path / "kasino.db"  # the copy's source is SQLite
    source = await Storage.open(db_path)
    try:
        row = await finished_tournament(source, 1, [(ANNA, 1), (BJORN, 2)], 100.0)
        table = Table(1, 1, (ANNA, BJORN))
        await source.save_tournament(row, 101.0, tables=[TableRow(table, None, 7)])
        open_one = await source.create_tournament(new_row(2), 102.0)
        assert "2 tournaments" in backup(db_path, tmp_path / "backup.db")
        target = await Storage.open(postgres_url)
        try:
            report = await copy_database(source, target)
            assert report.counts["tournaments"] == 2 and report.counts["tournament_places"] == 2
            assert await target.get_tournament(row.id) == await source.get_tournament(row.id)
            assert await target.channel_tournament(2) == open_one.id
            # ids generated on PostgreSQL follow the copied ones
            later = await target.create_tournament(new_row(3), 103.0)
            assert later.id > open_one.id
            assert await target.add_entrant(later.id, entrant(ANNA), 104.0)
        finally:
            await target.close()
    finally:
        await source.close()


async def test_sign_ups_at_once_never_pass_the_cap_and_the_lock_is_the_tournaments(
    db_path: Path | str,
) -> None:
    storage = await Storage.open(db_path)
    try:
        row = await storage.create_tournament(new_row(), 1.0)
        joined = await asyncio.gather(
            *(storage.add_entrant(row.id, entrant(2000 + n), 2.0, cap=3) for n in range(8))
        )
        assert sum(joined) == 3
        loaded = await storage.get_tournament(row.id)
        assert loaded is not None and len(loaded.entrants) == 3
        # the tournament's lock: one holder at a time (across processes on PostgreSQL),
        # apart from the games' locks (a game with the same id is not held up)
        order: list[str] = []

        async def hold(name: str) -> None:
            async with storage.tournament_lock(row.id):
                order.append(f"{name} in")
                await asyncio.sleep(0.05)
                order.append(f"{name} out")

        async with storage.game_lock(row.id):
            await asyncio.gather(hold("a"), hold("b"))
        if storage.shared:
            assert order in (
                ["a in", "a out", "b in", "b out"], ["b in", "b out", "a in", "a out"]
            )  # fmt: skip
        # a holder's own reads and saves go on through the connection holding it
        async with storage.tournament_lock(row.id):
            assert loaded is not None
            await storage.save_tournament(loaded, 3.0)
            assert (await storage.get_tournament(row.id)).version == 1  # type: ignore[union-attr]
    finally:
        await storage.close()


async def test_a_tournaments_nonces_are_its_own_whatever_its_id(db_path: Path | str) -> None:
    """Its messages' nonces come from a random key stored with it, not from its id: a
    database restored from a backup hands the same id to another tournament."""
    storage = await Storage.open(db_path)
    try:
        row = await storage.create_tournament(new_row(), 100.0)
        key = row.nonce_key
        loaded = await storage.get_tournament(row.id)
        assert loaded is not None and loaded.nonce_key == key and len(key) == 24
        execute(db_path, "DELETE FROM tournament_entrants")
        execute(db_path, "DELETE FROM tournaments")  # as a restore to before it
        again = await storage.create_tournament(new_row(), 200.0)
        assert again.nonce_key != key
        assert nonce(again.nonce_key, "standings", 1) != nonce(key, "standings", 1)
        # one stored before keys were: a key made of its id and time, the same each time
        execute(db_path, "UPDATE tournaments SET extra = '{}'")
        old = await storage.get_tournament(again.id)
        assert old is not None and old.nonce_key == legacy_key(again.id, 200.0)
    finally:
        await storage.close()
