"""``/kasino learn``: a private lesson of small positions (:mod:`bot.lessons`) played with
the hand view's own menus on the practice surface (:mod:`cogs.learning.practice`).

The lesson is the practice owner ``"lesson"``: a position's id is the learner's progress
row (``lesson_progress``), its version the row's, so every answered step makes the menus
before it stale, and a lesson resumes at its step after a restart (the menus of the
ephemeral message still work: the row is read again; ``/kasino learn`` again resumes too).
A finished lesson offers a first game against the ``easy`` computer: a button that opens
a lobby in the channel, with one seated, as ``/kasino new`` does.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

import discord

from bot.engine import Move
from bot.i18n import N_, Lang
from bot.lessons import Lesson, lesson_for
from bot.models import VARIANT_NAMES
from bot.render import variant_name
from bot.storage import Storage
from bot.storage.lessons import LessonRow
from cogs.common import NOT_MINE, private, refuse
from cogs.components import KasinoButton
from cogs.custom_ids import Click
from cogs.learning.practice import Practice, PracticeFlow, Verdict

OWNER = "lesson"
TITLE = N_("Lesson: {variant} · step {step} of {steps}")
RESUMED = N_("Welcome back: the lesson goes on at step {step}.")
READY = N_("Ready for a real game? Play one against the easy computer in this channel.")
PLAY = N_("Play the easy computer")
# opens a lobby of ``variant`` in the interaction's channel with an easy computer seated
OpenGame = Callable[[discord.Interaction, str], Awaitable[None]]


def finish_view(variant: str, t: Lang) -> discord.ui.View:
    """A finished lesson's button: a first game against the easy computer."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        KasinoButton(
            "learn", variant, "play", label=t(PLAY), emoji="🤖", style=discord.ButtonStyle.success
        )
    )
    view.stop()  # dispatched by its custom_id (see cogs.play.views._static)
    return view


def finish_text(lesson: Lesson, t: Lang) -> str:
    """What a finished lesson says: the summary, what differs in its variant, the offer."""
    parts = [t(lesson.outro), *(t(note) for note in lesson.notes), t(READY)]
    return "\n\n".join(parts)


class LessonFlow:
    """The lessons: the command, the practice owner (load, judge) and the finish button."""

    name = OWNER

    def __init__(self, storage: Storage, practice: PracticeFlow, open_game: OpenGame) -> None:
        self.storage = storage
        self.practice = practice
        self.open_game = open_game
        practice.register(self)

    def position(self, row: LessonRow) -> Practice | None:
        """The row's step as a practice position (``None``: finished, or a lesson or step
        this version of the bot does not have)."""
        if row.finished or row.lesson not in VARIANT_NAMES:
            return None
        lesson = lesson_for(row.lesson)
        if not 0 <= row.step < len(lesson.steps):
            return None
        step = lesson.steps[row.step]
        total = len(lesson.steps)

        def title(t: Lang) -> str:
            name = variant_name(lesson.key, t)
            return t(TITLE, variant=name, step=row.step + 1, steps=total)

        def task(t: Lang) -> str:
            return t.for_game(step.variant)(step.task)  # the step's game's card words

        return Practice(
            OWNER,
            row.id,
            row.version,
            row.user_id,
            step.variant,
            step.position(),
            title=title,
            task=task,
        )

    async def learn(self, interaction: discord.Interaction, variant: str) -> None:
        """``/kasino learn``: start the lesson, or go on where the learner left it."""
        row = await self.storage.start_lesson(interaction.user.id, variant, time.time())
        practice = self.position(row)
        t = private(interaction)
        if practice is None:  # a step this bot does not have: start again
            await self.storage.advance_lesson(row.id, row.version, 0, False, time.time())
            row = await self.storage.start_lesson(interaction.user.id, variant, time.time())
            practice = self.position(row)
            assert practice is not None
        lesson = lesson_for(variant)
        t = t.for_game(variant)
        note = t(RESUMED, step=row.step + 1) if row.step else f"*{t(lesson.intro)}*"
        await self.practice.show(interaction, practice, note)

    # ------------------------------------------------------------ the owner

    async def load(self, practice_id: int, user_id: int) -> Practice | None:
        """The learner's current step (read again: it works after a restart)."""
        row = await self.storage.lesson_row(practice_id)
        return self.position(row) if row is not None else None

    async def judge(self, practice: Practice, move: Move, t: Lang) -> Verdict:
        """Right: the row goes on to the next step (committed here), else why not."""
        row = await self.storage.lesson_row(practice.id)
        if row is None or row.version != practice.version or row.finished:
            return Verdict.stale()
        lesson = lesson_for(row.lesson)
        t = t.for_game(lesson.steps[row.step].variant)
        right, why = lesson.steps[row.step].judge(move)
        if not right:
            return Verdict.refuse(t(why))
        last = row.step + 1 >= len(lesson.steps)
        step = row.step if last else row.step + 1
        if not await self.storage.advance_lesson(row.id, row.version, step, last, time.time()):
            return Verdict.stale()
        if last:
            text = t(why) + "\n\n" + finish_text(lesson, t)
            return Verdict.accept(text, view=finish_view(lesson.key, t))
        moved = LessonRow(row.id, row.user_id, row.lesson, step, row.version + 1, False)
        return Verdict.accept(t(why), self.position(moved))

    # ------------------------------------------------------------ the finish

    async def on_button(self, interaction: discord.Interaction, click: Click) -> None:
        """ "Play the easy computer": a lobby in this channel with one seated (only from
        the learner's own private message)."""
        message = interaction.message
        origin = message.interaction_metadata if message is not None else None
        if origin is None or origin.user.id != interaction.user.id:
            await refuse(interaction, NOT_MINE)
            return
        await self.open_game(interaction, click.variant)
