"""The built-in puzzles, for a server that has no finished game with one yet.

``builtin.json`` (beside this file) is made by ``python -m bot.puzzles build``
(:func:`build`): computer-vs-computer matches (the ``normal`` level, two players) of
every variant from fixed seeds, each game's best puzzle kept
(:func:`bot.puzzles.extract.best_candidate`), and the :data:`PER_VARIANT` richest kept.
The same seeds give the same file; ``tests/puzzles`` re-solves every puzzle in it.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from bot.engine import Match
from bot.engine.rules import rules_to_dict
from bot.models import GameOptions
from bot.records.record import GameRecord, RecordedMove

from .extract import best_candidate
from .families import FAMILIES, variants_of
from .model import Puzzle

PATH = Path(__file__).with_name("builtin.json")
PER_VARIANT = {"nordic": 2, "krypkasino": 6, "casino": 2}
GAMES = 10  # games played per variant; their richest puzzles are kept


@lru_cache(maxsize=1)
def _all() -> dict[str, tuple[Puzzle, ...]]:
    data = json.loads(PATH.read_text(encoding="utf-8"))
    return {family: tuple(Puzzle.from_dict(p) for p in data[family]) for family in FAMILIES}


def builtin(family: str) -> tuple[Puzzle, ...]:
    """The built-in puzzles of ``family``."""
    return _all()[family]


def played_record(variant: str, seed: str) -> GameRecord:
    """A two-player match of ``variant`` between ``normal`` computers, dealt from ``seed``
    and played to its end, as a record (no people in it)."""
    from bot.ai import choose_move

    options = GameOptions(variant=variant).for_players(2)
    rules = options.rules(2)
    match = Match.start(rules, 2, seed=seed)
    moves = []
    while not match.is_over:
        seat = match.round.to_move
        move = choose_move(match.round, seat, "normal", seed=f"{seed}:{len(moves)}")
        moves.append(RecordedMove(seat, match.rounds_played + 1, move))
        match.play(move)
    return GameRecord(
        game_id=0, guild_id="0", channel_id="0", options={"variant": variant},
        rules=rules_to_dict(rules), players=2,
        seats=[{"name": "", "kind": "computer", "level": "normal"}] * 2, seed=seed,
        moves=moves, scores=list(match.scores), winner=match.winner, round_scores=[],
    )  # fmt: skip


def richness(puzzle: Puzzle) -> tuple[int, int, int]:
    """How much a puzzle asks: cards left in hands, moves to choose from, then margin."""
    return (sum(map(len, puzzle.position["hands"])), len(puzzle.values), puzzle.margin)


def build(path: Path = PATH, log: bool = True) -> dict[str, list[dict]]:
    """Make the built-in set and write it to ``path``: per variant, the best puzzles of
    :data:`GAMES` games (each game's best, then the richest of them)."""
    data: dict[str, list[dict]] = {family: [] for family in FAMILIES}
    for family in FAMILIES:
        for variant in variants_of(family):
            found = []
            for number in range(GAMES):
                seed = f"puzzle-{variant}-{number}"
                puzzle = best_candidate(played_record(variant, seed))
                if puzzle is not None:
                    source = {"set": "builtin", "seed": seed, "step": puzzle.source["step"]}
                    found.append(replace(puzzle, source=source))
            found.sort(key=richness, reverse=True)
            data[family] += [p.to_dict() for p in found[: PER_VARIANT[family]]]
            if log:
                print(f"{variant}: {min(len(found), PER_VARIANT[family])} puzzles", flush=True)
    path.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n")
    _all.cache_clear()
    return data
