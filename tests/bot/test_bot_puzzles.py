"""``/kasino puzzle`` through SimCord (both databases): today's puzzle privately with the
real hand menus; a wrong first answer is explained and counted as missed (a right try
after it changes nothing); the next UTC day a right answer is explained, counted, and the
streak shows on the profile; yesterday's menus, someone else's and forged clicks are
refused."""

from __future__ import annotations

from typing import Any

from bot.engine import Move
from bot.moves import round_choices
from bot.puzzles.model import Puzzle
from cogs.common import NOT_MINE
from tests.bot.kasino_harness import WAITS_ON_WORKERS, Harness, cid, custom_ids

MARCH_1 = 1772323200.0 + 3600  # 2026-03-01 01:00 UTC
DAY = 86400.0

pytestmark = WAITS_ON_WORKERS


async def answer(harness: Harness, member: Any, view: Any, puzzle: Puzzle, move: Move) -> Any:
    """Choose ``move`` with the puzzle's card and take menus; the answer message."""
    rnd = puzzle.round
    index = rnd.hands[rnd.to_move].index(move.card)
    step = await harness.select(member, view, [str(index)], custom_id=cid(view, "k:xcard:"))
    if not round_choices(rnd, move.card, 1):
        return step.response  # nothing to take: the card trails at once
    choices = round_choices(rnd, move.card, 23)
    value = (
        "trail"
        if move.is_trail
        else next(f"c{n}" for n, c in enumerate(choices) if sorted(c.taken) == sorted(move.taken))
    )
    step = await harness.select(
        member, step.response, [value], custom_id=cid(step.response, "k:xtake:")
    )
    return step.response


def menu_move(puzzle: Puzzle, right: bool) -> Move:
    """The best move, or the worst that the menus offer in one or two steps."""
    if right:
        return puzzle.best
    rnd = puzzle.round
    for valued in reversed(puzzle.moves()[1:]):
        move = valued.move
        offered = round_choices(rnd, move.card, 23)
        if move.is_trail or any(sorted(c.taken) == sorted(move.taken) for c in offered):
            return move
    raise AssertionError("no wrong move in the menus")


async def test_a_puzzle_a_day_judged_counted_and_streaked(harness: Harness) -> None:
    anna, bjorn = harness.members[:2]
    cog = harness.cog
    now = [MARCH_1]
    cog.puzzles.clock = cog.profiles.clock = lambda: now[0]

    opened = await harness.slash(anna, "kasino puzzle")
    assert opened.ephemeral
    view = opened.response
    stored = await cog.bot.storage.puzzle_day(harness.channel.guild.id, "nordic", "2026-03-01")
    puzzle = Puzzle.from_json(stored.puzzle)
    assert "Puzzle of the day · 2026-03-01" in view.content, view.content
    assert "Your opponent holds" in view.content and "Find the move" in view.content
    assert any(c.startswith(f"k:xcard:puzzle:{stored.id}:") for c in custom_ids(view))

    # someone else's click on Anna's message, and a forged id: refused, nothing counted
    other = await harness.forge(bjorn, view, cid(view, "k:xcard:"), ["0"])
    assert "nothing happened" in other.response.content
    forged = await harness.forge(anna, view, "k:xcard:puzzle:999999:1:zz", ["0"])
    assert "nothing happened" in forged.response.content
    # another server's puzzle of today, which Anna never opened there: refused
    elsewhere = await cog.bot.storage.keep_puzzle_day(
        harness.channel.guild.id + 1, "nordic", "2026-03-01", stored.puzzle, MARCH_1
    )
    foreign_id = cid(view, "k:xcard:").replace(f":{stored.id}:", f":{elsewhere.id}:")
    foreign = await harness.forge(anna, view, foreign_id, ["0"])
    assert "nothing happened" in foreign.response.content
    assert await cog.bot.storage.puzzle_attempt(elsewhere.id, anna.id) is None
    assert not (await cog.bot.storage.puzzle_attempt(stored.id, anna.id)).answered

    # a wrong first answer: what it gives away and the best move, counted as missed
    wrong = await answer(harness, anna, view, puzzle, menu_move(puzzle, right=False))
    assert "❌" in wrong.content and "Not the best move" in wrong.content, wrong.content
    assert "gives away" in wrong.content and "answer of the day: missed" in wrong.content
    # one true thing: the answer is given (not "nothing was played: try again"), and each
    # line of the note starts where it should (no line opening with a space)
    assert "Nothing was played" not in wrong.content
    assert "only your first answer today counts" in wrong.content
    assert not [line for line in wrong.content.splitlines() if line.startswith(" ")]
    attempt = await cog.bot.storage.puzzle_attempt(stored.id, anna.id)
    assert attempt is not None and not attempt.solved
    # the position again: a right try now is explained but changes nothing
    yesterday = cid(wrong, "k:xcard:")
    late = await answer(harness, anna, wrong, puzzle, puzzle.best)
    assert "✅" in late.content and "first answer today counts (missed)" in late.content
    assert "No puzzle streak yet" in late.content
    assert not (await cog.bot.storage.puzzle_attempt(stored.id, anna.id)).solved

    # the next UTC day: yesterday's menus are over; today's puzzle solved
    now[0] += DAY
    stale = await harness.forge(anna, late, yesterday, ["0"])
    assert "over or was replaced" in stale.response.content
    opened = await harness.slash(anna, "kasino puzzle")
    day2 = await cog.bot.storage.puzzle_day(harness.channel.guild.id, "nordic", "2026-03-02")
    assert day2 is not None and day2.id != stored.id
    puzzle2 = Puzzle.from_json(day2.puzzle)
    right = await answer(harness, anna, opened.response, puzzle2, puzzle2.best)
    assert "✅" in right.content and "**Right!**" in right.content, right.content
    assert (
        "next best move" in right.content
        and "difference is in" in right.content
        and "answer of the day: solved" in right.content
    )
    assert "Puzzle streak: 1 day" in right.content

    profile = await harness.slash(anna, "kasino profile")
    assert "Puzzle streak: 1 day" in profile.response.embeds[0].description


async def test_someone_elses_puzzle_is_refused_as_theirs(harness: Harness) -> None:
    """Issue 39: a click on another person's puzzle, or a forged id of a puzzle of today
    the clicker never opened, is refused as not theirs, not as "over or was replaced"."""
    anna, bjorn = harness.members[:2]
    cog = harness.cog
    cog.puzzles.clock = lambda: MARCH_1
    view = (await harness.slash(anna, "kasino puzzle")).response
    stored = await cog.bot.storage.puzzle_day(harness.channel.guild.id, "nordic", "2026-03-01")
    menu = cid(view, "k:xcard:")
    other = await harness.forge(bjorn, view, menu, ["0"])
    assert other.ephemeral and other.response.content == NOT_MINE
    # today's puzzle of another server, which Anna never opened: not hers either
    elsewhere = await cog.bot.storage.keep_puzzle_day(
        harness.channel.guild.id + 1, "nordic", "2026-03-01", stored.puzzle, MARCH_1
    )
    foreign = menu.replace(f":{stored.id}:", f":{elsewhere.id}:")
    refused = await harness.forge(anna, view, foreign, ["0"])
    assert refused.ephemeral and refused.response.content == NOT_MINE
    # a puzzle that does not exist (or is no longer today's) is over, as before
    gone = await harness.forge(anna, view, f"k:xcard:puzzle:{elsewhere.id + 9}:1:zz", ["0"])
    assert "over or was replaced" in gone.response.content
    assert await cog.bot.storage.puzzle_attempt(elsewhere.id, anna.id) is None
    assert not (await cog.bot.storage.puzzle_attempt(stored.id, anna.id)).answered
