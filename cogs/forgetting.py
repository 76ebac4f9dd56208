"""What a process keeps in memory about people, dropped the moment anyone is forgotten.

``/kasino forget-me`` rewrites the database in one transaction; but a process also keeps
match records (:class:`cogs.records.RecordFlow`), the players' chosen decks
(:class:`cogs.decks.Inks`) and the menus' game snapshots (:class:`bot.offloop.Menus`),
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
(:class:`cogs.live.LiveHands`, with each reader's language) and the loaded games
(:class:`bot.games.GameService`) are of running games only, and nobody seated in one can
be forgotten; names (``recent_names``) and profiles are read from the database each time;
the servers' languages (:class:`cogs.languages.Languages`) name servers, not people.

Why a count read per interaction, not LISTEN/NOTIFY: it works the same on SQLite and
PostgreSQL, needs no connection held open per process, cannot miss a notice sent while a
process was restarting or reconnecting, and is exact: the row commits with the anonymised
rows, so a process that can read those rows sees the new count too. One read of an index's
end per interaction costs little beside the reads an interaction makes anyway.

A cache that loads from the database must not keep what it read before a drop it did not
see (an export loading while another interaction drops): it stores an entry only if
:attr:`PeopleCaches.epoch` is the same as when its load began.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.storage import Storage

log = logging.getLogger(__name__)

Drop = Callable[[], Awaitable[None] | None]


class PeopleCaches:
    """Every in-process cache that can hold a person's name, id or record, and the
    ``forgotten`` count this process last saw."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self._drops: dict[str, Drop] = {}
        self._seen: int | None = None  # the count last read (None: not read yet)
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

    async def fresh(self) -> None:
        """Before serving from a cache that holds people: drop everything if anyone was
        forgotten since the last look (in this process or another)."""
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
