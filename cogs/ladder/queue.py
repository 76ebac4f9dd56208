"""``/kasino queue``: the ladder's pool (:mod:`bot.ladder`, :mod:`bot.storage.ladder`) and
the matches it makes, each shown where each player queued (:mod:`bot.stages`).

A person queues where they typed it, in a channel the bot posts to (a server that added
it, a thread there, the bot's own DM): the answer is their public waiting message ("🔎
looking for an opponent", since when, the rating window, how many wait for each game,
never who) with **Leave the queue**. A process tries to pair at every queue and every
:data:`PAIR_EVERY` seconds (the windows widen with time). A group found is one game:
seated in the order the pairing gives, shown in the first person's channel (its home)
and in each other player's (its mirrors), each in its server's language; the waiting
messages say who they were paired with. Posts for another shard's server are posted by
that shard's process (:mod:`cogs.play.delivery`), and so is the game's clock: the
process that runs the home's shard is told (:data:`GAME_NOTICE`) and keeps its timer.

Not where the bot may only answer clicks (a group DM, a server that did not add it):
pairing happens while nobody clicks, and nothing could tell the person there that their
game has begun.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import discord

from bot import timers
from bot.engine import rules_for
from bot.games import GameService
from bot.i18n import N_, Lang
from bot.ladder import KRYPKASINO, computer_due, pool_parts, rating_range
from bot.models import LIVE, PACE_NAMES, Game, GameOptions, Seat
from bot.records import ratings
from bot.records.ratings import GLOBAL
from bot.render import relative_time, variant_name
from bot.stages import Courier, Stage, stages_of
from bot.storage import ChannelBusy, Shards, Storage
from bot.storage.base import game_steps
from bot.storage.ladder import QueueEntry
from bot.storage.sql import Statement
from bot.timers import now
from cogs.common import CANNOT_POST, NOT_MINE, may_post_tables, private, refuse
from cogs.components import KasinoButton
from cogs.play.couriers import courier_for
from cogs.play.outbox import editable
from cogs.play.table import TableFlow

log = logging.getLogger(__name__)

Group = tuple[QueueEntry, ...]  # the people of one game, as the pairing seats them

PAIR_EVERY = 5.0  # seconds between a process's pairing rounds (the windows widen)
RECOUNT_MOST = 50  # waiting messages redrawn a round at most (Discord's global rate limit)
# The notice (Storage.listen/notify) that a ladder match was made: its payload is the
# game's id; the process running the home's shard keeps its clock.
GAME_NOTICE = "kasino_ladder_game"

NOT_HERE = N_(
    "The ladder needs a channel where the bot can post (a server that added it, or your DM"
    " with the bot): it pairs you while nobody clicks, and here nothing could tell you that"
    " your game has begun."
)
LADDER_OFF = N_("This server has turned the ladder off. Ask its admins, or queue elsewhere.")
PAUSED = N_("You left several ladder matches unfinished lately, so you can queue again {when}.")
NOT_A_LADDER_GAME = N_("{game} is not played on the ladder by {players} players.")
BUSY_HERE = N_("A game is already running in this channel: queue in another one.")
NOT_QUEUED = N_("You are not in the queue any more, so nothing changed.")


def pool_name(key: str, t: Lang) -> str:
    """A pool's game as people call it: ``Swedish Kasino``, ``Swedish Kasino (1 day a
    move)`` for a correspondence pool (bot.ladder.pool_key)."""
    variant, pace = pool_parts(key)
    name = variant_name(variant, t)
    if pace == LIVE:
        return name
    return t("{game} ({pace})", game=name, pace=t(PACE_NAMES.get(pace, pace)))


class LadderFlow:
    """The pool's commands, buttons and pairing rounds (see the module docstring)."""

    def __init__(
        self,
        bot: discord.Client,
        games: GameService,
        table: TableFlow,
        schedule: Callable[[Game], None],
    ) -> None:
        self.bot = bot
        self.games = games
        self.table = table
        self.schedule = schedule  # keeps a new match's clock (or tells its shard's process)
        self._task: asyncio.Task[None] | None = None
        self._counted: dict[tuple[str, int], int] = {}  # what the waiting messages say

    @property
    def storage(self) -> Storage:
        """The bot's database."""
        return self.games.storage

    # ---------------------------------------------------------------- queueing

    async def queue(self, interaction: discord.Interaction, variant: str, players: int) -> None:
        """Join the pool for a game here (replacing one's earlier entry) and answer with
        the waiting message; then try to pair."""
        if courier_for(interaction) is not Courier.CHANNEL:
            await refuse(interaction, NOT_HERE)
            return
        if interaction.guild_id and not may_post_tables(interaction):
            await refuse(interaction, CANNOT_POST)  # its table could not be posted here
            return
        user = interaction.user
        channel = interaction.channel_id or 0
        if await self.games.channel_game(channel) is not None:
            await refuse(interaction, BUSY_HERE)
            return
        # one rating a game, whatever its pace
        row, _place, _total = await self.storage.rating(GLOBAL, pool_parts(variant)[0], user.id)
        rating = float(ratings.points(row.mu)) if row is not None else float(ratings.START)
        locale = interaction.guild_locale
        entry = QueueEntry(
            user.id,
            variant,
            players,
            interaction.guild_id or 0,
            channel,
            Courier.CHANNEL.value,
            user.display_name,
            rating,
            now(),
            locale=locale.value if locale is not None else None,
        )
        joined = await self.storage.join_ladder(entry, entry.joined_at)
        if joined.refused is not None:
            await self._refused(interaction, joined.refused, entry, joined.paused_until)
            return
        t = self.table.languages.of_interaction(interaction)
        embed, view = await self.waiting_message(entry, t)
        await interaction.response.send_message(embed=embed, view=view)
        if joined.replaced is not None:
            await self._replaced(joined.replaced)
        message = await interaction.original_response()
        await self.storage.set_ladder_message(user.id, entry.joined_at, message.id)
        log.info("ladder: a person queued for %s (%d players)", variant, players)
        await self.pair(variant, players)
        self.start()  # the windows widen: later rounds may pair them

    async def _replaced(self, old: QueueEntry) -> None:
        """A person queued again: their earlier waiting message says it is over (where
        this process may edit it: their earlier place is in one of its servers)."""
        shards = self.bot_shards()
        if old.message_id is None or (shards is not None and not shards.owns(old.guild_id)):
            return
        if not editable(old.message_id):
            return  # an hour old: left as it is
        t = self.table.languages.server(old.guild_id, old.locale)
        said = t("{name} queued again: this wait is over.", name=old.name)
        channel = self.bot.get_partial_messageable(old.channel_id, guild_id=old.guild_id)
        with contextlib.suppress(discord.HTTPException):  # deleted meanwhile: nothing to say
            await channel.get_partial_message(old.message_id).edit(
                embed=discord.Embed(description=said), view=None
            )

    async def _refused(
        self, interaction: discord.Interaction, why: str, entry: QueueEntry, until: float | None
    ) -> None:
        if why == "off":
            await refuse(interaction, LADDER_OFF)
        elif why == "paused":
            await refuse(interaction, PAUSED, when=relative_time(until or 0))
        else:
            t = private(interaction)
            await refuse(
                interaction,
                NOT_A_LADDER_GAME,
                game=pool_name(entry.variant, t),
                players=entry.players,
            )

    async def waiting_message(
        self,
        entry: QueueEntry,
        t: Lang,
        *,
        computer: bool = False,
        counts: dict[tuple[str, int], int] | None = None,
    ) -> tuple[discord.Embed, discord.ui.View]:
        """The public waiting message of an entry: who waits for what, since when, the
        ratings they may meet now, how many wait for each game (never who), Leave; with
        ``computer``, the offer of a game with the hard computer meanwhile."""
        low, high = rating_range(entry.entry, now())
        embed = discord.Embed(
            title=t("🔎 Looking for an opponent"),
            description=t(
                "{name} waits for a game of {game} for {players} · rating {rating} (meets"
                " {low}–{high} now, wider the longer it waits) · queued {since}",
                name=entry.name,
                game=pool_name(entry.variant, t),
                players=entry.players,
                rating=int(entry.rating),
                low=int(low),
                high=int(high),
                since=relative_time(entry.joined_at),
            ),
        )
        if counts is None:
            counts = await self.storage.ladder_counts()
        waiting = [
            t("{game} for {players}: {count}", game=pool_name(v, t), players=p, count=n)
            for (v, p), n in sorted(counts.items())
        ]
        embed.add_field(name=t("Waiting now"), value="\n".join(waiting) or "—", inline=False)
        view = discord.ui.View(timeout=None)
        view.add_item(KasinoButton("ladder", "leave", entry.user_id, label=t("Leave the queue")))
        if computer:
            offer = KasinoButton(
                "ladder",
                "computer",
                entry.user_id,
                label=t("Play the hard computer meanwhile"),
                emoji="🤖",
            )
            view.add_item(offer)
        view.stop()
        return embed, view

    async def on_leave(self, interaction: discord.Interaction, user_id: int) -> None:
        """**Leave the queue** on a waiting message: its owner's only; leaving twice
        changes nothing."""
        if interaction.user.id != user_id:
            await refuse(interaction, NOT_MINE)
            return
        left = await self.storage.leave_ladder(user_id)
        if left is None:
            await refuse(interaction, NOT_QUEUED)
            return
        t = self.table.languages.of_interaction(interaction)
        embed = discord.Embed(description=t("{name} left the queue.", name=left.name))
        await interaction.response.edit_message(embed=embed, view=None)

    async def seated_elsewhere(self, user_id: int, game: Game) -> None:
        """A person took a seat in another game (a lobby of their own or someone's): their
        place in the queue goes, and their waiting message says why (queued with the
        game's next save, which the caller makes)."""
        left = await self.storage.leave_ladder(user_id)
        if left is None or left.message_id is None:
            return
        courier = Courier.parse(left.courier)
        stage = Stage(left.guild_id, left.channel_id, courier, locale=left.locale)
        t = self.table.lang(game, stage)
        embed = discord.Embed(
            description=t("{name} left the queue to play game #{id}.", name=left.name, id=game.id)
        )
        self.table.post(game, stage, embeds=[embed], edit=left.message_id)

    # ----------------------------------------------------------------- pairing

    async def load(self) -> None:
        """At start: pairing rounds, if anyone waits."""
        if await self.storage.ladder_counts():
            self.start()

    def start(self) -> None:
        """Run this process's pairing rounds while anyone waits (started by a queueing)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._rounds())

    async def close(self) -> None:
        """Stop the pairing rounds (the pool stays in the database)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _rounds(self) -> None:
        """Every :data:`PAIR_EVERY` seconds, pair what the wider windows allow now; ends
        once nobody waits (a queueing starts it again)."""
        while True:
            await timers.pause(PAIR_EVERY)
            try:
                counts = await self.storage.ladder_counts()
                if not counts:
                    return
                for variant, players in counts:
                    await self.pair(variant, players)
                await self._offer_computers()
                await self._recount(await self.storage.ladder_counts())
            except Exception:
                log.exception("ladder: a pairing round failed")

    async def _recount(self, counts: dict[tuple[str, int], int]) -> None:
        """The waiting messages of this process's servers say how many wait for each game
        now: redrawn when the counts changed since the last round (at most
        :data:`RECOUNT_MOST` a round, the longest waiting first)."""
        if counts == self._counted:
            return
        self._counted = counts
        shown = 0
        for entry in await self.storage.ladder_entries(self.bot_shards()):
            if entry.message_id is None or shown >= RECOUNT_MOST:
                continue
            if not editable(entry.message_id):
                continue  # an hour old: left as it is (its counts of then)
            shown += 1
            await self._redraw(entry, computer=entry.offered_at is not None, counts=counts)

    async def _redraw(
        self,
        entry: QueueEntry,
        *,
        computer: bool,
        counts: dict[tuple[str, int], int] | None = None,
    ) -> None:
        """Edit a waiting message of this process's servers to what it says now (a
        message deleted meanwhile stays deleted)."""
        if entry.message_id is None:
            return
        t = self.table.languages.server(entry.guild_id, entry.locale)
        embed, view = await self.waiting_message(entry, t, computer=computer, counts=counts)
        channel = self.bot.get_partial_messageable(entry.channel_id, guild_id=entry.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(entry.message_id).edit(embed=embed, view=view)

    async def _offer_computers(self) -> None:
        """Whoever of this process's servers has waited :data:`bot.ladder.OFFER_COMPUTER_AFTER`
        is offered, once, a game with the hard computer meanwhile (unrated; they keep their
        place in the queue): their waiting message gets the button."""
        moment = now()
        for entry in await self.storage.ladder_entries(self.bot_shards()):
            if entry.message_id is None or not computer_due(entry.entry, moment):
                continue
            if not await self.storage.offer_computer(entry.user_id, entry.joined_at, moment):
                continue  # offered already (here or by another process)
            await self._redraw(entry, computer=True)

    def bot_shards(self) -> Shards | None:
        """This process's shards (``None``: all)."""
        return self.games.config.shards

    async def on_computer(self, interaction: discord.Interaction, user_id: int) -> None:
        """**Play the hard computer meanwhile**: its owner's; a game here with the hard
        computer, dealt at once and unrated; their place in the queue is kept."""
        if interaction.user.id != user_id:
            await refuse(interaction, NOT_MINE)
            return
        entry = await self.storage.ladder_entry(user_id)
        if entry is None or entry.channel_id != interaction.channel_id:
            await refuse(interaction, NOT_QUEUED)
            return
        variant, pace = pool_parts(entry.variant)
        options = GameOptions(
            variant=variant,
            target=rules_for(variant).target,
            turn_seconds=self.games.config.turn_seconds,
            pace=pace,
        )
        seats = [Seat(user_id, entry.name), Seat.computer("hard", 1)]
        try:
            game = await self.games.open_table(
                entry.guild_id,
                entry.channel_id,
                seats,
                options,
                extra={"unrated": True},
                locale=entry.locale,
                seed=str(self.games.draw_seed()),
            )
        except ChannelBusy:
            await refuse(interaction, BUSY_HERE)
            return
        t = private(interaction)
        await interaction.response.send_message(
            t(
                "A game with the hard computer is dealt below (unrated). You keep your place"
                " in the queue: a ladder match found meanwhile is shown in its own message."
            ),
            ephemeral=True,
        )
        async with self.games.session(game.id) as game:
            assert game is not None
            self.table.announce(game, lambda t: t("The cards are dealt."))
            await self.games.save(game)
        self.schedule(game)

    async def pair(self, variant: str, players: int) -> None:
        """Seat whoever can be seated now in ``variant`` for ``players``: the pairing and
        the games it makes are one transaction (a process killed after it has both, or
        neither: nobody leaves the queue without their game); then each game's first
        tables are queued."""
        homes: dict[tuple[int, ...], int] = {}  # a group's people: its game's channel
        # the moment, taken here: the transaction's steps run off the event loop
        moment = now()

        def seat(busy: set[int], groups: list[Group]) -> tuple[list[Group], list[Statement]]:
            homes.clear()
            kept, steps = [], []
            for group in groups:
                game = self.match_of(group, busy, moment)
                if game is None:
                    continue  # every channel of theirs has a game: they wait on
                busy.add(game.channel_id)
                homes[_people(group)] = game.channel_id
                kept.append(group)
                steps += game_steps(game, moment)
            return kept, steps

        try:
            paired = await self.storage.pair(variant, players, moment, seat)
        except Exception:  # rolled back whole: nobody left the queue
            log.exception("ladder: a pairing failed; everyone waits on")
            return
        for group in paired:
            try:
                await self.started(group, homes[_people(group)])
            except Exception:
                log.exception("ladder: a match's first tables could not be queued")

    def match_of(self, group: Group, busy: set[int], at: float) -> Game | None:
        """The game of a group, dealt (not stored): shown in the first channel of theirs
        where no game runs (its home) and in each other channel one of them waits in;
        ``None`` when every one of them is busy."""
        home = next((e for e in group if e.channel_id not in busy), None)
        if home is None:
            return None
        (variant, pace), players = pool_parts(group[0].variant), group[0].players
        options = GameOptions(
            variant=variant,
            target=rules_for(variant).target,
            teams=players == 4 and variant != KRYPKASINO,
            turn_seconds=self.games.config.turn_seconds,
            pace=pace,
        )
        return self.games.dealt_table(
            home.guild_id,
            home.channel_id,
            [Seat(e.user_id, e.name) for e in group],
            options,
            extra={"ladder": True},
            locale=home.locale,
            seed=str(self.games.draw_seed()),
            mirrors=_mirrors(group, home),
            at=at,
        )

    async def started(self, group: Group, home: int) -> Game | None:
        """A group's game is stored: its first tables, and the waiting messages saying
        who they were paired with, are queued; its clock is kept. (A process killed
        before this posts its tables when it starts again, as for any game.)"""
        game_id = await self.games.channel_game(home)
        if game_id is None:
            return None
        async with self.games.session(game_id) as game:
            if game is None or not game.extra.get("ladder") or game.message_id:
                return None
            names = [f"{e.name} ({int(e.rating)})" for e in group]  # their ratings, never where
            self.table.announce(game, lambda t: t("Ladder match: the cards are dealt."))
            for entry in group:
                self._paired(game, entry, names)
            await self.games.save(game)
        log.info("ladder: game %s made for %s", game.id, game.options.variant)
        self.schedule(game)
        return game

    def _paired(self, game: Game, entry: QueueEntry, names: list[str]) -> None:
        """Queue the edit of an entry's waiting message: paired, with whom."""
        if entry.message_id is None:
            return
        stage = next(s for s in stages_of(game) if s.channel_id == entry.channel_id)
        t = self.table.lang(game, stage)
        embed = discord.Embed(
            description=t(
                "✅ Paired: {names}. Game #{id}'s table is below.",
                names=t.listing(names),
                id=game.id,
            )
        )
        self.table.post(game, stage, embeds=[embed], edit=entry.message_id)


def _mirrors(group: tuple[QueueEntry, ...], home: QueueEntry) -> list[Stage]:
    """The group's channels other than ``home``'s, each with the seats waiting there."""
    places: dict[int, list[int]] = {}
    first: dict[int, QueueEntry] = {}
    for seat, entry in enumerate(group):
        if entry.channel_id == home.channel_id:
            continue
        places.setdefault(entry.channel_id, []).append(seat)
        first.setdefault(entry.channel_id, entry)
    return [
        Stage(
            first[channel].guild_id,
            channel,
            Courier.parse(first[channel].courier),
            tuple(seats),
            first[channel].locale,
        )
        for channel, seats in places.items()
    ]


def _people(group: Group) -> tuple[int, ...]:
    return tuple(entry.user_id for entry in group)
