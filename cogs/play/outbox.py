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
channel never delays a click. What must not run ahead of a game's table (the hand views
saying whose turn it is) waits for :meth:`Outbox.table_ready`.

The queue is durable: every post is first a row of the database's outbox, written in the
transaction of the change it shows (:class:`bot.storage.Outgoing`), and the row is
deleted once the post is made. A process killed in between leaves the rows, and the next
one to start for the game's shard posts them (:meth:`Outbox.put_records`). A message is
sent with Discord's enforced nonce made of the random key stored in its row
(:func:`bot.nonces.nonce`), so one sent just before a kill is not sent twice, and no other
post, whatever id its row is given later, is ever taken by Discord for it.

The budget counts a post from when Discord has it, not from when the bot began to send
it: the time is noted once the call returns (or fails). A post that waited behind a busy
loop or a slow connection would otherwise open a window the bot thinks opened earlier,
and the sixth post would follow the first by less than ``WINDOW`` as Discord stamps them.
The bot's own clock is used, not the message's timestamp (Discord's clock): Discord had
the message by then, and comparing the two clocks would add their difference.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import timers
from bot.nonces import nonce
from bot.stages import Courier
from bot.storage import Outgoing
from bot.timers import now

log = logging.getLogger(__name__)

# The notice (bot.storage's listen/notify) that posts were committed for a server whose
# shard another process runs (a ladder match's other table): its payload is the server id.
NOTICE = "kasino_outbox"
WINDOW = 5.0  # seconds
MAX_POSTS = 5  # new messages per channel per WINDOW
SLACK = 0.05  # waited beyond the window, for clock differences with Discord


@dataclass(slots=True)
class Post:
    """One message for a game's channel. ``table``: it replaces the game's previous table
    (only the latest waiting table is posted). ``mention``: the one person it may ping.
    ``edit``: the id of a message of the bot's to change instead (a lobby that says how
    its game ended). ``row``: its row in the database's outbox, once written."""

    game_id: int
    guild_id: int
    channel_id: int
    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None
    mention: int | None = None
    table: bool = False
    edit: int | None = None
    row: int | None = None
    # more people it may ping (a tournament table's first message names all its players)
    mentions: tuple[int, ...] = ()
    # the random key its nonce is made of, stored in its row (bot.nonces)
    nonce_key: str | None = None
    # how it reaches the channel (bot.stages): this worker's, or the next click's there
    courier: str = "channel"

    @property
    def creates(self) -> bool:
        """Whether it makes a new message (a table post with nothing in it only removes
        the game's table, as when a game is stopped)."""
        return self.edit is None and bool(self.content or self.embeds)

    def message_fields(self) -> dict[str, object]:
        """What a new message of this post is sent with, besides its content: the embeds,
        the buttons, and the pings it may make (only those named; none otherwise)."""
        pinged = ([self.mention] if self.mention else []) + list(self.mentions)
        mentions = (
            discord.AllowedMentions(users=[discord.Object(user) for user in pinged])
            if pinged
            else discord.AllowedMentions.none()
        )
        fields: dict[str, object] = {"embeds": self.embeds, "allowed_mentions": mentions}
        if self.view is not None:
            fields["view"] = self.view
        return fields

    def record(self) -> Outgoing:
        """The post as a row of the outbox (the view is kept as its buttons: every button
        of the bot is dispatched by its custom_id, so the same buttons work again)."""
        body = {
            "content": self.content,
            "embeds": [embed.to_dict() for embed in self.embeds],
            "buttons": _buttons(self.view),
            "mention": self.mention,
            "edit": self.edit,
        }
        if self.mentions:
            body["mentions"] = list(self.mentions)
        text = json.dumps(body, separators=(",", ":"))
        record = Outgoing(
            self.game_id,
            self.guild_id,
            self.channel_id,
            text,
            self.table,
            post=self,
            courier=self.courier,
        )
        self.nonce_key = record.nonce_key
        return record

    @classmethod
    def of(cls, record: Outgoing) -> Post:
        """The post a row of the outbox holds (``ValueError`` if it cannot be read)."""
        post = record.post if isinstance(record.post, Post) else cls._read(record)
        post.row, post.nonce_key = record.id, record.nonce_key
        return post

    @classmethod
    def _read(cls, record: Outgoing) -> Post:
        try:
            body = json.loads(record.body)
            return cls(
                record.game_id,
                record.guild_id,
                record.channel_id,
                content=_optional(body["content"], str),
                embeds=[discord.Embed.from_dict(e) for e in body["embeds"]],
                view=_view(body["buttons"]),
                mention=_optional(body["mention"], int),
                table=record.table,
                edit=_optional(body["edit"], int),
                mentions=tuple(int(user) for user in body.get("mentions", ())),
                courier=record.courier,
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ValueError(f"a damaged outbox row: {error}") from None


def _optional(value: Any, kind: type) -> Any:
    if value is not None and not isinstance(value, kind):
        raise TypeError(f"expected {kind.__name__}, got {type(value).__name__}")
    return value


def _buttons(view: discord.ui.View | None) -> list[dict[str, Any]]:
    """A view's buttons as Discord's component dicts, each with its row."""
    if view is None:
        return []
    found = []
    for number, row in enumerate(view.to_components()):
        for component in row.get("components", []):
            if component.get("type") != discord.ComponentType.button.value:
                raise ValueError("only buttons can wait in the outbox")
            found.append({**component, "row": number})
    return found


def _view(buttons: list[dict[str, Any]]) -> discord.ui.View | None:
    """A view of plain buttons from :func:`_buttons`; clicks on them reach the bot's dynamic
    items by their custom_ids. Stopped: discord.py need not keep it."""
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for data in buttons:
        emoji = data.get("emoji")
        view.add_item(
            discord.ui.Button(
                style=discord.ButtonStyle(int(data["style"])),
                label=data.get("label"),
                custom_id=data.get("custom_id"),
                emoji=discord.PartialEmoji.from_dict(emoji) if emoji else None,
                disabled=bool(data.get("disabled", False)),
                row=int(data["row"]),
            )
        )
    view.stop()
    return view


# Saves a game's new table message id in a channel (``None``: the game has no table there
# any more), deletes the post's outbox row (if any) in the same transaction, and returns
# the ids of the messages to delete: (game id, channel id, message id, row).
TablePosted = Callable[[int, int, int | None, int | None], Awaitable[Iterable[int]]]
# Removes a post's row from the database's outbox once it is made.
PostDone = Callable[[int], Awaitable[None]]


# A message of the bot's is edited only this long after it was made: Discord caps the
# edits of messages older than an hour (error 30046, "Maximum number of edits to messages
# older than 1 hour reached", its number undocumented), and a correspondence game or a
# wait in its pool lasts days. Nothing waits on such an edit: what changes later is said
# in a fresh message (a game's latest table is always one).
EDITABLE_FOR = 3600 - 60


def editable(message_id: int) -> bool:
    """Whether a message (by its id, which holds the moment Discord made it) is young
    enough to edit: told by the clock of the process that edits it."""
    made = discord.utils.snowflake_time(message_id).timestamp()
    return now() - made <= EDITABLE_FOR


class Outbox:
    """The channel posting of every game; see the module docstring."""

    def __init__(self, client: discord.Client, table_posted: TablePosted, done: PostDone) -> None:
        self._client = client
        self._table_posted = table_posted
        self._done = done
        self._queues: dict[int, list[Post]] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._sent: dict[int, collections.deque[float]] = {}
        self._deleted: dict[int, collections.deque[int]] = {}
        self._chores: set[asyncio.Task[None]] = set()
        # per game with a table waiting or being posted: done once the latest is made
        self._tables: dict[int, asyncio.Future[None]] = {}
        # the outbox rows queued or being posted here, by their random keys (SQLite hands
        # a deleted row's id out again): read again (another process's notice), a row is
        # not queued twice
        self._rows: set[str] = set()

    def put(self, post: Post) -> None:
        """Queue a post (never waits); a table replaces the same game's waiting table."""
        queue = self._queues.setdefault(post.channel_id, [])
        if post.nonce_key is not None:
            self._rows.add(post.nonce_key)
        if post.table:
            replaced = [p for p in queue if p.table and p.game_id == post.game_id]
            queue[:] = [p for p in queue if p not in replaced]
            self._rows.difference_update(p.nonce_key for p in replaced if p.nonce_key)
            waiting = self._tables.get(post.game_id)
            if waiting is None or waiting.done():
                self._tables[post.game_id] = asyncio.get_running_loop().create_future()
        queue.append(post)
        if post.channel_id not in self._tasks:
            task = asyncio.get_running_loop().create_task(self._drain(post.channel_id))
            self._tasks[post.channel_id] = task

    def put_records(self, records: Iterable[Outgoing]) -> None:
        """Queue posts committed to the database's outbox (a damaged row is dropped; one
        already queued here is not queued again). Rows a click must carry
        (:mod:`bot.stages`) are not this worker's: they wait."""
        for record in records:
            if record.courier != Courier.CHANNEL or record.nonce_key in self._rows:
                continue
            try:
                post = Post.of(record)
            except ValueError as error:
                log.warning("game %s: an outbox row cannot be posted (%s)", record.game_id, error)
                if record.id is not None:  # never postable: it leaves the outbox
                    chore = asyncio.get_running_loop().create_task(self._done(record.id))
                    self._chores.add(chore)  # kept until done (the loop holds tasks weakly)
                    chore.add_done_callback(self._chores.discard)
                continue
            self.put(post)

    def table_ready(self, game_id: int) -> asyncio.Future[None] | None:
        """Done once the game's table now waiting (or being posted) is made, or given up;
        ``None`` if none is waiting. What must not run ahead of the table waits for it."""
        waiting = self._tables.get(game_id)
        return waiting if waiting is not None and not waiting.done() else None

    @contextlib.asynccontextmanager
    async def paced(self, channel_id: int) -> AsyncIterator[None]:
        """Send one new message of the bot's own (a tournament's) to a channel within the
        channel's budget, the one its games' posts keep: waits until it fits, and counts
        it from when the send inside returns (or fails)."""
        await self._budget(channel_id)
        try:
            yield
        finally:
            self._sent.setdefault(channel_id, collections.deque(maxlen=MAX_POSTS)).append(now())

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
        for waiting in self._tables.values():
            waiting.cancel()
        self._tables.clear()

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
                # made, or refused for good (a deleted channel, missing access): not again
                if post.row is not None:
                    await self._forget(post)
                self._rows.discard(post.nonce_key or "")
                if post.table:
                    self._table_done(post.game_id, queue)
        finally:
            self._tasks.pop(channel_id, None)
            if not queue:
                self._queues.pop(channel_id, None)

    def _table_done(self, game_id: int, queue: list[Post]) -> None:
        """A table of the game is made: what waits for it may go, unless a newer one of
        the same game is waiting."""
        if any(p.table and p.game_id == game_id for p in queue):
            return
        waiting = self._tables.pop(game_id, None)
        if waiting is not None and not waiting.done():
            waiting.set_result(None)

    async def _budget(self, channel_id: int) -> None:
        """Wait until one more new message keeps the channel within its limit."""
        sent = self._sent.setdefault(channel_id, collections.deque(maxlen=MAX_POSTS))
        while len(sent) >= MAX_POSTS:
            wait = sent[0] + WINDOW + SLACK - now()
            if wait <= 0:
                break
            await timers.pause(wait)

    async def _forget(self, post: Post) -> None:
        try:
            await self._done(int(post.row or 0))
        except Exception:
            log.warning("game %s: a posted message stays in the outbox", post.game_id,
                        exc_info=True)  # fmt: skip

    async def _send(self, post: Post) -> None:
        channel = self._client.get_partial_messageable(post.channel_id, guild_id=post.guild_id)
        if post.edit is not None:
            await self._edit(channel, post)
            return
        if not post.creates:
            await self._delete(channel, post, await self._table_saved(post, None))
            return
        kwargs = post.message_fields()
        if post.nonce_key is not None:
            # Discord (Create Message, enforce_nonce): "If another message was created by
            # the same author with the same nonce, that message will be returned and no new
            # message will be created": a post made just before a kill, and so still in the
            # outbox, is not made twice; its row's random key keeps every other post apart
            kwargs["nonce"] = nonce(post.nonce_key)
        try:
            message = await channel.send(post.content, **kwargs)  # type: ignore[call-overload]
        finally:
            # counted from now: Discord had it by the time its answer is here (see above)
            self._sent.setdefault(post.channel_id, collections.deque(maxlen=MAX_POSTS)).append(
                now()
            )
        if not post.table:
            return
        # saved before the old table is deleted: a restart can still delete what is left
        await self._delete(channel, post, await self._table_saved(post, message.id))

    async def _table_saved(self, post: Post, message_id: int | None) -> Iterable[int]:
        """Save the table's message id with its row's deletion (one transaction); the row
        is then gone, so the post is not forgotten again."""
        stale = await self._table_posted(post.game_id, post.channel_id, message_id, post.row)
        post.row = None
        return stale

    @staticmethod
    async def _edit(channel: discord.PartialMessageable, post: Post) -> None:
        """Change a message of the bot's (its view is replaced, or removed); one made an
        hour ago or more is left as it is (:func:`editable`)."""
        if not editable(int(post.edit or 0)):
            log.info("game %s: an hour-old message is left as it is", post.game_id)
            return
        with contextlib.suppress(discord.NotFound):  # deleted meanwhile: nothing to say
            await channel.get_partial_message(int(post.edit or 0)).edit(
                content=post.content, embeds=post.embeds, view=post.view
            )

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
