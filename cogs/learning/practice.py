"""Private practice: one person plays a given position with a real game's hand menus.

A lesson step (:mod:`cogs.learning.lessons`) or a puzzle is a *practice position*: an engine
:class:`~bot.engine.Round` whose seat to move is the learner's, shown in an ephemeral
message with exactly the menus of a game's hand view (the card, what it takes, choosing
the items yourself, which move: :class:`cogs.play.hands.HandFlow`'s flow, run by
:class:`PracticeFlow` with other hooks). The chosen move is not played on any game: the
position's *owner* judges it.

Opening a position for a user
    Build a :class:`Practice` (``owner`` one of :data:`cogs.custom_ids.PRACTICE_OWNERS`,
    ``id`` and ``version`` from the owner's storage row, ``user_id`` the only person who
    may play it, ``variant``, ``round`` with ``round.to_move`` the learner's seat, and the
    texts ``title`` and ``task`` as functions of the language) and call
    ``await flow.show(interaction, practice, note="")`` where ``flow`` is the Kasino cog's
    ``practice`` (:class:`PracticeFlow`). It answers privately: in place when the click
    came from the user's own ephemeral message (a "Next" button of theirs), else as a new
    ephemeral message (an edit when the interaction was deferred).

An owner
    Any object with the :class:`PracticeOwner` shape, registered once with
    ``flow.register(owner)`` (the Kasino cog does it when it makes the owner):

    * ``name``: its :data:`~cogs.custom_ids.PRACTICE_OWNERS` word (``"lesson"``,
      ``"puzzle"``), the namespace of its menus' custom_ids;
    * ``async load(practice_id, user_id) -> Practice | None``: the position as it stands
      now (from storage: it must work after a restart), or ``None`` when there is none
      any more (finished, forgotten). The flow refuses the click when the position's
      ``user_id`` is not the clicker's;
    * ``async judge(practice, move, t) -> Verdict``: the learner chose ``move``, a legal
      move of ``practice.round`` (an illegal one is refused with the engine's reason before
      the judge is asked). Answer :meth:`Verdict.refuse` with why, in the language ``t``
      (nothing may change: the position is shown again with the explanation and its menus
      offered again), or :meth:`Verdict.accept` with the sentence to show after the move
      and the next position (``next``: its version must be new) or, with no next
      position, the view to show under the text (for example "play a real game"). An
      accepted move must be committed (the owner's row advanced, its version bumped)
      *before* the judge returns: the flow answers right after. A judge that finds the
      row moved on meanwhile (another process) answers :meth:`Verdict.stale` (the learner is
      told the position is over or was replaced; nothing is shown as judged).

What the learner sees
    The message (:func:`practice_content`): the title in bold, the note (``"✅ " + text``
    after an accepted move, ``"❌ " + why`` and the verdict's ``again`` (by default "Nothing
    was played: try again."; a puzzle's says its answer is given) after a refused one, the
    engine's reason after an illegal one, the "out of date" notice after a stale click),
    the task, the hand, the table (builds with their owners' names: the
    learner's display name, else :attr:`Practice.names`), the step's prompt, then the
    menus and a Refresh button. An accepted move with no next position shows
    ``"✅ " + text`` and :attr:`Verdict.view` (or no components).

Ids and versions
    The menus' custom_ids are the game kinds with an ``x`` and the owner after the kind:
    ``k:xcard:<owner>:<id>:<version>:<render>``, ``k:xtake:…``, ``k:xpick:…``,
    ``k:xwhich:…``, ``k:xhand:<owner>:<id>:<version>`` (Back / Refresh), parsed strictly in
    :mod:`cogs.custom_ids`. A click whose version is not the position's current one is
    stale: the fresh position is shown with the usual "out of date" note and nothing is
    judged. A click from another person, or not on its user's own private message, or
    with a forged id, gets the usual friendly refusal. The clicks of one position are
    handled one at a time in this process (a double click is judged once; the second
    finds the version moved on).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Protocol

import discord

from bot.engine import IllegalMove, Match, Move, Round
from bot.i18n import EN, N_, Lang
from bot.models import Game, GameOptions, Seat, Status
from bot.offloop import Menus
from bot.render import BUILDING_STEP_PROMPTS, STEP_PROMPTS, CardInk, sorted_cards, table_text
from cogs.common import NOT_MINE, STALE, own_view, private, refuse
from cogs.custom_ids import PRACTICE_OWNERS, Click
from cogs.play.hands import HandFlow
from cogs.play.views import MenuIds

PRACTICE_GONE = N_("This practice position is over or was replaced, so nothing happened.")
TRY_AGAIN = N_("Nothing was played: try again.")
OPPONENT = N_("Opponent")
PARTNER = N_("Partner")
# the practice game's key in Game.extra (the flow's hooks read their position there)
_KEY = "practice"


def _no_task(t: Lang) -> str:
    return ""


@dataclass(frozen=True, slots=True)
class Practice:
    """A position one person practises.

    ``owner`` and ``id`` name it (the owner's row), ``version`` is its state (a menu made
    at another version is stale), ``user_id`` the only person who may play it,
    ``variant`` a :data:`bot.models.VARIANT_NAMES` key (its name is shown), ``round`` the
    position (the learner plays ``round.to_move``). ``title`` and ``task`` say, in a
    language, what this is (``Lesson: Casino · step 2 of 9``) and what to do in a
    sentence. ``names`` names the other seats by seat number (default "Opponent", or
    "Partner" for the learner's partner in a team game).
    """

    owner: str
    id: int
    version: int
    user_id: int
    variant: str
    round: Round
    title: Callable[[Lang], str]
    task: Callable[[Lang], str] = _no_task
    names: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.owner not in PRACTICE_OWNERS:
            raise ValueError(f"unknown practice owner {self.owner!r}")


@dataclass(frozen=True, slots=True)
class Verdict:
    """A judge's answer to a move (see the module's docstring).

    ``accepted``: the move is right (already committed by the owner); ``text`` is said
    after it (or, refused, why it is wrong), in the learner's language; ``next`` the
    position to show now (``None`` after an accepted move: the practice is over and
    ``view`` is shown under ``text``); ``gone``: the position moved on meanwhile.
    """

    accepted: bool
    text: str = ""
    next: Practice | None = None
    view: discord.ui.View | None = None
    gone: bool = False
    again: str = TRY_AGAIN

    @classmethod
    def refuse(cls, why: str, again: str = TRY_AGAIN) -> Verdict:
        """The move is not the one asked for: ``why``, nothing changed; ``again`` (a
        constant, translated when shown) says what the learner may do now."""
        return cls(False, why, again=again)

    @classmethod
    def accept(
        cls, text: str, next: Practice | None = None, view: discord.ui.View | None = None
    ) -> Verdict:
        """The move is right and committed: ``text``, then ``next`` (or the end)."""
        return cls(True, text, next, view)

    @classmethod
    def stale(cls) -> Verdict:
        """The position moved on before this move could be judged."""
        return cls(False, gone=True)


class PracticeOwner(Protocol):
    """What owns practice positions: a lesson, the puzzle of the day."""

    name: str

    async def load(self, practice_id: int, user_id: int) -> Practice | None:
        """The position ``practice_id`` as it stands now (``None``: no such position)."""
        ...

    async def judge(self, practice: Practice, move: Move, t: Lang) -> Verdict:
        """Judge a legal move of the position (see the module's docstring)."""
        ...


def practice_ids(owner: str) -> MenuIds:
    """The menus' custom_id namespace of an owner's positions."""
    return MenuIds("xcard", "xtake", "xpick", "xwhich", "xhand", head=(owner,))


def practice_game(
    practice: Practice, learner: str, t: Lang = EN, guild_id: int = 0, channel_id: int = 0
) -> Game:
    """The position as an in-memory game the hand view's menus read (never stored): the
    learner's seat named ``learner``, the others by :attr:`Practice.names`; in the server
    and channel it is shown in (whose deck it is drawn with)."""
    rnd = practice.round
    seat = rnd.to_move
    seats = []
    for index in range(rnd.players):
        if index == seat:
            seats.append(Seat(practice.user_id, learner))
            continue
        partner = rnd.rules.teams and rnd.side_of(index) == rnd.side_of(seat)
        seats.append(Seat(None, practice.names.get(index) or t(PARTNER if partner else OPPONENT)))
    options = GameOptions(variant=practice.variant, teams=rnd.rules.teams)
    match = Match(rnd.rules, rnd.players, 0, rnd, [0] * rnd.rules.sides(rnd.players))
    return Game(
        id=practice.id,
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=practice.user_id,
        options=options,
        seats=seats,
        status=Status.PLAYING,
        version=practice.version,
        match=match,
        extra={_KEY: practice},
    )


def practice_content(
    practice: Practice, game: Game, note: str, step: str, ink: CardInk, t: Lang
) -> str:
    """The practice message's text: the title, the note (a verdict, the stale notice),
    the task, the hand and the table, and the step's prompt."""
    rnd = game.match.round
    lines = [f"**{practice.title(t)}**"]
    if note:
        lines.append(ink.line(note))
    task = practice.task(t)
    if task:
        lines.append(ink.line(task))
    hand = ink.cards(sorted_cards(rnd.hands[rnd.to_move]), empty=t("(empty)"))
    lines.append(t("**Your hand:** {cards}", cards=hand))
    lines.append(t("**Table:** {table}", table=table_text(game, ink.card, t)))
    prompts = BUILDING_STEP_PROMPTS if rnd.rules.builds else STEP_PROMPTS
    lines.append(t(prompts.get(step, STEP_PROMPTS["card"]), due=""))
    return "\n".join(lines)


def refused_note(why: str, again: str) -> str:
    """The note over a refused move: ``❌``, why, and what to do now. A one-line why is
    followed on its line; a longer one (a puzzle's verdict) gets ``again`` on a line of
    its own and an empty line that sets the note apart from the position under it."""
    why = why.strip()
    if "\n" not in why:
        return f"❌ {why} {again}"
    return f"❌ {why}\n{again}\n"


class PracticeFlow(HandFlow):
    """The hand flow on practice positions: the same menus and steps, the position from
    its owner and the chosen move judged by it (see the module's docstring)."""

    def __init__(self, hand_flow: HandFlow) -> None:
        super().__init__(hand_flow.games, hand_flow.table, hand_flow.hands)
        self.owners: dict[str, PracticeOwner] = {}
        self._menus: dict[str, Menus] = {}
        self._locks: dict[tuple[str, int], tuple[asyncio.Lock, list[int]]] = {}

    def register(self, owner: PracticeOwner) -> None:
        """Serve the clicks of ``owner``'s positions."""
        if owner.name not in PRACTICE_OWNERS:
            raise ValueError(f"unknown practice owner {owner.name!r}")
        self.owners[owner.name] = owner
        self._menus[owner.name] = Menus()

    def close(self) -> None:
        """Stop the menus' workers."""
        for menus in self._menus.values():
            menus.close()

    def drop_kept(self) -> None:
        """Forget every kept menu and snapshot (someone was forgotten)."""
        for menus in self._menus.values():
            menus.drop_kept()

    # ------------------------------------------------------------------ hooks

    def ids_for(self, game: Game) -> MenuIds:
        """The custom_id namespace of the position's owner."""
        return practice_ids(game.extra[_KEY].owner)

    def menus_for(self, game: Game) -> Menus:
        """Each owner's positions have their own menus (their ids are the owner's)."""
        return self._menus[game.extra[_KEY].owner]

    def content(self, game: Game, seat: int, note: str, step: str, ink: CardInk, t: Lang) -> str:
        """The practice message's text (:func:`practice_content`)."""
        return practice_content(game.extra[_KEY], game, note, step, ink, t)

    def remember(self, game: Game, interaction: discord.Interaction) -> None:
        """A practice message does not follow anything: nothing to remember."""

    async def play(
        self, interaction: discord.Interaction, game: Game, seat: int, move: Move
    ) -> None:
        """The chosen move: refused with the engine's reason when illegal, else judged;
        a refused one shows the position again with why, an accepted one what follows."""
        practice: Practice = game.extra[_KEY]
        t = private(interaction)
        ink = self.ink(interaction, game)
        try:
            practice.round.copy().play(move)
        except IllegalMove as error:
            await self.send_hand(interaction, game, seat, "⚠️ " + t.reason(error.reason, ink.label))
            return
        verdict = await self.owners[practice.owner].judge(practice, move, t)
        if verdict.gone:
            await refuse(interaction, PRACTICE_GONE)
        elif not verdict.accepted:
            note = refused_note(verdict.text, t(verdict.again))
            await self.send_hand(interaction, game, seat, note)
        elif verdict.next is not None:
            await self.show(interaction, verdict.next, f"✅ {verdict.text}")
        else:
            await self.answer_privately(interaction, game, f"✅ {verdict.text}", verdict.view)

    # ------------------------------------------------------------ entry points

    def game_of(self, interaction: discord.Interaction, practice: Practice) -> Game:
        """The position as a game, its learner named as the clicker is."""
        return practice_game(
            practice,
            interaction.user.display_name,
            private(interaction),
            interaction.guild_id or 0,
            interaction.channel_id or 0,
        )

    async def show(
        self, interaction: discord.Interaction, practice: Practice, note: str = ""
    ) -> None:
        """Show ``practice`` to its user privately, with its menus (``note`` already in
        the clicker's language)."""
        game = self.game_of(interaction, practice)
        await self.send_hand(interaction, game, practice.round.to_move, note)

    async def on_click(self, interaction: discord.Interaction, click: Click) -> None:
        """A practice menu or button (``k:x…``), parsed: load the position, check the
        click is its user's, current and on their own message, then the shared flow."""
        owner = self.owners.get(click.owner)
        if owner is None:
            await refuse(interaction, NOT_MINE)
            return
        if not own_view(interaction):  # someone else's message: theirs, whatever its state
            await refuse(interaction, NOT_MINE)
            return
        async with self._lock(click.owner, click.game):
            practice = await owner.load(click.game, interaction.user.id)
            if practice is None:
                await refuse(interaction, PRACTICE_GONE)
                return
            if practice.user_id != interaction.user.id:  # someone else's position
                await refuse(interaction, NOT_MINE)
                return
            game = self.game_of(interaction, practice)
            seat = practice.round.to_move
            if click.version != practice.version:
                await self.send_hand(interaction, game, seat, private(interaction)(STALE))
            elif click.base == "hand":
                await self.send_hand(interaction, game, seat)
            else:
                await self.on_choice(interaction, game, seat, click)

    @asynccontextmanager
    async def _lock(self, owner: str, practice_id: int) -> AsyncIterator[None]:
        """One click at a time per position."""
        key = (owner, practice_id)
        lock, users = self._locks.setdefault(key, (asyncio.Lock(), []))
        users.append(1)
        try:
            async with lock:
                yield
        finally:
            users.pop()
            if not users:
                del self._locks[key]
