"""The durable outbox's rows: what the channels must still be shown (see
:mod:`cogs.play.outbox` and, for the channels reached only through interactions,
:mod:`cogs.play.couriers`), written with the change they show and deleted once shown."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.nonces import legacy_key
from bot.storage.records import Outgoing
from bot.storage.sql import ACTIVE, Queries, Shards, Statement, of_shards


class OutboxQueries(Queries):
    """The storage's queries about the outbox."""

    async def pending_posts(self, shards: Shards | None = None) -> list[Outgoing]:
        """What the channels the bot posts to must still be shown (oldest first); with
        ``shards``, only those shards' guilds' (a restarted process posts what its games
        left). Rows carried by clicks (:mod:`bot.stages`) wait for theirs."""
        theirs, params = of_shards(shards)
        return await self._outgoing(f"courier = 'channel' AND {theirs}", params)

    async def carried_posts(self, channel_id: int) -> list[Outgoing]:
        """What a channel reached only through interactions must still be shown, oldest
        first: the next click there carries it."""
        return await self._outgoing("courier = 'interaction' AND channel_id = ?", [channel_id])

    async def _outgoing(self, where: str, params: list[int]) -> list[Outgoing]:
        rows = await self.fetch(
            "SELECT id, game_id, guild_id, channel_id, is_table, body, nonce_key, created_at,"
            f" courier FROM outbox WHERE {where} ORDER BY id",
            params,
        )
        return [
            Outgoing(
                int(game),
                int(guild),
                int(channel),
                str(body),
                bool(table),
                int(pid),
                nonce_key=str(key) if key else legacy_key(int(pid), float(at)),
                courier=str(courier),
            )
            for pid, game, guild, channel, table, body, key, at, courier in rows
        ]

    async def tableless_games(self, shards: Shards | None = None) -> list[int]:
        """Games in play with no table kept and none waiting in the outbox (a process
        killed between dealing a rematch and queueing its table); with ``shards``, only
        those shards' guilds'."""
        theirs, params = of_shards(shards)
        # ACTIVE, though implied, lets SQLite read the index of the active games
        # (games_one_per_channel) rather than every game ever played
        rows = await self.fetch(
            f"SELECT id FROM games WHERE {ACTIVE} AND status = 'playing' AND message_id IS NULL"
            f" AND id NOT IN (SELECT game_id FROM outbox WHERE is_table = 1) AND {theirs}",
            params,
        )
        return [int(gid) for (gid,) in rows]

    async def post_done(self, post_id: int) -> None:
        """A queued post has been made (or can never be): it leaves the outbox."""
        await self.write([Statement("DELETE FROM outbox WHERE id = ?", (post_id,))])


def queue_posts(posts: Sequence[Outgoing], now: float) -> list[Statement]:
    """The statements that put ``posts`` in the outbox: each returns its row's id; a table
    first removes the game's older tables still waiting in its channel (only the latest is
    posted; a game shown in two places has a table waiting in each)."""
    steps = []
    for post in posts:
        if post.table:
            steps.append(
                Statement(
                    "DELETE FROM outbox WHERE game_id = ? AND channel_id = ? AND is_table = 1",
                    (post.game_id, post.channel_id),
                )
            )
        steps.append(
            Statement(
                "INSERT INTO outbox (game_id, guild_id, channel_id, is_table, body, created_at,"
                " nonce_key, courier) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    post.game_id,
                    post.guild_id,
                    post.channel_id,
                    int(post.table),
                    post.body,
                    now,
                    post.nonce_key,
                    post.courier,
                ),
                returning=True,
            )
        )
    return steps


def number_posts(
    posts: Sequence[Outgoing], steps: Sequence[Statement], results: Sequence[Any]
) -> None:
    """Give each queued post the row id its INSERT returned."""
    ids = iter(value for step, value in zip(steps, results, strict=True) if step.returning)
    for post in posts:
        post.id = int(next(ids))
