"""The progress note of an analysis (cogs/learning/analysis.py ``Progress``): edited at most every
two seconds, never for the last move (the result follows), never once the message's
token is too old, and an edit that fails is only logged."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.i18n import lang
from cogs.learning.analysis import PROGRESS_EVERY, TOKEN_SECONDS, Progress


class Interaction:
    """What a progress note edits: the original response (here, a list of its texts)."""

    def __init__(self, fail: bool = False) -> None:
        self.edits: list[str] = []
        self.fail = fail

    async def edit_original_response(self, **fields: Any) -> None:
        if self.fail:
            raise discord.HTTPException(_Response(), "rate limited")  # type: ignore[arg-type]
        self.edits.append(fields["content"])


class _Response:
    status = 429
    reason = "Too Many Requests"


async def test_progress_is_edited_at_most_every_two_seconds() -> None:
    now = [100.0]
    interaction = Interaction()
    progress = Progress(interaction, lang("sv"), 48, clock=lambda: now[0])  # type: ignore[arg-type]
    progress(1, 48)  # not sent yet: nothing to edit
    progress.started()
    for done in range(2, 40):
        now[0] += 0.5
        progress(done, 48)
        await asyncio.sleep(0)
    # 19 s of notes, one every 2 s at most: the first after 2 s
    assert interaction.edits[0] == "🔍 Analyserar dina drag… 5/48"
    assert len(interaction.edits) == int(19 / PROGRESS_EVERY)
    now[0] += 5
    progress(48, 48)  # the last: the summary follows instead
    now[0] += TOKEN_SECONDS
    progress(47, 48)  # too late for the token
    await asyncio.sleep(0)
    assert len(interaction.edits) == int(19 / PROGRESS_EVERY)
    assert progress.time_left() == 0


async def test_a_failed_edit_is_only_logged() -> None:
    now = [0.0]
    progress = Progress(Interaction(fail=True), lang("en"), 3, clock=lambda: now[0])  # type: ignore[arg-type]
    progress.started()
    now[0] += 3
    progress(1, 3)
    assert progress.editing is not None
    await progress.editing  # raises nothing
