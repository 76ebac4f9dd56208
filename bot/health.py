"""A health signal for containers: the running bot touches ``HEALTH_FILE`` while it is
connected to Discord and its database answers; ``python -m bot health`` (the image's
health check) tells whether that happened lately."""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.client import KasinoBot

log = logging.getLogger(__name__)

BEAT_SECONDS = 30.0
STALE_AFTER = 3 * BEAT_SECONDS


async def heartbeat(bot: KasinoBot, path: Path) -> None:
    """Touch ``path`` every :data:`BEAT_SECONDS` while the bot is ready and the database
    answers a query (runs until cancelled)."""
    while True:
        try:
            if bot.is_ready() and bot.storage is not None:
                await bot.storage.fetch("SELECT 1")
                path.touch()
        except Exception as error:  # unhealthy this time: the file goes stale, not the bot
            log.warning("health check failed: %s: %s", type(error).__name__, error)
        await asyncio.sleep(BEAT_SECONDS)


def check(path: Path | None, now: float | None = None) -> int:
    """Exit code of ``python -m bot health``: 0 when the bot beat lately, else 1."""
    if path is None:
        print("error: HEALTH_FILE is not set, so the bot keeps no health signal", file=sys.stderr)
        return 1
    try:
        age = (now if now is not None else time.time()) - path.stat().st_mtime
    except OSError:
        print(f"unhealthy: no heartbeat yet at {path}", file=sys.stderr)
        return 1
    if age > STALE_AFTER:
        print(f"unhealthy: the last heartbeat was {age:.0f} s ago", file=sys.stderr)
        return 1
    return 0
