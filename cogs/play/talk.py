"""Table talk at a ladder match (:mod:`bot.talk`): the buttons' clicks.

A line pressed on either table is queued for every place the match is shown, each in
that place's language, unless everyone seated there muted table talk; the lines and the
speaker's turn are written in one transaction (:meth:`bot.storage.talk.TalkQueries.say`)
and posted by the outbox like any post of the game (mentioning nobody). "Table talk
on/off" is each person's own switch, kept in the database: the table is shared, so the
button is the same for everyone and the private answer says which way it went.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import discord

from bot.i18n import N_
from bot.models import Game, Status
from bot.render import seat_name
from bot.stages import Stage, stage_at, stages_of
from bot.storage import Outgoing, Storage
from bot.talk import LINES, MUTE, SAID, TALK_AFTER_END, TALK_EVERY, seated, talk_offered
from bot.timers import now
from cogs.common import NOT_MINE, NOT_PLAYING, private, refuse, tell
from cogs.play.outbox import Post
from cogs.play.table import TableFlow

MUTED = N_(
    "🔇 Table talk is muted for you: your table shows no lines (yours neither), at every"
    " ladder match. Press **Table talk on/off** again to hear it."
)
OVER = N_("This match ended more than {minutes} minutes ago: its table talk is over.")
UNMUTED = N_("🔊 Table talk is on for you again: lines show on your table.")
SAID_UNHEARD = N_("Said, at the other table: yours shows no lines while you have table talk muted.")


class TalkFlow:
    """Table talk's clicks: a line said on both tables, and the mute switch."""

    def __init__(
        self, storage: Storage, table: TableFlow, posted: Callable[[list[Outgoing]], None]
    ) -> None:
        self.storage = storage
        self.table = table
        self.posted = posted  # committed posts go to the outbox (or another shard's process)

    async def on_click(self, interaction: discord.Interaction, game: Game, action: str) -> None:
        """A table talk button of ``game`` (already known to be shown in this channel)."""
        stage = stage_at(game, interaction.channel_id)
        if not talk_offered(game) or stage is None or not _on_table(interaction, stage):
            await refuse(interaction, NOT_MINE)  # not a ladder match's, or not its table
            return
        if action == MUTE:
            await self._switch(interaction)
        elif action in LINES:
            await self._say(interaction, game, action)
        else:
            await refuse(interaction, NOT_MINE)

    async def _switch(self, interaction: discord.Interaction) -> None:
        user = interaction.user.id
        muted = user not in await self.storage.talk_muted([user])
        await self.storage.set_talk_muted(user, muted)
        await refuse(interaction, MUTED if muted else UNMUTED)

    async def _say(self, interaction: discord.Interaction, game: Game, key: str) -> None:
        user = interaction.user.id
        if not seated(game, user):
            await refuse(interaction, NOT_PLAYING)
            return
        at = now()
        if game.status is Status.FINISHED:
            ended = await self.storage.finished_at(game.id)
            if ended is not None and at - ended > TALK_AFTER_END:
                await refuse(interaction, OVER, minutes=TALK_AFTER_END // 60)
                return
        last = await self.storage.talk_said_at(user)
        if last is not None and at - last < TALK_EVERY:
            await self._too_soon(interaction, last + TALK_EVERY - at)
            return
        humans = [seat.user_id for seat in game.seats if seat.is_human and seat.user_id]
        muted = await self.storage.talk_muted(humans)
        posts = [
            self._line(game, stage, user, key)
            for stage in stages_of(game)
            if not _all_muted(game, stage, muted)
        ]
        if not await self.storage.say(user, at, TALK_EVERY, posts):
            await self._too_soon(interaction, TALK_EVERY)  # another click of theirs just won
            return
        self.posted(posts)
        if user in muted:
            await refuse(interaction, SAID_UNHEARD)
        else:
            await interaction.response.defer()  # the line shows on the table itself

    def _line(self, game: Game, stage: Stage, user: int, key: str) -> Outgoing:
        """The line as a post at one place, in its language; it pings nobody."""
        t = self.table.lang(game, stage)
        speaker = next(seat for seat in game.seats if seat.user_id == user)
        text = t(SAID, name=seat_name(speaker, t), line=t(LINES[key]))
        post = Post(game.id, stage.guild_id, stage.channel_id, text, courier=stage.courier.value)
        return post.record()

    @staticmethod
    async def _too_soon(interaction: discord.Interaction, wait: float) -> None:
        t = private(interaction)
        seconds = max(1, math.ceil(wait))
        said = t.ngettext(
            "One line every {every} seconds: you can say another in {n} second.",
            "One line every {every} seconds: you can say another in {n} seconds.",
            seconds,
            every=int(TALK_EVERY),
        )
        await tell(interaction, said)


def _on_table(interaction: discord.Interaction, stage: Stage) -> bool:
    """Whether the click came with the game's own message at that place (its table, or
    the one it just replaced; before any is known, any)."""
    message = interaction.message
    if stage.message_id is None:
        return True
    return message is not None and message.id in (stage.message_id, stage.ping_id)


def _all_muted(game: Game, stage: Stage, muted: set[int]) -> bool:
    """Whether everyone seated at a place muted table talk (it then shows no lines)."""
    here = [game.seats[i].user_id for i in stage.seats if 0 <= i < len(game.seats)]
    people = [user for user in here if user]
    return bool(people) and all(user in muted for user in people)
