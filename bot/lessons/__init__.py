"""Lessons for newcomers (``/kasino learn``): small scripted positions, played with the
real menus (:mod:`cogs.learning.practice`), each checked, explained and followed by the next.

Pure data and code over the engine (no Discord): :func:`lesson_for` gives the lesson of a
variant. Swedish Kasino's lesson serves Överspader, Finnish Kasino and Mulle (Finnish and
Mulle add a step), Casino's the other building games, each opening with its own
introduction (:mod:`bot.lessons.intros`) and with a note on what differs.
"""

from __future__ import annotations

from bot.lessons import casino, krypkasino, swedish
from bot.lessons.intros import INTROS
from bot.lessons.steps import Lesson, Step, Wrong
from bot.models import BUILDING, VARIANT_NAMES

__all__ = ["LESSONS", "Lesson", "Step", "Wrong", "lesson_for"]

# the variant whose lesson each variant follows
FAMILY = {key: "casino" if key in BUILDING else key for key in VARIANT_NAMES} | {
    "overspader": "swedish",
    "finnish": "swedish",
    "mulle": "swedish",
}
EXTRA_STEPS: dict[str, tuple[Step, ...]] = {
    "finnish": (swedish.FINNISH,),
    "mulle": (swedish.MULLE,),
}
_BASES = {
    "swedish": (swedish.INTRO, swedish.STEPS, swedish.OUTRO, swedish.NOTES),
    "casino": (casino.INTRO, casino.STEPS, casino.OUTRO, casino.NOTES),
    "krypkasino": (krypkasino.INTRO, krypkasino.STEPS, krypkasino.OUTRO, {}),
}


def lesson_for(variant: str) -> Lesson:
    """The lesson of a variant (``ValueError`` for an unknown one)."""
    if variant not in VARIANT_NAMES:
        raise ValueError(f"unknown variant {variant!r}")
    intro, steps, outro, notes = _BASES[FAMILY[variant]]
    note = notes.get(variant)
    return Lesson(
        key=variant,
        intro=INTROS.get(variant, intro),  # each game opens in its own words
        steps=steps + EXTRA_STEPS.get(variant, ()),
        outro=outro,
        notes=(note,) if note else (),
    )


LESSONS = {key: lesson_for(key) for key in VARIANT_NAMES}
