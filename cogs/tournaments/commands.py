"""``/kasino tournament …``: a server's tournament from sign-up to podium (issue 33).

The flow of the commands and the sign-up's buttons. Who may do what:

* ``new`` needs Manage Server, or a role named ``Tournament organiser`` (any case): the
  one who opens it is its organiser. One open tournament per channel.
* Players press **Join** / **Leave** on the sign-up (until it starts, within the cap).
* The organiser (or anyone with Manage Server) presses **Start** / **Cancel**, and uses
  ``start``, ``add`` (Swiss only, while it runs: paired from the next round), ``drop``
  (a member), ``pause``, ``resume`` and ``end``; anyone may ``drop`` themselves and see
  the ``standings``.

The rounds themselves, their threads and games, results, deadlines and the podium are the
round runner's (:mod:`cogs.tournaments.rounds`); what the messages look like is
:mod:`bot.tournaments.embed`'s.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import replace
from typing import TYPE_CHECKING

import discord

from bot.check_text import tournament_check_text
from bot.i18n import N_, Lang
from bot.storage.tournaments import ChannelHasTournament, StaleTournament, TournamentRow
from bot.timers import now
from bot.tournaments import deals as tournament_deals
from bot.tournaments.model import Entrant, Format, Phase, Settings
from bot.tournaments.pairing import total_rounds
from bot.tournaments.settings import settings_problem
from cogs.common import NOT_MINE, cut_told, private, refuse, tell
from cogs.custom_ids import Click
from cogs.places import NO_TOURNAMENTS_HERE, bot_in_server
from cogs.tournaments.rounds import RoundRunner

if TYPE_CHECKING:
    from cogs.settings.languages import Languages

log = logging.getLogger(__name__)

ORGANISER_ROLE = "tournament organiser"  # a role of this name (any case) may open one
NO_TOURNAMENT = N_("There is no open tournament in this channel.")
NOT_ORGANISER = N_("Only the organiser or someone with Manage Server can do that.")
NO_THREADS_HERE = N_(
    "Each table of a tournament is a thread under its channel, and I need the **Create"
    " Public Threads** and **Send Messages in Threads** permissions in this one. Ask an"
    " admin to give them to me here, or open the tournament in another channel."
)
CLOSED = N_("The sign-up is closed: the tournament has already started.")
# what became of it, said as it is (a cancelled one never started)
CLOSED_BECAUSE = {
    Phase.CANCELLED: N_("The sign-up is closed: the tournament was cancelled."),
    Phase.FINISHED: N_("The sign-up is closed: the tournament is over."),
}


def may_organise(interaction: discord.Interaction) -> bool:
    """Manage Server, or the organisers' role."""
    if interaction.permissions.manage_guild:
        return True
    roles = getattr(interaction.user, "roles", ())
    return any(role.name.casefold() == ORGANISER_ROLE for role in roles)


def may_run(interaction: discord.Interaction, row: TournamentRow) -> bool:
    """The tournament's organiser, or anyone with Manage Server."""
    return interaction.user.id == row.organiser_id or interaction.permissions.manage_guild


class TournamentFlow:
    """The commands and the sign-up buttons of tournaments (owned by the Kasino cog)."""

    def __init__(self, runner: RoundRunner, languages: Languages) -> None:
        self.runner = runner
        self.storage = runner.storage
        self.languages = languages
        runner.on_start_time = self.start_on_time

    def public(self, row: TournamentRow) -> Lang:
        """The language of the tournament's public messages (its server's)."""
        return self.languages.server(row.guild_id)

    # ------------------------------------------------------------------- new

    async def new(
        self,
        interaction: discord.Interaction,
        settings: Settings,
        name: str,
        start_minutes: int | None,
    ) -> None:
        """Open a tournament's sign-up in this channel."""
        t = private(interaction)
        if not bot_in_server(interaction):  # threads are the server's: refused there
            await refuse(interaction, NO_TOURNAMENTS_HERE)
            return
        if not may_organise(interaction):
            await refuse(interaction, "Only someone with Manage Server or the role"
                         " “Tournament organiser” can open a tournament.")  # fmt: skip
            return
        if isinstance(interaction.channel, discord.Thread):
            await refuse(interaction, "Open a tournament in a text channel, not in a thread.")
            return
        permissions = interaction.app_permissions
        if not (permissions.create_public_threads and permissions.send_messages_in_threads):
            await refuse(interaction, NO_THREADS_HERE)
            return
        problem = settings_problem(settings, None, t)
        if problem:
            await tell(interaction, problem)
            return
        channel_id = interaction.channel_id or 0
        if await self.storage.channel_tournament(channel_id) is not None:
            await refuse(interaction, "A tournament is already open in this channel.")
            return
        locale = interaction.guild_locale
        at = now()
        row = TournamentRow(
            id=0,
            guild_id=interaction.guild_id or 0,
            channel_id=channel_id,
            organiser_id=interaction.user.id,
            name=name.strip()[:80] or "Kasino",
            settings=settings,
            phase=Phase.SIGNUP,
            round=0,
            seed=secrets.token_hex(16),
            message_id=None,
            deadline=at + start_minutes * 60 if start_minutes else None,
            created_at=at,
            finished_at=None,
            version=0,
            extra={"locale": locale.value} if locale is not None else {},
            entrants=[],
            tables=[],
        )
        # the tables' deals come from a seed drawn now and committed to on the sign-up
        tournament_deals.draw(row.extra)
        try:
            row = await self.storage.create_tournament(row, at)
        except ChannelHasTournament:
            await refuse(interaction, "A tournament is already open in this channel.")
            return
        embed, view = self.runner.posts.signup_message(row)
        await interaction.response.send_message(
            embed=embed, view=view, allowed_mentions=discord.AllowedMentions.none()
        )
        message = await interaction.original_response()
        async with self.runner.session(row.id) as row:
            if row is not None:
                row.message_id = message.id
                await self.runner.save(row)
        log.info("tournament %s: sign-up opened in channel %s", row and row.id, channel_id)

    # --------------------------------------------------------------- buttons

    async def on_button(self, interaction: discord.Interaction, click: Click) -> None:
        """Join, Leave (players); Start, Cancel (the organiser). Only on the tournament's
        own sign-up message, in its channel. How to check: anyone, on the sign-up or the
        podium, at any phase (it changes nothing)."""
        if click.action == "check":
            await self.how_to_check(interaction, click.game)
            return
        async with self.runner.session(click.game) as row:
            if row is None or not _on_its_signup(interaction, row):
                await refuse(interaction, NOT_MINE)
                return
            if click.action in ("start", "cancel") and not may_run(interaction, row):
                await refuse(interaction, NOT_ORGANISER)
                return
            if row.phase is not Phase.SIGNUP:
                await refuse(interaction, CLOSED_BECAUSE.get(row.phase, CLOSED))
                return
            if click.action == "join":
                if not await self.join(interaction, row):
                    return
            elif click.action == "leave":
                if not await self.storage.remove_entrant(row.id, interaction.user.id):
                    await refuse(interaction, "You are not signed up for this tournament.")
                    return
                if tournament_deals.drop_cut(row.extra, interaction.user.id):
                    await self.runner.save(row)  # a cut is an entrant's: kept by id
            elif click.action == "cancel":
                row.phase = Phase.CANCELLED
                row.deadline = None
                await self.runner.save(row)
            elif not await self.begin(interaction, row):
                return
            row = await self.storage.get_tournament(row.id) or row
            embed, view = self.runner.posts.signup_message(row)
            await interaction.response.edit_message(embed=embed, view=view)
            if click.action == "join":
                await self.send_commitment(interaction, row)
        if row.phase is Phase.RUNNING:
            await self.runner.advance(row.id)

    async def how_to_check(self, interaction: discord.Interaction, tournament_id: int) -> None:
        """The tournament's How to check, privately: its seed's commitment and, once the
        tournament is over, the seed (as its tables' exports then reveal it)."""
        row = await self.storage.get_tournament(tournament_id)
        committed = None if row is None else tournament_deals.commitment(row.id, row.extra)
        if row is None or committed is None or not _on_its_messages(interaction, row):
            await refuse(interaction, NOT_MINE)
            return
        seed = None if row.phase.open else tournament_deals.deal_seed(row.extra)
        text = tournament_check_text(row.id, committed, seed, private(interaction))
        await interaction.response.send_message(text, ephemeral=True)

    async def send_commitment(self, interaction: discord.Interaction, row: TournamentRow) -> None:
        """Tell an entrant privately the commitment to the tournament's deal seed (the
        sign-up message is edited at every join: a later change there would not show)."""
        committed = tournament_deals.commitment(row.id, row.extra)
        if committed is None:
            return
        t = private(interaction)
        text = t(
            "You are signed up. The tournament's deals come from a seed committed to now:"
            " `{commitment}`. Note it: after a game, `python -m bot verify kasino-<game>.json"
            " --seed {commitment}` checks the table's deals came from it. You may also cut the deck"
            " on the sign-up message.",
            commitment=committed[:32],
        )
        await interaction.followup.send(text, ephemeral=True)

    async def on_cut(self, interaction: discord.Interaction, click: Click) -> None:
        """An entrant cuts the deck at sign-up (once): every table they play at is cut
        with it too."""
        async with self.runner.session(click.game) as row:
            if row is None or not _on_its_signup(interaction, row):
                await refuse(interaction, NOT_MINE)
                return
            if row.phase is not Phase.SIGNUP:
                await refuse(interaction, CLOSED)
                return
            user = interaction.user.id
            if row.entrant(user) is None:
                await refuse(interaction, "Only a player signed up can cut the deck: join first.")
                return
            made = tournament_deals.cut_of(row.extra, user)
            if made is not None:
                await refuse(interaction, "You have already cut the deck (at {number}).",
                             number=made)  # fmt: skip
                return
            number = click.numbers[0]
            tournament_deals.add_cut(row.extra, user, number)
            await self.runner.save(row)
            embed, view = self.runner.posts.signup_message(row)
            await interaction.response.edit_message(embed=embed, view=view)
            committed = tournament_deals.commitment(row.id, row.extra) or ""
        text = cut_told(number, committed[:32], private(interaction))
        await interaction.followup.send(text, ephemeral=True)

    async def join(self, interaction: discord.Interaction, row: TournamentRow) -> bool:
        """Sign the clicker up (within the cap, once)."""
        if len(row.entrants) >= row.settings.cap:
            await refuse(interaction, "The tournament is full ({cap} players).",
                         cap=row.settings.cap)  # fmt: skip
            return False
        user = interaction.user
        if row.entrant(user.id) is not None:
            await refuse(interaction, "You are already signed up for this tournament.")
            return False
        entrant = Entrant(user.id, user.display_name)
        if not await self.storage.add_entrant(row.id, entrant, now(), cap=row.settings.cap):
            await refuse(interaction, "The tournament is full ({cap} players).",
                         cap=row.settings.cap)  # fmt: skip
            return False
        return True

    async def begin(self, interaction: discord.Interaction | None, row: TournamentRow) -> bool:
        """Close the sign-up and start (inside the session): enough players for the
        settings; their ratings now seed a knockout. Refused in words otherwise."""
        t = private(interaction) if interaction is not None else self.public(row)
        problem = settings_problem(row.settings, len(row.entrants), t)
        if len(row.entrants) < 2:
            problem = t("At least 2 players are needed to start.")
        if problem:
            if interaction is not None:
                await tell(interaction, problem)
            return False
        variant = row.settings.game.variant
        rated = []
        for entrant in row.entrants:
            found, _, _ = await self.storage.rating(row.guild_id, variant, entrant.user_id)
            rated.append(replace(entrant, rating=found.mu if found is not None else 0.0))
        row.extra["rounds"] = total_rounds(row.settings, len(row.entrants))
        row.phase = Phase.RUNNING
        row.deadline = None
        await self.runner.save(row, entrants=rated)
        log.info("tournament %s: started with %d players", row.id, len(row.entrants))
        return True

    async def start_on_time(self, tournament_id: int) -> None:
        """The start time has come: start, or cancel when too few signed up."""
        async with self.runner.session(tournament_id) as row:
            if row is None or row.phase is not Phase.SIGNUP:
                return
            if not await self.begin(None, row):
                row.phase = Phase.CANCELLED
                row.deadline = None
                await self.runner.save(row)
        await self.runner.posts.show_signup(row)
        if row.phase is Phase.RUNNING:
            await self.runner.advance(tournament_id)

    # -------------------------------------------------------------- commands

    async def command(self, interaction: discord.Interaction, action: str,
                      member: discord.abc.User | None = None) -> None:  # fmt: skip
        """``start``, ``drop``, ``add``, ``pause``, ``resume``, ``end``, ``standings`` on
        this channel's open tournament (or, in a table's thread, its parent's)."""
        if not bot_in_server(interaction):  # none can be open here: said why
            await refuse(interaction, NO_TOURNAMENTS_HERE)
            return
        channel = interaction.channel
        channel_id = interaction.channel_id or 0
        if isinstance(channel, discord.Thread) and channel.parent_id:
            channel_id = channel.parent_id
        tournament_id = await self.storage.channel_tournament(channel_id)
        if tournament_id is None:
            await refuse(interaction, NO_TOURNAMENT)
            return
        advance = False
        async with self.runner.session(tournament_id) as row:
            if row is None or not row.phase.open:
                await refuse(interaction, NO_TOURNAMENT)
                return
            if action == "standings":
                await self.show_standings(interaction, row)
                return
            if action == "drop" and (member is None or member.id == interaction.user.id):
                advance = await self.drop(interaction, row, interaction.user.id)
            elif not may_run(interaction, row):
                await refuse(interaction, NOT_ORGANISER)
                return
            else:
                try:
                    advance = await self.organise(interaction, row, action, member)
                except StaleTournament:
                    await refuse(interaction, "The tournament changed meanwhile; try again.")
                    return
        if advance:
            await self.runner.advance(tournament_id)

    async def organise(
        self,
        interaction: discord.Interaction,
        row: TournamentRow,
        action: str,
        member: discord.abc.User | None,
    ) -> bool:
        """The organiser's commands (inside the session); ``True``: the tournament may
        move on now."""
        t = private(interaction)
        if action == "drop" and member is not None:
            return await self.drop(interaction, row, member.id)
        if action == "add":
            return await self.add(interaction, row, member)
        if action == "start":
            if row.phase is not Phase.SIGNUP:
                await refuse(interaction, "The tournament has already started.")
                return False
            if not await self.begin(interaction, row):
                return False
            await tell(interaction, t("The tournament has started: round 1 is being paired."))
            await self.runner.posts.show_signup(row)
            return True
        if action == "pause":
            if row.phase is not Phase.RUNNING:
                await refuse(interaction, "Only a running tournament can be paused.")
                return False
            row.phase = Phase.PAUSED
            await self.runner.save(row)
            await self.say(interaction, row, N_("⏸️ The tournament is paused: no new round"
                                                " starts until it is resumed."))  # fmt: skip
            return False
        if action == "resume":
            if row.phase is not Phase.PAUSED:
                await refuse(interaction, "The tournament is not paused.")
                return False
            row.phase = Phase.RUNNING
            await self.runner.save(row)
            await self.say(interaction, row, N_("▶️ The tournament goes on."))
            return True
        # end
        await interaction.response.defer(ephemeral=True)
        if row.phase is Phase.SIGNUP or not any(tr.result for tr in row.tables):
            await self.runner.stop_games(row)
            row = await self.storage.get_tournament(row.id) or row
            row.phase = Phase.CANCELLED
            row.deadline = None
            await self.runner.save(row)
            await self.runner.posts.show_signup(row)
            await interaction.followup.send(t("The tournament is cancelled."), ephemeral=True)
            return False
        await self.runner.stop_games(row)
        row = await self.storage.get_tournament(row.id) or row
        await self.runner.finish(row)
        await interaction.followup.send(t("The tournament is over: the podium is posted."),
                                        ephemeral=True)  # fmt: skip
        return False

    async def say(
        self, interaction: discord.Interaction, row: TournamentRow, text: str, **fields: object
    ) -> None:
        """A public answer in the tournament's language (``text``: a catalogue message)."""
        await interaction.response.send_message(
            self.public(row)(text, **fields), allowed_mentions=discord.AllowedMentions.none()
        )

    async def drop(
        self, interaction: discord.Interaction, row: TournamentRow, user_id: int
    ) -> bool:
        """A player leaves (themselves, or dropped by the organiser): before the start they
        are taken off the list; after it they are paired no more, and the table they sit
        at ends at once, decided against them. ``True``: the tournament may move on (that
        table may have been the round's last)."""
        if user_id != interaction.user.id and not may_run(interaction, row):
            await refuse(interaction, NOT_ORGANISER)
            return False
        entrant = next((e for e in row.entrants if e.user_id == user_id), None)
        if entrant is None or not entrant.active:
            await refuse(interaction, "That player is not playing in this tournament.")
            return False
        ended = False
        if row.phase is Phase.SIGNUP:
            await self.storage.remove_entrant(row.id, user_id)
            await self.runner.posts.show_signup(await self.storage.get_tournament(row.id) or row)
        else:
            await self.storage.drop_entrant(row.id, user_id, row.round)
            # answered first (within Discord's three seconds), then the table is ended
            await self.say(interaction, row, N_("{name} has left the tournament."),
                           name=entrant.name)  # fmt: skip
            log.info("tournament %s: an entrant dropped", row.id)  # never who
            dropped = await self.storage.get_tournament(row.id)
            if dropped is not None:
                ended = await self.runner.end_dropped(dropped, user_id)
            return ended
        await self.say(interaction, row, N_("{name} has left the tournament."), name=entrant.name)
        log.info("tournament %s: an entrant dropped", row.id)  # never who: logs name no one
        return ended

    async def add(
        self, interaction: discord.Interaction, row: TournamentRow, member: discord.abc.User | None
    ) -> bool:
        """The organiser adds a player to a running Swiss (paired from the next round)."""
        if member is None:
            await refuse(interaction, "Name the member to add.")
            return False
        if row.phase is Phase.SIGNUP:
            await refuse(interaction, "During the sign-up players join with the Join button.")
            return False
        if row.settings.format is not Format.SWISS:
            await refuse(interaction, "Players can be added only to a Swiss tournament.")
            return False
        if len(row.entrants) >= row.settings.cap:
            await refuse(interaction, "The tournament is full ({cap} players).",
                         cap=row.settings.cap)  # fmt: skip
            return False
        if row.entrant(member.id) is not None:
            await refuse(interaction, "That member is already in this tournament.")
            return False
        entrant = Entrant(member.id, member.display_name)
        if not await self.storage.add_entrant(row.id, entrant, now(), cap=row.settings.cap):
            await refuse(interaction, "The tournament is full ({cap} players).",
                         cap=row.settings.cap)  # fmt: skip
            return False
        t = self.public(row)
        await interaction.response.send_message(
            t("{mention} joins the tournament from the next round.", mention=member.mention),
            allowed_mentions=discord.AllowedMentions(users=[member]),
        )
        return False

    async def show_standings(self, interaction: discord.Interaction, row: TournamentRow) -> None:
        """The standings now, privately."""
        embed = self.runner.posts.standings_message(row, private(interaction))
        await interaction.response.send_message(embed=embed, ephemeral=True)


def _on_its_messages(interaction: discord.Interaction, row: TournamentRow) -> bool:
    """Whether a click came from the tournament's sign-up or podium, in its channel."""
    message = interaction.message
    podium = row.extra.get("podium_id")
    return (
        row.guild_id == interaction.guild_id
        and row.channel_id == interaction.channel_id
        and message is not None
        and message.id in (row.message_id, podium)
    )


def _on_its_signup(interaction: discord.Interaction, row: TournamentRow) -> bool:
    """Whether a click came from the tournament's own sign-up message, in its channel
    (a forged or copied custom_id elsewhere changes nothing)."""
    message = interaction.message
    return (
        row.guild_id == interaction.guild_id
        and row.channel_id == interaction.channel_id
        and message is not None
        and row.message_id == message.id
    )
