"""A profile's win streaks are counted by the database (one query, however many matches a
player has); a plain count of the runs, oldest first, is the reference."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from bot.models import Game, GameOptions, Seat
from bot.storage import Statement, Storage

GUILD, PLAYER = 7, 42


def streaks(outcomes: Sequence[bool]) -> tuple[int, int]:
    """The longest and the current run of wins, oldest first (the reference)."""
    longest = run = 0
    for won in outcomes:
        run = run + 1 if won else 0
        longest = max(longest, run)
    return longest, run


async def test_streaks_match_a_plain_count(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        rng = random.Random(5)
        for case in range(12):
            outcomes = [rng.random() < 0.6 for _ in range(rng.randrange(0, 40))]
            if case == 0:
                outcomes = [True] * 5  # never lost
            user = PLAYER + case
            steps = []
            for number, won in enumerate(outcomes):
                game = Game(
                    0, GUILD, 1000 + case * 100 + number, user, GameOptions(), [Seat(user, "p")]
                )
                await storage.create_game(game, now=0.0)
                # ties in time are ordered by the game's id, as the profile orders them
                at = float(number // 3)
                steps.append(
                    Statement(
                        "INSERT INTO results (game_id, guild_id, variant, target, user_id, side,"
                        " won, points, tabbar, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                        (game.id, GUILD, "swedish", 16, user, 0, int(won), 0, 0, at),
                    )
                )
            if steps:
                await storage.write(steps)
            found = await storage.player_streaks(GUILD, user)
            assert found == streaks(outcomes), (case, outcomes)
            assert await storage.player_streaks(GUILD, user, "mulle") == (0, 0)
    finally:
        await storage.close()
