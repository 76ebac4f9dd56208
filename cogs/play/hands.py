"""The private hand flow: the hand view, choosing a card, what it takes, playing it.

A normal move is at most two selections from an open hand: the card, then what it takes
(a card that can take nothing is played as a trail at once). A hand reaches Discord only
through :meth:`HandFlow.answer_privately`, as an ephemeral message.

In the games with builds the menus of the seat to move, and every decision that lists its
moves, are worked out off the event loop (:mod:`bot.offloop`) on a snapshot of the game at
its version, and kept for the next click at that version. A click whose menu is not ready
within :data:`GRACE` is deferred first, so Discord's 3-second answer window is kept; one
ready in time is answered exactly as before.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

import discord

from bot.engine import Card, Move, capture_options, capture_values, is_capture
from bot.engine.moves import Item
from bot.games import GameError, GameService
from bot.i18n import N_, Lang
from bot.models import Game, Status
from bot.moves import round_choices
from bot.offloop import Menus, heavy, ready, view_key
from bot.render import CardInk, hand_content, value_note
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
from cogs.components import reissue
from cogs.custom_ids import Click
from cogs.play.live import LiveHands
from cogs.play.table import TableFlow, built_hand_view
from cogs.play.views import (
    CAPTURE_CHOICES,
    GAME_IDS,
    MenuIds,
    hand_view,
    pick_items,
    pick_view,
    ranked_moves,
    take_view,
    which_view,
)

GONE_ITEMS = N_("Those items are not on the table any more, so nothing was played.")
# Seconds a menu built off the loop may take before its click is deferred: Discord waits
# 3 s for the first answer; the rest is margin for the game's lock, the network and a
# busy machine.
GRACE = 1.0

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class CardStep:
    """What choosing a card leads to in a game with builds: refused with the reason
    (``why``), played at once (``move``, a trail is all it can do), or its menu."""

    why: str | None = None
    move: Move | None = None
    view: discord.ui.View | None = None


def card_step(
    game: Game, *, seat: int, index: int, ink: CardInk, t: Lang, ids: MenuIds = GAME_IDS
) -> CardStep:
    """Choosing the seat's card at ``index`` (in the menus' worker, on a snapshot)."""
    rnd = game.match.round
    played = rnd.hands[seat][index]
    moves = moves_of(rnd, played)
    if not moves:
        return CardStep(why=why_not(rnd, played, t, ink.label))
    if moves == [Move(played)]:
        return CardStep(move=moves[0])
    return CardStep(view=take_view(game, seat, index, ink, t, ids=ids))


@dataclass(frozen=True, slots=True)
class ItemsStep:
    """What picking table items leads to: ``None`` items (gone from the table), the
    card's moves using exactly them, and when there are several their menu, when there
    are none why not."""

    items: list[Item] | None
    moves: list[Move]
    view: discord.ui.View | None = None
    why: str = ""


def items_step(
    game: Game,
    *,
    index: int,
    positions: tuple[int, ...],
    ink: CardInk,
    t: Lang,
    ids: MenuIds = GAME_IDS,
) -> ItemsStep:
    """The card at ``index`` with the picked items at ``positions`` (in the menus'
    worker, on a snapshot)."""
    items = HandFlow.items_at(game, positions, index)
    if items is None:
        return ItemsStep(None, [])
    rnd = game.match.round
    played = rnd.hands[rnd.to_move][index]
    moves = matching(rnd, played, items)
    if len(moves) == 1:
        return ItemsStep(items, moves)
    if moves:
        view = which_view(game, index, positions, moves, t, ink, ids=ids)
        return ItemsStep(items, moves, view)
    why = why_unusable(rnd, played, items, t, ink.label)
    return ItemsStep(items, moves, pick_view(game, index, ink, t, ids=ids), why)


def moves_using(game: Game, *, index: int, positions: tuple[int, ...]) -> list[Move]:
    """The moves of the card at ``index`` using exactly the picked items (in the menus'
    worker, on a snapshot)."""
    items = HandFlow.items_at(game, positions, index)
    rnd = game.match.round
    return matching(rnd, rnd.hands[rnd.to_move][index], items) if items is not None else []


def ranked_of(game: Game, *, card: Card) -> list[Move]:
    """The moves a take menu offers by number (in the menus' worker, on a snapshot)."""
    return ranked_moves(game.match.round, card)


class HandFlow:
    """Everything a player does from their private hand view.

    The choosing of a move (card, what it takes, picking items, which move) is shared with
    a practice position's hand view (:class:`cogs.learning.practice.PracticeFlow`), which overrides
    the hooks: :meth:`ids_for` (the menus' custom_id namespace), :meth:`menus_for` (where
    menus are built off the loop), :meth:`content` (the message's text), :meth:`remember` (a
    shown view), :meth:`send_hand` and :meth:`play` (what happens with the chosen move).
    """

    def __init__(self, games: GameService, table: TableFlow, hands: LiveHands) -> None:
        self.games = games
        self.table = table
        self.hands = hands

    def ids_for(self, game: Game) -> MenuIds:
        """The custom_id namespace of the game's menus."""
        return GAME_IDS

    def menus_for(self, game: Game) -> Menus:
        """Where the game's menus are built off the loop, kept per game and version."""
        return self.hands.menus

    def content(self, game: Game, seat: int, note: str, step: str, ink: CardInk, t: Lang) -> str:
        """The hand view's text at a step (``card``, ``take``, ``pick``)."""
        return hand_content(game, seat, note, step=step, ink=ink, t=t)

    def remember(self, game: Game, interaction: discord.Interaction) -> None:
        """A hand view was shown: it follows the game while its token is valid."""
        self.hands.remember(game.id, interaction.user.id, interaction)

    def ink(self, interaction: discord.Interaction, game: Game) -> CardInk:
        """How cards are written for the clicker: the deck they chose (else the server's),
        as faces once uploaded, else as text."""
        return self.table.inks.private(interaction.user.id, game.guild_id)

    async def off_loop(
        self,
        interaction: discord.Interaction,
        game: Game,
        key: tuple[Hashable, ...],
        build: Callable[[Game], T],
    ) -> T:
        """``build`` of a snapshot of the game at its version, in the menus' worker (the
        result kept under ``key`` is shared: a view in it is reissued before use). The
        click is deferred if the result is not ready within :data:`GRACE`."""
        future = self.menus_for(game).start(game, key, build)
        return await ready(future, GRACE, lambda: self.defer(interaction))

    @staticmethod
    async def defer(interaction: discord.Interaction) -> None:
        """Answer "working on it" now: the hand view itself keeps showing until it is
        edited (a click on it), or Discord shows the bot thinking, privately (a click on
        the table)."""
        if interaction.response.is_done():
            return
        if own_view(interaction):
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def hand_menus(
        self,
        interaction: discord.Interaction,
        game: Game,
        seat: int,
        ink: CardInk,
        t: Lang,
    ) -> discord.ui.View:
        """The seat's hand view: built off the loop when its menus may be slow."""
        if not heavy(game, seat):
            return hand_view(game, seat, ink, t, ids=self.ids_for(game))
        if self.ids_for(game) != GAME_IDS:
            build = functools.partial(hand_view, seat=seat, ink=ink, t=t, ids=self.ids_for(game))
        else:
            build = functools.partial(built_hand_view, seat=seat, ink=ink, t=t)
        key = view_key("hand", seat, t, ink)
        return reissue(await self.off_loop(interaction, game, key, build))

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
        ink = self.ink(interaction, game)
        content = self.content(game, seat, note, "card", ink, t)
        view = await self.hand_menus(interaction, game, seat, ink, t)
        await self.answer_privately(interaction, game, content, view)

    async def answer_privately(
        self,
        interaction: discord.Interaction,
        game: Game,
        content: str,
        view: discord.ui.View | None,
    ) -> None:
        """Show a hand view: in place when it came from the clicker's own ephemeral message,
        else as a new ephemeral one (a deferred click's answer is edited in). The only way
        a hand reaches Discord, so it is never made public nor written into someone else's
        message. The view is remembered so it can follow the game while its interaction
        token is valid."""
        if interaction.response.is_done():
            await interaction.edit_original_response(content=content, view=view, embed=None)
        elif own_view(interaction):
            await interaction.response.edit_message(content=content, view=view, embed=None)
        else:
            await interaction.response.send_message(content, view=view, ephemeral=True)
        self.remember(game, interaction)

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
        await self.on_choice(interaction, game, seat, click)

    async def on_choice(
        self, interaction: discord.Interaction, game: Game, seat: int, click: Click
    ) -> None:
        """A card, take, pick or which select of the seat to move, checked as current and
        its own (its kind read as the game kind it mirrors: :attr:`Click.base`)."""
        if click.base == "card":
            await self.on_card(interaction, game, seat, click.numbers[0])
        elif click.base == "take":
            await self.on_take(interaction, game, seat, click)
        elif click.base == "which":
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
        ink = self.ink(interaction, game)
        if building(rnd):
            build = functools.partial(
                card_step, seat=seat, index=index, ink=ink, t=t, ids=self.ids_for(game)
            )
            key = view_key("card", seat, t, ink, index)
            step = await self.off_loop(interaction, game, key, build)
            if step.why is not None:
                await refuse(
                    interaction,
                    "{card} cannot be played now: {why}.",
                    card=ink.label(played),
                    why=step.why,
                )
                return
            if step.move is not None:  # a trail is all it can do
                await self.play(interaction, game, seat, step.move)
                return
            note = t("You play **{card}**. What does it do?", card=ink.label(played))
            view = reissue(step.view)
        elif not rnd.table or not capture_options(game.match.rules, played, list(rnd.table), 1):
            await self.play(interaction, game, seat, Move(played))
            return
        else:
            note = t("You play **{card}**. What does it take?", card=ink.label(played))
            view = take_view(game, seat, index, ink, t, ids=self.ids_for(game))
        content = self.content(game, seat, note, "take", ink, t)
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
            ink = self.ink(interaction, game)
            note = t(
                "You play **{card}**. Choose the table cards it takes:", card=ink.label(played)
            )
            content = self.content(game, seat, note, "pick", ink, t)
            view = pick_view(game, click.card or 0, ink, t, ids=self.ids_for(game))
            await self.answer_privately(interaction, game, content, view)
            return
        if click.choice == "trail":
            move = Move(played)
        elif building(rnd):
            build = functools.partial(ranked_of, card=played)
            ranked = await self.off_loop(interaction, game, ("ranked", played), build)
            if click.numbers[0] >= len(ranked):
                await refuse(interaction, NOT_MINE)
                return
            move = ranked[click.numbers[0]]
        else:
            choices = round_choices(rnd, played, CAPTURE_CHOICES)
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
            ink = self.ink(interaction, game)
            values_text = value_note(rules, played, capture_values(rules, played, True), t)
            note = t(
                "⚠️ {cards} cannot be taken with {card}{values}: the cards must split into"
                " groups that each add up to its value. Nothing was played. Choose again below.",
                cards=" + ".join(ink.label(c) for c in taken),
                card=ink.label(played),
                values=values_text,
            )
            content = self.content(game, seat, note, "pick", ink, t)
            view = pick_view(game, click.card or 0, ink, t, ids=self.ids_for(game))
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
        t = private(interaction)
        ink = self.ink(interaction, game)
        index = click.card or 0
        build = functools.partial(
            items_step, index=index, positions=click.numbers, ink=ink, t=t, ids=self.ids_for(game)
        )
        key = view_key("items", seat, t, ink, index, click.numbers)
        step = await self.off_loop(interaction, game, key, build)
        if step.items is None:
            await refuse(interaction, GONE_ITEMS)
            return
        if len(step.moves) == 1:
            await self.play(interaction, game, seat, step.moves[0])
            return
        shown = items_text(step.items, ink.label)
        if step.moves:
            note = t(
                "You play **{card}** with {items}. Which move?",
                card=ink.label(played),
                items=shown,
            )
        else:
            note = t(
                "⚠️ {card} can do nothing with exactly {items}: {why}. Nothing was played."
                " Choose again below.",
                card=ink.label(played),
                items=shown,
                why=step.why,
            )
        content = self.content(game, seat, note, "pick", ink, t)
        await self.answer_privately(interaction, game, content, reissue(step.view))

    async def on_which(
        self, interaction: discord.Interaction, game: Game, seat: int, click: Click
    ) -> None:
        """One of several moves that use the same picked items."""
        played = await self._held(interaction, game, seat, click.card)
        if played is None:
            return
        build = functools.partial(moves_using, index=click.card or 0, positions=click.picked)
        key = ("using", click.card or 0, click.picked)
        moves = await self.off_loop(interaction, game, key, build)
        if click.numbers[0] >= len(moves):
            await refuse(interaction, NOT_MINE)
            return
        await self.play(interaction, game, seat, moves[click.numbers[0]])

    @staticmethod
    def items_at(game: Game, positions: tuple[int, ...], index: int) -> list[Item] | None:
        """The items "choose it myself" offered for the card at ``index`` at these
        positions (``None``: gone)."""
        rnd = game.match.round
        if not 0 <= index < len(rnd.hands[rnd.to_move]):
            return None
        offered = pick_items(rnd, rnd.hands[rnd.to_move][index])
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
            view = await self.hand_menus(interaction, game, seat, ink, t)
            await interaction.edit_original_response(content=content, view=view)
            self.hands.remember(game.id, interaction.user.id, interaction)
