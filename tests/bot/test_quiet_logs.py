"""A start logs nothing at the default level about voice (a card game has none) or about
the intents of SimCord's probe client, and hides nothing else.

discord.py warns about voice once per process, so each start runs in a fresh one.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot.logs import UNUSED, quiet_unused_features

ROOT = Path(__file__).resolve().parents[2]
UNWANTED = ("PyNaCl is not installed", "davey is not installed", "Guilds intent seems")

SIMCORD_START = """
import asyncio, logging, sys
import discord
discord.utils.setup_logging(level=logging.INFO, root=True)
from bot.client import KasinoBot
from bot.config import Config
import simcord

async def main():
    bot = KasinoBot(Config(token=None, db_path=sys.argv[1]))
    try:
        async with simcord.run(bot) as env:
            env.create_guild("Kasino").create_text_channel("kasino")
    finally:
        await bot.close_storage()

asyncio.run(main())
"""


def _env(**more: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", **more}
    env.pop("DISCORD_TOKEN", None)
    return env


def test_a_simcord_start_logs_no_voice_or_intents_warning(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SIMCORD_START, str(tmp_path / "kasino.db")],
        cwd=tmp_path,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    text = done.stdout + done.stderr
    assert done.returncode == 0, text
    assert "logging in using static token" in text  # discord.py's INFO records still show
    for words in UNWANTED:
        assert words not in text, text


def test_the_preview_logs_no_voice_or_intents_warning(tmp_path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "bot", "--preview", "--port", "0"],
        cwd=tmp_path,
        env=_env(LOG_LEVEL="INFO", TMPDIR=str(tmp_path)),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output: list[str] = []
    try:
        assert child.stdout is not None
        deadline = time.monotonic() + 60
        for line in child.stdout:
            output.append(line)
            if "preview running: open" in line or time.monotonic() > deadline:
                break
        # SIGTERM: a suite started as a background job passes SIGINT on ignored (the
        # preview undoes that, see test_startup), and the test must not depend on it.
        child.send_signal(signal.SIGTERM)
        rest, _ = child.communicate(timeout=20)
        output.append(rest)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    text = "".join(output)
    assert "preview running: open" in text and "INFO" in text, text
    assert child.returncode == 0 and "preview stopped" in text, text
    for words in UNWANTED:
        assert words not in text, text


def test_the_quieted_messages_are_debug_records_and_nothing_else_is_touched(
    caplog: pytest.LogCaptureFixture,
) -> None:
    quiet_unused_features()
    quiet_unused_features()  # once is enough; twice adds nothing
    state = logging.getLogger("discord.state")
    assert sum(type(f).__name__ == "_Unused" for f in state.filters) == 1
    (guilds,) = UNUSED["discord.state"]
    with caplog.at_level(logging.INFO):
        state.warning(guilds)
        state.warning("GUILD_CREATE referencing an unknown guild ID: %s. Discarding.", 1)
        logging.getLogger("discord.client").warning(sorted(UNUSED["discord.client"])[0])
    assert [r.getMessage() for r in caplog.records] == [
        "GUILD_CREATE referencing an unknown guild ID: 1. Discarding."
    ]
    caplog.clear()
    with caplog.at_level(logging.DEBUG):
        state.warning(guilds)
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [("DEBUG", guilds)]


async def test_no_log_record_names_a_person(harness: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Every record logged (the bot's own at any level, all from INFO), over a match, a
    deck chosen, a tournament joined, left and dropped out of, and a forget-me: none
    holds a member's id or name (issue 39: "tournament N: <id> dropped")."""
    from tests.bot.test_bot_tournaments import admin, tour_id
    from tests.bot.test_forget import confirm_forget

    anna, bjorn, cecilia = harness.members[:3]
    with caplog.at_level(logging.DEBUG):
        game = await harness.start_game(2, target=5)
        await harness.play_to_end(game)
        await harness.slash(anna, "kasino deck", style="four")
        organiser = admin(harness)
        opened = await harness.slash(organiser, "kasino tournament new", title="Cup")
        signup = opened.response.message
        tid = tour_id(signup)
        for member in (anna, bjorn, cecilia):
            await harness.click(member, signup, custom_id=f"k:tour:{tid}:join")
        await harness.click(cecilia, harness.current(signup), custom_id=f"k:tour:{tid}:leave")
        dropped = await harness.slash(bjorn, "kasino tournament drop")
        assert "has left" in dropped.response.content
        await confirm_forget(harness, cecilia)
    assert any("dropped" in record.getMessage() for record in caplog.records)
    # the bot's own records at every level, the libraries' from INFO (at DEBUG, discord.py
    # and the database drivers log whole payloads and queries: docs/admin.md#logs says so)
    ours = ("bot", "cogs")
    for record in caplog.records:
        if record.levelno < logging.INFO and record.name.split(".")[0] not in ours:
            continue
        text = record.getMessage() + (record.exc_text or "")
        assert str(organiser.id) not in text, (record.name, text)
        for person in harness.members:
            assert str(person.id) not in text, (record.name, text)
            assert not re.search(rf"\b{re.escape(person.name)}\b", text), (record.name, text)
