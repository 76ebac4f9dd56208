"""The round runner of a tournament: rounds, their tables in threads, results, the round's
deadline, the end, and the reconciliation after a restart (the tournament's own messages
are :mod:`cogs.tournaments.posts`', a table's result :mod:`bot.tournaments.tables`').

Every step is recorded before the next one is taken, and each is idempotent, so a process
killed anywhere leaves a state the next one finishes from (:meth:`RoundRunner.reconcile`):

1. A round's tables are paired and stored (one transaction) before any thread is made.
2. Each table gets its thread (found again by name if one was made but not kept), then
   its game, dealt at once in the thread (a game already open in the thread is adopted),
   and the table keeps both ids; the game's first table is posted by the durable outbox.
3. A game that ends (:attr:`bot.games.GameService.on_ended`) gives its table's result; at
   the round's deadline, unfinished games are stopped and decided by their score. A
   finished game whose result was not kept is found again at the start-up.
4. A round whose tables all have results advances: the next round, or the podium.

Only the process that owns a guild's shard runs its tournaments (:meth:`KasinoBot.owns_guild`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.games import GameService
from bot.i18n import Lang
from bot.models import Game, Seat
from bot.records.deals import table_seed
from bot.storage.tournaments import StaleTournament, TableRow, TournamentRow
from bot.timers import Timers, now
from bot.tournaments import deals as tournament_deals
from bot.tournaments import pairing
from bot.tournaments.decide import bye_result
from bot.tournaments.model import Entrant, Format, Phase, Table
from bot.tournaments.pairing import final_standings, next_round
from bot.tournaments.tables import results_of, round_tables, table_result, thread_name
from cogs.play.table import TableFlow
from cogs.tournaments.posts import TournamentPosts
from cogs.tournaments.threads import ThreadPacer

if TYPE_CHECKING:
    from bot.client import KasinoBot

log = logging.getLogger(__name__)

COMPUTER_LEVEL = "normal"  # a filler plays like the automatic moves


class RoundRunner:
    """Runs the open tournaments of this process's shards."""

    def __init__(
        self,
        bot: KasinoBot,
        games: GameService,
        table: TableFlow,
        language: Callable[[int], Lang],
    ) -> None:
        self.bot = bot
        self.games = games
        self.table = table
        self.storage = games.storage
        self.posts = TournamentPosts(bot, language, paced=table.outbox.paced)
        self.pacer = ThreadPacer(bot)
        self.timers = Timers(self.on_deadline)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._tasks: set[asyncio.Task[None]] = set()
        self._openers: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()  # asked to open tables while an opener was running
        # set by the flow: starts a tournament whose start time has come
        self.on_start_time: Callable[[int], Awaitable[None]] | None = None
        games.on_ended = self.on_ended

    # ----------------------------------------------------------------- state

    @contextlib.asynccontextmanager
    async def session(self, tournament_id: int) -> AsyncIterator[TournamentRow | None]:
        """Hold the tournament's lock (this process's and the database's) and yield its
        row as stored now (``None``: no such tournament)."""
        lock = self._locks.get(tournament_id)
        if lock is None:
            lock = self._locks[tournament_id] = asyncio.Lock()
        async with lock, self.storage.tournament_lock(tournament_id):
            yield await self.storage.get_tournament(tournament_id)

    async def save(
        self,
        row: TournamentRow,
        tables: Sequence[TableRow] = (),
        places: Sequence[tuple[int, int]] = (),
        entrants: Sequence[Entrant] = (),
    ) -> None:
        """Commit the row (compare-and-set on its version) with these tables, entrants and
        places, and keep the deadline's timer."""
        await self.storage.save_tournament(
            row, now(), tables=tables, places=places, entrants=entrants
        )
        self.timers.schedule(row.id, row.deadline if row.phase.open else None)

    def spawn(self, coroutine: Coroutine[Any, Any, None], name: str) -> None:
        """Run a step in its own task (kept until done: the loop holds tasks weakly)."""
        task = asyncio.get_running_loop().create_task(coroutine, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_log_failure)

    async def close(self) -> None:
        """Stop the timers and the running steps (what they left is reconciled at the next
        start)."""
        self.timers.cancel_all()
        tasks = [*self._tasks, *self._openers.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------- start-up

    async def reconcile(self) -> None:
        """At start-up: every open tournament of this process's shards gets its timer and
        is moved on from where it was left (see the module docstring)."""
        for tournament_id, deadline in await self.storage.open_tournaments(self.bot.config.shards):
            self.timers.schedule(tournament_id, deadline)
            self.spawn(self.catch_up(tournament_id), f"tournament-{tournament_id}-catch-up")

    async def catch_up(self, tournament_id: int) -> None:
        """Record the results of games that ended unseen, then advance."""
        async with self.session(tournament_id) as row:
            if row is None or row.phase not in (Phase.RUNNING, Phase.PAUSED):
                return
            recorded = False
            for tr in round_tables(row):
                if tr.result is None and tr.game_id is not None:
                    game = await self.storage.get_game(tr.game_id)
                    if game is not None and not game.status.active:
                        await self.record(row, tr, game, show=False)
                        recorded = True
            if recorded:  # one edit for them all, not one a table
                await self.show_standings(row)
        await self.advance(tournament_id)

    # --------------------------------------------------------------- rounds

    async def advance(self, tournament_id: int) -> None:
        """Move a running tournament on: a round whose tables all have results is
        followed by the next round, or by the end; tables without a game get one."""
        async with self.session(tournament_id) as row:
            if row is None or row.phase is not Phase.RUNNING:
                return
            current = round_tables(row)
            if row.round == 0 or all(tr.result is not None for tr in current):
                if row.round and self.over(row):
                    await self.finish(row)
                    return
                await self.pair(row)
            if await self.posts.announce_round(row):  # once a round, after a kill too
                await self.save(row)
        self.open_tables(tournament_id)

    def over(self, row: TournamentRow) -> bool:
        """Whether the last round has been played (a knockout: one player left)."""
        rounds = int(row.extra.get("rounds") or 0)
        if row.settings.format is Format.KNOCKOUT:
            last = round_tables(row)
            return row.round >= rounds or (len(last) == 1 and not last[0].table.bye)
        active = sum(e.active for e in row.entrants)
        return row.round >= rounds or active < 2

    async def pair(self, row: TournamentRow) -> None:
        """Pair the next round and store its tables (byes with their results) before any
        thread is made; the round's deadline starts."""
        number = row.round + 1
        # a big Swiss's search takes a fraction of a second: off the event loop (its
        # inputs are frozen dataclasses in fresh lists, which nothing here changes)
        pairing = await asyncio.to_thread(
            next_round, row.settings, list(row.entrants), results_of(row), number, seed=row.seed
        )
        tables = []
        for table in pairing.tables:
            if table.bye:
                tables.append(TableRow(table, result=bye_result(table)))
            else:
                tables.append(TableRow(table))
        row.round = number
        row.deadline = now() + row.settings.round_minutes * 60
        await self.save(row, tables=tables)
        log.info("tournament %s: round %s paired, %d tables", row.id, number, len(tables))

    def open_tables(self, tournament_id: int) -> None:
        """Make the current round's missing threads and games, one table after another
        (one task per tournament)."""
        running = self._openers.get(tournament_id)
        if running is not None and not running.done():
            self._again.add(tournament_id)  # it looks again before it ends
            return
        label = f"tournament-{tournament_id}-tables"
        task = asyncio.get_running_loop().create_task(self._open_tables(tournament_id), name=label)
        task.add_done_callback(_log_failure)
        self._openers[tournament_id] = task

    async def _open_tables(self, tournament_id: int) -> None:
        while True:
            self._again.discard(tournament_id)
            async with self.session(tournament_id) as row:
                if row is None or row.phase not in (Phase.RUNNING, Phase.PAUSED):
                    return
                waiting = [
                    tr
                    for tr in round_tables(row)
                    if tr.result is None and tr.game_id is None and not tr.table.bye
                ]
            if not waiting:
                if tournament_id in self._again:
                    continue
                return
            tr = waiting[0]
            assert row is not None
            name = thread_name(row, tr.table)
            guild_id, parent_id = row.guild_id, row.channel_id
            thread_id = tr.thread_id or await self.pacer.find(guild_id, parent_id, name)
            if thread_id is None:
                try:
                    thread_id = await self.pacer.make(guild_id, parent_id, name)
                except discord.Forbidden:  # the next tables would be refused the same way
                    await self.no_threads(tournament_id)
                    return
            await self.seat_table(tournament_id, tr.table, thread_id)

    async def no_threads(self, tournament_id: int) -> None:
        """The channel refuses the bot its threads: the organiser is told, once a round.
        The tables wait; pause and resume (once the permissions are given) opens them."""
        log.warning("tournament %s: a table's thread was refused (missing permissions)",
                    tournament_id)  # fmt: skip
        async with self.session(tournament_id) as row:
            if row is not None and await self.posts.warn_no_threads(row):
                await self.save(row)

    async def seat_table(self, tournament_id: int, table: Table, thread_id: int) -> None:
        """Open the table's game in its thread (or adopt the one a killed process opened
        there) and keep both ids on the table."""
        async with self.session(tournament_id) as row:
            if row is None:
                return
            tr = next(t for t in round_tables(row, table.round) if t.table == table)
            if tr.game_id is not None or tr.result is not None:
                return
            game_id = await self.games.channel_game(thread_id)
            if game_id is None:
                game = await self.deal(row, table, thread_id)
                game_id = game.id
            tr = replace(tr, thread_id=thread_id, game_id=game_id)
            try:
                await self.save(row, tables=[tr])
            except StaleTournament:
                log.warning("tournament %s: changed meanwhile; table kept later", row.id)

    async def deal(self, row: TournamentRow, table: Table, thread_id: int) -> Game:
        """The table's match, dealt in its thread, its first table queued with a message
        naming every player (that message kept in the row that creates the game until
        the save that queues it: :meth:`TableFlow.welcome`; the durable outbox posts)."""
        names = {e.user_id: e.name for e in row.entrants}
        seats = []
        computers = 0
        for player in table.players:
            if player is None:
                computers += 1
                seats.append(Seat.computer(COMPUTER_LEVEL, computers))
            else:
                seats.append(Seat(player, names.get(player, str(player))))
        # the name too: a finished match keeps it in its history summary
        mark = {"id": row.id, "round": table.round, "table": table.number, "name": row.name}
        # the table's seed from the tournament's, committed at its sign-up (no thread id:
        # the bot knows that before it deals), cut by its players' cuts
        seed = tournament_deals.deal_seed(row.extra)
        if seed is not None:
            mark["commitment"] = tournament_deals.commitment(row.id, row.extra)
        # what the thread shows first, kept in the row that creates the game (posted by
        # the save below, or after a restart if the process dies before it)
        people = [p for p in table.players if p is not None]
        welcome = {"name": row.name, "round": table.round, "table": table.number,
                   "players": people}  # fmt: skip
        game = await self.games.open_table(
            row.guild_id,
            thread_id,
            seats,
            row.settings.game,
            hints=row.settings.hints,
            extra={"tournament": mark, "welcome": welcome},
            locale=row.extra.get("locale"),
            seed=None if seed is None else table_seed(seed, table.round, table.number),
            cuts=tournament_deals.table_cuts(row.extra, table.players),
        )
        async with self.games.session(game.id) as game:
            assert game is not None
            self.table.welcome(game)
            self.table.announce(game, lambda t: t("The cards are dealt."))
            await self.games.save(game)
            self.table.timers.schedule(game.id, game.deadline)
        log.info("tournament %s: table %s/%s is game %s", row.id, table.round, table.number,
                 game.id)  # fmt: skip
        return game

    # -------------------------------------------------------------- results

    def on_ended(self, game: Game) -> None:
        """A game has ended (committed): if it is a tournament's table, its result is
        recorded in a task of its own (never inside the game's session)."""
        mark = game.extra.get("tournament")
        if not isinstance(mark, dict) or not self.bot.owns_guild(game.guild_id):
            return
        self.spawn(self.game_ended(int(mark.get("id", 0)), game), f"tournament-game-{game.id}")

    async def game_ended(self, tournament_id: int, game: Game) -> None:
        """Record an ended game's result on its table, then move the tournament on."""
        mark = game.extra["tournament"]
        async with self.session(tournament_id) as row:
            if row is None or not row.phase.open:
                return
            tr = next(
                (
                    t
                    for t in round_tables(row, int(mark.get("round", 0)))
                    if t.table.number == int(mark.get("table", 0))
                ),
                None,
            )
            if tr is None or tr.result is not None:
                return
            await self.record(row, tr, game)
        await self.advance(tournament_id)

    async def record(
        self, row: TournamentRow, tr: TableRow, game: Game | None, *, show: bool = True
    ) -> None:
        """Keep a table's result (inside the tournament's session) and, with ``show``, show
        it in the round's standings. ``row`` stays current (a save merges the tables into
        it and bumps its version), so the caller may record the next table with it."""
        result = table_result(row, tr, game, max_auto_moves=self.games.config.max_auto_moves)
        game_id = tr.game_id if game is None else game.id
        tr = replace(tr, result=result, game_id=game_id)
        await self.save(row, tables=[tr])
        log.info("tournament %s: table %s/%s decided (%s)", row.id, tr.table.round,
                 tr.table.number, result.decided)  # fmt: skip
        if show:
            await self.show_standings(row)

    async def show_standings(self, row: TournamentRow) -> None:
        """Bring the round's standings message up to date (inside the session)."""
        try:
            if await self.posts.show_standings(row):
                await self.save(row)  # the new standings message's id
        except discord.HTTPException:  # the result is kept; the next one shows it
            log.warning("tournament %s: could not show the standings", row.id, exc_info=True)

    # ------------------------------------------------------------- deadline

    async def on_deadline(self, tournament_id: int, deadline: float) -> None:
        """A tournament's deadline: the start time of a sign-up, or the end of a round
        (its unfinished games are stopped and decided by the score)."""
        starter = None
        async with self.session(tournament_id) as row:
            if row is None or row.deadline != deadline or not row.phase.open:
                return
            if not self.bot.owns_guild(row.guild_id):
                return
            if row.phase is Phase.SIGNUP:
                starter = row
            else:
                await self.stop_round(row)
        if starter is not None and self.on_start_time is not None:
            await self.on_start_time(tournament_id)
            return
        await self.advance(tournament_id)

    async def stop_round(self, row: TournamentRow, ended: str = "deadline") -> None:
        """Stop the round's unfinished games and decide their tables by the score (their
        records say they were stopped at the deadline, or ``ended="stopped"``)."""
        recorded = False
        for tr in round_tables(row):
            if tr.result is not None:
                continue
            game = await self._stop_table(tr, self.table.stopped, ended)
            await self.record(row, tr, game, show=False)
            recorded = True
        if recorded:  # one edit for the round's end (a burst to one message meets a limit)
            await self.show_standings(row)
        row.deadline = None
        await self.save(row)

    async def end_dropped(self, row: TournamentRow, user_id: int) -> bool:
        """A player left mid-round (``row`` read after their drop was kept): the table they
        sit at ends now, their forfeit recorded and said at the table, so their opponents
        and the round wait for no turn limits. ``True`` if a table was decided."""
        tr = next(
            (t for t in round_tables(row) if t.result is None and user_id in t.table.people),
            None,
        )
        if tr is None:
            return False
        entrant = row.entrant(user_id)
        name = entrant.name if entrant is not None else str(user_id)
        forfeited = functools.partial(self.table.forfeited, name=name)
        game = await self._stop_table(tr, forfeited, "forfeit")
        await self.record(row, tr, game)
        return True

    async def _stop_table(
        self, tr: TableRow, announce: Callable[[Game], None], ended: str
    ) -> Game | None:
        """Stop a table's game if it still runs (``announce(game)`` says so at the table;
        ``ended``: how its record says it ended); the game as it is now (``None``: none)."""
        if tr.game_id is None:
            return None
        async with self.games.session(tr.game_id) as game:
            if game is not None and game.status.active:
                await self.games.stop(
                    game, allowed=True, announce=functools.partial(announce, game), ended=ended
                )
                self.table.timers.cancel(game.id)
                self.table.follow(game)
        return game

    async def stop_games(self, row: TournamentRow) -> None:
        """The organiser ends the tournament: its running games are stopped and decided."""
        await self.stop_round(row, ended="stopped")

    # ------------------------------------------------------------------ end

    async def finish(self, row: TournamentRow) -> None:
        """The podium: the final standings posted, the places kept with the FINISHED
        save (the board and profiles read them)."""
        final = final_standings(row.settings, row.entrants, results_of(row), seed=row.seed)
        await self.posts.post_podium(row, final)
        row.phase = Phase.FINISHED
        row.finished_at = now()
        row.deadline = None
        await self.save(
            row, places=pairing.places(row.settings, row.entrants, results_of(row), seed=row.seed)
        )
        log.info("tournament %s: finished", row.id)
        await self.posts.show_signup(row)


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("%s failed", task.get_name(), exc_info=task.exception())
