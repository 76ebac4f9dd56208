"""The ladder's pool in storage (schema version 18, bot.storage.ladder), on SQLite and
PostgreSQL: joining (one entry per person), leaving twice, the counts, pairing exactly
once, blocks and recent opponents read inside the pairing, pauses, the server switch,
forget-me; and on PostgreSQL two processes pairing one pool at once never pair anyone
twice."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.ladder import PAUSE_FIRST, RECENT_MATCHES
from bot.storage import MIGRATIONS, Storage
from bot.storage.copy import copy_database
from bot.storage.ladder import DIRECT, MAX_BLOCKS, QueueEntry
from bot.storage.schema import TABLES
from tests.bot.test_forget import naming
from tests.bot.test_shards import run_in_thread
from tests.conftest import BACKENDS
from tests.dbrows import query

SERVER = 1456074443980800055  # Discord ids need 64 bits
CHANNEL = 1456074443980800099


def person(user: int, at: float, rating: float = 1500, variant: str = "swedish", players: int = 2,
           guild: int = SERVER) -> QueueEntry:  # fmt: skip
    return QueueEntry(
        user, variant, players, guild, CHANNEL + user, "channel", f"Player{user}", rating, at,
        locale="sv",
    )  # fmt: skip


def ids(groups: list[tuple[QueueEntry, ...]]) -> list[list[int]]:
    return [[e.user_id for e in g] for g in groups]


async def test_join_replace_leave_and_counts(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        assert await storage.schema_version() == len(MIGRATIONS) >= 18
        assert {"ladder_queue", "ladder_blocks", "ladder_off"} <= set(TABLES)
        first = person(1, 10.0)
        joined = await storage.join_ladder(first, 10.0)
        assert joined.refused is None and joined.replaced is None
        assert await storage.ladder_entry(1) == first
        assert await storage.set_ladder_message(1, 10.0, 555)
        assert (await storage.ladder_entry(1)).message_id == 555  # type: ignore[union-attr]
        # a new entry replaces the old one (another game): the old one is handed back,
        # with its waiting message, and the new one has none yet
        second = person(1, 20.0, variant="krypkasino", players=3)
        joined = await storage.join_ladder(second, 20.0)
        assert joined.replaced is not None and joined.replaced.message_id == 555
        assert await storage.ladder_entry(1) == second
        assert not await storage.set_ladder_message(1, 10.0, 556)  # the old entry's: gone
        await storage.join_ladder(person(2, 21.0), 21.0)
        await storage.join_ladder(person(3, 22.0, guild=DIRECT), 22.0)
        assert await storage.ladder_counts() == {("krypkasino", 3): 1, ("swedish", 2): 2}
        assert [e.user_id for e in await storage.ladder_entries()] == [1, 2, 3]
        # leaving twice is fine
        assert await storage.leave_ladder(2) == person(2, 21.0)
        assert await storage.leave_ladder(2) is None
        assert await storage.ladder_counts() == {("krypkasino", 3): 1, ("swedish", 2): 1}
        # bad input changes nothing
        assert (await storage.join_ladder(person(4, 30.0, players=3), 30.0)).refused == "game"
        forged = QueueEntry(4, "swedish", 2, SERVER, CHANNEL, "carrier pigeon", "x", 1500, 30.0)
        assert (await storage.join_ladder(forged, 30.0)).refused == "courier"
        assert await storage.ladder_entry(4) is None
        # the computer is offered once per entry, whichever process asks
        assert await storage.offer_computer(3, 22.0, 210.0)
        assert not await storage.offer_computer(3, 22.0, 215.0)
        assert (await storage.ladder_entry(3)).offered_at == 210.0  # type: ignore[union-attr]
        await storage.join_ladder(person(3, 300.0, guild=DIRECT), 300.0)  # a new entry
        assert (await storage.ladder_entry(3)).offered_at is None  # type: ignore[union-attr]
        assert not await storage.offer_computer(3, 22.0, 301.0)  # the old entry's: gone
    finally:
        await storage.close()


async def test_pairing_removes_the_pair_exactly_once(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        await storage.join_ladder(person(1, 0.0, 1500), 0.0)
        await storage.join_ladder(person(2, 1.0, 1700), 1.0)  # too far apart at first
        await storage.join_ladder(person(3, 2.0, 1500, variant="mulle"), 2.0)  # another game
        assert await storage.pair("swedish", 2, 5.0) == []
        assert await storage.ladder_counts() == {("swedish", 2): 2, ("mulle", 2): 1}
        # a minute later both windows reach 200
        groups = await storage.pair("swedish", 2, 61.0)
        assert ids(groups) == [[1, 2]] and groups[0][0] == person(1, 0.0, 1500)
        assert await storage.pair("swedish", 2, 62.0) == []
        assert await storage.ladder_counts() == {("mulle", 2): 1}
        assert await storage.ladder_recent(1) == {2} and await storage.ladder_recent(2) == {1}
        assert await storage.pair("chess", 2, 62.0) == []
    finally:
        await storage.close()


async def test_blocks_and_recent_opponents_are_read_by_the_pairing(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        assert await storage.block_ladder(1, 2, 0.0) == "blocked"
        assert await storage.block_ladder(1, 2, 0.0) == "already"
        assert await storage.block_ladder(1, 1, 0.0) == "self"
        assert await storage.ladder_blocks(1) == [2]
        for user in (1, 2):
            await storage.join_ladder(person(user, 0.0), 0.0)
        assert await storage.pair("swedish", 2, 1.0) == []  # 1 blocked 2
        assert await storage.unblock_ladder(1, 2) and not await storage.unblock_ladder(1, 2)
        assert ids(await storage.pair("swedish", 2, 2.0)) == [[1, 2]]
        # 1 and 2 met: with 3 there too, each is given 3 ... one of them, the other waits
        for user in (1, 2, 3):
            await storage.join_ladder(person(user, 10.0 + user), 10.0 + user)
        assert ids(await storage.pair("swedish", 2, 20.0)) == [[1, 3]]
        # only the last RECENT_MATCHES matches count
        at = 30.0
        for other in range(10, 10 + RECENT_MATCHES):
            await storage.join_ladder(person(2, at), at)
            await storage.join_ladder(person(other, at + 1), at + 1)
            assert ids(await storage.pair("swedish", 2, at + 2)) == [[2, other]]
            at += 10
        assert await storage.ladder_recent(2) == set(range(10, 10 + RECENT_MATCHES))
        # a block is kept whoever blocked whom, up to MAX_BLOCKS
        for other in range(100, 100 + MAX_BLOCKS):
            await storage.block_ladder(5, other, 1.0)
        assert await storage.block_ladder(5, 99, 2.0) == "full"
    finally:
        await storage.close()


async def test_krypkasino_groups_of_three(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        for user in range(1, 6):
            await storage.join_ladder(person(user, user, variant="krypkasino", players=3), user)
        await storage.block_ladder(3, 2, 0.0)
        assert ids(await storage.pair("krypkasino", 3, 10.0)) == [[1, 2, 4]]
        assert await storage.ladder_counts() == {("krypkasino", 3): 2}
    finally:
        await storage.close()


async def test_abandonments_pause_queueing(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        assert await storage.record_ladder_abandon(1, 100, 10.0) is None
        assert await storage.record_ladder_abandon(1, 100, 11.0) is None  # the same match
        assert await storage.record_ladder_abandon(1, 101, 20.0) is None
        until = await storage.record_ladder_abandon(1, 102, 30.0)
        assert until == 30.0 + PAUSE_FIRST
        joined = await storage.join_ladder(person(1, 40.0), 40.0)
        assert joined.refused == "paused" and joined.paused_until == until
        assert await storage.ladder_entry(1) is None
        assert (await storage.join_ladder(person(1, until), until)).refused is None
    finally:
        await storage.close()


async def test_a_server_turns_the_ladder_off(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        await storage.join_ladder(person(1, 0.0), 0.0)
        await storage.join_ladder(person(2, 0.0, guild=DIRECT), 0.0)
        assert await storage.ladder_enabled(SERVER)
        removed = await storage.set_ladder_enabled(SERVER, False, 1.0)
        assert [e.user_id for e in removed] == [1]
        assert not await storage.ladder_enabled(SERVER)
        assert (await storage.join_ladder(person(1, 2.0), 2.0)).refused == "off"
        assert await storage.ladder_counts() == {("swedish", 2): 1}
        # a group DM's entry is not any server's
        assert (await storage.join_ladder(person(3, 2.0, guild=DIRECT), 2.0)).refused is None
        with pytest.raises(ValueError):
            await storage.set_ladder_enabled(DIRECT, False, 3.0)
        assert await storage.set_ladder_enabled(SERVER, True, 4.0) == []
        assert (await storage.join_ladder(person(1, 5.0), 5.0)).refused is None
    finally:
        await storage.close()


async def test_forget_me_removes_the_persons_ladder_rows(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    anna = 424242424242
    try:
        await storage.join_ladder(person(anna, 0.0), 0.0)
        await storage.join_ladder(person(2, 0.0), 0.0)
        assert ids(await storage.pair("swedish", 2, 1.0)) == [[2, anna]]
        await storage.join_ladder(person(anna, 5.0), 5.0)
        await storage.block_ladder(anna, 7, 5.0)
        await storage.block_ladder(8, anna, 5.0)
        await storage.record_ladder_abandon(anna, 3, 5.0)
        assert naming(db_path, anna, f"Player{anna}")
        await storage.forget_user(anna, 10.0)
        assert naming(db_path, anna, f"Player{anna}") == []
        assert await storage.ladder_recent(2) == set()
    finally:
        await storage.close()


@pytest.mark.skipif("postgresql" not in BACKENDS, reason="a copy goes to PostgreSQL")
async def test_the_pool_is_copied_to_postgresql(tmp_path: Path, postgres_url: str) -> None:
    source = await Storage.open(tmp_path / "kasino.db")
    target = await Storage.open(postgres_url)
    try:
        await source.join_ladder(person(1, 0.0), 0.0)
        await source.block_ladder(1, 2, 0.0)
        await source.set_ladder_enabled(SERVER + 1, False, 0.0)
        report = await copy_database(source, target)
        assert report.counts["ladder_queue"] == 1
        assert await target.ladder_entry(1) == person(1, 0.0)
        assert await target.ladder_blocks(1) == [2] and not await target.ladder_enabled(SERVER + 1)
    finally:
        await source.close()
        await target.close()


# ------------------------------------------------------- two processes at once


def newcomer(user: int, now: float, rng: random.Random) -> QueueEntry:
    """Someone who has waited long enough to fit anyone rated 1400 to 1600: three in four
    for Swedish Kasino, the others for Krypkasino for three."""
    variant, players = ("swedish", 2) if user % 4 else ("krypkasino", 3)
    return person(user, now - 200 + rng.random(), rng.randint(1400, 1600), variant, players)


def pairing_process(url: str, barrier: threading.Barrier, shard: int, rounds: int) -> Any:
    """One process (its own loop and pool): in each of ``rounds`` rounds it queues ten
    new people, meets the other process, and both pair the pools at the same instant, each
    with several tasks at once. Gives who it queued and the groups it paired."""

    async def run() -> tuple[list[int], list[list[list[int]]]]:
        rng = random.Random(shard)
        storage = await Storage.open(url)
        queued: list[int] = []
        paired: list[list[list[int]]] = []
        try:
            for n in range(rounds):
                now = 1000.0 + 10 * n
                for i in range(10):
                    user = 10_000 * (shard + 1) + 100 * n + i
                    await storage.join_ladder(newcomer(user, now, rng), now)
                    queued.append(user)
                await asyncio.to_thread(barrier.wait)
                found = await asyncio.gather(
                    *(storage.pair("swedish", 2, now) for _ in range(3)),
                    *(storage.pair("krypkasino", 3, now) for _ in range(2)),
                )
                paired += [ids(groups) for groups in found]
        finally:
            await storage.close()
        return queued, paired

    return asyncio.run(run())


@pytest.mark.skipif("postgresql" not in BACKENDS, reason="two processes need PostgreSQL")
def test_two_processes_pairing_at_once_never_pair_anyone_twice(postgres_url: str) -> None:
    """Two processes (threads with their own loops and pools, as two shards), each with
    five tasks, pair the same pools at the same instants, five times, the pools refilled
    before each: nobody is paired twice, every group is whole, and every entry is either
    paired once or still waiting."""

    async def migrate() -> None:
        await (await Storage.open(postgres_url)).close()

    asyncio.run(migrate())  # once, before the two race to open it
    barrier = threading.Barrier(2, timeout=120)
    getters = [
        run_in_thread(lambda shard=shard: pairing_process(postgres_url, barrier, shard, 5), barrier)
        for shard in (0, 1)
    ]
    results = [get() for get in getters]
    for result in results:
        if isinstance(result, BaseException):
            raise result
    queued = {user for mine, _ in results for user in mine}
    groups = [g for _, paired in results for found in paired for g in found]
    assert all(len(g) in (2, 3) for g in groups)
    placed = [user for g in groups for user in g]
    assert len(placed) > 50, "the pools were hardly paired"
    assert len(placed) == len(set(placed)), "someone was paired twice"
    waiting = {row["user_id"] for row in query(postgres_url, "SELECT user_id FROM ladder_queue")}
    assert set(placed) | waiting == queued and not set(placed) & waiting
    # each group recorded its meetings once each way
    met = query(postgres_url, "SELECT user_id, other_id FROM ladder_recent")
    assert len(met) == sum(len(g) * (len(g) - 1) for g in groups)
