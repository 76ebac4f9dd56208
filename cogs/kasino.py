"""The ``/kasino`` command group and everything its buttons and selects do."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Card, Move, capture_values, is_capture, rules_for
from bot.games import GameError, GameService, MoveOutcome
from bot.models import Game, GameOptions, Seat, Status, Timer
from bot.moves import rank_choices
from bot.render import (
    hand_content,
    lobby_embed,
    plain,
    round_summary,
    rules_embed,
    scores_embed,
    standings,
    table_embed,
    value_note,
)
from bot.storage import ChannelBusy, CorruptGame
from bot.timers import Timers
from cogs.components import KasinoButton, KasinoSelect, dispatched, offered
from cogs.custom_ids import BadComponent, Click, ScoresPage, parse_click
from cogs.views import (
    CAPTURE_CHOICES,
    hand_view,
    lobby_view,
    pick_view,
    scores_view,
    table_view,
    take_view,
)

if TYPE_CHECKING:
    from bot.client import KasinoBot

log = logging.getLogger(__name__)

VARIANTS = [
    app_commands.Choice(name="Swedish Kasino", value="swedish"),
    app_commands.Choice(name="Överspader", value="overspader"),
    app_commands.Choice(name="Finnish Kasino", value="finnish"),
    app_commands.Choice(name="Mulle", value="mulle"),
]
OPPONENTS = [
    app_commands.Choice(name="people", value="people"),
    app_commands.Choice(name="computers", value="computers"),
]
PAGE_SIZE = 10
STALE = "⚠️ This view is out of date, so nothing was changed. Here is a fresh one:"
NOT_MINE = "That control is not valid (it was changed or is not mine), so nothing happened."
GONE = "This game no longer exists, so nothing happened."
ELSEWHERE = "That control belongs to a game in another channel, so nothing happened."
NO_GAME = "There is no Kasino game in this channel. Start one with /kasino new."


def jump_url(game: Game) -> str:
    """A link to a game's lobby or table message."""
    base = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}"
    return f"{base}/{game.message_id}" if game.message_id else base


async def refuse(interaction: discord.Interaction, text: str) -> None:
    """A friendly ephemeral answer that changes nothing."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


@app_commands.guild_only()
class Kasino(
    commands.GroupCog, group_name="kasino", group_description="Play Kasino, the Nordic card game"
):
    """Lobbies, the live table, private hands, leaderboards and turn timers."""

    def __init__(self, bot: KasinoBot) -> None:
        self.bot = bot
        assert bot.storage is not None
        self.games = GameService(
            bot.storage, bot.config, seed=bot.seed, on_broken=self.report_broken
        )
        self.timers = Timers(self.on_deadline)

    async def cog_load(self) -> None:
        """Register the components and restart every stored timer."""
        self.bot.add_dynamic_items(KasinoButton, KasinoSelect)
        for game_id, deadline in await self.games.storage.deadlines():
            self.timers.schedule(game_id, deadline)

    async def cog_unload(self) -> None:
        """Stop the timers (their deadlines stay in the database)."""
        self.timers.cancel_all()
        self.bot.remove_dynamic_items(KasinoButton, KasinoSelect)

    # --------------------------------------------------------------- commands

    @app_commands.command(name="new", description="Open a Kasino lobby in this channel")
    @app_commands.describe(
        variant="Which game (default Swedish Kasino)",
        target="Points to win (default: 16, Överspader 21, Mulle 50)",
        teams="Partnerships: 4 players, seats 1+3 against 2+4",
        turn_minutes="Minutes a player has for a move (default 5)",
    )
    @app_commands.choices(variant=VARIANTS)
    async def new(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str] | None = None,
        target: app_commands.Range[int, 5, 100] | None = None,
        teams: bool = False,
        turn_minutes: app_commands.Range[int, 1, 1440] | None = None,
    ) -> None:
        """Post a lobby; one game per channel."""
        name = variant.value if variant else "swedish"
        options = GameOptions(
            variant=name,
            target=target or rules_for(name).target,
            teams=teams,
            turn_seconds=turn_minutes * 60 if turn_minutes else self.bot.config.turn_seconds,
        )
        host = Seat(interaction.user.id, interaction.user.display_name)
        # loading the running game first closes it if its saved state is damaged
        running = await self.games.active(interaction.channel_id or 0)
        try:
            if running is not None:
                raise ChannelBusy(running.id)
            game = await self.games.open_lobby(
                interaction.guild_id or 0, interaction.channel_id or 0, host, options
            )
        except ChannelBusy:
            link = jump_url(running) if running else "this channel"
            await refuse(interaction, f"A game is already running in this channel: {link}")
            return
        await interaction.response.send_message(embed=lobby_embed(game), view=lobby_view(game))
        log.info("game %s: lobby opened in channel %s", game.id, game.channel_id)
        message = await interaction.original_response()
        async with self.games.session(game.id) as game:
            if game is not None:
                game.message_id = message.id
                await self.games.save(game)

    @app_commands.command(name="hand", description="See your cards (only you can see them)")
    async def hand(self, interaction: discord.Interaction) -> None:
        """Your hand in this channel's game, ephemeral."""
        game_id = await self.games.channel_game(interaction.channel_id or 0)
        async with self.games.session(game_id or 0) as game:
            if game is None or not game.status.active:
                await refuse(interaction, NO_GAME)
                return
            await self.show_hand(interaction, game)

    @app_commands.command(name="scores", description="The server's Kasino leaderboard")
    @app_commands.describe(
        variant="Only this game",
        target="Only matches to this target",
        page="Page",
        opponents="Matches between people (default) or against computer players",
    )
    @app_commands.choices(variant=VARIANTS, opponents=OPPONENTS)
    async def scores(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str] | None = None,
        target: app_commands.Range[int, 5, 100] | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
        opponents: app_commands.Choice[str] | None = None,
    ) -> None:
        """Wins, matches, win rate, points and tabbar; with this channel's match standings."""
        computers = opponents is not None and opponents.value == "computers"
        embed, view = await self.scores_message(
            interaction, variant.value if variant else None, target, page, computers=computers
        )
        await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(name="rules", description="A short summary of the rules")
    @app_commands.choices(variant=VARIANTS)
    async def rules(
        self, interaction: discord.Interaction, variant: app_commands.Choice[str] | None = None
    ) -> None:
        """The rules of one variant (or all), only for you."""
        embed = rules_embed(variant.value if variant else None)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(
        name="stop", description="End this channel's game (host or Manage Channels)"
    )
    async def stop(self, interaction: discord.Interaction) -> None:
        """Stop the game here without recording a result."""
        game_id = await self.games.channel_game(interaction.channel_id or 0)
        async with self.games.session(game_id or 0) as game:
            if game is None or not game.status.active:
                await refuse(interaction, "There is no Kasino game in this channel.")
                return
            perms = interaction.permissions
            allowed = interaction.user.id == game.host_id or perms.manage_channels
            try:
                await self.games.stop(game, allowed=allowed)
            except GameError as error:
                await refuse(interaction, str(error))
                return
            self.timers.cancel(game.id)
            await interaction.response.send_message(
                f"🛑 {interaction.user.mention} stopped game #{game.id}. No result is recorded.",
                allowed_mentions=discord.AllowedMentions.none(),
            )
            log.info("game %s: stopped", game.id)
            await self.update_table(game)

    # ------------------------------------------------------------- components

    async def on_component(
        self, interaction: discord.Interaction, raw_id: str, values: object
    ) -> None:
        """Every Kasino button and select: parse strictly, check the component was really
        offered on its message and belongs to this channel's game, then act on it."""
        try:
            click = parse_click(raw_id, values)
        except BadComponent:
            await refuse(interaction, NOT_MINE)
            return
        if not offered(interaction.message, raw_id, values):
            await refuse(interaction, NOT_MINE)
            return
        if click.kind == "scores":
            assert click.scores is not None
            await self.on_scores_page(interaction, click.scores)
            return
        if click.kind == "hint":
            await self.on_hint(interaction, click)
            return
        async with self.games.session(click.game) as game:
            if game is None:
                await refuse(interaction, GONE)
                return
            if await self.foreign(interaction, game, click.kind):
                return
            if click.kind == "lobby":
                await self.on_lobby(interaction, game, click.action)
            elif click.kind == "hand":
                await self.show_hand(interaction, game)
            elif click.kind == "rematch":
                await self.on_rematch(interaction, game)
            else:
                await self.on_move_select(interaction, game, click)

    @staticmethod
    async def foreign(interaction: discord.Interaction, game: Game, kind: str) -> bool:
        """Refuse (and say ``True``) when the game is not the one of this channel, or a
        lobby or rematch button comes with another message than the game's own."""
        if game.guild_id != interaction.guild_id or game.channel_id != interaction.channel_id:
            await refuse(interaction, ELSEWHERE)
            return True
        message = interaction.message
        if kind in ("lobby", "rematch") and game.message_id not in (None, message and message.id):
            await refuse(interaction, NOT_MINE)
            return True
        return False

    async def on_move_select(
        self, interaction: discord.Interaction, game: Game, click: Click
    ) -> None:
        """A card, take or pick select (inside the game's session)."""
        seat = game.seat_of(interaction.user.id)
        if seat is not None and click.version != game.version and game.status is Status.PLAYING:
            await self.send_hand(interaction, game, seat, STALE)
            return
        try:
            seat = self.games.check_turn(game, interaction.user.id)
        except GameError as error:
            await refuse(interaction, str(error))
            return
        if click.kind == "card":
            await self.on_card(interaction, game, seat, click.numbers[0])
        elif click.kind == "take":
            await self.on_take(interaction, game, seat, click)
        else:
            await self.on_pick(interaction, game, seat, click)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer clicks on ``k:`` custom_ids that no component handler will take."""
        if interaction.type is not discord.InteractionType.component:
            return
        data = interaction.data or {}
        cid = str(data.get("custom_id", ""))
        kind = data.get("component_type")
        if cid.startswith("k:") and not dispatched(interaction.message, cid, kind):
            await refuse(interaction, NOT_MINE)

    # ------------------------------------------------------------------ lobby

    async def on_lobby(self, interaction: discord.Interaction, game: Game, action: str) -> None:
        """Join, Leave, Start, Cancel; the host's computer players and hints switch."""
        user = interaction.user
        try:
            if action == "join":
                await self.games.join(game, Seat(user.id, user.display_name))
            elif action == "leave":
                await self.games.leave(game, user.id)
            elif action == "cancel":
                await self.games.cancel(game, user.id)
            elif action == "start":
                if interaction.message is not None:
                    game.message_id = interaction.message.id
                await self.games.start(game, user.id)
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
            await refuse(interaction, str(error))
            return
        if game.status is Status.PLAYING:
            await interaction.response.edit_message(
                content=None, embed=table_embed(game), view=table_view(game)
            )
            log.info("game %s: started with %d players", game.id, len(game.seats))
            self.timers.schedule(game.id, game.deadline)
            await self.ping(game, "The cards are dealt.")
        else:
            await interaction.response.edit_message(embed=lobby_embed(game), view=lobby_view(game))

    async def on_rematch(self, interaction: discord.Interaction, old: Game) -> None:
        """Same seats and rules, new match, new table message (inside the old game's
        session; the new game gets its own)."""
        try:
            new = await self.games.rematch(old, interaction.user.id)
        except ChannelBusy:
            await refuse(interaction, "A game is already running in this channel.")
            return
        except GameError as error:
            await refuse(interaction, str(error))
            return
        await interaction.response.edit_message(view=None)
        async with self.games.session(new.id) as game:
            assert game is not None
            channel = self.channel(game)
            message = await channel.send(embed=table_embed(game), view=table_view(game))
            game.message_id = message.id
            await self.games.save(game)
            log.info("game %s: rematch of game %s", game.id, old.id)
            self.timers.schedule(game.id, game.deadline)
            await self.ping(game, "Rematch! The cards are dealt.")

    # ------------------------------------------------------------------- hand

    async def show_hand(self, interaction: discord.Interaction, game: Game) -> None:
        """Your hand (fresh), ephemeral; refused for spectators and lobbies."""
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            await refuse(
                interaction, "You are not playing in this game; you can follow it on the table."
            )
        elif game.status is Status.LOBBY:
            await refuse(interaction, "The game has not started yet.")
        elif game.match is None or game.status is not Status.PLAYING:
            await refuse(interaction, "This game is over.")
        else:
            await self.send_hand(interaction, game, seat)

    async def send_hand(
        self, interaction: discord.Interaction, game: Game, seat: int, note: str = ""
    ) -> None:
        """The seat's hand view with its move menus."""
        content, view = hand_content(game, seat, note), hand_view(game, seat)
        await self.answer_privately(interaction, content, view)

    @staticmethod
    async def answer_privately(
        interaction: discord.Interaction, content: str, view: discord.ui.View | None
    ) -> None:
        """Show a hand view: in place when it came from the clicker's own ephemeral message,
        else as a new ephemeral one. The only way a hand reaches Discord, so it is never made
        public nor written into someone else's message."""
        message = interaction.message
        origin = message.interaction_metadata if message is not None else None
        owner = origin.user.id if origin is not None else None
        if message is not None and message.flags.ephemeral and owner == interaction.user.id:
            await interaction.response.edit_message(content=content, view=view, embed=None)
        else:
            await interaction.response.send_message(content, view=view, ephemeral=True)

    async def on_hint(self, interaction: discord.Interaction, click: Click) -> None:
        """What ``hard`` would play, privately; thought about off the event loop, on a copy
        of the round taken inside the game's session."""
        async with self.games.session(click.game) as game:
            if game is None:
                await refuse(interaction, GONE)
                return
            if await self.foreign(interaction, game, click.kind):
                return
            seat = game.seat_of(interaction.user.id)
            if seat is not None and click.version != game.version and game.status.active:
                await self.send_hand(interaction, game, seat, STALE)
                return
            try:
                seat = self.games.check_turn(game, interaction.user.id)
                think = self.games.hint_job(game, seat)
            except GameError as error:
                await refuse(interaction, str(error))
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
        _, why = await asyncio.to_thread(think)
        await interaction.followup.send(f"💡 Hint: {why}", ephemeral=True)

    async def on_card(
        self, interaction: discord.Interaction, game: Game, seat: int, index: int
    ) -> None:
        """Step 2: the card is chosen; offer what it can take."""
        played = await self._held(interaction, game, seat, index)
        if played is None:
            return
        content = hand_content(game, seat, f"You play **{plain(played)}**. What does it take?")
        await self.answer_privately(interaction, content, take_view(game, seat, index))

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
        """Step 3: play the card with a ranked capture or as a trail, or go to picking."""
        rnd = game.match.round
        played = await self._held(interaction, game, seat, click.card)
        if played is None:
            return
        if click.choice == "pick":
            note = f"You play **{plain(played)}**. Choose the table cards it takes:"
            view = pick_view(game, click.card or 0)
            await self.answer_privately(interaction, hand_content(game, seat, note), view)
            return
        if click.choice == "trail":
            move = Move(played)
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
        """Step 3b: the player chose table cards; check they add up, then play."""
        played = await self._held(interaction, game, seat, click.card)
        if played is None:
            return
        try:
            taken = self.games.taken_at(game, click.numbers)
        except GameError as error:
            await refuse(interaction, str(error))
            return
        rules = game.match.rules
        if not is_capture(rules, played, taken):
            values_text = value_note(rules, played, capture_values(rules, played, True))
            note = (
                f"⚠️ {' + '.join(plain(c) for c in taken)} cannot be taken with {plain(played)}"
                f"{values_text}: the cards must split into groups that each add up to its value."
                " Nothing was played; choose again:"
            )
            view = pick_view(game, click.card or 0)
            await self.answer_privately(interaction, hand_content(game, seat, note), view)
            return
        await self.play(interaction, game, seat, Move(played, taken))

    async def play(
        self, interaction: discord.Interaction, game: Game, seat: int, move: Move
    ) -> None:
        """Apply and commit the move, answer, then update the channel."""
        try:
            outcome = await self.games.play(game, seat, move)
        except GameError as error:
            await refuse(interaction, f"{error}. Nothing was played.")
            return
        await self.send_hand(interaction, game, seat, f"✅ {outcome.text}")
        await self.after_move(outcome)

    # ---------------------------------------------------------------- channel

    def channel(self, game: Game) -> discord.PartialMessageable:
        """The game's channel, without needing it in the cache."""
        return self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)

    async def update_table(self, game: Game) -> None:
        """Edit the long-lived table (or lobby) message through the channel."""
        if game.message_id is None:
            return
        if game.match is None:
            embed, view = lobby_embed(game), lobby_view(game)
        else:
            embed = table_embed(game, paused=bool(game.extra.get("paused")))
            view = table_view(game)
        message = self.channel(game).get_partial_message(game.message_id)
        try:
            await message.edit(content=None, embed=embed, view=view)
        except discord.NotFound:
            replacement = await self.channel(game).send(embed=embed, view=view)
            game.message_id = replacement.id
            await self.games.save(game)
        except discord.HTTPException:
            log.warning("game %s: could not edit the table message", game.id, exc_info=True)

    async def ping(self, game: Game, text: str) -> None:
        """One short public message naming the player to move (the previous one is removed);
        a computer to move is named, not mentioned."""
        seat = game.seats[game.match.round.to_move]
        mentions = (
            discord.AllowedMentions(users=[discord.Object(seat.user_id)]) if seat.is_human else None
        )
        turn = f"{seat.mention}, your turn." if seat.is_human else f"{seat.name} is thinking…"
        channel = self.channel(game)
        old = game.ping_id
        try:
            message = await channel.send(
                f"{text} {turn}",
                allowed_mentions=mentions or discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.warning("game %s: could not post the turn message", game.id, exc_info=True)
            return
        game.ping_id = message.id
        await self.games.save(game)  # saved as soon as posted: a restart can still delete it
        if old:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).delete()

    async def after_move(self, outcome: MoveOutcome) -> None:
        """Everything public that follows a committed move (under the game's lock)."""
        game = outcome.game
        self.timers.schedule(game.id, game.deadline)
        if outcome.finished_round is not None:
            embed = round_summary(
                game, outcome.finished_round, outcome.scores, outcome.round_number
            )
            await self.safe_send(game, embed=embed)
        await self.update_table(game)
        if outcome.match_over:
            log.info("game %s: finished, winner side %s", game.id, game.match.winner)
            await self.safe_send(game, content=f"🏆 Game over: {outcome.text}")
        elif outcome.abandoned:
            log.info("game %s: abandoned", game.id)
            await self.safe_send(
                game,
                content=(
                    f"{outcome.text}\nThe game is abandoned: a player missed"
                    f" {self.bot.config.max_auto_moves} turns in a row. No result is recorded."
                ),
            )
        elif not game.extra.get("paused"):
            await self.ping(game, outcome.text)

    async def safe_send(self, game: Game, **kwargs: object) -> None:
        """Post to the game's channel, logging instead of failing."""
        await self.post(self.channel(game), game.id, **kwargs)

    @staticmethod
    async def post(channel: discord.PartialMessageable, game_id: int, **kwargs: object) -> None:
        """Post without mentions, logging instead of failing."""
        try:
            await channel.send(allowed_mentions=discord.AllowedMentions.none(), **kwargs)  # type: ignore[arg-type]
        except discord.HTTPException:
            log.warning("game %s: could not post to the channel", game_id, exc_info=True)

    async def report_broken(self, broken: CorruptGame) -> None:
        """Say once, in its channel, that a game's saved state was damaged and it is closed."""
        self.timers.cancel(broken.game_id)
        if not broken.channel_id:
            return
        channel = self.bot.get_partial_messageable(broken.channel_id, guild_id=broken.guild_id)
        text = (
            f"⚠️ Game #{broken.game_id} could not be loaded: its saved state is damaged. It is"
            " closed, with no result recorded. Start a new one with /kasino new."
        )
        await self.post(channel, broken.game_id, content=text)

    # ----------------------------------------------------------------- timers

    async def on_deadline(self, game_id: int, deadline: float) -> None:
        """A deadline passed: deal after the pause, remind, move for the player, or let a
        computer player move."""
        async with self.games.session(game_id) as game:
            if game is None or game.status is not Status.PLAYING or game.deadline != deadline:
                return
            if game.timer is Timer.DEAL:
                await self.games.resume_after_pause(game)
                self.timers.schedule(game.id, game.deadline)
                await self.update_table(game)
                await self.ping(game, f"Round {game.match.rounds_played + 1} is dealt.")
            elif game.timer is Timer.REMIND:
                await self.games.remind(game)
                self.timers.schedule(game.id, game.deadline)
                await self.ping(
                    game,
                    f"⏰ Reminder (game #{game.id}): if nobody plays"
                    f" <t:{int(game.deadline or 0)}:R>, I will make a safe move.",
                )
            elif game.timer is Timer.COMPUTER:
                await self.computer_turn(game)
            else:
                outcome = await self.games.play_for(game)
                log.info("game %s: automatic move", game.id)
                await self.after_move(outcome)

    async def computer_turn(self, game: Game) -> None:
        """A computer player's pause is over: it moves (under the game's lock)."""
        if not self.games.computer_to_move(game):
            self.games.set_turn_timer(game)  # not a computer's turn after all: a fresh timer
            await self.games.save(game)
            self.timers.schedule(game.id, game.deadline)
            return
        outcome = await self.games.play_computer(game)
        log.info("game %s: computer move", game.id)
        await self.after_move(outcome)

    # ----------------------------------------------------------------- scores

    async def scores_message(
        self,
        interaction: discord.Interaction,
        variant: str | None,
        target: int | None,
        page: int,
        *,
        computers: bool = False,
    ) -> tuple[discord.Embed, discord.ui.View]:
        """The leaderboard page (people's or against computers) and its buttons."""
        storage = self.games.storage
        offset = (page - 1) * PAGE_SIZE
        rows, total = await storage.leaderboard(
            interaction.guild_id or 0, variant, target, offset, PAGE_SIZE, computers=computers
        )
        pages = max(1, -(-total // PAGE_SIZE))
        embed = scores_embed(rows, variant, target, page, pages, offset, computers=computers)
        game = await self.games.active(interaction.channel_id or 0)
        if game is not None and game.match is not None:
            embed.add_field(
                name=f"This match (game #{game.id})", value=standings(game), inline=False
            )
        return embed, scores_view(variant, target, page, pages, computers=computers)

    async def on_scores_page(self, interaction: discord.Interaction, page: ScoresPage) -> None:
        """Previous / Next on a leaderboard, or the switch to the other board."""
        embed, view = await self.scores_message(
            interaction, page.variant, page.target, page.page, computers=page.computers
        )
        await interaction.response.edit_message(embed=embed, view=view)


async def setup(bot: KasinoBot) -> None:
    """Load the cog (``bot.load_extension("cogs.kasino")``)."""
    await bot.add_cog(Kasino(bot))
