"""Each player's open hand view, kept so it can follow the game.

A hand view is an ephemeral message: only the interaction that made it can edit it, and
only while its token is valid (15 minutes). The last such interaction of each player in
each game is kept in memory; when the game moves on (your turn comes, a round is dealt)
the view is edited through it by a background task, never while a click waits for it.
Only the latest content waiting for a view is sent; a failed edit forgets the view (the
table's "Your hand" button and the turn notice bring it back in one click). A view whose
menus are built off the event loop (:mod:`bot.offloop`) is sent once built, unless the
player's view was answered or followed again meanwhile: the newer one wins.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.i18n import Lang, lang_of
from bot.offloop import Menus
from bot.timers import now
from cogs.components import reissue

log = logging.getLogger(__name__)

TOKEN_LIFE = 15 * 60  # seconds an interaction token can edit its messages
MARGIN = 30  # seconds kept in hand, so an edit never races the token's expiry


@dataclass(slots=True)
class _Open:
    interaction: discord.Interaction
    opened: float


@dataclass(slots=True)
class _Edit:
    to: _Open
    content: str
    view: discord.ui.View | None
    final: bool = False  # the view's last edit: made even though it is no longer followed


class LiveHands:
    """Open hand views by ``(game id, user id)``."""

    def __init__(self) -> None:
        self._open: dict[tuple[int, int], _Open] = {}
        self._waiting: dict[tuple[int, int], _Edit] = {}
        self._tasks: dict[tuple[int, int], asyncio.Task[None]] = {}
        # what was last shown or sent to each view (a number never used again), so a view
        # built off the loop is not sent over a newer one
        self._turns: dict[tuple[int, int], int] = {}
        self._counter = itertools.count(1)
        self._building: set[asyncio.Task[None]] = set()
        self.menus = Menus()  # the menus built off the loop, for the hand views and clicks

    def remember(self, game_id: int, user_id: int, interaction: discord.Interaction) -> None:
        """This interaction's response is now the player's hand view."""
        self._open[game_id, user_id] = _Open(interaction, now())
        self._turn((game_id, user_id))
        self._expire()

    def close_game(self, game_id: int, text: Callable[[Lang], str]) -> None:
        """A game ended where its state cannot be shown (it is damaged): each open view
        says ``text`` in its reader's language, without its menus, and is forgotten."""
        for user in [k[1] for k in self._open if k[0] == game_id]:
            self.push(game_id, user, text(self.lang(game_id, user)), None, final=True)

    def forget_game(self, game_id: int) -> None:
        """A game is over: its views are no longer followed."""
        for key in [k for k in self._open if k[0] == game_id]:
            del self._open[key]
            self._turns.pop(key, None)

    def lang(self, game_id: int, user_id: int) -> Lang:
        """The language of a player's open hand view: their client's, as they last clicked."""
        found = self._open.get((game_id, user_id))
        return lang_of(found.interaction.locale if found is not None else None)

    def is_open(self, game_id: int, user_id: int) -> bool:
        """Whether the player has a hand view that can still be edited."""
        found = self._open.get((game_id, user_id))
        return found is not None and now() - found.opened < TOKEN_LIFE - MARGIN

    def push(
        self,
        game_id: int,
        user_id: int,
        content: str,
        view: discord.ui.View | None,
        *,
        final: bool = False,
        after: asyncio.Future[None] | None = None,
    ) -> None:
        """Edit the player's open view to ``content`` in the background (never waits);
        ``final``: the game is over, this is the view's last edit and it is not followed
        any more. ``after``: not before this is done (the game's table is posted), and
        only if the view is not answered or pushed again meanwhile."""
        key = (game_id, user_id)
        found = self._open.get(key)
        if found is None or not self.is_open(*key):
            self._open.pop(key, None)
            return
        turn = self._turn(key)
        if final:
            del self._open[key]
        self._after(key, turn, _Edit(found, content, view, final), after)

    def _after(
        self,
        key: tuple[int, int],
        turn: int,
        edit: _Edit,
        after: asyncio.Future[None] | None,
    ) -> None:
        """:meth:`_made` ``edit`` now, or once ``after`` is done (a callback, not a task
        waiting: nothing runs until the table is posted)."""
        if after is None or after.done():
            self._made(key, turn, edit)
            return

        def ready(future: asyncio.Future[None]) -> None:
            if not future.cancelled():  # cancelled: the outbox stopped, the bot is closing
                self._made(key, turn, edit)

        after.add_done_callback(ready)

    def _made(self, key: tuple[int, int], turn: int, edit: _Edit) -> None:
        """Edit the view in the background (only the latest waiting edit is made), unless
        what it shows is newer than ``turn`` by now, or it is no longer followed."""
        # a view no longer numbered was forgotten with its game, after its last edit
        if self._turns.get(key, turn) != turn:
            return  # answered or pushed again meanwhile: the newer one wins
        to = self._open.get(key)
        if to is None and not edit.final:
            return  # no longer followed (its edit failed, or its token ran out)
        self._waiting[key] = _Edit(to or edit.to, edit.content, edit.view, edit.final)
        if key not in self._tasks:
            self._tasks[key] = asyncio.get_running_loop().create_task(self._drain(key))

    def push_built(
        self,
        game_id: int,
        user_id: int,
        content: str,
        view: asyncio.Future[discord.ui.View],
        *,
        after: asyncio.Future[None] | None = None,
    ) -> None:
        """:meth:`push` ``content`` with ``view`` once it is built (a menu built off the
        loop, shared: it is reissued) and ``after`` is done, unless the player's view is
        answered or pushed again before that."""
        key = (game_id, user_id)
        found = self._open.get(key)
        if found is None or not self.is_open(*key):
            self._open.pop(key, None)
            return
        turn = self._turn(key)
        edit = _Edit(found, content, None)
        task = asyncio.get_running_loop().create_task(
            self._when_built(key, turn, edit, view, after)
        )
        self._building.add(task)
        task.add_done_callback(self._building.discard)

    async def _when_built(
        self,
        key: tuple[int, int],
        turn: int,
        edit: _Edit,
        view: asyncio.Future[discord.ui.View],
        after: asyncio.Future[None] | None,
    ) -> None:
        try:
            built = await asyncio.shield(view)
        except Exception:
            log.exception("game %s: a hand view could not be built", key[0])
            return
        edit.view = reissue(built)
        self._after(key, turn, edit, after)

    def _turn(self, key: tuple[int, int]) -> int:
        """A new number for what the view shows now."""
        turn = self._turns[key] = next(self._counter)
        return turn

    async def close(self) -> None:
        """Stop the background edits and the menus' worker."""
        for task in [*self._tasks.values(), *self._building]:
            task.cancel()
        self._open.clear()
        self._waiting.clear()
        self._turns.clear()
        self.menus.close()

    async def _drain(self, key: tuple[int, int]) -> None:
        try:
            while key in self._waiting:
                edit = self._waiting.pop(key)
                to = self._open.get(key) or edit.to  # the view as the player last opened it
                if now() - to.opened >= TOKEN_LIFE - MARGIN:
                    continue  # its token ran out while it waited
                try:
                    await to.interaction.edit_original_response(
                        content=edit.content, view=edit.view, embed=None
                    )
                except discord.HTTPException as error:
                    log.info("game %s: a hand view could not follow (%s)", key[0], error)
                    if self._open.get(key) is to:
                        del self._open[key]
                except Exception:
                    log.exception("game %s: a hand view could not follow", key[0])
        finally:
            self._tasks.pop(key, None)

    def _expire(self) -> None:
        limit = now() - TOKEN_LIFE
        for key in [k for k, v in self._open.items() if v.opened < limit]:
            del self._open[key]
            self._turns.pop(key, None)
