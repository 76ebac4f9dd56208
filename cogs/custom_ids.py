"""custom_ids and select values: built here, and read here, strictly.

This is the one place where what a client sends back (a component's custom_id and the
values chosen in a select) is parsed. Whatever does not fit exactly, such as a number
that is not plain ASCII digits, a number out of range, an unknown kind or action, or the
wrong count of values, raises :class:`BadComponent` and is refused politely by the cog
with nothing changed. No Discord import, so it is tested on its own.

custom_id formats (``k`` for Kasino)::

    k:lobby:<game>:<join|leave|start|cancel|add-<level>|remove-computer|hints>
    k:hand:<game>:<version>             Your hand / Refresh / Back
    k:hint:<game>:<version>             Hint (games with hints on)
    k:card:<game>:<version>:<render>    select: which card to play (value: hand position)
    k:take:<game>:<version>:<card>:<render>   select: c<n> (ranked capture), trail, pick
    k:pick:<game>:<version>:<card>:<render>   multi-select: table positions (then pile tops)
    k:which:<game>:<version>:<card>:<positions mask>:<render>   select: c<n>, the n-th
                                        move of the card using exactly those items (builds)
    k:rematch:<game>
    k:check:<game>                      "How to check" on a lobby, table, end message or
                                        replay: the game's values shown so far, privately
    k:forget:<user>:<yes|no>            /kasino forget-me's confirmation (that user's only)
    k:scores:<variant|->:<target>:<page>[:<p|c>[:<r|w>]]   people / computers board, by
                                        rating or wins (without it: wins, as before)
    k:show:<profile|versus>:<viewer>:<subject>:<variant|->   Show in channel, on a private
                                        profile or head-to-head (only ``viewer`` may)
    k:rules:<variant>:<render>          select: another variant's rules (value: its key,
                                        never the one shown)
    k:history:<member|0>:<variant|->:<page>    a history page (member 0: the whole server)
    k:histpick:<member|0>:<variant|->:<page>:<render>   select: which match of the page
                                        to replay (value: its game id)
    k:replay:<game>:<step>:<open|first|back|next|last>   a replay at a step (0: the
                                        first deal); ``open`` sends a new private replay
    k:jump:<game>:<render>              select: the step a round or deal starts at
    k:x<kind>:<owner>:<id>:<version>…   a practice position's hand view (cogs.learning.practice):
                                        ``xhand``, ``xcard``, ``xtake``, ``xpick`` and
                                        ``xwhich``, each with the fields of the game kind
                                        without the ``x`` after ``<owner>`` (one of
                                        :data:`PRACTICE_OWNERS`): ``<id>`` is the owner's
                                        position id, ``<version>`` its version
    k:learn:<variant>:play              a finished lesson's "Play the easy computer"
    k:analyse:<game>                    Analyse my moves (the clicker's own seat, on a
                                        finished match's end message or replay)
    k:review:<game>:<seat>:<page>:<slot>   a page of a private analysis (0: the summary,
                                        n: the n-th move analysed); ``slot`` tells the
                                        buttons to the same page apart (summary, back,
                                        next, c1-c3: the costliest moves)
    k:tour:<tournament>:<join|leave|start|cancel|check>   a tournament's sign-up buttons
                                        (``check``, How to check, also on its podium)
    k:tboard:<page>                     a page of the server's tournaments board
    k:gscores:<variant>:<page>:<p|c>    a page of the global rating board of one game
                                        (people / computers), over every server
    k:say:<game>:<line|mute>            a ladder match's table talk (bot.talk): say a
                                        canned line (a key of ``LINES``), or toggle the
                                        clicker's own "Mute table talk"
    k:games:<page>                      a page of the clicker's own ``/kasino games`` (the
                                        games they sit in, everywhere)

``<render>`` (every select's last field) is new at each rendering of a select: 1 to 8 of
``0-9a-z``, from :func:`render_tag`. The hand view is one ephemeral message edited in
place, step after step (card, take menu, Back, a refused choice, the next turn), and a
client keeps a select's chosen value across edits while its custom_id stays the same: it
would show a choice nobody made in the new menu, and picking that choice again would send
nothing. A custom_id that is new at every rendering makes every menu start empty. The
select formats without ``<render>`` (from before it) are still read: their game version
decides whether they are current, as before.
"""

from __future__ import annotations

import dataclasses
import re
import threading
import time

from bot.ai import LEVELS
from bot.models import VARIANT_NAMES
from bot.records.seal import CUT_MAX
from bot.talk import LINES, MUTE

BUTTON_KINDS = (
    "lobby", "hand", "hint", "rematch", "scores", "forget", "show", "history", "replay",
    "analyse", "review",
)  # fmt: skip
SHOW_KINDS = ("profile", "versus")
SELECT_KINDS = ("card", "take", "pick", "which", "rules", "histpick", "jump", "cut", "tcut", "rcut")
MAX_ID = 2**63 - 1  # Discord snowflakes and SQLite integers are signed 64-bit
MAX_VERSION = 2**31 - 1
MAX_OPTIONS = 25  # Discord's limit of options in one select
MAX_PAGE = 1000
MAX_STEP = 20_000  # a replay's steps (bot.records.record.MAX_MOVES)
REPLAY_SLOTS = ("open", "first", "back", "next", "last")
LOBBY_ACTIONS = frozenset(
    ("join", "leave", "start", "cancel", "remove-computer", "hints", *(f"add-{x}" for x in LEVELS))
)
TAKE_WORDS = ("trail", "pick")

_NUMBER = re.compile(r"0|[1-9][0-9]{0,18}", re.ASCII)
_CAPTURE = re.compile(r"c(0|[1-9][0-9]?)", re.ASCII)
_RENDER = re.compile(r"[0-9a-z]{1,8}", re.ASCII)
RENDER_SPAN = 36**8  # render tags are base 36, at most 8 digits
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
# kind -> the number of fields after the kind
_FIELDS = {
    "lobby": 2, "hand": 2, "hint": 2, "card": 2, "take": 3, "pick": 3, "which": 4, "rematch": 1,
    "rules": 1, "forget": 2, "history": 3, "histpick": 3, "replay": 3, "jump": 1,
    "analyse": 1, "review": 4, "cut": 1, "tcut": 1, "rcut": 1, "cutfor": 1,
    "check": 1,
}  # fmt: skip
FORGET_ANSWERS = ("yes", "no")
# A practice position's hand view (cogs.learning.practice): the game kinds' menus, another
# namespace.
PRACTICE_OWNERS = ("lesson", "puzzle")
PRACTICE_KINDS = {
    "xhand": "hand", "xcard": "card", "xtake": "take", "xpick": "pick", "xwhich": "which",
}  # fmt: skip
BUTTON_KINDS += ("xhand",)
# The ladder's waiting message (cogs.ladder): ``k:ladder:leave:<user>`` and
# ``k:ladder:computer:<user>``, its owner's
LADDER_ACTIONS = ("leave", "computer")
BUTTON_KINDS += ("ladder",)
SELECT_KINDS += ("xcard", "xtake", "xpick", "xwhich")
BUTTON_KINDS += ("learn",)
BUTTON_KINDS += ("tboard",)  # the server's tournaments board (/kasino tournaments)
LEARN_ACTIONS = ("play",)
REVIEW_SLOTS = ("summary", "back", "next", "c1", "c2", "c3")
MAX_SEAT = 5  # six seats at most (Krypkasino)
MAX_REVIEW_PAGE = MAX_STEP  # a page per move analysed
# A tournament's sign-up message (cogs.tournaments.commands): players join or leave, the organiser
# starts or cancels.
BUTTON_KINDS += ("tour",)
BUTTON_KINDS += ("cutfor",)  # a finished match's "Cut the rematch" (its menu, privately)
BUTTON_KINDS += ("check",)  # "How to check" a game's deal and moves (privately)
BUTTON_KINDS += ("gscores",)  # the global rating board (/kasino scores scope:global)
TOUR_ACTIONS = ("join", "leave", "start", "cancel", "check")
BUTTON_KINDS += ("say",)  # a ladder match's table talk: a canned line, or the mute toggle
SAY_ACTIONS = (*LINES, MUTE)
BUTTON_KINDS += ("games",)  # a page of one's own /kasino games


class BadComponent(ValueError):
    """A custom_id or value that the bot never made; refused, nothing changed."""


@dataclasses.dataclass(frozen=True, slots=True)
class ScoresPage:
    """A leaderboard page: variant (``None``: all), target (``None``: all), page, board;
    ``everywhere``: the global rating board (over every server) instead of the server's."""

    variant: str | None
    target: int | None
    page: int
    computers: bool
    rating: bool = False
    everywhere: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class ShowCard:
    """ "Show in channel" on a private profile (``subject``'s) or head-to-head (``viewer``
    against ``subject``): only ``viewer``, who asked for it, may press it."""

    kind: str
    viewer: int
    subject: int
    variant: str | None


@dataclasses.dataclass(frozen=True, slots=True)
class HistoryPage:
    """A history page: whose matches (``None``: the whole server's), of which variant
    (``None``: all), which page."""

    member: int | None
    variant: str | None
    page: int


@dataclasses.dataclass(frozen=True, slots=True)
class Click:
    """A parsed component interaction.

    ``game`` and ``version`` name the state the component was made for; ``card`` is the
    chosen hand position (take, pick); ``action`` the lobby action; ``choice`` the take
    menu's word (``trail``, ``pick`` or ``capture``) and ``numbers`` the select's numbers
    (card: the hand position; take and which: the ranked move; pick: table positions,
    sorted); ``picked`` the positions a ``which`` menu was made for; ``render`` a select's
    render tag (empty on the formats from before it); ``variant`` the variant whose rules a
    ``rules`` menu asks for; ``user`` the person a ``forget`` confirmation was made for.
    """

    kind: str
    game: int = 0
    version: int | None = None
    card: int | None = None
    action: str = ""
    choice: str = ""
    numbers: tuple[int, ...] = ()
    scores: ScoresPage | None = None
    show: ShowCard | None = None
    picked: tuple[int, ...] = ()
    render: str = ""
    variant: str = ""
    user: int = 0
    history: HistoryPage | None = None
    step: int = 0
    slot: str = ""
    owner: str = ""  # a practice kind's owner (PRACTICE_OWNERS); ``game`` is its id
    seat: int = 0  # an analysis page's seat (whose moves)
    page: int = 0  # a tournaments board's or one's games' page (1 first)

    @property
    def base(self) -> str:
        """The game kind a practice kind mirrors (``xcard``: ``card``), else the kind."""
        return PRACTICE_KINDS.get(self.kind, self.kind)


def custom_id(kind: str, *parts: object) -> str:
    """Build a custom_id such as ``k:take:12:7:3``."""
    return ":".join(("k", kind, *map(str, parts)))


_render_lock = threading.Lock()
_last_render = 0


def render_tag() -> str:
    """A select's render tag: new at every call, in this process and (following the wall
    clock in milliseconds) after a restart. Base 36, at most 8 digits (they repeat after
    89 years)."""
    global _last_render
    with _render_lock:
        _last_render = max(_last_render + 1, time.time_ns() // 1_000_000)
        value = _last_render % RENDER_SPAN
    digits = ""
    while True:
        value, digit = divmod(value, 36)
        digits = _DIGITS[digit] + digits
        if not value:
            return digits


def number(text: object, high: int, low: int = 0) -> int:
    """A plain ASCII decimal from ``low`` to ``high``, else :class:`BadComponent`."""
    if not isinstance(text, str) or not _NUMBER.fullmatch(text):
        raise BadComponent(f"not a number: {text!r}")
    value = int(text)
    if not low <= value <= high:
        raise BadComponent(f"out of range: {value}")
    return value


def parse_click(text: object, values: object = None) -> Click:
    """Read a whole component interaction: its custom_id and (for selects) its values."""
    if not isinstance(text, str) or len(text) > 100:
        raise BadComponent("not a custom_id")
    parts = text.split(":")
    if len(parts) < 2 or parts[0] != "k":
        raise BadComponent(f"not a Kasino custom_id: {text!r}")
    kind, fields = parts[1], parts[2:]
    if kind in PRACTICE_KINDS:
        return _practice(kind, fields, values)
    if kind == "learn":
        return _learn(fields, values)
    if kind == "tour":
        return _tour(fields, values)
    if kind == "scores":
        _no_values(values)
        return Click("scores", scores=_scores(fields))
    if kind == "show":
        _no_values(values)
        return Click("show", show=_show(fields))
    if kind == "gscores":
        _no_values(values)
        return Click("gscores", scores=_global_scores(fields))
    if kind == "ladder":
        _no_values(values)
        if len(fields) != 2 or fields[0] not in LADDER_ACTIONS:
            raise BadComponent(f"not a ladder button: {text!r}")
        return Click("ladder", user=number(fields[1], MAX_ID, 1), action=fields[0])
    if kind == "say":
        _no_values(values)
        if len(fields) != 2 or fields[1] not in SAY_ACTIONS:
            raise BadComponent(f"not a table talk button: {text!r}")
        return Click("say", number(fields[0], MAX_ID, 1), action=fields[1])
    if kind == "games":
        _no_values(values)
        if len(fields) != 1:
            raise BadComponent("not a page of one's games")
        return Click("games", page=number(fields[0], MAX_PAGE, 1))
    if kind == "tboard":
        _no_values(values)
        if len(fields) != 1:
            raise BadComponent("not a tournaments board page")
        return Click("tboard", page=number(fields[0], MAX_PAGE, 1))
    render = ""
    if kind in SELECT_KINDS and len(fields) == _FIELDS.get(kind, -1) + 1:
        render = fields.pop()
        if not _RENDER.fullmatch(render):
            raise BadComponent(f"not a render tag: {render!r}")
    if kind == "rules":
        return Click("rules", variant=_rules(fields, values), render=render)
    if kind in ("history", "histpick", "replay", "jump"):
        return _records(kind, fields, values, render, text)
    if kind in ("analyse", "review"):
        return _analysis(kind, fields, values, text)
    if kind not in _FIELDS or len(fields) != _FIELDS[kind]:
        raise BadComponent(f"unknown custom_id {text!r}")
    game = number(fields[0], MAX_ID, 1)
    if kind == "lobby":
        if fields[1] not in LOBBY_ACTIONS:
            raise BadComponent(f"unknown lobby action {fields[1]!r}")
        _no_values(values)
        return Click(kind, game, action=fields[1])
    if kind in ("rematch", "cutfor", "check"):
        _no_values(values)
        return Click(kind, game)
    if kind in ("cut", "tcut", "rcut"):  # a lobby's or sign-up's "Cut the deck": one number
        (value,) = _exactly_one(_values(values))
        return Click(kind, game, numbers=(number(value, CUT_MAX, 1),), render=render)
    if kind == "forget":
        if fields[1] not in FORGET_ANSWERS:
            raise BadComponent(f"not an answer: {fields[1]!r}")
        _no_values(values)
        return Click(kind, user=game, action=fields[1])
    version = number(fields[1], MAX_VERSION)
    if kind in BUTTON_KINDS:
        _no_values(values)
        return Click(kind, game, version)
    card = number(fields[2], MAX_OPTIONS - 1) if len(fields) >= 3 else None
    if kind == "which":
        mask = number(fields[3], 2**MAX_OPTIONS - 1, 1)
        picked = tuple(i for i in range(MAX_OPTIONS) if mask >> i & 1)
        (value,) = _exactly_one(_values(values))
        click = Click(kind, game, version, card, numbers=(_ranked(value),), picked=picked)
    else:
        click = _select(kind, game, version, card, _values(values))
    return dataclasses.replace(click, render=render)


def positions_mask(positions: tuple[int, ...]) -> int:
    """Table positions as the bit mask a ``which`` custom_id carries."""
    return sum(1 << i for i in set(positions))


def _ranked(value: str) -> int:
    """``c<n>``: the n-th option of a ranked menu."""
    found = _CAPTURE.fullmatch(value) if isinstance(value, str) else None
    if found is None or int(found[1]) >= MAX_OPTIONS:
        raise BadComponent(f"not a capture choice: {value!r}")
    return int(found[1])


def _select(kind: str, game: int, version: int, card: int | None, values: list[str]) -> Click:
    if kind == "card":
        (value,) = _exactly_one(values)
        return Click(kind, game, version, numbers=(number(value, MAX_OPTIONS - 1),))
    if kind == "take":
        (value,) = _exactly_one(values)
        if value in TAKE_WORDS:
            return Click(kind, game, version, card, choice=value)
        return Click(kind, game, version, card, choice="capture", numbers=(_ranked(value),))
    positions = tuple(sorted({number(v, MAX_OPTIONS - 1) for v in values}))
    if len(positions) != len(values) or not positions:
        raise BadComponent("table positions must be distinct")
    return Click(kind, game, version, card, numbers=positions)


def _scores(fields: list[str]) -> ScoresPage:
    if len(fields) == 3:
        fields = [*fields, "p"]  # buttons from before the computers board
    if len(fields) == 4:
        fields = [*fields, "w"]  # buttons from before ratings
    if len(fields) != 5 or fields[3] not in ("p", "c") or fields[4] not in ("r", "w"):
        raise BadComponent("not a leaderboard page")
    variant = None if fields[0] == "-" else fields[0]
    if variant is not None and variant not in VARIANT_NAMES:
        raise BadComponent(f"unknown variant {variant!r}")
    target = number(fields[1], 100)
    if 0 < target < 5:
        raise BadComponent(f"no such target: {target}")
    page = number(fields[2], MAX_PAGE, 1)
    return ScoresPage(variant, target or None, page, fields[3] == "c", fields[4] == "r")


def _global_scores(fields: list[str]) -> ScoresPage:
    """A global rating board's page: always one game's, by rating, every target."""
    if len(fields) != 3 or fields[0] not in VARIANT_NAMES or fields[2] not in ("p", "c"):
        raise BadComponent("not a global leaderboard page")
    page = number(fields[1], MAX_PAGE, 1)
    return ScoresPage(fields[0], None, page, fields[2] == "c", rating=True, everywhere=True)


def _show(fields: list[str]) -> ShowCard:
    if len(fields) != 4 or fields[0] not in SHOW_KINDS:
        raise BadComponent("not a Show in channel button")
    viewer, subject = number(fields[1], MAX_ID, 1), number(fields[2], MAX_ID, 1)
    variant = None if fields[3] == "-" else fields[3]
    if variant is not None and variant not in VARIANT_NAMES:
        raise BadComponent(f"unknown variant {variant!r}")
    return ShowCard(fields[0], viewer, subject, variant)


def _rules(fields: list[str], values: object) -> str:
    """The rules menu: the variant shown, and the one chosen (another known variant)."""
    if len(fields) != 1 or fields[0] not in VARIANT_NAMES:
        raise BadComponent("not a rules menu")
    (value,) = _exactly_one(_values(values))
    if value not in VARIANT_NAMES or value == fields[0]:
        raise BadComponent(f"not another variant: {value!r}")
    return value


def _records(kind: str, fields: list[str], values: object, render: str, text: str) -> Click:
    """History pages and their match menu, replay steps and the replay's jump menu."""
    if len(fields) != _FIELDS[kind] or (kind in SELECT_KINDS and not render):
        raise BadComponent(f"unknown custom_id {text!r}")
    if kind == "replay":
        _no_values(values)
        if fields[2] not in REPLAY_SLOTS:
            raise BadComponent(f"unknown replay button {fields[2]!r}")
        game = number(fields[0], MAX_ID, 1)
        return Click(kind, game, step=number(fields[1], MAX_STEP), slot=fields[2])
    if kind == "jump":
        (value,) = _exactly_one(_values(values))
        game = number(fields[0], MAX_ID, 1)
        return Click(kind, game, step=number(value, MAX_STEP), render=render)
    member = number(fields[0], MAX_ID)
    variant = None if fields[1] == "-" else fields[1]
    if variant is not None and variant not in VARIANT_NAMES:
        raise BadComponent(f"unknown variant {variant!r}")
    page = HistoryPage(member or None, variant, number(fields[2], MAX_PAGE, 1))
    if kind == "history":
        _no_values(values)
        return Click(kind, history=page)
    (value,) = _exactly_one(_values(values))
    return Click(kind, number(value, MAX_ID, 1), history=page, render=render)


def _practice(kind: str, fields: list[str], values: object) -> Click:
    """A practice position's menu: its owner, then exactly the fields of the game kind it
    mirrors (read by the same code)."""
    if not fields or fields[0] not in PRACTICE_OWNERS:
        raise BadComponent(f"not a practice owner: {fields[:1]!r}")
    base = PRACTICE_KINDS[kind]
    if base in SELECT_KINDS and len(fields) != _FIELDS[base] + 2:
        raise BadComponent("a practice menu carries its render tag")  # no formats from before
    click = parse_click(":".join(("k", base, *fields[1:])), values)
    return dataclasses.replace(click, kind=kind, owner=fields[0])


def _learn(fields: list[str], values: object) -> Click:
    """A finished lesson's button: the lesson's variant and the action."""
    if len(fields) != 2 or fields[0] not in VARIANT_NAMES or fields[1] not in LEARN_ACTIONS:
        raise BadComponent("not a lesson button")
    _no_values(values)
    return Click("learn", variant=fields[0], action=fields[1])


def _tour(fields: list[str], values: object) -> Click:
    """A tournament's sign-up button: the tournament (``game``) and the action."""
    if len(fields) != 2 or fields[1] not in TOUR_ACTIONS:
        raise BadComponent("not a tournament button")
    _no_values(values)
    return Click("tour", number(fields[0], MAX_ID, 1), action=fields[1])


def _analysis(kind: str, fields: list[str], values: object, text: str) -> Click:
    """Analyse my moves, and the pages of an analysis (``seat``: whose moves; ``step``:
    the page, 0 the summary; ``slot``: which button of the page)."""
    _no_values(values)
    if len(fields) != _FIELDS[kind]:
        raise BadComponent(f"unknown custom_id {text!r}")
    game = number(fields[0], MAX_ID, 1)
    if kind == "analyse":
        return Click(kind, game)
    if fields[3] not in REVIEW_SLOTS:
        raise BadComponent(f"unknown analysis button {fields[3]!r}")
    seat = number(fields[1], MAX_SEAT)
    page = number(fields[2], MAX_REVIEW_PAGE)
    return Click(kind, game, step=page, slot=fields[3], seat=seat)


def _values(values: object) -> list[str]:
    if not isinstance(values, list) or not 1 <= len(values) <= MAX_OPTIONS:
        raise BadComponent("a select sends from 1 to 25 values")
    if not all(isinstance(v, str) and len(v) <= 100 for v in values):
        raise BadComponent("select values are short strings")
    return values


def _exactly_one(values: list[str]) -> list[str]:
    if len(values) != 1:
        raise BadComponent("this select takes one value")
    return values


def _no_values(values: object) -> None:
    if values not in (None, []):
        raise BadComponent("a button sends no values")
