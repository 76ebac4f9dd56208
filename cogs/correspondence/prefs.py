"""Every person's notice settings in memory (:class:`Prefs`), so a turn's notice needs no
query: read whole once at the cog's start, written through on each change, and kept
current across processes by a notice (:data:`NOTICE`, PostgreSQL's NOTIFY with the
person's id; the other processes read that one row again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from bot.correspondence import NoticePrefs
from bot.i18n import Lang, lang
from bot.storage import Storage
from bot.timers import now

log = logging.getLogger(__name__)

NOTICE = "kasino_prefs"  # payload: the user id whose settings changed
DEFAULTS = NoticePrefs()


class Prefs:
    """People's notice settings (:class:`NoticePrefs`), by user id, in memory."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self._of: dict[int, NoticePrefs] = {}
        self._watchers: list[Callable[[int], None]] = []
        self._chores: set[asyncio.Task[None]] = set()

    async def load(self) -> None:
        """Read everyone's settings, and listen for other processes' changes."""
        self._of = await self._storage.all_notice_prefs()
        await self._storage.listen(NOTICE, self._noticed)

    async def reload(self) -> None:
        """Read everyone's settings again (someone was forgotten, maybe elsewhere)."""
        self._of = await self._storage.all_notice_prefs()
        for user_id in list(self._of):
            self._changed(user_id)

    def of(self, user_id: int) -> NoticePrefs:
        """A person's settings (the defaults if they never changed any)."""
        return self._of.get(user_id, DEFAULTS)

    def people(self) -> dict[int, NoticePrefs]:
        """Everyone with stored settings."""
        return dict(self._of)

    def watch(self, changed: Callable[[int], None]) -> None:
        """Have ``changed(user_id)`` called after a person's settings change (here or in
        another process)."""
        self._watchers.append(changed)

    async def save(self, user_id: int, prefs: NoticePrefs) -> None:
        """Store a person's settings; every process learns of it."""
        await self._storage.save_notice_prefs(user_id, prefs, now())
        self._of[user_id] = prefs
        self._changed(user_id)
        await self._storage.notify(NOTICE, str(user_id))

    async def dm_refused(self, user_id: int) -> None:
        """Discord refused the bot's DM to this person: noted (once), so their notices come
        as mentions until they choose a DM again."""
        current = self.of(user_id)
        if current.dm_refused:
            return
        await self._storage.set_dm_refused(user_id, True, now())
        self._of[user_id] = current.replace(dm_refused=True)
        self._changed(user_id)
        await self._storage.notify(NOTICE, str(user_id))

    def _changed(self, user_id: int) -> None:
        for watcher in self._watchers:
            try:
                watcher(user_id)
            except Exception:
                log.exception("a watcher of notice settings failed")

    def _noticed(self, payload: str) -> None:
        if payload.isdigit():
            self._chore(self._reread(int(payload)))

    async def _reread(self, user_id: int) -> None:
        stored = await self._storage.notice_prefs(user_id)
        if stored is None:
            self._of.pop(user_id, None)
        elif self._of.get(user_id) == stored:
            return  # this process's own change, told back (SQLite tells itself)
        else:
            self._of[user_id] = stored
        self._changed(user_id)

    def _chore(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)


def dm_lang(prefs: NoticePrefs, otherwise: Lang) -> Lang:
    """The language of a direct message to a person: their client's when they last chose
    their settings (a DM is theirs alone), else ``otherwise``."""
    return lang(prefs.locale) if prefs.locale else otherwise
