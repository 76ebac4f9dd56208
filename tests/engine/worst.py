"""The worst tables play can reach: everyone trails. Built by playing, so they are reachable.

Used by the bound tests (``tests/engine/test_bounds.py``, ``tests/ai/test_bounds.py``) and
by the engine benchmark.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from bot.engine import Move, Round, rules_for
from bot.engine.cards import full_deck


def low_table(variant: str, players: int, seed: int = 0, low: int = 7) -> Round:
    """Every card up to rank ``low`` on the table, the player to move holding higher ones.

    The deck deals the low cards first and everyone trails them: 2-player Swedish gets
    28 cards (A to 7 of every suit) on the table, 2-player Mulle 56. Kings come next, then
    queens and so on, so the player to move holds the cards that can take the most.
    """
    rules = rules_for(variant)
    small = [c for c in full_deck(rules.decks) if c.rank <= low]
    big = sorted((c for c in full_deck(rules.decks) if c.rank > low), key=lambda c: -c.rank)
    random.Random(seed).shuffle(small)
    round_ = Round.deal(rules, players, dealer=0, deck=small + big)
    while any(c.rank <= low for c in round_.hands[round_.to_move]):
        round_.play(Move(round_.hands[round_.to_move][0]))
    return round_


def trailed_all_round(variant: str, players: int, seed: int = 0) -> Iterator[Round]:
    """The positions of a round in which everyone trails every card, aces last.

    The deck deals the aces last and each player keeps theirs to the end, so the round's
    last card is an ace, played to a table of every other card (51, or 103 in Mulle).
    Yields the round before each move (the same object, moved on after each yield).
    """
    rules = rules_for(variant)
    rng = random.Random(seed)
    aces = [c for c in full_deck(rules.decks) if c.rank == 1]
    others = [c for c in full_deck(rules.decks) if c.rank != 1]
    rng.shuffle(others)
    round_ = Round.deal(rules, players, dealer=0, deck=others + aces)
    while not round_.is_over:
        yield round_
        hand = round_.hands[round_.to_move]
        round_.play(Move(next((c for c in hand if c.rank != 1), hand[0])))


def last_card_ace(variant: str, players: int, seed: int = 0) -> Round:
    """The last position of :func:`trailed_all_round`: an ace against the whole table."""
    for round_ in trailed_all_round(variant, players, seed):
        if not round_.deck and sum(map(len, round_.hands)) == 1:
            return round_.copy()
    raise AssertionError("the round ended before its last card")


def worst_positions() -> dict[str, Round]:
    """The worst reachable positions, by name, for tests and the benchmark."""
    return {
        "swedish 2p, 28 low cards": low_table("swedish", 2),
        "finnish 2p, 28 low cards": low_table("finnish", 2),
        "swedish 4p, 28 low cards": low_table("swedish", 4),
        "mulle 2p, 56 low cards": low_table("mulle", 2),
        "mulle 4p, 56 low cards": low_table("mulle", 4),
        "swedish 2p, ace on 51 cards": last_card_ace("swedish", 2),
        "finnish 2p, ace on 51 cards": last_card_ace("finnish", 2),
        "mulle 2p, ace on 103 cards": last_card_ace("mulle", 2),
    }


class TooMuchWork(AssertionError):
    """Code under :func:`at_most_calls` went past its number of calls."""


@contextmanager
def at_most_calls(limit: int) -> Iterator[list[int]]:
    """Fail (:class:`TooMuchWork`) once the code inside makes more than ``limit`` calls.

    Python function calls measure work the same way on any machine, loaded or not. The
    list yielded holds the count so far.
    """
    count = [0]

    def profile(frame: object, event: str, arg: object) -> None:
        if event == "call":
            count[0] += 1
            if count[0] > limit:
                raise TooMuchWork(f"more than {limit} Python calls")

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield count
    finally:
        sys.setprofile(previous)
