"""Posting to game channels: outside the games' locks and within Discord's limits.

A handler commits its change, answers its interaction, and only *queues* what the
channel should see (:meth:`Outbox.put`, which never waits). One worker task per channel
posts the queue in order: round summaries and other notices as they come, and of the
game's table only the latest version waiting (a burst of moves, say computers playing, is
coalesced into one post). The table is posted fresh, never edited, so it is always among
the channel's latest messages and nothing is edited past Discord's one-hour limit; the
previous table is deleted once the new one's id is saved (a killed process then still
knows what to delete). The worker keeps each channel under ``MAX_POSTS`` new messages in
any ``WINDOW`` seconds (Discord allows about 5 per 5 s), so a slow or rate-limited
channel never delays a click.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

import discord

from bot.timers import now

log = logging.getLogger(__name__)

WINDOW = 5.0  # seconds
MAX_POSTS = 5  # new messages per channel per WINDOW
SLACK = 0.05  # waited beyond the window, for clock differences with Discord


@dataclass(slots=True)
class Post:
    """One message for a game's channel. ``table``: it replaces the game's previous table
    (only the latest waiting table is posted). ``mention``: the one person it may ping."""

    game_id: int
    guild_id: int
    channel_id: int
    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None
    mention: int | None = None
    table: bool = False

    @property
    def creates(self) -> bool:
        """Whether it makes a new message (a table post with nothing in it only removes
        the game's table, as when a game is stopped)."""
        return bool(self.content or self.embeds)


# Saves a game's new table message id (``None``: the game has no table any more) and
# returns the ids of the messages to delete.
TablePosted = Callable[[int, int | None], Awaitable[Iterable[int]]]


class Outbox:
    """The channel posting of every game; see the module docstring."""

    def __init__(self, client: discord.Client, table_posted: TablePosted) -> None:
        self._client = client
        self._table_posted = table_posted
        self._queues: dict[int, list[Post]] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._sent: dict[int, collections.deque[float]] = {}
        self._deleted: dict[int, collections.deque[int]] = {}

    def put(self, post: Post) -> None:
        """Queue a post (never waits); a table replaces the same game's waiting table."""
        queue = self._queues.setdefault(post.channel_id, [])
        if post.table:
            queue[:] = [p for p in queue if not (p.table and p.game_id == post.game_id)]
        queue.append(post)
        if post.channel_id not in self._tasks:
            task = asyncio.get_running_loop().create_task(self._drain(post.channel_id))
            self._tasks[post.channel_id] = task

    def busy(self, channel_id: int) -> bool:
        """Whether posts are waiting or being made in a channel."""
        return channel_id in self._tasks

    async def close(self) -> None:
        """Stop every worker (what is still queued is dropped)."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._queues.clear()

    async def _drain(self, channel_id: int) -> None:
        queue = self._queues[channel_id]
        try:
            while queue:
                if queue[0].creates:
                    await self._budget(channel_id)
                    if not queue:
                        break
                post = queue.pop(0)
                try:
                    await self._send(post)
                except Exception:
                    log.warning("game %s: could not post to the channel", post.game_id,
                                exc_info=True)  # fmt: skip
        finally:
            self._tasks.pop(channel_id, None)
            if not queue:
                self._queues.pop(channel_id, None)

    async def _budget(self, channel_id: int) -> None:
        """Wait until one more new message keeps the channel within its limit."""
        sent = self._sent.setdefault(channel_id, collections.deque(maxlen=MAX_POSTS))
        while len(sent) >= MAX_POSTS:
            wait = sent[0] + WINDOW + SLACK - now()
            if wait <= 0:
                break
            await asyncio.sleep(wait)

    async def _send(self, post: Post) -> None:
        channel = self._client.get_partial_messageable(post.channel_id, guild_id=post.guild_id)
        if not post.creates:
            await self._delete(channel, post, await self._table_posted(post.game_id, None))
            return
        mentions = (
            discord.AllowedMentions(users=[discord.Object(post.mention)])
            if post.mention
            else discord.AllowedMentions.none()
        )
        self._sent.setdefault(post.channel_id, collections.deque(maxlen=MAX_POSTS)).append(now())
        kwargs: dict[str, object] = {"embeds": post.embeds, "allowed_mentions": mentions}
        if post.view is not None:
            kwargs["view"] = post.view
        message = await channel.send(post.content, **kwargs)  # type: ignore[call-overload]
        if not post.table:
            return
        # saved before the old table is deleted: a restart can still delete what is left
        await self._delete(channel, post, await self._table_posted(post.game_id, message.id))

    async def _delete(
        self, channel: discord.PartialMessageable, post: Post, stale: Iterable[int]
    ) -> None:
        deleted = self._deleted.setdefault(post.channel_id, collections.deque(maxlen=8))
        for old in stale:
            if old in deleted:
                continue
            deleted.append(old)
            try:
                await channel.get_partial_message(old).delete()
            except discord.NotFound:
                pass
            except discord.HTTPException:
                log.warning("game %s: could not delete an old table", post.game_id,
                            exc_info=True)  # fmt: skip
