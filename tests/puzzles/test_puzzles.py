"""The puzzle package (bot/puzzles): the exact solver against a brute force written
here, candidate extraction (the stored answer is the exact best move and the margin
holds), every built-in puzzle re-solved, the judgement, the daily choice, the streak."""

from __future__ import annotations

import random
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Card, Move, Round, rules_for
from bot.engine.cards import full_deck
from bot.puzzles.builtin import builtin, played_record
from bot.puzzles.daily import builtin_index, game_order
from bot.puzzles.extract import candidates, puzzle_at
from bot.puzzles.families import FAMILIES, family_named, variants_of
from bot.puzzles.judge import judge
from bot.puzzles.model import MARGIN, Puzzle
from bot.puzzles.solve import Solver, margin, solve
from bot.puzzles.streak import streak, utc_day


def brute(rnd: Round, side: int) -> int:
    """Plain minimax over every legal move, nothing remembered: ``side``'s value."""
    if rnd.is_over:
        return margin(rnd, side)
    values = []
    for move in rnd.legal_moves():
        nxt = rnd.copy()
        nxt.play(move)
        values.append(brute(nxt, side))
    return max(values) if rnd.side_of(rnd.to_move) == side else min(values)


def brute_values(rnd: Round) -> dict[Move, int]:
    side = rnd.side_of(rnd.to_move)
    values = {}
    for move in rnd.legal_moves():
        nxt = rnd.copy()
        nxt.play(move)
        values[move] = brute(nxt, side)
    return values


def small_position(variant: str, seed: int) -> Round | None:
    """A random two-player position with nothing left to deal: 1–3 cards a hand, 1–4 on
    the table, some cards already captured by each side."""
    rng = random.Random(seed)
    rules = rules_for(variant)
    deck = full_deck(rules.decks, pictures=rules.pictures)
    rng.shuffle(deck)
    mover, other = rng.randint(1, 3), rng.randint(1, 3)
    hands = [deck[:mover], deck[mover : mover + other]]
    rest = deck[mover + other :]
    table = rest[: rng.randint(1, 4)]
    piles = [rest[4:10], rest[10:14]]
    try:
        return Round.from_position(
            rules, hands, table, piles=piles, last_capturer=rng.randint(0, 1), to_move=0
        )
    except ValueError:
        return None


VARIANTS = ("swedish", "finnish", "mulle", "krypkasino", "casino", "south-african", "swazi")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 10**9))
def test_the_solver_values_every_move_as_brute_force_does(variant: str, seed: int) -> None:
    rnd = small_position(variant, seed)
    if rnd is None or rnd.is_over or rnd.deck:
        return
    exact = brute_values(rnd)
    solved = solve(rnd)
    assert {v.move: v.value for v in solved} == exact
    assert [v.value for v in solved] == sorted(exact.values(), reverse=True)
    puzzle = puzzle_at(rnd, {"test": seed})
    if puzzle is not None:  # the answer is the exact best move, by at least the margin
        best = max(exact.values())
        assert exact[puzzle.best] == best == puzzle.best_value
        assert all(v <= best - MARGIN for m, v in exact.items() if m != puzzle.best)
        assert len(rnd.hands[rnd.to_move]) >= 2


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(("swedish", "krypkasino", "casino", "mulle")), st.integers(0, 10**6))
def test_every_candidate_of_a_played_game_is_exact(variant: str, seed: int) -> None:
    record = played_record(variant, f"test-{seed}")
    for puzzle in candidates(record):
        rnd = puzzle.round  # the saved position reads back as a legal round
        assert rnd.players == 2 and not rnd.deck
        fresh = {v.move: v.value for v in Solver(10**7).solve(rnd)}
        assert {m.move: m.value for m in puzzle.moves()} == fresh
        if sum(map(len, rnd.hands)) <= 6:
            assert brute_values(rnd) == fresh
        best = puzzle.best_value
        assert fresh[puzzle.best] == best
        assert all(v <= best - MARGIN for m, v in fresh.items() if m != puzzle.best)
        _check_endings(puzzle)


def _check_endings(puzzle: Puzzle) -> None:
    """Each stored ending adds up to its move's value (the explanation is the truth)."""
    side = puzzle.round.side_of(puzzle.seat)
    lowest = puzzle.round.rules.lowest_wins
    for (_, value), ending in zip(puzzle.values, puzzle.endings, strict=True):
        mine, theirs = sum(ending[side].values()), sum(ending[1 - side].values())
        assert value == (theirs - mine if lowest else mine - theirs)


@pytest.mark.parametrize("family", FAMILIES)
def test_every_builtin_puzzle_is_solved_again_to_its_answer(family: str) -> None:
    shipped = builtin(family)
    variants = {p.variant for p in shipped}
    assert variants == set(variants_of(family))  # every variant of the family has some
    for puzzle in shipped:
        assert puzzle.family == family
        fresh = Solver(10**7).solve(puzzle.round)
        assert fresh[0].move == puzzle.best and fresh[0].value == puzzle.best_value
        assert fresh[0].value - fresh[1].value >= MARGIN
        assert {v.move: v.value for v in fresh} == {m.move: m.value for m in puzzle.moves()}
        _check_endings(puzzle)
        assert "name" not in str(puzzle.to_dict()["source"])


def test_a_judgement_says_right_or_what_was_given_away() -> None:
    puzzle = builtin("nordic")[0]
    right = judge(puzzle, puzzle.best)
    assert right.right and right.margin == puzzle.margin and right.loss == 0
    worst = puzzle.moves()[-1]
    wrong = judge(puzzle, worst.move)
    assert not wrong.right and wrong.loss == puzzle.best_value - worst.value >= MARGIN
    with pytest.raises(ValueError):
        judge(puzzle, Move(Card.parse("KH"), (Card.parse("KS"), Card.parse("KD"))))


def test_a_puzzle_reads_back_and_refuses_damage() -> None:
    puzzle = builtin("casino")[0]
    assert Puzzle.from_json(puzzle.to_json()) == puzzle
    data = puzzle.to_dict()
    data["endings"] = data["endings"][:1]
    with pytest.raises(ValueError):
        Puzzle.from_dict(data)
    with pytest.raises(ValueError):
        Puzzle.from_json("[1]")


def test_the_daily_choice_is_deterministic_and_the_same_for_everyone() -> None:
    games = list(range(1, 201))
    first = game_order(7, "2026-11-26", "nordic", games)
    assert first == game_order(7, "2026-11-26", "nordic", list(reversed(games)))
    assert sorted(first) == games
    assert first != game_order(7, "2026-11-27", "nordic", games)  # another day
    assert first != game_order(8, "2026-11-26", "nordic", games)  # another server
    assert first != game_order(7, "2026-11-26", "casino", games)  # another family
    picks = {builtin_index(7, f"2026-11-{d:02}", "nordic", 8) for d in range(1, 29)}
    assert len(picks) > 1 and all(0 <= p < 8 for p in picks)


def test_families_by_name() -> None:
    assert family_named(None) == "nordic"
    assert family_named("casino") == "casino" and family_named("royal") == "casino"
    assert family_named("kryp") == "krypkasino" and family_named("finnish") == "nordic"
    assert family_named("chess") is None


def test_a_streak_counts_consecutive_utc_days() -> None:
    today = date(2026, 3, 1)
    assert streak([], today) == 0
    assert streak(["2026-03-01", "2026-02-28", "2026-02-27"], today) == 3  # across February
    assert streak(["2026-02-28", "2026-02-27"], today) == 2  # today not yet: still alive
    assert streak(["2026-02-27"], today) == 0  # a whole day missed
    assert streak(["2026-03-01", "2026-02-27"], today) == 1
    # the UTC day: a minute before and after midnight UTC
    midnight = 1772323200  # 2026-03-01 00:00:00 UTC
    assert utc_day(midnight - 60) == date(2026, 2, 28)
    assert utc_day(midnight + 60) == date(2026, 3, 1)


@pytest.mark.parametrize("code", ["en", "sv", "fi"])
@pytest.mark.parametrize("family", FAMILIES)
def test_a_move_inside_a_sentence_starts_in_lower_case(family: str, code: str) -> None:
    """ "The best move was trail 6♥", "6♥ → take 6♦ ends the round": a move's words are
    in lower case inside a sentence (and capitalised when they begin it)."""
    import re

    from bot.i18n import lang
    from bot.puzzles.embed import verdict_text

    t = lang(code)
    for puzzle in builtin(family):
        for answer in puzzle.moves():
            judged = judge(puzzle, answer.move)
            text = verdict_text(puzzle, judged, True, judged.right, 0, t)
            # a capital word right after "→ " or inside a sentence after a lower-case word
            assert not re.search(r"→ [A-ZÅÄÖ][a-zåäö]", text), text
            assert not re.search(
                r"[a-zåäö,] (Take|Trail|Build|Ta|Lägg|Bygg|Ota|Laita|Rakenna|Korota|Raise|Höj)\b",
                text,
            ), text
