"""How a game's messages reach the places it is shown in (:mod:`bot.stages`), as the cog
sees it: which process posts what was committed, and what a click in a place reached
only through clicks does besides its own work.

- **Posts across shards.** Only the process running a server's shard may post to its
  channels (within each channel's budget, :mod:`cogs.play.outbox`). The posts a save
  commits for this process's servers are queued here; for another shard's server (a
  ladder match's other table) that shard's process is told (:data:`NOTICE` through
  ``Storage.notify``, PostgreSQL's NOTIFY), reads its waiting posts and queues those it
  does not hold yet.
- **Clicks that carry.** In a group DM or a server that did not install the app, before a
  click is handled what time has run out there is applied (:class:`GameClock`), and
  after it the computers move and the click carries what the place must be shown
  (:class:`ClickCourier`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import discord

from bot.models import Game
from bot.stages import Courier, by_interaction, stage_at
from bot.storage import Outgoing
from cogs.play.clock import CATCH_UP_STEPS, GameClock
from cogs.play.couriers import ClickCourier, courier_for
from cogs.play.outbox import NOTICE, Outbox


class Delivery:
    """What the cog does to deliver games' messages (the module docstring)."""

    def __init__(self, bot: Any, outbox: Outbox, clock: GameClock, courier: ClickCourier) -> None:
        self.bot = bot
        self.outbox = outbox
        self.clock = clock
        self.courier = courier
        self._chores: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Queue what this process's shards' channels must still be shown, and listen for
        other processes' posts for them."""
        storage = self.clock.games.storage
        self.outbox.put_records(await storage.pending_posts(self.bot.config.shards))
        await storage.listen(NOTICE, self.noticed)

    def posted(self, posts: list[Outgoing]) -> None:
        """Posts just committed: this process posts those of its shards' channels; for
        another shard's channel that shard's process is told."""
        owns = self.bot.owns_guild
        self.outbox.put_records([post for post in posts if owns(post.guild_id)])
        storage = self.clock.games.storage
        for guild in sorted({post.guild_id for post in posts if not owns(post.guild_id)}):
            self.chore(storage.notify(NOTICE, str(guild)))

    def noticed(self, payload: str) -> None:
        """Another process committed posts for the server ``payload``: if this process
        runs it, its waiting posts are read and queued."""
        if payload.isdigit() and self.bot.owns_guild(int(payload)):
            self.chore(self._queue_pending())

    async def _queue_pending(self) -> None:
        storage = self.clock.games.storage
        self.outbox.put_records(await storage.pending_posts(self.bot.config.shards))

    def chore(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, kept until done (the loop holds tasks weakly)."""
        task = asyncio.get_running_loop().create_task(work)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def before_click(self, interaction: discord.Interaction) -> None:
        """Before a click at a table reached only through clicks is handled: what time
        has run out there is applied first (a late move is then out of date)."""
        if courier_for(interaction) is Courier.INTERACTION and interaction.channel_id:
            await self.clock.catch_up(interaction.channel_id, computers=False)

    async def after_click(self, interaction: discord.Interaction) -> None:
        """After any click or command in a place reached only through clicks (answered by
        now): the game's clock catches up (computers move, the next round is dealt), and
        the click carries what the place must be shown."""
        if courier_for(interaction) is not Courier.INTERACTION or not interaction.channel_id:
            return
        try:
            await self.clock.catch_up(interaction.channel_id, computers=True)
        finally:
            await self.courier.carry(interaction)

    async def before_elsewhere(self, interaction: discord.Interaction, game: Game) -> bool:
        """A click on a game reached only through clicks, made in another place (a seated
        player's hand from ``/kasino games`` or a DM): inside the game's session, what
        time has run out is applied first, as a click at its table would (a late move is
        then out of date); ``True`` for such a click. What it shows waits in the outbox
        for a click at the game's own table: this click carries only its own channel's
        posts (:meth:`after_click`)."""
        if not by_interaction(game.extra) or stage_at(game, interaction.channel_id):
            return False
        await self._catch_up(game, computers=False)
        return True

    async def after_elsewhere(self, game: Game) -> None:
        """After such a click is answered (still in the game's session): the computers
        move and the next round is dealt, so the person's next turn can be played from
        where they are too."""
        await self._catch_up(game, computers=True)

    async def _catch_up(self, game: Game, *, computers: bool) -> None:
        for _ in range(CATCH_UP_STEPS):
            if not self.clock.due(game, computers=computers):
                return
            await self.clock.apply(game)
