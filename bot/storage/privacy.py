"""Forgetting a person (``/kasino forget-me``): every row that names them, in one
transaction."""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

from bot.storage.analyses import AnalysisQueries
from bot.storage.sql import ACTIVE, Statement, json_object, seat_list

# What removes a person from the database, in one transaction with the anonymised seats
# of their games (see :meth:`Storage.forget_user`). ``ANONYMISE`` gives their rows a
# random negative id (``?``: it, then their id), so the others' ratings still add up
# (``ratings --check``); ``FORGET`` removes the rest (``?``: their id). A new table that
# names people adds its statements here; ``tests/bot/test_forget.py`` finds any row left.
ANONYMISE: tuple[str, ...] = (
    "UPDATE results SET user_id = ? WHERE user_id = ?",
    "UPDATE ratings SET user_id = ? WHERE user_id = ?",
    "UPDATE rating_changes SET user_id = ? WHERE user_id = ?",
    "UPDATE tournament_entrants SET user_id = ?, name = '' WHERE user_id = ?",
    "UPDATE tournament_places SET user_id = ? WHERE user_id = ?",
)
FORGET: tuple[str, ...] = (
    "DELETE FROM deck_styles WHERE kind = 'user' AND subject_id = ?",
    "DELETE FROM finished_players WHERE user_id = ?",
    "DELETE FROM lesson_progress WHERE user_id = ?",
    "UPDATE games SET host_id = 0 WHERE host_id = ?",
    "DELETE FROM puzzle_attempts WHERE user_id = ?",
    "UPDATE tournaments SET organiser_id = 0 WHERE organiser_id = ?",
)


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What :meth:`Storage.forget_user` removed: result rows, and games anonymised."""

    results: int
    games: int


ANONYMOUS = "👤"  # in place of a forgotten person's name in stored words


def _anonymised(seats: list[dict[str, Any]], user_id: int) -> tuple[list[str], list[int]]:
    """Make the person's seats nameless (in place): the names removed, and the seats'
    places (none: they did not sit there)."""
    places = [i for i, seat in enumerate(seats) if seat.get("user_id") == user_id]
    names = [str(seats[i].get("name") or "") for i in places]
    for i in places:
        seats[i]["user_id"], seats[i]["name"] = None, ""
    return [name for name in names if name], places


def _without(value: Any, names: list[str], user_id: int) -> Any:
    """A stored text (a move in words), or every text inside stored JSON, with the
    person's names (as whole words) and mentions replaced."""
    if isinstance(value, dict):
        return {key: _without(item, names, user_id) for key, item in value.items()}
    if isinstance(value, list):
        return [_without(item, names, user_id) for item in value]
    if not isinstance(value, str):
        return value
    for name in names:
        value = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", ANONYMOUS, value)
    return value.replace(f"<@{user_id}>", ANONYMOUS)


def _loads_list(text: Any) -> list[Any]:
    """A stored JSON list (``[]`` when damaged: it names nobody then)."""
    try:
        value = json.loads(str(text))
    except ValueError:
        return []
    return value if isinstance(value, list) else []


def _ids_replaced(value: Any, uid: int, anonymous: int) -> Any:
    """Stored JSON with the number ``uid`` (the person's id) replaced by ``anonymous``."""
    if isinstance(value, dict):
        return {key: _ids_replaced(item, uid, anonymous) for key, item in value.items()}
    if isinstance(value, list):
        return [_ids_replaced(item, uid, anonymous) for item in value]
    if isinstance(value, int) and not isinstance(value, bool) and value == uid:
        return anonymous
    if isinstance(value, str) and value == str(uid):
        return str(anonymous)
    return value


class PrivacyQueries(AnalysisQueries):
    """The storage's queries about a person's data (the analyses' among them: forgetting
    a person deletes the analyses of their seats)."""

    async def seated_in_active_game(self, user_id: int) -> bool:
        """Whether the person has a seat in a lobby or a match still running."""
        rows = await self.fetch(
            f"SELECT seats FROM games WHERE {ACTIVE} AND seats LIKE ?", (f"%{int(user_id)}%",)
        )
        return any(seat.get("user_id") == user_id for (seats,) in rows for seat in seat_list(seats))

    async def forget_user(self, user_id: int, now: float) -> Forgotten:
        """Remove every row that names the person, in one transaction: their settings go;
        their results and ratings stay, under a random negative id listed on no board, so
        that the other players' ratings still add up; in the games they played their seat,
        their name in the stored words and their mentions are made anonymous (the games
        stay, so the other players' histories and replays do too). Games still running are
        not touched: the caller refuses while the person is seated in one. A row of
        ``forgotten`` (at ``now``) tells every process to drop what it keeps in memory."""
        uid = int(user_id)
        anonymous = -1 - secrets.randbits(62)
        steps = [Statement(sql, (anonymous, uid)) for sql in ANONYMISE]
        steps += [Statement(sql, (uid,)) for sql in FORGET]
        steps += await self._lineups_without(uid, anonymous)
        steps += await self._analyses_without(uid)
        steps += await self._tournaments_without(uid, anonymous)
        games = await self._games_without(uid)
        # in the same transaction: no process can read the anonymised rows and still see
        # the old count, so none keeps serving what it held about the person
        told = Statement("INSERT INTO forgotten (at) VALUES (?)", (now,))
        changed = await self.write([*steps, *games, told])
        return Forgotten(results=int(changed[0]), games=len(games) // 2)

    async def in_open_tournament(self, user_id: int) -> bool:
        """Whether the person is signed up to a tournament still open (in sign-up, running
        or paused) and has not dropped out of it."""
        rows = await self.fetch(
            "SELECT 1 FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id"
            " WHERE e.user_id = ? AND e.dropped IS NULL"
            " AND t.phase IN ('signup', 'running', 'paused') LIMIT 1",
            (int(user_id),),
        )
        return bool(rows)

    async def _tournaments_without(self, uid: int, anonymous: int) -> list[Statement]:
        """The tournaments the person entered or organised without them: their seat in
        every table's players becomes ``anonymous`` (as their entrant and place rows do, so
        the standings still add up), and their names, mentions and id leave the stored
        extras (what the running side kept, e.g. a podium's words)."""
        tables = await self.fetch(
            "SELECT tournament_id, round, number, players FROM tournament_tables"
            " WHERE players LIKE ?",
            (f"%{uid}%",),
        )
        steps = []
        for tid, rnd, number, players in tables:
            seats = _loads_list(players)
            if uid not in seats:
                continue  # the id was only part of another number
            seats = [anonymous if seat == uid else seat for seat in seats]
            steps.append(
                Statement(
                    "UPDATE tournament_tables SET players = ?"
                    " WHERE tournament_id = ? AND round = ? AND number = ?",
                    (json.dumps(seats), tid, rnd, number),
                )
            )
        entered = await self.fetch(
            "SELECT t.id, t.extra, e.name FROM tournaments t LEFT JOIN tournament_entrants e"
            " ON e.tournament_id = t.id AND e.user_id = ?"
            " WHERE e.user_id IS NOT NULL OR t.organiser_id = ?",
            (uid, uid),
        )
        for tid, extra, name in entered:
            names = [str(name)] if name else []
            kept = _ids_replaced(_without(json_object(extra), names, uid), uid, anonymous)
            steps.append(
                Statement("UPDATE tournaments SET extra = ? WHERE id = ?", (json.dumps(kept), tid))
            )
        return steps

    async def forgotten_count(self) -> int:
        """How many people have been forgotten so far (the highest row of ``forgotten``):
        a process that sees it grow drops what it keeps in memory about people. One read
        of the primary key's end."""
        rows = await self.fetch("SELECT MAX(id) FROM forgotten")
        return int(rows[0][0] or 0)

    async def _lineups_without(self, uid: int, anonymous: int) -> list[Statement]:
        """Every match's lineup names all its seats, so the others' result rows too: the
        person becomes ``anonymous`` there."""
        rows = await self.fetch(
            "SELECT id, lineup FROM results WHERE lineup LIKE ?", (f'%"u{uid}"%',)
        )
        sql = "UPDATE results SET lineup = ? WHERE id = ?"
        return [
            Statement(sql, (str(lineup).replace(f'"u{uid}"', f'"u{anonymous}"'), result_id))
            for result_id, lineup in rows
        ]

    async def _games_without(self, uid: int) -> list[Statement]:
        """Two statements per finished game the person sat in: the game's row without them
        (seat, names in its stored words, mentions), and its history summary likewise."""
        rows = await self.fetch(
            f"SELECT id, seats, last_move, extra FROM games WHERE NOT ({ACTIVE}) AND seats LIKE ?",
            (f"%{uid}%",),
        )
        summaries = dict(
            await self.fetch(
                "SELECT game_id, summary FROM finished WHERE game_id IN"
                " (SELECT id FROM games WHERE seats LIKE ?)",
                (f"%{uid}%",),
            )
        )
        steps = []
        for game_id, seats_text, last_move, extra in rows:
            seats = seat_list(seats_text)
            names, places = _anonymised(seats, uid)
            if not places:
                continue  # the id was only part of another number
            extra_json = json.dumps(_without(json_object(extra), names, uid))
            summary = json_object(summaries.get(game_id))
            for place in places:
                if place < len(summary.get("seats", [])):
                    summary["seats"][place]["name"] = ""
            steps += [
                Statement(
                    "UPDATE games SET seats = ?, last_move = ?, extra = ? WHERE id = ?",
                    (json.dumps(seats), _without(last_move or "", names, uid), extra_json,
                     game_id),
                ),
                Statement(
                    "UPDATE finished SET summary = ? WHERE game_id = ?",
                    (json.dumps(summary), game_id),
                ),
            ]  # fmt: skip
        return steps
