"""The hand view is one ephemeral message edited in place, step after step. A client
keeps a select's chosen value across an edit while its custom_id stays the same (showing a
choice nobody made, which then sends nothing when picked), so no two renderings that can
follow each other on that message carry the same select custom_id."""

from __future__ import annotations

from typing import Any

from cogs.custom_ids import SELECT_KINDS, parse_click
from tests.bot.kasino_harness import Harness, cid, components


def select_ids(message: Any) -> list[str]:
    """The custom_ids of the selects on a message."""
    return [c["custom_id"] for c in components(message) if c.get("type") == 3]


async def test_successive_hand_views_never_repeat_a_select_id(harness: Harness) -> None:
    game = await harness.start_game(2)
    index = await harness.ready_to_capture(game)
    mover = harness.member(int(game.seats[game.match.round.to_move].user_id))
    hand = (await harness.open_hand(mover, game)).response
    renders = [select_ids(hand)]  # the selects of each rendering (the message is live)

    async def step(result: Any) -> Any:
        view = result.response
        assert view is not None and view.id == hand.id, result  # edited in place
        renders.append(select_ids(view))
        return view

    view = hand
    for _ in range(2):  # the card, its take menu, Back, the same card again, ...
        view = await step(
            await harness.select(mover, view, [str(index)], custom_id=cid(view, "k:card:"))
        )
        assert select_ids(view)[0].startswith("k:take:")
        view = await step(await harness.click(mover, view, custom_id=cid(view, "k:hand:")))
    view = await step(await harness.click(mover, view, custom_id=cid(view, "k:hand:")))  # Refresh
    view = await step(
        await harness.select(mover, view, [str(index)], custom_id=cid(view, "k:card:"))
    )
    view = await step(await harness.select(mover, view, ["pick"], custom_id=cid(view, "k:take:")))
    assert select_ids(view)[0].startswith("k:pick:")
    view = await step(await harness.click(mover, view, custom_id=cid(view, "k:hand:")))  # Back

    assert all(len(ids) == 1 for ids in renders), renders
    flat = [ids[0] for ids in renders]
    assert len(set(flat)) == len(flat), flat  # every rendering a select id of its own
    for text in flat:  # each with its render tag, read back by the strict parser
        kind = text.split(":")[1]
        assert (
            kind in SELECT_KINDS
            and parse_click(text, ["0"] if kind != "take" else ["trail"]).render
        )
    assert [text.split(":")[1] for text in flat] == [
        "card", "take", "card", "take", "card", "card", "take", "pick", "card"
    ]  # fmt: skip
