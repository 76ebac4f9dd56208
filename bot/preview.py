"""``python -m bot --preview``: the real bot against SimCord's local Preview.

SimCord runs discord.py's real client against an in-memory Discord; its Preview shows a
channel in your browser (on 127.0.0.1) where you can switch between a few simulated
members, run the slash commands and click the buttons. The database is a throwaway file.
Needs the ``preview`` extra: ``pip install -e '.[preview]'``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib.util
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import Config
from bot.faces import face_png

if TYPE_CHECKING:
    from bot.client import KasinoBot

MEMBERS = ("Anna", "Bjorn", "Cecilia", "David")
FACES_WAIT = 30.0  # seconds the preview waits for the card faces before showing text
PREVIEW_MODULES = ("simcord", "aiohttp", "markdown_it", "linkify_it", "regex", "PIL")


class PreviewUnavailable(RuntimeError):
    """The preview extra is not installed."""


def check_preview_installed() -> None:
    """Raise :class:`PreviewUnavailable` with the install command when a module is missing."""
    missing = [name for name in PREVIEW_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise PreviewUnavailable(
            f"--preview needs {', '.join(missing)}: install them with `pip install -e '.[preview]'`"
        )


async def run_preview(config: Config, port: int | None = None) -> None:
    """Start the bot in SimCord, open the Preview, print its URL and wait until it closes.

    However this ends (the page's End button, Ctrl+C, an error), the bot's database is
    closed and the throwaway folder removed.
    """
    check_preview_installed()
    import simcord

    from bot.client import KasinoBot

    with tempfile.TemporaryDirectory(prefix="kasino-preview-") as folder:
        settings = dataclasses.replace(
            config, token=None, dev_guild_id=None, db_path=Path(folder) / "kasino.db"
        )
        bot = KasinoBot(settings)
        try:
            async with simcord.run(bot, check_errors=False) as env:
                guild = env.create_guild("Kasino Preview")
                channel = guild.create_text_channel("kasino")
                members = [
                    guild.add_member(env.create_user(name.lower(), global_name=name))
                    for name in MEMBERS
                ]
                assets = await face_assets(bot)
                async with env.preview(
                    channel, viewers=members, layout="channel", port=port, assets=assets
                ) as preview:
                    print(f"Kasino preview running: open {preview.url}", flush=True)
                    print(
                        "Switch between members in the page, type /kasino new, and play."
                        " Press Ctrl+C (or End preview session) to stop.",
                        flush=True,
                    )
                    await preview.wait_closed()
        finally:
            # Also on Ctrl+C (cancellation) and errors: the database's worker thread would
            # keep the process alive, and the folder is removed only after this.
            await bot.close_storage()


async def face_assets(bot: KasinoBot) -> dict[str, tuple[str, bytes]]:
    """The card faces' pictures for the Preview page, by their emoji's CDN address.

    SimCord accepts an application emoji's upload but keeps only its name (no picture), so
    the Preview would draw the faces as missing images; it draws them from these bytes.
    Empty (cards as text) when the faces are off or not uploaded.
    """
    from simcord.backend.cdn import CDN_BASE

    if bot.faces_task is not None:
        await asyncio.wait({bot.faces_task}, timeout=FACES_WAIT)
    return {
        f"{CDN_BASE}/emojis/{emoji.id}.png": (f"{emoji.id}.png", face_png(card))
        for card, emoji in bot.ink.faces.items()
    }
