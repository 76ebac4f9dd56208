"""The practice surface (cogs.learning.practice): a position played privately with the hand view's
menus, judged by its owner; a wrong move is explained and changes nothing, a right one
goes on; stale, someone else's and forged clicks are refused."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.engine import Card, Move, Round, rules_for
from bot.i18n import Lang
from cogs.learning.practice import Practice, Verdict
from tests.bot.kasino_harness import Harness, cid, custom_ids, select_options


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


@dataclass
class Drill:
    """A toy owner: two positions in a row; the first wants 5♠ to take 2♣ + 3♦."""

    user_id: int
    name: str = "puzzle"
    step: int = 0
    judged: list[Move] = field(default_factory=list)

    def position(self) -> Practice | None:
        if self.step >= 2:
            return None
        hands = [cards("5S KH"), cards("4C 7C")] if self.step == 0 else [cards("9S"), cards("4C")]
        table = cards("2C 3D 9H") if self.step == 0 else cards("9H")
        rnd = Round.from_position(rules_for("swedish"), hands, table, to_move=0)
        return Practice(
            "puzzle",
            77,
            self.step + 1,
            self.user_id,
            "swedish",
            rnd,
            title=lambda t: f"Drill {self.step + 1}",
            task=lambda t: "Take the most cards.",
        )

    async def load(self, practice_id: int, user_id: int) -> Practice | None:
        return self.position() if practice_id == 77 else None

    async def judge(self, practice: Practice, move: Move, t: Lang) -> Verdict:
        self.judged.append(move)
        if self.step == 0 and sorted(move.taken) != sorted(cards("2C 3D")):
            return Verdict.refuse("5♠ takes 2 + 3 together: that is two cards.")
        self.step += 1
        return Verdict.accept("Well taken.", self.position())


async def open_drill(harness: Harness, drill: Drill, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``/kasino hand`` made to open the drill (the surface needs an interaction)."""
    cog = harness.cog
    cog.practice.register(drill)
    command = cog.__cog_app_commands_group__.get_command("hand")

    async def opened(binding: Any, interaction: Any) -> None:
        practice = await drill.load(77, interaction.user.id)
        await cog.practice.show(interaction, practice)

    monkeypatch.setattr(command, "_callback", opened)
    result = await harness.slash(harness.members[0], "kasino hand")
    assert result.ephemeral, result
    return result.response


async def test_a_practice_position_is_judged_with_the_real_menus(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    anna, bjorn = harness.members[:2]
    drill = Drill(anna.id)
    view = await open_drill(harness, drill, monkeypatch)
    assert "Drill 1" in view.content and "Take the most cards." in view.content
    first_card = cid(view, "k:xcard:puzzle:77:1:")
    hand = [o["value"] for o in select_options(view, "k:xcard:")]
    assert len(hand) == 2

    # the king takes nothing: trailed at once, judged wrong, nothing changes
    king = str(cards("5S KH").index(Card.parse("KH")))
    step = await harness.select(anna, view, [king], custom_id=first_card)
    view = step.response
    assert "❌" in view.content and "two cards" in view.content, view.content
    assert drill.step == 0 and drill.judged == [Move(Card.parse("KH"))]
    assert any(c.startswith("k:xcard:puzzle:77:1:") for c in custom_ids(view))

    # someone else, a forged owner, a stale version: refused, nothing judged
    other = await harness.forge(bjorn, view, cid(view, "k:xcard:"), ["0"])
    assert "nothing happened" in other.response.content
    forged = await harness.forge(anna, view, "k:xcard:lesson:77:1:zz", ["0"])
    assert "nothing happened" in forged.response.content
    assert len(drill.judged) == 1

    # the five: its take menu, then the right capture
    five = str(cards("5S KH").index(Card.parse("5S")))
    step = await harness.select(anna, view, [five], custom_id=cid(view, "k:xcard:"))
    view = step.response
    options = select_options(view, "k:xtake:puzzle:77:1:")
    both = next(o["value"] for o in options if "2" in o["label"] and "3" in o["label"])
    step = await harness.select(anna, view, [both], custom_id=cid(view, "k:xtake:"))
    view = step.response
    assert "✅ Well taken." in view.content and "Drill 2" in view.content, view.content
    assert any(c.startswith("k:xcard:puzzle:77:2:") for c in custom_ids(view))

    # the first position's menu again: stale, the fresh position shown, nothing judged
    stale = await harness.forge(anna, view, first_card, ["0"])
    assert "out of date" in stale.response.content and "Drill 2" in stale.response.content
    assert len(drill.judged) == 2
