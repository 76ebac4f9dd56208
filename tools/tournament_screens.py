"""Screenshots of a tournament's messages: the sign-up with its players, a round's start,
a round's standings and the podium, on Discord's dark and light themes, at 1×.

Not a test: run it by hand and look at the pictures::

    .venv/bin/python tools/tournament_screens.py --out /tmp/tournament-screens
    .venv/bin/python tools/tournament_screens.py --out /tmp/sv --server-locale sv
    .venv/bin/python tools/tournament_screens.py --out /tmp/warned --no-threads
    .venv/bin/python tools/tournament_screens.py --out /tmp/bye --odd

Unlike ``tools/screenshots.py`` (which drives one member's page), this runs the bot in
SimCord in this process: eight members sign up to a 3-round Swiss through the bot's own
commands and buttons, their games are played by the automatic moves of 15-second turns,
each round is decided at its deadline by the score (virtual time), and the
Preview page of the tournament's channel is pictured after the sign-up, as round 1
begins, after round 1 and at the end (``t1-signup``, ``t2-round``, ``t2-standings``,
``t3-podium``). ``--odd`` signs up a ninth member, so each round has a bye (named in the
round's message). With ``--no-threads`` the
channel refuses the tables' threads at the start, and the organiser's warning is pictured
instead (``t2-no-threads``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))  # screenshots.py's theme, browser
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
import simcord
from playwright.async_api import Locator, Page, async_playwright
from screenshots import CHROMIUM, CHROMIUM_ARGS, LIGHT_CSS, VIEWPORT

from bot.card_emojis import wanted_names
from bot.client import KasinoBot
from bot.config import Config
from bot.i18n import lang_of
from bot.preview import face_assets, following
from bot.tournaments.embed import TIEBREAKS
from cogs.tournaments.threads import ThreadPacer
from tests.bot.kasino_harness import Harness, custom_ids, settle_defaults

PLAYERS = ("Anna", "Bjorn", "Cecilia", "David", "Erik", "Frida", "Gustav", "Hanna")


async def shoot(page: Page, out: Path, name: str, target: Locator) -> list[Path]:
    """``name-dark.png`` and ``name-light.png`` of ``target`` with a margin."""
    saved = []
    await target.scroll_into_view_if_needed(timeout=5000)
    await asyncio.sleep(0.5)
    for theme in ("dark", "light"):
        await page.evaluate(
            """([css, on]) => {
                let s = document.getElementById('kasino-light');
                if (on && !s) { s = document.createElement('style'); s.id = 'kasino-light';
                                s.textContent = css; document.head.append(s); }
                if (!on && s) s.remove();
            }""",
            [LIGHT_CSS, theme == "light"],
        )
        await asyncio.sleep(0.3)
        box = await target.bounding_box()
        assert box is not None, name
        clip = {
            "x": max(box["x"] - 16, 0),
            "y": max(box["y"] - 16, 0),
            "width": box["width"] + 32,
            "height": box["height"] + 32,
        }
        path = out / f"{name}-{theme}.png"
        await page.screenshot(path=str(path), clip=clip)
        saved.append(path)
    await page.evaluate("document.getElementById('kasino-light')?.remove()")
    return saved


async def message(page: Page, text: str) -> Locator:
    """The latest message of the channel page that shows ``text``."""
    for _ in range(60):
        found = page.locator("article.channel-message").filter(has_text=text)
        if await found.count():
            return found.last
        await asyncio.sleep(0.5)
    raise TimeoutError(f"no message with {text!r}")


async def advance(env: simcord.Env, seconds: float, step: float = 60) -> None:
    """Move the virtual clock ``seconds`` on, a minute at a time.

    SimCord gives one ``advance_time`` its settle timeout (5 s of wall clock) for all
    the bot's work in it: half an hour of 15-second turns at four tables, every automatic
    move among them, did not always fit in 5 s on a busy machine ("bot did not settle").
    A minute's work does."""
    while seconds > 0:
        await env.advance_time(min(step, seconds))
        seconds -= step


async def refused(*args: object, **kw: object) -> int:
    """A thread the channel refuses (the bot lacks Create Public Threads there)."""
    raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), "Missing Permissions")


async def run(
    out: Path, server_locale: str, browser_path: str, no_threads: bool, odd: bool = False
) -> list[Path]:
    for function, (defaults, keywords) in settle_defaults(0.001):
        function.__defaults__, function.__kwdefaults__ = defaults, keywords
    saved: list[Path] = []
    wanted_names()  # the faces drawn before the bot starts (bot.preview.faces_drawn)
    with tempfile.TemporaryDirectory(prefix="kasino-tour-screens-") as folder:
        # 15 s turns that never abandon a game: idle players' automatic moves play a
        # round or two of each match before the round's deadline decides it by the score
        config = Config(token=None, db_path=Path(folder) / "kasino.db", turn_seconds=15,
                        round_pause=0, max_auto_moves=10_000)  # fmt: skip
        bot = KasinoBot(config, seed=5)
        try:
            async with simcord.run(bot, check_errors=False) as env:
                guild = env.create_guild("Kasino Preview", preferred_locale=server_locale)
                harness = Harness.__new__(Harness)
                harness.env, harness.guild, harness.interactions = env, guild, 0
                harness.channel = guild.create_text_channel("kasino")
                admins = discord.Permissions(manage_guild=True)
                role = guild.create_role("Admins", permissions=admins)
                organiser = guild.add_member(env.create_user("organiser", global_name="Olga"),
                                             roles=[role])  # fmt: skip
                harness.members = [
                    guild.add_member(env.create_user(n.lower(), global_name=n))
                    for n in PLAYERS + (("Ivar",) if odd else ())
                ]
                result = await harness.slash(organiser, "kasino tournament new", title="Friday Cup",
                                             round_minutes=30, rounds=3)  # fmt: skip
                signup = result.response.message
                ids = custom_ids(signup)
                tid = next(int(c.split(":")[2]) for c in ids if c.startswith("k:tour"))
                for member in harness.members:
                    await harness.click(member, signup, custom_id=f"k:tour:{tid}:join")
                assets = await face_assets(bot)
                async with (
                    env.preview(
                        harness.channel, viewers=[organiser], layout="channel", assets=assets
                    ) as preview,  # fmt: skip
                    following(env, preview),
                    async_playwright() as playwright,
                ):
                    browser = await playwright.chromium.launch(
                        executable_path=browser_path, args=CHROMIUM_ARGS
                    )
                    page = await (
                        await browser.new_context(viewport=VIEWPORT, bypass_csp=True)
                    ).new_page()
                    await page.goto(preview.url)
                    await page.wait_for_selector("#channel-composer-input")
                    saved += await shoot(page, out, "t1-signup", await message(page, "Friday Cup"))
                    if no_threads:  # the channel refuses the bot its threads, as Discord would
                        ThreadPacer.make = refused  # type: ignore[method-assign]
                        await harness.click(organiser, signup, custom_id=f"k:tour:{tid}:start")
                        await asyncio.sleep(2)
                        warning = await message(page, "⚠️")
                        saved += await shoot(page, out, "t2-no-threads", warning)
                        await browser.close()
                        return saved
                    await harness.click(organiser, signup, custom_id=f"k:tour:{tid}:start")
                    await asyncio.sleep(2)  # the page follows the channel
                    saved += await shoot(page, out, "t2-round", await message(page, "🏁"))
                    await advance(env, 30 * 60 + 1)
                    await asyncio.sleep(2)  # the page follows the channel
                    # the standings' footer, in the server's language (the podium has it too)
                    standings = await message(page, lang_of(server_locale)(TIEBREAKS)[:30])
                    saved += await shoot(page, out, "t2-standings", standings)
                    for _ in range(2):
                        await advance(env, 30 * 60 + 1)
                    await asyncio.sleep(2)
                    podium = await message(page, "🥇")
                    saved += await shoot(page, out, "t3-podium", podium.last)
                    await browser.close()
        finally:  # also after an error: the database's worker thread would keep it alive
            await bot.close_storage()
    return saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/tournament-screens"))
    parser.add_argument("--server-locale", default="en-US", help="the server's language")
    parser.add_argument("--browser", default=CHROMIUM, help="the Chromium to drive")
    warning = "picture the organiser's warning when threads are refused"
    parser.add_argument("--no-threads", action="store_true", help=warning)
    parser.add_argument("--odd", action="store_true", help="nine players: a bye each round")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    discord.utils.setup_logging(level=40)
    for path in asyncio.run(
        run(args.out, args.server_locale, args.browser, args.no_threads, args.odd)
    ):
        print(path)


if __name__ == "__main__":
    main()
