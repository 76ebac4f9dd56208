"""The ``/kasino`` command group: the commands, and the routing of every button and select
to its flow (:mod:`cogs.play.lobby`, :mod:`cogs.play.hands`), the turn timers, and the leaderboard.
What the channel sees is queued by :mod:`cogs.play.table` and posted by :mod:`cogs.play.outbox`.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.acks import unless_answered_elsewhere
from bot.engine import Card, rules_for
from bot.faces import FOUR_COLOUR, TWO_COLOUR
from bot.games import MESSAGE_COLUMNS, GameError, GameService
from bot.help_text import help_embed
from bot.i18n import N_, languages, native_name
from bot.ladder import pool_key
from bot.models import (
    LIVE,
    PACE_NAMES,
    VARIANT_NAMES,
    Game,
    GameOptions,
    Seat,
    Status,
    Timer,
    options_problem,
)
from bot.records.profile import ratings_embed
from bot.records.ratings import GLOBAL
from bot.render import ended_text, lobby_embed, scores_embed, standings
from bot.rules_text import rules_embed
from bot.stages import Courier, by_interaction
from bot.storage import ChannelBusy, CorruptGame, Outgoing
from bot.timers import Timers
from bot.tournaments.board import board_embed
from bot.tournaments.model import Format, Settings
from bot.tournaments.roundrobin import MAX_PLAYERS as ROUND_ROBIN_MOST
from bot.tournaments.settings import table_sizes
from bot.translator import command_field, command_name
from cogs.common import (
    ANSWERS_HIDDEN,
    CANNOT_POST,
    NO_GAME,
    NOT_MINE,
    foreign,
    jump_url,
    may_post_tables,
    private,
    refuse,
    refuse_error,
    tell,
)
from cogs.components import KasinoButton, KasinoSelect, dispatched, kasino_ids, offered
from cogs.correspondence.digest import Digests
from cogs.correspondence.games_list import GamesList
from cogs.correspondence.notices import TurnNotices
from cogs.correspondence.notifier import Notifier
from cogs.correspondence.prefs import Prefs
from cogs.correspondence.settings import HOW_CHOICES, Asked, SettingsFlow, zone_choices
from cogs.custom_ids import MAX_ID, BadComponent, HistoryPage, ScoresPage, parse_click
from cogs.ladder.choices import LadderChoices
from cogs.ladder.queue import GAME_NOTICE, LadderFlow
from cogs.learning.analysis import AnalysisFlow
from cogs.learning.lessons import LessonFlow
from cogs.learning.practice import PracticeFlow
from cogs.learning.puzzles import PuzzleFlow
from cogs.places import (
    HERE,
    NO_SERVER_BOARD,
    NO_SERVER_DECK,
    NO_SERVER_LANGUAGE,
    NO_TOURNAMENTS_HERE,
    answers_forced_private,
    bot_in_server,
    here_note,
    sort_wins,
)
from cogs.play.clock import GameClock
from cogs.play.couriers import ClickCourier, courier_for
from cogs.play.delivery import Delivery
from cogs.play.hands import HandFlow
from cogs.play.live import LiveHands
from cogs.play.lobby import LobbyFlow
from cogs.play.outbox import Outbox, Post
from cogs.play.table import TableFlow
from cogs.play.talk import TalkFlow
from cogs.play.views import (
    global_scores_view,
    lobby_view,
    rules_view,
    scores_view,
    tournament_board_view,
)
from cogs.records.forget_posts import ForgetPosts
from cogs.records.forgetting import LOOK_EVERY, PeopleCaches
from cogs.records.history import RecordFlow
from cogs.records.privacy import ForgetFlow
from cogs.records.profiles import DEFAULT_VARIANT, ProfileFlow
from cogs.settings.decks import GUILD, USER, Inks
from cogs.settings.languages import Languages
from cogs.tournaments.commands import TournamentFlow
from cogs.tournaments.rounds import RoundRunner

if TYPE_CHECKING:
    from bot.client import KasinoBot

log = logging.getLogger(__name__)

VARIANTS = [app_commands.Choice(name=name, value=key) for key, name in VARIANT_NAMES.items()]
SORTS = [
    app_commands.Choice(name=N_("rating"), value="rating"),
    app_commands.Choice(name=N_("wins"), value="wins"),
]
OPPONENTS = [
    app_commands.Choice(name=N_("people"), value="people"),
    app_commands.Choice(name=N_("computers"), value="computers"),
]
# Whose leaderboard: this server's, or the global rating board over every server.
PACE_CHOICES = [app_commands.Choice(name=name, value=key) for key, name in PACE_NAMES.items()]
SCOPES = [
    app_commands.Choice(name=N_("server"), value="server"),
    app_commands.Choice(name=N_("global"), value="global"),
]
GLOBAL_BY_RATING = N_(
    "The global leaderboard is by rating only (results are counted per server):"
    " leave out the target and the sort by wins."
)
# The admin's language setting: a language the bot speaks, or the server's own language.
SERVER_LANGUAGE = "server"
LANGUAGES = [
    app_commands.Choice(name=N_("The server's language"), value=SERVER_LANGUAGE),
    *(app_commands.Choice(name=native_name(code), value=code) for code in languages()),
]
# The card decks: the usual two colours, or four; a player may follow the server's again.
FOLLOW_SERVER = "server"
DECKS = [
    app_commands.Choice(name=N_("Two colours (♠ ♣ black, ♥ ♦ red)"), value=TWO_COLOUR),
    app_commands.Choice(
        name=N_("Four colours (♠ black, ♥ red, ♦ blue, ♣ green)"), value=FOUR_COLOUR
    ),
    app_commands.Choice(name=N_("The server's deck"), value=FOLLOW_SERVER),
]
DECK_NAMES = {TWO_COLOUR: N_("two colours"), FOUR_COLOUR: N_("four colours")}
DECK_SCOPES = [
    app_commands.Choice(name=N_("me (my hand, menus and hints)"), value=USER),
    app_commands.Choice(name=N_("this server (the table, lobby and summaries)"), value=GUILD),
]
FORMATS = [
    app_commands.Choice(name=N_("Swiss"), value=Format.SWISS.value),
    app_commands.Choice(name=N_("round robin"), value=Format.ROUND_ROBIN.value),
    app_commands.Choice(name=N_("single elimination"), value=Format.KNOCKOUT.value),
]
PAGE_SIZE = 10
# a page past the end (a disabled Next sent anyway, a board that shrank, /kasino scores
# page:9): refused privately, the message left as it was
NO_SCORES_PAGE = N_("There is no page {page}: the leaderboard has {pages}. Nothing changed.")
NO_BOARD_PAGE = N_("There is no page {page}: the tournaments board has {pages}. Nothing changed.")
# shown with a deck choice: one card of each suit, with the ranks people mix up
SAMPLE = [Card.parse(c) for c in ("5S", "6H", "8D", "9C")]


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class Kasino(
    commands.GroupCog, group_name="kasino", group_description="Play Kasino, the Nordic card game"
):
    """Lobbies, the live table, private hands, leaderboards and turn timers."""

    def __init__(self, bot: KasinoBot) -> None:
        self.bot = bot
        assert bot.storage is not None
        outbox = Outbox(bot, self._table_posted, bot.storage.post_done)
        self.games = GameService(
            bot.storage,
            bot.config,
            seed=bot.seed,
            on_broken=self.report_broken,
            # a save's posts: this process's channels', or another shard's process is told
            on_posts=lambda posts: self.delivery.posted(posts),
        )
        self.timers = Timers(self.on_deadline)
        self.live = LiveHands()
        self.languages = Languages(bot, bot.storage)
        self.inks = Inks(bot.inks, bot.storage)
        self.table = TableFlow(
            self.games, outbox, self.live, self.timers, self.inks, self.languages
        )
        self.games.compose = self.table.compose
        # correspondence games: each person's notice settings (every process keeps them
        # all) and their DMs; each turn's notice, warning and loss on time
        self.prefs = Prefs(bot.storage)
        self.notifier = Notifier(bot, self.prefs)
        self.notices = TurnNotices(self.games, self.table, self.prefs, self.notifier.dm)
        self.games.away_until = self.notices.away_until
        self.table.pings = self.notices.in_table
        self.clock = GameClock(self.games, self.table, self.notices.step)
        # what a game reached only through clicks shows waits for the next click there
        self.courier = ClickCourier(bot.storage, self._table_posted, bot.storage.post_done)
        self.delivery = Delivery(bot, outbox, self.clock, self.courier)
        # the ladder: /kasino queue, its pairing rounds, the matches it makes
        self.ladder = LadderFlow(bot, self.games, self.table, self.keep_clock)
        self.ladder_choices = LadderChoices(bot, bot.storage)
        self.hands = HandFlow(self.games, self.table, self.live)
        # /kasino games: one's games everywhere, each one's hand from the list
        self.games_list = GamesList(
            bot.storage, self.hands, self._server_name, command_field("new"),
            command_field("queue"),
        )  # fmt: skip
        # a ladder match's table talk: canned lines on both tables, each person's mute
        self.talk = TalkFlow(bot.storage, self.table, lambda posts: self.delivery.posted(posts))
        self.lobby = LobbyFlow(self.games, self.table)
        self.lobby.seated = self.ladder.seated_elsewhere  # one game at a time
        # every cache that can hold a person, dropped at once when anyone is forgotten
        # (here or in another process): see cogs/records/forgetting.py
        self.people = PeopleCaches(bot.storage)
        self.people.register("decks", self.inks.reload)
        self.people.register("menus", self.live.menus.drop_kept)
        self.profiles = ProfileFlow(bot.storage)
        self.records = RecordFlow(bot.storage, self.inks, self.people)
        # private practice positions (lessons, puzzles) with the hand view's menus
        self.practice = PracticeFlow(self.hands)
        self.people.register("practice", self.practice.drop_kept)
        # the puzzle of the day (a practice owner)
        self.puzzles = PuzzleFlow(bot.storage, self.practice, bot.cpu_call)
        self.lessons = LessonFlow(bot.storage, self.practice, self.first_game)
        self.analysis = AnalysisFlow(bot.storage, self.records, self.inks, bot.analyses)
        # tournaments: the rounds' runner (threads, games, results, deadlines, podium) and
        # the commands' and sign-up's flow (cogs.tournaments.commands)
        self.rounds = RoundRunner(bot, self.games, self.table, self.languages.server)
        self.tournaments = TournamentFlow(self.rounds, self.languages)
        # forget-me: the person's analyses running here are dropped first, and the public
        # messages of their games and tournaments are edited without them after
        self.forget_posts = ForgetPosts(
            bot, bot.storage, self.languages.public, self.inks.public, self.rounds.posts
        )
        self.privacy = ForgetFlow(
            bot.storage, self.people, stop=self.analysis.forget, after=self.forget_posts.forgot
        )
        # correspondence games: /kasino settings and vacation, the daily digest (shard 0's)
        self.people.register("notices", self.prefs.reload)
        self.settings_flow = SettingsFlow(self.prefs, self.notifier, on_away=self.on_away)
        self.digests = Digests(bot, bot.storage, self.prefs, self.notifier)

    def _server_name(self, guild_id: int) -> str | None:
        """A server's name, where the bot is in it."""
        guild = self.bot.get_guild(guild_id)
        return guild.name if guild is not None else None

    async def _table_posted(
        self, game_id: int, channel_id: int, message_id: int | None, row: int | None = None
    ) -> list[int]:
        return list(await self.table.table_posted(game_id, channel_id, message_id, row))

    async def cog_load(self) -> None:
        """Register the components, restart every stored timer and post what a stopped or
        killed process left unposted."""
        self.bot.add_dynamic_items(KasinoButton, KasinoSelect)
        await self.people.start()  # before the loads: they are without everyone forgotten
        await self.languages.load()
        await self.inks.load()
        await self.prefs.load()
        await self.digests.start()
        # only this process's shards' games: the other processes restart their own
        shards = self.bot.config.shards
        storage = self.games.storage
        for game_id, deadline in await storage.deadlines(shards):
            self.timers.schedule(game_id, deadline)
        await self.delivery.start()  # what its channels must still be shown, and notices
        await storage.listen(GAME_NOTICE, self._ladder_game)
        await self.ladder.load()
        for game_id in await storage.tableless_games(shards):
            async with self.games.session(game_id) as game:
                if game is not None and game.status is Status.PLAYING and not game.message_id:
                    # dealt, but killed before its table was kept: a tournament's table
                    # still owes its welcome (kept with the game), posted first
                    self.table.welcome(game)
                    self.table.announce(game)
                    await self.games.save(game)
        await self.rounds.reconcile()  # this process's shards' open tournaments go on

    async def cog_unload(self) -> None:
        """Stop the timers (their deadlines stay in the database)."""
        self.timers.cancel_all()
        self.digests.close()
        await self.ladder.close()
        await self.rounds.close()
        await self.analysis.close()
        await self.forget_posts.close()
        await self.table.outbox.close()
        await self.live.close()
        self.practice.close()
        self.bot.remove_dynamic_items(KasinoButton, KasinoSelect)

    async def on_away(self, user_id: int, shift: float) -> None:
        """A person's vacation started (``shift`` > 0 seconds) or ended early (< 0): their
        running correspondence turns' deadlines move by ``shift`` (the clock's own)."""
        await self.notices.away(user_id, shift, self.keep_clock)

    def keep_clock(self, game: Game) -> None:
        """A match made here whose clock is its home shard's process's: kept here, or that
        process is told (a ladder match paired by another shard's process)."""
        if self.bot.owns_guild(game.guild_id):
            self.timers.schedule(game.id, game.deadline)
        else:
            self.delivery.chore(self.games.storage.notify(GAME_NOTICE, str(game.id)))

    def _ladder_game(self, payload: str) -> None:
        """Another process made a ladder match: if its home is this process's, its clock
        is kept here."""
        if payload.isdigit():
            self.delivery.chore(self._keep_clock_of(int(payload)))

    async def _keep_clock_of(self, game_id: int) -> None:
        game = await self.games.storage.get_game(game_id)
        if game is not None and game.deadline and self.bot.owns_guild(game.guild_id):
            self.timers.schedule(game.id, game.deadline)

    # --------------------------------------------------------------- commands

    @app_commands.command(
        name="queue", description="Find an opponent from any server: a rated ladder match"
    )
    @app_commands.describe(
        variant="Which game (default Swedish Kasino)",
        players="Players at the table (default 2; 4 play in partnerships; Krypkasino 3 to 6)",
        pace="Live (minutes a move), or correspondence: a move when it suits you, over days",
    )
    @app_commands.choices(variant=VARIANTS, pace=PACE_CHOICES)
    async def queue(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str] | None = None,
        players: app_commands.Range[int, 2, 6] = 2,
        pace: app_commands.Choice[str] | None = None,
    ) -> None:
        """Wait here for a fair opponent from any server."""
        game = pool_key(variant.value if variant else "swedish", pace.value if pace else LIVE)
        await self.ladder.queue(interaction, game, players)

    @app_commands.command(
        name="block", description="Keep someone out of your ladder pairings (or let them back)"
    )
    @app_commands.describe(
        person="Who you do not want to be paired with", undo="Let them back into your pairings"
    )
    async def block(
        self, interaction: discord.Interaction, person: discord.User, undo: bool = False
    ) -> None:
        """Keep a person out of one's ladder pairings (privately)."""
        await self.ladder_choices.block(interaction, person, undo)

    @app_commands.command(
        name="ladder", description="Turn the ladder on or off in this server (admins)"
    )
    @app_commands.describe(on="Whether people may queue for ladder matches here")
    async def ladder_switch(self, interaction: discord.Interaction, on: bool) -> None:
        """A server's admin turns the ladder on or off there."""
        await self.ladder_choices.switch(interaction, on)

    @app_commands.command(name="new", description="Open a Kasino lobby in this channel")
    @app_commands.describe(
        variant="Which game (default Swedish Kasino)",
        target="Points to win (16; Överspader, building games 21; Mulles 50); Krypkasino:"
        " the limit",
        teams="Partnerships: 4 players, seats 1+3 against 2+4 (Krypkasino: 4 or 6, partners"
        " opposite)",
        turn_minutes="Minutes a player has for a move (default 5)",
        sweeps="Building games: each sweep (clearing the table) scores 1",
        permissive="Casino family: permissive building (trail while owning a build…)",
        last_capture_point="Casino family: most cards 2 and the last capture 1, not most cards 3",
        team_size="Krypkasino with teams: 3 is 6 players in two teams of three (default 2)",
        take_all="Krypkasino: a capture must take every group it can (default on)",
        majorities="Krypkasino: most cards 1 and most spades 2 as penalties (default off)",
        pace="Live (minutes a move), or correspondence: a move when it suits you, over days",
    )
    @app_commands.choices(variant=VARIANTS, pace=PACE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str] | None = None,
        target: app_commands.Range[int, 5, 100] | None = None,
        teams: bool = False,
        turn_minutes: app_commands.Range[int, 1, 1440] | None = None,
        sweeps: bool = False,
        permissive: bool = False,
        last_capture_point: bool = False,
        team_size: app_commands.Range[int, 2, 3] | None = None,
        take_all: bool | None = None,
        majorities: bool = False,
        pace: app_commands.Choice[str] | None = None,
    ) -> None:
        """Post a lobby; one game per channel."""
        name = variant.value if variant else "swedish"
        options = GameOptions(
            variant=name,
            target=target or rules_for(name).target,
            teams=teams,
            turn_seconds=turn_minutes * 60 if turn_minutes else self.bot.config.turn_seconds,
            sweeps=sweeps,
            permissive=permissive,
            last_capture_point=last_capture_point,
            team_size=team_size or 2,
            take_all=True if take_all is None else take_all,
            majorities=majorities,
            pace=pace.value if pace else LIVE,
        )
        await self.post_lobby(interaction, options)

    async def post_lobby(
        self, interaction: discord.Interaction, options: GameOptions, *, computer: str = ""
    ) -> None:
        """``/kasino new``'s lobby of ``options`` in the interaction's channel, with a
        ``computer`` of that level seated if given (a finished lesson's first game)."""
        problem = options_problem(options, private(interaction))
        if problem:
            await tell(interaction, problem)
            return
        courier = courier_for(interaction)
        if answers_forced_private(interaction):
            await refuse(interaction, ANSWERS_HIDDEN)
            return
        if courier is Courier.CHANNEL and interaction.guild_id and not may_post_tables(interaction):
            await refuse(interaction, CANNOT_POST)
            return
        host = Seat(interaction.user.id, interaction.user.display_name)
        # loading the running game first closes it if its saved state is damaged
        running = await self.games.active(interaction.channel_id or 0)
        try:
            if running is not None:
                raise ChannelBusy(running.id)
            locale = interaction.guild_locale
            game = await self.games.open_lobby(
                interaction.guild_id or 0,
                interaction.channel_id or 0,
                host,
                options,
                locale=locale.value if locale is not None else None,
                courier=courier,
            )
            if computer:
                await self.games.add_computer(game, host.user_id or 0, computer)
        except ChannelBusy:
            if running:
                await refuse(
                    interaction,
                    "A game is already running in this channel: {link}",
                    link=jump_url(running),
                )
            else:
                await refuse(interaction, "A game is already running in this channel.")
            return
        t = self.languages.public(game)
        await interaction.response.send_message(
            embed=lobby_embed(game, t), view=lobby_view(game, t)
        )
        log.info("game %s: lobby opened in channel %s", game.id, game.channel_id)
        message = await interaction.original_response()
        if courier is Courier.INTERACTION:
            self.courier.keep(message)  # its token edits it, at the end, while it lasts
        async with self.games.session(game.id) as game:
            if game is not None:
                game.message_id = message.id
                await self.games.save(game, columns=MESSAGE_COLUMNS)
        if game is not None:
            # the host too is sent the seed's commitment privately (bot.records.seal)
            await self.lobby.send_commitment(interaction, game, joined=False)
            async with self.games.session(game.id) as game:
                if game is not None:
                    await self.lobby.took_seat(interaction.user.id, game)

    @app_commands.command(name="hand", description="See your cards (only you can see them)")
    async def hand(self, interaction: discord.Interaction) -> None:
        """Your hand in this channel's game, ephemeral."""
        await self.delivery.before_click(interaction)
        game_id = await self.games.channel_game(interaction.channel_id or 0)
        async with self.games.session(game_id or 0) as game:
            if game is None or not game.status.active:
                await refuse(interaction, NO_GAME, new=command_field("new"))
            else:
                await self.hands.show_hand(interaction, game)
        await self.delivery.after_click(interaction)

    @app_commands.command(
        name="games", description="Every game you are in, everywhere, with your hand for each"
    )
    async def games_command(self, interaction: discord.Interaction) -> None:
        """The person's games (servers, DMs, the ladder), their turn first, privately."""
        await self.games_list.command(interaction)

    @app_commands.command(
        name="learn", description="A short private lesson: learn a game by playing"
    )
    @app_commands.describe(variant="Which game (default Swedish Kasino)")
    @app_commands.choices(variant=VARIANTS)
    async def learn(
        self, interaction: discord.Interaction, variant: app_commands.Choice[str] | None = None
    ) -> None:
        """A private lesson of small positions, resumed where it was left."""
        await self.lessons.learn(interaction, variant.value if variant else "swedish")

    async def first_game(self, interaction: discord.Interaction, variant: str) -> None:
        """A finished lesson's first game: a lobby of ``variant`` with an easy computer."""
        options = GameOptions(
            variant=variant,
            target=rules_for(variant).target,
            turn_seconds=self.bot.config.turn_seconds,
        )
        await self.post_lobby(interaction, options, computer="easy")

    @app_commands.command(name="scores", description="The server's Kasino leaderboard")
    @app_commands.describe(
        variant="Only this game",
        target="Only matches to this target (then by wins)",
        page="Page",
        opponents="Matches between people (default) or against computer players",
        sort="By rating (default; one game's board) or by wins",
        scope="This server's board (default) or the global one, over every server",
    )
    @app_commands.choices(variant=VARIANTS, opponents=OPPONENTS, sort=SORTS, scope=SCOPES)
    async def scores(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str] | None = None,
        target: app_commands.Range[int, 5, 100] | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
        opponents: app_commands.Choice[str] | None = None,
        sort: app_commands.Choice[str] | None = None,
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        """By rating (one variant's board: the one asked for, else this channel's game's,
        else Swedish Kasino's), or by wins, matches, win rate, points and tabbar; with this
        channel's match standings. Ratings are not split by target: a target means wins.
        ``scope`` global: the global rating board of one game (by rating only)."""
        computers = opponents is not None and opponents.value == "computers"
        if interaction.guild_id is None:  # no server here: its board is the global one
            if (scope is not None and scope.value == "server") or target or sort_wins(sort):
                await refuse(interaction, NO_SERVER_BOARD)
                return
            scope = SCOPES[1]
        if scope is not None and scope.value == "global":
            if target is not None or sort_wins(sort):
                await refuse(interaction, GLOBAL_BY_RATING)
                return
            made = await self.global_scores_message(
                interaction, variant.value if variant else None, page, computers=computers
            )
            if made is not None:
                await interaction.response.send_message(embed=made[0], view=made[1])
            return
        rating = (sort is None or sort.value == "rating") and target is None
        made = await self.scores_message(
            interaction,
            variant.value if variant else None,
            target,
            page,
            computers=computers,
            rating=rating,
        )
        if made is not None:
            embed, view, files = made
            await interaction.response.send_message(embed=embed, view=view, files=files)

    @app_commands.command(name="tournaments", description="The server's tournaments board")
    @app_commands.describe(page="Page")
    async def tournaments(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1
    ) -> None:
        """The server's finished tournaments: who won most, then who reached the podium."""
        if not bot_in_server(interaction):  # none are held here
            await refuse(interaction, NO_TOURNAMENTS_HERE)
            return
        made = await self.tournament_board_message(interaction, page)
        if made is not None:
            await interaction.response.send_message(embed=made[0], view=made[1])

    @app_commands.command(name="profile", description="A player's Kasino profile and rating")
    @app_commands.describe(
        member="Whose profile (default: yours)", variant="Only this game (default: all)"
    )
    @app_commands.choices(variant=VARIANTS)
    async def profile(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        variant: app_commands.Choice[str] | None = None,
    ) -> None:
        """Privately: matches, wins, rating and rank, per-round figures, streaks, the last
        results and a picture of the rating; a button shows it in the channel."""
        await self.profiles.on_profile(
            interaction, member, variant.value if variant else None, private(interaction)
        )

    @app_commands.command(name="puzzle", description="The server's puzzle of the day, privately")
    @app_commands.describe(variant="A game: its family's puzzle (default: the Nordic games)")
    @app_commands.choices(variant=VARIANTS)
    async def puzzle(
        self, interaction: discord.Interaction, variant: app_commands.Choice[str] | None = None
    ) -> None:
        """Today's puzzle of a family, with the hand menus; the answer is judged."""
        await self.puzzles.on_command(interaction, variant.value if variant else None)

    @app_commands.command(name="versus", description="You against another player, head to head")
    @app_commands.describe(member="The other player")
    async def versus(self, interaction: discord.Interaction, member: discord.User) -> None:
        """Privately: matches against each other, wins each, as partners, last meetings."""
        await self.profiles.on_versus(interaction, member, private(interaction))

    @app_commands.command(
        name="forget-me", description="Remove everything the bot keeps about you (asks first)"
    )
    async def forget_me(self, interaction: discord.Interaction) -> None:
        """Ask, privately, before removing every row that names this person."""
        await self.privacy.ask(interaction)

    @app_commands.command(name="history", description="Finished matches here, newest first")
    @app_commands.describe(
        member="Only the matches this member played (default: the whole server's)",
        variant="Only this game",
    )
    @app_commands.choices(variant=VARIANTS)
    async def history(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        variant: app_commands.Choice[str] | None = None,
    ) -> None:
        """Privately: a page of finished matches (date, variant, seats, final score,
        winner), Previous / Next, and a menu to replay one."""
        page = HistoryPage(member.id if member else None, variant.value if variant else None, 1)
        await self.records.show_history(interaction, page)

    @app_commands.command(name="export", description="A finished match as a JSON record")
    @app_commands.describe(game="The game's number (#12 on its table)")
    async def export(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, MAX_ID]
    ) -> None:
        """Privately: a finished match of this server as a file (rules, seats, seeds,
        every move, results) that ``python -m bot verify`` checks."""
        await self.records.export(interaction, game)

    @app_commands.command(name="rules", description="A short summary of the rules")
    @app_commands.describe(variant="Which game (default: this channel's game, or Swedish Kasino)")
    @app_commands.choices(variant=VARIANTS)
    async def rules(
        self, interaction: discord.Interaction, variant: app_commands.Choice[str] | None = None
    ) -> None:
        """The rules of one variant, only for you: the one asked for, else the channel's
        game's (with its options), else Swedish Kasino; a menu swaps in another's."""
        embed, view = await self.rules_message(interaction, variant.value if variant else None)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @app_commands.command(name="help", description="What each /kasino command does, and ratings")
    async def help_command(self, interaction: discord.Interaction) -> None:
        """Privately, in the reader's language: every command of the group in one line (made
        from the group itself) and what the rating number means."""
        t = private(interaction)
        embed = help_embed(self.__cog_app_commands_group__, t)
        note = here_note(interaction, t)
        if note is not None:  # where the bot is no member: what is different here
            embed.add_field(name=t(HERE), value=note, inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def rules_message(
        self, interaction: discord.Interaction, variant: str | None
    ) -> tuple[discord.Embed, discord.ui.View]:
        """A variant's rules summary (``None``: the channel's game's, else the default
        variant's), with the options of the channel's game when it plays that variant."""
        game = await self.games.active(interaction.channel_id or 0)
        options = game.options if game is not None else None
        shown = variant or (options.variant if options is not None else GameOptions().variant)
        t = private(interaction)
        return rules_embed(shown, t, options), rules_view(shown, t)

    @app_commands.command(
        name="language", description="The language of the bot's public messages here (admins)"
    )
    @app_commands.describe(language="A language, or the server's own language")
    @app_commands.choices(language=LANGUAGES)
    async def language(
        self, interaction: discord.Interaction, language: app_commands.Choice[str]
    ) -> None:
        """A server admin (Manage Server) chooses the language of the bot's public messages:
        the lobby, the table, turn notices, summaries and leaderboards."""
        if not bot_in_server(interaction):  # a server's setting, where it added the bot
            await refuse(interaction, NO_SERVER_LANGUAGE)
            return
        if not interaction.permissions.manage_guild:
            await refuse(interaction, "Only someone with Manage Server can change the language.")
            return
        code = None if language.value == SERVER_LANGUAGE else language.value
        await self.languages.choose(interaction.guild_id or 0, code)
        t = self.languages.of_interaction(interaction)
        if code is None:
            text = t("The bot's public messages here now follow the server's language.")
        else:
            text = t(
                "The bot's public messages here are now in {language}.",
                language=native_name(code, in_sentence=True),  # "nu på svenska"
            )
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none()
        )
        log.info("guild %s: language set to %s", interaction.guild_id, code or "the server's")

    @app_commands.command(
        name="deck", description="Card faces in two colours or four (for you, or the server)"
    )
    @app_commands.describe(
        style="Two colours, four colours (♦ blue, ♣ green), or the server's deck",
        scope="Your own views (default), or this server's public messages (admins)",
    )
    @app_commands.rename(scope="for")
    @app_commands.choices(style=DECKS, scope=DECK_SCOPES)
    async def deck(
        self,
        interaction: discord.Interaction,
        style: app_commands.Choice[str],
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        """Choose the card deck: a player's for their private views (hand, menus, hints), or
        with Manage Server the server's for the public table, lobby and summaries."""
        t = private(interaction)
        chosen = None if style.value == FOLLOW_SERVER else style.value
        guild_id = interaction.guild_id or 0
        if scope is not None and scope.value == GUILD:
            if not bot_in_server(interaction):  # a server's setting, where it added the bot
                await refuse(interaction, NO_SERVER_DECK)
                return
            if not interaction.permissions.manage_guild:
                await refuse(
                    interaction, "Only someone with Manage Server can change the server's deck."
                )
                return
            await self.inks.choose(GUILD, guild_id, chosen)
            now_shown = self.inks.server_style(guild_id)
            text = t(
                "The table, lobby and summaries here now show cards in {deck}.",
                deck=t(DECK_NAMES[now_shown]),
            )
            log.info("guild %s: deck set to %s", guild_id, now_shown)
        else:
            await self.inks.choose(USER, interaction.user.id, chosen)
            now_shown = self.inks.player_style(interaction.user.id, guild_id)
            deck = t(DECK_NAMES[now_shown])
            if chosen is None and not bot_in_server(interaction):
                text = t("Your hand and menus now follow each server's deck ({deck} here).",
                         deck=deck)  # fmt: skip
            elif chosen is None:
                text = t("Your hand and menus now follow the server's deck ({deck}).", deck=deck)
            else:
                text = t("Your hand and menus now show cards in {deck}.", deck=deck)
        if not self.inks.available(now_shown):
            text += "\n" + t(
                "That deck's card faces are not available here, so cards look as before."
            )
        sample = self.inks.ink(now_shown).cards(SAMPLE)
        await tell(interaction, f"{text}\n{sample}")

    @app_commands.command(
        name="settings", description="How you are told of your turn in correspondence games"
    )
    @app_commands.describe(
        notices="A mention in the game's channel, a direct message, a daily digest, or nothing",
        zone="Your time zone (such as Europe/Stockholm), for quiet hours and the digest",
        quiet_from="Quiet hours start at this hour (0-23, your time): no notices then",
        quiet_until="Quiet hours end at this hour (0-23, your time)",
        quiet_off="Turn quiet hours off",
        digest_hour="The hour of your daily digest (0-23, your time; default 18)",
    )
    @app_commands.choices(notices=HOW_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction,
        notices: app_commands.Choice[str] | None = None,
        zone: app_commands.Range[str, 1, 64] | None = None,
        quiet_from: app_commands.Range[int, 0, 23] | None = None,
        quiet_until: app_commands.Range[int, 0, 23] | None = None,
        quiet_off: bool = False,
        digest_hour: app_commands.Range[int, 0, 23] | None = None,
    ) -> None:
        """Show (and change) one's notices for correspondence games, privately."""
        how = notices.value if notices else None
        asked = Asked(how, zone, quiet_from, quiet_until, quiet_off, digest_hour)
        await self.settings_flow.settings(interaction, asked)

    @settings.autocomplete("zone")
    async def _zones(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        return zone_choices(typed)

    @app_commands.command(
        name="vacation", description="Stop your correspondence clocks for some days (0 ends it)"
    )
    @app_commands.describe(days="Days away (a few a month; 0 ends your vacation early)")
    async def vacation(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 0, 31]
    ) -> None:
        """Take vacation days (or end them early), privately."""
        await self.settings_flow.vacation(interaction, days)

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
                stopped = functools.partial(self.table.stopped, game)
                await self.games.stop(game, allowed=allowed, announce=stopped)
            except GameError as error:
                await refuse_error(interaction, error)
                return
            self.timers.cancel(game.id)
            t = self.languages.public(game)
            await interaction.response.send_message(
                t(
                    "🛑 {mention} stopped game #{id}. No result is recorded.",
                    mention=interaction.user.mention,
                    id=game.id,
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            log.info("game %s: stopped", game.id)
            self.table.follow(game)
        await self.delivery.after_click(interaction)

    # ------------------------------------------------------------ tournaments

    tournament = app_commands.Group(
        name="tournament", description="Run a tournament: sign-up, rounds in threads, podium"
    )

    @tournament.command(name="new", description="Open a tournament's sign-up in this channel")
    @app_commands.describe(
        title="The tournament's name",
        variant="Which game (default Swedish Kasino)",
        format="Swiss (default), round robin or single elimination",
        table_size="Players a table (default 2; Swiss 3 or 4, Krypkasino up to 6)",
        rounds="Swiss: the number of rounds (default: by the number of players)",
        target="Points to win a match (the game's usual target by default)",
        turn_minutes="Minutes a player has for a move",
        round_minutes="Minutes a round may last; then unfinished tables are decided by score",
        hints="Allow hints at the tables (default off)",
        fillers="Computer players complete tables and replace byes (default off)",
        cap="The most players (default 64; a round robin 16)",
        start_in="Start by itself in this many minutes (default: the organiser starts it)",
        sweeps="Building games: each sweep (clearing the table) scores 1",
        permissive="Casino family: permissive building (trail while owning a build…)",
        last_capture_point="Casino family: most cards 2 and the last capture 1, not most cards 3",
        take_all="Krypkasino: a capture must take every group it can (default on)",
        majorities="Krypkasino: most cards 1 and most spades 2 as penalties (default off)",
        teams="Swiss in teams: tables of 4 (by default), seats 1+3 against 2+4 (Krypkasino: 4"
        " or 6)",
        team_size="Krypkasino with teams: 3 is tables of 6 in two teams of three (default 2)",
    )
    @app_commands.choices(variant=VARIANTS, format=FORMATS)
    async def tournament_new(
        self,
        interaction: discord.Interaction,
        title: app_commands.Range[str, 1, 80],
        variant: app_commands.Choice[str] | None = None,
        format: app_commands.Choice[str] | None = None,
        table_size: app_commands.Range[int, 2, 6] | None = None,
        rounds: app_commands.Range[int, 1, 15] | None = None,
        target: app_commands.Range[int, 5, 100] | None = None,
        turn_minutes: app_commands.Range[int, 1, 1440] | None = None,
        round_minutes: app_commands.Range[int, 5, 10080] = 60,
        hints: bool = False,
        fillers: bool = False,
        cap: app_commands.Range[int, 2, 128] | None = None,
        start_in: app_commands.Range[int, 1, 10080] | None = None,
        sweeps: bool = False,
        permissive: bool = False,
        last_capture_point: bool = False,
        take_all: bool | None = None,
        majorities: bool = False,
        teams: bool = False,
        team_size: app_commands.Range[int, 2, 3] | None = None,
    ) -> None:
        """A tournament's sign-up (Manage Server or the organisers' role)."""
        key = variant.value if variant else "swedish"
        game = GameOptions(
            variant=key,
            target=target or rules_for(key).target,
            turn_seconds=turn_minutes * 60 if turn_minutes else self.bot.config.turn_seconds,
            sweeps=sweeps,
            permissive=permissive,
            last_capture_point=last_capture_point,
            take_all=True if take_all is None else take_all,
            majorities=majorities,
            teams=teams,
            team_size=team_size or 2,
        )
        if table_size is None:  # teams: the smallest table the variant plays in teams
            table_size = min(table_sizes(game), default=4) if teams else 2
        chosen = Format(format.value) if format else Format.SWISS
        if cap is None:  # a round robin's own limit, else 64
            cap = ROUND_ROBIN_MOST if chosen is Format.ROUND_ROBIN else 64
        settings = Settings(
            game,
            format=chosen,
            table_size=table_size,
            rounds=rounds,
            round_minutes=round_minutes,
            hints=hints,
            fillers=fillers,
            cap=cap,
        )
        await self.tournaments.new(interaction, settings, title, start_in)

    @tournament.command(name="start", description="Start this channel's tournament now")
    async def tournament_start(self, interaction: discord.Interaction) -> None:
        """The organiser closes the sign-up; round 1 is paired."""
        await self.tournaments.command(interaction, "start")

    @tournament.command(name="drop", description="Leave the tournament (or drop a player)")
    @app_commands.describe(member="The organiser drops this player (default: yourself)")
    async def tournament_drop(
        self, interaction: discord.Interaction, member: discord.User | None = None
    ) -> None:
        """Paired no more; the table one sits at is decided against them."""
        await self.tournaments.command(interaction, "drop", member)

    @tournament.command(name="add", description="Add a player to a running Swiss tournament")
    @app_commands.describe(member="The player to add (paired from the next round)")
    async def tournament_add(self, interaction: discord.Interaction, member: discord.User) -> None:
        """The organiser adds a late player."""
        await self.tournaments.command(interaction, "add", member)

    @tournament.command(name="pause", description="No new round starts until resumed")
    async def tournament_pause(self, interaction: discord.Interaction) -> None:
        """The organiser pauses between rounds (tables playing go on)."""
        await self.tournaments.command(interaction, "pause")

    @tournament.command(name="resume", description="Resume a paused tournament")
    async def tournament_resume(self, interaction: discord.Interaction) -> None:
        """The organiser resumes; a finished round is followed by the next."""
        await self.tournaments.command(interaction, "resume")

    @tournament.command(name="end", description="End the tournament now (the podium so far)")
    async def tournament_end(self, interaction: discord.Interaction) -> None:
        """The organiser ends it: running tables are decided by the score."""
        await self.tournaments.command(interaction, "end")

    @tournament.command(name="standings", description="The tournament's standings, privately")
    async def tournament_standings(self, interaction: discord.Interaction) -> None:
        """Everyone's line with the tiebreaks."""
        await self.tournaments.command(interaction, "standings")

    # ------------------------------------------------------------- components

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Before every command: what this process keeps about people is dropped if anyone
        was forgotten meanwhile, here or in another process (looked up at most every
        second; a record is looked up every time it is served)."""
        await self.people.fresh(within=LOOK_EVERY)
        return True

    async def on_component(
        self, interaction: discord.Interaction, raw_id: str, values: object
    ) -> None:
        """Every Kasino button and select: parse strictly, check the component was really
        offered on its message and belongs to this channel's game, then act on it. While
        it is handled, the analyses' workers stand still (play first)."""
        pool = self.bot.analysis_pool
        with pool.play_first() if pool is not None else contextlib.nullcontext():
            await self._on_component(interaction, raw_id, values)
            await self.delivery.after_click(interaction)

    async def _on_component(
        self, interaction: discord.Interaction, raw_id: str, values: object
    ) -> None:
        await self.people.fresh(within=LOOK_EVERY)  # as before a command
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
            if any(not c.startswith("k:scores:") for c in kasino_ids(interaction.message)):
                # a page turns only on a leaderboard, never on a lobby or table
                await refuse(interaction, NOT_MINE)
                return
            await self.on_scores_page(interaction, click.scores)
            return
        if click.kind == "gscores":
            assert click.scores is not None
            if any(not c.startswith("k:gscores:") for c in kasino_ids(interaction.message)):
                await refuse(interaction, NOT_MINE)  # pages turn on the global board only
                return
            await self.on_scores_page(interaction, click.scores)
            return
        if click.kind == "games":
            await self.games_list.on_page(interaction, click.page)
            return
        if click.kind == "tboard":
            if any(not c.startswith("k:tboard:") for c in kasino_ids(interaction.message)):
                await refuse(interaction, NOT_MINE)  # pages turn on the board only
                return
            made = await self.tournament_board_message(interaction, click.page)
            if made is not None:
                await interaction.response.edit_message(embed=made[0], view=made[1])
            return
        if click.kind == "show":
            assert click.show is not None
            public = self.languages.of_interaction(interaction)
            await self.profiles.on_show(interaction, click.show, public)
            return
        if click.kind == "rules":
            message = interaction.message
            ephemeral = message is not None and message.flags.ephemeral
            if not ephemeral or any(not c.startswith("k:rules:") for c in kasino_ids(message)):
                # rules are swapped only on one's own private rules message
                await refuse(interaction, NOT_MINE)
                return
            embed, view = await self.rules_message(interaction, click.variant)
            await interaction.response.edit_message(embed=embed, view=view)
            return
        if click.kind == "ladder":
            if click.action == "computer":
                await self.ladder.on_computer(interaction, click.user)
            else:
                await self.ladder.on_leave(interaction, click.user)
            return
        if click.kind == "forget":
            await self.privacy.on_answer(interaction, click)
            return
        if click.kind == "hint":
            await self.hands.on_hint(interaction, click)
            return
        if click.kind in ("history", "histpick"):
            await self.records.on_history(interaction, click)
            return
        if click.kind in ("replay", "jump"):
            await self.records.on_replay(interaction, click)
            return
        if click.kind == "learn":
            await self.lessons.on_button(interaction, click)
            return
        if click.kind == "tour":
            await self.tournaments.on_button(interaction, click)
            return
        if click.kind == "tcut":
            await self.tournaments.on_cut(interaction, click)
            return
        if click.owner:  # a practice position's menus (cogs.learning.practice)
            await self.practice.on_click(interaction, click)
            return
        if click.kind == "check":  # read only: on any of the game's messages or replays
            await self.records.on_check(interaction, click)
            return
        if click.kind == "analyse":
            await self.analysis.on_analyse(interaction, click)
            return
        if click.kind == "review":
            await self.analysis.on_review(interaction, click)
            return
        await self.delivery.before_click(interaction)
        async with self.games.session(click.game) as game:
            if await foreign(interaction, game, click.kind):
                return
            # a seated player's hand opened elsewhere: a game reached only through clicks
            # has its clock caught up in this click (its table waits for a click there)
            elsewhere = await self.delivery.before_elsewhere(interaction, game)
            if click.kind == "lobby":
                await self.lobby.on_lobby(interaction, game, click.action)
            elif click.kind == "hand":
                await self.games_list.show_hand(interaction, game)
            elif click.kind == "rematch":
                await self.lobby.on_rematch(interaction, game)
            elif click.kind == "cut":
                await self.lobby.on_cut(interaction, game, click.numbers[0])
            elif click.kind == "cutfor":
                await self.lobby.offer_rematch_cut(interaction, game)
            elif click.kind == "rcut":
                await self.lobby.on_rematch_cut(interaction, game, click.numbers[0])
            elif click.kind == "say":
                await self.talk.on_click(interaction, game, click.action)
            else:
                await self.hands.on_move_select(interaction, game, click)
            if elsewhere:
                await self.delivery.after_elsewhere(game)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer every click no component handler will take (any custom_id: another
        prefix, a wrong case, a leading space), and every modal submitted (the bot opens
        none): a forged interaction gets the same kind refusal, never silence."""
        if interaction.type is discord.InteractionType.modal_submit:
            with unless_answered_elsewhere(interaction):
                await refuse(interaction, NOT_MINE)
            return
        if interaction.type is not discord.InteractionType.component:
            return
        data = interaction.data or {}
        cid = str(data.get("custom_id", ""))
        kind = data.get("component_type")
        if not dispatched(interaction.message, cid, kind):
            with unless_answered_elsewhere(interaction):
                await refuse(interaction, NOT_MINE)

    def report_broken(self, broken: CorruptGame) -> list[Outgoing]:
        """A game's saved state is damaged and it is being closed: stop its timer, tell its
        open hand views, and say so once in its channel (the posts are returned, to be
        written with the game's closing)."""
        self.timers.cancel(broken.game_id)
        self.live.close_game(broken.game_id, lambda t: ended_text(Status.BROKEN, t))
        if not broken.channel_id:
            return []
        t = self.languages.server(broken.guild_id or 0)
        text = t(
            "⚠️ Game #{id} could not be loaded: its saved state is damaged. It is closed,"
            " with no result recorded. Start a new one with {new}.",
            id=broken.game_id,
            new=command_name(t, "new"),
        )
        post = Post(
            broken.game_id,
            broken.guild_id or 0,
            broken.channel_id,
            content=text,
            courier=broken.courier,
        )
        return [post.record()]

    # ----------------------------------------------------------------- timers

    async def on_deadline(self, game_id: int, deadline: float) -> None:
        """A deadline passed: deal after the pause, remind, move for the player, or let a
        computer player move (:class:`GameClock`); a game reached only through clicks
        waits for the next click instead (nothing could be shown of it now)."""
        async with self.games.session(game_id) as game:
            if game is None or game.status is not Status.PLAYING or game.deadline != deadline:
                return
            if not self.bot.owns_guild(game.guild_id):
                return  # another process's shard (its timers are its own)
            if by_interaction(game.extra) and game.timer not in (Timer.NOTICE, Timer.WARN):
                return  # applied at the next click there (a notice by DM goes now)
            await self.clock.apply(game)

    # ----------------------------------------------------------------- scores

    async def scores_message(
        self,
        interaction: discord.Interaction,
        variant: str | None,
        target: int | None,
        page: int,
        *,
        computers: bool = False,
        rating: bool = False,
    ) -> tuple[discord.Embed, discord.ui.View, list[discord.File]] | None:
        """The leaderboard page (people's or against computers; by rating or by wins) and
        its buttons; ``None`` when there is no such page (refused: a page past the end,
        as a disabled Next sent anyway asks for, shows nothing and changes nothing)."""
        storage = self.games.storage
        offset = (page - 1) * PAGE_SIZE
        guild = interaction.guild_id or 0
        t = self.languages.of_interaction(interaction)
        game = await self.games.active(interaction.channel_id or 0)
        if rating:
            variant = variant or (game.options.variant if game is not None else DEFAULT_VARIANT)
            rated, total = await storage.rating_board(
                guild, variant, offset, PAGE_SIZE, computers=computers
            )
            pages = max(1, -(-total // PAGE_SIZE))
            if page > pages:
                await refuse(interaction, NO_SCORES_PAGE, page=page, pages=pages)
                return None
            names = await storage.recent_names(guild, [row.user_id for row in rated])
            embed = ratings_embed(
                rated, variant, page, pages, offset, computers=computers, names=names, t=t
            )
        else:
            rows, total = await storage.leaderboard(
                guild, variant, target, offset, PAGE_SIZE, computers=computers
            )
            pages = max(1, -(-total // PAGE_SIZE))
            if page > pages:
                await refuse(interaction, NO_SCORES_PAGE, page=page, pages=pages)
                return None
            names = await storage.recent_names(guild, [row.user_id for row in rows])
            embed = scores_embed(
                rows, variant, target, page, pages, offset, computers=computers, names=names, t=t
            )
        if game is not None and game.match is not None:
            embed.add_field(
                name=t("This match (game #{id})", id=game.id),
                value=standings(game, t),
                inline=False,
            )
        view = scores_view(variant, target, page, pages, computers=computers, rating=rating, t=t)
        return embed, view, []

    async def global_scores_message(
        self,
        interaction: discord.Interaction,
        variant: str | None,
        page: int,
        *,
        computers: bool = False,
    ) -> tuple[discord.Embed, discord.ui.View] | None:
        """A page of the global rating board of one game (the one asked for, else this
        channel's game's, else Swedish Kasino's) and its buttons; ``None`` when there is
        no such page (refused). It lists only people with a rated match (a forgotten
        person has no rating), named as the bot knows them outside any server."""
        t = self.languages.of_interaction(interaction)
        if variant is None:
            game = await self.games.active(interaction.channel_id or 0)
            variant = game.options.variant if game is not None else DEFAULT_VARIANT
        offset = (page - 1) * PAGE_SIZE
        rated, total = await self.games.storage.rating_board(
            GLOBAL, variant, offset, PAGE_SIZE, computers=computers
        )
        pages = max(1, -(-total // PAGE_SIZE))
        if page > pages:
            await refuse(interaction, NO_SCORES_PAGE, page=page, pages=pages)
            return None
        names = self.global_names(interaction, (row.user_id for row in rated))
        embed = ratings_embed(
            rated, variant, page, pages, offset, computers=computers, names=names, t=t,
            everywhere=True,
        )  # fmt: skip
        return embed, global_scores_view(variant, page, pages, computers=computers, t=t)

    def global_names(
        self, interaction: discord.Interaction, user_ids: Iterable[int]
    ) -> dict[int, str]:
        """People's names on a board of every server: the name they chose for Discord
        (never a server's nickname, which is that server's alone), where the bot sees
        them (the asker, a member it holds, a user it has met); anyone else is shown as a
        mention, as everywhere the bot keeps no name (nothing to forget)."""
        guild = interaction.guild
        names = {}
        for user_id in user_ids:
            seen: discord.abc.User | None = self.bot.get_user(user_id)
            if seen is None and interaction.user.id == user_id:
                seen = interaction.user
            if seen is None and guild is not None:
                seen = guild.get_member(user_id)
            if seen is not None:
                names[user_id] = seen.global_name or seen.name  # a nickname is the server's
        return names

    async def on_scores_page(self, interaction: discord.Interaction, page: ScoresPage) -> None:
        """Previous / Next on a leaderboard, or the switch to the other board or order."""
        if page.everywhere:
            assert page.variant is not None  # a global page always names its game
            made_global = await self.global_scores_message(
                interaction, page.variant, page.page, computers=page.computers
            )
            if made_global is not None:
                await interaction.response.edit_message(embed=made_global[0], view=made_global[1])
            return
        made = await self.scores_message(
            interaction,
            page.variant,
            page.target,
            page.page,
            computers=page.computers,
            rating=page.rating and page.target is None,
        )
        if made is not None:
            embed, view, _ = made
            await interaction.response.edit_message(embed=embed, view=view)

    async def tournament_board_message(
        self, interaction: discord.Interaction, page: int
    ) -> tuple[discord.Embed, discord.ui.View] | None:
        """A page of the server's tournaments board and its Previous / Next buttons;
        ``None`` when there is no such page (refused, nothing changed)."""
        storage = self.games.storage
        guild = interaction.guild_id or 0
        offset = (page - 1) * PAGE_SIZE
        rows, total = await storage.tournament_board(guild, offset, PAGE_SIZE)
        pages = max(1, -(-total // PAGE_SIZE))
        if page > pages:
            await refuse(interaction, NO_BOARD_PAGE, page=page, pages=pages)
            return None
        names = await storage.recent_names(guild, [row.user_id for row in rows])
        t = self.languages.of_interaction(interaction)
        embed = board_embed(rows, page, pages, offset, names=names, t=t)
        return embed, tournament_board_view(page, pages, t=t)


async def setup(bot: KasinoBot) -> None:
    """Load the cog (``bot.load_extension("cogs.kasino")``)."""
    await bot.add_cog(Kasino(bot))
