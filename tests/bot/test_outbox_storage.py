"""The durable outbox in storage (schema version 4), on SQLite and PostgreSQL: posts are
written in the transaction of the change they show, only a game's latest table waits, a
restarted process reads its own shards' posts, and a damaged row is dropped, not posted.
Each row keeps the random key of its post's Discord nonce (schema version 14): its own,
whatever id the row is given, through a backup and a copy to PostgreSQL; a row written
before keys were gets one that stays the same."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import discord
import pytest

from bot.backup import backup
from bot.models import Game, GameOptions, Seat
from bot.nonces import legacy_key, nonce
from bot.storage import Outgoing, Shards, StaleGame, Storage
from bot.storage.copy import copy_database
from cogs.play.outbox import Post
from tests.dbrows import execute

SHARD_0, SHARD_1 = 0, 1 << 22  # guild ids of shard 0 and shard 1 of 2


async def new_game(storage: Storage, guild: int, channel: int) -> Game:
    game = Game(0, guild, channel, 1, GameOptions(), [Seat(1, "anna")])
    return await storage.create_game(game, now=1.0)


def post(game: Game, text: str, *, table: bool = False) -> Outgoing:
    return Post(game.id, game.guild_id, game.channel_id, content=text, table=table).record()


async def test_posts_are_written_with_their_change_and_tables_coalesce(
    db_path: Path | str,
) -> None:
    storage = await Storage.open(db_path)
    try:
        game = await new_game(storage, SHARD_0, 10)
        game.outbox = [post(game, "summary"), post(game, "table 1", table=True)]
        game.version += 1
        await storage.save_game(game, now=2.0)
        assert game.stored_version == game.version
        game.outbox = [post(game, "table 2", table=True)]
        game.version += 1
        await storage.save_game(game, now=3.0)
        waiting = await storage.pending_posts()
        assert [Post.of(r).content for r in waiting] == ["summary", "table 2"]
        assert all(r.id is not None for r in waiting)
        # a stale save writes neither the game nor its posts
        game.stored_version = 0
        game.outbox = [post(game, "never", table=True)]
        with pytest.raises(StaleGame):
            await storage.save_game(game, now=4.0)
        assert [Post.of(r).content for r in await storage.pending_posts()] == [
            "summary",
            "table 2",
        ]
        await storage.post_done(int(waiting[0].id or 0))
        assert [Post.of(r).content for r in await storage.pending_posts()] == ["table 2"]
    finally:
        await storage.close()


async def test_each_process_reads_its_own_shards_posts(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        games = [await new_game(storage, guild, n) for n, guild in enumerate((SHARD_0, SHARD_1))]
        for game in games:
            game.outbox = [post(game, f"in {game.guild_id}")]
            await storage.save_game(game, now=2.0)
        mine = await storage.pending_posts(Shards(2, (1,)))
        assert [r.guild_id for r in mine] == [SHARD_1]
        assert len(await storage.pending_posts()) == 2
    finally:
        await storage.close()


async def test_rows_carried_by_clicks_wait_for_their_channel(db_path: Path | str) -> None:
    """A game shown only through clicks (bot.stages), in a group DM (no server: id 0, so
    shard 0's): its rows are never a channel worker's, whatever the shard; its channel's
    next click reads them, oldest first; its deadline is shard 0's to reload."""
    storage = await Storage.open(db_path)
    try:
        server = await new_game(storage, SHARD_1, 10)
        gdm = await new_game(storage, 0, 20)
        server.outbox = [post(server, "posted")]
        gdm.outbox = [
            replace(post(gdm, "summary"), courier="interaction"),
            replace(post(gdm, "table", table=True), courier="interaction"),
        ]
        for game in (server, gdm):
            game.deadline = 9.0
            await storage.save_game(game, now=2.0)
        assert [Post.of(r).content for r in await storage.pending_posts()] == ["posted"]
        assert await storage.pending_posts(Shards(2, (0,))) == []
        carried = await storage.carried_posts(20)
        assert [(Post.of(r).content, r.courier) for r in carried] == [
            ("summary", "interaction"),
            ("table", "interaction"),
        ]
        assert await storage.carried_posts(10) == []
        assert [gid for gid, _ in await storage.deadlines(Shards(2, (0,)))] == [gdm.id]
        assert [gid for gid, _ in await storage.deadlines(Shards(2, (1,)))] == [server.id]
    finally:
        await storage.close()


async def test_a_broken_game_is_reported_once(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        game = await new_game(storage, SHARD_0, 10)
        report = post(game, "damaged")
        assert await storage.close_broken(game.id, 2.0, [report])
        assert report.id is not None
        assert not await storage.close_broken(game.id, 3.0, [post(game, "again")])
        assert [r.body for r in await storage.pending_posts()] == [report.body]
    finally:
        await storage.close()


def test_a_post_keeps_its_embeds_buttons_and_mention_through_its_row() -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label="Rematch", custom_id="k:rematch:7", style=discord.ButtonStyle.success
        )
    )
    embed = discord.Embed(title="Round 1 is over", description="Anna 5", colour=0x2E7D32)
    embed.set_footer(text="Game #7")
    original = Post(7, 1, 2, content="🏆", embeds=[embed], view=view, mention=5, table=True)
    record = original.record()
    record.post, record.id = None, 9  # as read back from the database
    again = Post.of(record)
    assert (again.content, again.mention, again.table, again.row) == ("🏆", 5, True, 9)
    assert [e.to_dict() for e in again.embeds] == [embed.to_dict()]
    assert again.view is not None and again.view.to_components() == view.to_components()


@pytest.mark.parametrize("body", ["{", "[]", '{"content": 5}', '{"content": null}'])
def test_a_damaged_row_is_refused(body: str) -> None:
    with pytest.raises(ValueError, match="damaged outbox row"):
        Post.of(Outgoing(1, 2, 3, body, id=4))


async def posted_keys(storage: Storage) -> dict[str, str]:
    """The waiting posts' nonce keys, by their text."""
    return {str(Post.of(r).content): r.nonce_key for r in await storage.pending_posts()}


async def test_each_row_keeps_its_own_nonce_key_whatever_its_id(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        game = await new_game(storage, SHARD_0, 10)
        first = post(game, "first")
        assert first.post.nonce_key == first.nonce_key and len(first.nonce_key) == 24
        game.outbox = [first, post(game, "second")]
        await storage.save_game(game, now=2.0)
        keys = await posted_keys(storage)
        assert keys["first"] == first.nonce_key and len(set(keys.values())) == 2
        # the outbox drains; SQLite then gives the next row an id used before, but the
        # row's key, and so its post's nonce, is new
        for record in await storage.pending_posts():
            await storage.post_done(int(record.id or 0))
        again = post(game, "third")
        game.outbox = [again]
        await storage.save_game(game, now=3.0)
        (waiting,) = await storage.pending_posts()
        assert waiting.nonce_key == again.nonce_key not in keys.values()
        assert nonce(waiting.nonce_key) not in {nonce(key) for key in keys.values()}
        assert Post.of(waiting).nonce_key == again.nonce_key
    finally:
        await storage.close()


async def test_a_row_written_before_keys_gets_one_that_stays(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        game = await new_game(storage, SHARD_0, 10)
        game.outbox = [post(game, "old")]
        await storage.save_game(game, now=2.0)
        execute(db_path, "UPDATE outbox SET nonce_key = NULL, created_at = 1234.5")
        (record,) = await storage.pending_posts()
        assert record.nonce_key == legacy_key(int(record.id or 0), 1234.5)
        assert [r.nonce_key for r in await storage.pending_posts()] == [record.nonce_key]
        # the same id written at another time is another row: another key
        execute(db_path, "UPDATE outbox SET created_at = 1300.25")
        (later,) = await storage.pending_posts()
        assert later.id == record.id and later.nonce_key != record.nonce_key
    finally:
        await storage.close()


async def test_a_backup_and_a_copy_to_postgresql_keep_the_keys(
    tmp_path: Path, postgres_url: str
) -> None:
    source = tmp_path / "kasino.db"
    storage = await Storage.open(source)
    try:
        game = await new_game(storage, SHARD_0, 10)
        game.outbox = [post(game, "summary"), post(game, "table", table=True)]
        await storage.save_game(game, now=2.0)
        keys = await posted_keys(storage)
    finally:
        await storage.close()
    copy = tmp_path / "backup.db"
    backup(source, copy)
    restored = await Storage.open(copy)
    try:
        assert await posted_keys(restored) == keys
    finally:
        await restored.close()
    storage, target = await Storage.open(source), await Storage.open(postgres_url)
    try:
        await copy_database(storage, target)  # python -m bot migrate-db
        assert await posted_keys(target) == keys
    finally:
        await storage.close()
        await target.close()
