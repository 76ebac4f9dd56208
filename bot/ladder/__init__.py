"""The ladder's pool and its fair pairing: pure rules (no discord import, no storage).

People queue for a game (a variant and a number of players) with their global rating
(shown points, :func:`bot.records.ratings.points`) and the time they joined; every few
seconds, and whenever someone joins, :func:`pairings` groups the waiting entries of each
game. The storage (:mod:`bot.storage.ladder`) runs it inside the transaction that removes
the paired entries, so two processes never pair anyone twice.

The rules, with their numbers (players see them in docs/players.md, "The ladder"):

* **Games.** Every variant for 2 players, and for 4 (partnerships where the variant has
  them); Krypkasino also for 3, 5 and 6 (:func:`ladder_counts`). One entry per person: a
  new entry replaces the old one (:func:`pairings` keeps a person's latest entry only).
* **The rating window.** Two people may meet when their ratings are at most the window
  apart, and the window grows with the time waited: :data:`WINDOW_START` (±50) at once,
  :data:`WINDOW_STEP` (25) more for every :data:`WINDOW_EVERY` (10 s) waited, at most
  :data:`WINDOW_CAP` (±300, reached after 100 s: :data:`WIDEST_AFTER`). The gap must fit
  **both** people's windows: a newcomer is not thrown at someone far away just because
  the other has waited long. In a group of 3 to 6, every two of its members must fit so.
* **Blocks.** Two people are never put together if either has blocked the other.
* **Recent opponents.** People who met in either one's last :data:`RECENT_MATCHES` (3)
  ladder matches are put together only when nobody else fits.
* **Who goes first.** The entries are taken in the order they joined (longest waiting
  first; equal times by user id). The longest waiter not yet placed is given the best
  group it fits, among the entries still waiting:

  - two players: the partner it has not met recently, then the closest rating, then the
    longest waiting (then the smaller user id);
  - 3 to 6 players: a group where nobody has met recently if there is one, and among
    those the longest-waiting group (its other members' join times, compared oldest
    first, earliest wins); the search looks at most :data:`GROUP_SEARCH_LIMIT` partial
    groups per entry and :data:`GAME_SEARCH_LIMIT` per game in one call (bounds no real
    pool reaches: a pool where most people block most others could; past them, the
    entries not yet reached wait for the next call).

  An entry that fits nobody stays, and the next one chooses. So nobody who fits is left
  waiting: an entry left in the pool fits no group made of entries placed after its turn
  (:func:`pairings`' result is the lexicographic best over every possible set of groups,
  comparing the choosers' groups in join order; ``tests/ladder`` checks it by brute force).
* **Waiting long.** After :data:`OFFER_COMPUTER_AFTER` (3 minutes) the bot offers a game
  against the ``hard`` computer (unrated) and keeps the entry.
* **Abandoning.** A ladder match lost on time by a player who stopped moving counts as an
  abandonment. :data:`PAUSE_FROM` (3) abandonments within :data:`ABANDON_WINDOW` (24 h)
  pause the person's queueing for :data:`PAUSE_FIRST` (30 minutes), each further one
  within the window doubles it, up to :data:`PAUSE_MOST` (24 h): :func:`paused_until`.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.engine import rules_for
from bot.models import LIVE, PACES

WINDOW_START = 50.0  # the rating gap (shown points) acceptable at once
WINDOW_STEP = 25.0  # how much wider it gets ...
WINDOW_EVERY = 10.0  # ... for each of these seconds waited
WINDOW_CAP = 300.0  # the widest it gets
WIDEST_AFTER = (WINDOW_CAP - WINDOW_START) / WINDOW_STEP * WINDOW_EVERY  # 100 s
RECENT_MATCHES = 3  # a person's last ladder matches whose opponents are avoided
OFFER_COMPUTER_AFTER = 180.0  # seconds waited before a game with the computer is offered
GROUP_SEARCH_LIMIT = 20_000  # partial groups tried per entry, at most (3 to 6 players)
GAME_SEARCH_LIMIT = 100_000  # ... and per game in one call of pairings()
KRYPKASINO = "krypkasino"

ABANDON_WINDOW = 24 * 3600.0  # abandonments within this long count towards a pause
PAUSE_FROM = 3  # this many abandonments within the window pause queueing ...
PAUSE_FIRST = 30 * 60.0  # ... for this long, doubled by each further one ...
PAUSE_MOST = 24 * 3600.0  # ... up to this long


@dataclass(frozen=True, slots=True)
class Entry:
    """One person waiting: the game (variant, players), their global rating in shown
    points when they joined, and when they joined (seconds)."""

    user_id: int
    variant: str
    players: int
    rating: float
    joined_at: float

    @property
    def game(self) -> tuple[str, int]:
        """The game this entry waits for."""
        return self.variant, self.players

    @property
    def order(self) -> tuple[float, int]:
        """Its place in the queue: who joined first, then the smaller user id."""
        return self.joined_at, self.user_id


Group = tuple[Entry, ...]  # the entries put together, the one that chose first


# A correspondence game's pool is its own (bot.models.PACES): its key is the variant
# and the pace, ``swedish@1d``; a live game's is the variant alone.
PACE_MARK = "@"


def pool_key(variant: str, pace: str = LIVE) -> str:
    """The pool a game of ``variant`` at ``pace`` is queued in."""
    return variant if pace == LIVE else f"{variant}{PACE_MARK}{pace}"


def pool_parts(key: str) -> tuple[str, str]:
    """The variant and pace of a pool (an unknown pace: not a game, refused as one)."""
    variant, _, pace = key.partition(PACE_MARK)
    return variant, pace or LIVE


def ladder_counts(key: str) -> tuple[int, ...]:
    """The numbers of players a pool's game is queued for (empty: not a game)."""
    variant, pace = pool_parts(key)
    if pace != LIVE and pace not in PACES:
        return ()
    try:
        rules = rules_for(variant)
    except ValueError:
        return ()
    if variant == KRYPKASINO:
        return tuple(n for n in rules.player_counts if 2 <= n <= 6)
    return tuple(
        n for n in (2, 4) if n in rules.player_counts and (n == 2 or n in rules.team_counts)
    )


def is_ladder_game(variant: str, players: int) -> bool:
    """Whether people can queue for this game."""
    return players in ladder_counts(variant)


def window(waited: float) -> float:
    """The rating gap acceptable after waiting ``waited`` seconds (see the module)."""
    steps = math.floor(max(0.0, waited) / WINDOW_EVERY)
    return min(WINDOW_START + WINDOW_STEP * steps, WINDOW_CAP)


def fits(a: Entry, b: Entry, now: float) -> bool:
    """Whether two entries' ratings are within both their windows at ``now``."""
    gap = abs(a.rating - b.rating)
    return gap <= window(now - a.joined_at) and gap <= window(now - b.joined_at)


def rating_range(entry: Entry, now: float) -> tuple[float, float]:
    """The ratings an entry may meet now, by its own window (the other's must fit too):
    what its waiting message may show."""
    reach = window(now - entry.joined_at)
    return entry.rating - reach, entry.rating + reach


def computer_due(entry: Entry, now: float) -> bool:
    """Whether the entry has waited long enough to be offered the computer."""
    return now - entry.joined_at >= OFFER_COMPUTER_AFTER


def blocked(a: int, b: int, blocks: Collection[tuple[int, int]]) -> bool:
    """Whether either person blocked the other (``blocks``: (blocker, blocked) pairs)."""
    return (a, b) in blocks or (b, a) in blocks


def met(a: int, b: int, recent: Mapping[int, Collection[int]]) -> bool:
    """Whether two people met in either one's last ladder matches."""
    return b in recent.get(a, ()) or a in recent.get(b, ())


def acceptable(a: Entry, b: Entry, now: float, blocks: Collection[tuple[int, int]]) -> bool:
    """Whether two entries may sit at one table: the same game, two people, within both
    windows, and neither blocked the other."""
    return (
        a.game == b.game
        and a.user_id != b.user_id
        and fits(a, b, now)
        and not blocked(a.user_id, b.user_id, blocks)
    )


def latest_entries(entries: Iterable[Entry]) -> list[Entry]:
    """One entry per person (their latest), in queue order."""
    latest: dict[int, Entry] = {}
    for entry in entries:
        old = latest.get(entry.user_id)
        if old is None or entry.joined_at >= old.joined_at:
            latest[entry.user_id] = entry
    return sorted(latest.values(), key=lambda e: e.order)


def pairings(
    entries: Iterable[Entry],
    now: float,
    blocks: Collection[tuple[int, int]] = frozenset(),
    recent: Mapping[int, Collection[int]] | None = None,
) -> list[Group]:
    """The groups to seat now, by the module's rules: each group's first entry is the one
    that chose it, groups in the order they were chosen (game by game). Entries of games
    people cannot queue for are left alone."""
    recent = recent or {}
    blocks = frozenset(blocks)
    by_game: dict[tuple[str, int], list[Entry]] = {}
    for entry in latest_entries(entries):
        if is_ladder_game(entry.variant, entry.players):
            by_game.setdefault(entry.game, []).append(entry)
    groups: list[Group] = []
    for game in sorted(by_game):
        groups += _game_pairings(by_game[game], game[1], now, blocks, recent)
    return groups


def _game_pairings(
    waiting: list[Entry],
    size: int,
    now: float,
    blocks: frozenset[tuple[int, int]],
    recent: Mapping[int, Collection[int]],
) -> list[Group]:
    """One game's groups: its entries (queue order) choose in turn."""
    placed: set[int] = set()
    groups: list[Group] = []
    budget = [GROUP_SEARCH_LIMIT, GAME_SEARCH_LIMIT]  # left: this entry's, this game's
    for index, chooser in enumerate(waiting):
        if chooser.user_id in placed:
            continue
        # everyone after it in the queue who is still waiting and fits it
        others = [
            e
            for e in waiting[index + 1 :]
            if e.user_id not in placed and acceptable(chooser, e, now, blocks)
        ]
        if size == 2:
            found = _best_partner(chooser, others, recent)
        else:
            found = _oldest_group(chooser, others, size, now, blocks, recent, budget)
        if found is not None:
            groups.append(found)
            placed.update(e.user_id for e in found)
    return groups


def _best_partner(
    chooser: Entry, others: Sequence[Entry], recent: Mapping[int, Collection[int]]
) -> Group | None:
    """The chooser's partner: not met recently, then the closest rating, then the
    longest waiting."""
    if not others:
        return None

    def preference(other: Entry) -> tuple[bool, float, float, int]:
        gap = abs(other.rating - chooser.rating)
        return met(chooser.user_id, other.user_id, recent), gap, *other.order

    return chooser, min(others, key=preference)


def _oldest_group(
    chooser: Entry,
    others: Sequence[Entry],
    size: int,
    now: float,
    blocks: frozenset[tuple[int, int]],
    recent: Mapping[int, Collection[int]],
    budget: list[int],
) -> Group | None:
    """The chooser's group of ``size``: one where nobody met recently if any, else any;
    the longest-waiting such group (``others`` are in queue order, so the first group a
    depth-first search finds is the one whose members joined earliest)."""
    fresh = [e for e in others if not met(chooser.user_id, e.user_id, recent)]
    for pool, avoid in ((fresh, True), (list(others), False)):
        budget[0] = GROUP_SEARCH_LIMIT
        found = _search(pool, 0, [chooser], size, now, blocks, recent if avoid else {}, budget)
        if found is not None:
            return tuple(found)
    return None


def _search(
    pool: Sequence[Entry],
    start: int,
    group: list[Entry],
    size: int,
    now: float,
    blocks: frozenset[tuple[int, int]],
    recent: Mapping[int, Collection[int]],
    budget: list[int],
) -> list[Entry] | None:
    """Depth first, in queue order: the first way to fill ``group`` to ``size`` with
    entries of ``pool`` from ``start`` on that fit every member (and met none of them
    recently, where ``recent`` is given)."""
    if len(group) == size:
        return group
    for i in range(start, len(pool) - (size - len(group)) + 1):
        budget[0] -= 1
        budget[1] -= 1
        if budget[0] < 0 or budget[1] < 0:
            return None
        candidate = pool[i]
        if all(
            acceptable(member, candidate, now, blocks)
            and not met(member.user_id, candidate.user_id, recent)
            for member in group[1:]  # the chooser is already known to fit every one
        ):
            found = _search(pool, i + 1, [*group, candidate], size, now, blocks, recent, budget)
            if found is not None:
                return found
    return None


def paused_until(abandons: Iterable[float], now: float) -> float | None:
    """Until when a person's queueing is paused by their abandonments (their times), or
    ``None``: not paused. Counts those within :data:`ABANDON_WINDOW` before ``now``."""
    counted = sorted(at for at in abandons if now - ABANDON_WINDOW < at <= now)
    if len(counted) < PAUSE_FROM:
        return None
    pause = min(PAUSE_FIRST * 2 ** (len(counted) - PAUSE_FROM), PAUSE_MOST)
    until = counted[-1] + pause
    return until if until > now else None
