"""Today's puzzle of a server and family, chosen once (:mod:`bot.puzzles.daily`) and
stored, so everyone in the server gets the same one all day.

Only finished games are read (:func:`bot.records.record.load_record` refuses any other),
so a puzzle never shows a game still in play. The replays and solves are CPU work:
``run`` (``asyncio.to_thread`` in the bot) takes them off the event loop.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.records.record import RecordError, load_record
from bot.storage.puzzles import PuzzleDay

from .builtin import builtin
from .daily import RECENT, TRIES, builtin_index, game_order
from .extract import best_candidate
from .families import variants_of
from .model import Puzzle

log = logging.getLogger(__name__)

Run = Callable[..., Awaitable[Any]]


async def _inline(function: Callable[..., Any], *args: Any) -> Any:
    return function(*args)


async def choose(storage: Any, guild_id: int, family: str, day: str, run: Run = _inline) -> Puzzle:
    """The puzzle the daily choice gives (not stored): the first of the server's recent
    finished games in today's order that has one, else a built-in puzzle."""
    games = await storage.finished_games_of(guild_id, variants_of(family), RECENT)
    for game_id in game_order(guild_id, day, family, games)[:TRIES]:
        try:
            record, _ = await load_record(storage, game_id, run)
        except RecordError:
            continue  # an old game without a whole move log, or a damaged one
        if record.players != 2 or record.rules.get("teams"):
            continue
        puzzle = await run(best_candidate, record)
        if puzzle is not None:
            return puzzle
    shipped = builtin(family)
    return shipped[builtin_index(guild_id, day, family, len(shipped))]


async def todays(
    storage: Any, guild_id: int, family: str, day: str, now: float, run: Run = _inline
) -> tuple[PuzzleDay, Puzzle]:
    """The server's stored puzzle of ``family`` on ``day``, chosen and stored first if
    nobody asked yet today."""
    stored = await storage.puzzle_day(guild_id, family, day)
    if stored is None:
        puzzle = await choose(storage, guild_id, family, day, run)
        stored = await storage.keep_puzzle_day(guild_id, family, day, puzzle.to_json(), now)
        log.info("guild %s: the %s puzzle of %s chosen", guild_id, family, day)
    return stored, Puzzle.from_json(stored.puzzle)
