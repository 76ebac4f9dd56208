"""The hand view's menus in the games with builds, made from the engine's lazy view
(``Round.moves``), say what the old full ranking said: each card's option in the first
menu (can it be played, can it trail, which kinds it can do) and each take menu (the
best 23 moves)."""

from __future__ import annotations

import random

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Card, Move, Round
from bot.i18n import EN, Lang
from bot.render import plain
from bot.turns import why_not
from cogs.play.views import CAPTURE_CHOICES, KIND_WORDS, _building_card_option, ranked_moves
from tests.engine.busy import busy_positions, moves_by_card
from tests.engine.positions import (
    CASINO_FAMILY,
    SWAZI_FAMILY,
    played_position,
    random_position,
    random_swazi_position,
)


def old_card_option(
    rnd: Round, played: Card, index: int, moves: list[Move], t: Lang = EN
) -> discord.SelectOption:
    """The first menu's option of a card as it was made from the card's whole list of
    moves, before the lazy view (the reference)."""
    label = plain(played)
    if not moves:
        label = t("{card}: cannot be played now", card=label)
        description = why_not(rnd, played, t, plain)
    elif all(move == Move(played) for move in moves):
        label = t("{card}: trail", card=label)
        description = t("takes and builds nothing: put on the table at once")
    else:
        kinds = dict.fromkeys(t(KIND_WORDS[m.kind]) for m in moves if m != Move(played))
        if Move(played) in moves:
            kinds[t("trail")] = None
        description = t("can {actions}: choose the move next", actions=", ".join(kinds))
    return discord.SelectOption(label=label, value=str(index), description=description[:100])


def same_menus(rnd: Round) -> None:
    """Every card's first-menu option and take menu, from the lazy view and from the
    old listing of every move (``moves_by_card``), asked on fresh copies."""
    hand = rnd.hands[rnd.to_move]
    old = moves_by_card(rnd.copy())
    lazy = rnd.copy()
    by_card = lazy.moves.by_card()
    for index, card in enumerate(hand):
        new = _building_card_option(lazy, card, index, by_card[card])
        was = old_card_option(rnd.copy(), card, index, old.get(card, []))
        assert (new.label, new.description) == (was.label, was.description), rnd.to_dict()
        menu = [m for m in old.get(card, []) if m != Move(card)][:CAPTURE_CHOICES]
        assert ranked_moves(rnd.copy(), card) == menu


@pytest.mark.parametrize("name", list(busy_positions()))
def test_busy_tables_menus_equal_the_old_ones(name):
    same_menus(busy_positions()[name])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASINO_FAMILY + SWAZI_FAMILY), seed=st.integers(0, 10**9))
def test_random_positions_menus_equal_the_old_ones(case, seed):
    name, options = case
    rng = random.Random(seed)
    if case in SWAZI_FAMILY:
        same_menus(random_swazi_position(rng, name, options))
    else:
        same_menus(random_position(rng, name, options, max_items=8))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(CASINO_FAMILY + SWAZI_FAMILY),
    steps=st.integers(0, 30),
    seed=st.integers(0, 10**9),
)
def test_reachable_positions_menus_equal_the_old_ones(case, steps, seed):
    name, options = case
    rnd = played_position(random.Random(seed), name, options, 2, False, steps)
    if not rnd.is_over:
        same_menus(rnd)
