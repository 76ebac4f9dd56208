"""The Nordic games' fast paths against brute force written here, on random small positions.

``Round.legal_moves`` lists captures from remembered position masks searched only over the
table cards worth at most the played card, and ``Round.play`` accepts a one-group capture
without a search; both are compared with plain enumeration of every subset.
"""

import random
from collections import Counter
from itertools import combinations, product

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Move, Round, parse_cards, rules_for
from bot.engine.captures import TableIndex, _masks, clear_caches, hand_captures
from bot.engine.cards import card_order, full_deck

VARIANTS = ["swedish", "overspader", "finnish", "mulle"]


def splits(values: list[tuple[int, ...]], target: int) -> bool:
    """Whether cards with these value options split into groups each adding up to ``target``:
    the first card's group is every choice of the others with every choice of values."""
    if not values:
        return True
    first, rest = values[0], values[1:]
    for size in range(len(rest) + 1):
        for chosen in combinations(range(len(rest)), size):
            group = [first, *(rest[i] for i in chosen)]
            if any(sum(pick) == target for pick in product(*group)):
                left = [v for i, v in enumerate(rest) if i not in chosen]
                if splits(left, target):
                    return True
    return False


def reference_captures(rules, played, table):
    """Every legal capture, most cards first, then by position mask over the table in card
    order; identical cards (a double deck) give each multiset once, the first kept."""
    cards = sorted(table, key=card_order())
    masks = sorted(range(1, 1 << len(cards)), key=lambda m: (-m.bit_count(), m))
    found, seen = [], set()
    for mask in masks:
        taken = tuple(c for i, c in enumerate(cards) if mask >> i & 1)
        values = [rules.table_values[c.rank] for c in taken]
        if any(splits(values, t) for t in rules.hand_values[played]) and taken not in seen:
            seen.add(taken)
            found.append(taken)
    return found


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 10**9), st.integers(0, 9), st.booleans())
def test_table_index_lists_every_capture_in_order(name, seed, size, low):
    rules = rules_for(name)
    rng = random.Random(seed)
    deck = full_deck(rules.decks)
    if low:  # low cards: many groups, several targets, identical cards in Mulle
        deck = [c for c in deck if c.rank <= 5 or c.rank == 10]
    cards = rng.sample(deck, size + 1)
    played, table = cards[0], cards[1:]
    if rng.random() < 0.5:
        clear_caches()
    assert TableIndex(rules, table).captures(played) == reference_captures(rules, played, table)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 10**9), st.integers(0, 8))
def test_a_whole_hand_is_served_by_one_reading_of_the_table(name, seed, size):
    """Cards of one hand share the sorted table and its values: each still gets its own."""
    rules = rules_for(name)
    rng = random.Random(seed)
    deck = [c for c in full_deck(rules.decks) if c.rank <= 7 or rng.random() < 0.3]
    cards = rng.sample(deck, size + 5)
    hand, table = cards[:5], cards[5:]
    expected = [reference_captures(rules, played, table) for played in hand]
    for first in range(len(hand)):
        clear_caches()
        # One card's captures remembered, the others searched: each on its own.
        hand_captures(rules, table, hand[first : first + 1])
        assert [list(found) for found in hand_captures(rules, table, hand)] == expected


def test_captures_match_the_search_over_the_whole_table():
    """Searching only the cards below the target finds what the whole table gives."""
    rules = rules_for("swedish")
    rng = random.Random(11)
    for _ in range(300):
        cards = rng.sample(full_deck(), rng.randint(2, 12))
        played, table = cards[0], cards[1:]
        options = tuple(sorted(rules.table_values[c.rank] for c in table))
        targets = rules.hand_values[played]
        whole = _masks.__wrapped__(options, targets)
        assert TableIndex(rules, table).captures(played) == [
            tuple(c for i, c in enumerate(sorted(table, key=card_order())) if m >> i & 1)
            for m in whole
        ]


def legal_by_brute_force(round_: Round, move: Move) -> bool:
    table = list(round_.table)
    for card in move.taken:
        if card not in table:
            return False
        table.remove(card)
    values = [round_.rules.table_values[c.rank] for c in move.taken]
    return any(splits(values, t) for t in round_.rules.hand_values[move.card])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 10**9), st.integers(1, 8))
def test_play_accepts_exactly_the_legal_captures(name, seed, size):
    rules = rules_for(name)
    rng = random.Random(seed)
    deck = full_deck(rules.decks)
    if rng.random() < 0.5:
        deck = [c for c in deck if c.rank <= 6 or c.rank == 10 or c.rank == 1]
    cards = rng.sample(deck, size + 5)
    hand, table, others = cards[:2], cards[2 : size + 2], cards[size + 2 :]
    round_ = Round.from_position(rules, [hand, others[:2]], table, deck=[others[2]], to_move=0)
    pool = table + table[:2] + others  # some cards twice, some not on the table
    for _ in range(20):
        taken = rng.sample(pool, rng.randint(1, min(len(pool), 5)))
        move = Move(rng.choice(hand), taken)
        legal = legal_by_brute_force(round_, move)
        assert round_.is_legal(move) == legal
        twin = round_.copy()
        if legal:
            twin.play(move)
            assert Counter(twin.table) == Counter(round_.table) - Counter(taken)
            assert sorted(twin.piles[0]) == sorted([move.card, *taken])
        else:
            before = twin.to_dict()
            try:
                twin.play(move)
            except ValueError:
                pass
            else:
                raise AssertionError(f"{move} was played")
            assert twin.to_dict() == before


def test_one_group_at_lowest_values_and_several_groups_are_both_captures():
    rules = rules_for("swedish")
    round_ = Round.from_position(
        rules,
        [parse_cards("8D AH"), parse_cards("2C")],
        parse_cards("5H 3C 8S AS 4C 9D"),
        to_move=0,
    )
    for played, taken in (("8D", "5H 3C"), ("8D", "5H 3C 8S"), ("AH", "AS 4C 9D"), ("AH", "AS")):
        assert round_.is_legal(Move(parse_cards(played)[0], parse_cards(taken)))
    assert not round_.is_legal(Move(parse_cards("8D")[0], parse_cards("5H 8S")))
