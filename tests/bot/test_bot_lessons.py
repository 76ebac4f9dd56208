"""``/kasino learn`` through SimCord: every step of the lessons played with the real menus,
a wrong move explained with nothing changed, the finished lesson's first game against the
easy computer, and a lesson resumed after a restart (its old menus still work)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from bot.client import KasinoBot
from bot.config import Config
from bot.engine import Move, Round
from bot.i18n import EN
from bot.lessons import lesson_for
from bot.moves import round_choices
from bot.turns import building
from cogs.play.views import CAPTURE_CHOICES, pick_items, ranked_moves
from tests.bot.kasino_harness import Harness, cid, custom_ids, select_options


def version_of(view: Any) -> int:
    """The practice version the view's card menu was made for."""
    card = cid(view, "k:xcard:lesson:")
    return int(card.split(":")[4])


def words(text: str) -> str:
    """A text up to its first card (shown as a face in the message)."""
    return re.split(r"(?:10|[2-9AJQK])[♠♥♦♣]", text)[0]


def first_wrong(step: Any, rnd: Round) -> Move:
    """A legal wrong move of the step: one its first specific explanation is about, else
    any."""
    moves = [m for m in rnd.legal_moves() if not step.right(m)]
    for wrong in step.wrongs:
        found = [m for m in moves if wrong.check(m)]
        if found:
            return found[0]
    return moves[0]


async def play(harness: Harness, member: Any, view: Any, rnd: Round, move: Move) -> Any:
    """Choose ``move`` with the menus: the card, then (when it can do more than trail) the
    option that is that move. The view after it."""
    index = rnd.hands[rnd.to_move].index(move.card)
    step = await harness.select(member, view, [str(index)], custom_id=cid(view, "k:xcard:"))
    view = step.response
    take = [c for c in custom_ids(view) if c.startswith("k:xtake:")]
    if not take:
        return view
    if move.is_trail:
        value = "trail"
    elif building(rnd):
        ranked = ranked_moves(rnd, move.card)
        value = f"c{ranked.index(move)}" if move in ranked else "pick"
    else:
        taken = [sorted(c.taken) for c in round_choices(rnd, move.card, CAPTURE_CHOICES)]
        wanted = sorted(move.taken)
        value = f"c{taken.index(wanted)}" if wanted in taken else "pick"
    assert value in [o["value"] for o in select_options(view, "k:xtake:")]
    view = (await harness.select(member, view, [value], custom_id=take[0])).response
    if value != "pick":
        return view
    # "choose it myself": the items the move uses, by their place in the pick menu
    items = pick_items(rnd)
    used = list(move.taken or move.using)
    positions = []
    for item in used:
        at = next(i for i, x in enumerate(items) if x == item and i not in positions)
        positions.append(at)
    picked = [str(i) for i in sorted(positions)]
    return (await harness.select(member, view, picked, custom_id=cid(view, "k:xpick:"))).response


async def walk(harness: Harness, member: Any, variant: str, wrong_at: int) -> Any:
    """Play a whole lesson from ``/kasino learn``: at step ``wrong_at`` a wrong move first.
    The final view."""
    lesson = lesson_for(variant)
    view = (await harness.slash(member, "kasino learn", variant=variant)).response
    assert EN(lesson.intro)[:40] in view.content, view.content
    for number, step in enumerate(lesson.steps):
        rnd = step.position()
        assert f"step {number + 1} of {len(lesson.steps)}" in view.content, view.content
        version = version_of(view)
        if number == wrong_at:
            wrong = first_wrong(step, rnd)
            view = await play(harness, member, view, rnd, wrong)
            assert "❌ " in view.content, view.content
            _, why = step.judge(wrong)
            assert words(EN(why)) in view.content, view.content
            assert version_of(view) == version  # nothing changed: the same step
        right = next(m for m in rnd.legal_moves() if step.right(m))
        view = await play(harness, member, view, rnd, right)
        assert "✅ " in view.content, view.content
    return view


async def test_every_lesson_is_played_through_with_the_real_menus(harness: Harness) -> None:
    anna = harness.members[0]
    for variant, wrong_at in (("mulle", 7), ("finnish", 2), ("krypkasino", 0)):
        view = await walk(harness, anna, variant, wrong_at)
        assert "easy computer" in view.content and custom_ids(view) == [f"k:learn:{variant}:play"]
    view = await walk(harness, anna, "royal", 3)
    assert "Royal Casino: J 11" in view.content  # what differs from Casino
    assert not [c for c in custom_ids(view) if c.startswith("k:x")]  # the lesson is over

    # the first game: a lobby in the channel with an easy computer seated
    lobby = await harness.click(anna, view, custom_id="k:learn:royal:play")
    assert lobby.response is not None and not lobby.ephemeral, lobby
    game = await harness.game()
    assert game.options.variant == "royal" and [s.level for s in game.seats] == [None, "easy"]


async def test_a_finished_lessons_old_menus_are_refused(harness: Harness) -> None:
    anna = harness.members[0]
    view = (await harness.slash(anna, "kasino learn", variant="krypkasino")).response
    first = cid(view, "k:xcard:")
    for step in lesson_for("krypkasino").steps:
        rnd = step.position()
        view = await play(
            harness, anna, view, rnd, next(m for m in rnd.legal_moves() if step.right(m))
        )
    gone = await harness.forge(anna, view, first, ["0"])
    assert "over or was replaced" in gone.response.content
    again = (await harness.slash(anna, "kasino learn", variant="krypkasino")).response
    assert "step 1 of 3" in again.content and version_of(again) > version_of_id(first)


def version_of_id(custom_id: str) -> int:
    return int(custom_id.split(":")[4])


@pytest.mark.parametrize("restart", [True])
async def test_a_lesson_resumes_after_a_restart(
    harness: Harness, bot_config: Config, restart: bool
) -> None:
    anna, bjorn = harness.members[:2]
    steps = lesson_for("casino").steps
    view = (await harness.slash(anna, "kasino learn", variant="casino")).response
    rnd = steps[0].position()
    view = await play(
        harness, anna, view, rnd, next(m for m in rnd.legal_moves() if steps[0].right(m))
    )
    assert "step 2 of 6" in view.content

    await harness.restart(KasinoBot(bot_config, seed=7))
    # the ephemeral message's menus still work: a wrong move, explained, then the right one
    rnd = steps[1].position()
    wrong = first_wrong(steps[1], rnd)
    view = await play(harness, anna, view, rnd, wrong)
    assert "❌ Taking " in view.content and "is allowed" in view.content, view.content
    assert "step 2 of 6" in view.content
    someone = await harness.forge(bjorn, view, cid(view, "k:xcard:"), ["0"])
    assert "nothing happened" in someone.response.content
    view = await play(
        harness, anna, view, rnd, next(m for m in rnd.legal_moves() if steps[1].right(m))
    )
    assert "step 3 of 6" in view.content

    # /kasino learn again goes on where it was
    again = (await harness.slash(anna, "kasino learn", variant="casino")).response
    assert "Welcome back" in again.content and "step 3 of 6" in again.content
    assert version_of(again) == version_of(view)

    # forget-me takes the lesson's progress with it
    storage = harness.cog.games.storage
    assert await storage.lesson_progress(anna.id, "casino") is not None
    await storage.forget_user(anna.id, time.time())
    assert await storage.lesson_progress(anna.id, "casino") is None
