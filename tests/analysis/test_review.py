"""The analysis of a seat's moves (bot/analysis): it reads no hidden card, it finds
hard's own moves best or fine, its cost is exact where the round can be solved, and it
runs in every variant with costs and verdicts as documented."""

from __future__ import annotations

import pickle
import random

import pytest

from bot.analysis import (
    VERDICTS,
    analyse,
    moves_to_analyse,
    review_move,
    review_round,
    verdict_for,
)
from bot.engine import Round, rules_for
from bot.engine.cards import full_deck
from bot.i18n import languages
from tests.ai.conftest import fair_reshuffle, reshuffle_hidden
from tests.ai.test_endgame import brute_force

from .matches import play_match

SMALL = 10.0  # ms of counted work a review: the smallest that still samples real worlds


# ------------------------------------------------------------------ the leak probe


@pytest.mark.parametrize(
    ("variant", "players", "teams"),
    [("swedish", 3, False), ("mulle", 4, True), ("casino", 2, False), ("swazi", 4, True),
     ("krypkasino", 4, False)],
)  # fmt: skip
def test_the_review_of_a_move_does_not_change_with_the_cards_the_seat_cannot_see(
    variant: str, players: int, teams: bool
) -> None:
    record = play_match(variant, players, f"leak-{variant}", target=5, teams=teams)
    seat = 1
    reshuffle = fair_reshuffle if rules_for(variant).builds else reshuffle_hidden
    rng = random.Random(5)
    probed = 0
    mine: list[int] = []

    def probe(number: int, match: object, play: object, words: str) -> None:
        nonlocal probed
        step = number + 1
        if step > len(record.moves) or record.moves[step - 1].seat != seat:
            return
        mine.append(step)
        if len(mine) % 2:
            return
        before = match.round.copy()  # type: ignore[attr-defined]
        played = record.moves[step - 1].move
        review = review_round(before, seat, played, step=step, round_number=1, key="k",
                              budget_ms=SMALL)  # fmt: skip
        twin = reshuffle(before, seat, rng)
        if twin is None:
            return
        assert twin.hands != before.hands or twin.deck != before.deck or not before.deck
        again = review_round(twin, seat, played, step=step, round_number=1, key="k",
                             budget_ms=SMALL)  # fmt: skip
        assert again == review
        probed += 1

    record.replay(probe)
    assert probed >= 3


# --------------------------------------------------------------- hard's own moves


@pytest.mark.parametrize(
    ("variant", "players", "teams", "seed"),
    [("swedish", 2, False, 1), ("swedish", 4, True, 2), ("casino", 2, False, 3),
     ("krypkasino", 3, False, 4)],
)  # fmt: skip
def test_hards_own_moves_are_best_or_fine(
    variant: str, players: int, teams: bool, seed: int
) -> None:
    record = play_match(variant, players, f"hard-{seed}", ["hard"] * players, target=5,
                        teams=teams, budget_ms=30)  # fmt: skip
    analysis = analyse(record, 0, budget_ms=60)
    assert len(analysis.reviews) >= 8
    assert {r.verdict for r in analysis.reviews} <= {"best", "fine"}, [
        (r.step, str(r.played), str(r.best), r.cost) for r in analysis.reviews if r.cost
    ]


# ---------------------------------------------------------------- exact positions


def known_last_deal(variant: str, held: int, seed: int) -> Round:
    """Two players in the last deal, ``held`` cards each, every other card in a pile:
    the seat to move knows every card."""
    rules = rules_for(variant)
    rng = random.Random(seed)
    deck = list(full_deck(rules.decks))
    rng.shuffle(deck)
    hands = [deck[:held], deck[held : 2 * held]]
    table = deck[2 * held : 2 * held + rng.randint(2, 4)]
    rest = deck[2 * held + len(table) :]
    cut = rng.randint(len(rest) // 3, 2 * len(rest) // 3)
    return Round.from_position(
        rules, hands, table, (), dealer=1, to_move=0, piles=[rest[:cut], rest[cut:]],
        last_capturer=rng.randrange(2), last_deal=True,
    )  # fmt: skip


@pytest.mark.parametrize(("variant", "seed"), [("swedish", 1), ("swedish", 2), ("mulle", 3),
                                               ("finnish", 7), ("overspader", 5)])  # fmt: skip
def test_a_known_last_deal_costs_exactly_what_minimax_says(variant: str, seed: int) -> None:
    round_ = known_last_deal(variant, 3, seed)
    exact = {}
    for move in round_.legal_moves():
        twin = round_.copy()
        twin.play(move)
        exact[move] = brute_force(twin, 0)
    assert len(set(exact.values())) > 1  # some move gives points away
    for move, value in exact.items():
        review = review_round(round_, 0, move, step=1, round_number=1, key="x", budget_ms=SMALL)
        assert review.cost == round(exact[review.best] - value, 2)
        assert review.cost >= 0 and exact[review.best] >= value
        assert review.verdict == verdict_for(review.cost, review.best == move)
    worst = min(exact, key=exact.__getitem__)
    review = review_round(round_, 0, worst, step=1, round_number=1, key="x", budget_ms=SMALL)
    assert exact[review.best] == max(exact.values())  # hard finds the points' best here


# ---------------------------------------------------------------- every variant


SMOKE = [("swedish", 3, False), ("overspader", 2, False), ("finnish", 4, True),
         ("mulle", 2, False), ("casino", 4, True), ("royal", 3, False),
         ("mulle-glimne", 2, False), ("swazi", 2, False), ("sotho", 4, True),
         ("south-african", 2, False), ("krypkasino", 6, False)]  # fmt: skip


def test_every_variant_is_smoke_tested() -> None:
    from bot.models import VARIANT_NAMES

    assert {variant for variant, _, _ in SMOKE} == set(VARIANT_NAMES)


@pytest.mark.parametrize(("variant", "players", "teams"), SMOKE)
def test_every_variant_analyses_a_short_match(variant: str, players: int, teams: bool) -> None:
    seat = players - 1
    auto = {n for n, m in enumerate(_moves(variant, players, teams), 1) if m == seat}
    timed_out = sorted(auto)[1::4]  # some of the seat's moves played by the bot for it
    record = play_match(variant, players, f"smoke-{variant}", target=5, teams=teams,
                        auto=timed_out)  # fmt: skip
    steps = moves_to_analyse(record, seat)
    assert steps == [n for n in sorted(auto) if n not in timed_out]
    seen: list[tuple[int, int]] = []
    analysis = analyse(record, seat, budget_ms=SMALL, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(n, len(steps)) for n in range(len(steps) + 1)]
    assert [r.step for r in analysis.reviews] == steps
    for review in analysis.reviews:
        assert review.cost >= 0 and review.verdict in VERDICTS
        assert review.verdict == verdict_for(review.cost, review.best == review.played)
        assert review.played == record.moves[review.step - 1].move
        assert review.round_number == record.moves[review.step - 1].round
        assert set(review.reasons) == set(languages()) and all(review.reasons.values())
    middle = analysis.reviews[len(steps) // 2]
    # the unit of work of a worker process: its arguments and its result cross by pickle
    sent = pickle.loads(pickle.dumps((record, middle.step, seat, SMALL)))
    assert pickle.loads(pickle.dumps(review_move(*sent))) == middle
    with pytest.raises(ValueError):
        review_move(record, timed_out[0], seat)
    with pytest.raises(ValueError):
        review_move(record, steps[0], (seat + 1) % players)


def _moves(variant: str, players: int, teams: bool) -> list[int]:
    """The seats that move, in order, in the smoke match (the same seed, no time-outs)."""
    record = play_match(variant, players, f"smoke-{variant}", target=5, teams=teams)
    return [m.seat for m in record.moves]
