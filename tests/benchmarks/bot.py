"""Benchmark: many concurrent 2-player games driven through SimCord to the end.

Run as a script (it is not a test)::

    python tests/benchmarks/bot.py [--games 50] [--target 16] [--wave 50] [--variant casino]
    python tests/benchmarks/bot.py --computers [--target 16] [--pause 1.5]
    python tests/benchmarks/bot.py --db postgresql://user@host/empty_db [--processes 2]
    python tests/benchmarks/bot.py --busy [--games 30] [--busy-tables 3] [--fresh] [--no-debug]
    python tests/benchmarks/bot.py --analyses 10 [--busy] [--games 30] [--repeat 2]
    python tests/benchmarks/bot.py --think --games 60 --no-debug [--db postgresql://…]
        [--count-db] [--simcord-tracking]

Every game is played by its two simulated members with the same three interactions a
person uses per move ("Your hand", the card select, the take select). In each wave the
next interaction of ``--wave`` games is dispatched at the same instant, so the bot
handles them concurrently (the players' choices are worked out before the wave is sent,
so they are not timed as the bot's). It prints interactions handled per second and the
p50/p99 time from the bot receiving an interaction to its response being sent, which
includes the engine and the SQLite commit of the move, in all and for each kind of click
(opening the hand, choosing a card, the take that commits the move, a card trailed at
once). The simulated Discord runs on the bot's event loop: its work on every request
counts in these times, made cheaper by copying its JSON payloads without
``copy.deepcopy`` and forgetting its logs (see :func:`quick_copies`).

Over SQLite it also splits a committing click's first answer into its parts (waiting for
the loop before the move is played; saving it, which is mostly the database commit; the
rest) and each SQLite write into waiting for aiosqlite's one thread, running there, and
waiting for the loop to take the result back.

With ``--computers`` it plays one person against three computer players instead, whose
moves come faster than a channel may take new messages. Both print REST calls per move
and the most new messages any channel got in any 5 s (Discord allows about 5). Speed is
measured here, never asserted.

With ``--db postgresql://…`` (an empty database) the games are shared among
``--processes`` bot processes, each running its own shard of two (its own guild in its
own simulated Discord) over that one database, started together; the figures are theirs
combined, the time being the wall time until the last one is done.

With ``--busy``, ``--busy-tables`` more tables are held on the busiest positions of the
games with builds (the issue's Swazi table and a Glimne's Mulle one, taken in turn), beside
the ordinary ones: their players open the hand and choose a card, in every wave, and
never move. With ``--fresh`` each busy table's version is bumped before each hand is
opened, so no menu built before can be reused. It prints the ordinary tables' figures,
the busy tables' (first answer, and the final one of a deferred click), and the
interactions answered past 3 s. The loop runs in asyncio's debug mode (unless
``--no-debug``, which is faster) with ``slow_callback_duration`` 5 ms: the callbacks it
reports are counted, and so are the callbacks that used over 5 ms of the loop thread's CPU
time (fair on a shared machine).

With ``--think`` (see :func:`run_thinking`) each table's players think before every
click; ``--count-db`` adds the database's round trips per kind of click, the pool's waits,
and the CPU of the bot and of a local PostgreSQL server (:mod:`tests.benchmarks.dbcount`).

With ``--analyses N`` the same load is run twice in one process, each time after
``N / 2`` short matches (to 5) have been played to their end: once as it is, and once
with both players of each of those matches pressing "Analyse my moves" as the clock
starts, so that ``N`` analyses run in the bot's analysis pool (``ANALYSIS_WORKERS``, one
worker process by default, the real analysis) while the tables play. It prints every
click kind's p50/p99/max without and with them, side by side, and how many moves the pool
reviewed while the tables played (``--repeat K``: K runs of each, in turn, their figures
pooled, as a shared machine's load drifts; SimCord's settling does not wait for an analysis: its
waits are declared external, as Discord's would be).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import copy
import gc
import json
import logging
import math
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

# This file is called bot.py: put the project first so ``import bot`` finds the package.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import discord
import simcord
from discord.interactions import InteractionResponse
from discord.state import ConnectionState
from simcord import components, gateway, results
from simcord import interactions as sim_interactions
from simcord.backend import serializers
from simcord.backend.errors import BackendError
from simcord.http import router

from bot.client import KasinoBot, make_bot
from bot.config import Config
from bot.engine import Build, Card, Move, Round
from bot.models import VARIANT_NAMES
from bot.moves import auto_move, rank_choices
from bot.turns import building, moves_of
from cogs.play.views import ranked_moves
from tests.benchmarks import dbcount
from tests.bot.kasino_harness import DiscordNonces, own_ids, settle_defaults

RECEIVED: dict[int, float] = {}
LATENCIES: list[float] = []
STARTED: dict[int, float] = {}  # interaction id -> when the bot received it
FIRST: dict[int, float] = {}  # interaction id -> seconds to its first answer (maybe a defer)
FINAL: dict[int, float] = {}  # interaction id -> seconds to the answer showing the result
DEFERRED: set[int] = set()
SPLIT: dict[tuple[str, str], list[float]] = {}  # (table kind, click kind) -> first answers
SLOW: list[tuple[float, str]] = []  # asyncio's slow callbacks (debug mode: wall time)
SLOW_WALL: list[tuple[float, str]] = []  # the same, timed here and described by their code
SLOW_CPU: list[tuple[float, str]] = []  # callbacks that used > 5 ms of the loop's CPU time
SLOW_LIMIT = 0.005  # seconds
GC_PAUSES: list[tuple[float, int]] = []  # the loop thread's collections over SLOW_LIMIT
REST: list[str] = []  # every REST call the bot made, as "METHOD route"
CREATES: dict[str, list[float]] = {}  # channel id -> virtual times of new messages
# Discord's nonce check, which SimCord lacks (tests/bot/kasino_harness.py): what it made,
# and the posts it took for earlier ones with the same nonce (posted nothing)
NONCES = DiscordNonces()
NONCE_CHECK = [True]  # --no-nonce-check: SimCord as it is (every post made, whatever its nonce)
# A committing click's time in parts (seconds): waiting for the loop before the move is
# played; saving it (encoding, the database commit); playing, composing and answering
COMMIT_PARTS: dict[str, list[float]] = {}
# Every SQLite write (seconds): waiting for aiosqlite's one thread, running there, and
# waiting for the loop to take its result back
WRITE_PARTS: dict[str, list[float]] = {}
ANALYSED: list[float] = []  # when the pool got each reviewed move back (perf_counter)
ANALYSE_CLICKS: list[int] = []  # the ids of the Analyse my moves clicks
ENVS: list[simcord.Env] = []  # the simulated Discord of the run going on (--analyses)
# Interaction id -> done when the answer showing its result is sent (the load model's
# players wait for it before they think about their next click)
ANSWERED: dict[int, asyncio.Future[None]] = {}
STEP = 0.2  # virtual seconds between waves: players clicking as fast as the bot answers
# Real seconds SimCord waits for the bot to settle (default 5): the machine may be shared.
SETTLE = 120.0


def quick_settle() -> None:
    """Let SimCord poll for settled work every millisecond instead of every 50 ms.

    Otherwise the wall clock mostly measures SimCord's idle sleeps between waves (the
    same tweak as the tests' ``quick_settle`` fixture). Latencies are unaffected.
    """
    for function, (defaults, keywords) in settle_defaults(0.001):
        function.__defaults__, function.__kwdefaults__ = defaults, keywords


SCALARS = (str, int, float, bool, type(None))


QUICK_TRACKING = [False]  # --think: see quick_tracking


def quick_tracking() -> None:
    """Let SimCord forget the bot's callbacks at a constant cost (the load model).

    SimCord keeps a record of every callback the bot schedules in a list and removes it
    by value as it runs: a removal compares it (a dataclass's ``__eq__``, comparing the
    timer handles too) with every record before it, and a cancelled timer's record stays
    until SimCord settles, which the load model never does (:func:`follow_clock`). Over
    PostgreSQL, whose round trips each schedule callbacks, at 60 tables the list held
    1,500 records after 30 s and those removals took over half of the process's CPU
    (py-spy: ``_track_callback.invoke`` and ``__eq__``), none of it the bot's: here the
    records compare by identity, and :func:`follow_clock` drops the cancelled ones."""
    from simcord._runtime import _CallbackRecord

    if "__eq__" in vars(_CallbackRecord):
        del _CallbackRecord.__eq__  # object's: identity (each record is its own)
    QUICK_TRACKING[0] = True


def json_copy(value: Any, memo: Any = None) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars) several times faster than
    :func:`copy.deepcopy`, which it falls back to for anything else."""
    kind = type(value)
    if kind is dict:
        return {key: json_copy(item) for key, item in value.items()}
    if kind is list:
        return [json_copy(item) for item in value]
    if kind in SCALARS:
        return value
    return copy.deepcopy(value, memo)


def quick_copies() -> None:
    """Let SimCord copy its payloads with :func:`json_copy`: its deep copies of every
    request and event were about a sixth of the process's time, all of it on the event
    loop the bot is timed on, and none of it the bot's."""
    fast = SimpleNamespace(deepcopy=json_copy)
    for module in (router, gateway):
        module.copy = fast  # they call copy.deepcopy
    for module in (serializers, results, components):
        module.deepcopy = json_copy


def instrument() -> None:
    """Time every interaction from the gateway event to the finished response; count every
    REST call, and the new messages of each channel with their (virtual) times as the
    simulated Discord made them, which checks nonces as Discord does (:data:`NONCES`)."""
    from simcord.http import FakeHTTPClient, FakeWebhookAdapter

    if not NONCE_CHECK[0]:  # a memory of no time: every post is made, and still timed
        NONCES.memory = -1.0
    router._ROUTES["POST"] = NONCES.routes(router._ROUTES["POST"])
    NONCES.on_create = lambda channel, at: CREATES.setdefault(str(channel), []).append(at)
    request = FakeHTTPClient.request

    async def counted(self: Any, route: Any, *args: Any, **kw: Any) -> Any:
        REST.append(f"{route.method} {route.path}")
        return await request(self, route, *args, **kw)

    FakeHTTPClient.request = counted  # type: ignore[method-assign]
    hook = FakeWebhookAdapter.request

    async def hooked(self: Any, route: Any, *args: Any, **kw: Any) -> Any:
        REST.append(f"{route.method} {route.path}")
        return await hook(self, route, *args, **kw)

    FakeWebhookAdapter.request = hooked  # type: ignore[method-assign]
    parse = ConnectionState.parse_interaction_create

    def parse_interaction_create(self: ConnectionState, data: Any) -> None:
        RECEIVED[int(data["id"])] = STARTED[int(data["id"])] = time.perf_counter()
        parse(self, data)

    ConnectionState.parse_interaction_create = parse_interaction_create  # type: ignore[method-assign]
    for name in ("send_message", "edit_message", "defer"):
        original = getattr(InteractionResponse, name)

        async def timed(
            self: InteractionResponse,
            *args: Any,
            __original: Any = original,
            __name: str = name,
            **kw: Any,
        ) -> Any:
            result = await __original(self, *args, **kw)
            ident = self._parent.id
            start = RECEIVED.pop(ident, None)
            if start is not None:
                LATENCIES.append(time.perf_counter() - start)
                FIRST[ident] = LATENCIES[-1]
                if __name == "defer":
                    DEFERRED.add(ident)
                else:
                    FINAL[ident] = LATENCIES[-1]
                    answered(ident)
            return result

        setattr(InteractionResponse, name, timed)
    edit_original = discord.Interaction.edit_original_response

    async def edited(self: discord.Interaction, *args: Any, **kw: Any) -> Any:
        result = await edit_original(self, *args, **kw)
        if self.id in STARTED and self.id not in FINAL:  # a deferred click's answer
            FINAL[self.id] = time.perf_counter() - STARTED[self.id]
            answered(self.id)
        return result

    discord.Interaction.edit_original_response = edited  # type: ignore[method-assign]


def answered(ident: int) -> None:
    """The click ``ident`` is answered: its player (the load model's) may go on."""
    waiting = ANSWERED.pop(ident, None)
    if waiting is not None and not waiting.done():
        waiting.set_result(None)


def watch_commits() -> None:
    """Split each committing click's time (:data:`COMMIT_PARTS`) and each SQLite write's
    (:data:`WRITE_PARTS`), to see where a commit's tail comes from."""
    import contextvars

    from bot import games
    from bot.storage import sqlite
    from cogs.play.hands import HandFlow

    # the click's own task and its saves' times (tasks it starts inherit the variable)
    awaited: contextvars.ContextVar[tuple[Any, list[float]]] = contextvars.ContextVar("awaited")
    play, save, run_transaction = HandFlow.play, games.GameService.save, sqlite._run_transaction

    def parts(name: str, value: float) -> None:
        COMMIT_PARTS.setdefault(name, []).append(value)

    async def split_play(self: HandFlow, interaction: Any, *args: Any) -> None:
        begun, saves = time.perf_counter(), awaited.set((asyncio.current_task(), []))
        await play(self, interaction, *args)
        received, committed = STARTED.get(interaction.id), awaited.get()[1]
        awaited.reset(saves)
        if received is None or not committed or interaction.id not in FIRST:
            return  # a refused move
        parts("before the move is played (waiting for the loop)", begun - received)
        parts("saving (encoding the game, its database commit)", sum(committed))
        parts("playing, composing and answering", FIRST[interaction.id] - (begun - received)
              - sum(committed))  # fmt: skip

    async def timed_save(self: Any, *args: Any, **kw: Any) -> None:
        begun = time.perf_counter()
        try:
            await save(self, *args, **kw)
        finally:
            task, saves = awaited.get((None, []))
            if task is asyncio.current_task():
                saves.append(time.perf_counter() - begun)

    def timed_transaction(conn: Any, steps: Any) -> Any:
        begun = time.perf_counter()
        result = run_transaction(conn, steps)
        return result, begun, time.perf_counter()

    async def timed_write(self: Any, steps: Any) -> Any:
        sent, db = time.perf_counter(), self._db
        result, begun, ended = await db._execute(timed_transaction, db._connection, steps)
        back = time.perf_counter()
        for name, value in (
            ("waiting for the thread", begun - sent),
            ("running there", ended - begun),
            ("back on the loop", back - ended),
        ):
            WRITE_PARTS.setdefault(name, []).append(value)
        return result

    HandFlow.play = split_play  # type: ignore[method-assign]
    games.GameService.save = timed_save  # type: ignore[method-assign]
    if hasattr(sqlite, "_run_group"):
        timed_grouped_writes(sqlite)  # group commit: time each write within its group
    else:
        sqlite.SQLiteStorage.write = timed_write  # type: ignore[method-assign]


def timed_grouped_writes(sqlite: Any) -> None:
    """With group commit: each write's wait for its group to begin in aiosqlite's thread,
    its group's running there, and the wait for the loop to take its outcome back."""
    ran: dict[int, tuple[float, float]] = {}  # id(steps) -> its group's begin and end
    run_group, write = sqlite._run_group, sqlite.SQLiteStorage.write

    def timed_group(conn: Any, members: Any) -> Any:
        begun = time.perf_counter()
        outcomes = run_group(conn, members)
        ended = time.perf_counter()
        for steps in members:
            ran[id(steps)] = (begun, ended)
        return outcomes

    async def timed_write(self: Any, steps: Any) -> Any:
        sent = time.perf_counter()
        try:
            return await write(self, steps)
        finally:
            back = time.perf_counter()
            begun, ended = ran.pop(id(steps), (back, back))
            for name, value in (
                ("waiting for the thread", begun - sent),
                ("running there (its whole group)", ended - begun),
                ("back on the loop", back - ended),
            ):
                WRITE_PARTS.setdefault(name, []).append(value)

    sqlite._run_group = timed_group
    sqlite.SQLiteStorage.write = timed_write  # type: ignore[method-assign]


def report_commits(moves: int) -> None:
    """The parts of a committing click's first answer, and of the SQLite writes."""
    if not COMMIT_PARTS:
        return
    print("  a committing click's first answer, in parts (p50 / p99 / max):")
    for name, values in COMMIT_PARTS.items():
        print(f"      {name:<52} {parts_of(values)}")
    writes = len(WRITE_PARTS.get("waiting for the thread", []))
    print(f"  SQLite writes: {writes} = {writes / max(moves, 1):.2f} per move (a move, its table's"
          " message id, its posts leaving the outbox), each (p50 / p99 / max):")  # fmt: skip
    for name, values in WRITE_PARTS.items():
        print(f"      {name:<52} {parts_of(values)}")


def parts_of(values: list[float]) -> str:
    """p50 / p99 / max of seconds, in ms."""
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
    return f"{statistics.median(values) * 1000:6.1f} {p99 * 1000:6.1f} {values[-1] * 1000:7.1f} ms"


def watch_callbacks() -> None:
    """Collect asyncio's slow-callback warnings (debug mode), and time every callback's
    CPU time on the loop's thread (a loaded machine stretches wall time, not that)."""

    class Slow(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.msg.startswith("Executing") and len(record.args or ()) == 2:
                what, took = record.args  # type: ignore[misc]
                SLOW.append((float(took), str(what)))

    logger = logging.getLogger("asyncio")
    logger.addHandler(Slow(logging.WARNING))
    logger.propagate = False  # counted here, not printed one by one
    run = asyncio.events.Handle._run

    def timed(self: asyncio.Handle) -> None:
        start, cpu = time.perf_counter(), time.thread_time()
        run(self)
        used, took = time.thread_time() - cpu, time.perf_counter() - start
        if took > SLOW_LIMIT:
            SLOW_WALL.append((took, describe(self)))
        if used > SLOW_LIMIT:
            SLOW_CPU.append((used, describe(self)))

    asyncio.events.Handle._run = timed  # type: ignore[method-assign]
    began: dict[int, float] = {}

    def collected(phase: str, info: dict[str, int]) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        if phase == "start":
            began[0] = time.perf_counter()
        elif 0 in began and time.perf_counter() - began[0] > SLOW_LIMIT:
            GC_PAUSES.append((time.perf_counter() - began.pop(0), info["generation"]))

    gc.callbacks.append(collected)


def describe(handle: asyncio.Handle) -> str:
    """What a callback ran: a task's coroutines, outermost first, where they wait now
    (SimCord wraps every callback: the wrapped one is looked for in the wrapper)."""
    callback = handle._callback  # type: ignore[attr-defined]
    for cell in getattr(callback, "__closure__", None) or ():
        inner = cell.cell_contents
        if callable(inner) and getattr(inner, "__self__", None) is not None:
            callback = inner
            break
    task = getattr(callback, "__self__", None)
    if not isinstance(task, asyncio.Task):
        module = str(getattr(callback, "__module__", "")).split(".")[0]
        return f"{getattr(callback, '__qualname__', repr(callback))} ({module})"
    frames = task.get_stack()
    if not frames:
        coro: Any = task.get_coro()
        return f"{coro.__qualname__} ({where(coro.cr_code.co_filename)}, finished)"
    return " > ".join(f"{f.f_code.co_qualname} ({where(f.f_code.co_filename)})" for f in frames)


def where(filename: str) -> str:
    """A code file named by its package: the bot's (bot, cogs), discord.py, SimCord…"""
    parts = Path(filename).parts
    for package in ("cogs", "bot", "discord", "simcord", "benchmarks", "asyncio", "aiosqlite"):
        if package in parts:
            return package
    return Path(filename).name


def forget_logs(env: simcord.Env) -> None:
    """Drop SimCord's logs of every HTTP request and event, which the benchmark never
    reads: kept, their deep copies would grow the heap that each of CPython's full garbage
    collections walks, a pause the bot would not have against the real Discord."""
    env.backend.http_requests.clear()
    env.backend.transcript.clear()


class Driver:
    """One game: which interaction comes next, and on which message."""

    kind = "ordinary"

    def __init__(self, env: simcord.Env, guild: Any, channel: Any, members: list[Any]) -> None:
        self.env, self.guild, self.channel, self.members = env, guild, channel, members
        self.game: Any = None
        self.step = "hand"
        self.message: Any = None
        self.record: Any = None
        self.move: Any = None
        self.payload: Any = None
        self.ident = 0  # the interaction's id

    @property
    def done(self) -> bool:
        return self.game is not None and not self.game.status.active

    def next_interaction(self) -> Any:
        """Make this game's next interaction, to be sent with :meth:`emit` (the player's
        choice is worked out first, so it is not timed as the bot's)."""
        game = self.game
        rnd = game.match.round
        member = next(m for m in self.members if m.id == game.seats[rnd.to_move].user_id)
        if self.step == "hand":
            message = self.env.backend.get_message(self.channel.id, game.message_id)
            self.move = None
            data = {"custom_id": f"k:hand:{game.id}:{game.version}", "component_type": 2}
        elif self.step == "card":
            self.move = menu_move(rnd)
            index = rnd.hands[rnd.to_move].index(self.move.card)
            message = self.message
            card_id = select_id(message, f"k:card:{game.id}:{game.version}:")  # + render tag
            data = {"custom_id": card_id, "values": [str(index)]}
        else:
            message = self.message
            index = rnd.hands[rnd.to_move].index(self.move.card)
            value = "trail" if self.move == Move(self.move.card) else "c0"
            take_id = select_id(message, f"k:take:{game.id}:{game.version}:{index}:")
            data = {"custom_id": take_id, "values": [value]}
        return self.make(member, message, data)

    def make(self, member: Any, message: Any, data: dict[str, Any]) -> Any:
        """A component interaction of ``member`` on ``message``, sent by :meth:`emit`."""
        data.setdefault("component_type", 3)
        record, payload = sim_interactions.base_payload(
            self.env.backend, type=3, channel_id=self.channel.id, guild_id=self.guild.id,
            user_id=member.id, data=data,
        )  # fmt: skip
        payload["message"] = dict(serializers.message_payload(self.env.backend, message))
        record.source_message_id = message.id
        self.record = record
        self.payload = payload
        self.ident = int(payload["id"])
        return record

    def emit(self) -> None:
        """Send the interaction made by :meth:`next_interaction` (without settling)."""
        self.env.backend.emit("INTERACTION_CREATE", self.payload)

    def advance(self) -> None:
        """After settling: remember the response message, move to the next step."""
        result = simcord.InteractionResult(self.env, self.record)
        assert result.acknowledged, "an interaction was not answered"
        response = result.response
        self.message = self.env.backend.get_message(self.channel.id, response.id)
        menu = any(cid.startswith("k:take:") for cid in custom_ids(self.message))
        click = {"hand": "open the hand", "card": "choose a card", "take": "commit a move"}
        kind = "commit a move" if self.step == "card" and not menu else click[self.step]
        if self.ident in FIRST:
            SPLIT.setdefault((self.kind, kind), []).append(FIRST[self.ident])
        if self.step == "card" and not menu:
            self.step = "hand"  # the card was played at once (a one-selection trail)
            return
        self.step = {"hand": "card", "card": "take", "take": "hand"}[self.step]


# The busiest positions of the games with builds a table is held on with --busy: the
# issue's Swazi table (24,224 moves for the hand) and the Glimne's Mulle table with the
# slowest hand view of 300 random 16-item positions (tests/benchmarks/engine.py's,
# seed 2027: 18,214 moves). Hands per seat (the first to move), table items (a build as
# ``[value: groups]@owner``), capture piles.
BUSY = {
    "swazi": (
        ("QC QH QS 6H", "8C 5D 4H 9S"),
        "[8: AH 7S | 2H 6S]@1 JH 9C 10D 7D 10S QD 4C AD AC AS 2C 2S 2D 3S 3D",
        ("", ""),
    ),
    "mulle-glimne": (
        ("4H QC JS 6D", "QH KS 6C 8H"),
        "5D 5H 2D 9H 3C 4D 2C 6D 7S 6H 9S 8H 3C 3D AC 6C",
        ("7H 6S", ""),
    ),
}


def busy_round(variant: str, rules: Any) -> Round:
    """The busy position of ``variant`` (:data:`BUSY`), the first seat to move."""
    hands, table, piles = BUSY[variant]
    items: list[Any] = []
    for word in re.findall(r"\[[^\]]*\]@\d|\S+", table):
        if word.startswith("["):
            text, owner = word.rsplit("@", 1)
            build = Build.parse(text)
            items.append(Build(build.groups, build.value, int(owner)))
        else:
            items.append(Card.parse(word))
    return Round.from_position(
        rules,
        [[Card.parse(c) for c in h.split()] for h in hands],
        items,
        piles=[[Card.parse(c) for c in p.split()] for p in piles],
        to_move=0,
    )


class BusyDriver(Driver):
    """A table held on a busy position: the player to move opens the hand from the table,
    then chooses a card (each in turn) and sees its menu, and again; nobody moves."""

    kind = "busy"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.cards: list[int] = []  # the hand positions whose menu opens
        self.turn = 0

    @property
    def done(self) -> bool:
        return False

    def next_interaction(self) -> Any:
        game = self.game
        member = self.members[0]
        if self.step == "hand":
            message = self.env.backend.get_message(self.channel.id, game.message_id)
            # the button of the table posted before the game was held (or bumped)
            hand_id = select_id(message, f"k:hand:{game.id}:")
            data: dict[str, Any] = {"custom_id": hand_id, "component_type": 2}
        else:
            index = self.cards[self.turn % len(self.cards)]
            self.turn += 1
            card_id = select_id(self.message, f"k:card:{game.id}:{game.version}:")
            message, data = self.message, {"custom_id": card_id, "values": [str(index)]}
        return self.make(member, message, data)

    def advance(self) -> None:
        result = simcord.InteractionResult(self.env, self.record)
        assert result.acknowledged, "an interaction was not answered"
        self.message = self.env.backend.get_message(self.channel.id, result.response.id)
        kind = "open the hand" if self.step == "hand" else "choose a card"
        if self.step == "card":
            assert any(c.startswith("k:take:") for c in custom_ids(self.message)), "no menu"
        if self.ident in FIRST:
            SPLIT.setdefault((self.kind, kind), []).append(FIRST[self.ident])
        self.step = "card" if self.step == "hand" else "hand"


async def hold(cog: Any, driver: BusyDriver, variant: str) -> None:
    """Put the driver's game on the busy position of ``variant`` (saved)."""
    async with cog.games.session(driver.game.id) as game:
        game.match.round = busy_round(variant, game.match.rules)
        game.version += 1
        await cog.games.save(game)
        hand = game.match.round.hands[0]
        driver.cards = [i for i, card in enumerate(hand) if ranked_moves(game.match.round, card)]
    driver.game = await cog.games.active(driver.channel.id)


async def bump(cog: Any, driver: BusyDriver) -> None:
    """A new version of the busy game (the same position): no menu built before is kept
    for it (``--fresh``)."""
    async with cog.games.session(driver.game.id) as game:
        game.version += 1
        await cog.games.save(game)


def menu_move(rnd: Any) -> Move:
    """The move a player makes here: the computer player's card with the menu's best
    capture (or a trail); in the games with builds, the first card that can do anything
    with its best ranked move."""
    if not building(rnd):
        card = auto_move(rnd).card
        best = rank_choices(rnd.rules, card, rnd.table, 1)
        return Move(card, best[0].taken) if best else Move(card)
    for card in rnd.hands[rnd.to_move]:
        moves = moves_of(rnd, card)
        if moves:
            ranked = ranked_moves(rnd, card)
            return ranked[0] if ranked else moves[0]
    raise AssertionError("no legal move")


def select_id(message: Any, prefix: str) -> str:
    """The custom_id on ``message`` starting with ``prefix`` (a select's ends in its render
    tag, new at each rendering); ``LookupError`` if there is none."""
    found = next((cid for cid in custom_ids(message) if cid.startswith(prefix)), None)
    if found is None:
        raise LookupError(f"no {prefix}… on the message")
    return found


def custom_ids(message: Any) -> list[str]:
    """The custom_ids on a SimCord message (works for any version of the bot)."""
    found: list[str] = []

    def walk(components: Any) -> None:
        for component in components or ():
            data = component if isinstance(component, dict) else vars(component)
            if isinstance(data.get("custom_id"), str):
                found.append(data["custom_id"])
            walk(data.get("components"))

    walk(getattr(message, "components", None))
    return found


async def run(
    games: int,
    target: int,
    wave: int,
    variant: str = "swedish",
    db: str | None = None,
    shard: int = 0,
    shards: int = 0,
    start: Any = None,
    busy: int = 0,
    fresh: bool = False,
    analyses: int = 0,
    analyse: bool = False,
) -> tuple[int, float, int]:
    """Play ``games`` games; returns (interactions, seconds, moves). With ``shards``, this
    process runs shard ``shard`` of them and waits for ``start`` before the clock starts.
    ``busy`` more tables are held on busy positions meanwhile (``fresh``: nothing built
    for them is reused). With ``analyses``, ``analyses / 2`` short matches are played to
    their end first; with ``analyse`` their players press Analyse my moves as the clock
    starts."""
    instrument()
    if db is None:
        watch_commits()
    quick_settle()
    quick_copies()
    if asyncio.get_running_loop().get_debug():
        asyncio.get_running_loop().slow_callback_duration = SLOW_LIMIT
    with tempfile.TemporaryDirectory(prefix="kasino-bench-") as folder:
        config = Config(
            token=None,
            db_path=db or Path(folder) / "kasino.db",
            round_pause=0,
            shard_count=shards or None,
            shard_ids=(shard,) if shards else None,
        )
        bot = make_bot(config, seed=1 + shard)
        bot.freeze_on_start = True  # as in production (python -m bot)
        # shard processes share the application's commands, registered by whichever synced
        # first; each simulated Discord here is separate, so SimCord registers them itself
        async with simcord.run(bot, settle_timeout=SETTLE, strict_sync=not shards) as env:
            own_ids(env, shard)  # ids unique across the processes' simulated Discords
            guild = env.create_guild("Bench", shard_id=shard if shards else None)
            drivers = []
            for n in range(games):
                channel = guild.create_text_channel(f"table-{n}")
                members = [guild.add_member(env.create_user(f"p{n}-{i}")) for i in range(2)]
                drivers.append(Driver(env, guild, channel, members))
            held: list[BusyDriver] = []
            for n in range(busy):
                channel = guild.create_text_channel(f"busy-{n}")
                members = [guild.add_member(env.create_user(f"b{n}-{i}")) for i in range(2)]
                held.append(BusyDriver(env, guild, channel, members))
            cog = bot.get_cog("Kasino")
            kinds = list(BUSY)
            for driver in drivers + held:  # lobbies and starts, one after another
                a, b = driver.members
                options: dict[str, Any] = {"target": target, "variant": variant}
                if isinstance(driver, BusyDriver):  # no turn runs out while it is held
                    options = {"variant": kinds[held.index(driver) % len(kinds)]}
                    options["turn_minutes"] = 1440
                lobby = await a.slash(driver.channel, "kasino new", **options)
                lobby = lobby.response
                await b.click(lobby, label="Join")
                await a.click(lobby, label="Start")
                driver.game = await cog.games.active(driver.channel.id)
                if isinstance(driver, BusyDriver):
                    await hold(cog, driver, options["variant"])
            await env.advance_time(10)  # the held tables are posted
            finished = await finished_matches(env, guild, cog, math.ceil(analyses / 2), wave)
            if analyses:
                external_analyses(env)
            LATENCIES.clear()
            REST.clear()
            CREATES.clear()
            NONCES.created.clear()
            NONCES.returned.clear()
            for kept in (STARTED, FIRST, FINAL, SPLIT, COMMIT_PARTS, WRITE_PARTS):
                kept.clear()
            DEFERRED.clear()
            for slow in (SLOW, SLOW_WALL, SLOW_CPU, GC_PAUSES):
                slow.clear()
            order = random.Random(1)
            handled = 0
            if start is not None:
                start()  # every process starts playing at once
            started = time.perf_counter()
            ANALYSED.clear()
            ANALYSE_CLICKS.clear()
            if analyse:
                await press_analyse(env, cog, finished, analyses)
            while True:
                live = [d for d in drivers if not d.done]
                if not live:
                    break
                if fresh:
                    for driver in held:
                        if driver.step == "hand":
                            await bump(cog, driver)
                            driver.game = await cog.games.active(driver.channel.id)
                live = [*live, *held]
                order.shuffle(live)  # the busy tables' clicks arrive among the others
                for first in range(0, len(live), wave):
                    batch = live[first : first + wave]
                    await send_wave(env, batch)
                    handled += len(batch)
                await env.advance_time(STEP)
            await env.advance_time(10)  # the last tables go out
            elapsed = time.perf_counter() - started
            ANALYSED[:] = [at - started for at in ANALYSED if at - started <= elapsed]
            moves = [await cog.games.storage.move_count(d.game.id) for d in drivers]
        await bot.close_storage()
    return handled, elapsed, sum(moves)


async def send_wave(env: simcord.Env, batch: list[Driver]) -> None:
    """One wave: every driver's next interaction worked out, then all sent at the same
    instant, handled, and each driver moved on."""
    for driver in batch:
        driver.next_interaction()
    for driver in batch:
        driver.emit()
    await env.settle()
    for driver in batch:
        driver.advance()
    forget_logs(env)


async def play_out(env: simcord.Env, drivers: list[Driver], wave: int) -> None:
    """Play the drivers' games to their end, untimed."""
    while live := [d for d in drivers if not d.done]:
        for first in range(0, len(live), wave):
            await send_wave(env, live[first : first + wave])
        await env.advance_time(STEP)


async def finished_matches(
    env: simcord.Env, guild: Any, cog: Any, count: int, wave: int
) -> list[Driver]:
    """``count`` 2-player Swedish matches to 5, played to their end (to be analysed)."""
    drivers = []
    for n in range(count):
        channel = guild.create_text_channel(f"played-{n}")
        members = [guild.add_member(env.create_user(f"a{n}-{i}")) for i in range(2)]
        driver = Driver(env, guild, channel, members)
        a, b = members
        lobby = (await a.slash(channel, "kasino new", target=5)).response
        await b.click(lobby, label="Join")
        await a.click(lobby, label="Start")
        driver.game = await cog.games.active(channel.id)
        drivers.append(driver)
    await play_out(env, drivers, wave)
    await env.advance_time(10)  # the end messages are posted
    return drivers


def external_analyses(env: simcord.Env) -> None:
    """Let SimCord settle without waiting for analyses (their waits are external, as
    they would be on Discord), and note when each reviewed move comes back."""
    from bot.analysis.pool import AnalysisPool
    from cogs.learning.analysis import AnalysisFlow

    ENVS[:] = [env]  # each run has its own
    for name in ("_complete", "_show_when_done"):
        original = getattr(AnalysisFlow, name)
        if getattr(original, "external", False):
            continue

        def waiting(self: Any, *args: Any, __original: Any = original) -> Any:
            return ENVS[0].external_wait(__original(self, *args), reason="an analysis")

        waiting.external = True  # type: ignore[attr-defined]
        setattr(AnalysisFlow, name, waiting)
    reviewed = AnalysisPool._reviewed
    if not getattr(reviewed, "counted", False):

        def counted(self: Any, *args: Any) -> None:
            ANALYSED.append(time.perf_counter())
            reviewed(self, *args)

        counted.counted = True  # type: ignore[attr-defined]
        AnalysisPool._reviewed = counted  # type: ignore[method-assign]


async def press_analyse(env: simcord.Env, cog: Any, finished: list[Driver], count: int) -> None:
    """Both players of each finished match press Analyse my moves on its end message
    (``count`` presses in all); answered at once, the analyses then run in the pool."""
    payloads = []
    for driver in finished:
        game = await cog.games.storage.get_game(driver.game.id)  # its end message, as kept
        message = env.backend.get_message(driver.channel.id, game.message_id)
        for member in driver.members:
            if len(payloads) == count:
                break
            data = {"custom_id": f"k:analyse:{game.id}", "component_type": 2}
            record, payload = sim_interactions.base_payload(
                env.backend, type=3, channel_id=driver.channel.id, guild_id=driver.guild.id,
                user_id=member.id, data=data,
            )  # fmt: skip
            payload["message"] = dict(serializers.message_payload(env.backend, message))
            record.source_message_id = message.id
            payloads.append(payload)
    for payload in payloads:
        ANALYSE_CLICKS.append(int(payload["id"]))
        env.backend.emit("INTERACTION_CREATE", payload)
    await env.settle()


def split_figures() -> dict[str, list[float]]:
    """Every click's first answers by kind (the tables' clicks, and Analyse my moves)."""
    kinds: dict[str, list[float]] = {"every click": [v for k, v in FIRST.items()
                                                     if k not in ANALYSE_CLICKS]}  # fmt: skip
    for (table, kind), values in sorted(SPLIT.items()):
        kinds[f"{table} tables, {kind}"] = list(values)
    presses = [FIRST[k] for k in ANALYSE_CLICKS if k in FIRST]
    if presses:
        kinds["Analyse my moves (the press)"] = presses
    return kinds


def compare_analyses(args: argparse.Namespace, debug: bool) -> None:
    """The same load without and with ``--analyses`` analyses running, side by side."""
    runs: dict[bool, Any] = {}
    # without, with, without, with…: a shared machine's load drifts, and each side gets
    # its share of the drift
    for _ in range(args.repeat):
        for analyse in (False, True):
            for kept in (STARTED, FIRST, FINAL, SPLIT):
                kept.clear()
            work = run(args.games, args.target, args.wave, args.variant,
                       busy=args.busy_tables if args.busy else 0, fresh=args.fresh,
                       analyses=args.analyses, analyse=analyse)  # fmt: skip
            handled, elapsed, moves = asyncio.run(work, debug=debug)
            kinds, before = split_figures(), runs.get(analyse)
            if before is not None:
                for kind, values in before[0].items():
                    kinds.setdefault(kind, []).extend(values)
                handled += before[1]
                elapsed += before[2]
                moves += before[3]
            analysed = len(ANALYSED) + (before[4] if before else 0)
            # the loop thread's CPU (other processes' load does not count in it): what an
            # analysis could cost the clicks through the GIL shows here
            cpu = [took for took, _ in SLOW_CPU] + (before[5] if before else [])
            runs[analyse] = (kinds, handled, elapsed, moves, analysed, cpu)
    busy = f", {args.busy_tables} busy tables" if args.busy else ""
    print(f"one bot process over a new SQLite file: {args.games} 2-player {args.variant} games"
          f" to {args.target}{busy}; without, then with {args.analyses} analyses running"
          f" (ANALYSIS_WORKERS=1, the real analysis), {args.repeat} time(s) each,"
          " in turn")  # fmt: skip
    for analyse, (_, handled, elapsed, moves, analysed, cpu) in runs.items():
        label = f"with {args.analyses} analyses" if analyse else "without analyses"
        extra = f"; the pool reviewed {analysed} moves meanwhile" if analyse else ""
        print(f"  {label}: {handled} interactions in {elapsed:.1f} s, {moves} moves{extra}")
        if args.busy:
            worst = max(cpu, default=0) * 1000
            print(f"      callbacks over {SLOW_LIMIT * 1000:.0f} ms of the loop thread's CPU"
                  f" time: {len(cpu)} (worst {worst:.1f} ms)")  # fmt: skip
    without, with_ = runs[False][0], runs[True][0]
    for kind in with_:
        print(f"  {kind}:")
        if kind in without:
            print(f"      without: {figures(without[kind])}")
        print(f"      with:    {figures(with_[kind])}")
        if kind in without and without[kind] and with_[kind]:
            print(f"      p99 with / without: {p99(with_[kind]) / p99(without[kind]):.2f}")


def p99(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * 0.99))]


def report_busy(games: int, busy: int, fresh: bool, debug: bool) -> None:
    """The ordinary tables beside the busy ones, the answers past 3 s, the slow callbacks."""
    print(f"  busy tables: {busy}, held on {', '.join(BUSY)} positions in turn"
          + (" (every hand on a new version: nothing reused)" if fresh else ""))  # fmt: skip
    ordinary = [v for (table, _), values in SPLIT.items() if table == "ordinary" for v in values]
    print(f"  ordinary tables ({games}):  {figures(ordinary)}")
    busy_first = [v for (table, _), values in SPLIT.items() if table == "busy" for v in values]
    print(f"  busy tables, first answer: {figures(busy_first)}")
    finals = sorted(FINAL.values())
    print(f"  deferred clicks:        {len(DEFERRED)}; every click to the answer showing it:"
          f" {figures(finals)}")  # fmt: skip
    late = sum(v > 3 for v in FIRST.values())
    late_final = sum(v > 3 for v in FINAL.values())
    print(f"  past 3 s:               {late} first answers, {late_final} final answers"
          f" (of {len(FIRST)} interactions)")  # fmt: skip
    label = "asyncio debug mode" if debug else "debug mode off: none reported"
    limit = f"{SLOW_LIMIT * 1000:.0f} ms"
    print(f"  slow callbacks reported by asyncio (over {limit}, {label}): {len(SLOW)}")
    print(f"  callbacks over {limit} of wall time: {len(SLOW_WALL)} ({kinds_of(SLOW_WALL)})")
    for took, what in sorted(SLOW_WALL, reverse=True)[:5]:
        print(f"      {took * 1000:7.1f} ms  {short(what)}")
    print(f"  callbacks over {limit} of the loop thread's CPU time: {len(SLOW_CPU)}"
          f" ({kinds_of(SLOW_CPU)})")  # fmt: skip
    for took, what in sorted(SLOW_CPU, reverse=True)[:5]:
        print(f"      {took * 1000:7.1f} ms  {short(what)}")
    worst = max((took for took, _ in GC_PAUSES), default=0) * 1000
    print(f"  garbage collections on the loop thread over {limit}: {len(GC_PAUSES)}"
          f" (worst {worst:.1f} ms; they land in whichever callback is running)")  # fmt: skip
    print("  (the bot's: a task running the bot's code; its step includes SimCord's in-process"
          " answers to its REST calls)")  # fmt: skip


def figures(values: list[float]) -> str:
    """p50, p99 and max of latencies in seconds, in ms."""
    if not values:
        return "none"
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
    return (f"{len(values)} clicks, p50 {statistics.median(values) * 1000:.1f} ms,"
            f" p99 {p99 * 1000:.1f} ms, max {values[-1] * 1000:.1f} ms")  # fmt: skip


def whose(what: str) -> str:
    """Whose callback a slow one is: the bot's (a task in its code or discord.py's), the
    benchmark's, or SimCord's (the simulated Discord), by the code it was running."""
    if any(f"({package}" in what for package in ("cogs", "bot", "discord")):
        return "bot"
    if "(benchmarks)" in what:
        return "benchmark"
    return "SimCord" if "simcord" in what.lower() else "other"


def kinds_of(slow: list[tuple[float, str]]) -> str:
    counts: dict[str, int] = {}
    for _, what in slow:
        counts[whose(what)] = counts.get(whose(what), 0) + 1
    return ", ".join(f"{n} {kind}'s" for kind, n in sorted(counts.items())) or "none"


def short(what: str) -> str:
    """A slow callback in one line."""
    return f"[{whose(what)}] {what[:400]}"


def one_process(args: argparse.Namespace) -> None:
    """A bot process of ``--processes`` (started by :func:`run_processes`): plays its
    shard's games once the go file appears, then writes its measurements as JSON."""
    folder = Path(args.worker)

    def go() -> None:
        (folder / f"ready-{args.shard}").touch()
        while not (folder / "go").exists():
            time.sleep(0.01)

    counts = asyncio.run(
        run(
            args.games,
            args.target,
            args.wave,
            args.variant,
            args.db,
            args.shard,
            args.processes,
            go,
        )
    )
    result = {
        "figures": counts,
        "latencies": LATENCIES,
        "split": [[table, kind, values] for (table, kind), values in SPLIT.items()],
        "rest": REST,
        "creates": CREATES,
    }
    (folder / f"result-{args.shard}.json").write_text(json.dumps(result))


async def _migrated(db: str) -> None:
    from bot.storage import Storage

    await (await Storage.open(db)).close()


def run_processes(
    games: int, target: int, wave: int, variant: str, db: str, processes: int
) -> None:
    """``games`` split among ``processes`` shard processes over ``db`` (each a separate
    Python process with its own simulated Discord), started together, reported together."""
    asyncio.run(_migrated(db))  # the schema first: the processes' start-up stays short
    shares = [games // processes + (i < games % processes) for i in range(processes)]
    with tempfile.TemporaryDirectory(prefix="kasino-bench-") as name:
        folder = Path(name)

        def command(shard: int, share: int) -> list[str]:
            return [sys.executable, __file__, "--games", str(share), "--target", str(target),
                    "--wave", str(wave), "--variant", variant, "--db", db,
                    "--processes", str(processes),
                    "--shard", str(shard), "--worker", name]  # fmt: skip

        children = [subprocess.Popen(command(i, n)) for i, n in enumerate(shares)]
        while len(list(folder.glob("ready-*"))) < processes:
            if any(child.poll() is not None for child in children):
                raise SystemExit("a bot process stopped before it was ready")
            time.sleep(0.05)
        (folder / "go").touch()
        if any(child.wait() for child in children):
            raise SystemExit("a bot process failed")
        results = [json.loads((folder / f"result-{i}.json").read_text()) for i in range(processes)]
    for result in results:
        LATENCIES.extend(result["latencies"])
        for table, kind, values in result["split"]:
            SPLIT.setdefault((table, kind), []).extend(values)
        REST.extend(result["rest"])
        for channel, times in result["creates"].items():
            CREATES.setdefault(f"{len(CREATES)}:{channel}", []).extend(times)
    counts = [result["figures"] for result in results]
    handled, moves = sum(c[0] for c in counts), sum(c[2] for c in counts)
    elapsed = max(c[1] for c in counts)  # they started together: until the last is done
    print(f"{processes} bot processes (one shard each) over one PostgreSQL database")
    report(games, target, wave, variant, handled, elapsed, moves)


async def run_computers(target: int, pause: float) -> None:
    """One person with three computers (easy, normal, hard) at one table: the person
    plays as soon as it is their turn; the computers move after their pause (virtual
    time). What matters here is the channel: new messages in any 5 s, REST per move."""
    instrument()
    quick_settle()
    quick_copies()
    with tempfile.TemporaryDirectory(prefix="kasino-bench-") as folder:
        config = Config(
            token=None,
            db_path=Path(folder) / "kasino.db",
            round_pause=5,
            computer_pause=pause,
            # hard thinks in a worker thread in real time while SimCord's clock is virtual;
            # a short budget keeps the simulated clock from running ahead of it
            hard_budget_ms=20,
        )
        bot = KasinoBot(config, seed=1)
        bot.freeze_on_start = True  # as in production (python -m bot)
        async with simcord.run(bot, settle_timeout=SETTLE) as env:
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("table")
            person = guild.add_member(env.create_user("anna"))
            cog = bot.get_cog("Kasino")
            lobby = (await person.slash(channel, "kasino new", target=target)).response
            for level in ("easy", "normal", "hard"):
                await person.click(lobby, label=f"Add {level} computer")
            await person.click(lobby, label="Start")
            driver = Driver(env, guild, channel, [person])
            storage = cog.games.storage
            driver.game = await cog.games.active(channel.id)
            LATENCIES.clear()
            REST.clear()
            CREATES.clear()
            NONCES.created.clear()
            NONCES.returned.clear()
            handled = 0
            started = time.perf_counter()
            while not driver.done:
                game = driver.game
                rnd = game.match.round
                mine = game.seats[rnd.to_move].user_id == person.id
                if mine and not game.extra.get("paused"):
                    driver.next_interaction()
                    driver.emit()
                    await env.settle()
                    driver.advance()
                    handled += 1
                await env.advance_time(STEP if mine else 0.5)
                driver.game = await cog.games.active(channel.id) or await storage.get_game(
                    driver.game.id
                )
            await env.advance_time(10)  # the last table goes out
            elapsed = time.perf_counter() - started
            moves = await cog.games.storage.move_count(driver.game.id)
        await bot.close_storage()
    print(f"one person with three computers (pause {pause:g} s), to {target}")
    report_lines(handled, elapsed, moves)


def report(
    games: int, target: int, wave: int, variant: str, handled: int, elapsed: float, moves: int
) -> None:
    print(f"{games} concurrent 2-player {variant} games to {target}, {wave} interactions a wave")
    report_lines(handled, elapsed, moves)
    report_commits(moves)


def report_lines(handled: int, elapsed: float, moves: int) -> None:
    print(f"  moves committed:        {moves}")
    print(f"  interactions handled:   {handled} in {elapsed:.1f} s = {handled / elapsed:.0f}/s")
    print(f"  dispatch -> response:   {figures(LATENCIES)}")
    calls = len(REST)
    responses = sum(r.startswith("POST /interactions/") for r in REST)
    print(
        f"  REST calls:             {calls} = {calls / moves:.2f} per move"
        f" ({responses / moves:.2f} interaction responses, the rest channel and hand updates)"
    )
    kinds: dict[str, int] = {}
    for r in REST:
        kinds[r] = kinds.get(r, 0) + 1
    for route, count in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print(f"      {count / moves:5.2f}/move  {route}")
    for (table, kind), values in sorted(SPLIT.items()):
        print(f"      {table} tables, {kind}: {figures(values)}")
    print(f"  worst burst:            {worst_burst()} new messages in one channel in 5 s (limit 5)")
    print(f"  swallowed posts:        {len(NONCES.returned)} (Discord's answer was an earlier"
          " message with the same nonce)")  # fmt: skip
    print("  (SimCord's simulated Discord runs in the same process and is included)")


def worst_burst(window: float = 5.0) -> int:
    """The most new messages any channel got in any ``window`` seconds (virtual time)."""
    worst = 0
    for times in CREATES.values():
        times = sorted(times)
        for i, start in enumerate(times):
            worst = max(worst, sum(1 for t in times[i:] if t < start + window))
    return worst


# ------------------------------------------------------------ the load model of real tables

THINK_MEAN = 2.0  # seconds a player thinks before a click, on average (exponential)
THINK_MIN = 0.3  # and at least
WRITES: list[float] = []  # the real time of every Storage.write (writes per move)
TRANSACTIONS: list[int] = []  # the writes of each database transaction (group commit: more)
CLICKS: list[tuple[str, float]] = []  # (click kind, seconds to the answer showing it)
UNANSWERED = 10.0  # seconds after which a click counts as not answered (Discord: 3)
STALLS: list[float] = []  # how late the loop ran a timer due every 10 ms (its stalls)
CALLS: list[float] = []  # the real time of every REST call but interaction responses
POSTS: list[float] = []  # the real time of every new message (the guild's rate)
# SimCord's tracked callbacks every 50 ms: (how many, how many of them cancelled)
TRACKED: list[tuple[int, int]] = []
TRACKED_LABELS: collections.Counter[str] = collections.Counter()  # the cancelled ones' code
KIND_OF: dict[int, str] = {}  # interaction id -> its click's kind (--count-db)
DB_CLOCK: list[Any] = []  # --count-db: the run's dbcount.Clock, and the pool's size


def count_writes(storage: Any) -> None:
    """Count the storage's writes (:data:`WRITES`) and its transactions' sizes
    (:data:`TRANSACTIONS`), whichever way its backend commits them."""
    write = storage.write

    async def counted(steps: Any) -> Any:
        WRITES.append(time.perf_counter())
        return await write(steps)

    storage.write = counted
    from bot.storage import sqlite

    if not isinstance(storage, sqlite.SQLiteStorage):  # a pool: a transaction per write

        async def pooled(steps: Any) -> Any:
            TRANSACTIONS.append(1)
            return await counted(steps)

        storage.write = pooled
        return

    group = getattr(sqlite, "_run_group", None)
    if group is not None:  # group commit: one transaction holds every queued write

        def counted_group(conn: Any, members: Any) -> Any:
            TRANSACTIONS.append(len(members))
            return group(conn, members)

        sqlite._run_group = counted_group
    else:
        single = sqlite._run_transaction

        def counted_single(conn: Any, steps: Any) -> Any:
            TRANSACTIONS.append(1)
            return single(conn, steps)

        sqlite._run_transaction = counted_single


def watch_rest_times() -> None:
    """Note when (real time: the virtual clock follows it in steps) the bot calls Discord
    outside interaction responses, the calls Discord's global limit of 50 a second counts
    (interactions are exempt), and when it posts a new message."""
    from simcord.http import FakeHTTPClient

    request = FakeHTTPClient.request

    async def timed(self: Any, route: Any, *args: Any, **kw: Any) -> Any:
        if not route.path.startswith("/interactions/"):
            CALLS.append(time.perf_counter())
        if route.method == "POST" and route.path == "/channels/{channel_id}/messages":
            POSTS.append(time.perf_counter())
        return await request(self, route, *args, **kw)

    FakeHTTPClient.request = timed  # type: ignore[method-assign]


async def watch_stalls(stop: asyncio.Event, period: float = 0.01) -> None:
    """How late a timer due every ``period`` runs: the loop's stalls (:data:`STALLS`)."""
    while not stop.is_set():
        begun = time.perf_counter()
        await asyncio.sleep(period)
        STALLS.append(time.perf_counter() - begun - period)


async def follow_clock(env: simcord.Env, stop: asyncio.Event, period: float = 0.05) -> None:
    """Move SimCord's virtual clock with the real one, so the bot's own waits (a channel's
    budget of posts, a round's pause) pass as they would against Discord.

    The clock is moved and the virtual timers now due are run, without settling the bot
    (SimCord's internals: it has no public way). ``Env.advance_time`` settles first, and
    under a continuous load settling never ends: it scans every task against every timer
    of the loop at each task's completion, which at 120 tables took 60% of the process's
    time and stalled the loop for 300 ms (most over PostgreSQL, whose tasks wait longer)."""
    from simcord._settlement import _active_callbacks, _run_due_virtual_callbacks

    last = time.perf_counter()
    while not stop.is_set():
        await asyncio.sleep(period)
        now = time.perf_counter()
        env._move_clock(env._virtual_time + (now - last))
        last = now
        deadline = asyncio.get_running_loop().time() + period
        _run_due_virtual_callbacks(env._settlement_state(), deadline)
        tracked = env._work.callbacks
        cancelled = [r.label for r in tracked if r.handle is not None and r.handle.cancelled()]
        TRACKED.append((len(tracked), len(cancelled)))
        TRACKED_LABELS.clear()
        TRACKED_LABELS.update(cancelled)
        if QUICK_TRACKING[0]:  # as SimCord's settling does: its cancelled timers go
            _active_callbacks(env._settlement_state())


def late_messages(latency: float, seed: int = 39) -> None:
    """Each new message reaches the simulated Discord a random 0 to ``latency`` seconds
    after the bot sends it (real time, which the virtual clock follows in ``--think``), as
    over a network or behind a busy loop; the bot's call returns once it is made."""
    from simcord.http import FakeHTTPClient

    request = FakeHTTPClient.request
    rng = random.Random(seed)

    async def late(self: Any, route: Any, *args: Any, **kw: Any) -> Any:
        if route.method == "POST" and route.path == "/channels/{channel_id}/messages":
            await asyncio.sleep(rng.uniform(0, latency))
        return await request(self, route, *args, **kw)

    FakeHTTPClient.request = late  # type: ignore[method-assign]


async def think(rng: random.Random, mean: float, least: float) -> None:
    """A player thinking before a click: exponential, ``mean`` seconds, at least ``least``."""
    await asyncio.sleep(max(least, rng.expovariate(1 / mean)))


async def click_and_wait(driver: Driver, kind: str) -> bool:
    """Send the driver's prepared interaction and wait for the answer showing its result;
    ``False`` if none came (SimCord, as Discord, refuses an answer after 3 s: the player
    sees "this interaction failed" and opens the hand again from the table)."""
    waiting = asyncio.get_running_loop().create_future()
    ANSWERED[driver.ident] = waiting
    driver.emit()
    try:
        await asyncio.wait_for(waiting, UNANSWERED)
    except TimeoutError:
        ANSWERED.pop(driver.ident, None)
        CLICKS.append((f"{kind}: not answered", UNANSWERED))
        return False
    CLICKS.append((kind, FINAL.get(driver.ident, 0.0)))
    KIND_OF[driver.ident] = kind
    return True


async def play_thinking(
    driver: Driver, cog: Any, rng: random.Random, until: float, mean: float, least: float
) -> None:
    """One table whose players think (:func:`think`) before each click, independently of
    the other tables, until ``until`` (real time) or the game's end. A player opens the
    hand once the table showing the last move is posted, as on Discord."""
    while not driver.done and time.perf_counter() < until:
        await think(rng, mean, least)
        if driver.step == "hand":
            ready = cog.table.outbox.table_ready(driver.game.id)
            if ready is not None:
                await asyncio.shield(ready)
            # the bot's copy of the game (it reloads one that saw an error)
            driver.game = cog.games._games.get(driver.game.id) or driver.game
        step = driver.step
        try:
            driver.next_interaction()
        except (BackendError, LookupError):  # the table is being replaced, or the view
            driver.step = "hand"  # shows a later move than the player saw: look again
            continue
        kind = {"hand": "open the hand", "card": "choose a card", "take": "commit a move"}[step]
        if not await click_and_wait(driver, kind):
            driver.step = "hand"  # the player starts over from the table (moved or not)
            continue
        driver.advance()
        if step == "card" and driver.step == "hand":
            kind = "commit a move"  # a card played at once
            CLICKS[-1] = (kind, CLICKS[-1][1])
            KIND_OF[driver.ident] = kind


async def start_lobby(driver: Driver, lobby: Any, cog: Any, delay: float) -> None:
    """The lobby's host clicks Start ``delay`` seconds from now (the round start)."""
    await asyncio.sleep(delay)
    start_id = next(c for c in custom_ids(lobby) if c.startswith("k:lobby:") and
                    c.endswith(":start"))  # fmt: skip
    driver.make(driver.members[0], lobby, {"custom_id": start_id, "component_type": 2})
    while not await click_and_wait(driver, "start a lobby"):
        driver.make(driver.members[0], lobby, {"custom_id": start_id, "component_type": 2})
    driver.game = await cog.games.active(driver.channel.id)


async def run_thinking(
    tables: int,
    seconds: float,
    variant: str = "swedish",
    db: str | None = None,
    mean: float = THINK_MEAN,
    least: float = THINK_MIN,
    round_start: bool = False,
    target: int = 16,
    count_db: bool = False,
    simcord_tracking: bool = False,
    latency: float = 0.0,
) -> tuple[float, int]:
    """Tables whose players think before every click (:func:`play_thinking`) for
    ``seconds``; with ``round_start``, the tables are lobbies (two players in each) whose
    hosts all click Start within the same second first. Returns (seconds, moves). With
    ``count_db``, the database's round trips, the pool's waits and the CPU of the bot and
    of a local PostgreSQL server are counted (:mod:`tests.benchmarks.dbcount`).
    ``simcord_tracking``: SimCord's own tracking of callbacks, whose cost grows with the
    run (as the benchmark measured before :func:`quick_tracking`). ``latency``: each new
    message reaches the simulated Discord up to that many seconds after it is sent
    (:func:`late_messages`)."""
    if latency:
        late_messages(latency)  # first: innermost, so Discord makes the message that late
    instrument()
    if count_db:
        dbcount.install(lambda ident: ident in FINAL)
    watch_rest_times()
    # an answer refused past Discord's 3 s is counted as not answered, not logged each time
    logging.getLogger("discord.ui.view").setLevel(logging.CRITICAL)
    quick_settle()
    quick_copies()
    if not simcord_tracking:
        quick_tracking()
    with tempfile.TemporaryDirectory(prefix="kasino-bench-") as folder:
        config = Config(token=None, db_path=db or Path(folder) / "kasino.db", round_pause=5)
        bot = make_bot(config, seed=1)
        bot.freeze_on_start = True  # as in production (python -m bot)
        async with simcord.run(bot, settle_timeout=SETTLE) as env:
            guild = env.create_guild("Bench")
            cog = bot.get_cog("Kasino")
            drivers, lobbies = [], []
            for n in range(tables):
                channel = guild.create_text_channel(f"table-{n}")
                members = [guild.add_member(env.create_user(f"p{n}-{i}")) for i in range(2)]
                driver = Driver(env, guild, channel, members)
                a, b = members
                lobby = (await a.slash(channel, "kasino new", target=target,
                                       variant=variant)).response  # fmt: skip
                await b.click(lobby, label="Join")
                if round_start:
                    lobbies.append(env.backend.get_message(channel.id, lobby.id))
                else:
                    await a.click(lobby, label="Start")
                    driver.game = await cog.games.active(channel.id)
                drivers.append(driver)
            await env.advance_time(10)  # the tables are posted
            count_writes(cog.games.storage)
            for kept in (LATENCIES, REST, WRITES, TRANSACTIONS, CLICKS, STALLS, CALLS, POSTS):
                kept.clear()
            KIND_OF.clear()
            for kept in (CREATES, STARTED, FIRST, FINAL, SPLIT, NONCES.created, NONCES.returned):
                kept.clear()
            moves_before = [
                await cog.games.storage.move_count(d.game.id) if d.game else 0 for d in drivers
            ]
            stop = asyncio.Event()
            watchers = [asyncio.create_task(watch_stalls(stop)),
                        asyncio.create_task(follow_clock(env, stop))]  # fmt: skip
            clock = await start_counting(cog.games.storage) if count_db else None
            started = time.perf_counter()
            until = started + seconds
            rng = random.Random(1)

            async def table(n: int) -> None:
                driver = drivers[n]
                own = random.Random(rng.random())
                if round_start:  # every host clicks Start within the same second
                    await start_lobby(driver, lobbies[n], cog, own.random())
                await play_thinking(driver, cog, own, until, mean, least)

            await asyncio.gather(*(table(n) for n in range(tables)))
            elapsed = time.perf_counter() - started
            if clock is not None:
                await stop_counting(clock, cog.games.storage)
            stop.set()
            await asyncio.gather(*watchers)
            await env.advance_time(10)  # the last tables go out
            moves = [
                await cog.games.storage.move_count(d.game.id) if d.game else 0 for d in drivers
            ]
        await bot.close_storage()
    return elapsed, sum(moves) - sum(moves_before)


async def start_counting(storage: Any) -> dbcount.Clock:
    """Start counting the database and the CPU (``--count-db``)."""
    shared = getattr(storage, "_pool", None) is not None
    clock = dbcount.Clock(postmaster=await dbcount.postmaster_of(storage) if shared else None)
    dbcount.watch_loop(asyncio.get_running_loop())
    clock.commits = -(await dbcount.commits(storage)) if shared else None
    clock.start()
    return clock


async def stop_counting(clock: dbcount.Clock, storage: Any) -> None:
    """Stop counting; keep the figures for :func:`report_thinking`."""
    clock.stop()
    pool = getattr(storage, "_pool", None)
    if clock.commits is not None:
        clock.commits += await dbcount.commits(storage)
    DB_CLOCK[:] = [clock, pool.get_max_size() if pool is not None else 0]


def per_second(times: list[float], window: float = 1.0) -> int:
    """The most of ``times`` (seconds) in any ``window``."""
    times, worst, first = sorted(times), 0, 0
    for last, at in enumerate(times):
        while times[first] <= at - window:
            first += 1
        worst = max(worst, last - first + 1)
    return worst


def report_thinking(
    tables: int, seconds: float, moves: int, mean: float, least: float, round_start: bool
) -> None:
    """Every click's and committing clicks' p50/p99/max, the loop's worst stall, writes
    per move, and the channel and guild message rates against Discord's limits."""
    what = "lobbies started in the same second, then" if round_start else "tables,"
    print(f"{tables} {what} players thinking {mean:g} s on average (exponential, at least"
          f" {least:g} s) before each click, {seconds:.0f} s")  # fmt: skip
    print(f"  moves committed:        {moves} ({moves / seconds:.1f}/s)")
    times = [t for _, t in CLICKS]
    print(f"  every click:            {figures(times)}")
    kinds = sorted({k for k, _ in CLICKS})
    for kind in kinds:
        print(f"      {kind:<24}  {figures([t for k, t in CLICKS if k == kind])}")
    committing = [t for k, t in CLICKS if k.startswith("commit a move")]
    print(f"  committing clicks:      {figures(committing)}")
    late = sum(t > 3 for t in times)
    failed = sum(k.endswith("not answered") for k, _ in CLICKS)
    print(f"  past 3 s:               {late} of {len(times)} clicks ({failed} never answered:"
          " refused past 3 s, the hand opened again)")  # fmt: skip
    worst = max(STALLS, default=0) * 1000
    p99 = sorted(STALLS)[int(len(STALLS) * 0.99)] * 1000 if STALLS else 0
    print(f"  the loop's stalls:      worst {worst:.1f} ms, p99 {p99:.1f} ms (a 10 ms timer's"
          " lateness)")  # fmt: skip
    groups = len(TRANSACTIONS)
    print(f"  database writes:        {len(WRITES)} = {len(WRITES) / max(moves, 1):.2f} per move,"
          f" in {groups} transactions = {groups / max(moves, 1):.2f} per move"
          f" (up to {max(TRANSACTIONS, default=0)} writes in one)")  # fmt: skip
    print(f"  new messages:           worst channel {worst_burst()} in 5 s (Discord: 5),"
          f" the guild {per_second(POSTS)} in 1 s, {per_second(POSTS, 5)} in 5 s")  # fmt: skip
    swallowed, made = len(NONCES.returned), len(NONCES.created)
    print(f"  swallowed posts:        {swallowed} of {made + swallowed} (Discord answered with"
          " an earlier message with the same nonce)")  # fmt: skip
    print(f"  REST calls (not interaction responses): worst {per_second(CALLS)} in 1 s"
          f" (Discord's global limit: 50/s), {len(CALLS) / seconds:.1f}/s on average")  # fmt: skip
    if TRACKED:
        sizes = sorted(n for n, _ in TRACKED)
        print(f"  SimCord's tracked callbacks: median {sizes[len(sizes) // 2]}, most {sizes[-1]},"
              f" at the end {TRACKED[-1][0]} ({TRACKED[-1][1]} of them cancelled)")  # fmt: skip
        if TRACKED_LABELS:
            print("      cancelled: " + ", ".join(f"{n} {label}" for label, n in
                                                  TRACKED_LABELS.most_common(4)))  # fmt: skip
    if DB_CLOCK:
        clock, pool_size = DB_CLOCK
        dbcount.report(clock, KIND_OF.items(), moves, pool_size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--target", type=int, default=16)
    parser.add_argument("--wave", type=int, default=50, help="interactions dispatched at once")
    parser.add_argument("--variant", default="swedish", choices=list(VARIANT_NAMES))
    parser.add_argument(
        "--computers", action="store_true", help="one person with three computers instead"
    )
    parser.add_argument("--pause", type=float, default=1.5, help="the computers' pause (s)")
    parser.add_argument("--db", default=None, help="postgresql://… (default: a new SQLite file)")
    parser.add_argument("--processes", type=int, default=2, help="bot processes with --db")
    parser.add_argument("--shard", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--busy", action="store_true", help="busy tables beside the games")
    parser.add_argument("--busy-tables", type=int, default=3, help="how many, with --busy")
    parser.add_argument("--fresh", action="store_true", help="--busy: reuse no built menu")
    parser.add_argument("--no-debug", action="store_true", help="--busy: no asyncio debug")
    parser.add_argument(
        "--analyses", type=int, default=0, help="run without and with N analyses running"
    )
    parser.add_argument("--repeat", type=int, default=1, help="--analyses: runs of each, in turn")
    parser.add_argument("--think", action="store_true",
                        help="tables (--games) whose players think before each click")  # fmt: skip
    parser.add_argument("--round-start", action="store_true",
                        help="--games lobbies started in one second, then --think")  # fmt: skip
    parser.add_argument("--seconds", type=float, default=60, help="--think: how long")
    parser.add_argument("--think-mean", type=float, default=THINK_MEAN)
    parser.add_argument("--think-min", type=float, default=THINK_MIN)
    parser.add_argument("--simcord-tracking", action="store_true",
                        help="--think: SimCord's callback tracking as it is (slow)")  # fmt: skip
    parser.add_argument("--no-nonce-check", action="store_true",
                        help="Discord's nonce check off (SimCord as it is)")  # fmt: skip
    parser.add_argument("--latency", type=float, default=0.0,
                        help="--think: new messages reach Discord up to this late (s)")  # fmt: skip
    parser.add_argument("--count-db", action="store_true",
                        help="--think: count round trips, pool waits, CPU per click")  # fmt: skip
    args = parser.parse_args()
    NONCE_CHECK[0] = not args.no_nonce_check
    discord.utils.setup_logging(level=30)
    if args.analyses:
        if args.busy:
            watch_callbacks()
        compare_analyses(args, debug=args.busy and not args.no_debug)
    elif args.think or args.round_start:
        work = run_thinking(args.games, args.seconds, args.variant, args.db, args.think_mean,
                            args.think_min, args.round_start, args.target,
                            args.count_db, args.simcord_tracking, args.latency)  # fmt: skip
        elapsed, moves = asyncio.run(work, debug=not args.no_debug)
        print(f"one bot process over {'PostgreSQL' if args.db else 'a new SQLite file'}"
              f" (asyncio debug mode {'off' if args.no_debug else 'on'})")  # fmt: skip
        report_thinking(args.games, elapsed, moves, args.think_mean, args.think_min,
                        args.round_start)  # fmt: skip
    elif args.busy:
        watch_callbacks()
        debug = not args.no_debug
        work = run(args.games, args.target, args.wave, args.variant, busy=args.busy_tables,
                   fresh=args.fresh)  # fmt: skip
        handled, elapsed, moves = asyncio.run(work, debug=debug)
        print("one bot process over a new SQLite file, beside tables held on busy positions")
        report(args.games, args.target, args.wave, args.variant, handled, elapsed, moves)
        report_busy(args.games, args.busy_tables, args.fresh, debug)
    elif args.worker:
        one_process(args)
    elif args.computers:
        asyncio.run(run_computers(args.target, args.pause))
    elif args.db:
        run_processes(args.games, args.target, args.wave, args.variant, args.db, args.processes)
    else:
        handled, elapsed, moves = asyncio.run(run(args.games, args.target, args.wave, args.variant))
        print("one bot process over a new SQLite file")
        report(args.games, args.target, args.wave, args.variant, handled, elapsed, moves)


if __name__ == "__main__":
    main()
