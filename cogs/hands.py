"""The private hand flow: the hand view, choosing a card, what it takes, playing it.

A normal move is at most two selections from an open hand: the card, then what it takes
(a card that can take nothing is played as a trail at once). A hand reaches Discord only
through :meth:`HandFlow.answer_privately`, as an ephemeral message.
"""

from __future__ import annotations

import asyncio

import discord

from bot.engine import Card, Move, capture_options, capture_values, is_capture
from bot.engine.moves import Item
from bot.games import GameError, GameService
from bot.i18n import N_
from bot.models import Game, Status
from bot.moves import rank_choices
from bot.render import CardInk, hand_content, plain, value_note
from bot.turns import building, items_text, matching, moves_of, why_not, why_unusable
from cogs.common import (
    NOT_MINE,
    NOT_PLAYING,
    STALE,
    foreign,
    own_view,
    private,
    refuse,
    refuse_error,
)
from cogs.custom_ids import Click
from cogs.live import LiveHands
from cogs.table import TableFlow
from cogs.views import (
    CAPTURE_CHOICES,
    hand_view,
    pick_items,
    pick_view,
    ranked_moves,
    take_view,
    which_view,
)

GONE_ITEMS = N_("Those items are not on the table any more, so nothing was played.")


class HandFlow:
    """Everything a player does from their private hand view."""

    def __init__(self, games: GameService, table: TableFlow, hands: LiveHands) -> None:
        self.games = games
        self.table = table
        self.hands = hands

    def ink(self, interaction: discord.Interaction, game: Game) -> CardInk:
        """How cards are written for the clicker: the deck they chose (else the server's),
        as faces once uploaded, else as text."""
        return self.table.inks.private(interaction.user.id, game.guild_id)

    async def show_hand(self, interaction: discord.Interaction, game: Game) -> None:
        """Your hand (fresh), ephemeral; refused for spectators and lobbies."""
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            await refuse(interaction, NOT_PLAYING)
        elif game.status is Status.LOBBY:
            await refuse(interaction, "The game has not started yet.")
        elif game.match is None or game.status is not Status.PLAYING:
            await refuse(interaction, "This game is over.")
        else:
            await self.send_hand(interaction, game, seat)

    async def send_hand(
        self, interaction: discord.Interaction, game: Game, seat: int, note: str = ""
    ) -> None:
        """The seat's hand view with its move menus, in the clicker's language (``note``
        is already in it)."""
        t = private(interaction)
        content = hand_content(game, seat, note, ink=self.ink(interaction, game), t=t)
        view = hand_view(game, seat, self.ink(interaction, game), t)
        await self.answer_privately(interaction, game, content, view)

    async def answer_privately(
        self,
        interaction: discord.Interaction,
        game: Game,
        content: str,
        view: discord.ui.View | None,
    ) -> None:
        """Show a hand view: in place when it came from the clicker's own ephemeral message,
        else as a new ephemeral one. The only way a hand reaches Discord, so it is never made
        public nor written into someone else's message. The view is remembered so it can
        follow the game while its interaction token is valid."""
        if own_view(interaction):
            await interaction.response.edit_message(content=content, view=view, embed=None)
        else:
            await interaction.response.send_message(content, view=view, ephemeral=True)
        self.hands.remember(game.id, interaction.user.id, interaction)

    async def on_move_select(
        self, interaction: discord.Interaction, game: Game, click: Click
    ) -> None:
        """A card, take or pick select (inside the game's session)."""
        seat = game.seat_of(interaction.user.id)
        if seat is not None and click.version != game.version and game.status is Status.PLAYING:
            await self.send_hand(interaction, game, seat, private(interaction)(STALE))
            return
        if not own_view(interaction):
            # move menus live only on the player's own private hand view
            await refuse(interaction, NOT_MINE)
            return
        try:
            seat = self.games.check_turn(game, interaction.user.id)
        except GameError as error:
            await refuse_error(interaction, error)
            return
        if click.kind == "card":
            await self.on_card(interaction, game, seat, click.numbers[0])
        elif click.kind == "take":
            await self.on_take(interaction, game, seat, click)
        elif click.kind == "which":
            await self.on_which(interaction, game, seat, click)
        elif building(game.match.round):
            await self.on_pick_items(interaction, game, seat, click)
        else:
            await self.on_pick(interaction, game, seat, click)

    async def on_card(
        self, interaction: discord.Interaction, game: Game, seat: int, index: int
    ) -> None:
        """The card is chosen: a card that can take nothing is trailed at once; otherwise
        offer what it can take."""
        played = await self._held(interaction, game, seat, index)
        if played is None:
            return
        rnd = game.match.round
        t = private(interaction)
        if building(rnd):
            moves = moves_of(rnd, played)
            if not moves:
                why = why_not(rnd, played, t, plain)
                await refuse(
                    interaction, "{card} cannot be played now: {why}.", card=plain(played), why=why
                )
                return
            if moves == [Move(played)]:  # a trail is all it can do
                await self.play(interaction, game, seat, Move(played))
                return
        elif not rnd.table or not capture_options(game.match.rules, played, list(rnd.table), 1):
            await self.play(interaction, game, seat, Move(played))
            return
        if building(rnd):
            note = t("You play **{card}**. What does it do?", card=plain(played))
        else:
            note = t("You play **{card}**. What does it take?", card=plain(played))
        content = hand_content(game, seat, note, step="take", ink=self.ink(interaction, game), t=t)
        view = take_view(game, seat, index, self.ink(interaction, game), t)
        await self.answer_privately(interaction, game, content, view)

    @staticmethod
    async def _held(
        interaction: discord.Interaction, game: Game, seat: int, index: int | None
    ) -> Card | None:
        """The card at ``index`` in the seat's hand; ``None`` (refused politely) if none."""
        hand = game.match.round.hands[seat]
        if index is None or not 0 <= index < len(hand):
            await refuse(interaction, "That card is not in your hand, so nothing was played.")
            return None
        return hand[index]

    async def on_take(
        self, interaction: discord.Interaction, game: Game, seat: int, click: Click
    ) -> None:
        """Play the card with a ranked capture or as a trail, or go to picking."""
        rnd = game.match.round
        played = await self._held(interaction, game, seat, click.card)
        if played is None:
            return
        if click.choice == "pick":
            t = private(interaction)
            note = t("You play **{card}**. Choose the table cards it takes:", card=plain(played))
            content = hand_content(
                game, seat, note, step="pick", ink=self.ink(interaction, game), t=t
            )
            view = pick_view(game, click.card or 0, self.ink(interaction, game), t)
            await self.answer_privately(interaction, game, content, view)
            return
        if click.choice == "trail":
            move = Move(played)
        elif building(rnd):
            ranked = ranked_moves(rnd, played)
            if click.numbers[0] >= len(ranked):
                await refuse(interaction, NOT_MINE)
                return
            move = ranked[click.numbers[0]]
        else:
            choices = rank_choices(game.match.rules, played, rnd.table, CAPTURE_CHOICES)
            if click.numbers[0] >= len(choices):
                await refuse(interaction, NOT_MINE)
                return
            move = Move(played, choices[click.numbers[0]].taken)
        await self.play(interaction, game, seat, move)

    async def on_pick(
        self, interaction: discord.Interaction, game: Game, seat: int, click: Click
    ) -> None:
        """The player chose table cards; check they add up, then play."""
        played = await self._held(interaction, game, seat, click.card)
        if played is None:
            return
        try:
            taken = self.games.taken_at(game, click.numbers)
        except GameError as error:
            await refuse_error(interaction, error)
            return
        rules = game.match.rules
        if not is_capture(rules, played, taken):
            t = private(interaction)
            values_text = value_note(rules, played, capture_values(rules, played, True), t)
            note = t(
                "⚠️ {cards} cannot be taken with {card}{values}: the cards must split into"
                " groups that each add up to its value. Nothing was played; choose again:",
                cards=" + ".join(plain(c) for c in taken),
                card=plain(played),
                values=values_text,
            )
            content = hand_content(
                game, seat, note, step="pick", ink=self.ink(interaction, game), t=t
            )
            view = pick_view(game, click.card or 0, self.ink(interaction, game), t)
            await self.answer_privately(interaction, game, content, view)
            return
        await self.play(interaction, game, seat, Move(played, taken))

    async def on_pick_items(
        self, interaction: discord.Interaction, game: Game, seat: int, click: Click
    ) -> None:
        """A game with builds: the player chose table items (and pile tops). Play the one
        move of the card that uses exactly them, or ask which when there are several."""
        played = await self._held(interaction, game, seat, click.card)
        if played is None:
            return
        items = self._items_at(game, click.numbers)
        if items is None:
            await refuse(interaction, GONE_ITEMS)
            return
        rnd = game.match.round
        moves = matching(rnd, played, items)
        if len(moves) == 1:
            await self.play(interaction, game, seat, moves[0])
            return
        t = private(interaction)
        shown = items_text(items, plain)
        if moves:
            note = t(
                "You play **{card}** with {items}. Which move?", card=plain(played), items=shown
            )
            view = which_view(game, click.card or 0, click.numbers, moves, t)
        else:
            note = t(
                "⚠️ {card} can do nothing with exactly {items}: {why}. Nothing was played;"
                " choose again:",
                card=plain(played),
                items=shown,
                why=why_unusable(rnd, played, items, t, plain),
            )
            view = pick_view(game, click.card or 0, self.ink(interaction, game), t)
        content = hand_content(game, seat, note, step="pick", ink=self.ink(interaction, game), t=t)
        await self.answer_privately(interaction, game, content, view)

    async def on_which(
        self, interaction: discord.Interaction, game: Game, seat: int, click: Click
    ) -> None:
        """One of several moves that use the same picked items."""
        played = await self._held(interaction, game, seat, click.card)
        if played is None:
            return
        items = self._items_at(game, click.picked)
        moves = matching(game.match.round, played, items) if items is not None else []
        if click.numbers[0] >= len(moves):
            await refuse(interaction, NOT_MINE)
            return
        await self.play(interaction, game, seat, moves[click.numbers[0]])

    @staticmethod
    def _items_at(game: Game, positions: tuple[int, ...]) -> list[Item] | None:
        """The items "choose it myself" offered at these positions (``None``: gone)."""
        offered = pick_items(game.match.round)
        if not positions or positions[-1] >= len(offered):
            return None
        return [offered[i] for i in positions]

    async def play(
        self, interaction: discord.Interaction, game: Game, seat: int, move: Move
    ) -> None:
        """Apply and commit the move, answer, then queue what the channel sees."""
        try:
            outcome = await self.games.play(game, seat, move)
        except GameError as error:
            await refuse_error(interaction, error, played=True)
            return
        await self.send_hand(interaction, game, seat, f"✅ {outcome.text_in(private(interaction))}")
        self.table.after_move(outcome, mover=interaction.user.id)

    async def on_hint(self, interaction: discord.Interaction, click: Click) -> None:
        """What ``hard`` would play, shown in the player's hand view itself (one hint per
        player, gone as soon as the view follows the game on); thought about off the event
        loop, on a copy of the round taken inside the game's session."""
        async with self.games.session(click.game) as game:
            if await foreign(interaction, game, click.kind):
                return
            seat = game.seat_of(interaction.user.id)
            t = private(interaction)
            if seat is not None and click.version != game.version and game.status.active:
                await self.send_hand(interaction, game, seat, t(STALE))
                return
            try:
                seat = self.games.check_turn(game, interaction.user.id)
                think = self.games.hint_job(game, seat, t)
            except GameError as error:
                await refuse_error(interaction, error)
                return
            if not own_view(interaction):
                await refuse(interaction, NOT_MINE)  # Hint lives on the player's hand view
                return
            await interaction.response.defer()  # the hand view is edited when it is ready
        _, why = await asyncio.to_thread(think)
        async with self.games.session(click.game) as game:
            if game is None or game.version != click.version or game.status is not Status.PLAYING:
                return  # the game moved on meanwhile, and the hand view with it
            note = t("💡 Hint: {why}", why=why)
            ink = self.ink(interaction, game)
            content = hand_content(game, seat, note, ink=ink, t=t)
            await interaction.edit_original_response(
                content=content, view=hand_view(game, seat, ink, t)
            )
            self.hands.remember(game.id, interaction.user.id, interaction)
