"""The ladder's pool in storage (schema version 18): who waits for which game, blocks,
recent opponents, abandonments, and the servers that turned the ladder off.

``ladder_queue`` holds one row per person waiting (a new entry replaces the old one), with
where they wait (the server, 0 for a DM or group DM, the channel and its courier), the name
and global rating they joined with, when, their waiting message and their language. The
pool lives in the database, not in a process, so any shard's process may pair it and a
process killed loses no entry.

:meth:`LadderQueries.pair` reads one game's entries, applies the pure rules
(:func:`bot.ladder.pairings`), deletes the paired entries and records who met whom, in
ONE transaction. On PostgreSQL that transaction first takes an advisory lock of the game
(:func:`game_lock`), so two processes pairing the same game take turns and the second
sees the first one's deletions, and locks the rows it reads (``FOR UPDATE SKIP LOCKED``):
a person leaving or joining again at that moment waits for the pairing (or is skipped by
it) instead of changing a row under it. Each delete must remove exactly the row that was
read (its ``joined_at``), else the whole pairing is rolled back and nobody is paired this
time. On SQLite (one process) the same code runs inside ``BEGIN IMMEDIATE``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from bot.ladder import (
    ABANDON_WINDOW,
    RECENT_MATCHES,
    Entry,
    Group,
    is_ladder_game,
    pairings,
    paused_until,
)
from bot.storage.records import StaleGame
from bot.storage.sql import Computed, Queries, Shards, Statement, of_shards

LADDER_LOCK = 0x4C414452  # "LADR": the first key of a game's pairing lock
MAX_BLOCKS = 200  # people one person may block at most
COURIERS = ("channel", "interaction")
DIRECT = 0  # the guild id of an entry made in a DM or group DM (no server)

_COLUMNS = (
    "user_id, variant, players, guild_id, channel_id, courier, name, rating, joined_at,"
    " message_id, locale, offered_at"
)
_OF_GAME = "SELECT user_id FROM ladder_queue WHERE variant = ? AND players = ?"


@dataclass(frozen=True, slots=True)
class QueueEntry:
    """A person waiting in the ladder's pool: the game, where they wait (``guild_id``
    :data:`DIRECT` for a DM or group DM; ``courier`` 'channel' or 'interaction', as
    :mod:`bot.stages`), the name and global rating (shown points) they joined with, when,
    their waiting message (once posted), their language, and when they were offered a game
    with the computer (:meth:`LadderQueries.offer_computer`)."""

    user_id: int
    variant: str
    players: int
    guild_id: int
    channel_id: int
    courier: str
    name: str
    rating: float
    joined_at: float
    message_id: int | None = None
    locale: str | None = None
    offered_at: float | None = None

    @property
    def entry(self) -> Entry:
        """What the pairing rules read of it."""
        return Entry(self.user_id, self.variant, self.players, self.rating, self.joined_at)


@dataclass(frozen=True, slots=True)
class Joined:
    """What :meth:`LadderQueries.join_ladder` did: ``refused`` ('game': nobody queues for
    that game; 'courier': not a way to reach a channel; 'off': the server turned the ladder
    off; 'paused': queueing is paused until ``paused_until``), else the entry is in the
    pool and ``replaced`` is the person's previous entry (its waiting message to remove)."""

    refused: str | None = None
    replaced: QueueEntry | None = None
    paused_until: float | None = None


def _entry(row: Sequence[Any]) -> QueueEntry:
    user, variant, players, guild, channel, courier, name, rating, at, message, locale, offered = (
        row
    )
    return QueueEntry(
        int(user), str(variant), int(players), int(guild), int(channel), str(courier),
        str(name), float(rating), float(at), None if message is None else int(message),
        None if locale is None else str(locale), None if offered is None else float(offered),
    )  # fmt: skip


def game_lock(variant: str, players: int) -> tuple[int, int]:
    """The advisory lock one game's pairing is done under (PostgreSQL)."""
    digest = hashlib.blake2b(f"{variant}:{players}".encode(), digest_size=4).digest()
    return LADDER_LOCK, int.from_bytes(digest, "big", signed=True)


class LadderQueries(Queries):
    """The storage's queries about the ladder."""

    shared: ClassVar[bool] = False  # the backend's: PostgreSQL locks the rows it pairs

    # ------------------------------------------------------------ the pool

    async def ladder_entry(self, user_id: int) -> QueueEntry | None:
        """A person's entry in the pool, if they wait."""
        rows = await self.fetch(
            f"SELECT {_COLUMNS} FROM ladder_queue WHERE user_id = ?", (user_id,)
        )
        return _entry(rows[0]) if rows else None

    async def ladder_entries(self, shards: Shards | None = None) -> list[QueueEntry]:
        """Everyone waiting, longest first (``shards``: those waiting in these shards'
        servers; a DM's or group DM's entry, server 0, is shard 0's): whose waiting
        messages a process keeps up to date."""
        theirs, params = of_shards(shards)
        rows = await self.fetch(
            f"SELECT {_COLUMNS} FROM ladder_queue WHERE {theirs} ORDER BY joined_at, user_id",
            params,
        )
        return [_entry(row) for row in rows]

    async def join_ladder(self, entry: QueueEntry, now: float) -> Joined:
        """Put a person in the pool, replacing their previous entry (any game), unless
        the game is not one people queue for, their server turned the ladder off, or their
        queueing is paused (then nothing changes)."""
        if not is_ladder_game(entry.variant, entry.players):
            return Joined("game")
        if entry.courier not in COURIERS:
            return Joined("courier")
        if entry.guild_id != DIRECT and not await self.ladder_enabled(entry.guild_id):
            return Joined("off")
        until = await self.ladder_paused_until(entry.user_id, now)
        if until is not None:
            return Joined("paused", paused_until=until)
        old = await self.ladder_entry(entry.user_id)
        # its waiting message is posted after, and the computer not offered yet
        entry = replace(entry, message_id=None, offered_at=None)
        values = [getattr(entry, name.strip()) for name in _COLUMNS.split(",")]
        sql = (
            f"INSERT INTO ladder_queue ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
            " ON CONFLICT (user_id) DO UPDATE SET variant = excluded.variant,"
            " players = excluded.players, guild_id = excluded.guild_id,"
            " channel_id = excluded.channel_id, courier = excluded.courier,"
            " name = excluded.name, rating = excluded.rating, joined_at = excluded.joined_at,"
            " message_id = NULL, locale = excluded.locale, offered_at = NULL"
        )
        await self.write([Statement(sql, values)])
        return Joined(replaced=old)

    async def set_ladder_message(self, user_id: int, joined_at: float, message_id: int) -> bool:
        """Note an entry's waiting message; ``False`` if that entry is gone (paired, left
        or replaced meanwhile: the message is the caller's to remove)."""
        (changed,) = await self.write(
            [
                Statement(
                    "UPDATE ladder_queue SET message_id = ? WHERE user_id = ? AND joined_at = ?",
                    (message_id, user_id, joined_at),
                )
            ]
        )
        return bool(changed)

    async def offer_computer(self, user_id: int, joined_at: float, now: float) -> bool:
        """Note that the entry was offered a game with the computer; ``True`` only the
        first time for that entry (whichever process asks), so it is offered once."""
        (changed,) = await self.write(
            [
                Statement(
                    "UPDATE ladder_queue SET offered_at = ? WHERE user_id = ? AND joined_at = ?"
                    " AND offered_at IS NULL",
                    (now, user_id, joined_at),
                )
            ]
        )
        return bool(changed)

    async def leave_ladder(self, user_id: int) -> QueueEntry | None:
        """Take a person out of the pool: the entry removed, or ``None`` if they were not
        waiting (leaving twice is fine) or were paired at that moment."""
        old = await self.ladder_entry(user_id)
        if old is None:
            return None
        (changed,) = await self.write(
            [
                Statement(
                    "DELETE FROM ladder_queue WHERE user_id = ? AND joined_at = ?",
                    (user_id, old.joined_at),
                )
            ]
        )
        return old if changed else None

    async def ladder_counts(self) -> dict[tuple[str, int], int]:
        """How many people wait for each game (never who)."""
        rows = await self.fetch(
            "SELECT variant, players, COUNT(*) FROM ladder_queue GROUP BY variant, players"
        )
        return {(str(v), int(p)): int(n) for v, p, n in rows}

    async def pair(
        self, variant: str, players: int, now: float, seat: Seat | None = None
    ) -> list[tuple[QueueEntry, ...]]:
        """Seat whoever can be seated now in one game, in one transaction (see the
        module): the groups (each in the order :func:`bot.ladder.pairings` gives), whose
        entries are gone from the pool and whose meetings are recorded. Nobody is in two
        groups, whichever processes pair at once. ``seat`` (the channels where a game runs
        now, among those the game's people wait in; the groups) gives the groups that can
        be seated and the statements that create their games, written in the same
        transaction: a process killed after it has both the entries gone and the games
        made, or neither."""
        if not is_ladder_game(variant, players):
            return []
        game = (variant, players)
        lock_rows = " FOR UPDATE SKIP LOCKED" if self.shared else ""
        queries = (
            (
                f"SELECT {_COLUMNS} FROM ladder_queue WHERE variant = ? AND players = ?"
                f" ORDER BY joined_at, user_id{lock_rows}",
                game,
            ),
            (
                "SELECT user_id, blocked_id FROM ladder_blocks"
                f" WHERE user_id IN ({_OF_GAME}) AND blocked_id IN ({_OF_GAME})",
                game * 2,
            ),
            (
                f"SELECT user_id, other_id FROM ladder_recent WHERE user_id IN ({_OF_GAME})",
                game,
            ),
            (
                "SELECT channel_id FROM games WHERE status IN ('lobby', 'playing') AND"
                " channel_id IN (SELECT channel_id FROM ladder_queue WHERE variant = ? AND"
                " players = ?)",
                game,
            ),
        )
        found: list[tuple[QueueEntry, ...]] = []

        def compute(rows: list[list[Sequence[Any]]]) -> list[Statement]:
            found.clear()
            found.extend(_pairing(rows[:3], now))
            made: list[Statement] = []
            if seat is not None:
                busy = {int(channel) for (channel,) in rows[3]}
                kept, made = seat(busy, list(found))
                found[:] = kept
            return [*_pairing_steps(found, now), *made]

        try:
            await self.write([Computed(queries, compute, lock=game_lock(variant, players))])
        except StaleGame:  # an entry changed under the pairing: nobody paired this time
            return []
        return list(found)

    # ------------------------------------------------------------ blocks

    async def ladder_blocks(self, user_id: int) -> list[int]:
        """The people a person blocked, longest ago first."""
        rows = await self.fetch(
            "SELECT blocked_id FROM ladder_blocks WHERE user_id = ? ORDER BY at, blocked_id",
            (user_id,),
        )
        return [int(other) for (other,) in rows]

    async def block_ladder(self, user_id: int, other_id: int, now: float) -> str:
        """Keep another person out of a person's pairings: 'blocked', 'already' (nothing
        changes), 'self' (one cannot block oneself) or 'full' (:data:`MAX_BLOCKS`)."""
        if user_id == other_id:
            return "self"
        blocked = await self.ladder_blocks(user_id)
        if other_id in blocked:
            return "already"
        if len(blocked) >= MAX_BLOCKS:
            return "full"
        await self.write(
            [
                Statement(
                    "INSERT INTO ladder_blocks (user_id, blocked_id, at) VALUES (?, ?, ?)"
                    " ON CONFLICT (user_id, blocked_id) DO NOTHING",
                    (user_id, other_id, now),
                )
            ]
        )
        return "blocked"

    async def unblock_ladder(self, user_id: int, other_id: int) -> bool:
        """Lift a block; whether there was one."""
        (changed,) = await self.write(
            [
                Statement(
                    "DELETE FROM ladder_blocks WHERE user_id = ? AND blocked_id = ?",
                    (user_id, other_id),
                )
            ]
        )
        return bool(changed)

    # ------------------------------------------------------------ meetings

    async def ladder_recent(self, user_id: int) -> set[int]:
        """The people a person met in their last :data:`~bot.ladder.RECENT_MATCHES`
        ladder matches."""
        rows = await self.fetch("SELECT other_id FROM ladder_recent WHERE user_id = ?", (user_id,))
        return {int(other) for (other,) in rows}

    # ------------------------------------------------------------ abandonments

    async def record_ladder_abandon(self, user_id: int, game_id: int, now: float) -> float | None:
        """Count a ladder match a person abandoned (once per match, however often it is
        told); until when their queueing is now paused (``None``: not paused)."""
        await self.write(
            [
                Statement(
                    "INSERT INTO ladder_abandons (user_id, game_id, at) VALUES (?, ?, ?)"
                    " ON CONFLICT (user_id, game_id) DO NOTHING",
                    (user_id, game_id, now),
                ),
                # older ones never count again
                Statement(
                    "DELETE FROM ladder_abandons WHERE user_id = ? AND at <= ?",
                    (user_id, now - ABANDON_WINDOW),
                ),
            ]
        )
        return await self.ladder_paused_until(user_id, now)

    async def ladder_paused_until(self, user_id: int, now: float) -> float | None:
        """Until when a person may not queue (:func:`bot.ladder.paused_until`)."""
        rows = await self.fetch(
            "SELECT at FROM ladder_abandons WHERE user_id = ? AND at > ?",
            (user_id, now - ABANDON_WINDOW),
        )
        return paused_until((float(at) for (at,) in rows), now)

    # ------------------------------------------------------------ the server switch

    async def ladder_enabled(self, guild_id: int) -> bool:
        """Whether people may queue from this server (a DM or group DM: always)."""
        rows = await self.fetch("SELECT 1 FROM ladder_off WHERE guild_id = ?", (guild_id,))
        return not rows

    async def set_ladder_enabled(
        self, guild_id: int, enabled: bool, now: float
    ) -> list[QueueEntry]:
        """Turn the ladder on or off in a server; turning it off takes everyone waiting
        there out of the pool, in the same transaction: those entries (their waiting
        messages to update)."""
        if guild_id == DIRECT:
            raise ValueError("the ladder is always on in DMs and group DMs")
        if enabled:
            await self.write([Statement("DELETE FROM ladder_off WHERE guild_id = ?", (guild_id,))])
            return []
        waiting = [
            _entry(row)
            for row in await self.fetch(
                f"SELECT {_COLUMNS} FROM ladder_queue WHERE guild_id = ?", (guild_id,)
            )
        ]
        await self.write(
            [
                Statement(
                    "INSERT INTO ladder_off (guild_id, updated_at) VALUES (?, ?)"
                    " ON CONFLICT (guild_id) DO UPDATE SET updated_at = excluded.updated_at",
                    (guild_id, now),
                ),
                *(
                    Statement(
                        "DELETE FROM ladder_queue WHERE user_id = ? AND joined_at = ?",
                        (e.user_id, e.joined_at),
                    )
                    for e in waiting
                ),
            ]
        )
        return waiting


# Given the channels busy with a game and the groups paired, the groups that can be seated
# and the statements that create their games (LadderQueries.pair).
Seat = Callable[
    [set[int], list[tuple[QueueEntry, ...]]],
    tuple[list[tuple[QueueEntry, ...]], list[Statement]],
]


def _pairing(rows: list[list[Sequence[Any]]], now: float) -> list[tuple[QueueEntry, ...]]:
    """The groups :func:`bot.ladder.pairings` makes of one game's rows (entries, blocks,
    recent meetings), as stored entries."""
    entries, blocks, met = rows
    waiting = {e.user_id: e for e in map(_entry, entries)}
    recent: dict[int, set[int]] = {}
    for user, other in met:
        recent.setdefault(int(user), set()).add(int(other))
    pairs = {(int(a), int(b)) for a, b in blocks}
    groups: list[Group] = pairings((e.entry for e in waiting.values()), now, pairs, recent)
    return [tuple(waiting[e.user_id] for e in group) for group in groups]


def _pairing_steps(groups: Sequence[tuple[QueueEntry, ...]], now: float) -> list[Statement]:
    """Remove the paired entries (each exactly the row read: checked) and record who met
    whom, keeping each person's last :data:`RECENT_MATCHES` matches."""
    steps = []
    for group in groups:
        steps += [
            Statement(
                "DELETE FROM ladder_queue WHERE user_id = ? AND joined_at = ?",
                (e.user_id, e.joined_at),
                check=True,
            )
            for e in group
        ]
        for e in group:
            steps += [
                Statement(
                    "INSERT INTO ladder_recent (user_id, other_id, paired_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (user_id, other_id) DO UPDATE SET paired_at = excluded.paired_at",
                    (e.user_id, other.user_id, now),
                )
                for other in group
                if other is not e
            ]
            steps.append(
                Statement(
                    "DELETE FROM ladder_recent WHERE user_id = ? AND paired_at < (SELECT"
                    " MIN(paired_at) FROM (SELECT DISTINCT paired_at FROM ladder_recent"
                    " WHERE user_id = ? ORDER BY paired_at DESC LIMIT ?) AS kept)",
                    (e.user_id, e.user_id, RECENT_MATCHES),
                )
            )
    return steps
