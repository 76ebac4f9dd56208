"""One-line reasons for a move, for the hint button (build moves: :mod:`.explainbuilds`)."""

from __future__ import annotations

from bot.engine import Card, Move, Round, capture_options, is_mulle
from bot.engine.cards import LILLAN, STORAN

from .explainbuilds import (
    build_reasons,
    build_text,
    capture_build_reasons,
    table_builds_text,
    taken_text,
)
from .outcome import outcome
from .values import mulle_worth
from .view import SeatView, cards_of


def cards_text(cards: tuple[Card, ...] | list[Card]) -> str:
    """Cards with suit symbols: ``"4♣ 9♦"``."""
    return " ".join(card.symbol for card in cards)


def action_text(view: SeatView, move: Move) -> str:
    """``"take 4♣ 9♦ with A♠"``, ``"trail 7♣"``, ``"build 9 with 3♣ + 6♥"``."""
    if move.value is not None:
        return build_text(view, move)
    if move.table_builds:
        return f"{table_builds_text(move)} and trail {move.card.symbol}"
    if move.is_trail:
        return f"trail {move.card.symbol}"
    return f"take {taken_text(move.taken)} with {move.card.symbol}"


def explain_move(round: Round, seat: int, move: Move) -> str:
    """Why ``seat`` might play ``move``, in one line, from what that seat can see."""
    view = SeatView.of(round, seat)
    if move.value is not None or move.table_builds:
        reasons = build_reasons(view, move)
    elif move.taken:
        reasons = capture_build_reasons(view, move) + _capture_reasons(view, move)
    else:
        reasons = _trail_reasons(view, move)
    return f"{action_text(view, move)}: {', and '.join(reasons[:2])}"


def _capture_reasons(view: SeatView, move: Move) -> list[str]:
    rules = view.rules
    taken = (move.card, *(c for item in move.taken for c in cards_of(item)))
    reasons: list[str] = []
    left = outcome(view, move).table
    if view.is_last_deal and sum(view.hand_sizes) == 1:
        reasons.append("the last capture takes the cards left on the table and sistan")
    if is_mulle(rules, move.card, move.taken):
        reasons.append(f"a mulle is worth {mulle_worth(rules, move.card)} points")
    if not left and rules.sweeps:
        reasons.append("clearing the table is a tabbe, worth a point")
    if STORAN in taken:
        reasons.append(f"storan is worth {_points(rules.storan_points)}")
    aces = sum(c.rank == 1 for c in taken)
    if aces:
        each = _points(rules.ace_points)
        reasons.append(f"aces are worth {each} each" if aces > 1 else f"an ace is worth {each}")
    if LILLAN in taken:
        reasons.append(f"lillan is worth {_points(rules.lillan_points)}")
    bigger = not rules.builds and _bigger_capture(view, move)
    if bigger and left:
        reasons.append(
            f"leaving {cards_text(left)} keeps the next player from an easy tabbe"
            if len(left) <= 2
            else f"leaving {cards_text(left)} gives the next player less to work with"
        )
    spades = sum(c.suit == "S" for c in taken)
    if spades:
        reasons.append(_spades_reason(view, spades))
    if not reasons:
        reasons.append(
            f"{len(taken)} cards count toward the most cards"
            if rules.cards_points
            else "it leaves the least for the next player"
        )
    return reasons


def _points(n: int) -> str:
    return "a point" if n == 1 else f"{n} points"


def _spades_reason(view: SeatView, spades: int) -> str:
    rules = view.rules
    what = "a spade" if spades == 1 else f"{spades} spades"
    if rules.spades == "over-six":
        return f"{what} toward the seven that start scoring"
    if rules.spades == "over-five":
        return f"{what} toward the six that score"
    if rules.spades == "each-other":
        return f"{what}, worth a point each"
    points = rules.spades_points
    return f"{what} toward the majority ({points} point{'s' if points > 1 else ''})"


LOOK = 40  # the biggest captures looked at when asking whether a card could take more


def _bigger_capture(view: SeatView, move: Move) -> bool:
    """Whether the same card could have taken more (among its ``LOOK`` biggest captures)."""
    return any(
        len(c) > len(move.taken) and _contains(c, move.taken)
        for c in capture_options(view.rules, move.card, view.table, limit=LOOK)
    )


def _contains(big: tuple[Card, ...], small: tuple[Card, ...]) -> bool:
    rest = list(big)
    for card in small:
        if card not in rest:
            return False
        rest.remove(card)
    return True


def _trail_reasons(view: SeatView, move: Move) -> list[str]:
    rules, card = view.rules, move.card
    loose = [c for c in view.table if isinstance(c, Card)]
    could_take = bool(loose) and any(capture_options(rules, c, loose, limit=1) for c in view.hand)
    could_take = could_take or any(
        b.value in rules.hand_values[c] for b in view.builds for c in view.hand
    )
    first = (
        "no capture is worth what it would leave the next player"
        if could_take
        else "nothing on the table can be taken"
    )
    reasons = [first]
    keep_ten = (
        any(c.rank == 10 and c is not STORAN for c in view.hand)
        and card.rank != 10
        and view.unseen_count(STORAN) > 0
    )
    if keep_ten:
        reasons.append("keeping a 10 to catch storan")
    elif card.suit != "S" and card.rank != 1 and card is not STORAN:
        reasons.append(f"{card.symbol} is worth nothing to the next player")
    return reasons
