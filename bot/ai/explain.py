"""One-line reasons for a move, for the hint button (build moves: :mod:`.explainbuilds`)."""

from __future__ import annotations

from bot.engine import Card, Move, Round, Rules, capture_options, is_mulle
from bot.engine.cards import LILLAN, STORAN
from bot.i18n import EN, Lang

from .explainbuilds import (
    build_reasons,
    build_text,
    capture_build_reasons,
    table_builds_text,
    taken_text,
)
from .explainkryp import kryp_action, kryp_reasons
from .outcome import outcome
from .values import mulle_worth
from .view import SeatView, cards_of


def cards_text(cards: tuple[Card, ...] | list[Card]) -> str:
    """Cards with suit symbols: ``"4♣ 9♦"``."""
    return " ".join(card.symbol for card in cards)


def action_text(view: SeatView, move: Move, t: Lang = EN) -> str:
    """``"take 4♣ 9♦ with A♠"``, ``"trail 7♣"``, ``"build 9 with 3♣ + 6♥"``."""
    if move.value is not None:
        return build_text(view, move, t)
    if view.rules.forced_capture:
        return kryp_action(move, taken_text(move.taken, t), t)
    if move.table_builds:
        builds = table_builds_text(move, t)
        return t("{builds} and trail {card}", builds=builds, card=move.card.symbol)
    if move.is_trail:
        return t("trail {card}", card=move.card.symbol)
    return t("take {cards} with {card}", cards=taken_text(move.taken, t), card=move.card.symbol)


def explain_move(round: Round, seat: int, move: Move, t: Lang = EN) -> str:
    """Why ``seat`` might play ``move``, in one line, from what that seat can see (in the
    language ``t``, English by default)."""
    t = t.for_game(round.rules.name)  # the game's card words (big casino, storan…)
    view = SeatView.of(round, seat)
    return t("{action}: {why}", action=action_text(view, move, t), why=_why(view, move, t))


def explain_review(
    round: Round, seat: int, played: Move, best: Move, cost: float, t: Lang = EN
) -> str:
    """An analysed move, in full sentences: what the played move gave away (``cost``, the
    round's expected points) and what the better move gains, or, when the played move is
    the best, why it is good. From what ``seat`` could see, in the language ``t``."""
    t = t.for_game(round.rules.name)
    view = SeatView.of(round, seat)
    if played == best:
        return t("Your move was the best one: {why}.", why=_why(view, played, t))
    lost = t(
        "Your move, to {played}, gave away {points} of the round's expected points.",
        played=action_text(view, played, t),
        points=t.decimal(cost, 2),
    )
    gains = t(
        "The better move was to {best}: {why}.",
        best=action_text(view, best, t),
        why=_why(view, best, t),
    )
    return f"{lost} {gains}"


def _why(view: SeatView, move: Move, t: Lang) -> str:
    """The strongest one or two reasons for ``move``, as one clause."""
    if move.value is not None or move.table_builds:
        reasons = build_reasons(view, move, t)
    elif view.rules.forced_capture:  # Krypkasino: why the move avoids points
        reasons = kryp_reasons(view, move, t)
    elif move.taken:
        reasons = capture_build_reasons(view, move, t) + _capture_reasons(view, move, t)
    else:
        reasons = _trail_reasons(view, move, t)
    if len(reasons) > 1:
        return t("{first}, and {second}", first=reasons[0], second=reasons[1])
    return reasons[0]


def _last_capture_reason(rules: Rules, t: Lang) -> str:
    """Why the round's last capture matters: the leftovers, and sistan's point where the
    variant scores one (not Finnish Kasino, nor Casino without its last-capture point)."""
    if rules.sistan_points:
        return t("the last capture takes the cards left on the table and sistan")
    return t("the last capture takes the cards left on the table")


def _capture_reasons(view: SeatView, move: Move, t: Lang) -> list[str]:
    rules = view.rules
    taken = (move.card, *(c for item in move.taken for c in cards_of(item)))
    reasons: list[str] = []
    left = outcome(view, move).table
    if view.is_last_deal and sum(view.hand_sizes) == 1:
        reasons.append(_last_capture_reason(rules, t))
    if is_mulle(rules, move.card, move.taken):
        worth = mulle_worth(rules, move.card)
        reasons.append(
            t.ngettext("a mulle is worth {n} point", "a mulle is worth {n} points", worth)
        )
    if not left and rules.sweeps:
        reasons.append(t("clearing the table is a tabbe, worth a point"))
    if STORAN in taken:
        worth = _points(rules.storan_points, t)
        reasons.append(t("storan is worth {points}", points=worth))
    aces = sum(c.rank == 1 for c in taken)
    if aces:
        each = _points(rules.ace_points, t)
        if aces > 1:
            reasons.append(t("aces are worth {points} each", points=each))
        else:
            reasons.append(t("an ace is worth {points}", points=each))
    if LILLAN in taken:
        worth = _points(rules.lillan_points, t)
        reasons.append(t("lillan is worth {points}", points=worth))
    bigger = not rules.builds and _bigger_capture(view, move)
    if bigger and left:
        reasons.append(
            t("leaving {cards} keeps the next player from an easy tabbe", cards=cards_text(left))
            if len(left) <= 2
            else t(
                "leaving {cards} gives the next player less to work with", cards=cards_text(left)
            )
        )
    spades = sum(c.suit == "S" for c in taken)
    if spades:
        reasons.append(_spades_reason(view, spades, t))
    if not reasons:
        reasons.append(
            t.ngettext(
                "{n} card counts toward the most cards",
                "{n} cards count toward the most cards",
                len(taken),
            )
            if rules.cards_points
            else t("it leaves the least for the next player")
        )
    return reasons


def _points(n: int, t: Lang) -> str:
    return t("a point") if n == 1 else t.ngettext("{n} point", "{n} points", n)


def _spades_reason(view: SeatView, spades: int, t: Lang) -> str:
    rules = view.rules
    what = t("a spade") if spades == 1 else t.ngettext("{n} spade", "{n} spades", spades)
    if rules.spades == "over-six":
        return t("{spades} toward the seven that start scoring", spades=what)
    if rules.spades == "over-five":
        return t("{spades} toward the six that score", spades=what)
    if rules.spades == "each-other":
        return t("{spades}, worth a point each", spades=what)
    points = t.ngettext("{n} point", "{n} points", rules.spades_points)
    return t("{spades} toward the majority ({points})", spades=what, points=points)


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


def _trail_reasons(view: SeatView, move: Move, t: Lang) -> list[str]:
    rules, card = view.rules, move.card
    loose = [c for c in view.table if isinstance(c, Card)]
    could_take = bool(loose) and any(capture_options(rules, c, loose, limit=1) for c in view.hand)
    could_take = could_take or any(
        b.value in rules.hand_values[c] for b in view.builds for c in view.hand
    )
    first = (
        t("no capture is worth what it would leave the next player")
        if could_take
        else t("nothing on the table can be taken")
    )
    reasons = [first]
    keep_ten = (
        any(c.rank == 10 and c is not STORAN for c in view.hand)
        and card.rank != 10
        and view.unseen_count(STORAN) > 0
    )
    if keep_ten:
        reasons.append(t("keeping a 10 to catch storan"))
    elif card.suit != "S" and card.rank != 1 and card is not STORAN:
        reasons.append(t("{card} is worth nothing to the next player", card=card.symbol))
    return reasons
