"""Carrying a game's messages where the bot may only answer interactions (:mod:`bot.stages`).

In a group DM, a DM between two people, or a server where the app is only installed by
a person, the bot is no member: Discord refuses every message it would send, edit or
delete there of its own accord (403, Missing Access). What it may do is answer an
interaction: the response, edits of that response, and follow-ups, with the
interaction's token, for 15 minutes. So a game there keeps what its channel must be shown
in the durable outbox (rows whose courier is ``interaction``, written with the change
they show, as everywhere), and each click at the table carries what waits as follow-ups
of that click, oldest first: round summaries, then the table, which replaces the one
before it (deleted through the token that made it, while that token lasts; an older one
stays, its buttons still answer). A killed process loses nothing: the rows wait for the
next click, whoever makes it.

Discord caps the follow-ups (``developers/interactions/receiving-and-responding.mdx``):
"Apps are limited to 5 followup messages per interaction if it was initiated from a
user-installed app and isn't installed in the server (meaning the authorizing
integration owners object only contains USER_INSTALL)". A click carries at most
:data:`CARRIED_PER_CLICK` of them, leaving the rest of the cap to the click's own answer
(a seat's commitment, a private note); what does not fit waits for the next click.

Where a server has switched off Use External Apps, Discord makes the app's answers to its
members ephemeral (``developers/topics/permissions.mdx``, USE_EXTERNAL_APPS: "When
disabled, users will still be allowed to use their apps but the responses will be
ephemeral"): a table carried by such a click would be seen by the clicker alone, so
nothing is carried through it (:func:`cogs.places.answers_forced_private`).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Iterable
from dataclasses import dataclass

import discord

from bot.stages import Courier
from bot.storage import Outgoing, Storage
from bot.timers import now
from cogs.places import answers_forced_private, bot_in_server
from cogs.play.live import MARGIN, TOKEN_LIFE
from cogs.play.outbox import Post, PostDone, TablePosted

log = logging.getLogger(__name__)

FOLLOWUP_CAP = 5  # Discord's, per interaction of a user-installed app (quoted above)
CARRIED_PER_CLICK = 3  # of them, what a click carries at most (the rest is its own)
GIVE_UP_AFTER = 3  # failed attempts at one row before it is dropped (it cannot be sent)

# Discord's answers that say a token can carry nothing more (expired, or its follow-ups
# used up): the rows wait for another click; anything else is the post's own fault.
TOKEN_SPENT = (401, 404)


def courier_for(interaction: discord.Interaction) -> Courier:
    """How a game opened where ``interaction`` was made reaches its channel: through
    clicks in a group DM or a DM between people, and in a server the bot is no member of
    (the app is there only because a person installed it); else the bot posts."""
    if interaction.context.private_channel:
        return Courier.INTERACTION
    if interaction.guild_id is not None and not bot_in_server(interaction):
        return Courier.INTERACTION
    return Courier.CHANNEL


@dataclass(slots=True)
class _Kept:
    """A message of a game made through an interaction, and when: its token can edit or
    delete it until :data:`TOKEN_LIFE` after."""

    message: discord.WebhookMessage | discord.InteractionMessage
    made: float

    @property
    def usable(self) -> bool:
        return now() - self.made < TOKEN_LIFE - MARGIN


class ClickCourier:
    """Carries the outbox rows of channels reached only through interactions (see the
    module docstring)."""

    def __init__(self, storage: Storage, table_posted: TablePosted, done: PostDone) -> None:
        self._storage = storage
        self._table_posted = table_posted
        self._done = done
        self._kept: dict[int, _Kept] = {}
        self._carried: dict[int, tuple[float, int]] = {}  # interaction id: (when, follow-ups)
        self._failed: dict[int, int] = {}  # row id: failed attempts
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def keep(self, message: discord.WebhookMessage | discord.InteractionMessage) -> None:
        """Remember a game's message made through an interaction (a lobby), to edit or
        delete it while its token lasts."""
        self._kept[message.id] = _Kept(message, now())

    async def carry(self, interaction: discord.Interaction) -> None:
        """Send what waits for the interaction's channel as its follow-ups (its response is
        made by now), within :data:`CARRIED_PER_CLICK`; the rest waits for the next click."""
        channel = interaction.channel_id
        hidden = answers_forced_private(interaction)
        if channel is None or hidden or not interaction.response.is_done():
            return
        lock = self._locks.get(channel)
        if lock is None:
            lock = self._locks[channel] = asyncio.Lock()
        async with lock:
            self._forget_old()
            for record in await self._storage.carried_posts(channel):
                if self._left(interaction) <= 0 or not await self._carry(interaction, record):
                    break

    def _left(self, interaction: discord.Interaction) -> int:
        return CARRIED_PER_CLICK - self._carried.get(interaction.id, (0.0, 0))[1]

    async def _carry(self, interaction: discord.Interaction, record: Outgoing) -> bool:
        """Carry one row; ``False``: the interaction can carry nothing more."""
        try:
            post = Post.of(record)
        except ValueError as error:
            log.warning("game %s: an outbox row cannot be shown (%s)", record.game_id, error)
            await self._done(int(record.id or 0))
            return True
        try:
            await self._show(interaction, post)
        except discord.HTTPException as error:
            if error.status in TOKEN_SPENT or self._left(interaction) <= 0:
                log.info("game %s: a click could not carry its post (%s)", post.game_id, error)
                return False
            log.warning("game %s: a post was refused (%s)", post.game_id, error)
            await self._refused(int(record.id or 0))
        return True

    async def _refused(self, row: int) -> None:
        """Discord refused a post for its own sake (not the token's): after
        :data:`GIVE_UP_AFTER` tries it leaves the outbox, so it cannot block the others."""
        failed = self._failed[row] = self._failed.get(row, 0) + 1
        if failed >= GIVE_UP_AFTER:
            del self._failed[row]
            await self._done(row)

    async def _show(self, interaction: discord.Interaction, post: Post) -> None:
        """Make one post through ``interaction``: an edit of a kept message, the removal of
        the game's table, or a new message (a table replacing the one before it)."""
        if post.edit is not None:
            kept = self._kept.get(post.edit)
            if kept is not None and kept.usable:
                await kept.message.edit(content=post.content, embeds=post.embeds, view=post.view)
            await self._done(int(post.row or 0))  # else it stays as it was: nothing can edit it
            return
        if not post.creates:
            await self._remove(
                await self._table_posted(post.game_id, post.channel_id, None, post.row)
            )
            return
        message = await self._send(interaction, post)
        self.keep(message)
        if post.table:
            await self._remove(
                await self._table_posted(post.game_id, post.channel_id, message.id, post.row)
            )
        else:
            await self._done(int(post.row or 0))

    async def _send(self, interaction: discord.Interaction, post: Post) -> discord.WebhookMessage:
        """A follow-up of ``interaction`` everyone in the channel sees."""
        kwargs = post.message_fields()
        since, count = self._carried.get(interaction.id, (now(), 0))
        # counted when tried: a follow-up whose answer failed may still have been made
        self._carried[interaction.id] = (since, count + 1)
        return await interaction.followup.send(  # type: ignore[call-overload,no-any-return]
            post.content or "", wait=True, **kwargs
        )

    async def _remove(self, stale: Iterable[int]) -> None:
        """Delete the game's old tables a kept token can still reach; an older one stays
        (nothing may delete it: its buttons still answer, for the current game)."""
        for old in stale:
            kept = self._kept.pop(int(old), None)
            if kept is None or not kept.usable:
                continue
            try:
                await kept.message.delete()
            except discord.HTTPException as error:
                log.info("an old table could not be removed (%s)", error)

    def _forget_old(self) -> None:
        """Drop what no token can reach any more."""
        limit = now() - TOKEN_LIFE
        for key in [k for k, kept in self._kept.items() if kept.made < limit]:
            del self._kept[key]
        for key in [k for k, (since, _) in self._carried.items() if since < limit]:
            del self._carried[key]
