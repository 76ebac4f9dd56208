"""Who sits where (schema version 20): the ``game_players`` index of the people seated in
every active game (a lobby or a match in play), and a person's games read from it.

A row is written in the transaction of the game's save whenever the game's seated people
or its status change (:func:`players_steps`), and the game's rows are deleted when it is no
longer active: the index never names a finished game. ``/kasino games`` reads a person's
games everywhere (servers, DMs, group DMs, the ladder's matches and their second tables)
with one indexed query (:meth:`PlayerQueries.person_games`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from bot.models import Game
from bot.storage.records import GAME_COLUMNS, CorruptGame, row_to_game
from bot.storage.sql import ACTIVE, Computed, Statement, seat_list

log = logging.getLogger(__name__)

# The game columns read with a person's games, each prefixed by the games table's alias.
_COLUMNS = ", ".join(f"g.{name.strip()}" for name in GAME_COLUMNS.split(","))


def players_of(game: Game) -> frozenset[int]:
    """The people the index holds for a game: its seated people while it is active."""
    if not game.status.active:
        return frozenset()
    return frozenset(int(s.user_id) for s in game.seats if s.is_human and s.user_id)


def players_steps(game: Game) -> list[Statement]:
    """The statements that make the index hold :func:`players_of` the game (a stored
    game: its id is known), or nothing when it already does (``game.stored_players``)."""
    people = players_of(game)
    if game.stored_players == people:
        return []
    return [
        Statement("DELETE FROM game_players WHERE game_id = ?", (game.id,)),
        *(
            Statement(
                "INSERT INTO game_players (user_id, game_id) VALUES (?, ?)"
                " ON CONFLICT (user_id, game_id) DO NOTHING",
                (user, game.id),
            )
            for user in sorted(people)
        ),
    ]


def new_players_steps(game: Game) -> list[Statement]:
    """The index's rows of a new game, in the transaction that creates it: the new game is
    found by its own channel (one active game a channel), as its mirrors are."""
    return [
        Statement(
            "INSERT INTO game_players (user_id, game_id)"
            f" SELECT ?, id FROM games WHERE channel_id = ? AND {ACTIVE}"
            " ON CONFLICT (user_id, game_id) DO NOTHING",
            (user, game.channel_id),
        )
        for user in sorted(players_of(game))
    ]


def players_build_step() -> Computed:
    """The one-off step of the migration that adds the index: the seated people of every
    game active then (read from each row's seats, as both databases store them: JSON
    text), written once (nothing where the index has rows already)."""
    queries = (
        ("SELECT COUNT(*) FROM game_players", ()),
        (f"SELECT id, seats FROM games WHERE {ACTIVE}", ()),
    )
    return Computed(queries, players_statements)


def players_statements(rows: list[list[Sequence[Any]]]) -> list[Statement]:
    """The index's rows of the active games' seats (pure); a damaged seat names nobody."""
    (existing,), games = rows[0][0], rows[1]
    if int(existing):
        return []
    steps = []
    for game_id, seats in games:
        people = set()
        for seat in seat_list(seats):
            user = seat.get("user_id")
            if seat.get("kind", "human") == "human" and isinstance(user, int) and user > 0:
                people.add(user)
        steps += [
            Statement(
                "INSERT INTO game_players (user_id, game_id) VALUES (?, ?)",
                (user, int(game_id)),
            )
            for user in sorted(people)
        ]
    return steps


class PlayerQueries:
    """A person's active games (the :mod:`bot.storage.base` mixin's part)."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        raise NotImplementedError

    async def mirrors(self, game_id: int) -> list[Any]:
        raise NotImplementedError

    async def person_games(self, user_id: int) -> list[Game]:
        """Every active game (lobby or match in play) the person sits in, everywhere, by
        id: one indexed query (and one per ladder match for its second table). A game
        whose saved state cannot be read is left out (it is reported when it is loaded)."""
        rows = await self.fetch(
            f"SELECT {_COLUMNS} FROM game_players p JOIN games g ON g.id = p.game_id"
            f" WHERE p.user_id = ? AND g.{ACTIVE} ORDER BY g.id",
            (user_id,),
        )
        games = []
        for row in rows:
            try:
                game = row_to_game(row)
            except CorruptGame as broken:
                log.warning("game %s: left out of a list of games (%s)", broken.game_id, broken)
                continue
            if game.extra.get("mirrored"):
                game.mirrors = await self.mirrors(int(game.id))
            game.stored_players = players_of(game)
            games.append(game)
        return games
