"""``/kasino settings`` and ``/kasino vacation``: how a person is told of their turn in
correspondence games, their time zone, quiet hours and digest hour, and their vacation
days (the rules: :mod:`bot.correspondence`). Everything is answered privately, in every
place; a bad value is refused with a friendly answer and changes nothing.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord
from discord import app_commands

from bot.correspondence import (
    DIGEST,
    DM,
    MENTION,
    NONE,
    VACATION_DAYS,
    NoticePrefs,
    away_at,
    end_vacation,
    take_vacation,
    vacation_left,
    valid_zone,
)
from bot.correspondence.prefs import VacationRefused, all_zones, zone
from bot.correspondence.quiet import next_digest
from bot.i18n import N_, Lang, code_of
from bot.render import TABLE_COLOUR
from bot.timers import now
from bot.translator import command_name, option_name
from cogs.common import private, refuse, tell
from cogs.correspondence.notifier import Notifier
from cogs.correspondence.prefs import Prefs

log = logging.getLogger(__name__)

OnAway = Callable[[int, float], Awaitable[None] | None]
HOW_NAMES = {
    MENTION: N_("A mention in the game's channel"),
    DM: N_("A direct message from the bot"),
    DIGEST: N_("One daily digest of the games waiting for you"),
    NONE: N_("Nothing"),
}
HOW_CHOICES = [
    app_commands.Choice(name=N_("Mention me in the game's channel"), value=MENTION),
    app_commands.Choice(name=N_("Send me a direct message"), value=DM),
    app_commands.Choice(name=N_("A daily digest by direct message"), value=DIGEST),
    app_commands.Choice(name=N_("Nothing"), value=NONE),
]
DMS_CLOSED = N_(
    "Discord refused the bot's direct message to you (your DMs are closed to it), so your"
    " notices come as mentions until you open your DMs and choose DM again."
)
MOST_ZONES = 25  # Discord's limit of autocomplete choices


@dataclass(frozen=True)
class Asked:
    """What a person asked ``/kasino settings`` to change (``None``: left as it is)."""

    how: str | None = None
    zone: str | None = None
    quiet_from: int | None = None
    quiet_until: int | None = None
    quiet_off: bool = False
    digest_hour: int | None = None

    @property
    def changes(self) -> bool:
        """Whether anything is to change."""
        return self != Asked()


def hour_text(hour: int) -> str:
    """A local hour as people read it (``07:00``)."""
    return f"{hour:02d}:00"


def stamp(at: float, style: str = "f") -> str:
    """A moment as a Discord timestamp (each reader sees it in their own zone)."""
    return f"<t:{int(at)}:{style}>"


def end_command(t: Lang) -> str:
    """``/kasino vacation days:0`` as the reader's client writes it."""
    return f"{command_name(t, 'vacation')} {option_name(t, 'days')}:0"


def zone_choices(typed: str) -> list[app_commands.Choice[str]]:
    """The zones matching what was typed (those that start with it first), at most 25."""
    wanted = typed.strip().casefold().replace(" ", "_")
    zones = all_zones()
    starts = [z for z in zones if z.casefold().startswith(wanted)]
    inside = [z for z in zones if wanted in z.casefold() and z not in starts]
    found = (starts + inside)[:MOST_ZONES]
    return [app_commands.Choice(name=z, value=z) for z in found]


class SettingsFlow:
    """The two commands' flow (the module docstring)."""

    def __init__(self, prefs: Prefs, notifier: Notifier, on_away: OnAway | None = None) -> None:
        self.prefs = prefs
        self.notifier = notifier
        self.on_away: OnAway = on_away or (lambda user_id, shift: None)

    # ------------------------------------------------------------------ settings

    async def settings(self, interaction: discord.Interaction, asked: Asked) -> None:
        """Show the person's settings, after changing what they asked (if it may be)."""
        t = private(interaction)
        user_id = interaction.user.id
        current = self.prefs.of(user_id)
        said = ""
        if asked.changes:
            changed = await self._changed(interaction, current, asked)
            if changed is None:
                return  # refused, said
            if changed.how == DM and current.dm_refused:
                changed = changed.replace(dm_refused=False)  # they chose a DM again
            changed = changed.replace(locale=code_of(interaction.locale))
            await self.prefs.save(user_id, changed)
            said = t("Saved.")
            if changed.how in (DM, DIGEST) and (current.how != changed.how or current.dm_refused):
                said += " " + await self._try_dm(user_id, changed, t)
            log.info("notice settings changed")
        embed = self.embed(self.prefs.of(user_id), t)
        if interaction.response.is_done():
            await interaction.followup.send(said or None, embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(said or None, embed=embed, ephemeral=True)

    async def _changed(
        self, interaction: discord.Interaction, current: NoticePrefs, asked: Asked
    ) -> NoticePrefs | None:
        """The settings with what was asked, or ``None`` (refused, and said why)."""
        changed = current
        if asked.zone is not None:
            name = valid_zone(asked.zone)
            if name is None:
                await refuse(
                    interaction,
                    "I do not know the time zone “{zone}”. Choose one from the list as you"
                    " type (such as Europe/Stockholm or America/New_York). Nothing changed.",
                    zone=asked.zone[:60],
                )
                return None
            changed = changed.replace(tz=name)
        if asked.quiet_off and (asked.quiet_from is not None or asked.quiet_until is not None):
            await refuse(
                interaction,
                "Turn quiet hours off, or set them, not both at once. Nothing changed.",
            )
            return None
        if asked.quiet_off:
            changed = changed.replace(quiet_start=None, quiet_end=None)
        elif asked.quiet_from is not None or asked.quiet_until is not None:
            start = asked.quiet_from if asked.quiet_from is not None else current.quiet_start
            end = asked.quiet_until if asked.quiet_until is not None else current.quiet_end
            if start is None or end is None:
                await refuse(
                    interaction,
                    "Quiet hours need both ends: give {start} and {end} (for example 22 and"
                    " 7). Nothing changed.",
                    start=lambda t: option_name(t, "quiet_from"),
                    end=lambda t: option_name(t, "quiet_until"),
                )
                return None
            if start == end:
                await refuse(
                    interaction,
                    "Quiet hours must end at another hour than they start. Nothing changed.",
                )
                return None
            changed = changed.replace(quiet_start=start, quiet_end=end)
        if asked.digest_hour is not None:
            changed = changed.replace(digest_hour=asked.digest_hour)
        if asked.how is not None:
            changed = changed.replace(how=asked.how)
        return changed

    async def _try_dm(self, user_id: int, prefs: NoticePrefs, t: Lang) -> str:
        """A first DM when a person chooses DMs: whether Discord takes them, said now."""
        text = t(
            "This is where the bot tells you of your turns in correspondence games"
            " (set with {settings}).",
            settings=command_name(t, "settings"),
        )
        if await self.notifier.dm(user_id, content=text):
            return t("I sent you a direct message to check that they reach you.")
        return t(DMS_CLOSED)

    def embed(self, prefs: NoticePrefs, t: Lang) -> discord.Embed:
        """The person's settings, plainly."""
        at = now()
        embed = discord.Embed(
            title=t("Your correspondence notices"),
            description=t(
                "How you are told that it is your move in a correspondence game (a move"
                " a day or so). Change any of it with the options of {settings}.",
                settings=command_name(t, "settings"),
            ),
            colour=TABLE_COLOUR,
        )
        how = t(HOW_NAMES.get(prefs.how, HOW_NAMES[MENTION]))
        if prefs.how == DIGEST:
            due = stamp(next_digest(prefs, at), "R")
            how += "\n" + t(
                "At {hour} your time; the next one {when}.",
                hour=hour_text(prefs.digest_hour),
                when=due,
            )
        embed.add_field(name=t("How you are told"), value=how, inline=False)
        local = dt.datetime.fromtimestamp(at, zone(prefs.tz))
        embed.add_field(
            name=t("Time zone"),
            value=t("{zone} (now {time} there)", zone=prefs.tz, time=local.strftime("%H:%M")),
            inline=True,
        )
        if prefs.has_quiet:
            assert prefs.quiet_start is not None and prefs.quiet_end is not None
            quiet = t(
                "{start} to {end}: notices wait until they end",
                start=hour_text(prefs.quiet_start),
                end=hour_text(prefs.quiet_end),
            )
        else:
            quiet = t("Off")
        embed.add_field(name=t("Quiet hours"), value=quiet, inline=True)
        embed.add_field(name=t("Vacation"), value=self.vacation_text(prefs, at, t), inline=False)
        if prefs.dm_refused and prefs.how in (DM, DIGEST):
            embed.add_field(name=t("⚠️ Your DMs are closed"), value=t(DMS_CLOSED), inline=False)
        return embed

    def vacation_text(self, prefs: NoticePrefs, at: float, t: Lang) -> str:
        """The person's vacation, as the settings show it."""
        left = vacation_left(prefs, at)
        days = t.ngettext(
            "{n} of {total} vacation day left this month",
            "{n} of {total} vacation days left this month",
            left,
            total=VACATION_DAYS,
        )
        if away_at(prefs, at):
            assert prefs.away_until is not None
            away = t("Away until {when}", when=stamp(prefs.away_until))
            return f"{away}\n{days}"
        return days

    # ------------------------------------------------------------------ vacation

    async def vacation(self, interaction: discord.Interaction, days: int) -> None:
        """Take ``days`` of vacation, or with 0 end the one running."""
        t = private(interaction)
        user_id = interaction.user.id
        current = self.prefs.of(user_id)
        at = now()
        try:
            if days == 0:
                changed, shift, back = end_vacation(current, at)
            else:
                changed, shift = take_vacation(current, days, at)
                back = 0
        except VacationRefused as refused:
            await tell(interaction, self._refusal(refused.reason, current, days, at, t))
            return
        # the person's running turns move before the answer (a table each, posted fresh):
        # answered by a follow-up, however many there are
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.prefs.save(user_id, changed.replace(locale=code_of(interaction.locale)))
        moved = self.on_away(user_id, shift)
        if moved is not None:
            await moved
        left = t.ngettext(
            "You have {n} vacation day left this month.",
            "You have {n} vacation days left this month.",
            vacation_left(changed, at),
        )
        if days == 0:
            text = t("Welcome back: your correspondence clocks run again.")
            if back:
                text += " " + t.ngettext(
                    "{n} unused day was given back.", "{n} unused days were given back.", back
                )
        else:
            assert changed.away_until is not None
            text = t(
                "You are away until {when}: your correspondence clocks stand still until"
                " then. End it early with {end}.",
                when=stamp(changed.away_until),
                end=end_command(t),
            )
        log.info("a vacation %s", "ended" if days == 0 else "started")
        await tell(interaction, f"{text}\n{left}")

    @staticmethod
    def _refusal(reason: str, prefs: NoticePrefs, days: int, at: float, t: Lang) -> str:
        if reason == "away":
            return t(
                "You are already away until {when}. End that vacation first with {end}."
                " Nothing changed.",
                when=stamp(prefs.away_until or at),
                end=end_command(t),
            )
        if reason == "home":
            return t("You are not on vacation, so there is nothing to end. Nothing changed.")
        left = vacation_left(prefs, at)
        return t.ngettext(
            "You have {n} vacation day left this month ({total} a month), not {days}."
            " Nothing changed.",
            "You have {n} vacation days left this month ({total} a month), not {days}."
            " Nothing changed.",
            left,
            total=VACATION_DAYS,
            days=days,
        )
