"""``python -m bot ratings --rebuild`` / ``--check``: every rating again from the stored
results.

Each board's rated matches are replayed in the order they were rated (``rating_changes.seq``,
the order the bot's transactions took the board's lock), from each match's stored lineup,
with the very function the bot rates with (:func:`bot.storage.base.changes`), so the
floats come out bit for bit the same: each server's boards and the global ones (guild
:data:`bot.records.ratings.GLOBAL`, every rated match of every server). The bot rates the
global boards in the order its processes take the global lock, which is the order the
matches finished but for two finishing at once in two processes; the stored order is
the one replayed, so the rebuild reproduces what the bot did. A rated match without
changes on a board (it cannot happen through the bot; a hand-edited or partly restored
database) is replayed after the board's others, by result id (on a global board: by when
it finished, then by id, the order the migration that added the global ratings used).
A forgotten person (a negative id, a different one in each of their games) starts each
match from the rating stored with its change, and has no current rating. ``--check``
compares and changes nothing; ``--rebuild`` writes the recomputed ratings and changes in
one transaction (run it with the bot stopped, like ``migrate-db``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bot.records import ratings
from bot.storage.base import Statement, Storage, changes


@dataclass(slots=True)
class RebuildReport:
    """What a replay found: matches replayed, boards, and every difference (a few kept)."""

    matches: int = 0
    boards: int = 0
    differences: int = 0
    examples: list[str] = field(default_factory=list)
    written: bool = False

    def differ(self, text: str) -> None:
        """Note one difference."""
        self.differences += 1
        if len(self.examples) < 5:
            self.examples.append(text)

    def summary(self) -> str:
        """One line for the person who ran it."""
        line = (
            f"ratings: {self.matches} rated matches on {self.boards} boards replayed;"
            f" {self.differences} differences from the stored values"
        )
        if self.written:
            line += "; the recomputed ratings are stored"
        if self.examples:
            line += " (" + "; ".join(self.examples) + ")"
        return line


_Key = tuple[int, str, str]  # guild (GLOBAL: the global ratings), variant, board


async def rebuild(storage: Storage, *, write: bool) -> RebuildReport:
    """Replay every board, each server's and the global ones; with ``write`` store the
    result (else only compare)."""
    report = RebuildReport()
    # the matches each board rated, in order, and each match's stored changes there
    stored: dict[tuple[int, int], dict[int, tuple[Any, ...]]] = defaultdict(dict)
    order: dict[_Key, list[tuple[int, int]]] = defaultdict(list)  # (seq, game)
    for row in await storage.fetch(
        "SELECT game_id, guild_id, variant, board, user_id, seq, mu_before, sigma_before,"
        " mu_after, sigma_after, at FROM rating_changes ORDER BY guild_id, variant, board, seq"
    ):
        game, guild, variant, board, user, seq, *values = row
        key = (int(guild), str(variant), str(board))
        if not order[key] or order[key][-1][1] != int(game):
            order[key].append((int(seq), int(game)))
        stored[(key[0], int(game))][int(user)] = (
            int(seq),
            *map(float, values[:4]),
            float(values[4]),
        )
    matches, late = await _rated_matches(storage, stored, report)
    steps: list[Statement] = []
    finals: dict[_Key, dict[int, tuple[float, float, int, int, int]]] = {}
    replayed: set[int] = set()
    for key in sorted(set(order) | set(late)):
        report.boards += 1
        played = order.get(key, []) + [(0, game) for game in late.get(key, [])]
        made, finals[key] = _replay(key, played, matches, stored, report)
        steps += made
        replayed.update(game for _, game in played if game in matches)
    report.matches = len(replayed)  # each once, however many boards it moved
    await _compare_final(storage, finals, report)
    if write:
        await storage.write(
            [Statement("DELETE FROM rating_changes"), Statement("DELETE FROM ratings"), *steps]
        )
        report.written = True
    return report


_Match = tuple[ratings.Lineup, bool, float]  # lineup, hinted, finished at


async def _rated_matches(
    storage: Storage,
    stored: dict[tuple[int, int], dict[int, tuple[Any, ...]]],
    report: RebuildReport,
) -> tuple[dict[int, _Match], dict[_Key, list[int]]]:
    """Every match the results say must be rated, with its lineup and hints, and on each
    board those that are not: a server's in the order of their results' ids, the global
    ones in the order they finished across every server (then by id)."""
    matches: dict[int, _Match] = {}
    late: dict[_Key, list[tuple[float, int, int]]] = defaultdict(list)
    for game, guild, variant, lineup_text, hinted, at, first in await storage.fetch(
        "SELECT game_id, guild_id, variant, lineup, MAX(hinted), MAX(finished_at), MIN(id)"
        " FROM results WHERE lineup <> '' GROUP BY game_id, guild_id, variant, lineup"
        " ORDER BY MIN(id)"
    ):
        lineup = ratings.Lineup.loads(str(lineup_text))
        if lineup is None or not lineup.rated or int(game) in matches:
            continue
        matches[int(game)] = (lineup, bool(hinted), float(at))
        for scope in ratings.rating_scopes(int(guild)):
            if (scope, int(game)) in stored:
                continue
            key = (scope, str(variant), lineup.board)
            at_key = float(at) if scope == ratings.GLOBAL else 0.0
            late[key].append((at_key, int(first), int(game)))
            where = "globally" if scope == ratings.GLOBAL else "in its server"
            report.differ(f"match {game} is not rated {where}")
    return matches, {key: [game for *_, game in sorted(games)] for key, games in late.items()}


def _replay(
    key: _Key,
    played: list[tuple[int, int]],
    matches: dict[int, _Match],
    stored: dict[tuple[int, int], dict[int, tuple[Any, ...]]],
    report: RebuildReport,
) -> tuple[list[Statement], dict[int, tuple[float, float, int, int, int]]]:
    """One board's matches again, in order: the statements that store them, and each
    person's last rating and counts (a forgotten person has none)."""
    steps: list[Statement] = []
    current: dict[int, ratings.Rating] = {}
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    last = 0
    for kept, game in played:
        seq = last = kept or last + 1
        if game not in matches:
            report.differ(f"match {game} has rating changes but no rated result")
            continue
        lineup, hinted, at = matches[game]
        held = stored.get((key[0], game), {})
        at = next(iter(held.values()))[-1] if held else at
        _forgotten_before(lineup, held, current)
        made = changes(game, *key[:2], lineup, hinted, at, current, seq)
        for step in made[::2]:  # each person's change (then their rating)
            user = int(step.params[4])
            want = (seq, *map(float, step.params[6:10]), at)
            if held.get(user) != want:
                report.differ(f"match {game}, player {user} on {'/'.join(map(str, key))}")
            current[user] = ratings.Rating(float(step.params[8]), float(step.params[9]))
        for step in made[1::2]:  # each person's rating: matches, wins, hinted
            tally = counts[int(step.params[3])]
            tally[0] += 1
            tally[1] += int(step.params[6])
            tally[2] += int(step.params[7])
        # a forgotten person has no current rating (their rows are each a game's own)
        steps += made[::2] + [s for s in made[1::2] if int(s.params[3]) >= 0]
    final = {
        user: (rating.mu, rating.sigma, *counts[user])
        for user, rating in current.items()
        if user >= 0
    }
    return steps, final


async def _compare_final(
    storage: Storage,
    finals: dict[_Key, dict[int, tuple[float, float, int, int, int]]],
    report: RebuildReport,
) -> None:
    """The ratings table against the replay's last ratings and counts."""
    held: dict[tuple[_Key, int], tuple[float, float, int, int, int]] = {}
    for guild, variant, board, user, mu, sigma, n, wins, hinted in await storage.fetch(
        "SELECT guild_id, variant, board, user_id, mu, sigma, matches, wins, hinted FROM ratings"
    ):
        if int(user) < 0:
            continue  # a forgotten person's, kept by an older version: listed nowhere
        where = ((int(guild), str(variant), str(board)), int(user))
        held[where] = (float(mu), float(sigma), int(n), int(wins), int(hinted))
    want = {(key, user): line for key, players in finals.items() for user, line in players.items()}
    for where in set(held) | set(want):
        if held.get(where) != want.get(where):
            report.differ(f"rating of player {where[1]} on {'/'.join(map(str, where[0]))}")


def _forgotten_before(
    lineup: ratings.Lineup,
    stored: dict[int, tuple[Any, ...]],
    current: dict[int, ratings.Rating],
) -> None:
    """A forgotten person plays each of their games under a nameless id of that game
    (negative), so no chain of ratings leads to it: their rating before the match is the
    one stored with its change (which the bot rated the others with), put in ``current``."""
    for user in lineup.people:
        if user < 0 and user in stored:
            _seq, mu, sigma, *_ = stored[user]
            current[user] = ratings.Rating(mu, sigma)
