"""Game helpers between the engine and the interface: ranking captures, how a played card
counts, the automatic move for a player who ran out of time, and the deal counter."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from bot.engine import Card, Move, Round, Rules, capture_options, capture_values

MAX_MENU_OPTIONS = 25  # Discord's limit for one select menu
STORAN = Card(10, "D")
LILLAN = Card(2, "S")


@dataclass(frozen=True, slots=True)
class Choice:
    """One capture the hand view offers: the cards taken and why it ranks where it does."""

    taken: tuple[Card, ...]
    points: int
    cards: int
    sweep: bool
    mulle: bool
    values: tuple[int, ...]  # what the played card counts as in this capture


def card_points(card: Card) -> int:
    """Points a card is worth by itself in the Nordic games (aces, storan, lillan)."""
    if card.rank == 1:
        return 1
    if card == STORAN:
        return 2
    return 1 if card == LILLAN else 0


def is_mulle(rules: Rules, played: Card, taken: Sequence[Card]) -> bool:
    """A Mulle capture: exactly one table card identical to the played one."""
    return rules.mulle_points > 0 and len(taken) == 1 and taken[0] == played


def played_values(rules: Rules, played: Card, taken: Sequence[Card]) -> tuple[int, ...]:
    """The values the played card can take ``taken`` as (an ace may work as 1, 14 or both)."""
    if not taken:
        return ()
    options = tuple(sorted(capture_values(rules, c, False) for c in taken))
    return tuple(v for v in capture_values(rules, played, True) if _splits(options, v))


@lru_cache(maxsize=4096)
def _splits(options: tuple[tuple[int, ...], ...], target: int) -> bool:
    """Whether cards (each with its possible values) split into groups of ``target``."""
    if not options:
        return True
    if len(options) > 14:  # labels only: large captures are always offered by the engine
        return True
    first, rest = options[0], options[1:]
    return any(_complete(rest, 0, (), target - value, target) for value in first if value <= target)


def _complete(
    rest: tuple[tuple[int, ...], ...],
    start: int,
    used: tuple[int, ...],
    need: int,
    target: int,
) -> bool:
    """Pick more cards (indices from ``start`` on) to finish a group, then split the rest."""
    if need == 0:
        left = tuple(v for i, v in enumerate(rest) if i not in used)
        return _splits(left, target)
    for index in range(start, len(rest)):
        for value in rest[index]:
            if value <= need and _complete(rest, index + 1, (*used, index), need - value, target):
                return True
    return False


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
    values = played_values(rules, played, choice.taken)
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
