"""The ladder's pairing rules (bot.ladder): hypothesis properties, and a brute-force
reference that tries every possible set of groups on small pools and must agree with
:func:`pairings` exactly."""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Mapping, Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ladder import (
    ABANDON_WINDOW,
    OFFER_COMPUTER_AFTER,
    PAUSE_FIRST,
    PAUSE_MOST,
    WIDEST_AFTER,
    Entry,
    Group,
    computer_due,
    is_ladder_game,
    ladder_counts,
    pairings,
    paused_until,
    rating_range,
    window,
)
from bot.models import VARIANT_NAMES

NOW = 1_000.0


def documented_window(waited: float) -> float:
    """docs/players.md's numbers, written out again: ±50 at once, 25 more per whole 10
    seconds waited, at most ±300."""
    return min(50 + 25 * math.floor(waited / 10), 300)


def fit(a: Entry, b: Entry, now: float = NOW) -> bool:
    gap = abs(a.rating - b.rating)
    return gap <= documented_window(now - a.joined_at) and gap <= documented_window(
        now - b.joined_at
    )


def is_blocked(a: Entry, b: Entry, blocks: Collection[tuple[int, int]]) -> bool:
    return (a.user_id, b.user_id) in blocks or (b.user_id, a.user_id) in blocks


def good_group(group: Sequence[Entry], blocks: Collection[tuple[int, int]]) -> bool:
    """A group the rules allow: one game, its number of players, every two fit and
    neither blocked the other."""
    first = group[0]
    return (
        len(group) == first.players
        and len({e.user_id for e in group}) == len(group)
        and all(e.variant == first.variant and e.players == first.players for e in group)
        and all(
            fit(a, b) and not is_blocked(a, b, blocks) for a, b in itertools.combinations(group, 2)
        )
    )


def any_met(group: Sequence[Entry], recent: Mapping[int, Collection[int]]) -> bool:
    return any(
        b.user_id in recent.get(a.user_id, ()) or a.user_id in recent.get(b.user_id, ())
        for a, b in itertools.combinations(group, 2)
    )


def group_key(group: Sequence[Entry], recent: Mapping[int, Collection[int]]) -> tuple:
    """How its chooser (the oldest member) ranks a group: lower is better."""
    chooser, *rest = sorted(group, key=lambda e: (e.joined_at, e.user_id))
    if len(group) == 2:
        (other,) = rest
        gap = abs(other.rating - chooser.rating)
        return (any_met(group, recent), gap, other.joined_at, other.user_id)
    return (any_met(group, recent), tuple((e.joined_at, e.user_id) for e in rest))


def all_groupings(entries: list[Entry], blocks: Collection[tuple[int, int]]) -> list[list[Group]]:
    """Every set of disjoint allowed groups (of one game's entries)."""
    if not entries:
        return [[]]
    size = entries[0].players
    first, rest = entries[0], entries[1:]
    found = [g for g in all_groupings(rest, blocks)]  # the first entry in no group
    for others in itertools.combinations(rest, size - 1):
        group = (first, *others)
        if good_group(group, blocks):
            left = [e for e in rest if e not in others]
            found += [[group, *more] for more in all_groupings(left, blocks)]
    return found


def sequence(grouping: list[Group], entries: list[Entry], recent) -> list[tuple]:
    """The choosers' groups in queue order: each entry that is no younger member of a
    group gives its group's key ((1,): it is left waiting, worse than any group)."""
    by_oldest, younger = {}, set()
    for group in grouping:
        ordered = sorted(group, key=lambda e: (e.joined_at, e.user_id))
        by_oldest[ordered[0].user_id] = group
        younger.update(e.user_id for e in ordered[1:])
    keys = []
    for entry in sorted(entries, key=lambda e: (e.joined_at, e.user_id)):
        if entry.user_id in younger:
            continue
        group = by_oldest.get(entry.user_id)
        keys.append((1,) if group is None else (0, group_key(group, recent)))
    return keys


def reference(entries: list[Entry], blocks, recent) -> set[frozenset[int]]:
    """The brute-force answer: the grouping whose sequence is least."""
    best = min(all_groupings(entries, blocks), key=lambda g: sequence(g, entries, recent))
    return {frozenset(e.user_id for e in g) for g in best}


def as_sets(groups: list[Group]) -> set[frozenset[int]]:
    return {frozenset(e.user_id for e in g) for g in groups}


# --------------------------------------------------------------------- strategies


@st.composite
def pools(draw, players: int | None = None, most: int = 8):
    """One game's pool: entries with distinct users, ratings near one another (so the
    windows matter), joined within the last 2 minutes; some blocks and recent meetings."""
    size = players or draw(st.sampled_from([2, 2, 3, 4, 5, 6]))
    variant = (
        "krypkasino" if size in (3, 5, 6) else draw(st.sampled_from(["swedish", "krypkasino"]))
    )
    count = draw(st.integers(0, most))
    users = draw(st.lists(st.integers(1, 40), min_size=count, max_size=count, unique=True))
    entries = [
        Entry(
            user,
            variant,
            size,
            draw(st.integers(1300, 1700)),
            NOW - draw(st.sampled_from([0, 5, 10, 15, 30, 60, 95, 100, 150])),
        )
        for user in users
    ]
    pairs = list(itertools.permutations(users, 2))
    blocks = set(draw(st.lists(st.sampled_from(pairs), max_size=4))) if pairs else set()
    recent: dict[int, set[int]] = {}
    for a, b in draw(st.lists(st.sampled_from(pairs), max_size=4)) if pairs else []:
        recent.setdefault(a, set()).add(b)
    return entries, blocks, recent


# --------------------------------------------------------------------- the rules


def test_the_window_is_the_documented_one() -> None:
    assert window(0) == 50 and window(9.9) == 50 and window(10) == 75 and window(35) == 125
    assert window(WIDEST_AFTER) == 300 == window(3600) and WIDEST_AFTER == 100
    for waited in range(0, 400, 3):
        assert window(waited) == documented_window(waited)


def test_the_range_a_waiting_message_shows_and_the_computers_offer() -> None:
    entry = Entry(1, "swedish", 2, 1500, NOW - 25)
    assert rating_range(entry, NOW) == (1400, 1600)
    assert not computer_due(entry, NOW) and OFFER_COMPUTER_AFTER == 180
    assert computer_due(entry, NOW - 25 + 180)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 3 * 24 * 3600), max_size=12), st.floats(0, 3 * 24 * 3600))
def test_one_more_abandonment_never_shortens_a_pause(abandons: list[float], extra: float) -> None:
    now = max([*abandons, extra])
    before = paused_until(abandons, now) or now
    after = paused_until([*abandons, extra], now) or now
    assert after >= before
    assert after - now <= PAUSE_MOST + 1e-6  # (float sums)


def test_the_games_people_queue_for() -> None:
    assert ladder_counts("swedish") == (2, 4) and ladder_counts("swazi") == (2, 4)
    assert ladder_counts("krypkasino") == (2, 3, 4, 5, 6)
    assert ladder_counts("chess") == () and not is_ladder_game("swedish", 3)
    assert all(is_ladder_game(v, 2) for v in VARIANT_NAMES)


def test_two_fit_only_within_both_windows() -> None:
    old = Entry(1, "swedish", 2, 1500, NOW - 200)  # waited long: ±300
    new = Entry(2, "swedish", 2, 1700, NOW)  # just came: ±50
    near = Entry(3, "swedish", 2, 1540, NOW)
    assert pairings([old, new], NOW) == []
    assert as_sets(pairings([old, new, near], NOW)) == {frozenset({1, 3})}
    # 40 s later the newcomer's window is ±150: still not 200
    assert pairings([old, new], NOW + 40) == []
    assert as_sets(pairings([old, new], NOW + 60)) == {frozenset({1, 2})}


def test_the_closest_rating_then_someone_not_met_recently() -> None:
    me = Entry(1, "swedish", 2, 1500, NOW - 100)
    close = Entry(2, "swedish", 2, 1510, NOW - 50)
    far = Entry(3, "swedish", 2, 1600, NOW - 90)
    assert as_sets(pairings([me, close, far], NOW)) == {frozenset({1, 2})}
    # she met the closest in one of her last matches: the other one, if he fits
    assert as_sets(pairings([me, close, far], NOW, recent={1: {2}})) == {frozenset({1, 3})}
    # ...but a recent opponent is better than nobody
    assert as_sets(pairings([me, close], NOW, recent={2: {1}})) == {frozenset({1, 2})}


def test_a_block_either_way_keeps_two_apart() -> None:
    a, b = Entry(1, "swedish", 2, 1500, NOW), Entry(2, "swedish", 2, 1500, NOW)
    assert pairings([a, b], NOW, blocks={(1, 2)}) == []
    assert pairings([a, b], NOW, blocks={(2, 1)}) == []
    assert len(pairings([a, b], NOW, blocks={(1, 3)})) == 1


def test_one_entry_per_person_and_games_apart() -> None:
    old = Entry(1, "swedish", 2, 1500, NOW - 30)
    newer = Entry(1, "krypkasino", 2, 1500, NOW - 5)  # her new entry replaced the old
    other = Entry(2, "swedish", 2, 1500, NOW)
    assert pairings([old, newer, other], NOW) == []
    third = Entry(3, "krypkasino", 2, 1500, NOW)
    assert as_sets(pairings([old, newer, other, third], NOW)) == {frozenset({1, 3})}
    # a game nobody can queue for is left alone
    assert (
        pairings([Entry(4, "swedish", 3, 1500, NOW), Entry(5, "swedish", 3, 1500, NOW)], NOW) == []
    )


def test_krypkasino_for_three_takes_the_longest_waiting_group() -> None:
    people = [Entry(i, "krypkasino", 3, 1500 + i, NOW - 60 + i) for i in range(1, 6)]
    (group,) = pairings(people, NOW)
    assert [e.user_id for e in group] == [1, 2, 3]
    # 2 blocked 3: the next-longest waiting group with 1 is 1, 2, 4
    (group,) = pairings(people, NOW, blocks={(2, 3)})
    assert [e.user_id for e in group] == [1, 2, 4]


def test_a_pause_after_repeated_abandonment() -> None:
    assert paused_until([NOW - 10, NOW - 5], NOW) is None
    assert paused_until([NOW - 20, NOW - 10, NOW - 5], NOW) == NOW - 5 + PAUSE_FIRST
    four = [NOW - 30, NOW - 20, NOW - 10, NOW - 5]
    assert paused_until(four, NOW) == NOW - 5 + 2 * PAUSE_FIRST
    many = [NOW - i for i in range(1, 20)]
    assert paused_until(many, NOW) == NOW - 1 + PAUSE_MOST
    # abandonments older than the window no longer count; a pause that ran out is over
    assert paused_until([NOW - ABANDON_WINDOW - 1, NOW - 10, NOW - 5], NOW) is None
    assert paused_until([NOW - 20, NOW - 10, NOW - 5], NOW + PAUSE_FIRST) is None


# --------------------------------------------------------------------- properties

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(pools(most=30))
def test_nobody_twice_every_group_within_the_windows_and_no_block(pool) -> None:
    entries, blocks, recent = pool
    groups = pairings(entries, NOW, blocks, recent)
    placed = [e.user_id for g in groups for e in g]
    assert len(placed) == len(set(placed))
    for group in groups:
        assert good_group(group, blocks)
        assert all(e in entries for e in group)


@SETTINGS
@given(pools(most=30))
def test_nobody_is_left_waiting_for_a_later_group_they_fit(pool) -> None:
    """An entry left in the pool fits no group made of itself and the members of a group
    chosen after its turn (nor of the entries left over): nobody is skipped for a later
    waiter when both fit."""
    entries, blocks, recent = pool
    groups = pairings(entries, NOW, blocks, recent)
    placed = {e.user_id for g in groups for e in g}
    left = [e for e in entries if e.user_id not in placed]
    size = entries[0].players if entries else 2
    order = lambda e: (e.joined_at, e.user_id)  # noqa: E731
    for waiting in left:
        later = [g for g in groups if order(g[0]) > order(waiting)]
        for group in later:
            for others in itertools.combinations(group, size - 1):
                assert not good_group((waiting, *others), blocks)
        if size == 2:
            for other in left:
                assert other is waiting or not good_group((waiting, other), blocks)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pools(most=7))
def test_the_groups_are_the_brute_force_best(pool) -> None:
    entries, blocks, recent = pool
    assert as_sets(pairings(entries, NOW, blocks, recent)) == reference(entries, blocks, recent)


@settings(max_examples=200, deadline=None)
@given(pools(players=2, most=10), st.floats(0, 200))
def test_pairs_by_brute_force_at_any_time(pool, later: float) -> None:
    entries, blocks, recent = pool
    now = NOW + later
    best = min(all_groupings_at(entries, blocks, now), key=lambda g: sequence(g, entries, recent))
    assert as_sets(pairings(entries, now, blocks, recent)) == as_sets(best)


def all_groupings_at(entries: list[Entry], blocks, now: float) -> list[list[Group]]:
    """Every set of disjoint allowed pairs at ``now``."""
    if not entries:
        return [[]]
    first, rest = entries[0], entries[1:]
    found = all_groupings_at(rest, blocks, now)
    for other in rest:
        if fit(first, other, now) and not is_blocked(first, other, blocks):
            left = [e for e in rest if e is not other]
            found += [[(first, other), *more] for more in all_groupings_at(left, blocks, now)]
    return found
