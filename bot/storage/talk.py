"""Table talk in storage (schema version 19): ``table_talk`` holds one row per person who
said a line or muted talk: whether they muted it, and when they last said a line.

A line is a post at every place of its match, and nothing of the game changes: so it is
not written with a save of the game (a save that does not move the game on keeps its
version, and another shard's process holding the game loaded would keep its old copy and
write it back later). Instead the person's ``said_at`` and the line's outbox rows are
written in ONE transaction (:meth:`TalkQueries.say`): its first statement takes the
person's turn to speak only if their last line is old enough (checked: it must change
one row), so two clicks at once, even in two processes, say one line, and a line
committed is posted (the outbox is durable) exactly once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.storage.outbox import number_posts, queue_posts
from bot.storage.records import Outgoing, StaleGame
from bot.storage.sql import Queries, Statement


class TalkQueries(Queries):
    """The storage's queries about table talk."""

    async def talk_said_at(self, user_id: int) -> float | None:
        """When a person last said a line (``None``: never, or forgotten)."""
        rows = await self.fetch("SELECT said_at FROM table_talk WHERE user_id = ?", (user_id,))
        return float(rows[0][0]) if rows and rows[0][0] is not None else None

    async def say(self, user_id: int, now: float, every: float, posts: Sequence[Outgoing]) -> bool:
        """Write a line's ``posts`` if the person's last line is at least ``every``
        seconds old (then their turn is taken, in the same transaction); ``False``, and
        nothing written, if it is not."""
        take = Statement(
            "INSERT INTO table_talk (user_id, muted, said_at) VALUES (?, 0, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET said_at = excluded.said_at"
            " WHERE table_talk.said_at IS NULL OR table_talk.said_at <= ?",
            (user_id, now, now - every),
            check=True,
        )
        queued = queue_posts(posts, now)
        try:
            ids = (await self.write([take, *queued]))[1:]
        except StaleGame:  # the checked statement changed nothing: too soon
            return False
        number_posts(posts, queued, ids)
        return True

    async def talk_muted(self, user_ids: Iterable[int]) -> set[int]:
        """Those of ``user_ids`` who muted table talk."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return set()
        marks = ", ".join("?" for _ in wanted)
        rows = await self.fetch(
            f"SELECT user_id FROM table_talk WHERE muted = 1 AND user_id IN ({marks})", wanted
        )
        return {int(user) for (user,) in rows}

    async def set_talk_muted(self, user_id: int, muted: bool) -> None:
        """Mute (or hear again) table talk for a person."""
        await self.write(
            [
                Statement(
                    "INSERT INTO table_talk (user_id, muted) VALUES (?, ?)"
                    " ON CONFLICT (user_id) DO UPDATE SET muted = excluded.muted",
                    (user_id, int(muted)),
                )
            ]
        )
