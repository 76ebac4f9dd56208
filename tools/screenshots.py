"""Screenshots of a scripted Kasino match in the preview, on Discord's dark and light themes.

Starts ``python -m bot --preview --port <free port>``, drives the SimCord Preview page in
headless Chromium with Playwright and saves PNGs of the lobby, a hand on your turn, its
card menu and a capture menu open, the table, a round summary and the match end, each on
the dark and the light theme; after the match her ``/kasino profile`` (and a close-up of
its rating picture, ``9b-profile-chart``), the rating board against computers (and the
global one, ``9d-global-board``), ``/kasino
history`` and a replay (with ``--analysis`` instead: Analyse my moves, its summary and a
move's page). Anna plays a match to 5 against a normal computer player
(Krypkasino: five, at a six-seat table, to the limit 5, lowest wins; ``--seats`` changes
it). With ``--variant`` (a game with builds, e.g. ``casino``) she builds whenever she can,
the menu pictured is a build menu, and the table is pictured once a build lies on it. Not
a test: run it by hand and look at the pictures.

    .venv/bin/pip install playwright          # never `playwright install`: the system
    apt-get install -y chromium               # Chromium (Debian) is driven instead
    .venv/bin/python tools/screenshots.py --out /tmp/screens
    .venv/bin/python tools/screenshots.py --out /tmp/casino-screens --variant casino
    .venv/bin/python tools/screenshots.py --out /tmp/kryp-screens --variant krypkasino
    .venv/bin/python tools/screenshots.py --out /tmp/sv-fi --locale sv-SE --server-locale fi
    .venv/bin/python tools/screenshots.py --out /tmp/four --four-colour
    .venv/bin/python tools/screenshots.py --out /tmp/lesson --lesson casino
    .venv/bin/python tools/screenshots.py --out /tmp/gdm --place group-dm --target 11
    .venv/bin/python tools/screenshots.py --out /tmp/ladder --place ladder
    .venv/bin/python tools/screenshots.py --out /tmp/dm --place dm

``--place group-dm`` (or ``foreign-server``) plays the match where the bot is no member
and only answers clicks (``python -m bot --preview --place``): Bjorn joins too and plays his
turns from his own view (``4b-table-friend``); after the match, Anna's profile and the
global board.

``--place ladder`` pictures a ladder match of Anna and Bjorn, each in their own server and
browser tab (:class:`Ladder`): the waiting message, both tables, a canned line on both, the
end on both.

``--place games`` pictures ``/kasino games`` (issue 43): the preview gives Anna a live
match in ``#cards``, one of 3 days a move in another server and a lobby in her DM; she
opens one more here with ``/kasino new pace:1d`` against a computer, then her list
(``G1-games``) and the hand of its first game opened from it (``G2-games-hand``).
``--place dm`` pictures Anna's DM with the bot instead of a match (:class:`DirectMessages`):
her daily digest of two correspondence games, ``/kasino settings`` and ``/kasino vacation``.

``--lesson VARIANT`` pictures ``/kasino learn`` instead of a match: the lesson's first
step (``L1-lesson-step``), its card menu open (``L2-lesson-menu``) and a wrong move's
explanation (``L3-lesson-wrong``).
    .venv/bin/python tools/screenshots.py --out /tmp/analysis --analysis

``--locale`` is Anna's Discord client language (her hand, menus and refusals) and
``--server-locale`` the server's (lobby, table, summaries); the script finds the buttons and
texts it needs by their words in those languages, from the message catalogues.
``--four-colour`` gives the server the four-colour deck (♠ black, ♥ red, ♦ blue, ♣ green),
as an admin's ``/kasino deck for:this server`` would; the players follow it.

SimCord's Preview draws only Discord's dark theme (its profile says ``theme: dark`` and its
stylesheet sets ``color-scheme: dark``); the light theme is Discord's light palette laid
over it as a stylesheet (:data:`LIGHT_CSS`), switched on and off for each picture.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, sync_playwright

from bot.i18n import Lang, lang_of
from bot.lessons import lesson_for
from bot.models import BUILDING, VARIANT_NAMES, Status, seat_limit
from bot.render import ENDINGS, FINAL_HEAD, LEVEL_NAMES, STEP_PROMPTS, SUIT_NEUTRAL
from bot.turns import BUILD_LABELS

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1200, "height": 1000}
TARGET = 5  # a short match: usually over after one or two rounds

# Discord's light theme (message area white, embeds and controls light grey, dark text).
LIGHT_CSS = """
:root {
  color-scheme: light;
  background: #ffffff; color: #313338;
  --discord-bg: #ffffff; --discord-surface: #f2f3f5; --discord-elevated: #e3e5e8;
  --discord-control: #e3e5e8; --discord-hover: #ebedef; --discord-text: #313338;
  --discord-muted: #5c5e66; --discord-subtle: #4e5058; --discord-border: #d4d7dc;
  --component-surface: #f2f3f5; --component-border: #d4d7dc; --control-border: #d4d7dc;
  --chip-surface: #e3e5e8; --list-surface: #ffffff; --option-hover: #ebedef;
  --subtle-surface: #e3e5e8; --subtle-surface-text: #313338; --entity-text: #4e5058;
  --entity-dim: #5c5e66; --input-surface: #ebedef; --input-placeholder: #5c5e66;
  --choice-border: #b5bac1; --button-alt: #e3e5e8; --button-alt-hover: #d7d9dc;
  --code-surface: #f2f3f5; --code-border: #e3e5e8; --code-text: #313338;
  --embed-field-name: #060607; --link-text: #006ce7; --button-secondary-surface: #6d6f78;
}
.preview-stage, .channel-layout, #preview-app { background: #ffffff !important; }
.channel-header { background: #ffffff !important; border-bottom-color: #e1e2e4 !important; }
.channel-message:hover, .channel-message:focus-within { background: #0000000a !important; }
.message-content, .markdown-paragraph, .embed-description, .embed-field-value,
.message-author, .channel-heading h1, .timeline-day-divider { color: #313338 !important; }
.embed-title, .embed-field-name { color: #060607 !important; }
.embed-card { background: #f2f3f5 !important; border-color: #e1e2e4 !important; }
.embed-footer, .message-time, .message-interaction-header { color: #5c5e66 !important; }
.channel-composer { background: #ebedef !important; }
.mention { color: #505cdc !important; background: rgba(88, 101, 242, .15) !important; }
[role="listbox"] { background: #ffffff !important; color: #313338 !important;
  border: 1px solid #d4d7dc !important; }
[role="option"] { color: #313338 !important; }
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def preview(
    locale: str = "en-US", server_locale: str = "en-US", deck: str = "two", place: str = "server"
) -> Iterator[str]:
    """Run the bot's preview and yield its URL; stop it afterwards."""
    env = dict(os.environ, COMPUTER_PAUSE="0.5", ROUND_PAUSE="3", LOG_LEVEL="WARNING")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bot",
            "--preview",
            "--port",
            str(free_port()),
            "--locale",
            locale,
            "--server-locale",
            server_locale,
            "--deck",
            deck,
            "--place",
            place,
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        said: list[str] = []
        for line in process.stdout:
            found = re.search(r"open (http\S+)", line)
            if found:
                yield found.group(1)
                return
            said = [*said[-19:], line.rstrip()]
        raise RuntimeError("the preview did not start:\n" + "\n".join(said))
    finally:
        process.terminate()
        process.wait(timeout=20)


def padded(box: dict[str, float], pad: float) -> dict[str, float]:
    """A page area ``pad`` pixels larger than ``box`` on every side."""
    x, y = max(box["x"] - pad, 0), max(box["y"] - pad, 0)
    return {"x": x, "y": y, "width": box["width"] + 2 * pad, "height": box["height"] + 2 * pad}


def before(text: str) -> str:
    """The words of a message before its first field (``"What does "``)."""
    return text.split("\x00")[0]


class Words:
    """The texts the script looks for, in Anna's language (``me``: her hand and menus) and
    the server's (``pub``: the lobby, the table and the summaries)."""

    def __init__(self, me: Lang, pub: Lang) -> None:
        normal = pub(LEVEL_NAMES["normal"])
        self.add_normal = pub("Add {level} computer", level=normal.lower())
        self.normal_bot = pub("🤖 {level} bot", level=normal).removeprefix("🤖 ")
        self.start = pub("Start")
        self.join = pub("Join")
        self.to_move = before(pub("**To move:** {name}{due}", name="\x00", due="")).strip("* ")
        self.hints_off = pub("Hints: off")
        self.hint = me("Hint")
        self.stopped = me(ENDINGS[Status.STOPPED]).split(".")[0]  # as the hand view says it
        self.your_hand_button = pub("Your hand")
        self.your_hand = me("Your hand")
        self.choose_a_card = me(STEP_PROMPTS["card"], due="").split(": ", 1)[1].rstrip(".")
        self.what_does = (
            me("You play **{card}**. What does it take?", card="x").rsplit(". ", 1)[1],
            me("You play **{card}**. What does it do?", card="x").rsplit(". ", 1)[1],
        )
        self.placeholders = (
            me("Your turn: choose a card to play"),
            before(me("What does {card} take?", card="\x00")),
            before(me("What does {card} do?", card="\x00")),
            me("Choose the table items it uses"),
            me("Which move?"),
        )
        self.cannot = me("{card}: cannot be played now", card="").strip(": ")
        self.trail = me("{card}: trail", card="")
        self.krypa = me("{card}: krypa", card="")  # Krypkasino's card that takes nothing
        self.can_capture = me("can capture: choose what next").split(":")[0]
        self.can = before(me("can {actions}: choose what next", actions="\x00"))
        self.build = me("build")
        self.labels = tuple(
            before(me(label, value="\x00", target="\x00", groups="\x00", card="\x00", adding=""))
            for label in BUILD_LABELS.values()
        )
        self.build_label = before(me(BUILD_LABELS["build"], value="\x00", groups=""))
        self.refresh = me("Refresh")
        self.game_over = pub("🏆 Game over: **{winner}**.", winner="").split(":")[0]
        self.game_over = self.game_over.removeprefix("🏆 ")
        self.round_over = pub("Round {round} is over", round=1)
        self.table = before(pub("**Table ({count}):** {table}", count="\x00", table=""))
        self.table = self.table.strip("* ").rstrip(" (")
        self.profile = me("{name}'s Kasino profile", name="\x00").split("\x00")[-1]
        self.history = me("Kasino history: this server")
        self.rating_board = pub("Kasino vs computers")
        self.global_board = pub("Global Kasino vs computers")
        self.replay = pub("Replay")
        self.replay_title = before(me("Replay: game #{id} · {variant}", id="\x00", variant=""))
        self.forward = me("Forward")
        self.lesson = before(
            me("Lesson: {variant} · step {step} of {steps}", variant="\x00", step="", steps="")
        )
        self.analyse = pub("Analyse my moves")
        self.how_to_check = pub("How to check")
        self.check_title = before(me("🔒 **How to check game #{id}**", id="\x00"))
        self.check_title = self.check_title.replace("*", "").removeprefix("🔒 ").strip()
        self.sealed = me(FINAL_HEAD, head="").split(":")[0].removeprefix("🔒 ")
        self.analysis_title = before(me("Your moves in game #{id} · {variant}", id="\x00",
                                        variant=""))  # fmt: skip
        # " · move " (a move's page title, between the game and its number)
        self.move_page = me("Game #{id} · move {n} of {count} · round {round}", id="\x00",
                            n="\x00", count="", round="").split("\x00")[1]  # fmt: skip
        self.step = before(me("Step {step} of {steps} · round {round} · deal {k} of {n}",
                              step="\x00", steps="", round="", k="", n=""))  # fmt: skip
        self.queue_title = pub("🔎 Looking for an opponent").removeprefix("🔎 ")
        self.good_luck = pub("Good luck!")
        self.your_games = me("Your games")
        self.first_hand = me("{number}. Your hand", number=1)
        self.puzzle = before(me("Puzzle of the day · {day} · {family}: {variant}",
                                day="\x00", family="", variant=""))  # fmt: skip


class Match:
    """Anna's side of the match, driven through the Preview page."""

    def __init__(
        self,
        page: Page,
        out: Path,
        variant: str = "swedish",
        words: Words | None = None,
        seats: int = 2,
        friend: str = "",
        place: str = "server",
    ) -> None:
        self.page = page
        self.out = out
        self.words = words or Words(lang_of("en-US"), lang_of("en-US"))
        self.saved: list[Path] = []
        # a game with builds: Anna builds when she can, and the table is taken with builds
        self.variant = variant
        self.builds = variant in BUILDING
        self.shot_menu = False
        self.shot_cards = False  # the hand's card menu open (its faces and labels)
        self.seats = seats  # Anna and seats − 1 normal computer players
        # a second person at the table (Bjorn, in a group DM), played by the script from
        # his own view (the Preview's "Viewing as")
        self.friend = friend
        self.place = place  # not "server": the bot only answers clicks there
        self.viewer = "Anna"
        self.shot_friend = False
        self.target = TARGET

    # ----------------------------------------------------------------- pictures

    def shoot(
        self, name: str, target: Locator | None = None, close_up: Locator | None = None
    ) -> None:
        """Save ``name-dark.png`` and ``name-light.png`` of the channel (scrolled so that
        ``target`` is in view), or with ``close_up`` of that element alone and a margin of
        the theme around it (at 1×, as Discord shows it)."""
        if target is not None:
            for _ in range(3):  # the page re-renders its messages as snapshots arrive
                with contextlib.suppress(PlaywrightError):
                    target.scroll_into_view_if_needed(timeout=2000)
                    break
        time.sleep(0.4)
        self.images_loaded()
        for theme in ("dark", "light"):
            self.page.evaluate(
                """([css, on]) => {
                    let s = document.getElementById('kasino-light');
                    if (on && !s) { s = document.createElement('style'); s.id = 'kasino-light';
                                    s.textContent = css; document.head.append(s); }
                    if (!on && s) s.remove();
                }""",
                [LIGHT_CSS, theme == "light"],
            )
            time.sleep(0.3)
            path = self.out / f"{name}-{theme}.png"
            box = close_up.bounding_box() if close_up is not None else None
            if box is not None:
                self.page.screenshot(path=str(path), clip=padded(box, 24))
            else:
                self.page.locator("#preview-app").screenshot(path=str(path))
            self.saved.append(path)
        self.page.evaluate("document.getElementById('kasino-light')?.remove()")

    def images_loaded(self, timeout: float = 5.0) -> None:
        """Wait (a while) until the page's pictures, the card faces among them, are drawn:
        the Preview loads each one after it shows the message."""
        with contextlib.suppress(PlaywrightError):
            self.page.wait_for_function(
                "[...document.images].every(i => i.complete && i.naturalWidth > 0)",
                timeout=timeout * 1000,
            )

    # ------------------------------------------------------------------ driving

    def messages(self) -> Locator:
        return self.page.locator("article.channel-message")

    def wait(self, condition, timeout: float = 30.0, what: str = "") -> object:
        """Poll ``condition`` (the page follows the bot by itself: no "Refresh preview")."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = condition()
            if found:
                return found
            time.sleep(0.5)
        raise TimeoutError(f"waited {timeout} s for {what}")

    def command(self, text: str, **options: str) -> None:
        box = self.page.locator("#channel-composer-input")
        box.click()
        box.type(text)
        time.sleep(0.5)
        self.page.keyboard.press("Tab")
        for name, value in options.items():
            time.sleep(0.4)
            more = self.page.get_by_text(re.compile(r"^\+\d+ more$"))
            if not self.page.get_by_text(name, exact=True).count() and more.count():
                more.first.click()  # the composer folds the other options away
                time.sleep(0.3)
            self.page.get_by_text(name, exact=True).click()
            time.sleep(0.3)
            self.page.keyboard.type(value)
            # an option with choices: pick the suggestion of that value
            suggestion = self.page.locator(f".command-suggestion[data-value='{value}']")
            time.sleep(0.3)
            if suggestion.count():
                suggestion.first.click()
        time.sleep(0.3)
        self.page.keyboard.press("Enter")

    def settled(self, timeout: float = 15.0, quiet: float = 1.0) -> None:
        """Wait (a while) until the Preview page admits an action and has had no new
        snapshot for ``quiet`` seconds.

        After each of its actions, and each time new messages make it report its viewport
        ("Updating viewport…"), the page holds every action until the server has settled
        it: its buttons are marked ``aria-disabled`` and a menu's choice is not applied
        ("Wait for the current action to finish before applying."): the list stays open
        with the option ticked and nothing is sent. And each new snapshot (the bot's
        paced posts and edits land for seconds after a computer's move) re-renders the
        channel, which can close a list just opened. A choice made then was lost: the
        card played twice, "waited 5 s for the options", a Forward that never came.
        """
        look = """() => {
            const status = document.getElementById('action-status')?.textContent || '';
            const held = [...document.querySelectorAll('button.component-button')]
                .some(b => b.getAttribute('aria-disabled') === 'true' && !b.disabled);
            const shown = document.getElementById('transport-status')?.textContent || '';
            const published = (shown.match(/Publication: ([^ ]+)/) || [])[1] || '';
            return [held || status.trim().endsWith('…'), published];
        }"""
        end, since, last = time.monotonic() + timeout, time.monotonic(), None
        while time.monotonic() < end:
            with contextlib.suppress(PlaywrightError):
                busy, published = self.page.evaluate(look)
                if busy or published != last:
                    since, last = time.monotonic(), published
                elif time.monotonic() - since >= quiet:
                    return
            time.sleep(0.2)

    def button(self, message: Locator, label: str) -> None:
        self.settled()
        message.get_by_role("button", name=label).click()

    def press(
        self, message: Locator, label: str, found: Callable[[], object], what: str, tries: int = 3
    ) -> object:
        """Press ``label`` on ``message`` until ``found()`` gives something: a press the
        page refused (a new snapshot arrived with it: "stale revision") is made again."""
        for attempt in range(tries):
            self.button(message, label)
            try:
                return self.wait(found, 10, what)
            except TimeoutError:
                if attempt == tries - 1:
                    raise
        return None

    def hand(self) -> Locator | None:
        """Anna's latest hand view (an ephemeral message)."""
        hands = (
            self.messages()
            .filter(has_text="Only you can see this")
            .filter(has_text=self.words.your_hand)
        )
        return hands.last if hands.count() else None

    @staticmethod
    def text(message: Locator | None) -> str:
        """A message's text without its components (an open menu lists its options)."""
        if message is None:
            return ""
        with contextlib.suppress(PlaywrightError):
            return message.locator(".message-content").first.inner_text(timeout=2000)
        return ""

    def table_with_build(self) -> Locator | None:
        """The latest table, if a build lies on it."""
        table = self.latest_table()  # the table is an embed: all of its text
        lines = table.inner_text(timeout=2000).splitlines() if table else []
        return table if any(x.startswith(self.words.table) and "[" in x for x in lines) else None

    def latest_table(self) -> Locator | None:
        hand = self.page.get_by_role("button", name=self.words.your_hand_button)
        tables = self.messages().filter(has=hand)
        return tables.last if tables.count() else None

    def stale_menu(self, message: Locator) -> bool:
        """Whether the menu on ``message`` shows a value nobody chose in it.

        SimCord's Preview keeps a menu's chosen value per message and component position,
        across edits of the message: after the hand view is edited to the next turn's menu,
        that menu shows the option at the position chosen last time (another card by now),
        and choosing that option sends nothing, because to the page nothing changed.
        Discord's client starts an edited message's menus empty. Reloading the page drops
        the kept values.
        """
        trigger = message.locator("button:has(.select-value)").first
        with contextlib.suppress(PlaywrightError):
            shown = trigger.locator(".select-value").inner_text(timeout=2000)
            return not shown.startswith(self.words.placeholders)
        return False

    def fresh(self, message: Locator) -> Locator:
        """``message`` again, after a reload of the page if its menu shows a stale value."""
        if not self.stale_menu(message):
            return message
        self.reload()
        found = self.wait(self.hand, 10, "the hand view after a reload")
        assert isinstance(found, Locator)
        return found

    def reload(self) -> None:
        """Reload the page (every menu starts afresh), as the same viewer."""
        self.page.reload()
        self.page.wait_for_selector("#channel-composer-input")
        if self.page.locator("#viewer-picker").input_value() != self.viewer_id(self.viewer):
            self.as_viewer(self.viewer)

    def viewer_id(self, name: str) -> str:
        """The value of ``name`` in the page's "Viewing as" list."""
        option = self.page.locator("#viewer-picker option", has_text=name).first
        return option.get_attribute("value") or ""

    def as_viewer(self, name: str) -> None:
        """Look at the page as ``name`` (the Preview's "Viewing as")."""
        self.settled()
        self.page.select_option("#viewer-picker", label=name)
        self.viewer = name
        self.wait(
            lambda: self.page.locator("#viewer-picker").input_value() == self.viewer_id(name),
            10,
            f"the view of {name}",
        )
        self.settled()

    def friend_to_move(self) -> bool:
        """Whether the latest table names the friend to move."""
        if not self.friend:
            return False
        table = self.latest_table()
        with contextlib.suppress(PlaywrightError):
            text = table.inner_text(timeout=2000) if table is not None else ""
            return f"{self.words.to_move} {self.friend}" in " ".join(text.split())
        return False

    def play_friend(self) -> None:
        """The friend's turn, from his view: "Your hand" on the table, the first card he
        can play and (if it takes) the first choice of what; then back to Anna. His view of
        the table is pictured once (``4b-table-friend``)."""
        words = self.words
        self.as_viewer(self.friend)
        table = self.wait(self.latest_table, 10, "the table in his view")
        assert isinstance(table, Locator)
        if not self.shot_friend:
            self.shoot("4b-table-friend", table)
            self.shot_friend = True
        self.button(table, words.your_hand_button)

        def his_turn() -> Locator | None:
            hand = self.hand()
            return hand if words.choose_a_card in self.text(hand) else None

        hand = self.wait(his_turn, 20, "his turn")
        assert isinstance(hand, Locator)
        chosen = self.choose(hand).splitlines()[0]
        print(f"{self.friend}: {chosen}", flush=True)
        if not chosen.endswith((words.trail, words.krypa)):
            with contextlib.suppress(TimeoutError):
                menu = self.wait(
                    lambda: any(w in self.text(h := self.hand()) for w in words.what_does) and h,
                    8,
                    "his capture menu",
                )
                assert isinstance(menu, Locator)
                self.choose(menu)
        time.sleep(1)
        self.as_viewer("Anna")

    def choose(
        self,
        message: Locator,
        option: str | tuple[str, ...] | None = None,
        shot: str = "",
        open_shot: str = "",
    ) -> str:
        """Open the select on ``message`` and pick the first option holding ``option`` (or
        the first of several texts that any option holds), else the first one; return the
        chosen label. ``shot`` pictures a capture or build menu, ``open_shot`` any menu.

        Only once the page admits actions (:meth:`settled`); a list that a re-render closed
        before it showed, or that is still open after the choice (the page did not apply
        it), is opened again."""
        options = self.page.locator(".select-list:not([hidden]) [role='option']")
        for _ in range(4):
            self.settled()
            message = self.fresh(message)
            trigger = message.locator("button:has(.select-value)").first
            trigger.click()
            try:
                with contextlib.suppress(TimeoutError):
                    self.wait(lambda: options.count() > 0, 2, "the options")
                if not options.count():
                    # the page still held this menu as open while it drew it closed (after
                    # a re-render): that click closed it, a second one opens it
                    trigger.click()
                self.wait(lambda: options.count() > 0, 4, "the options")
            except TimeoutError:
                # a new snapshot closed the list, or the page's menu state went astray
                # (after a picture of the page, a click on this menu sometimes only
                # focuses it): a reload starts every menu afresh, as in fresh()
                self.reload()
                continue
            labels = [options.nth(i).inner_text() for i in range(options.count())]
            building = any(label.startswith(self.words.labels) for label in labels)
            if open_shot:
                self.shoot(open_shot, options.last)
                open_shot = ""
            if shot and (building or not self.builds):  # a game with builds: a build menu
                self.shoot(shot, options.last)
                self.shot_menu = True
                shot = ""
            wanted = (option,) if isinstance(option, str) else option or ()
            playable = [i for i, text in enumerate(labels) if self.words.cannot not in text]
            found = [i for want in wanted for i in playable if want in labels[i]]
            index = (found or playable or [0])[0]
            self.settled()  # the page applies no choice while an action is under way
            with contextlib.suppress(PlaywrightError):
                options.nth(index).click(timeout=3000)
                time.sleep(0.3)
                submit = self.page.get_by_role("button", name=re.compile("^(Submit|Apply|Done)$"))
                if submit.count():
                    submit.first.click(timeout=3000)
                if not options.count():  # the list closed: the choice was sent
                    return labels[index]
            self.page.keyboard.press("Escape")  # not applied: close it and choose again
            time.sleep(0.3)
        raise TimeoutError(f"the page never took a choice from the menu ({option!r})")

    def over(self) -> bool:
        return self.messages().filter(has_text=self.words.game_over).count() > 0

    def play(self) -> None:
        page = self.page
        options = {"variant": self.variant} if self.variant != "swedish" else {}
        self.command("/kasino new", **options, target=str(self.target))
        lobby = self.wait(lambda: self.messages().count() > 0, what="the lobby")
        words = self.words
        if self.friend:  # he joins from his own view
            self.as_viewer(self.friend)
            self.button(self.messages().first, words.join)
            self.wait(lambda: self.friend in self.messages().first.inner_text(), what="him seated")
            self.as_viewer("Anna")
        for number in range(1, self.seats):
            self.button(self.messages().first, words.add_normal)
            wanted = words.normal_bot + (f" {number}" if number > 1 else "")
            self.wait(lambda w=wanted: w in self.messages().first.inner_text(), what="a computer")
        self.button(self.messages().first, words.hints_off)
        time.sleep(1)
        self.shoot("1-lobby", self.messages().first)
        self.button(self.messages().first, words.start)
        assert lobby
        table = self.wait(self.latest_table, what="the table")
        assert isinstance(table, Locator)
        self.button(table, words.your_hand_button)
        shot_hand = shot_table = shot_summary = False
        moves, before, chosen_at = 0, "", 0.0
        while not self.over() and moves < 80:

            def my_turn(before: str = before, chosen_at: float = chosen_at) -> Locator | None:
                found = self.hand()
                text = self.text(found)
                # the view you chose from stays on the page until the next snapshot arrives;
                # a choice the page dropped while re-rendering is made again after a while
                again = time.monotonic() - chosen_at > 4
                turn = words.choose_a_card in text
                return found if turn and (text != before or again) else None

            hand = self.turn(my_turn)
            if hand == "friend":
                self.play_friend()
                before = ""
                continue
            if not isinstance(hand, Locator):
                break
            if self.text(hand) == before:
                # the page dropped the choice (it re-rendered meanwhile) and still shows it
                # as chosen: ask for a fresh hand view and choose again
                self.button(hand, words.refresh)
                before, chosen_at = "", time.monotonic()
                time.sleep(1.5)
                continue
            hand = self.fresh(hand)  # never a picture of a menu showing a stale choice
            if not shot_table and moves >= 2 and not self.builds:
                self.shoot("4-table", self.latest_table())
                shot_table = True
            if not shot_hand:
                self.shoot("2-hand-your-turn", hand)
                shot_hand = True
                hinted = self.press(  # the hint heads the hand view itself
                    hand, words.hint, lambda: "💡" in self.text(h := self.hand()) and h, "a hint"
                )
                assert isinstance(hinted, Locator)
                self.shoot("2b-hint", hinted)
                hand = self.fresh(hinted)
            # a card that can capture opens the capture menu; else one that trails at once
            before = self.text(hand)
            wanted = (words.build, words.can) if self.builds else words.can_capture
            chosen = self.choose(
                hand,
                None if self.shot_menu and not self.builds else wanted,
                open_shot="" if self.shot_cards else "2c-card-menu",
            )
            self.shot_cards = True
            chosen_at = time.monotonic()
            moves += 1
            print(f"move {moves}: {chosen}", flush=True)
            first = chosen.splitlines()[0]
            if not first.endswith((words.trail, words.krypa)):  # else played at once
                try:
                    menu = self.wait(
                        lambda: (
                            any(w in self.text(h := self.hand()) for w in words.what_does) and h
                        ),
                        timeout=8,
                        what="the capture menu",
                    )
                except TimeoutError:
                    if os.environ.get("SCREENS_DEBUG"):
                        self.page.screenshot(path=str(self.out / f"debug-{moves}.png"))
                    continue  # the choice was dropped: the next turn check asks again
                assert isinstance(menu, Locator)
                before = self.text(menu)
                label = self.choose(menu, words.build_label if self.builds else None,
                                    "" if self.shot_menu else "3-capture-menu")  # fmt: skip
                chosen_at = time.monotonic()
                if self.builds and not shot_table and label.startswith(words.build_label):
                    with contextlib.suppress(TimeoutError):  # the table with Anna's build
                        table = self.wait(self.table_with_build, 8, "a table with a build")
                        self.shoot("4-table", table)
                        shot_table = True
            if not shot_summary:
                summaries = (
                    self.messages()
                    .filter(has_text=words.round_over)
                    .filter(has_not_text="Only you can see this")
                )
                if summaries.count():
                    self.shoot("5-round-summary", summaries.first)
                    shot_summary = True
        self.wait(self.over, 60, "the end of the match")
        end = self.messages().filter(has_text=words.game_over).last
        if not shot_summary:
            self.shoot("5-round-summary", end.locator(".embed-card").first)
        self.shoot("6-match-end", end)
        self.quiet_marks(end)
        self.shoot("7-lobby-after-the-match", self.messages().first)
        page.wait_for_timeout(200)

    def turn(self, my_turn: Callable[[], Locator | None]) -> object:
        """Wait for Anna's turn (her hand view), the friend's (``"friend"``) or the end.

        Where the bot only answers clicks (a group DM), what time owes (the next deal
        after a round) is applied at the next click, and Anna's open hand view is not
        always updated when another person's click hands her the turn: after a while
        without either, she presses Refresh on her hand view (a click at the table)."""

        def found() -> object:
            if self.over():
                return True
            mine = my_turn()
            if mine is not None:
                return mine
            return "friend" if self.friend_to_move() else None

        if self.place == "server":
            return self.wait(found, timeout=60, what="your turn")
        for _ in range(6):
            with contextlib.suppress(TimeoutError):
                return self.wait(found, timeout=10, what="a turn")
            hand = self.hand()
            if hand is not None:
                print("nobody's turn shown: Anna presses Refresh", flush=True)
                self.button(hand, self.words.refresh)
        raise TimeoutError("waited 60 s for a turn")

    def quiet_marks(self, end: Locator) -> None:
        """Anna's hand view at the end, with the match's final head (``6b-hand-at-the-end``),
        and the private answer of How to check on the end message (``6c-how-to-check``)."""
        words = self.words

        def sealed_hand() -> Locator | None:
            hand = self.hand()
            return hand if hand is not None and words.sealed in self.text(hand) else None

        hand = self.wait(sealed_hand, 20, "the final head in the hand view")
        assert isinstance(hand, Locator)
        self.shoot("6b-hand-at-the-end", hand)
        try:
            answer = self.press(
                end,
                words.how_to_check,
                lambda: (
                    (found := self.messages().filter(has_text=words.check_title)).count()
                    and found.last
                ),
                "How to check",
            )
        except TimeoutError:
            if self.place == "server":
                raise
            # pictured all the same: what the bot answered instead
            print("How to check: no answer with its title (pictured: 6c-…-refused)", flush=True)
            self.shoot("6c-how-to-check-refused", self.messages().last)
            return
        assert isinstance(answer, Locator)
        self.shoot("6c-how-to-check", answer)

    def profile(self) -> None:
        """Anna's profile after the match: private, with the picture of her rating."""
        # the composer opens the first option (member) at once: Anna chooses herself (in a
        # server; elsewhere it stays empty, hers all the same: the bot does not take a
        # member there, where Discord resolves a person as a user only)
        box = self.page.locator("#channel-composer-input")
        box.click()
        box.type("/kasino profile")
        time.sleep(0.5)
        self.page.keyboard.press("Tab")
        time.sleep(0.5)
        if self.place == "server":
            self.page.keyboard.type("Anna")
            time.sleep(0.5)
            suggestion = self.page.locator(".command-suggestion")
            if suggestion.count():
                suggestion.first.click()
        else:
            self.page.keyboard.press("Escape")
        time.sleep(0.3)
        self.page.keyboard.press("Enter")
        time.sleep(2)
        if not self.messages().filter(has_text=self.words.profile).count():
            # Enter stayed in the member option: press the composer's send button
            with contextlib.suppress(PlaywrightError):
                self.page.locator("#send-message").click(timeout=3000)
        title = self.words.profile
        found = self.wait(
            lambda: (seen := self.messages().filter(has_text=title)).count() and seen.last,
            30,
            "the profile",
        )
        assert isinstance(found, Locator)
        time.sleep(1)
        self.shoot("9-profile", found)
        # the rating picture alone, as Discord shows it (an embed's picture, at 1×)
        chart = found.locator("img[src*='rating'], .embed-image img, .embed-card img").last
        with contextlib.suppress(PlaywrightError):
            chart.scroll_into_view_if_needed(timeout=3000)
            self.shoot("9b-profile-chart", close_up=chart)

    def games_list(self) -> None:
        """``--place games``: a correspondence game opened here (``/kasino new pace:1d``
        against a computer), then Anna's ``/kasino games`` with her games everywhere
        (``G1-games``) and the first game's hand opened from the list (``G2-games-hand``)."""
        words = self.words
        box = self.page.locator("#channel-composer-input")
        box.click()
        box.type("/kasino new")
        time.sleep(0.5)
        self.page.keyboard.press("Tab")
        time.sleep(0.4)
        more = self.page.get_by_text(re.compile(r"^\+\d+ more$"))
        if not self.page.get_by_text("pace", exact=True).count() and more.count():
            more.first.click()
            time.sleep(0.3)
        self.page.get_by_text("pace", exact=True).click()
        time.sleep(0.3)
        self.page.keyboard.type("1 day")  # the choice is found by its name, sent by its value
        time.sleep(0.5)
        self.page.locator(".command-suggestion[data-value='1d']").first.click()
        time.sleep(0.3)
        self.page.keyboard.press("Enter")
        time.sleep(2)
        if not self.messages().count():  # Enter stayed in the option: the send button
            with contextlib.suppress(PlaywrightError):
                self.page.locator("#send-message").click(timeout=3000)
        self.wait(lambda: self.messages().count() > 0, what="the lobby")
        self.button(self.messages().first, words.add_normal)
        self.wait(lambda: words.normal_bot in self.messages().first.inner_text(), what="a bot")
        self.button(self.messages().first, words.start)
        self.wait(self.latest_table, what="the table")
        self.settled()
        self.command("/kasino games")
        found = self.wait(
            lambda: (
                (seen := self.messages().filter(has_text=words.your_games)).count() and seen.last
            ),
            30,
            "the list of games",
        )
        assert isinstance(found, Locator)
        time.sleep(1)
        self.shoot("G1-games", found)
        self.button(found, words.first_hand)
        hand = self.wait(self.hand, 30, "the hand opened from the list")
        assert isinstance(hand, Locator)
        time.sleep(1)
        self.shoot("G2-games-hand", hand)

    def board(self) -> None:
        """The rating board against computers after the match (``9c-rating-board``): the
        shown ratings, "?" while provisional, and what a rating means in its footer."""
        self._board("9c-rating-board", self.words.rating_board, "the rating board")

    def global_board(self) -> None:
        """The global rating board against computers (``9d-global-board``): the same
        match counted over every server, the people named by their Discord names."""
        self._board(
            "9d-global-board", self.words.global_board, "the global rating board", scope="global"
        )

    def _board(self, name: str, title: str, what: str, **options: str) -> None:
        """``/kasino scores`` against computers (of this variant), pictured once its
        board, titled ``title``, is shown."""
        game = {"variant": self.variant} if self.variant != "swedish" else {}
        self.command("/kasino scores", **game, opponents="computers", **options)
        time.sleep(2)
        if not self.messages().filter(has_text=title).count():
            # Enter stayed in the option: press the composer's send button
            with contextlib.suppress(PlaywrightError):
                self.page.locator("#send-message").click(timeout=3000)
        found = self.wait(
            lambda: (seen := self.messages().filter(has_text=title)).count() and seen.last,
            30,
            what,
        )
        assert isinstance(found, Locator)
        time.sleep(1)
        self.shoot(name, found)

    def records(self) -> None:
        """After the match: the history (``10-history``) and its replay, a few steps on
        (``11-replay``)."""
        words = self.words
        box = self.page.locator("#channel-composer-input")
        box.click()
        box.type("/kasino history")
        time.sleep(0.5)
        self.page.keyboard.press("Tab")  # the composer opens the first option, member…
        time.sleep(0.4)
        self.page.keyboard.press("Escape")  # …which stays empty: the whole server's
        time.sleep(0.3)
        self.page.keyboard.press("Enter")
        history = self.wait(
            lambda: (
                (found := self.messages().filter(has_text=words.history)).count() and found.last
            ),
            what="the history",
        )
        assert isinstance(history, Locator)
        self.shoot("10-history", history)
        end = self.messages().filter(has_text=words.game_over).last

        def replay_at(step: int) -> Locator | None:
            """The replay, once it shows ``step`` or a later one."""
            found = self.messages().filter(has_text=words.replay_title)
            # "Step 3 of 40" or "Vaihe 3/40": the number, then anything but a digit
            shown = re.compile(re.escape(words.step) + r"(\d+)\D")
            if not found.count():
                return None
            with contextlib.suppress(PlaywrightError):  # the step is in the embed
                seen = shown.search(found.last.inner_text(timeout=2000))
                return found.last if seen and int(seen[1]) >= step else None
            return None

        replay = self.press(end, words.replay, lambda: replay_at(0), "the replay")
        step = 0
        for _ in range(12):  # four steps on; a Forward the busy page refused is pressed again
            if step >= 4:
                break
            assert isinstance(replay, Locator)
            self.button(replay, words.forward)
            with contextlib.suppress(TimeoutError):
                replay = self.wait(lambda s=step + 1: replay_at(s), 10, f"replay step {step + 1}")
                step += 1
        if step < 4:
            raise TimeoutError(f"the replay stayed at step {step}")
        assert isinstance(replay, Locator)
        self.shoot("11-replay", replay)

    def lesson_view(self) -> Locator | None:
        """Anna's latest lesson message (ephemeral)."""
        found = (
            self.messages()
            .filter(has_text="Only you can see this")
            .filter(has_text=self.words.lesson)
        )
        return found.last if found.count() else None

    def lesson(self, variant: str) -> None:
        """``/kasino learn``: the first step, its card menu open, then a card that is not
        the right one (trailed, or its first capture) and the explanation of it."""
        self.command("/kasino learn", **({"variant": variant} if variant != "swedish" else {}))
        time.sleep(1)
        if self.lesson_view() is None:  # a choice picked last: the composer keeps the focus
            self.page.get_by_role("button", name=re.compile("send", re.I)).last.click()
        view = self.wait(self.lesson_view, what="the lesson")
        assert isinstance(view, Locator)
        self.shoot("L1-lesson-step", view)
        first = lesson_for(variant).steps[0]
        rnd = first.position()
        right = next(m for m in rnd.legal_moves() if first.right(m))
        other = next(c for c in rnd.hands[0] if c != right.card)
        self.choose(
            view, f"{other.rank_name}{SUIT_NEUTRAL[other.suit][0]}", open_shot="L2-lesson-menu"
        )
        time.sleep(1.5)
        view = self.lesson_view()
        if view is not None and "❌" not in self.text(view):  # its take menu: what it takes
            self.choose(view)
        wrong = self.wait(
            lambda: "❌" in self.text(v := self.lesson_view()) and v, what="the explanation"
        )
        assert isinstance(wrong, Locator)
        self.shoot("L3-lesson-wrong", wrong)

    def analysis(self) -> None:
        """After the match: Analyse my moves on its end message, the summary
        (``12-analysis-summary``) once every move is reviewed, and a move's page
        (``13-analysis-move``: the costliest move's)."""
        words = self.words
        end = self.messages().filter(has_text=words.game_over).last
        self.button(end, words.analyse)

        def analysis(wanted: str) -> Locator | None:
            found = self.messages().filter(has_text="Only you can see this").filter(has_text=wanted)
            return found.last if found.count() else None

        summary = self.wait(lambda: analysis(words.analysis_title), 240, "the analysis")
        assert isinstance(summary, Locator)
        time.sleep(1)
        self.shoot("12-analysis-summary", summary)
        # the costliest move's page (its button comes first; with none, Move by move)
        summary.get_by_role("button").first.click()
        page = self.wait(lambda: analysis(words.move_page), 30, "a move's page")
        assert isinstance(page, Locator)
        time.sleep(1)
        self.shoot("13-analysis-move", page)

    def stop(self) -> None:
        """A second game, stopped while Anna's hand is open: the lobby and the hand say so."""
        words = self.words
        self.command("/kasino new", target=str(TARGET))
        lobby = self.wait(
            lambda: (
                (found := self.messages().filter(has_text=words.add_normal)).count() and found.last
            ),
            what="a second lobby",
        )
        assert isinstance(lobby, Locator)
        self.button(lobby, words.add_normal)
        time.sleep(1)
        self.button(lobby, words.start)
        time.sleep(2)
        table = self.wait(self.latest_table, what="the second table")
        assert isinstance(table, Locator)
        self.button(table, words.your_hand_button)
        time.sleep(2)
        self.command("/kasino stop")
        hand = self.wait(
            lambda: words.stopped in self.text(h := self.hand()) and h, 20, "a stopped hand"
        )
        assert isinstance(hand, Locator)
        self.shoot("8-stopped-game", hand)

    def puzzle(self) -> None:
        """``--puzzle``: ``/kasino puzzle`` (the family of ``--variant``; a fresh server
        has no finished game, so a built-in puzzle): the position (``p1-puzzle``), its card
        menu open (``p2-puzzle-menu``), and the judged answer to the first card and its
        first option (``p3-puzzle-answer``)."""
        title = self.words.puzzle
        self.command("/kasino puzzle", variant=self.variant)

        def latest() -> Locator | None:
            found = self.messages().filter(has_text=title)
            return found.last if found.count() else None

        time.sleep(2)
        if not latest():
            # Enter stayed in the option: press the composer's send button
            with contextlib.suppress(PlaywrightError):
                self.page.locator("#send-message").click(timeout=3000)

        message = self.wait(latest, 60, "the puzzle")
        assert isinstance(message, Locator)
        time.sleep(1)
        self.shoot("p1-puzzle", message)
        self.choose(message, open_shot="p2-puzzle-menu")
        judged = ("❌", "✅")

        def answered() -> Locator | None:
            found = latest()
            return (
                found if found is not None and any(j in self.text(found) for j in judged) else None
            )

        answer = None
        for _ in range(3):  # the card, then what it takes (or which move): first options
            time.sleep(2)
            answer = answered()
            if answer is not None:
                break
            message = latest()
            assert message is not None
            self.choose(message)
        answer = answer or self.wait(answered, 20, "the judged answer")
        assert isinstance(answer, Locator)
        time.sleep(1)
        self.shoot("p3-puzzle-answer", answer)


class DirectMessages:
    """``--place dm``: Anna's DM with the bot (the preview's ``dm`` place): a turn notice
    by DM (``0-notice``), her daily digest of the three correspondence games waiting for
    her move (``1-digest``), then
    ``/kasino settings`` there (``2-settings``: the digest at 18:00 in Europe/Stockholm,
    quiet hours 22 to 7, the vacation days left) and ``/kasino vacation days:3``
    (``3-vacation``: until when, and the days left)."""

    def __init__(self, anna: Match, me: Lang) -> None:
        self.anna = anna
        self.me = me

    def bare(self, text: str) -> None:
        """A command without options (the composer opens the first option at once: it is
        closed, and the command sent)."""
        page = self.anna.page
        box = page.locator("#channel-composer-input")
        box.click()
        box.type(text)
        time.sleep(0.5)
        page.keyboard.press("Tab")
        time.sleep(0.5)
        page.keyboard.press("Escape")
        time.sleep(0.3)
        page.keyboard.press("Enter")
        time.sleep(2)
        if not self.latest(self.me("Your correspondence notices")):
            with contextlib.suppress(PlaywrightError):
                page.locator("#send-message").click(timeout=3000)

    def latest(self, text: str) -> Locator | None:
        seen = self.anna.messages().filter(has_text=text)
        return seen.last if seen.count() else None

    def run(self) -> None:
        anna, me = self.anna, self.me
        title = me.ngettext("{n} game waits for you", "{n} games wait for you", 3)
        digest = anna.wait(lambda: self.latest(title), 30, "the digest")
        assert isinstance(digest, Locator)
        anna.settled()
        told = before(me("🔔 Your move in game #{id}", id="\x00")).strip()
        notice = anna.wait(lambda: self.latest(told), 30, "the turn notice by DM")
        assert isinstance(notice, Locator)
        anna.shoot("0-notice", notice)
        anna.shoot("1-digest", digest)
        self.bare("/kasino settings")
        heading = me("Your correspondence notices")
        shown = anna.wait(lambda: self.latest(heading), 30, "/kasino settings")
        assert isinstance(shown, Locator)
        anna.settled()
        anna.shoot("2-settings", shown)
        page = anna.page  # the composer opens its one option (days) at once
        box = page.locator("#channel-composer-input")
        box.click()
        box.type("/kasino vacation")
        time.sleep(0.5)
        page.keyboard.press("Tab")
        time.sleep(0.5)
        page.keyboard.type("3")
        time.sleep(0.3)
        page.keyboard.press("Enter")
        away = before(me("You are away until {when}: your correspondence clocks stand still"
                         " until then. End it early with {end}.", when="\x00", end=""))  # fmt: skip
        answer = anna.wait(lambda: self.latest(away.strip()), 30, "/kasino vacation")
        assert isinstance(answer, Locator)
        anna.settled()
        anna.shoot("3-vacation", answer)


class Ladder:
    """``--place ladder``: a ladder match of Anna (the preview's server) and Bjorn (his own
    server, "Nordic Cards"), each in a tab of their own (the Preview's "Viewing as" shows
    each of them their own server's channel): both queue, are paired, say a line and play
    the match to its end, each from their own table. Pictures: ``1-waiting`` (Anna's
    waiting message, the count of people waiting), ``2-paired`` (Bjorn's channel as the
    match begins), ``3-table-anna`` and ``3-table-bjorn`` (the same position), ``4-talk-anna``
    and ``4-talk-bjorn`` (Anna's "Good luck!" on both tables), ``5-round-summary-bjorn``
    and ``6-end-anna`` and ``6-end-bjorn``."""

    def __init__(self, anna: Match, bjorn: Match) -> None:
        self.anna, self.bjorn = anna, bjorn
        self.words = anna.words
        self.names = {"Anna": anna, "Bjorn": bjorn}

    def queue(self, side: Match) -> None:
        """``/kasino queue`` (Swedish Kasino for 2) in ``side``'s channel."""
        side.command("/kasino queue")
        time.sleep(2)
        if not side.messages().filter(has_text=self.words.queue_title).count():
            with contextlib.suppress(PlaywrightError):  # Enter stayed in an option
                side.page.locator("#send-message").click(timeout=3000)

    def waiting(self, side: Match) -> Locator | None:
        found = side.messages().filter(has_text=self.words.queue_title)
        return found.last if found.count() else None

    def to_move(self) -> str:
        """Who the latest table (Anna's) names to move ("" if none)."""
        table = self.anna.latest_table()
        with contextlib.suppress(PlaywrightError):
            text = " ".join((table.inner_text(timeout=2000) if table else "").split())
            for name in self.names:
                if f"{self.words.to_move} {name}" in text:
                    return name
        return ""

    def position(self, side: Match) -> str:
        """The table line of ``side``'s latest table (the cards on it)."""
        table = side.latest_table()
        with contextlib.suppress(PlaywrightError):
            lines = table.inner_text(timeout=2000).splitlines() if table else []
            return next((x for x in lines if x.startswith(self.words.table)), "")
        return ""

    def run(self) -> None:
        anna, bjorn, words = self.anna, self.bjorn, self.words
        bjorn.as_viewer("Bjorn")
        self.queue(anna)
        found = anna.wait(lambda: self.waiting(anna), 30, "Anna's waiting message")
        assert isinstance(found, Locator)
        time.sleep(1)
        anna.shoot("1-waiting", found)
        self.queue(bjorn)
        for side in (anna, bjorn):
            side.wait(side.latest_table, 30, "the table")
        time.sleep(2)
        bjorn.shoot("2-paired", bjorn.latest_table())
        shown = [self.position(anna), self.position(bjorn)]
        print(f"the tables: {shown}", flush=True)
        anna.shoot("3-table-anna", anna.latest_table())
        bjorn.shoot("3-table-bjorn", bjorn.latest_table())
        table = anna.latest_table()
        assert table is not None
        said = f"Anna: {words.good_luck}"
        anna.press(table, words.good_luck, lambda: anna.messages().filter(has_text=said).count(),
                   "the line")  # fmt: skip
        for side, name in ((anna, "4-talk-anna"), (bjorn, "4-talk-bjorn")):
            line = side.wait(
                lambda s=side: (f := s.messages().filter(has_text=said)).count() and f.last,
                20,
                "the line on the table",
            )
            assert isinstance(line, Locator)
            time.sleep(1)
            side.shoot(name, line)
        self.play()
        for side, name in ((anna, "6-end-anna"), (bjorn, "6-end-bjorn")):
            side.wait(side.over, 60, "the end of the match")
            time.sleep(1)
            side.shoot(name, side.messages().filter(has_text=words.game_over).last)

    def play(self) -> None:
        """The match to its end: whoever the table names plays, from their own tab, the
        first card they can and (if it takes) the first choice of what."""
        words = self.words
        summary = False
        for side in (self.anna, self.bjorn):
            table = side.latest_table()
            assert table is not None
            side.button(table, words.your_hand_button)
        moves, idle = 0, time.monotonic()
        while not self.anna.over() and moves < 400:
            name = self.to_move()
            side = self.names.get(name)
            hand = side.hand() if side else None
            if side is None or hand is None or words.choose_a_card not in side.text(hand):
                if time.monotonic() - idle > 30 and side is not None:
                    # the hand view went quiet (its token's 15 minutes): open it again
                    table = side.latest_table()
                    if table is not None:
                        side.button(table, words.your_hand_button)
                    idle = time.monotonic()
                time.sleep(0.5)
                continue
            hand = side.fresh(hand)
            before = side.text(hand)
            chosen = side.choose(hand).splitlines()[0]
            moves += 1
            idle = time.monotonic()
            print(f"move {moves}, {name}: {chosen}", flush=True)
            if not chosen.endswith((words.trail, words.krypa)):
                with contextlib.suppress(TimeoutError):
                    menu = side.wait(
                        lambda s=side: (
                            any(w in s.text(h := s.hand()) for w in words.what_does) and h
                        ),
                        8,
                        "the capture menu",
                    )
                    assert isinstance(menu, Locator)
                    side.choose(menu)
            with contextlib.suppress(TimeoutError):  # the move reached the table
                side.wait(lambda s=side, b=before: s.text(s.hand()) != b, 8, "the move")
            if not summary:
                found = (
                    self.bjorn.messages()
                    .filter(has_text=words.round_over)
                    .filter(has_not_text="Only you can see this")
                )
                if found.count():
                    self.bjorn.shoot("5-round-summary-bjorn", found.first)
                    summary = True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/kasino-screens"))
    parser.add_argument("--browser", default=CHROMIUM, help="the Chromium to drive")
    parser.add_argument("--variant", default="swedish", choices=list(VARIANT_NAMES))
    parser.add_argument("--locale", default="en-US", help="Anna's client language (sv-SE, fi)")
    parser.add_argument("--server-locale", default="en-US", help="the server's language")
    parser.add_argument(
        "--four-colour", action="store_true", help="the four-colour deck (♦ blue, ♣ green)"
    )
    parser.add_argument(
        "--seats", type=int, default=None, help="players with Anna (default 2; Krypkasino 6)"
    )
    parser.add_argument(
        "--puzzle", action="store_true", help="only /kasino puzzle: the position and an answer"
    )
    parser.add_argument(
        "--lesson", default="", choices=["", *VARIANT_NAMES], help="picture /kasino learn"
    )
    parser.add_argument(
        "--target", type=int, default=TARGET, help=f"the match's target (default {TARGET})"
    )
    parser.add_argument(
        "--place",
        default="server",
        choices=["server", "group-dm", "foreign-server", "ladder", "games", "dm"],
        help="where the match is played: the server, or where the bot only answers clicks;"
        " ladder: a ladder match of Anna and Bjorn, each in their own server; games: Anna's"
        " /kasino games with her games everywhere; dm: Anna's DM with the bot (her daily"
        " digest, /kasino settings and vacation), no match",
    )
    parser.add_argument(
        "--analysis",
        action="store_true",
        help="after the match only its analysis: the summary and a move's page",
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    words = Words(lang_of(args.locale), lang_of(args.server_locale))
    deck = "four" if args.four_colour else "two"
    with (
        preview(args.locale, args.server_locale, deck, args.place) as url,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=args.browser, args=CHROMIUM_ARGS)
        try:
            # the Preview's content security policy refuses inline styles: the light theme
            # is a stylesheet added by this script
            context = browser.new_context(viewport=VIEWPORT, bypass_csp=True)
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector("#channel-composer-input")
            seats = args.seats or (seat_limit(args.variant) if args.variant == "krypkasino" else 2)
            friend = "" if args.place in ("server", "ladder", "dm") else "Bjorn"  # he plays there
            match = Match(page, args.out, args.variant, words, seats, friend, args.place)
            match.target = args.target
            try:
                if args.place == "ladder":  # a second tab, as Bjorn
                    other = context.new_page()
                    other.goto(url)
                    other.wait_for_selector("#channel-composer-input")
                    friend = Match(other, args.out, words=words)
                    friend.saved = match.saved  # one list of pictures
                    Ladder(match, friend).run()
                elif args.place == "games":
                    match.games_list()
                elif args.place == "dm":
                    DirectMessages(match, lang_of(args.locale)).run()
                elif args.puzzle:
                    match.puzzle()
                elif args.lesson:
                    match.lesson(args.lesson)
                elif args.analysis:
                    match.play()
                    match.analysis()
                elif args.place != "server":  # no server's boards and history there
                    match.play()
                    match.profile()
                    match.global_board()
                else:
                    match.play()
                    match.profile()
                    match.board()
                    match.global_board()
                    match.records()
                    match.stop()
            except (PlaywrightError, TimeoutError):
                page.screenshot(path=str(args.out / "failure.png"))  # what the page showed
                raise
        finally:
            browser.close()
    for path in match.saved:
        print(path)


if __name__ == "__main__":
    main()
