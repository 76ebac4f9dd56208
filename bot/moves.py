"""Game helpers between the engine and the interface: ranking captures, how a played card
counts, the automatic move for a player who ran out of time, and the deal counter."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import Card, Move, Round, Rules, capture_options, capture_targets, card_points

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


def is_mulle(rules: Rules, played: Card, taken: Sequence[Card]) -> bool:
    """A Mulle capture: exactly one table card identical to the played one."""
    return rules.mulle_points > 0 and len(taken) == 1 and taken[0] == played


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


def _with_values(rules: Rules, played: Card, choice: Choice) -> Choice:
    values = capture_targets(rules, played, choice.taken)
    return Choice(choice.taken, choice.points, choice.cards, choice.sweep, choice.mulle, values)


def auto_move(round_: Round) -> Move:
    """A simple safe move for the player to move (used when their time runs out).

    Takes the capture worth most points (then most cards); with nothing to take, trails
    the lowest card that scores nothing. Later this may call the computer players.
    """
    moves = round_.legal_moves()
    captures = [m for m in moves if not m.is_trail]
    if captures:
        table = len(round_.table)

        def worth(move: Move) -> tuple[int, int]:
            cards = (move.card, *move.taken)
            return (sum(map(card_points, cards)) + int(len(move.taken) == table), len(cards))

        return max(captures, key=worth)
    trails = [m for m in moves if m.is_trail]
    return min(trails, key=lambda m: (card_points(m.card) > 0, m.card.suit == "S", m.card.rank))


def deal_progress(round_: Round) -> tuple[int, int]:
    """``(k, n)``: the round is in deal k of n."""
    return round_.deal_number, round_.deals_total
