"""Hints for the building games: build moves and captures of builds, in words.

"build 9 with 3♣ + 6♥: you hold another 9", "raise [5: 2♠ 3♦] to 8 with 3♣",
"take the 8-build with 8♦: it denies the opponent its 3 cards".
"""

from __future__ import annotations

from bot.engine import Build, Card, Move

from .outcome import Item
from .view import SeatView


def item_text(item: Item) -> str:
    """A card as ``3♣``, a build as ``the 8-build``."""
    return f"the {item.value}-build" if isinstance(item, Build) else item.symbol


def taken_text(taken: tuple[Item, ...]) -> str:
    """``"4♣ 9♦"``, or with builds first ``"the 8-build and 3♣ 5♥"``."""
    builds = [f"the {b.value}-build" for b in taken if isinstance(b, Build)]
    cards = " ".join(c.symbol for c in taken if isinstance(c, Card))
    return " and ".join([*builds, cards] if cards else builds)


def build_text(view: SeatView, move: Move) -> str:
    """The action of a build move: a new build, a raise or an add."""
    value = move.value
    builds = [i for i in move.using if isinstance(i, Build)]
    cards = [i for i in move.using if isinstance(i, Card)]
    same = [b for b in builds if b.value == value]
    raised = [b for b in builds if b.value != value]
    if raised:
        more = f" and add {' + '.join(c.symbol for c in cards)}" if cards else ""
        return f"raise the {raised[0].value}-build to {value} with {move.card.symbol}{more}"
    added = " + ".join(c.symbol for c in (move.card, *cards))
    if same:
        whose = "your" if view.side_of(same[0].owner) == view.side else "the"
        return f"add {added} to {whose} {value}-build"
    return f"build {value} with {added}"


def table_builds_text(move: Move) -> str:
    """Swazi-family build actions without the hand card, before the trail."""
    parts = [
        f"build {b.value} with {' + '.join(item_text(i) for i in b.using)}"
        for b in move.table_builds
    ]
    return ", ".join(parts)


def build_reasons(view: SeatView, move: Move) -> list[str]:
    """Why build: a card to take it with, the chance the opponents take it first."""
    value = move.value if move.value is not None else move.table_builds[-1].value
    rules = view.rules
    rest = list(view.hand)
    rest.remove(move.card)
    keep = [c for c in rest if value in rules.hand_values[c]]
    reasons = []
    if keep:
        reasons.append(f"you hold another {value} ({keep[0].symbol}) to take it next turn")
    unseen = sum(value in rules.hand_values[c] for c in view.hidden())
    if unseen <= 1:
        few = "no" if not unseen else "only one"
        reasons.append(f"{few} other card of value {value} is unseen, so it is hard to take")
    mine = [b for b in move.using if isinstance(b, Build) and view.side_of(b.owner) != view.side]
    if mine:
        reasons.append("it takes over the opponent's build")
    if not reasons:
        reasons.append(f"it gathers cards for your {value}")
    return reasons


def capture_build_reasons(view: SeatView, move: Move) -> list[str]:
    """Why take builds: denying the opponents, or collecting one's own."""
    reasons = []
    for build in (i for i in move.taken if isinstance(i, Build)):
        count = len(build.cards)
        if view.side_of(build.owner) == view.side:
            reasons.append(f"it collects your {build.value}-build ({count} cards)")
        else:
            reasons.append(f"it denies the opponent their {build.value}-build ({count} cards)")
    return reasons
