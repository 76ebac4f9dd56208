"""``python -m bot --preview``: the real bot against SimCord's local Preview.

SimCord runs discord.py's real client against an in-memory Discord; its Preview shows a
channel in your browser (on 127.0.0.1) where you can switch between a few simulated
members, run the slash commands and click the buttons. The database is a throwaway file.
With ``place`` (``--place``) the page shows a place where the members installed the app
and the bot is no member, a group DM or a server without the bot
(:mod:`bot.preview_places`), instead of the server's channel.
Needs the ``preview`` extra: ``.venv/bin/pip install -e '.[preview]'`` (its error names
the pip of the Python that runs it: ``bot.shell``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import importlib.util
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.config import Config
from bot.faces import face_png
from bot.shell import preview_command

if TYPE_CHECKING:
    from bot.client import KasinoBot

MEMBERS = ("Anna", "Bjorn", "Cecilia", "David")
FACES_WAIT = 30.0  # seconds the preview waits for the card faces before showing text
FOLLOW_INTERVAL = 0.25  # seconds between looks for what the bot did on its own
WHERE = {  # how the preview's first words name the place its page shows
    "server": "",
    "group-dm": " in their group DM (the bot is no member: it only answers clicks)",
    "foreign-server": " in a server without the bot (it only answers clicks)",
    "games": (
        " here, then /kasino games: Anna also plays in #cards, in another server and has a"
        " lobby in her DM"
    ),
    "dm": (
        " in #kasino (the page shows Anna's DM with the bot: her daily digest of two"
        " correspondence games; /kasino settings and /kasino vacation work there)"
    ),
    "ladder": (
        ' (or /kasino queue as Anna here and as Bjorn, whose server "Nordic Cards" the'
        " page shows when viewing as him)"
    ),
}
PREVIEW_MODULES = ("simcord", "aiohttp", "markdown_it", "linkify_it", "regex", "PIL")


class PreviewUnavailable(RuntimeError):
    """The preview extra is not installed."""


def check_preview_installed() -> None:
    """Raise :class:`PreviewUnavailable` with the install command when a module is missing."""
    missing = [name for name in PREVIEW_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise PreviewUnavailable(
            f"--preview needs {', '.join(missing)}: install them and start it with"
            f" `{preview_command()}`"
        )


async def run_preview(
    config: Config,
    port: int | None = None,
    *,
    locale: str = "en-US",
    server_locale: str = "en-US",
    deck: str = "two",
    place: str = "server",
) -> None:
    """Start the bot in SimCord, open the Preview, print its URL and wait until it closes.

    ``locale`` is the members' Discord client language (their private messages) and
    ``server_locale`` the server's (the public ones). ``place`` is where the page shows
    the game (``bot.preview_places.PLACES``). However this ends (the page's End button,
    Ctrl+C, an error), the bot's database is closed and the throwaway folder removed.
    """
    check_preview_installed()
    from bot.client import KasinoBot
    from bot.preview_places import PLACES

    if place not in PLACES:
        raise PreviewUnavailable(f"unknown place {place!r}: one of {', '.join(PLACES)}")

    await faces_drawn(config)
    with tempfile.TemporaryDirectory(prefix="kasino-preview-") as folder:
        settings = dataclasses.replace(
            config, token=None, dev_guild_id=None, db_path=Path(folder) / "kasino.db"
        )
        bot = KasinoBot(settings)
        try:
            with client_locale(locale):
                await _serve(bot, port, server_locale, deck, place=place, locale=locale)
        finally:
            # Also on Ctrl+C (cancellation) and errors: the database's worker thread would
            # keep the process alive, and the folder is removed only after this.
            await bot.close_storage()


async def faces_drawn(config: Config) -> None:
    """Draw the card faces (in a worker thread) before SimCord starts the bot.

    The bot draws the 104 faces in the background on its first start, and SimCord counts
    that as the bot's own work: the preview's set-up (the server, its members) waits for it
    to settle within 5 s of wall clock, which the drawing outlasted on a busy machine ("bot
    did not settle": no preview at all). Drawn here, the bot finds them drawn. The tests
    do the same (``faces_drawn`` in tests/bot/conftest.py)."""
    if config.card_faces:
        from bot.card_emojis import wanted_names

        await asyncio.to_thread(wanted_names)


async def _serve(
    bot: KasinoBot,
    port: int | None,
    server_locale: str,
    deck: str,
    *,
    place: str = "server",
    locale: str = "en-US",
) -> None:
    """The preview itself: SimCord running the bot, one server (speaking
    ``server_locale``, its card deck ``deck``), its members, ``place`` (the server's
    channel, or a place of the members where the bot is no member) and the page showing
    it; returns when the page is closed."""
    import simcord

    from bot.preview_places import Shown, dm_scene, open_preview, place_for, seed_games

    async with simcord.run(bot, check_errors=False) as env:
        guild = env.create_guild("Kasino Preview", preferred_locale=server_locale)
        channel = guild.create_text_channel("kasino")
        if deck != "two":  # as an admin's /kasino deck for:this server would
            await bot.get_cog("Kasino").inks.choose("guild", guild.id, deck)  # type: ignore[union-attr]
        members = [
            guild.add_member(env.create_user(name.lower(), global_name=name)) for name in MEMBERS
        ]
        assets = await face_assets(bot)
        if place == "games":
            await seed_games(bot, env, guild, members)
        if place == "dm":  # her correspondence games, and the digest that lists them
            await dm_scene(env, guild, channel, members, locale)
        with place_for(env, place, members, locale, channel) as shown:
            page = open_preview(
                env,
                shown or Shown(channel, members),
                layout="channel",
                port=port,
                assets=assets,
            )
            async with page as preview, following(env, preview):
                print(f"Kasino preview running: open {preview.url}", flush=True)
                print(
                    f"Switch between members in the page, type /kasino new{WHERE[place]},"
                    " and play. Press Ctrl+C (or End preview session) to stop.",
                    flush=True,
                )
                await preview.wait_closed()


@contextlib.asynccontextmanager
async def following(env: Any, preview: Any) -> AsyncIterator[asyncio.Task[None]]:
    """Keep the Preview's pages showing what the bot does by itself, while inside.

    SimCord's Preview publishes a page (the snapshot the browser polls) only after that
    page's own action (a click, a command) has settled, or a Refresh. What the bot does
    later on its own never reached the page: the next round dealt after ``ROUND_PAUSE``,
    a computer's move, a reminder or an automatic move, a table the outbox posts after its
    rate limit, an open hand view updated when your turn comes. (SimCord does run those
    timers on time: a bot timer beyond an action's settling fires on the wall clock and
    moves the virtual clock with it; only the page was not told.) So the round's end
    froze until "Refresh preview" was pressed. :func:`follow` republishes the pages
    whenever the simulated Discord's messages change outside a page action.
    """
    task = asyncio.get_running_loop().create_task(follow(env, preview), name="preview-follow")
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def follow(env: Any, preview: Any, interval: float = FOLLOW_INTERVAL) -> None:
    """Every ``interval`` seconds (wall clock), republish each open page whose channel's
    messages changed since the page was last published (by anyone: its own actions and
    Refresh publish it too), unless a page's action is under way (its settling publishes
    it). Publishing is synchronous (no SimCord operation, so it never overlaps one a page
    starts), and only on a change: a page's clicks name the revision they saw, and a
    needless republish would refuse them as stale."""
    published: dict[str, int] = {}  # page id -> its channel's fingerprint when published
    publish = preview._publish

    def publishing(page: Any, **options: Any) -> None:
        publish(page, **options)
        published[page.id] = _fingerprint(env, page.channel_id)

    preview._publish = publishing  # SimCord 3.2's Preview (pinned in pyproject.toml)
    try:
        while True:
            await asyncio.sleep(interval)
            if preview._active_action is not None:
                continue
            changed = [
                page
                for page in tuple(preview._pages.values())
                if published.get(page.id) != _fingerprint(env, page.channel_id)
            ]
            if changed:
                preview._advance_presentation_time()  # relative times read from the clock
            for page in changed:
                if page.id in preview._pages:  # a publish prunes expired pages
                    publishing(page, reason="refresh")
    finally:
        preview._publish = publish


def _fingerprint(env: Any, channel_id: int) -> int:
    """A digest of every message in a channel (content, embeds, components, edits,
    deletions, ephemeral ones too) and of the bot's generation."""
    messages = env.backend.messages.get(channel_id, {})
    return hash((env._generation, repr(sorted(messages.items()))))


@contextlib.contextmanager
def client_locale(locale: str) -> Iterator[None]:
    """Interactions come from a client in ``locale``, in a server speaking its own
    ``preferred_locale``, as Discord sends them. SimCord 3.2 sends every interaction as
    from an en-US client in an en-US server, so its payload is amended while the preview
    runs."""
    from simcord import interactions

    original = interactions.base_payload

    def localized(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **kwargs)
        payload["locale"] = locale
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    interactions.base_payload = localized
    try:
        yield
    finally:
        interactions.base_payload = original


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
        f"{CDN_BASE}/emojis/{emoji.id}.png": (f"{emoji.id}.png", face_png(card, style))
        for style, ink in bot.inks.items()
        for card, emoji in ink.faces.items()
    }
