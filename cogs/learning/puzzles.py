"""``/kasino puzzle [variant]``: the server's puzzle of the day, played privately with
the real hand menus (the practice surface, :mod:`cogs.learning.practice`) and judged.

The owner of the ``puzzle`` practice positions: a position's id is the stored day's row
(:class:`bot.storage.puzzles.PuzzleDay`), the same for everyone in the server; the
player is whoever clicks (each on their own private message). A position is only
playable on its own UTC day: a click on yesterday's puzzle is refused as over. The first
answer counts (solved or missed, with the streak); later tries are judged and explained
but change nothing. Choosing the day's puzzle replays and solves finished games: it runs
once per server, family and day (one at a time in this process): the records are read
in a worker thread, the replays and solves (up to seconds of CPU) in the bot's shared
worker processes (the analyses' pool, at the lowest CPU priority), so the event loop and
every table's clicks never wait for them.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.engine import Move
from bot.i18n import N_, Lang
from bot.puzzles import embed
from bot.puzzles.families import family_named
from bot.puzzles.judge import judge
from bot.puzzles.model import Puzzle
from bot.puzzles.streak import day_text, puzzle_streak, utc_day
from bot.puzzles.today import todays
from bot.storage import Storage
from bot.storage.puzzles import PuzzleDay
from cogs.common import refuse
from cogs.learning.practice import Practice, PracticeFlow, Verdict

TRY_OTHERS = N_(
    "The position is shown again below: you may try other moves, but only your first"
    " answer today counts."
)
UNKNOWN_FAMILY = N_("There is no puzzle for that game.")
VERSION = 1  # a puzzle position never changes within its day (its row is written once)
NOBODY = 0  # the user of a puzzle loaded for someone who never opened it: not theirs


class PuzzleFlow:
    """The puzzle of the day: the command, and the practice owner ``puzzle``."""

    name = "puzzle"

    def __init__(
        self,
        storage: Storage,
        practice: PracticeFlow,
        solve: Callable[..., Awaitable[Any]],
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``solve(function, *args)`` runs the day's replays and solves in a worker
        process: the bot's shared pool (:meth:`bot.analysis.pool.AnalysisPool.call`)."""
        self.storage = storage
        self.practice = practice
        self.clock = clock
        self._choosing: dict[tuple[int, str, str], asyncio.Lock] = {}
        self.solve = solve
        practice.register(self)

    def today(self) -> str:
        """Today's UTC day, as stored."""
        return day_text(utc_day(self.clock()))

    async def on_command(self, interaction: discord.Interaction, variant: str | None) -> None:
        """Show today's puzzle of the family ``variant`` names to the person, privately."""
        family = family_named(variant)
        if family is None:
            await refuse(interaction, UNKNOWN_FAMILY)
            return
        guild_id = interaction.guild_id or 0
        day = self.today()
        stored = await self.storage.puzzle_day(guild_id, family, day)
        if stored is None:
            # the first ask of the day replays and solves games: think first
            await interaction.response.defer(ephemeral=True, thinking=True)
            key = (guild_id, family, day)
            lock = self._choosing.setdefault(key, asyncio.Lock())
            async with lock:
                stored, _ = await todays(
                    self.storage,
                    guild_id,
                    family,
                    day,
                    self.clock(),
                    asyncio.to_thread,
                    self.solve,
                )
            self._choosing.pop(key, None)
        # the person's row: only a puzzle opened in its own server can be answered
        await self.storage.open_puzzle(stored, interaction.user.id, self.clock())
        await self.practice.show(interaction, await self._practice(stored, interaction.user.id))

    # ------------------------------------------------------------ the owner

    async def load(self, practice_id: int, user_id: int) -> Practice | None:
        """Today's puzzle ``practice_id`` for the person (``None``: no such puzzle, or not
        today's: it is over). One they never opened with the command in its server is
        someone else's: it comes as nobody's (``user_id`` 0), which the flow refuses as
        not theirs."""
        stored = await self.storage.puzzle_day_by_id(practice_id)
        if stored is None or stored.day != self.today():
            return None
        if await self.storage.puzzle_attempt(stored.id, user_id) is None:
            return await self._practice(stored, NOBODY)  # a forged id, or another's
        return await self._practice(stored, user_id)

    async def _practice(self, stored: PuzzleDay, user_id: int) -> Practice:
        """The stored puzzle as the person's practice position (what they answered today
        is said in its task)."""
        puzzle = Puzzle.from_json(stored.puzzle)
        attempt = await self.storage.puzzle_attempt(stored.id, user_id)
        answered = attempt.solved if attempt is not None and attempt.answered else None

        def title(t: Lang) -> str:
            return embed.title(puzzle, stored.day, t)

        def task(t: Lang) -> str:
            return embed.task(puzzle, answered, t)

        return Practice(
            "puzzle", stored.id, VERSION, user_id, puzzle.variant, puzzle.round, title, task
        )

    async def judge(self, practice: Practice, move: Move, t: Lang) -> Verdict:
        """Judge the answer, count it if it is the person's first today, and explain."""
        stored = await self.storage.puzzle_day_by_id(practice.id)
        if stored is None or stored.day != self.today():
            return Verdict.stale()
        puzzle = Puzzle.from_json(stored.puzzle)
        judged = judge(puzzle, move)  # a lookup: the endings are stored with the puzzle
        user = practice.user_id
        now = self.clock()
        storage = self.storage
        counted = await storage.answer_puzzle(
            stored, user, json.dumps(move.to_dict()), judged.right, now
        )
        attempt = await storage.puzzle_attempt(stored.id, user)
        solved = bool(attempt and attempt.solved)
        streak = await puzzle_streak(storage, stored.guild_id, user, now)
        text = embed.verdict_text(puzzle, judged, counted, solved, streak, t)
        if not judged.right:
            # shown above the position again: the day's answer is given, so another try is
            # only practice (not "nothing was played: try again", which reads as a retry)
            return Verdict.refuse(text, again=TRY_OTHERS)
        # the last message of the puzzle: it says which puzzle it answers
        return Verdict.accept(f"{text}\n*{embed.title(puzzle, stored.day, t)}*")
