"""What the other players' trails tell ``hard`` about their hands (issue 11)."""

from __future__ import annotations

import random

from bot.ai import choose_move, hard
from bot.ai.evidence import TRAIL_ODDS, Evidence
from bot.ai.stop import Stop
from bot.ai.view import SeatView
from bot.engine import Move, Round, capture_masks, parse_cards, rules_for

from .conftest import random_positions, reshuffle_hidden, same_move_unseen


def after_a_trail() -> Round:
    """Seat 0 trailed 2♥ although a 7 would have taken 7♣; now seat 1 is to move."""
    rules = rules_for("swedish")
    hands = [parse_cards("2H 9D 4S KC"), parse_cards("5H 8D QS 3C")]
    table = parse_cards("7C JH")
    deck = [c for c in rules.deck() if c not in (*hands[0], *hands[1], *table)]
    round_ = Round.from_position(rules, hands, table, deck, dealer=1, to_move=0)
    round_.play(Move.trail(parse_cards("2H")[0]))
    return round_


def test_a_trail_is_remembered_with_the_table_it_was_made_on():
    evidence = Evidence.of(SeatView.of(after_a_trail(), 1))
    assert evidence.trails == ((0, tuple(sorted(parse_cards("7C JH")))),)
    # The player's own trails tell it nothing.
    assert Evidence.of(SeatView.of(after_a_trail(), 0)).trails == ()


def test_hands_that_could_have_captured_are_less_likely():
    evidence = Evidence.of(SeatView.of(after_a_trail(), 1))
    assert evidence.odds([parse_cards("7D 3S 5C"), []]) == TRAIL_ODDS
    assert evidence.odds([parse_cards("6D 3S 5C"), []]) == 1.0
    assert evidence.odds([parse_cards("JD 3S 9C"), []]) == TRAIL_ODDS  # J takes J♥


def test_sampled_worlds_follow_the_evidence():
    round_ = after_a_trail()
    view = SeatView.of(round_, 1)
    evidence = Evidence.of(view)
    rng = random.Random(1)
    hidden = view.hidden()
    table = evidence.trails[0][1]

    def could(world: Round) -> bool:
        return any(capture_masks(world.rules, c, table) for c in world.hands[0])

    plain = sum(could(view.sample(rng, hidden)) for _ in range(400))
    weighed = sum(could(evidence.sample(view, rng, hidden)) for _ in range(400))
    assert weighed < 0.8 * plain


def test_no_evidence_in_a_position_set_up_by_hand():
    rules = rules_for("swedish")
    hands = [parse_cards("2H 9D 4S"), parse_cards("5H 8D QS")]
    round_ = Round.from_position(rules, hands, parse_cards("7C"), (), dealer=1, to_move=0)
    assert Evidence.of(SeatView.of(round_, 0)).trails == ()


def test_the_evidence_does_not_peek():
    """The same move whatever the unseen cards, in positions full of trails."""
    positions = (
        r
        for setup in [("swedish", 2, False), ("finnish", 3, False), ("swedish", 4, True)]
        for r in random_positions(setup, seed=31, every=3)
        if Evidence.of(SeatView.of(r, r.to_move)).trails
    )
    assert same_move_unseen(positions, "hard", reshuffle_hidden) > 20


def test_hard_reads_a_trail_in_a_real_game():
    round_ = after_a_trail()
    move = choose_move(round_, 1, "hard", seed=3, budget_ms=20)
    assert round_.is_legal(move)


def test_the_search_can_be_told_its_worlds():
    """The benchmarks' hook: ``worlds`` replaces the sampled hidden cards."""
    round_ = after_a_trail()
    view = SeatView.of(round_, 1)
    asked: list[bool] = []

    class Truth:
        def sample(self, view: SeatView, rng: random.Random, hidden: list) -> Round:
            asked.append(sorted(hidden) == sorted(view.hidden()))
            return round_

    results = hard.search(view, random.Random(1), Stop.counted(20), worlds=Truth())
    assert len(asked) >= hard.MIN_WORLDS and all(asked)
    assert results[0][1] in round_.legal_moves()
