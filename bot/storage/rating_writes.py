"""What rating a finished match writes, in its save's transaction: each scope's changes and
new ratings (:func:`bot.records.ratings.rating_scopes`: a server's game moves its server's
ratings and the global ones), and the one-off step that gives a database from before the
global ratings its global rows.

Concurrency. A server's ratings are written only by the process owning the server; the
global ones by every process. Each scope's step is a :class:`Computed` that takes the
transaction-level advisory lock of ``(scope, variant)`` before it reads (PostgreSQL), so
two processes rating the same key take turns: the second reads the first one's new
ratings and last ``seq``. A row lock (``SELECT … FOR UPDATE``) would not do: a new
player has no row to lock, and the key's next ``seq`` (``MAX(seq) + 1``) depends on every
row of the key, not only the players'. Locks are taken in :func:`rating_scopes`' order,
the server's before the global one, and the global one last, so no two transactions wait
for each other in a circle. SQLite runs the same steps inside ``BEGIN IMMEDIATE``.
"""

from __future__ import annotations

import functools
import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from bot.records import ratings
from bot.storage.sql import Computed, Statement

RATINGS_LOCK = 0x52415447  # "RATG": the first key of a (guild, variant) ratings lock

_CHANGES_SQL = (
    "INSERT INTO rating_changes (game_id, guild_id, variant, board, user_id, seq, mu_before,"
    " sigma_before, mu_after, sigma_after, at) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
)
_RATINGS_SQL = (
    "INSERT INTO ratings (guild_id, variant, board, user_id, mu, sigma, matches, wins, hinted,"
    " updated_at) VALUES (?,?,?,?,?,?,1,?,?,?) ON CONFLICT (guild_id, variant, board, user_id)"
    " DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
    " matches = ratings.matches + 1, wins = ratings.wins + excluded.wins,"
    " hinted = ratings.hinted + excluded.hinted, updated_at = excluded.updated_at"
)


def ratings_lock(guild_id: int, variant: str) -> tuple[int, int]:
    """The advisory lock of one scope's ratings of one variant (both boards): a server's,
    or the global ones (``guild_id`` :data:`~bot.records.ratings.GLOBAL`)."""
    digest = hashlib.blake2b(f"{guild_id}:{variant}".encode(), digest_size=4).digest()
    return RATINGS_LOCK, int.from_bytes(digest, "big", signed=True)


def rating_steps(
    game_id: int, guild_id: int, variant: str, lineup: ratings.Lineup, hinted: bool, now: float
) -> list[Computed]:
    """The steps that rate a finished match in its save's transaction, one per scope it
    counts on, in the order their locks must be taken."""
    return [
        rating_step(game_id, scope, variant, lineup, hinted, now)
        for scope in ratings.rating_scopes(guild_id)
    ]


def rating_step(
    game_id: int, scope: int, variant: str, lineup: ratings.Lineup, hinted: bool, now: float
) -> Computed:
    """The step that rates a finished match on one scope (a server's ratings, or the
    global ones): it reads the players' ratings there and whether the match is already
    rated there (then it writes nothing), and writes each person's new rating and change,
    numbered after the scope's board's last change."""
    board = lineup.board
    people = lineup.people
    marks = ", ".join("?" for _ in people)
    where = (scope, variant, board)
    queries = (
        ("SELECT COUNT(*) FROM rating_changes WHERE game_id = ? AND guild_id = ?",
         (game_id, scope)),
        (
            "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND variant = ?"
            f" AND board = ? AND user_id IN ({marks})",
            (*where, *people),
        ),
        (
            "SELECT COALESCE(MAX(seq), 0) FROM rating_changes"
            " WHERE guild_id = ? AND variant = ? AND board = ?",
            where,
        ),
    )  # fmt: skip
    compute = functools.partial(rating_statements, game_id, scope, variant, lineup, hinted, now)
    return Computed(queries, compute, lock=ratings_lock(scope, variant))


def rating_statements(
    game_id: int,
    guild_id: int,
    variant: str,
    lineup: ratings.Lineup,
    hinted: bool,
    now: float,
    rows: list[list[Sequence[Any]]],
) -> list[Statement]:
    """What rating a match writes on one scope, from what the transaction read (pure)."""
    (done,), held, (last,) = rows[0][0], rows[1], rows[2][0]
    if int(done):
        return []  # rated already: a match moves each scope's ratings once
    current = {int(u): ratings.Rating(float(mu), float(sigma)) for u, mu, sigma in held}
    return changes(game_id, guild_id, variant, lineup, hinted, now, current, int(last) + 1)


def changes(
    game_id: int,
    guild_id: int,
    variant: str,
    lineup: ratings.Lineup,
    hinted: bool,
    now: float,
    current: dict[int, ratings.Rating],
    seq: int,
) -> list[Statement]:
    """The statements of one rated match on one scope: each person's change and new
    rating (alternately)."""
    board = lineup.board
    new = ratings.rate(lineup, current)
    won = {u for side in lineup.sides if side.won for u in _people(side.seats)}
    steps = []
    for user_id, after in new.items():
        before = current.get(user_id) or ratings.Rating()
        steps.append(
            Statement(
                _CHANGES_SQL,
                (game_id, guild_id, variant, board, user_id, seq, before.mu, before.sigma,
                 after.mu, after.sigma, now),
            )
        )  # fmt: skip
        steps.append(
            Statement(
                _RATINGS_SQL,
                (guild_id, variant, board, user_id, after.mu, after.sigma,
                 int(user_id in won), int(hinted), now),
            )
        )  # fmt: skip
    return steps


def _people(seats: Iterable[str]) -> list[int]:
    return [int(seat[1:]) for seat in seats if seat.startswith("u")]


# ------------------------------------------------- the global rows of an older database

# Every rated match the results hold, one row each, in the order they finished across
# every server (then by their first result's id).
RATED_MATCHES_SQL = (
    "SELECT game_id, variant, lineup, MAX(hinted), MAX(finished_at), MIN(id) FROM results"
    " WHERE lineup <> '' GROUP BY game_id, variant, lineup ORDER BY MAX(finished_at), MIN(id)"
)
# What a forgotten person (a nameless negative id, one per game) was rated with in each
# game on its server: the global rows start them from it (no chain of theirs is kept).
FORGOTTEN_BEFORE_SQL = (
    "SELECT game_id, user_id, mu_before, sigma_before FROM rating_changes"
    f" WHERE user_id < 0 AND guild_id <> {ratings.GLOBAL} ORDER BY id"
)


def global_build_step() -> Computed:
    """The one-off step (run by the migration that adds the global ratings, in its
    transaction) that rates every stored rated match on the global ratings, in the order
    the matches finished, so an upgraded bot shows global ratings at once. It writes
    nothing where global rows exist already."""
    queries = (
        (f"SELECT COUNT(*) FROM rating_changes WHERE guild_id = {ratings.GLOBAL}", ()),
        (RATED_MATCHES_SQL, ()),
        (FORGOTTEN_BEFORE_SQL, ()),
    )
    return Computed(queries, global_statements)


def global_statements(rows: list[list[Sequence[Any]]]) -> list[Statement]:
    """The global changes and ratings of every stored rated match (pure): each
    (variant, board) replayed in the order the rows come, as the bot would have rated
    them; a forgotten person's current rating is not kept."""
    (existing,), matches, forgotten = rows[0][0], rows[1], rows[2]
    if int(existing):
        return []
    before = {(int(g), int(u)): ratings.Rating(float(m), float(s)) for g, u, m, s in forgotten}
    current: dict[tuple[str, str], dict[int, ratings.Rating]] = defaultdict(dict)
    last: dict[tuple[str, str], int] = defaultdict(int)
    seen: set[int] = set()
    steps: list[Statement] = []
    for game, variant, text, hinted, at, _first in matches:
        lineup = ratings.Lineup.loads(str(text))
        if lineup is None or not lineup.rated or int(game) in seen:
            continue
        seen.add(int(game))
        key = (str(variant), lineup.board)
        held = current[key]
        for user in lineup.people:
            if user < 0:
                held[user] = before.get((int(game), user), ratings.Rating())
        last[key] += 1
        made = changes(int(game), ratings.GLOBAL, key[0], lineup, bool(hinted), float(at),
                       held, last[key])  # fmt: skip
        for change in made[::2]:
            held[int(change.params[4])] = ratings.Rating(
                float(change.params[8]), float(change.params[9])
            )
        steps += made[::2] + [s for s in made[1::2] if int(s.params[3]) >= 0]
    return steps
