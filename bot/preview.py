"""``python -m bot --preview``: the real bot against SimCord's local Preview.

SimCord runs discord.py's real client against an in-memory Discord; its Preview shows a
channel in your browser (on 127.0.0.1) where you can switch between a few simulated
members, run the slash commands and click the buttons. The database is a throwaway file.
Needs the ``preview`` extra: ``pip install -e '.[preview]'``.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import tempfile
from pathlib import Path

from bot.config import Config

MEMBERS = ("Anna", "Bjorn", "Cecilia", "David")
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
                async with env.preview(
                    channel, viewers=members, layout="channel", port=port
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
