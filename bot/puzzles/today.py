"""Today's puzzle of a server and family, chosen once (:mod:`bot.puzzles.daily`) and
stored, so everyone in the server gets the same one all day.

Only finished games are read (:func:`bot.records.record.load_record` refuses any other),
so a puzzle never shows a game still in play. Loading the records is ``run``'s
(``asyncio.to_thread`` in the bot); replaying and solving them, which takes up to
seconds of pure-Python CPU, is ``solve``'s: the bot gives it a worker *process*
(cogs/learning/puzzles.py), since a thread would hold the interpreter's lock against the event
loop for that long. :func:`first_puzzle` is what runs there (plain data in and out).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.records.record import GameRecord, RecordError, load_record
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


def first_puzzle(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The best puzzle of the first of ``records`` (their JSON form) that has one, as
    :meth:`Puzzle.to_dict` (None: none has). Pure: fit for a worker process."""
    for data in records:
        puzzle = best_candidate(GameRecord.from_dict(data))
        if puzzle is not None:
            return puzzle.to_dict()
    return None


def _exported(record: GameRecord) -> dict[str, Any] | None:
    """A two-player record's JSON form (None for other games: no puzzle is taken from
    them)."""
    if record.players != 2 or record.rules.get("teams"):
        return None
    return record.to_dict()


async def choose(
    storage: Any, guild_id: int, family: str, day: str, run: Run = _inline, solve: Run = _inline
) -> Puzzle:
    """The puzzle the daily choice gives (not stored): the first of the server's recent
    finished games in today's order (at most :data:`TRIES`) that has one, else a
    built-in puzzle."""
    games = await storage.finished_games_of(guild_id, variants_of(family), RECENT)
    records = []
    for game_id in game_order(guild_id, day, family, games)[:TRIES]:
        try:
            record, _ = await load_record(storage, game_id, run)
        except RecordError:
            continue  # an old game without a whole move log, or a damaged one
        exported = await run(_exported, record)
        if exported is not None:
            records.append(exported)
    found = None
    try:
        found = await solve(first_puzzle, records) if records else None
    except Exception:  # a worker that died, a damaged record: the day still gets a puzzle
        log.exception("guild %s: no puzzle from its games (%s, %s)", guild_id, family, day)
    if found is not None:
        return Puzzle.from_dict(found)
    shipped = builtin(family)
    return shipped[builtin_index(guild_id, day, family, len(shipped))]


async def todays(
    storage: Any,
    guild_id: int,
    family: str,
    day: str,
    now: float,
    run: Run = _inline,
    solve: Run = _inline,
) -> tuple[PuzzleDay, Puzzle]:
    """The server's stored puzzle of ``family`` on ``day``, chosen and stored first if
    nobody asked yet today."""
    stored = await storage.puzzle_day(guild_id, family, day)
    if stored is None:
        puzzle = await choose(storage, guild_id, family, day, run, solve)
        stored = await storage.keep_puzzle_day(guild_id, family, day, puzzle.to_json(), now)
        log.info("guild %s: the %s puzzle of %s chosen", guild_id, family, day)
    return stored, Puzzle.from_json(stored.puzzle)
