"""Telling the person to move in a correspondence game, once a turn, the way they chose.

A correspondence turn (:mod:`bot.correspondence.clock`) has three steps, each a deadline
of the game's one timer: the notice (due when the turn begins), the warning (a quarter of
the time left) and the loss on time. Each person chose how they are told
(``/kasino settings``): a mention in the game's channel, a direct message, a daily digest
instead, or nothing; never during their quiet hours.

- A mention is the fresh table's own ping when the turn begins outside quiet hours
  (:meth:`TurnNotices.in_table`, asked by the table): no second message. Otherwise (quiet
  hours just ended) a short message in the game's channel mentions them.
- A direct message (DM) carries the turn, the time left and "Your hand", which opens the
  hand right there. Discord refuses a DM to someone who closed them (50007): the notice
  falls back to the mention, and ``/kasino settings`` says so once.
- The warning goes to the mover and, in a team game, their partners, each their own way
  (a digest's reader gets it by DM: a digest would come too late); it comes before the
  mover's quiet hours when it would fall inside them.

Every step is saved with the game before the next is scheduled, so a restart neither
forgets a notice nor (but for a kill between sending and saving) sends one twice; a DM
carries a nonce so Discord drops such a resend.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.correspondence.clock import turn_ends
from bot.correspondence.prefs import DIGEST, DM, MENTION, away_at
from bot.correspondence.quiet import quiet_at, quiet_ends, quiet_starts
from bot.games import GameService
from bot.i18n import Lang
from bot.models import Game, Status, Timer
from bot.render import TABLE_COLOUR, full_time, relative_time, seat_name, variant_name
from bot.stages import Stage, seat_stage, stages_of
from bot.timers import now
from cogs.common import stage_url
from cogs.correspondence.prefs import Prefs, dm_lang
from cogs.play.table import TableFlow
from cogs.play.views import hand_button

log = logging.getLogger(__name__)

SendDm = Callable[..., Awaitable[bool]]


class TurnNotices:
    """The notice and warning steps of correspondence turns (inside the game's session),
    each person told as their settings (``prefs``, kept in memory) say."""

    def __init__(self, games: GameService, table: TableFlow, prefs: Prefs, send_dm: SendDm) -> None:
        self.games = games
        self.table = table
        self.prefs = prefs
        self.send_dm = send_dm

    def how_of(self, user_id: int) -> str:
        """How a person is told now (a refused DM's: the mention)."""
        return self.prefs.of(user_id).told_by

    def quiet_until(self, user_id: int, at: float) -> float | None:
        """The end of the person's quiet period ``at`` is in (``None``: not quiet)."""
        prefs = self.prefs.of(user_id)
        return quiet_ends(prefs, at) if quiet_at(prefs, at) else None

    def quiet_from(self, user_id: int, at: float) -> float | None:
        """The start of the person's quiet period ``at`` is in (``None``: not quiet)."""
        return quiet_starts(self.prefs.of(user_id), at)

    def away_until(self, user_id: int) -> float | None:
        """Until when the person is on vacation (``None``: they are not)."""
        prefs = self.prefs.of(user_id)
        return prefs.away_until if away_at(prefs, now()) else None

    def in_table(self, user_id: int, at: float) -> bool:
        """Whether a fresh table's ping is the person's notice now (they chose mentions
        and it is not their quiet time)."""
        return self.how_of(user_id) == MENTION and self.quiet_until(user_id, at) is None

    async def step(self, game: Game) -> None:
        """The game's correspondence deadline passed: notice, warning or loss on time."""
        if game.timer is Timer.LATE:
            await self.games.lose_on_time(game, lambda: self.table.out_of_time(game))
            self.table.follow(game)
            return
        if game.timer is Timer.WARN:
            await self.warn(game)
        else:
            await self.notice(game)
        self.table.timers.schedule(game.id, game.deadline)

    async def notice(self, game: Game) -> None:
        """Tell the person to move that it is their turn (held until their quiet hours
        end), then wait for the warning."""
        seat = game.match.round.to_move
        user = int(game.seats[seat].user_id or 0)
        moment = now()
        until = self.quiet_until(user, moment)
        if until is not None:
            self.games.clock_step(game, notice_at=until)
            await self.games.save(game)
            return
        self._warn_before_quiet(game, user)
        how = self.how_of(user)
        if how == DM and not await self._dm(game, seat, user, warning=False):
            how = MENTION  # refused: the mention instead (said in /kasino settings)
        if how == MENTION:
            self._mention(game, [seat], warning=False)
        self.games.clock_step(game, noticed=True)
        await self.games.save(game)

    async def warn(self, game: Game) -> None:
        """Warn the mover (and a partner) that the time to move runs out soon."""
        mover = game.match.round.to_move
        moment = now()
        mentioned = []
        for seat in partners(game, mover):
            user = int(game.seats[seat].user_id or 0)
            if seat != mover and self.quiet_until(user, moment) is not None:
                continue  # a partner's quiet hours are kept (the mover's came after it)
            how = self.how_of(user)
            if how in (DM, DIGEST) and not await self._dm(game, seat, user, warning=True):
                how = MENTION
            if how == MENTION:
                mentioned.append(seat)
        if mentioned:
            self._mention(game, mentioned, warning=True)
        self.games.clock_step(game, warned=True)
        await self.games.save(game)

    async def away(self, user_id: int, shift: float, keep_clock: Callable[[Game], None]) -> int:
        """A person's vacation began (``shift`` seconds later) or ended early (earlier):
        every running correspondence turn of theirs moves by it, its table posted fresh
        to say until when; ``keep_clock`` keeps each game's new deadline in the process
        of its shard. Returns how many turns moved."""
        moved = 0
        for listed in await self.games.storage.person_games(user_id):
            async with self.games.session(listed.id) as game:
                if game is None or not game.options.correspondence:
                    continue
                if game.status is not Status.PLAYING or game.extra.get("paused"):
                    continue
                if game.seats[game.match.round.to_move].user_id != user_id:
                    continue
                if not self.games.shift_clock(game, shift):
                    continue
                self.table.announce(game)
                await self.games.save(game)
            keep_clock(game)
            moved += 1
        return moved

    def _warn_before_quiet(self, game: Game, user: int) -> None:
        """A warning that would fall in the mover's quiet hours comes before they begin."""
        clock = game.extra.get("clock") or {}
        warn = clock.get("warn")
        if isinstance(warn, (int, float)):
            start = self.quiet_from(user, float(warn))
            if start is not None and start > now():
                clock["warn"] = start

    def _mention(self, game: Game, seats: list[int], *, warning: bool) -> None:
        """A short message mentioning these players where they sit (queued with the save)."""
        for stage in stages_of(game):
            here = [seat for seat in seats if seat in stage.seats]
            if not here:
                continue
            t = self.table.lang(game, stage)
            people = [int(game.seats[seat].user_id or 0) for seat in here]
            text = notice_text(game, here, warning=warning, t=t)
            self.table.post(game, stage, content=text, mentions=tuple(people))

    async def _dm(self, game: Game, seat: int, user: int, *, warning: bool) -> bool:
        """Send the notice as a DM; ``False`` when Discord refused it."""
        stage = seat_stage(game, seat)
        t = dm_lang(self.prefs.of(user), self.table.lang(game, stage))
        embed = notice_embed(game, seat, stage, warning=warning, t=t)
        view = notice_view(game, stage, t)
        kind = "w" if warning else "n"
        nonce = f"k{kind}{game.id}v{game.version}"[:25]  # one turn's notice: its version
        try:
            return await self.send_dm(user, content=None, embed=embed, view=view, nonce=nonce)
        except discord.HTTPException:
            log.warning("game %s: a notice could not be sent by DM", game.id)
            return False


def partners(game: Game, seat: int) -> list[int]:
    """The people of a seat's side, the seat first (a team game's partners see a warning)."""
    side = game.side_of(seat)
    others = [
        index
        for index, other in enumerate(game.seats)
        if index != seat and other.is_human and game.side_of(index) == side
    ]
    return [seat, *others]


def notice_text(game: Game, seats: list[int], *, warning: bool, t: Lang) -> str:
    """The channel's notice: ``🔔 @Anna, your move in game #12: time runs out in 23
    hours.`` or the warning ``⏰ @Anna: 6 hours left to move in game #12 …``."""
    when = relative_time(turn_ends(game) or 0)
    mover = game.match.round.to_move
    people = t.listing(f"<@{int(game.seats[s].user_id or 0)}>" for s in seats)
    if not warning:
        return t(
            "🔔 {people}, your move in game #{id}: time runs out {when}.",
            people=people,
            id=game.id,
            when=when,
        )
    return t(
        "⏰ {people}: {name}'s time to move in game #{id} runs out {when}; out of time,"
        " the match is lost.",
        people=people,
        name=seat_name(game.seats[mover], t),
        id=game.id,
        when=when,
    )


def notice_embed(game: Game, seat: int, stage: Stage, *, warning: bool, t: Lang) -> discord.Embed:
    """The DM's notice: whose move in which game, against whom, until when."""
    ends = int(turn_ends(game) or 0)
    variant = variant_name(game.options.variant, t)
    if warning and game.match.round.to_move != seat:
        title = t(
            "⏰ Your partner's time runs out in game #{id}",
            id=game.id,
        )
    elif warning:
        title = t("⏰ Your time runs out in game #{id}", id=game.id)
    else:
        title = t("🔔 Your move in game #{id}", id=game.id)
    others = [seat_name(s, t) for index, s in enumerate(game.seats) if index != seat]
    when, date = relative_time(ends), full_time(ends)
    lines = [
        t("{variant} with {others}", variant=variant, others=t.listing(others)),
        t("Time runs out {when} ({date}).", when=when, date=date),
    ]
    if warning:
        lines.append(t("Out of time, the match is lost (and rated as a loss)."))
    return discord.Embed(title=title, description="\n".join(lines), colour=TABLE_COLOUR)


def notice_view(game: Game, stage: Stage, t: Lang) -> discord.ui.View:
    """ "Your hand" (opens it right here, from a fresh click) and a link to the table."""
    view = discord.ui.View(timeout=None)
    if game.status is Status.PLAYING:
        view.add_item(hand_button(game, t("Your hand")))
    view.add_item(discord.ui.Button(label=t("Go to the table"), url=stage_url(stage)))
    return view
