"""Forgetting a person (``/kasino forget-me``): every row that names them, in one
transaction."""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

from bot.records.seal import forget_seat
from bot.storage.analyses import AnalysisQueries
from bot.storage.sql import ACTIVE, Statement, json_object, seat_list

# What removes a person from the database, in one transaction with the anonymised seats
# of their games (see :meth:`Storage.forget_user`). Their result rows and rating changes
# are given a random negative id of their game (a different one in every game: ``?``: it,
# the game, then their id), so the others' ratings still add up (``ratings --check``)
# and no id links their games to one another; ``FORGET`` removes the rest (``?``: their
# id), their current ratings among it, every scope's: each server's and the global ones
# (one row per board would link every game rated on it). A new table that names people
# adds its statements here or in ``forget_user``; ``tests/bot/test_forget.py`` finds any
# row left.
PER_GAME: tuple[str, ...] = (
    "UPDATE results SET user_id = ? WHERE game_id = ? AND user_id = ?",
    "UPDATE rating_changes SET user_id = ? WHERE game_id = ? AND user_id = ?",
)
# a tournament's rows share one nameless id of that tournament (its standings and
# tables need one person there), a different one in each tournament
PER_TOURNAMENT: tuple[str, ...] = (
    "UPDATE tournament_entrants SET user_id = ?, name = '' WHERE tournament_id = ? AND user_id = ?",
    "UPDATE tournament_places SET user_id = ? WHERE tournament_id = ? AND user_id = ?",
)
FORGET: tuple[str, ...] = (
    "DELETE FROM ratings WHERE user_id = ?",
    "DELETE FROM deck_styles WHERE kind = 'user' AND subject_id = ?",
    "DELETE FROM finished_players WHERE user_id = ?",
    "DELETE FROM lesson_progress WHERE user_id = ?",
    "UPDATE games SET host_id = 0 WHERE host_id = ?",
    "DELETE FROM puzzle_attempts WHERE user_id = ?",
    "UPDATE tournaments SET organiser_id = 0 WHERE organiser_id = ?",
    # the ladder: their entry, their blocks and others' blocks of them, their meetings
    "DELETE FROM ladder_queue WHERE user_id = ?",
    "DELETE FROM ladder_blocks WHERE user_id = ?",
    "DELETE FROM ladder_blocks WHERE blocked_id = ?",
    "DELETE FROM ladder_recent WHERE user_id = ?",
    "DELETE FROM ladder_recent WHERE other_id = ?",
    "DELETE FROM ladder_abandons WHERE user_id = ?",
    "DELETE FROM table_talk WHERE user_id = ?",  # their mute and when they last spoke
    "DELETE FROM game_players WHERE user_id = ?",  # the games they sit in
    "DELETE FROM notice_prefs WHERE user_id = ?",  # their notice settings and vacation
)


def nameless() -> int:
    """A new random negative id (never a Discord id, never a computer's)."""
    return -1 - secrets.randbits(62)


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What :meth:`Storage.forget_user` removed: result rows, games anonymised, and the
    games and tournaments whose public messages named the person (the bot edits them)."""

    results: int
    games: int
    game_ids: tuple[int, ...] = ()
    tournament_ids: tuple[int, ...] = ()


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
        """Remove every row that names the person, in one transaction: their settings and
        current ratings go; their results and rating changes stay, each game's under its
        own random negative id listed on no board (so the other players' ratings still add
        up, and no id links one of their games to another); in the games they played their
        seat, their name in the stored words and their mentions are made anonymous (the
        games stay, so the other players' histories and replays do too). Games still
        running are not touched: the caller refuses while the person is seated in one. A
        row of ``forgotten`` (at ``now``) tells every process to drop what it keeps in
        memory about people."""
        uid = int(user_id)
        rated = [int(game) for (game,) in await self.fetch(
            "SELECT game_id FROM results WHERE user_id = ?"
            " UNION SELECT game_id FROM rating_changes WHERE user_id = ?", (uid, uid)
        )]  # fmt: skip
        anonymous = {game: nameless() for game in rated}
        steps = [Statement(sql, (anonymous[game], game, uid)) for game in rated for sql in PER_GAME]
        steps += [Statement(sql, (uid,)) for sql in FORGET]
        steps += await self._lineups_without(uid, anonymous)
        steps += await self._analyses_without(uid)
        tournaments, tournament_steps = await self._tournaments_without(uid)
        steps += tournament_steps
        games, game_ids = await self._games_without(uid)
        # in the same transaction: no process can read the anonymised rows and still see
        # the old count, so none keeps serving what it held about the person
        told = Statement("INSERT INTO forgotten (at) VALUES (?)", (now,))
        changed = await self.write([*steps, *games, told])
        results = sum(int(changed[i]) for i in range(0, len(rated) * len(PER_GAME), 2))
        return Forgotten(results, len(game_ids), tuple(game_ids), tuple(tournaments))

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

    async def _tournaments_without(self, uid: int) -> tuple[list[int], list[Statement]]:
        """The tournaments the person entered or organised, and the statements that take
        them out: in each tournament they entered they become a nameless id of that
        tournament (their entrant and place rows and their seat in every table's players,
        so the standings still add up), and their names, mentions and id leave the stored
        extras (what the running side kept, e.g. a podium's words)."""
        entered = await self.fetch(
            "SELECT t.id, t.extra, e.name, e.user_id FROM tournaments t"
            " LEFT JOIN tournament_entrants e ON e.tournament_id = t.id AND e.user_id = ?"
            " WHERE e.user_id IS NOT NULL OR t.organiser_id = ?",
            (uid, uid),
        )
        anonymous = {int(tid): nameless() for tid, _, _, _ in entered}
        steps = [
            Statement(sql, (anonymous[int(tid)], tid, uid))
            for tid, _, _, user in entered
            if user is not None
            for sql in PER_TOURNAMENT
        ]
        tables = await self.fetch(
            "SELECT tournament_id, round, number, players FROM tournament_tables"
            " WHERE players LIKE ?",
            (f"%{uid}%",),
        )
        for tid, rnd, number, players in tables:
            seats = _loads_list(players)
            if uid not in seats:
                continue  # the id was only part of another number
            other = anonymous.setdefault(int(tid), nameless())
            seats = [other if seat == uid else seat for seat in seats]
            steps.append(
                Statement(
                    "UPDATE tournament_tables SET players = ?"
                    " WHERE tournament_id = ? AND round = ? AND number = ?",
                    (json.dumps(seats), tid, rnd, number),
                )
            )
        for tid, extra, name, _ in entered:
            names = [str(name)] if name else []
            kept = _without(json_object(extra), names, uid)
            kept = _ids_replaced(kept, uid, anonymous[int(tid)])
            steps.append(
                Statement("UPDATE tournaments SET extra = ? WHERE id = ?", (json.dumps(kept), tid))
            )
        return sorted(anonymous), steps

    async def forgotten_count(self) -> int:
        """How many people have been forgotten so far (the highest row of ``forgotten``):
        a process that sees it grow drops what it keeps in memory about people. One read
        of the primary key's end."""
        rows = await self.fetch("SELECT MAX(id) FROM forgotten")
        return int(rows[0][0] or 0)

    async def _lineups_without(self, uid: int, anonymous: dict[int, int]) -> list[Statement]:
        """Every match's lineup names all its seats, so the others' result rows too: the
        person becomes that game's nameless id there."""
        rows = await self.fetch(
            "SELECT id, game_id, lineup FROM results WHERE lineup LIKE ?", (f'%"u{uid}"%',)
        )
        sql = "UPDATE results SET lineup = ? WHERE id = ?"
        steps = []
        for result_id, game, lineup in rows:
            other = anonymous.setdefault(int(game), nameless())
            steps.append(
                Statement(sql, (str(lineup).replace(f'"u{uid}"', f'"u{other}"'), result_id))
            )
        return steps

    async def _games_without(self, uid: int) -> tuple[list[Statement], list[int]]:
        """Two statements per finished game the person sat in: the game's row without them
        (seat, names in its stored words, mentions), and its history summary likewise;
        and those games' ids."""
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
        steps: list[Statement] = []
        ids: list[int] = []
        for game_id, seats_text, last_move, extra in rows:
            seats = seat_list(seats_text)
            names, places = _anonymised(seats, uid)
            if not places:
                continue  # the id was only part of another number
            ids.append(int(game_id))
            kept = _without(json_object(extra), names, uid)
            for place in places:
                # the seal keeps the seat's tag; its salt goes, or the tag would lead
                # whoever reads the database back to the id by trying ids
                forget_seat(kept, int(game_id), place, uid)
            extra_json = json.dumps(kept)
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
        return steps, ids
