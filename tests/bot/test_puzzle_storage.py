"""The puzzle of the day in storage (bot/storage/puzzles.py), on both databases: the
day's puzzle is kept once (a second choice finds the first), a person's first answer is
the one counted, the streak reads solved days, and forgetting a person deletes their
answers. The daily choice reads only finished games (bot/puzzles/today.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.engine import Match
from bot.models import Game, GameOptions, Seat, Status
from bot.moves import auto_move
from bot.puzzles.builtin import builtin
from bot.puzzles.daily import TRIES
from bot.puzzles.streak import puzzle_streak
from bot.puzzles.today import choose, todays
from bot.storage import Storage, StoredMove
from bot.storage.schema import ID_TABLES, TABLES

GUILD, ANNA, BJORN = 7, 41, 42
DAY = 86400.0
MARCH_1 = 1772323200.0  # 2026-03-01 00:00 UTC


async def test_the_day_is_kept_once_and_the_first_answer_counts(db_path: Path | str) -> None:
    assert {"puzzle_days", "puzzle_attempts"} <= set(TABLES) and "puzzle_days" in ID_TABLES
    storage = await Storage.open(db_path)
    try:
        one, two = builtin("nordic")[:2]
        kept = await storage.keep_puzzle_day(GUILD, "nordic", "2026-03-01", one.to_json(), 1.0)
        again = await storage.keep_puzzle_day(GUILD, "nordic", "2026-03-01", two.to_json(), 2.0)
        assert again == kept and again.puzzle == one.to_json()  # the first choice stays
        assert await storage.puzzle_day_by_id(kept.id) == kept
        assert await storage.puzzle_day(GUILD, "casino", "2026-03-01") is None

        move = json.dumps(one.best.to_dict())
        # not opened with the command in its server: nothing to answer
        assert not await storage.answer_puzzle(kept, ANNA, move, True, 4.0)
        assert await storage.puzzle_attempt(kept.id, ANNA) is None
        await storage.open_puzzle(kept, ANNA, 4.5)
        opened = await storage.puzzle_attempt(kept.id, ANNA)
        assert opened is not None and not opened.answered
        await storage.open_puzzle(kept, ANNA, 4.6)  # again: still one row, unanswered
        assert await storage.answer_puzzle(kept, ANNA, "{}", False, 5.0)  # counted
        assert not await storage.answer_puzzle(kept, ANNA, move, True, 6.0)  # not counted
        attempt = await storage.puzzle_attempt(kept.id, ANNA)
        assert attempt is not None and not attempt.solved and attempt.move == "{}"
        assert await puzzle_streak(storage, GUILD, ANNA, MARCH_1 + 60) == 0

        # Björn solves three days running, across the end of February; the streak
        # lives on through a day not yet solved, and dies after a whole day missed
        for number, day in enumerate(("2026-02-27", "2026-02-28", "2026-03-01")):
            stored = await storage.keep_puzzle_day(GUILD, "casino", day, two.to_json(), 1.0)
            await storage.open_puzzle(stored, BJORN, 1.0 + number)
            assert await storage.answer_puzzle(stored, BJORN, move, True, 1.0 + number)
        assert await puzzle_streak(storage, GUILD, BJORN, MARCH_1 + 60) == 3
        assert await puzzle_streak(storage, GUILD, BJORN, MARCH_1 + DAY + 60) == 3
        assert await puzzle_streak(storage, GUILD, BJORN, MARCH_1 + 2 * DAY + 60) == 0
        assert await puzzle_streak(storage, GUILD + 1, BJORN, MARCH_1 + 60) == 0  # per server

        await storage.forget_user(BJORN, 9.0)
        assert await storage.solved_days(GUILD, BJORN, "2000-01-01") == []
        assert await storage.puzzle_attempt(kept.id, ANNA) is not None  # others' stay
    finally:
        await storage.close()


def finished_game(game_id: int, variant: str, seed: str, status: Status) -> tuple[Game, list]:
    """A two-player match played with the safe move (to its end unless ``status`` says
    it is still being played) and its move log."""
    options = GameOptions(variant=variant).for_players(2)
    match = Match.start(options.rules(2), 2, seed=seed)
    rows = []
    while not match.is_over and (status is Status.FINISHED or len(rows) < 30):
        move = auto_move(match.round, "test")
        seat, number = match.round.to_move, match.rounds_played + 1
        match.play(move)
        rows.append(
            StoredMove(len(rows) + 1, seat, str(move.card), "", False, 1.0, number,
                       json.dumps(move.to_dict()))
        )  # fmt: skip
    seats = [Seat(100, "Anna"), Seat(101, "Björn")]
    return Game(game_id, GUILD, 2, 100, options, seats, status=status, match=match), rows


class Games:
    """Just what the daily choice reads of storage: finished games and their moves."""

    def __init__(self, games: list[tuple[Game, list]]) -> None:
        self.games = {game.id: (game, rows) for game, rows in games}
        self.kept: dict[tuple[int, str, str], Any] = {}
        self.read: list[int] = []

    async def finished_games_of(self, guild_id: int, variants: Any, limit: int) -> list[int]:
        # as a forged or racing list could: a game still in play among them
        return list(self.games)

    async def get_game(self, game_id: int) -> Game | None:
        self.read.append(game_id)
        return self.games[game_id][0]

    async def game_moves(self, game_id: int) -> list:
        return self.games[game_id][1]

    async def finished_at(self, game_id: int) -> float:
        return 1.0


async def test_the_choice_reads_only_finished_games_and_names_nobody() -> None:
    games = [finished_game(n, "swedish", f"seed-{n}", Status.FINISHED) for n in range(1, 9)]
    games.append(finished_game(99, "swedish", "running", Status.PLAYING))
    source = Games(games)
    puzzle = await choose(source, GUILD, "nordic", "2026-03-01")
    again = await choose(Games(games), GUILD, "nordic", "2026-03-01")
    assert again == puzzle  # the same for everyone
    assert len(set(source.read)) <= TRIES
    assert 1 <= puzzle.source["game"] <= 8  # from a finished game of the server
    text = puzzle.to_json()
    assert "Anna" not in text and "Björn" not in text
    # a game still in play is never read into a puzzle, whatever lists it
    running = Games([finished_game(99, "swedish", "running", Status.PLAYING)])
    assert await choose(running, GUILD, "nordic", "2026-03-01") in builtin("nordic")
    assert running.read == [99]
    # a server with no finished game: the built-in set
    nothing = await choose(Games([]), GUILD, "casino", "2026-03-01")
    assert nothing in builtin("casino")


async def test_the_day_is_chosen_once_in_storage(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        first, puzzle = await todays(storage, GUILD, "krypkasino", "2026-03-01", 1.0)
        second, same = await todays(storage, GUILD, "krypkasino", "2026-03-01", 2.0)
        assert first == second and puzzle == same and puzzle in builtin("krypkasino")
    finally:
        await storage.close()


async def test_the_solves_run_in_the_shared_worker_processes() -> None:
    from bot.analysis import review_move
    from bot.analysis.pool import AnalysisPool

    games = [finished_game(n, "krypkasino", f"seed-{n}", Status.FINISHED) for n in range(1, 4)]
    inline = await choose(Games(games), GUILD, "krypkasino", "2026-03-01")
    pool = AnalysisPool(review_move)
    try:
        pooled = await choose(Games(games), GUILD, "krypkasino", "2026-03-01", solve=pool.call)
    finally:
        await pool.close()
    assert pooled == inline and "game" in pooled.source


async def test_a_failing_worker_still_gives_the_day_a_puzzle() -> None:
    games = [finished_game(n, "swedish", f"seed-{n}", Status.FINISHED) for n in range(1, 3)]

    async def broken(function: Any, *args: Any) -> Any:
        raise RuntimeError("the worker died")

    puzzle = await choose(Games(games), GUILD, "nordic", "2026-03-01", solve=broken)
    assert puzzle in builtin("nordic")
