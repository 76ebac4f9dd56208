"""Game helpers between the engine and the interface: ranking captures, how a played card
counts, the automatic move for a player who ran out of time (the ``normal`` computer
player's), and the deal counter."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from bot.ai import choose_move
from bot.ai.sim import kryp_points
from bot.engine import (
    Card,
    Move,
    Round,
    Rules,
    capture_options,
    capture_targets,
    card_points,
    is_mulle,
)

log = logging.getLogger(__name__)

MAX_MENU_OPTIONS = 25  # Discord's limit for one select menu


@dataclass(frozen=True, slots=True)
class Choice:
    """One capture the hand view offers: the cards taken and why it ranks where it does."""

    taken: tuple[Card, ...]
    points: int
    cards: int
    sweep: bool
    mulle: bool
    values: tuple[int, ...]  # what the played card counts as in this capture


def rank_choices(rules: Rules, played: Card, table: Sequence[Card], limit: int) -> list[Choice]:
    """The best captures for ``played``: most points first, then most cards, at most ``limit``."""
    choices = []
    for taken in capture_options(rules, played, list(table), limit=limit):
        sweep = len(taken) == len(table)
        mulle = is_mulle(rules, played, taken)
        points = sum(card_points(c) for c in (played, *taken)) + int(sweep)
        points += rules.mulle_points if mulle else 0
        spades = sum(c.suit == "S" for c in (played, *taken))
        choice = Choice(tuple(taken), points, len(taken) + 1, sweep, mulle, ())
        choices.append((choice, spades))
    choices.sort(key=lambda pair: (-pair[0].points, -pair[0].cards, -pair[1]))
    return [_with_values(rules, played, choice) for choice, _ in choices[:limit]]


def round_choices(round_: Round, played: Card, limit: int) -> list[Choice]:
    """The captures the hand view offers for ``played`` on this round's table: as
    :func:`rank_choices`, but in a game of forced captures (Krypkasino) only the legal
    ones (with ``take_all`` the whole captures), fewest penalty points first (a tabbe
    counting its penalty), then fewest cards."""
    rules = round_.rules
    table = round_.table
    if not table:
        return []
    if not rules.forced_capture:
        return rank_choices(rules, played, table, limit)
    choices = []
    for taken in round_.forced_captures(played):
        sweep = len(taken) == len(table)
        points = capture_cost(rules, played, taken, len(table))
        values = capture_targets(rules, played, taken)
        choices.append(Choice(tuple(taken), points, len(taken) + 1, sweep, False, values))
    choices.sort(key=lambda c: (c.points, c.sweep, c.cards))
    return choices[:limit]


def more_captures(round_: Round, played: Card, shown: int) -> bool:
    """Whether ``played`` has legal captures beyond the ``shown`` ones a take menu lists,
    so that choosing the cards yourself can help. In a game of forced captures
    (Krypkasino) the menu lists the legal captures themselves (with ``take_all`` the
    whole ones), so picking is only worth offering when they did not all fit; a pick
    outside them would be refused. Elsewhere any cards that add up may be picked."""
    if not round_.rules.forced_capture:
        return shown > 0
    return len(round_.forced_captures(played)) > shown


def penalty_points(rules: Rules, cards: Sequence[Card]) -> int:
    """What these cards score in Krypkasino: each 10♦ (storan), each 2♠ (lillan), each
    ace and each other spade (an A♠ as an ace and a spade)."""
    worth = kryp_points(rules)
    return sum(worth[card] for card in cards)


def capture_cost(rules: Rules, played: Card, taken: Sequence[Card], table: int) -> int:
    """What a Krypkasino move costs its player at once: the penalty points of the cards it
    takes (the played card's included), and a tabbe's if it takes all ``table`` cards."""
    if not taken:
        return 0
    sweep = len(taken) == table
    return penalty_points(rules, (played, *taken)) + (rules.tabbe_points if sweep else 0)


def _with_values(rules: Rules, played: Card, choice: Choice) -> Choice:
    values = capture_targets(rules, played, choice.taken)
    return Choice(choice.taken, choice.points, choice.cards, choice.sweep, choice.mulle, values)


def auto_move(round_: Round, seed: object = None) -> Move:
    """The move made for a player whose time ran out: what the ``normal`` computer plays.

    Legal in every variant: in the building games a player who owns a build captures or
    builds on (never a refused trail), so the round always goes on. CPU-bound: about a
    millisecond, up to a few hundred on the huge tables left when everyone trails; async
    callers run it in a worker thread.
    """
    return computer_move(round_, round_.to_move, "normal", seed)


def computer_move(
    round_: Round, seat: int, level: str, seed: object = None, budget_ms: float | None = None
) -> Move:
    """What the computer player of ``level`` plays for ``seat``, always a legal move: a
    computer that fails (``ValueError``) or chooses an illegal move is logged and the
    safest legal move is played instead, so a computer never stalls a game. CPU-bound:
    run it in a worker thread, on a copy of the round."""
    try:
        move = choose_move(round_, seat, level, seed=seed, budget_ms=budget_ms)
    except ValueError:
        log.exception("the %s computer player failed in %s; playing a safe move", level,
                      round_.rules.name)  # fmt: skip
        return safe_move(round_)
    return legal_or_safe(round_, move)


def legal_or_safe(round_: Round, move: Move) -> Move:
    """``move`` if it is legal now, else (logged as the computer player's error) the safest
    legal move, so a computer's mistake never stalls a game: a player's time running out
    or a computer's turn always ends in a move."""
    if round_.rules.builds or round_.is_legal(move):  # the building games' are checked
        return move
    log.error("a computer player chose an illegal move %s in %s; playing a safe one", move,
              round_.rules.name)  # fmt: skip
    return safe_move(round_)


def safe_move(round_: Round) -> Move:
    """A legal move that gives away least: in a game of forced captures (Krypkasino) a
    krypa or the capture with the fewest penalty points (a tabbe counting its penalty);
    elsewhere the first trail, else the first legal move."""
    moves = round_.legal_moves(limit=8)
    rules = round_.rules
    if rules.forced_capture:
        table = len(round_.table)

        def cost(move: Move) -> tuple[int, int]:
            return capture_cost(rules, move.card, move.taken, table), len(move.taken)

        return min(moves, key=cost)
    return next((move for move in moves if move.is_trail), moves[0])


def deal_progress(round_: Round) -> tuple[int, int]:
    """``(k, n)``: the round is in deal k of n."""
    return round_.deal_number, round_.deals_total
