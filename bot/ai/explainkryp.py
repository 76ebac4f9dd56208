"""Hint reasons in Krypkasino, where every point is a penalty: why a move avoids points.

The reasons are the terms :class:`~bot.ai.kryp.KrypJudge` weighs (what the move takes,
what it sheds, what it leaves the next player, the leftovers), told from what the mover
can see. The Swedish word krypa stays Swedish in every language; storan, lillan and tabbe
are said in the reader's words for them (Finnish: ruutukymppi, patakakkonen, mökki).
"""

from __future__ import annotations

from bot.engine import Move
from bot.engine.cards import LILLAN, STORAN
from bot.i18n import Lang

from .candidates import moves_of
from .kryp import KrypJudge
from .view import SeatView

LIKELY = 0.5  # a forced tabbe at least this likely is "likely", from FORCED on "may"
FORCED = 0.2


def kryp_action(move: Move, taken: str, t: Lang) -> str:
    """``"krypa with 7♣"`` or ``"take 4♣ 9♦ with 7♣"`` (``taken``: the cards, written)."""
    if move.is_trail:
        return t("krypa with {card}", card=move.card.symbol)
    return t("take {cards} with {card}", cards=taken, card=move.card.symbol)


def kryp_reasons(view: SeatView, move: Move, t: Lang) -> list[str]:
    """Why ``move`` avoids points, the strongest reasons first (at least one)."""
    judge = KrypJudge(view)
    parts = judge.parts(move)
    moves = moves_of(view)
    reasons = _krypa(view, move, judge, moves, t) if move.is_trail else []
    if move.taken:
        reasons = _capture(view, move, judge, moves, t)
    chance = parts.get("reward", 0.0) / view.rules.reward_points
    if chance >= FORCED:
        table = " ".join(c.symbol for c in _left(view, move))
        reasons.insert(
            1,
            t("the next player will likely have to tabbe on {cards}, giving you −5", cards=table)
            if chance >= LIKELY
            else t("the next player may have to tabbe on {cards}, giving you −5", cards=table),
        )
    if parts.get("leftovers", 0.0) > 0 and len(reasons) < 2:
        reasons.append(t("the cards left on the table go to whoever captured last, not you"))
    return reasons


def _krypa(view: SeatView, move: Move, judge: KrypJudge, moves: list[Move], t: Lang) -> list[str]:
    reasons = [t("it takes nothing")]
    worth = judge.costs.worth[move.card]
    if worth:
        reasons.append(
            t(
                "{card} leaves your hand without counting against you ({points})",
                card=move.card.symbol,
                points=t.ngettext("{n} penalty point", "{n} penalty points", worth),
            )
        )
    elif any(m.taken for m in moves):
        reasons.append(t("your other cards would have to capture"))
    return reasons


def _capture(view: SeatView, move: Move, judge: KrypJudge, moves: list[Move], t: Lang) -> list[str]:
    costs = judge.costs
    reasons: list[str] = []
    if len(moves) == 1:
        reasons.append(t("it is the only legal move"))
    elif all(m.taken for m in moves):
        reasons.append(t("every card in your hand can capture, so one must"))
    size = len(view.table)
    tabbar = [m for m in moves if len(m.taken) == size and m.card != move.card]
    if len(move.taken) < size and tabbar:
        reasons.append(t("{card} would take the whole table: a tabbe", card=tabbar[0].card.symbol))
    points = costs.taken(move.card, move.taken)
    cheapest = min(costs.taken(m.card, m.taken) for m in moves if m.taken)
    if len(move.taken) == size:
        if len(moves) > 1:
            reasons.append(t("this tabbe costs less than the other moves"))
    elif points == 0:
        count = len(move.taken)
        reasons.append(
            t.ngettext(
                "it takes only {n} card, worth no penalty points",
                "it takes only {n} cards, worth no penalty points",
                count,
            )
        )
    elif points == cheapest and len(moves) > 1:
        reasons.append(
            t(
                "no capture costs fewer penalty points ({points})",
                points=t.ngettext("{n} penalty point", "{n} penalty points", points),
            )
        )
    # whole sentences, so that each language names the card in its own words
    for prize, text in (
        (STORAN, t("every move you have takes storan")),
        (LILLAN, t("every move you have takes lillan")),
    ):
        # Krypa is never possible here when every move takes the prize.
        if len(reasons) < 2 and all(prize in (m.card, *m.taken) for m in moves):
            reasons.append(text)
    if not reasons:
        reasons.append(t("looking a few moves ahead, it costs the least"))
    return reasons


def _left(view: SeatView, move: Move) -> list:
    """The table after ``move`` (the cards the next player faces)."""
    table = list(view.table)
    for card in move.taken:
        table.remove(card)
    if move.is_trail:
        table.append(move.card)
    return table
