"""Helpers that play Kasino through SimCord the way people do: slash commands, buttons, selects.

Tests read the bot's game state only to decide *which* card to pick (as a player reads
their hand); every action goes through Discord components.
"""

from __future__ import annotations

import copy
import datetime
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
import simcord
from simcord import interactions as sim_interactions
from simcord.actors import _channel_id_of
from simcord.backend import errors as sim_errors
from simcord.backend import serializers
from simcord.http import _helpers as sim_helpers
from simcord.http import router as sim_router

from bot.engine import Move
from bot.models import Game
from bot.moves import auto_move, round_choices
from bot.storage.tournaments import TournamentRow
from tests.bot.user_installs import ForeignServer, GroupDM, UserInstalls
from tests.dbrows import query

PLAYERS = ("anna", "bjorn", "cecilia", "david")
# For tests that wait on the bot's worker processes (analyses, puzzles): a worker started
# and working on a loaded machine can take longer than SimCord's default 5 s (wall clock)
# wait for the bot to settle. Virtual time is unchanged; only the safety limit is patient.
WAITS_ON_WORKERS = pytest.mark.simcord(settle_timeout=60)
MORE_PLAYERS = ("erik", "frida")  # Krypkasino seats six: :meth:`Harness.add_members`


def own_ids(env: simcord.Env, process: int) -> None:
    """Give the simulated Discord of bot process ``process`` ids no other one hands out.

    Discord's ids are unique across all its shards; SimCord makes them from its clock, whose
    calendar starts on the same day in every Env, so two simulated Discords would give their
    channels, users and messages the same ids (and a process would find "another" game in
    its new channel). Process ``n``'s calendar starts ``n`` years later: call this before it
    creates anything. Only the date moves, not the virtual time its timers run on; nothing
    in the storage compares one process's times with another's."""
    clock = env.backend.clock
    clock._epoch += datetime.timedelta(days=366 * process)  # no public way to set the date


Defaults = tuple[tuple[Any, ...] | None, dict[str, Any] | None]

# ---------------------------------------------------------------- Discord's nonces
# SimCord accepts a message's ``nonce`` and ``enforce_nonce`` and ignores them. Discord
# does not. Create Message (its JSON params), as Discord documents them:
#   nonce: "Can be used to verify a message was sent (up to 25 characters). Value will
#     appear in the Message Create event."
#   enforce_nonce: "If true and nonce is present, it will be checked for uniqueness in the
#     past few minutes. If another message was created by the same author with the same
#     nonce, that message will be returned and no new message will be created."
# "A few minutes" is not said more exactly; the stand-in remembers a nonce for
# NONCE_MEMORY seconds of virtual time, longer than that on purpose: a nonce used again
# within it is caught, and a kill and restart in a test takes seconds.
NONCE_MEMORY = 600.0
NONCE_LENGTH = 25
MESSAGES_ROUTE = ["channels", "{channel_id}", "messages"]


@dataclass(slots=True)
class Remembered:
    """A message Discord made with a nonce: when, which, and its payload as first sent."""

    at: float
    channel_id: int
    message_id: int
    payload: dict[str, Any]


@dataclass
class DiscordNonces:
    """Discord's nonce check on Create Message, which SimCord lacks (see the quote above):
    a new message with ``enforce_nonce`` whose author sent the same nonce within
    :data:`NONCE_MEMORY` seconds (any channel: Discord names only the author) makes
    nothing, and the earlier message is the answer; a nonce over 25 characters is refused
    (400). ``created``: (nonce, message id) of each message made with a nonce;
    ``returned``: each create answered with an earlier message instead; ``on_create``, if
    set, is told the channel and the time (Discord's clock) of each message made."""

    memory: float = NONCE_MEMORY
    seen: dict[tuple[int, int, str], Remembered] = field(default_factory=dict)
    created: list[tuple[str, int]] = field(default_factory=list)
    returned: list[tuple[str, int]] = field(default_factory=list)
    on_create: Callable[[int, float], None] | None = None

    def routes(self, posts: list[Any]) -> list[Any]:
        """SimCord's POST routes with Create Message wrapped by :meth:`wrap`."""
        return [
            (template, self.wrap(handler) if template == MESSAGES_ROUTE else handler)
            for template, handler in posts
        ]

    def wrap(self, handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """Create Message as Discord answers it, around SimCord's own handler."""

        def send_message(ctx: Any) -> Any:
            body = ctx.json if isinstance(ctx.json, dict) else {}
            value = body.get("nonce")
            if value is None:
                return handler(ctx)
            value = str(value)
            if len(value) > NONCE_LENGTH:
                raise sim_errors.invalid_form_body(
                    f"nonce: Must be {NONCE_LENGTH} or fewer in length."
                )
            if not body.get("enforce_nonce"):
                return handler(ctx)
            backend = ctx.backend
            key = (id(backend), backend.bot_user.id, value)
            now = backend.clock.elapsed
            earlier = self.seen.get(key)
            if earlier is not None and now - earlier.at <= self.memory:
                self.returned.append((value, earlier.message_id))
                kept = backend.messages.get(earlier.channel_id, {}).get(earlier.message_id)
                if kept is None:  # deleted since: Discord still names the message it made
                    return copy.deepcopy(earlier.payload)
                return sim_helpers.message_response(ctx, kept)
            payload = handler(ctx)
            made = Remembered(now, int(payload["channel_id"]), int(payload["id"]),
                              copy.deepcopy(payload))  # fmt: skip
            self.seen[key] = made
            self.created.append((value, made.message_id))
            if self.on_create is not None:
                self.on_create(made.channel_id, backend.clock.now().timestamp())
            return payload

        return send_message


def remember_nonces(monkeypatch: pytest.MonkeyPatch) -> DiscordNonces:
    """Make SimCord's Create Message check nonces as Discord does, until the test ends."""
    nonces = DiscordNonces()
    routes = sim_router._ROUTES  # SimCord's route table (private; pinned version)
    monkeypatch.setitem(routes, "POST", nonces.routes(routes["POST"]))
    return nonces


def settle_defaults(idle: float) -> list[tuple[Any, Defaults]]:
    """SimCord's settling functions with their ``idle`` default (seconds between polls
    when only bookkeeping is left) set to ``idle``: ``(function, (__defaults__,
    __kwdefaults__))`` to assign. ``Env.settle`` passes its own positional default on, so
    both must change."""
    found = []
    for function in (simcord.Env.settle, simcord.Env._settle_internal):
        code = function.__code__
        positional = list(code.co_varnames[: code.co_argcount])
        defaults = list(function.__defaults__ or ())
        named = positional[len(positional) - len(defaults) :]
        if "idle" in named:
            defaults[named.index("idle")] = idle
        keywords = dict(function.__kwdefaults__ or {})
        if "idle" in keywords:
            keywords["idle"] = idle
        found.append((function, (tuple(defaults) or None, keywords or None)))
    return found


def components(message: Any) -> list[dict[str, Any]]:
    """Every component dict on a message (flattened)."""
    rows = message.components if isinstance(message, simcord.ResponseMessage) else None
    if rows is None:
        rows = [row.to_dict() for row in message.components]
    found = []
    for row in rows:
        found.extend(row.get("components", []))
    return found


def custom_ids(message: Any) -> list[str]:
    """The custom_ids on a message."""
    return [c["custom_id"] for c in components(message) if c.get("custom_id")]


def select_options(message: Any, prefix: str) -> list[dict[str, Any]]:
    """The options of the select whose custom_id starts with ``prefix``."""
    for component in components(message):
        if str(component.get("custom_id", "")).startswith(prefix):
            return list(component.get("options", []))
    raise AssertionError(f"no select {prefix!r} on the message: {custom_ids(message)}")


def cid(message: Any, prefix: str) -> str:
    """The one custom_id starting with ``prefix``."""
    found = [c for c in custom_ids(message) if c.startswith(prefix)]
    assert len(found) == 1, (prefix, custom_ids(message))
    return found[0]


def button(message: Any, action: str) -> str:
    """The custom_id of a lobby button by its action (``join``, ``start``…)."""
    found = [
        c for c in custom_ids(message) if c.startswith("k:lobby:") and c.endswith(f":{action}")
    ]
    assert len(found) == 1, (action, custom_ids(message))
    return found[0]


class Harness:
    """One guild, one channel ``#kasino``, four members; drives games like people."""

    def __init__(
        self,
        env: simcord.Env,
        shard_id: int | None = None,
        locale: str | None = None,
        installs: UserInstalls | None = None,
    ) -> None:
        self.env = env
        # Discord's user installs (group DMs, servers without the bot): ``user_installs``
        self.installs = installs
        # with ``shard_id`` the guild belongs to that shard (a sharded bot); ``locale``: the
        # server's language (Discord's default is en-US)
        self.guild = env.create_guild("Kasino Club", shard_id=shard_id, preferred_locale=locale)
        self.channel = self.guild.create_text_channel("kasino")
        self.members = [self.guild.add_member(env.create_user(name)) for name in PLAYERS]
        self.interactions = 0

    def add_members(self, names: tuple[str, ...] = MORE_PLAYERS) -> list[Any]:
        """More members in the guild (Krypkasino seats six); they play like the others."""
        added = [self.guild.add_member(self.env.create_user(name)) for name in names]
        self.members.extend(added)
        return added

    # ---------------------------------------------------------- user installs

    def _user_installs(self) -> UserInstalls:
        assert self.installs is not None, "this Harness was made without user installs"
        return self.installs

    def group_dm(self, *people: Any, **options: Any) -> GroupDM:
        """A group DM of ``people`` (the bot is not in it); the first (or ``installer``)
        installed the app: ``user_installs.UserInstalls.group_dm``."""
        return self._user_installs().group_dm(self.env, *people, **options)

    def app_installed_by(self, *people: Any) -> None:
        """These people install the app to their account."""
        self._user_installs().app_installed_by(*people)

    def foreign_server(self, *people: Any, **options: Any) -> ForeignServer:
        """A server of ``people`` that did not install the app; the first (or
        ``installer``) installed it to their account: ``UserInstalls.foreign_server``."""
        return self._user_installs().foreign_server(self.env, *people, **options)

    # ------------------------------------------------------------- state

    @property
    def cog(self) -> Any:
        """The running Kasino cog (changes after a restart)."""
        return self.env.bot.get_cog("Kasino")

    async def game(self) -> Game | None:
        """The active game in the channel, as the bot holds it."""
        return await self.cog.games.active(self.channel.id)

    def member(self, user_id: int) -> Any:
        """The actor with this id."""
        return next(m for m in self.members if m.id == user_id)

    def public_messages(self) -> list[Any]:
        """Every non-ephemeral message in the channel."""
        return [m for m in self.channel.history() if not m.flags.ephemeral]

    # ----------------------------------------------------------- actions

    async def slash(self, member: Any, name: str, **options: Any) -> simcord.InteractionResult:
        """A slash command; counts the interaction."""
        self.interactions += 1
        return await member.slash(self.channel, name, **options)

    async def click(self, member: Any, message: Any, **kw: Any) -> simcord.InteractionResult:
        """A button click."""
        self.interactions += 1
        return await member.click(message, **kw)

    async def select(
        self, member: Any, message: Any, values: list[str], **kw: Any
    ) -> simcord.InteractionResult:
        """A select choice."""
        self.interactions += 1
        return await member.select(message, values, **kw)

    async def forge(
        self,
        member: Any,
        message: Any,
        custom_id: str,
        values: list[str] | None = None,
        *,
        doctor: bool = True,
        component_type: int | None = None,
    ) -> simcord.InteractionResult:
        """Send a component interaction with any custom_id, as a tampered client could.

        With ``doctor`` the message it arrives with also carries that component (with the
        forged values among its options), so only the bot's own checks can refuse it.
        """
        env = self.env
        stored = env.backend.get_message(_channel_id_of(message, env), message.id)
        kind = component_type or (3 if values is not None else 2)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            data["values"] = values
        carried = dict(serializers.message_payload(env.backend, stored))
        if doctor:
            carried["components"] = [*carried.get("components", []), _row(custom_id, values)]
        record, payload = self._payload(member, stored, data, carried)
        self.interactions += 1
        env.backend.emit("INTERACTION_CREATE", payload)
        await env._settle_internal(dispatch="INTERACTION_CREATE")
        return simcord.InteractionResult(env, record)

    def _payload(
        self, member: Any, stored: Any, data: dict[str, Any], carried: dict[str, Any]
    ) -> tuple[Any, dict[str, Any]]:
        """A component interaction's record and gateway payload, arriving with ``carried``."""
        record, payload = sim_interactions.base_payload(
            self.env.backend,
            type=3,
            channel_id=stored.channel_id,
            guild_id=self.guild.id,
            user_id=member.id,
            data=data,
        )
        payload["message"] = carried
        record.source_message_id = stored.id
        return record, payload

    def emit_component(
        self, member: Any, message: Any, data: dict[str, Any], times: int = 1
    ) -> list[Any]:
        """Dispatch ``times`` identical component interactions at once, without settling."""
        env = self.env
        stored = env.backend.get_message(_channel_id_of(message, env), message.id)
        records = []
        for _ in range(times):
            carried = dict(serializers.message_payload(env.backend, stored))
            record, payload = self._payload(member, stored, dict(data), carried)
            records.append((record, payload))
        for _, payload in records:
            env.backend.emit("INTERACTION_CREATE", payload)
        self.interactions += times
        return [record for record, _ in records]

    async def restart(self, bot: Any) -> None:
        """Restart on ``bot`` (same database); the old bot's database is closed first."""
        old = self.env.bot
        await self.env.settle()
        await old.close_storage()
        await self.env.restart_bot(bot)

    async def open_lobby(self, host: Any, **options: Any) -> Any:
        """``/kasino new``; returns the lobby message."""
        result = await self.slash(host, "kasino new", **options)
        assert result.response is not None and not result.ephemeral, result
        return result.response.message

    async def start_game(self, players: int = 2, **options: Any) -> Game:
        """Open a lobby, seat ``players`` members, start; returns the game."""
        host = self.members[0]
        lobby = await self.open_lobby(host, **options)
        for member in self.members[1:players]:
            result = await self.click(member, lobby, custom_id=button(lobby, "join"))
            assert result.response is not None
        result = await self.click(host, lobby, custom_id=button(lobby, "start"))
        assert result.acknowledged
        game = await self.game()
        assert game is not None and game.match is not None
        return game

    def current(self, message: Any) -> Any:
        """A channel message as it is now (after later edits)."""
        return next(m for m in self.channel.history() if m.id == message.id)

    def table_message(self, game: Game, channel: Any = None) -> Any:
        """The game's table message as the database names it (the table is posted fresh at
        every turn and its id saved as soon as it is posted)."""
        rows = query(self.env.bot.config.db_path, "SELECT message_id FROM games WHERE id = ?",
                     (game.id,))  # fmt: skip
        message_id = rows[0]["message_id"] if rows else None
        assert message_id, f"game #{game.id} has no table message"
        return next(m for m in (channel or self.channel).history() if m.id == message_id)

    async def open_hand(self, member: Any, game: Game) -> simcord.InteractionResult:
        """Press "Your hand" on the table message."""
        table = self.table_message(game)  # the button by its id: its label is in any language
        result = await self.click(member, table, custom_id=cid(table, "k:hand:"))
        assert result.ephemeral, result
        return result

    async def play_move(
        self, game: Game, move: Move | None = None, via_pick: bool = False, pace: float = 1.5
    ) -> None:
        """The player to move plays ``move`` (default: the bot's safe move) from a freshly
        opened hand: the card, then (unless it can take nothing) what it takes. Then
        ``pace`` seconds pass, as between a person's moves (the channel posts go out)."""
        rnd = game.match.round
        seat = rnd.to_move
        member = self.member(int(game.seats[seat].user_id))
        move = move or auto_move(rnd)
        hand = await self.open_hand(member, game)
        message = hand.response
        index = rnd.hands[seat].index(move.card)
        before = game.version
        can_take = bool(round_choices(rnd, move.card, 1))
        step = await self.select(member, message, [str(index)], custom_id=cid(message, "k:card:"))
        if can_take:
            message = step.response
            if move.is_trail:
                value = "trail"
            elif via_pick:
                value = "pick"
            else:
                choices = round_choices(rnd, move.card, 23)
                value = next(
                    (
                        f"c{n}"
                        for n, c in enumerate(choices)
                        if sorted(c.taken) == sorted(move.taken)
                    ),
                    "pick",
                )
            take_id = cid(message, "k:take:")
            step = await self.select(member, message, [value], custom_id=take_id)
            if value == "pick":
                positions = _positions(rnd.table, move.taken)
                pick_id = cid(step.response, "k:pick:")
                step = await self.select(member, step.response, positions, custom_id=pick_id)
        else:
            assert move.is_trail
        # later versions: computer players may already have answered
        assert game.version > before, step.response.content if step.response else step
        if pace:
            await self.env.advance_time(pace)

    async def ready_to_capture(self, game: Game) -> int:
        """Trail until the player to move holds a card that can capture; its hand index
        (choosing it opens the capture menu, where a card that takes nothing is played at
        once)."""
        while True:
            rnd = game.match.round
            hand = rnd.hands[rnd.to_move]
            for index, card in enumerate(hand):
                if round_choices(rnd, card, 1):
                    return index
            await self.play_move(game, Move(hand[0]))

    async def take_menu(self, game: Game) -> tuple[Any, Any]:
        """The mover and their hand view showing the capture menu of a card."""
        index = await self.ready_to_capture(game)
        member = self.member(int(game.seats[game.match.round.to_move].user_id))
        hand = (await self.open_hand(member, game)).response
        step = await self.select(member, hand, [str(index)], custom_id=cid(hand, "k:card:"))
        assert any(c.startswith("k:take:") for c in custom_ids(step.response)), step
        return member, step.response

    async def play_to_end(self, game: Game, limit: int = 2000) -> int:
        """Play safe moves until the match ends; returns the number of moves."""
        moves = 0
        while game.status.active and moves < limit:
            await self.play_move(game)
            moves += 1
        return moves


def _row(custom_id: str, values: list[str] | None) -> dict[str, Any]:
    """An action row holding one forged button or select."""
    if values is None:
        component = {"type": 2, "custom_id": custom_id, "style": 2, "label": "forged"}
    else:
        options = [{"label": v[:100] or "?", "value": v} for v in dict.fromkeys(values)]
        component = {"type": 3, "custom_id": custom_id, "options": options, "max_values": 25}
    return {"type": 1, "components": [component]}


def _positions(table: list[Any], taken: tuple[Any, ...]) -> list[str]:
    """Table positions of ``taken`` (identical cards get distinct positions)."""
    used: list[int] = []
    for card in taken:
        used.append(next(i for i, c in enumerate(table) if c == card and i not in used))
    return [str(i) for i in used]


async def how_to_check(harness: Harness, member: Any, message: Any) -> str:
    """Press "How to check" on a message (lobby, table, end message, replay): the private
    answer's text, with the game's values shown so far."""
    result = await harness.click(member, message, custom_id=cid(message, "k:check:"))
    assert result.ephemeral, result
    return str(result.response.content)


def hand_now(harness: Harness, view: Any) -> Any:
    """A hand view (an ephemeral message) as the backend holds it now."""
    return harness.env.backend.get_message(harness.channel.id, view.id)


async def stored(harness: Harness, tournament_id: int) -> TournamentRow:
    """A tournament as the database holds it now."""
    row = await harness.cog.games.storage.get_tournament(tournament_id)
    assert row is not None
    return row
