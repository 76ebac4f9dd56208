"""Hints for the building games: build moves and captures of builds, in words.

"build 9 with 3♣ + 6♥: you hold another 9", "raise [5: 2♠ 3♦] to 8 with 3♣",
"take the 8-build with 8♦: it denies the opponent its 3 cards". Said in the language ``t``
(English by default).
"""

from __future__ import annotations

from bot.engine import Build, Card, Move
from bot.i18n import EN, Lang

from .outcome import Item
from .view import SeatView


def item_text(item: Item, t: Lang = EN) -> str:
    """A card as ``3♣``, a build as ``the 8-build``."""
    return t("the {value}-build", value=item.value) if isinstance(item, Build) else item.symbol


def taken_text(taken: tuple[Item, ...], t: Lang = EN) -> str:
    """``"4♣ 9♦"``, or with builds first ``"the 8-build and 3♣ 5♥"``."""
    builds = [item_text(b, t) for b in taken if isinstance(b, Build)]
    cards = " ".join(c.symbol for c in taken if isinstance(c, Card))
    joiner = f" {t.pgettext('list', 'and')} "
    return joiner.join([*builds, cards] if cards else builds)


def build_text(view: SeatView, move: Move, t: Lang = EN) -> str:
    """The action of a build move: a new build, a raise or an add."""
    value = move.value
    builds = [i for i in move.using if isinstance(i, Build)]
    cards = [i for i in move.using if isinstance(i, Card)]
    same = [b for b in builds if b.value == value]
    raised = [b for b in builds if b.value != value]
    if raised:
        fields = {"old": raised[0].value, "value": value, "card": move.card.symbol}
        if cards:
            more = " + ".join(c.symbol for c in cards)
            return t(
                "raise the {old}-build to {value} with {card} and add {more}", more=more, **fields
            )
        return t("raise the {old}-build to {value} with {card}", **fields)
    added = " + ".join(c.symbol for c in (move.card, *cards))
    if same:
        if view.side_of(same[0].owner) == view.side:
            return t("add {cards} to your {value}-build", cards=added, value=value)
        return t("add {cards} to the {value}-build", cards=added, value=value)
    return t("build {value} with {cards}", value=value, cards=added)


def table_builds_text(move: Move, t: Lang = EN) -> str:
    """Swazi-family build actions without the hand card, before the trail."""
    parts = [
        t(
            "build {value} with {items}",
            value=b.value,
            items=" + ".join(item_text(i, t) for i in b.using),
        )
        for b in move.table_builds
    ]
    return ", ".join(parts)


def build_reasons(view: SeatView, move: Move, t: Lang = EN) -> list[str]:
    """Why build: a card to take it with, the chance the opponents take it first."""
    value = move.value if move.value is not None else move.table_builds[-1].value
    rules = view.rules
    rest = list(view.hand)
    rest.remove(move.card)
    keep = [c for c in rest if value in rules.hand_values[c]]
    reasons = []
    if keep:
        reasons.append(
            t(
                "you hold another {value} ({card}) to take it next turn",
                value=value,
                card=keep[0].symbol,
            )
        )
    unseen = sum(value in rules.hand_values[c] for c in view.hidden())
    if unseen <= 1:
        if unseen:
            reasons.append(
                t(
                    "only one other card of value {value} is unseen, so it is hard to take",
                    value=value,
                )
            )
        else:
            reasons.append(
                t("no other card of value {value} is unseen, so it is hard to take", value=value)
            )
    mine = [b for b in move.using if isinstance(b, Build) and view.side_of(b.owner) != view.side]
    if mine:
        reasons.append(t("it takes over the opponent's build"))
    if not reasons:
        reasons.append(t("it gathers cards for your {value}", value=value))
    return reasons


def capture_build_reasons(view: SeatView, move: Move, t: Lang = EN) -> list[str]:
    """Why take builds: denying the opponents, or collecting one's own."""
    reasons = []
    for build in (i for i in move.taken if isinstance(i, Build)):
        count = len(build.cards)
        if view.side_of(build.owner) == view.side:
            reasons.append(
                t.ngettext(
                    "it collects your {value}-build ({n} card)",
                    "it collects your {value}-build ({n} cards)",
                    count,
                    value=build.value,
                )
            )
        else:
            reasons.append(
                t.ngettext(
                    "it denies the opponent their {value}-build ({n} card)",
                    "it denies the opponent their {value}-build ({n} cards)",
                    count,
                    value=build.value,
                )
            )
    return reasons
