"""``/kasino profile`` and ``/kasino versus``: read from storage, answered privately with a
"Show in channel" button that only the one who asked may press."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Sequence

import discord

from bot.i18n import N_, Lang
from bot.models import LOWEST_WINS, VARIANT_NAMES
from bot.puzzles.streak import puzzle_streak
from bot.records import ratings
from bot.records.chart import CHART_FILE, rating_chart
from bot.records.profile import LAST_RESULTS, Placed, Profile, Tally, profile_embed, versus_embed
from bot.storage import Storage
from bot.storage.records import RatingRow, ResultLine
from bot.tournaments.board import LAST_TOURNAMENTS
from cogs.common import NOT_MINE, refuse
from cogs.components import kasino_ids
from cogs.custom_ids import ShowCard
from cogs.places import RecordPlace, answers_forced_private
from cogs.play.views import show_view

DEFAULT_VARIANT = "swedish"
NOT_YOURS = N_("Only the person who asked for this view can show it in the channel.")


class ProfileFlow:
    """Profiles and head-to-heads."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.clock = time.time  # the puzzle streak's day (tests set another clock)

    async def profile(
        self,
        guild_id: int,
        user_id: int,
        name: str,
        variant: str | None,
        channel_id: int | None = None,
    ) -> Profile:
        """Everything a profile shows, for a person in a server (``variant``: of that game
        alone; else all games, with the rating of the favourite one). Outside servers
        (``channel_id``: the conversation) its last results are this conversation's: they
        name the other players, whom another conversation does not know."""
        storage = self.storage
        per = await storage.player_totals(guild_id, user_id)
        counts: dict[str, int] = {}
        for (key, _), totals in per.items():
            counts[key] = counts.get(key, 0) + totals.matches
        favourite = max(
            counts.items(), key=lambda kv: (kv[1], kv[0] == DEFAULT_VARIANT), default=None
        )
        shown = variant or (favourite[0] if favourite else DEFAULT_VARIANT)
        people, computers = Tally(), Tally()
        for (key, vs), totals in per.items():
            if variant is not None and key != variant:
                continue
            tally = computers if vs else people
            # penalty points (Krypkasino) are kept apart from the points of other games
            tally.add(key, totals, penalties=key in LOWEST_WINS)
        # outside servers (guild 0) the profile's ratings are the global ones, ranked there
        on_global = guild_id == ratings.GLOBAL
        rating = Placed(*await storage.rating(guild_id, shown, user_id), on_global)
        computer_rating = Placed(
            *await storage.rating(guild_id, shown, user_id, computers=True), on_global
        )
        everywhere, computer_everywhere = Placed(), Placed()
        if guild_id != ratings.GLOBAL:  # a server's profile: its global ratings beside
            everywhere = Placed(*await storage.rating(ratings.GLOBAL, shown, user_id))
            computer_everywhere = Placed(
                *await storage.rating(ratings.GLOBAL, shown, user_id, computers=True)
            )
        longest, current = await storage.player_streaks(guild_id, user_id, variant)
        return Profile(
            user_id=user_id,
            name=name,
            variant=shown,
            chosen=variant is not None,
            people=people,
            computers=computers,
            rating=rating,
            computer_rating=computer_rating,
            everywhere=everywhere,
            computer_everywhere=computer_everywhere,
            favourite=favourite,
            longest=longest,
            current=current,
            last=await storage.player_results(
                guild_id, user_id, variant, LAST_RESULTS, channel_id=channel_id
            ),
            history=await self._history(guild_id, shown, user_id, rating.row is None),
            puzzle_streak=await puzzle_streak(storage, guild_id, user_id, self.clock()),
            tournaments=await storage.player_tournaments(
                guild_id, user_id, LAST_TOURNAMENTS, variant=variant
            ),
        )

    async def _history(
        self, guild_id: int, variant: str, user_id: int, computers: bool
    ) -> list[tuple[float, float, float, float]]:
        """The rating changes the picture shows: of the board the headline shows (people's,
        else, for a player who has only played computers, the computers')."""
        return await self.storage.rating_history(guild_id, variant, user_id, computers=computers)

    async def profile_message(
        self,
        place: RecordPlace,
        user_id: int,
        name: str,
        variant: str | None,
        t: Lang,
    ) -> tuple[discord.Embed, list[discord.File]]:
        """The profile's embed and its picture (none before two rated matches)."""
        guild_id = place.guild_id
        profile = await self.profile(guild_id, user_id, name, variant, place.channel_id)
        seats = {user_id}
        for line in profile.last:
            lineup = ratings.Lineup.loads(line.lineup)
            if lineup is not None:
                seats.update(lineup.people)
        names = await self.storage.recent_names(guild_id, seats)
        embed = profile_embed(profile, names, t)
        files = []
        if profile.history:
            # drawing and compressing the picture takes ~10 ms: off the event loop
            row = profile.charted.row
            first = (row.matches if row is not None else 0) - len(profile.history) + 1
            chart = await asyncio.to_thread(rating_chart, profile.history, max(first, 1), t)
            files.append(discord.File(io.BytesIO(chart), filename=CHART_FILE))
        return embed, files

    async def versus_message(
        self, guild_id: int, one: int, other: int, names: dict[int, str], t: Lang
    ) -> discord.Embed:
        """Two people's head-to-head."""
        meetings = await self.storage.meetings(guild_id, one, other)
        known = await self.storage.recent_names(guild_id, (one, other))
        rated = [
            (key, await self._people_rating(guild_id, key, one),
             await self._people_rating(guild_id, key, other))
            for key in versus_variants(meetings)
        ]  # fmt: skip
        return versus_embed(one, other, meetings, {**names, **known}, t, rated)

    async def _people_rating(self, guild_id: int, variant: str, user_id: int) -> RatingRow | None:
        row, _, _ = await self.storage.rating(guild_id, variant, user_id)
        return row

    # ----------------------------------------------------------- commands

    async def on_profile(
        self,
        interaction: discord.Interaction,
        member: discord.abc.User | None,
        variant: str | None,
        t: Lang,
    ) -> None:
        """``/kasino profile``: privately, with the button to show it."""
        who = member or interaction.user
        embed, files = await self.profile_message(
            RecordPlace.of(interaction), who.id, who.display_name, variant, t
        )
        view = shown_in_channel(interaction, "profile", who.id, variant, t)
        await interaction.response.send_message(embed=embed, files=files, view=view, ephemeral=True)

    async def on_versus(
        self, interaction: discord.Interaction, member: discord.abc.User, t: Lang
    ) -> None:
        """``/kasino versus``: privately, with the button to show it."""
        me = interaction.user
        if member.id == me.id or member.bot:
            await refuse(interaction, "Choose another person to compare yourself with.")
            return
        names = {me.id: me.display_name, member.id: member.display_name}
        embed = await self.versus_message(interaction.guild_id or 0, me.id, member.id, names, t)
        view = shown_in_channel(interaction, "versus", member.id, None, t)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    async def on_show(self, interaction: discord.Interaction, show: ShowCard, public: Lang) -> None:
        """ "Show in channel": the same view, public and fresh, without the button. Only on
        the asker's own private message, pressed by the asker."""
        message = interaction.message
        ephemeral = message is not None and message.flags.ephemeral
        if not ephemeral or any(not c.startswith("k:show:") for c in kasino_ids(message)):
            await refuse(interaction, NOT_MINE)
            return
        if show.viewer != interaction.user.id:
            await refuse(interaction, NOT_YOURS)
            return
        guild = interaction.guild_id or 0
        if show.variant is not None and show.variant not in VARIANT_NAMES:
            await refuse(interaction, NOT_MINE)
            return
        if show.kind == "profile":
            names = await self.storage.recent_names(guild, [show.subject])
            name = names.get(show.subject) or _member_name(interaction, show.subject)
            embed, files = await self.profile_message(
                RecordPlace.of(interaction), show.subject, name, show.variant, public
            )
            await interaction.response.send_message(
                embed=embed, files=files, allowed_mentions=discord.AllowedMentions.none()
            )
            return
        names = {
            show.viewer: interaction.user.display_name,
            show.subject: _member_name(interaction, show.subject),
        }
        embed = await self.versus_message(guild, show.viewer, show.subject, names, public)
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none()
        )


def shown_in_channel(
    interaction: discord.Interaction, kind: str, subject: int, variant: str | None, t: Lang
) -> discord.ui.View:
    """The "Show in channel" button of a private view; none where Discord makes every
    answer private (a server without the bot and Use External Apps off): it would show
    the view to no one else."""
    if answers_forced_private(interaction):
        return discord.ui.View(timeout=None)
    return show_view(kind, interaction.user.id, subject, variant, t)


def _member_name(interaction: discord.Interaction, user_id: int) -> str:
    guild = interaction.guild
    member = guild.get_member(user_id) if guild is not None else None
    return member.display_name if member is not None else f"<@{user_id}>"


def versus_variants(
    meetings: Sequence[tuple[ResultLine, ResultLine, bool]], most: int = 3
) -> list[str]:
    """The games whose ratings a head-to-head shows: those the two played together,
    the latest first (at most ``most``), else the default game."""
    found: list[str] = []
    for mine, _, _ in meetings:
        if mine.variant not in found:
            found.append(mine.variant)
    return found[:most] or [DEFAULT_VARIANT]
