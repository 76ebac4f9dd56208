"""Small helpers for the building games' tests: positions written as text."""

from __future__ import annotations

import re

from bot.engine import Build, Card, Move, Round, parse_cards

_ITEM = re.compile(r"\[[^\]]*\](?:@\d+)?|\S+")


def items(text: str) -> list:
    """``"5H [8: 3C 5H | 8S]@1 9D"``: cards, and builds with their owner after ``@``."""
    out = []
    for token in _ITEM.findall(text):
        if token.startswith("["):
            body, _, owner = token.partition("@")
            out.append(Build.parse(body, owner=int(owner or 0)))
        else:
            out.append(Card.parse(token))
    return out


def card(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def position(rules, hands, table="", to_move=0, piles=None, **kwargs) -> Round:
    """Seat ``to_move`` (0 unless told) moves; ``hands`` and ``piles`` as text per seat."""
    return Round.from_position(
        rules,
        [cards(h) for h in hands],
        items(table),
        to_move=to_move,
        piles=None if piles is None else [cards(p) for p in piles],
        **kwargs,
    )


def build(text_card: str, using: str, value: int) -> Move:
    return Move.build(card(text_card), items(using), value)


def take(text_card: str, taken: str) -> Move:
    return Move(card(text_card), items(taken))


def trail(text_card: str) -> Move:
    return Move(card(text_card))


def table_text(rnd: Round) -> str:
    return " ".join(str(item) for item in rnd.table)


def dealt_with_a_build(rules, players: int = 2, teams_ok: bool = True) -> Round:
    """A dealt round played at random until a build lies on the table (a real, whole game:
    saved games must account for every card)."""
    import random

    from bot.engine import Build

    for seed in range(200):
        game = Round.deal(rules, players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            if any(isinstance(item, Build) for item in game.table):
                return game
            game.play(rng.choice(game.legal_moves()))
    raise AssertionError("no build in 200 random rounds")
