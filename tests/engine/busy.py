"""Busy building positions (16-item tables) for the lazy view's tests and benchmarks: the
worst random tables the engine benchmark finds for each variant, and issue 23's example;
and the full listing the view is compared with."""

from __future__ import annotations

from bot.engine import Build, Card, Move, Round, parse_cards, rules_for
from bot.turns import _ranked

# variant: (hand of seat 0, table, piles), found by tests/benchmarks/engine.py's search.
WORST = {
    "casino": ("10C AH 4S 3C", "AS 9H 8S 2C 9C QS 3S 7D AD 6S 9S 4H 2S AC 8D 7C", ("", "")),
    "royal": ("JH 6D QD 7D", "5C 9C AC 10D 4H 3C 2C 2H QH 4D 7H 8D AH AD QC 2S", ("JC 10C", "JD")),
    "mulle-glimne": (
        "3S QS 5C 2S",
        "8S JH AH AD 3S AS KD 5H 3D 4S AS 4D 4C 10C 7H 2H",
        ("KH 5H", ""),
    ),
    "south-african": (
        "2D 3H 10C 9D",
        "AC 4S 4D 7C 6S 2C 6C 2H AH 3C 9H 9C 7S 7D 3S 8H",
        ("5S", "4C 3D"),
    ),
    "swazi": ("KD 8D JS 7H", "4S 4H 2C 10H 8S JH AC 2D 8C JC 4D AD 7C 10D 3S 3C", ("KC", "2H")),
    "sotho": ("4H 10S 9C 3D", "8D 10C 4D AS 2D 6C AC 8H 9S 6S 7S 5H 10H AD 4S 2C", ("KS 9H", "")),
}


def worst(name: str) -> Round:
    """The worst 16-item table found for ``name``, seat 0 to move."""
    hand, table, piles = WORST[name]
    return Round.from_position(
        rules_for(name),
        [parse_cards(hand), []],
        parse_cards(table),
        piles=[parse_cards(p) for p in piles],
        to_move=0,
    )


def issue_example() -> Round:
    """Issue 23: QC QH QS 6H against the other player's [8: AH 7S | 2H 6S] and 15 cards
    (the last deal: 24,224 legal moves)."""
    build = Build([parse_cards("AH 7S"), parse_cards("2H 6S")], 8, 1)
    table = [build, *parse_cards("JH 9C 10D 7D 10S QD 4C AD AC AS 2C 2S 2D 3S 3D")]
    hands = [parse_cards("QC QH QS 6H"), parse_cards("8C 5H 4H KD")]
    return Round.from_position(rules_for("swazi"), hands, table, to_move=0)


def busy_positions() -> dict[str, Round]:
    """Every busy position, by name."""
    found = {name: worst(name) for name in WORST}
    found["swazi: issue 23"] = issue_example()
    return found


def moves_by_card(round_: Round) -> dict[Card, list[Move]]:
    """The reference the lazy view is held to: every legal move listed whole
    (``legal_moves()``), by card, each card's ranked best first, as the menus were made
    before the view."""
    by_card: dict[Card, list[Move]] = {}
    for move in round_.legal_moves():
        by_card.setdefault(move.card, []).append(move)
    return {card: _ranked(round_, moves) for card, moves in by_card.items()}
