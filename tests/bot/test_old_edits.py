"""The tests' Discord caps edits of hour-old messages (``old_edits``), as Discord does."""

from __future__ import annotations

import discord
import pytest

from tests.bot.kasino_harness import Harness
from tests.bot.old_edits import OldEdits


async def test_an_hour_old_message_cannot_be_edited(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    capped = OldEdits()
    capped.install(monkeypatch)
    channel = harness.env.bot.get_channel(harness.channel.id)
    young = await channel.send("young")
    await young.edit(content="still young")  # minutes old: edited as before
    old = await channel.send("old")
    await harness.env.advance_time(3601)
    with pytest.raises(discord.HTTPException) as refused:
        await old.edit(content="too late")
    assert refused.value.status == 429 and refused.value.code == 30046
    assert capped.refused == [(channel.id, old.id)]
    assert harness.current(old).content == "old"
