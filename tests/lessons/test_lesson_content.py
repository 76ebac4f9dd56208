"""The lessons' content against the engine: every step's position is a real position with
the learner to move, its right moves are legal, each explanation of a wrong move is
reachable, and what the texts claim about the rules is what the engine does."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.engine import Build, Card, IllegalMove, Move, Round, rules_for
from bot.lessons import LESSONS, lesson_for
from bot.lessons.steps import Step, cards, items
from bot.models import VARIANT_NAMES

ALL_STEPS = sorted({(key, n) for key, lesson in LESSONS.items() for n in range(len(lesson.steps))})


def step_of(key: str, number: int) -> Step:
    return lesson_for(key).steps[number]


def right_moves(step: Step, rnd: Round) -> list[Move]:
    return [m for m in rnd.legal_moves() if step.right(m)]


def the_right_move(key: str, number: int) -> tuple[Round, Move]:
    step = step_of(key, number)
    rnd = step.position()
    (move,) = right_moves(step, rnd)
    return rnd, move


def penalty(variant: str, taken: Sequence[Card]) -> int:
    """Krypkasino's penalty for ``taken``, as the engine scores a round ending with them
    in seat 0's pile."""
    rnd = Round.from_position(
        rules_for(variant), [[], []], [], piles=[list(taken), []], last_capturer=0
    )
    assert rnd.is_over
    return rnd.score()[0].total


def test_every_variant_has_a_lesson() -> None:
    assert set(LESSONS) == set(VARIANT_NAMES)
    for key, lesson in LESSONS.items():
        assert lesson.key == key and lesson.steps
    with pytest.raises(ValueError):
        lesson_for("chess")


@pytest.mark.parametrize(("key", "number"), ALL_STEPS)
def test_each_step_is_a_position_with_a_right_move_and_reachable_explanations(
    key: str, number: int
) -> None:
    step = step_of(key, number)
    rnd = step.position()
    assert rnd.to_move == 0 and not rnd.is_over and rnd.hands[0] == cards(step.hand)
    moves = rnd.legal_moves()
    right = right_moves(step, rnd)
    assert right, "no legal move is right"
    assert all(step.judge(m) == (True, step.after) for m in right)
    wrong = [m for m in moves if not step.right(m)]
    for explanation in step.wrongs:  # each says something about a move one can make
        hits = [m for m in wrong if explanation.check(m)]
        assert hits, explanation.why
        assert all(step.judge(m)[0] is False for m in hits)
    for move in wrong:
        good, why = step.judge(move)
        assert not good and why in (step.miss, *(w.why for w in step.wrongs))


def test_the_ace_counts_14_from_the_hand_in_swedish_kasino() -> None:
    _, move = the_right_move("swedish", 3)
    assert move.card == Card.parse("AH") and sum(c.rank for c in move.taken) == 14


def test_storan_is_worth_more_than_lillan() -> None:
    rnd, move = the_right_move("swedish", 4)
    rnd.play(move)
    assert rnd.live_items()[0]["storan"] == 2
    other = step_of("swedish", 4).position()
    other.play(Move(Card.parse("6C"), cards("4H 2S")))
    assert other.live_items()[0]["lillan"] == 1


def test_clearing_the_table_is_a_tabbe_and_the_next_player_must_trail() -> None:
    rnd, move = the_right_move("swedish", 5)
    play = rnd.play(move)
    assert play.sweep and play.sweep_scores and not rnd.table
    assert all(m.is_trail for m in rnd.legal_moves())


def test_the_last_capture_takes_what_is_left_with_sistan() -> None:
    rnd, move = the_right_move("swedish", 6)
    rnd.play(move)
    (last,) = rnd.legal_moves()  # the opponent's card cannot capture
    assert last.is_trail
    rnd.play(last)
    assert rnd.is_over and sorted(rnd.piles[0]) == sorted(cards("7H 7C 3D 9S 2H"))
    assert rnd.score()[0].items.get("sistan") == 1
    trailed = step_of("swedish", 6).position()
    trailed.play(Move(Card.parse("7H")))
    trailed.play(trailed.legal_moves()[0])
    assert trailed.is_over and not trailed.piles[0]  # the leftovers went to the opponent


def test_a_finnish_ace_from_the_hand_is_14_only() -> None:
    rnd = step_of("finnish", 7).position()
    assert not rnd.is_legal(Move(Card.parse("AC"), cards("AD")))
    assert rnd.is_legal(Move(Card.parse("AC"), cards("6S 8C")))
    assert rnd.is_legal(Move(Card.parse("7H"), cards("AD 6S")))  # on the table it is 1


def test_a_mulle_is_the_twin_alone() -> None:
    rnd, move = the_right_move("mulle", 7)
    assert rnd.play(move).mulle
    more = step_of("mulle", 7).position()
    assert not more.play(Move(Card.parse("7H"), cards("7H 3C 4D"))).mulle


def test_a_casino_picture_card_only_pairs() -> None:
    rnd = step_of("casino", 0).position()
    queen = [m for m in rnd.legal_moves() if m.card == Card.parse("QH")]
    assert {m.kind for m in queen} == {"trail", "capture"}
    assert all(list(m.taken) == cards("QS") for m in queen if m.taken)


def test_building_raising_and_adding() -> None:
    rnd, move = the_right_move("casino", 1)
    rnd.play(move)
    (build,) = [i for i in rnd.table if isinstance(i, Build)]
    assert build.value == 8 and build.owner == 0
    rnd, move = the_right_move("casino", 2)
    rnd.play(move)
    (build,) = [i for i in rnd.table if isinstance(i, Build)]
    assert build.value == 9 and build.owner == 0  # raised, and the raiser's now
    rnd, move = the_right_move("casino", 3)
    rnd.play(move)
    (build,) = [i for i in rnd.table if isinstance(i, Build)]
    assert build.value == 8 and build.multiple


def test_owning_a_build_blocks_a_trail() -> None:
    rnd = step_of("casino", 4).position()
    with pytest.raises(IllegalMove, match="build"):
        rnd.copy().play(Move(Card.parse("4H")))
    assert [m.card for m in rnd.legal_moves()] == [Card.parse("9S")]


def test_a_build_is_captured_whole() -> None:
    rnd, move = the_right_move("casino", 5)
    assert [type(i) for i in move.taken] == [Build]
    rnd.play(move)
    assert rnd.table == cards("2H")


def test_krypkasino_krypa_and_the_forced_capture() -> None:
    rnd = step_of("krypkasino", 0).position()
    assert not rnd.is_legal(Move(Card.parse("7C")))  # it can capture, so it must
    assert [m for m in rnd.legal_moves() if m.card == Card.parse("KH")] == [Move(Card.parse("KH"))]
    forced = step_of("krypkasino", 1).position()
    assert not any(m.is_trail for m in forced.legal_moves())  # every card captures
    assert penalty("krypkasino", cards("9H 9D")) == 0
    assert penalty("krypkasino", cards("5C 4S AD")) == 2


def test_a_krypkasino_tabbe_costs_five() -> None:
    rnd = step_of("krypkasino", 2).position()
    sweep = [m for m in rnd.legal_moves() if m.card == Card.parse("9D")]
    assert len(sweep) == 1 and rnd.copy().play(sweep[0]).sweep
    assert penalty("krypkasino", cards("5H 5S")) == 1
    twin = rnd.copy()
    twin.play(sweep[0])
    assert twin.live_items()[0]["tabbe"] == 5


def test_an_ace_on_the_table_counts_1_or_14_in_swedish_kasino() -> None:
    rnd = Round.from_position(
        rules_for("swedish"), [cards("5C"), cards("KC")], cards("AS 4D"), to_move=0
    )
    assert rnd.is_legal(Move(Card.parse("5C"), cards("AS 4D")))  # 1 + 4


def test_a_multiple_build_is_never_raised() -> None:
    rnd, move = the_right_move("casino", 3)
    rnd.play(move)
    (build,) = [i for i in rnd.table if isinstance(i, Build)]
    again = Round.from_position(
        rules_for("casino"), [cards("2C 10S"), cards("QC KC")], [build.with_owner(1)], to_move=0
    )
    assert not any(m.kind == "build" and m.value == 10 for m in again.legal_moves())
    simple = Round.from_position(
        rules_for("casino"), [cards("2C 10S"), cards("QC KC")], items("[8: 5H 3D]@1"), to_move=0
    )
    assert any(m.kind == "build" and m.value == 10 for m in simple.legal_moves())


def test_krypkasino_penalty_cards_and_the_reward_for_a_tabbe() -> None:
    for card, points in (("10D", 3), ("2S", 2), ("AH", 1), ("5S", 1), ("AS", 2), ("9D", 0)):
        assert penalty("krypkasino", cards(card)) == points, card
    rnd = step_of("krypkasino", 2).position()
    rnd.play(Move(Card.parse("9D"), cards("5S 4C")))
    assert rnd.live_items()[1]["reward"] == -5  # the player before the one who swept


@pytest.mark.parametrize("code", ["en", "sv", "fi"])
@pytest.mark.parametrize("key", sorted(VARIANT_NAMES))
def test_each_lesson_opens_with_its_own_game(key: str, code: str) -> None:
    """Finnish Kasino's lesson opens "Finnish Kasino: …", not with Swedish Kasino's
    introduction: each intro names its own game and no other game's name starts it."""
    from bot.i18n import lang

    t = lang(code)
    intro = t(lesson_for(key).intro)
    name = t(VARIANT_NAMES[key])
    assert intro.lower().startswith(name.lower()), (key, code, intro)
    others = [t(VARIANT_NAMES[k]) for k in VARIANT_NAMES if k != key]
    assert not any(intro.startswith(other) and not name.startswith(other) for other in others)
