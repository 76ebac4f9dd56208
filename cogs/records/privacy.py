"""``/kasino forget-me``: a person has the bot remove everything that names them.

The command asks first (a private message with **Forget me** and **Keep my data**); only
that person's own private message can confirm it. Their analyses running in this process
are dropped first; then their settings and current ratings are deleted, their results and
rating changes kept under a nameless id of each game (so the others' ratings still add up,
and no id links their games), and in the games they played their seat, name and mentions
are made anonymous, so the other players' histories stay whole. After it, the bot's kept
public messages of those games and tournaments are edited without them
(:mod:`cogs.records.forget_posts`). While they are seated in a running game the request is
refused: the game needs their seat until it ends.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord

from bot.i18n import N_
from bot.storage import Storage
from bot.storage.privacy import Forgotten
from bot.timers import now
from cogs.common import NOT_MINE, own_view, private, refuse
from cogs.custom_ids import Click
from cogs.play.views import forget_view
from cogs.records.forgetting import PeopleCaches

log = logging.getLogger(__name__)

SEATED = N_(
    "You have a seat in a Kasino game that is still running. Leave it, or let it end, then"
    " ask again."
)

ENTERED = N_(
    "You are signed up to a Kasino tournament that is still open. Leave it or drop out,"
    " or let it end, then ask again."
)


class ForgetFlow:
    """The forget-me request and its confirmation."""

    def __init__(
        self,
        storage: Storage,
        people: PeopleCaches,
        stop: Callable[[int], object] = lambda _user: None,
        after: Callable[[Forgotten], object] = lambda _done: None,
    ) -> None:
        self.storage = storage
        self.people = people
        # drops the person's work in progress (their analyses) before the rows go, so
        # that nothing of theirs is written after
        self._stop = stop
        # edits the bot's public messages that named them (cogs.records.forget_posts)
        self._after = after

    async def ask(self, interaction: discord.Interaction) -> None:
        """Say what would be removed, privately, with the two buttons."""
        t = private(interaction)
        if await self.storage.seated_in_active_game(interaction.user.id):
            await refuse(interaction, SEATED)
            return
        if await self.storage.in_open_tournament(interaction.user.id):
            await refuse(interaction, ENTERED)
            return
        text = t(
            "**Forget me?** In every server the bot will delete your settings and your"
            " ratings and take your name and id off what it stores: your results stay only"
            " as a nameless player in the other players' standings (another one in each"
            " game), and your seat, name and mentions become anonymous in the games you"
            " played. It also edits the messages of its own that it keeps track of (lobbies,"
            " end messages, tournament sign-ups, standings and podiums) to leave you out;"
            " its other messages (round summaries, notices) and what others wrote stay as"
            " they are. This cannot be undone."
        )
        await interaction.response.send_message(
            text, view=forget_view(interaction.user.id, t), ephemeral=True
        )

    async def on_answer(self, interaction: discord.Interaction, click: Click) -> None:
        """**Forget me** or **Keep my data**, from the person's own private message."""
        user = interaction.user.id
        if click.user != user or not own_view(interaction):
            await refuse(interaction, NOT_MINE)
            return
        t = private(interaction)
        if click.action == "no":
            text = t("Nothing was removed.")
        elif await self.storage.seated_in_active_game(user):
            text = t(SEATED)
        elif await self.storage.in_open_tournament(user):
            text = t(ENTERED)
        else:
            self._stop(user)
            done = await self.storage.forget_user(user, now())
            # the transaction removed their deck too; now every cache here that could
            # name them (the other processes drop theirs when they see the count grow)
            await self.people.forgot()
            self._after(done)
            log.info("a user had their data removed (%d games anonymised)", done.games)
            text = t.ngettext(
                "Done: your settings are deleted, and your results, ratings and the {n} game"
                " you played no longer name you.",
                "Done: your settings are deleted, and your results, ratings and the {n} games"
                " you played no longer name you.",
                done.games,
            )
        await interaction.response.edit_message(content=text, view=None)
