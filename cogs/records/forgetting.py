"""What a process keeps in memory about people, dropped the moment anyone is forgotten.

``/kasino forget-me`` rewrites the database in one transaction; but a process also keeps
match records (:class:`cogs.records.history.RecordFlow`), the players' chosen decks
(:class:`cogs.settings.decks.Inks`) and the menus' game snapshots (:class:`bot.offloop.Menus`),
which would go on naming the person. Each of those registers here, once, and
:class:`PeopleCaches` drops them all together:

- in the process that ran the command, at once (:meth:`PeopleCaches.forgot`);
- in every other process (shards on one PostgreSQL database), through the database: the
  forget transaction adds a row to ``forgotten``, and :meth:`PeopleCaches.fresh` reads its
  highest id (one primary-key read) before an interaction is served. A count that grew
  means someone was forgotten: everything registered is dropped, before anything is read
  from it (any change drops: a database restored from a back-up may count fewer). The
  count says nobody's name or id, so it keeps nothing about the person.

Not registered, because they cannot hold a forgotten person: the open hand views
(:class:`cogs.play.live.LiveHands`, with each reader's language) and the loaded games
(:class:`bot.games.GameService`) are of running games only, and nobody seated in one can
be forgotten; names (``recent_names``) and profiles are read from the database each time;
the servers' languages (:class:`cogs.settings.languages.Languages`) name servers, not people.

Where a record is served (an export, a replay, the history) the count is read every time:
nothing there may name a person forgotten a moment ago in another process. Before other
interactions it is read at most every :data:`LOOK_EVERY` seconds (the decks and menu
snapshots it guards hold ids, not records): a read per click would put every click in the
database's queue behind the writes, which is where a busy evening's clicks wait longest.

Why a count read, not LISTEN/NOTIFY: it works the same on SQLite and
PostgreSQL, needs no connection held open per process, cannot miss a notice sent while a
process was restarting or reconnecting, and is exact: the row commits with the anonymised
rows, so a process that can read those rows sees the new count too.

A cache that loads from the database must not keep what it read before a drop it did not
see (an export loading while another interaction drops): it stores an entry only if
:attr:`PeopleCaches.epoch` is the same as when its load began.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.storage import Storage
from bot.timers import now

log = logging.getLogger(__name__)

LOOK_EVERY = 1.0  # seconds between two reads of the count before ordinary interactions

Drop = Callable[[], Awaitable[None] | None]


class PeopleCaches:
    """Every in-process cache that can hold a person's name, id or record, and the
    ``forgotten`` count this process last saw."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self._drops: dict[str, Drop] = {}
        self._seen: int | None = None  # the count last read (None: not read yet)
        self._looked = float("-inf")  # when it was read
        self.epoch = 0  # grows at every drop: an entry loaded before it is not kept
        self._lock = asyncio.Lock()

    def register(self, name: str, drop: Drop) -> None:
        """Have ``drop()`` called (awaited, if it returns an awaitable) whenever someone is
        forgotten; ``name`` says which cache in a failure's log line."""
        self._drops[name] = drop

    @property
    def names(self) -> tuple[str, ...]:
        """The registered caches' names."""
        return tuple(self._drops)

    async def start(self) -> None:
        """Read the count at start-up: what the process loads then is already without
        everyone forgotten so far."""
        self._seen = await self._storage.forgotten_count()

    async def fresh(self, *, within: float = 0.0) -> None:
        """Before serving from a cache that holds people: drop everything if anyone was
        forgotten since the last look (in this process or another). ``within``: no new
        read if the count was read less than that many seconds ago."""
        if within and now() - self._looked < within:
            return
        self._looked = now()
        count = await self._storage.forgotten_count()
        if count != self._seen:
            await self._drop(count)

    async def forgot(self) -> None:
        """This process has just forgotten someone (the transaction is committed)."""
        await self._drop(await self._storage.forgotten_count())

    async def _drop(self, count: int) -> None:
        """Drop every registered cache, then remember ``count`` as seen. The epoch grows
        first, so a load that began before it keeps nothing."""
        async with self._lock:  # two drops at once would each reload the decks
            self.epoch += 1
            for name, drop in self._drops.items():
                try:
                    done = drop()
                    if done is not None:
                        await done
                except Exception:  # one cache failing must not keep the others
                    log.exception("dropping the %s cache failed", name)
            self._seen = count
