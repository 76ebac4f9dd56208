"""Analysed replays (issue 31): "Analyse my moves" on a finished match's end message and
replay, the analysis's progress, and its private pages.

Only a person who sat in the match may ask, and only for their own seat: the answer is
ephemeral, so others see only their own. The work runs in the process's
:class:`bot.analysis.pool.AnalysisPool` (worker processes, one move at a time, never on
the event loop); one analysis per game and seat runs at a time (asking again joins it),
and the result is stored once (``analyses``), then read from the store. While it runs the
private message says "Analysing your moves… 12/48", edited at most every
:data:`PROGRESS_EVERY` seconds. Its interaction token lasts 15 minutes: an analysis that
outlives it is still stored, and the message says so before the token runs out.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

import discord

from bot.analysis import ANALYSIS_VERSION, Analysis, moves_to_analyse
from bot.analysis.embed import MARKS, move_embed, points, summary_embed
from bot.analysis.pool import AnalysisPool, Discarded, PoolBusy, PoolClosed
from bot.i18n import N_, Lang
from bot.records.record import GameRecord, NoRecord
from bot.render import CardInk
from bot.storage import Storage
from cogs.common import NOT_MINE, private, refuse
from cogs.components import KasinoButton
from cogs.custom_ids import Click
from cogs.places import RecordPlace
from cogs.records.history import NO_RECORD, RecordFlow, own_message
from cogs.settings.decks import Inks

log = logging.getLogger(__name__)

PROGRESS_EVERY = 2.0  # seconds between two progress edits of one message (rate limits)
# an interaction's token lasts 15 minutes; the last edit is made with a margin
TOKEN_SECONDS = 15 * 60 - 30

NOT_A_PLAYER = N_(
    "Only the players of game #{id} can analyse their moves in it. Play a match and you"
    " can analyse yours!"
)
BUSY = N_(
    "The bot is analysing many games right now, so yours could not be queued. Please try"
    " again in a minute."
)
FAILED = N_("The analysis of game #{id} failed, sorry. Please try again later.")
NO_ANALYSIS = N_(
    "This analysis is no longer stored (or is out of date). Press Analyse my moves on the"
    " game's replay or end message to make it again."
)
TAKING_LONG = N_(
    "🔍 Your analysis is taking long: it will be stored when it is done. Press Analyse my"
    " moves again later to see it."
)
FORGOTTEN = N_("This analysis was stopped and nothing of it was stored: you asked to be forgotten.")
NO_PAGE = N_("This analysis has no such page, so nothing happened.")
NOTHING_TO_ANALYSE = N_(
    "You made no move of your own in game #{id} (the bot played for you), so there is"
    " nothing to analyse."
)


def own_seats(record: GameRecord, user_id: int) -> list[int]:
    """The seats ``user_id`` sat in."""
    found = []
    for index, seat in enumerate(record.seats):
        value = seat.get("user_id")
        if value not in (None, "") and str(value) == str(user_id):
            found.append(index)
    return found


class AnalysisFlow:
    """Analyse my moves, its progress, and the pages of an analysis."""

    def __init__(
        self,
        storage: Storage,
        records: RecordFlow,
        inks: Inks,
        pool: Callable[[], AnalysisPool],
    ) -> None:
        self.storage = storage
        self.records = records
        self.inks = inks
        self._pool = pool  # the bot's pool (made on first use)
        self._computing: dict[Hashable, asyncio.Task[Analysis | None]] = {}
        self._players: dict[Hashable, int] = {}  # whose seat each running analysis is
        self._waiting: set[asyncio.Task[None]] = set()

    async def close(self) -> None:
        """Stop following the analyses (the pool itself closes with the bot)."""
        for task in [*self._waiting, *self._computing.values()]:
            task.cancel()

    # ------------------------------------------------------------------ entry

    async def on_analyse(self, interaction: discord.Interaction, click: Click) -> None:
        """Analyse my moves: the stored analysis at once, else start (or join) it."""
        record = await self._record(interaction, click.game)
        if record is None:
            return
        seats = own_seats(record, interaction.user.id)
        if not seats:
            await refuse(interaction, NOT_A_PLAYER, id=record.game_id)
            return
        seat = seats[0]  # a person holds one seat of a match
        t = private(interaction)
        stored = await self.stored(record.game_id, seat)
        if stored is not None:
            embed, view = await self.page(record, stored, 0, interaction, t)
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
            return
        steps = moves_to_analyse(record, seat)
        if not steps:
            await refuse(interaction, NOTHING_TO_ANALYSE, id=record.game_id)
            return
        key = (record.game_id, seat)
        progress = Progress(interaction, t, len(steps))
        try:
            task = self._start(key, record, seat, steps, progress)
        except PoolBusy:
            await refuse(interaction, BUSY)
            return
        await interaction.response.send_message(progress.text(0), ephemeral=True)
        progress.started()
        waiter = asyncio.get_running_loop().create_task(
            self._show_when_done(interaction, record, task, progress, t)
        )
        self._waiting.add(waiter)
        waiter.add_done_callback(self._waiting.discard)

    def _start(
        self,
        key: tuple[int, int],
        record: GameRecord,
        seat: int,
        steps: list[int],
        progress: Progress,
    ) -> asyncio.Task[Analysis | None]:
        """The analysis of ``key`` running now (joined) or started: it stores itself."""
        task = self._computing.get(key)
        pool = self._pool()
        if task is not None:
            pool.listen(key, progress)  # (not at all when it is being stored already)
            return task
        reviews = pool.submit(key, record, seat, steps, progress)
        user = int(record.seats[seat].get("user_id") or 0)
        task = asyncio.get_running_loop().create_task(self._complete(record, seat, user, reviews))
        self._computing[key] = task
        self._players[key] = user
        task.add_done_callback(lambda _done: self._ended(key, task))
        return task

    def _ended(self, key: Hashable, task: asyncio.Task[Analysis | None]) -> None:
        """An analysis task is over: it no longer runs under its key (unless a newer
        one has taken the key since)."""
        if self._computing.get(key) is task:
            del self._computing[key]
            self._players.pop(key, None)

    def forget(self, user_id: int) -> int:
        """The person is being forgotten: every analysis of their seats running or queued
        in this process is dropped (nothing of it is stored; another process's are kept
        out by :meth:`Storage.save_analysis`'s check). Says how many."""
        keys = [key for key, user in self._players.items() if user == int(user_id)]
        for key in keys:
            self._players.pop(key, None)
            self._computing.pop(key, None)
        pool = self._pool()
        return pool.discard(keys) if keys else 0

    async def _complete(
        self, record: GameRecord, seat: int, user: int, reviews: Awaitable[list[Any]]
    ) -> Analysis | None:
        """Wait for the reviews, then store the analysis (once, whoever waits for it);
        ``None``, and nothing stored, when ``user`` was forgotten meanwhile (here: the pool
        dropped it; in another process: the database refuses the store)."""
        try:
            analysis = Analysis(record.game_id, seat, ANALYSIS_VERSION, tuple(await reviews))
        except Discarded:
            return None
        body = json.dumps(analysis.to_dict(), ensure_ascii=False, separators=(",", ":"))
        stored = await self.storage.save_analysis(
            record.game_id, seat, ANALYSIS_VERSION, body, time.time(), user
        )
        if not stored:
            return None
        log.info("game %s: seat %s analysed (%d moves)", record.game_id, seat,
                 len(analysis.reviews))  # fmt: skip
        return analysis

    async def _show_when_done(
        self,
        interaction: discord.Interaction,
        record: GameRecord,
        task: asyncio.Task[Analysis | None],
        progress: Progress,
        t: Lang,
    ) -> None:
        """Edit the private message into the analysis's summary once it is done (or say
        that it failed). Before the message's token runs out, it says that the analysis
        will be stored and shown by the button (the task goes on and stores it)."""
        done, _ = await asyncio.wait({task}, timeout=progress.time_left())
        progress.stop()
        if progress.editing is not None:
            await asyncio.wait({progress.editing})  # the last progress note lands first
        if not done:
            await progress.edit(content=t(TAKING_LONG))
            return
        try:
            analysis = task.result()
            if analysis is None:  # they asked to be forgotten meanwhile
                await progress.edit(content=t(FORGOTTEN))
                return
        except (PoolClosed, asyncio.CancelledError):
            return  # the bot is stopping: asked again after the restart, it starts anew
        except Exception:
            log.exception("game %s: analysis failed", record.game_id)
            await progress.edit(content=t(FAILED, id=record.game_id))
            return
        embed, view = await self.page(record, analysis, 0, interaction, t)
        await progress.edit(content=None, embed=embed, view=view)

    # ------------------------------------------------------------------ pages

    async def on_review(self, interaction: discord.Interaction, click: Click) -> None:
        """A page of one's own analysis (on one's own private message)."""
        if not own_message(interaction, ("k:review:", "k:replay:")):
            await refuse(interaction, NOT_MINE)
            return
        record = await self._record(interaction, click.game)
        if record is None:
            return
        if click.seat not in own_seats(record, interaction.user.id):
            await refuse(interaction, NOT_MINE)
            return
        analysis = await self.stored(record.game_id, click.seat)
        if analysis is None:
            await refuse(interaction, NO_ANALYSIS)
            return
        if click.step > len(analysis.reviews):
            await refuse(interaction, NO_PAGE)
            return
        t = private(interaction)
        embed, view = await self.page(record, analysis, click.step, interaction, t)
        await interaction.response.edit_message(content=None, embed=embed, view=view)

    async def page(
        self,
        record: GameRecord,
        analysis: Analysis,
        page: int,
        interaction: discord.Interaction,
        t: Lang,
    ) -> tuple[discord.Embed, discord.ui.View]:
        """The summary (page 0) or a move's page, with its buttons."""
        variant = str(record.options.get("variant", ""))
        if page == 0:
            return summary_embed(analysis, variant, t), summary_view(analysis, t)
        ink = self.inks.private(interaction.user.id, interaction.guild_id or 0)
        embed = await asyncio.to_thread(_move_page, record, analysis, page, ink, t)
        return embed, move_view(analysis, page, t)

    # ---------------------------------------------------------------- storage

    async def stored(self, game_id: int, seat: int) -> Analysis | None:
        """The stored analysis of this version, else ``None`` (an older or damaged one is
        made again)."""
        row = await self.storage.analysis(game_id, seat)
        if row is None or row.version != ANALYSIS_VERSION:
            return None
        try:
            analysis = Analysis.from_dict(json.loads(row.body))
        except ValueError as error:
            log.warning("game %s: stored analysis of seat %s refused (%s)", game_id, seat, error)
            return None
        if analysis.game_id != game_id or analysis.seat != seat:
            return None
        return analysis

    async def _record(self, interaction: discord.Interaction, game_id: int) -> GameRecord | None:
        try:
            return await self.records.record(game_id, RecordPlace.of(interaction))
        except NoRecord as missing:
            await refuse(interaction, NO_RECORD[missing.reason], id=game_id)
            return None


def _move_page(
    record: GameRecord, analysis: Analysis, page: int, ink: CardInk, t: Lang
) -> discord.Embed:
    """In a worker thread: a move's page (it replays the record to the move)."""
    return move_embed(record, analysis, page, ink, t)


def _view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.stop()  # dispatched by custom_id: nothing to keep (see cogs.play.views._static)
    return view


def summary_view(analysis: Analysis, t: Lang) -> discord.ui.View:
    """A jump to each of the costliest moves, and the first move's page."""
    view = _view()
    game, seat = analysis.game_id, analysis.seat
    for rank, review in enumerate(analysis.costliest(3), 1):
        page = analysis.reviews.index(review) + 1
        label = t("Move {n}: {points}", n=page, points=points(review.cost, t))
        view.add_item(
            KasinoButton("review", game, seat, page, f"c{rank}", label=label[:80],
                         emoji=MARKS[review.verdict])
        )  # fmt: skip
    if analysis.reviews:
        view.add_item(
            KasinoButton("review", game, seat, 1, "next", label=t("Move by move"), emoji="▶️",
                         style=discord.ButtonStyle.primary, row=1)
        )  # fmt: skip
    return view


def move_view(analysis: Analysis, page: int, t: Lang) -> discord.ui.View:
    """Previous / Next / Summary, and the replay at this move."""
    view = _view()
    game, seat, pages = analysis.game_id, analysis.seat, len(analysis.reviews)
    view.add_item(
        KasinoButton("review", game, seat, max(page - 1, 1), "back", label=t("Previous"),
                     emoji="◀️", disabled=page <= 1)
    )  # fmt: skip
    view.add_item(
        KasinoButton("review", game, seat, min(page + 1, pages), "next", label=t("Next"),
                     emoji="▶️", disabled=page >= pages)
    )  # fmt: skip
    view.add_item(KasinoButton("review", game, seat, 0, "summary", label=t("Summary")))
    step = analysis.reviews[page - 1].step
    view.add_item(
        KasinoButton("replay", game, step, "open", label=t("Replay at this move"), emoji="⏯️")
    )
    return view


class Progress:
    """One private message's progress: edited at most every :data:`PROGRESS_EVERY`
    seconds (the loop's clock), and only while its token lasts."""

    def __init__(
        self,
        interaction: discord.Interaction,
        t: Lang,
        total: int,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.interaction = interaction
        self.t = t
        self.total = total
        self.loop = asyncio.get_running_loop()
        self.clock = clock or self.loop.time  # the loop's (SimCord's virtual one in tests)
        self.born = self.clock()
        self.last = self.born
        self.editing: asyncio.Task[None] | None = None
        self.live = False

    def text(self, done: int) -> str:
        """``Analysing your moves… 12/48``."""
        return self.t("🔍 Analysing your moves… {done}/{total}", done=done, total=self.total)

    def started(self) -> None:
        """The message is sent: edits may follow."""
        self.live = True
        self.last = self.clock()

    def stop(self) -> None:
        """No more progress edits (the result follows, or nothing)."""
        self.live = False

    def time_left(self) -> float:
        """Seconds until the token is too old to edit the message with."""
        return max(0.0, TOKEN_SECONDS - (self.clock() - self.born))

    def __call__(self, done: int, total: int) -> None:
        """The pool's note: ``done`` of ``total`` moves reviewed."""
        now = self.clock()
        if not self.live or self.editing is not None or now - self.last < PROGRESS_EVERY:
            return
        if done >= total or not self.time_left():
            return  # the result (or the note that it is stored) follows
        self.last = now
        self.editing = self.loop.create_task(self.edit(content=self.text(done)))
        self.editing.add_done_callback(self._edited)

    def _edited(self, _task: asyncio.Task[None]) -> None:
        self.editing = None

    async def edit(self, **fields: Any) -> None:
        """Edit the private message (a failure is logged, never raised: the analysis is
        stored anyway)."""
        try:
            await self.interaction.edit_original_response(**fields)
        except discord.HTTPException as error:
            log.info("analysis progress not shown (%s)", error)
