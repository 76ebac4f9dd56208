"""The durable outbox in storage (schema version 4), on SQLite and PostgreSQL: posts are
written in the transaction of the change they show, only a game's latest table waits, a
restarted process reads its own shards' posts, and a damaged row is dropped, not posted."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.models import Game, GameOptions, Seat
from bot.storage import Outgoing, Shards, StaleGame, Storage
from cogs.outbox import Post

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
