"""Recorded matches for the analysis tests and benchmark: played by the computer players
(or the safe move) through the engine, kept as the storage keeps them, made records."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace

from bot.ai import SeatView, choose_move, hard, normal
from bot.ai.buildmoves import building_moves
from bot.engine import Match, Move, Round
from bot.models import Game, GameOptions, Seat, Status
from bot.moves import auto_move
from bot.records.record import GameRecord
from bot.storage import StoredMove


def play_match(
    variant: str,
    players: int,
    seed: object,
    levels: Sequence[str | None] | None = None,
    *,
    target: int | None = 5,
    teams: bool = False,
    budget_ms: float | None = None,
    auto: Sequence[int] = (),
    game_id: int = 9,
) -> GameRecord:
    """The record of a finished match of ``variant``: each seat plays at its level
    (``None``: the safe move a timed-out player gets), seeded; the moves numbered in
    ``auto`` (from 1) are logged as played by the bot for a player out of time."""
    levels = list(levels) if levels is not None else [None] * players
    options = GameOptions(variant=variant, teams=teams)
    if target is not None:  # None: the bot's default target
        options = replace(options, target=target)
    options = options.for_players(players)
    match = Match.start(options.rules(players), players, seed=seed)
    rows = []
    while not match.is_over:
        seat, number = match.round.to_move, match.rounds_played + 1
        move = _move(match.round, seat, levels[seat], (seed, len(rows)), budget_ms)
        match.play(move)
        rows.append(
            StoredMove(len(rows) + 1, seat, str(move.card), "", len(rows) + 1 in auto, 1.0,
                       number, json.dumps(move.to_dict()))
        )  # fmt: skip
    seats = [
        Seat(100 + i, f"p{i}", "human" if level is None else "computer", level)
        for i, level in enumerate(levels)
    ]
    game = Game(game_id, 1, 2, 100, options, seats, status=Status.FINISHED, match=match)
    return GameRecord.from_game(game, rows, 2.0)


def _move(round_: Round, seat: int, level: str | None, seed: object, budget: float | None) -> Move:
    if level is None:
        return auto_move(round_, seed)
    if level != "hard":
        return choose_move(round_, seat, level, seed=seed, budget_ms=budget)
    # hard as it plays, but with no clock at all (play has a safety stop on a slow
    # machine), so the matches are the same on any machine
    view = SeatView.of(round_, seat)
    move = hard.choose(view, random.Random(repr(seed)), hard.budget_for(view, budget), None)
    if view.rules.builds and not round_.is_legal(move):
        move = normal.ranked(view, building_moves(round_))[0][1]
    return move
