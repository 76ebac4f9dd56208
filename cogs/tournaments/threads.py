"""Making a tournament's table threads, paced.

Discord does not document its limit on creating threads (it answers a burst with 429s,
and counts a thread's creation against the parent channel's messages: its "thread
started" notice is a message there). So the bot keeps to the channel's message limit
that the outbox keeps too: at most :data:`MAX_THREADS` new threads in any
:data:`WINDOW` seconds per parent channel, one after another. A 64-player Swiss round
(32 tables) has its threads after about half a minute; the tables' own posts go out by
each thread's outbox queue, within the outbox's limits (five messages per five seconds a
channel).

A thread is found again by its name (:meth:`ThreadPacer.find`) among the guild's active
threads under the same parent: a process killed after making a thread but before keeping
its id reuses it instead of making another.
"""

from __future__ import annotations

import asyncio
import collections
import logging

import discord

from bot import timers
from bot.timers import now

log = logging.getLogger(__name__)

WINDOW = 5.0  # seconds
MAX_THREADS = 5  # new threads per parent channel per WINDOW
SLACK = 0.05  # waited beyond the window, for clock differences with Discord
AUTO_ARCHIVE = 1440  # minutes: a day without messages, then Discord archives it


class ThreadPacer:
    """Makes public threads under a channel, at most :data:`MAX_THREADS` a
    :data:`WINDOW`, in the order asked (one at a time per parent)."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self._made: dict[int, collections.deque[float]] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    async def make(self, guild_id: int, parent_id: int, name: str) -> int:
        """A new public thread ``name`` under ``parent_id`` (its id), once the pace allows."""
        lock = self._locks.setdefault(parent_id, asyncio.Lock())
        async with lock:
            made = self._made.setdefault(parent_id, collections.deque(maxlen=MAX_THREADS))
            while len(made) >= MAX_THREADS:
                wait = made[0] + WINDOW + SLACK - now()
                if wait <= 0:
                    break
                await timers.pause(wait)
            try:
                data = await self._client.http.start_thread_without_message(
                    parent_id,
                    name=name[:100],
                    auto_archive_duration=AUTO_ARCHIVE,
                    type=discord.ChannelType.public_thread.value,
                )
            finally:
                # counted from when the call returned (or failed), when Discord had it: a
                # call that waited behind a busy loop would open a window earlier than
                # Discord's (as the outbox counts its posts)
                made.append(now())
        log.info("guild %s: thread %s made under %s", guild_id, data["id"], parent_id)
        return int(data["id"])

    async def find(self, guild_id: int, parent_id: int, name: str) -> int | None:
        """The id of an active thread ``name`` under ``parent_id``, if there is one."""
        try:
            data = await self._client.http.get_active_threads(guild_id)
        except discord.HTTPException:
            log.warning("guild %s: could not list its threads", guild_id, exc_info=True)
            return None
        for thread in data.get("threads", []):
            if int(thread.get("parent_id") or 0) == parent_id and thread.get("name") == name[:100]:
                return int(thread["id"])
        return None
