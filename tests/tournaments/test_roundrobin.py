"""Round robin: every two players meet exactly once; byes only for odd fields, one each."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from bot.tournaments.model import Entrant
from bot.tournaments.roundrobin import round_robin_round, round_robin_rounds


@pytest.mark.parametrize("players", range(2, 17))
def test_everyone_meets_everyone_once(players) -> None:
    people = [Entrant(i * 7, f"p{i}") for i in range(1, players + 1)]
    rounds = round_robin_rounds(players)
    assert rounds == (players - 1 if players % 2 == 0 else players)
    meetings: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for round in range(1, rounds + 1):
        pairing = round_robin_round(people, round, seed="rr")
        seated = [p for t in pairing.tables for p in t.people]
        assert sorted(seated) == sorted(e.user_id for e in people)
        assert all(len(t.players) in (1, 2) for t in pairing.tables)
        for table in pairing.tables:
            if table.bye:
                byes[table.players[0]] += 1
            else:
                meetings[frozenset(table.players)] += 1
    every_pair = {frozenset(p) for p in itertools.combinations([e.user_id for e in people], 2)}
    assert set(meetings) == every_pair and set(meetings.values()) == {1}
    assert byes == (Counter(e.user_id for e in people) if players % 2 else Counter())
    assert round_robin_round(people, rounds + 1, seed="rr").tables == ()


def test_first_seat_alternates() -> None:
    """Everyone sits first about half the time (5 rounds: 2 or 3 times)."""
    people = [Entrant(i, f"p{i}") for i in range(1, 7)]
    firsts = Counter(
        t.players[0] for r in range(1, 6) for t in round_robin_round(people, r, seed="x").tables
    )
    assert max(firsts.values()) <= 3 and min(firsts.values()) >= 2


def test_a_dropped_players_opponent_has_a_bye() -> None:
    people = [Entrant(i, f"p{i}") for i in range(1, 7)]
    gone = people[0].user_id
    people[0] = Entrant(gone, "p1", dropped=1)
    for round in (2, 3):
        pairing = round_robin_round(people, round, seed="x")
        assert gone not in [p for t in pairing.tables for p in t.people]
        assert [len(t.players) for t in pairing.tables] == [2, 2, 1]
    assert gone in [p for t in round_robin_round(people, 1, seed="x").tables for p in t.players]
