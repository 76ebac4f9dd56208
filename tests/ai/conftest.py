"""Shared helpers for the computer-player tests: random positions of every variant."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator

from bot.ai import choose_move
from bot.engine import Build, Round, rules_for

TINY = 5  # ms: the smallest search, still a real one

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


BUILDING = ("casino", "royal", "mulle-glimne", "swazi", "sotho", "south-african")
BUILDING_SETUPS = [
    (variant, players, players == 4 and variant != "south-african")
    for variant in BUILDING
    for players in rules_for(variant).player_counts
]
BUILD_BIAS = 0.6  # random play prefers builds, so tables hold several, owned by each side


def building_positions(
    setup: tuple[str, int, bool], seed: int, every: int = 1, **options: object
) -> Iterator[Round]:
    """Positions of a building game met in random play that builds whenever it may."""
    variant, players, teams = setup
    rules = rules_for(variant, teams=teams, **options)
    rng = random.Random(seed)
    round_ = Round.deal(rules, players, dealer=rng.randrange(players), seed=seed)
    step = 0
    while not round_.is_over:
        if step % every == 0:
            yield round_
        moves = round_.legal_moves()
        builds = [m for m in moves if m.value is not None or m.table_builds]
        pick = builds if builds and rng.random() < BUILD_BIAS else moves
        round_.play(rng.choice(pick))
        step += 1


def fair_reshuffle(round_: Round, seat: int, rng: random.Random) -> Round | None:
    """:func:`reshuffle_hidden`, where every other build owner still holds its value."""
    for _ in range(50):
        twin = reshuffle_hidden(round_, seat, rng)
        if all(
            any(build.value in twin.rules.hand_values[c] for c in twin.hands[build.owner])
            for build in twin.table
            if isinstance(build, Build) and build.owner != seat
        ):
            return twin
    return None


def same_move_unseen(
    positions: Iterable[Round],
    level: str,
    reshuffle: Callable[[Round, int, random.Random], Round | None],
    tries: int = 1,
) -> int:
    """Assert each position's move stays when the cards the mover cannot see are dealt
    anew (``tries`` times); returns how many positions were checked."""
    rng = random.Random(3)
    checked = 0
    for round_ in positions:
        seat = round_.to_move
        move = choose_move(round_, seat, level, seed=9, budget_ms=TINY)
        twins = [reshuffle(round_, seat, rng) for _ in range(tries)]
        for twin in (t for t in twins if t is not None):
            assert choose_move(twin, seat, level, seed=9, budget_ms=TINY) == move
        checked += any(t is not None for t in twins)
    return checked
