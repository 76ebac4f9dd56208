"""The daily digest: for each person who chose it, once a day at their digest hour (in
their zone, held back past their quiet hours), ONE direct message listing the
correspondence games waiting for their move, with a **Your hand** button per game
(``k:hand:<game>:<version>``, the table's own button, which works from a DM).

Every digest of every person waits on one wake-up (:class:`bot.timers.Timers`, keyed by
user id), kept by the process of shard 0 alone, and computed again from the person's
settings at the start, after each digest and whenever their settings change. When a
digest went is stored (:meth:`Storage.take_digest`, a compare-and-set), so a restart or a
second process never sends a day's digest twice (a day with no waiting game is noted
too, and sends no message).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.correspondence import DIGEST, NoticePrefs, next_digest, quiet_at, quiet_ends
from bot.correspondence.clock import turn_ends
from bot.i18n import Lang, lang
from bot.models import Game
from bot.nonces import nonce
from bot.render import TABLE_COLOUR, variant_name
from bot.stages import seat_stage
from bot.storage import Storage
from bot.timers import Timers, now
from bot.translator import command_name
from cogs.common import stage_url
from cogs.correspondence.notifier import Notifier
from cogs.correspondence.prefs import Prefs, dm_lang
from cogs.play.views import hand_button

log = logging.getLogger(__name__)

AT_MOST_ONE_IN = 12 * 3600.0  # never two digests within this (a day's, however zones move)
MOST_BUTTONS = 25  # a message holds 5 rows of 5 buttons
MOST_LISTED = 25


def digest_message(
    games: list[Game], user_id: int, t: Lang
) -> tuple[discord.Embed, discord.ui.View]:
    """The digest's embed and its buttons."""
    count = len(games)
    embed = discord.Embed(
        title=t.ngettext("{n} game waits for you", "{n} games wait for you", count),
        colour=TABLE_COLOUR,
    )
    lines = []
    for number, game in enumerate(games[:MOST_LISTED], start=1):
        others = ", ".join(s.name for s in game.seats if s.user_id != user_id) or "—"
        # the game's number too: two games with the same people are told apart
        variant = f"{variant_name(game.options.variant, t)} #{game.id}"
        line = t(
            "**{number}.** {variant} with {others}: [the table]({link})",
            number=number,
            variant=variant,
            others=discord.utils.escape_markdown(others),
            link=stage_url(seat_stage(game, game.seat_of(user_id) or 0)),
        )
        ends = turn_ends(game)
        if ends is not None:
            due = f"<t:{int(ends)}:R>"
            line += " · " + t("your move is due {when}", when=due)
        lines.append(line)
    if count > MOST_LISTED:
        lines.append(t("…and more: see them all with {games}.", games=command_name(t, "games")))
    embed.description = "\n".join(lines)
    embed.set_footer(
        text=t("Once a day, as you chose in {settings}.", settings=command_name(t, "settings"))
    )
    view = discord.ui.View(timeout=None)
    for number, game in enumerate(games[:MOST_BUTTONS], start=1):
        view.add_item(hand_button(game, t("Your hand · {number}", number=number)))
    return embed, view


class Digests:
    """The daily digests of everyone who chose one (the module docstring)."""

    def __init__(self, bot: Any, storage: Storage, prefs: Prefs, notifier: Notifier) -> None:
        self.bot = bot
        self.storage = storage
        self.prefs = prefs
        self.notifier = notifier
        self.timers = Timers(self._due)
        self.keeping = False

    async def start(self) -> None:
        """Schedule everyone's next digest (the process of shard 0 only); a digest missed
        while no process ran goes at once."""
        self.keeping = bool(self.bot.owns_guild(0))
        if not self.keeping:
            return
        self.prefs.watch(self.changed)
        sent = await self.storage.digest_times()
        at = now()
        for user_id, prefs in self.prefs.people().items():
            if prefs.how == DIGEST:
                last = sent.get(user_id)
                due = next_digest(prefs, last) if last is not None else next_digest(prefs, at)
                self.timers.schedule(user_id, max(due, at))

    def close(self) -> None:
        """Stop waiting (the digests' times stay in the database)."""
        self.timers.cancel_all()

    def changed(self, user_id: int) -> None:
        """A person's settings changed: their next digest is computed again (or none)."""
        if not self.keeping:
            return
        prefs = self.prefs.of(user_id)
        if prefs.how == DIGEST:
            self.timers.schedule(user_id, next_digest(prefs, now()))
        else:
            self.timers.cancel(user_id)

    async def _due(self, user_id: int, due: float) -> None:
        prefs = self.prefs.of(user_id)
        if prefs.how != DIGEST:
            return
        at = now()
        if quiet_at(prefs, at):  # their quiet hours moved meanwhile
            self.timers.schedule(user_id, quiet_ends(prefs, at))
            return
        try:
            await self.send(user_id, prefs, at, due)
        finally:
            self.timers.schedule(user_id, next_digest(self.prefs.of(user_id), at))

    async def send(self, user_id: int, prefs: NoticePrefs, at: float, due: float) -> bool:
        """The person's digest due at ``due``, now: sent if one is owed (none handled
        within :data:`AT_MOST_ONE_IN`) and games wait for them; whether one went. The
        moment is noted as handled either way (nothing waiting included), so a restart
        neither sends it again nor looks again.

        Sent first, then noted: a process killed between the two sends it again at its
        start with the same nonce (the same ``due``, computed from the last one noted), and
        Discord, which checks nonces for a few minutes, makes no second message."""
        if prefs.dm_refused:
            return False  # their notices come as mentions until they choose again
        last = await self.storage.last_digest(user_id)
        if last is not None and last >= at - AT_MOST_ONE_IN:
            return False  # handled already (before a restart)
        games = await self.storage.games_waiting_for(user_id)
        sent = False
        if games:
            t = dm_lang(prefs, lang())
            embed, view = digest_message(games, user_id, t)
            key = nonce(f"digest/{user_id}", int(due))
            sent = await self.notifier.dm(user_id, embed=embed, view=view, nonce=key)
            log.info("a daily digest of %d games %s", len(games), "sent" if sent else "refused")
        await self.storage.take_digest(user_id, at, at - AT_MOST_ONE_IN)
        return sent
