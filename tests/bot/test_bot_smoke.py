"""Quick end-to-end check while building."""

from __future__ import annotations

import time


async def test_two_player_match_smoke(harness):
    game = await harness.start_game(2, target=5)
    t = time.perf_counter()
    moves = await harness.play_to_end(game)
    print("moves", moves, "interactions", harness.interactions, time.perf_counter() - t)
    assert game.status == "finished"
