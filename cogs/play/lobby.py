"""The lobby's buttons (join, leave, start, cancel, the host's computers and hints switch)
and the rematch button of a finished match."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.games import MESSAGE_COLUMNS, GameError, GameService
from bot.i18n import Lang
from bot.models import Game, Seat, Status
from bot.records.deals import seed_commitment
from bot.records.seal import shown
from bot.render import lobby_commitment, lobby_embed
from bot.storage import ChannelBusy
from bot.translator import command_name
from cogs.common import ANSWERS_HIDDEN, NOT_MINE, cut_told, private, refuse, refuse_error
from cogs.places import answers_forced_private
from cogs.play.table import TableFlow
from cogs.play.views import lobby_view, rematch_cut_view, replay_only_view

log = logging.getLogger(__name__)

# A person took a seat in a game (see LobbyFlow.seated).
Seated = Callable[[int, Game], Awaitable[None]]


def commitment_text(committed: str, game_id: int, t: Lang, *, joined: bool) -> str:
    """What a person is sent privately on Join (or the host on ``/kasino new``): the
    commitment to the match's seed, to note and check after the game."""
    first = t("You have a seat.") if joined else t("Your lobby is open.")
    return (
        first
        + " "
        + t(
            "This match's seed is committed to: `{commitment}`. Note it: after the game,"
            " `python -m bot verify kasino-{game}.json --seed {commitment}` (the file from"
            " `{export}`) checks the deals came from it."
            " You may also cut the deck in the lobby.",
            commitment=committed,
            game=game_id,
            export=command_name(t, "export"),
        )
    )


class LobbyFlow:
    """Seats, computer players, hints, starting and rematches."""

    def __init__(self, games: GameService, table: TableFlow) -> None:
        self.games = games
        self.table = table
        # told when a person takes a seat (the ladder takes them out of its queue, and
        # queues the edit of their waiting message on the game: saved after)
        self.seated: Seated | None = None

    async def took_seat(self, user_id: int, game: Game) -> None:
        """A person sat down in ``game`` (opened it or joined it): the ladder's queue lets
        them go (one game at a time), said with the game's next save, made here."""
        if self.seated is None:
            return
        await self.seated(user_id, game)
        if game.outbox:
            await self.games.save(game, columns=MESSAGE_COLUMNS)

    async def on_lobby(self, interaction: discord.Interaction, game: Game, action: str) -> None:
        """Join, Leave, Start, Cancel; the host's computer players and hints switch."""
        user = interaction.user
        if action == "join" and answers_forced_private(interaction):
            # the tables their clicks carried would be theirs alone (cogs.play.couriers)
            await refuse(interaction, ANSWERS_HIDDEN)
            return
        try:
            if action == "join":
                await self.games.join(game, Seat(user.id, user.display_name))
            elif action == "leave":
                await self.games.leave(game, user.id)
            elif action == "cancel":
                await self.games.cancel(game, user.id)
            elif action == "start":
                # the click's Discord id cuts the first deal (bot.records.seal)
                await self.games.start(
                    game, user.id, announce=lambda: self._dealt(game), click_id=interaction.id
                )
            elif action.startswith("add-"):
                await self.games.add_computer(game, user.id, action.removeprefix("add-"))
            elif action == "remove-computer":
                await self.games.remove_computer(game, user.id)
            elif action == "hints":
                await self.games.toggle_hints(game, user.id)
            else:
                await refuse(interaction, NOT_MINE)
                return
        except GameError as error:
            await refuse_error(interaction, error)
            return
        t = self.table.lang(game)
        await interaction.response.edit_message(
            embed=lobby_embed(game, t), view=lobby_view(game, t)
        )
        if game.status is Status.PLAYING:
            log.info("game %s: started with %d players", game.id, len(game.seats))
            self.table.timers.schedule(game.id, game.deadline)
        if action == "join":
            # the seed's commitment, privately: the lobby is edited at every join, where a
            # later change would not show; a message of one's own keeps what was shown
            await self.send_commitment(interaction, game, joined=True)
            await self.took_seat(user.id, game)

    async def send_commitment(
        self, interaction: discord.Interaction, game: Game, *, joined: bool
    ) -> None:
        """Tell the person privately the commitment to the match's seed (a follow-up to
        their Join, or to the host's ``/kasino new``)."""
        committed = lobby_commitment(game)
        if committed is None:
            return
        t = private(interaction)
        await interaction.followup.send(
            commitment_text(committed, game.id, t, joined=joined), ephemeral=True
        )

    async def on_cut(self, interaction: discord.Interaction, game: Game, number: int) -> None:
        """A seated person cuts the deck (once, before Start): the lobby shows that they
        did; they are told privately their cut and the seed's commitment, to note."""
        try:
            await self.games.cut_deck(game, interaction.user.id, number)
        except GameError as error:
            await refuse_error(interaction, error)
            return
        public = self.table.lang(game)
        await interaction.response.edit_message(
            embed=lobby_embed(game, public), view=lobby_view(game, public)
        )
        text = cut_told(number, lobby_commitment(game) or "", private(interaction))
        await interaction.followup.send(text, ephemeral=True)

    async def offer_rematch_cut(self, interaction: discord.Interaction, old: Game) -> None:
        """ "Cut the rematch" on a finished match's end message: its menu, privately."""
        try:
            self.games.check_rematch_cut(old, interaction.user.id)
        except GameError as error:
            await refuse_error(interaction, error)
            return
        t = private(interaction)
        text = t(
            "Cut the deck for the rematch. Its seed is committed to now: `{commitment}` (How to"
            " check on the end message says it too), so your cut counts for every deal of it.",
            commitment=shown(seed_commitment(old.extra["next_seed"], old.id)),
        )
        await interaction.response.send_message(text, view=rematch_cut_view(old, t), ephemeral=True)

    async def on_rematch_cut(
        self, interaction: discord.Interaction, old: Game, number: int
    ) -> None:
        """A player of a finished match cuts the deck for its rematch (once), whose seed
        its end message committed to; told privately (the end message, which shows the
        final head, is not edited)."""
        try:
            await self.games.cut_rematch(old, interaction.user.id, number)
        except GameError as error:
            await refuse_error(interaction, error)
            return
        committed = shown(seed_commitment(old.extra["next_seed"], old.id))
        text = cut_told(number, committed, private(interaction))
        await interaction.response.send_message(text, ephemeral=True)

    def _dealt(self, game: Game) -> None:
        """Queued with the first deal: the lobby stays as the record of who plays (and
        says how the game ended, see :meth:`TableFlow.lobby_ended`); the table is posted
        fresh below it."""
        game.extra["lobby_id"] = game.message_id
        game.message_id = None
        self.table.announce(game, lambda t: t("The cards are dealt."))

    async def on_rematch(self, interaction: discord.Interaction, old: Game) -> None:
        """Same seats and rules, new match (inside the old game's session; the new game
        gets its own)."""
        try:
            new = await self.games.rematch(old, interaction.user.id, click_id=interaction.id)
        except ChannelBusy:
            await refuse(interaction, "A game is already running in this channel.")
            return
        except GameError as error:
            await refuse_error(interaction, error)
            return
        # the old table keeps its Replay button only
        await interaction.response.edit_message(view=replay_only_view(old.id, self.table.lang(old)))
        async with self.games.session(new.id) as game:
            assert game is not None
            log.info("game %s: rematch of game %s", game.id, old.id)
            self.table.announce(game, lambda t: t("Rematch! The cards are dealt."))
            await self.games.save(game)  # (a restart posts the table of a rematch without)
            self.table.timers.schedule(game.id, game.deadline)
