"""The Kasino rules engine: pure game logic, no Discord.

Cards, builds, moves and rules are immutable values; :class:`Round` and :class:`Match` hold
a game in progress and refuse illegal moves with :class:`IllegalMove`, a message for people.
The building games (Casino, Royal Casino, Glimne's Mulle, Swazi, Sotho, South African) put
:class:`Build` items on the table; see :mod:`bot.engine.building` for the design.

``Round.legal_moves()`` lists every legal move; ``Round.moves`` is the same set as a lazy
:class:`LegalMoves` view (``count()``, ``any()``, ``move in``, per card and per kind, the
``i``-th move), for menus and searches that need only part of a busy table's moves.
"""

from .builds import Build
from .captures import (
    all_captures,
    capture_masks,
    capture_options,
    capture_targets,
    is_capture,
)
from .cards import Card, parse_cards
from .legal import CardMoves, LegalMoves
from .match import Match
from .moves import IllegalMove, Move, TableBuild
from .reasons import Joined, Reason
from .round import Play, Round
from .rules import Rules, capture_values, rules_for
from .scoring import Score, card_points, is_mulle

__all__ = [
    "Build",
    "Card",
    "CardMoves",
    "IllegalMove",
    "Joined",
    "LegalMoves",
    "Match",
    "Move",
    "Play",
    "Reason",
    "Round",
    "Rules",
    "Score",
    "TableBuild",
    "all_captures",
    "capture_masks",
    "capture_options",
    "capture_targets",
    "capture_values",
    "card_points",
    "is_capture",
    "is_mulle",
    "parse_cards",
    "rules_for",
]
