"""Shared helpers for the computer-player tests: random positions of every variant."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.engine import Round, rules_for

VARIANTS = ("swedish", "overspader", "finnish", "mulle")
SETUPS = [(v, n, False) for v in VARIANTS for n in (2, 3, 4)] + [(v, 4, True) for v in VARIANTS]


def random_positions(
    setup: tuple[str, int, bool], seed: int, rounds: int = 1, every: int = 1
) -> Iterator[Round]:
    """Positions met while playing random moves through ``rounds`` rounds."""
    variant, players, teams = setup
    rules = rules_for(variant, teams=teams)
    rng = random.Random(seed)
    for number in range(rounds):
        scores = [rng.choice((0, 3, 9, 14)) for _ in range(rules.sides(players))]
        round_ = Round.deal(
            rules, players, dealer=rng.randrange(players), seed=(seed, number), scores=scores
        )
        step = 0
        while not round_.is_over:
            if step % every == 0:
                yield round_
            round_.play(rng.choice(round_.legal_moves()))
            step += 1


def reshuffle_hidden(round_: Round, seat: int, rng: random.Random) -> Round:
    """The same round as ``seat`` sees it, with the cards it cannot see dealt anew."""
    twin = round_.copy()
    hidden = [c for s, hand in enumerate(twin.hands) if s != seat for c in hand] + twin.deck
    rng.shuffle(hidden)
    for s, hand in enumerate(twin.hands):
        if s != seat:
            size = len(hand)
            twin.hands[s] = hidden[:size]
            del hidden[:size]
    twin.deck = hidden
    return twin
