"""Benchmark: many concurrent 2-player games driven through SimCord to the end.

Run as a script (it is not a test)::

    python tests/benchmarks/bot.py [--games 50] [--target 16] [--wave 50] [--variant casino]
    python tests/benchmarks/bot.py --computers [--target 16] [--pause 1.5]
    python tests/benchmarks/bot.py --db postgresql://user@host/empty_db [--processes 2]

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

With ``--computers`` it plays one person against three computer players instead, whose
moves come faster than a channel may take new messages. Both print REST calls per move
and the most new messages any channel got in any 5 s (Discord allows about 5). Speed is
measured here, never asserted.

With ``--db postgresql://…`` (an empty database) the games are shared among
``--processes`` bot processes, each running its own shard of two (its own guild in its
own simulated Discord) over that one database, started together; the figures are theirs
combined, the time being the wall time until the last one is done.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import statistics
import subprocess
import sys
import tempfile
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
from simcord.http import router

from bot.client import KasinoBot, make_bot
from bot.config import Config
from bot.engine import Move
from bot.models import VARIANT_NAMES
from bot.moves import auto_move, rank_choices
from bot.turns import building, moves_of
from cogs.views import ranked_moves
from tests.bot.kasino_harness import own_ids, settle_defaults

RECEIVED: dict[int, float] = {}
LATENCIES: list[float] = []
LATENCY_OF: dict[int, float] = {}  # interaction id -> its latency, until sorted by kind
BY_KIND: dict[str, list[float]] = {}  # the same latencies, by what the interaction does
REST: list[str] = []  # every REST call the bot made, as "METHOD route"
CREATES: dict[str, list[float]] = {}  # channel id -> virtual times of new messages
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
    REST call, and the new messages of each channel with their (virtual) times."""
    from simcord.http import FakeHTTPClient, FakeWebhookAdapter

    from bot.timers import now

    request = FakeHTTPClient.request

    async def counted(self: Any, route: Any, *args: Any, **kw: Any) -> Any:
        REST.append(f"{route.method} {route.path}")
        if route.method == "POST" and route.path == "/channels/{channel_id}/messages":
            CREATES.setdefault(str(route.channel_id), []).append(now())
        return await request(self, route, *args, **kw)

    FakeHTTPClient.request = counted  # type: ignore[method-assign]
    hook = FakeWebhookAdapter.request

    async def hooked(self: Any, route: Any, *args: Any, **kw: Any) -> Any:
        REST.append(f"{route.method} {route.path}")
        return await hook(self, route, *args, **kw)

    FakeWebhookAdapter.request = hooked  # type: ignore[method-assign]
    parse = ConnectionState.parse_interaction_create

    def parse_interaction_create(self: ConnectionState, data: Any) -> None:
        RECEIVED[int(data["id"])] = time.perf_counter()
        parse(self, data)

    ConnectionState.parse_interaction_create = parse_interaction_create  # type: ignore[method-assign]
    for name in ("send_message", "edit_message", "defer"):
        original = getattr(InteractionResponse, name)

        async def timed(
            self: InteractionResponse, *args: Any, __original: Any = original, **kw: Any
        ) -> Any:
            result = await __original(self, *args, **kw)
            start = RECEIVED.pop(self._parent.id, None)
            if start is not None:
                LATENCIES.append(time.perf_counter() - start)
                LATENCY_OF[self._parent.id] = LATENCIES[-1]
            return result

        setattr(InteractionResponse, name, timed)


def forget_logs(env: simcord.Env) -> None:
    """Drop SimCord's logs of every HTTP request and event, which the benchmark never
    reads: kept, their deep copies would grow the heap that each of CPython's full garbage
    collections walks, a pause the bot would not have against the real Discord."""
    env.backend.http_requests.clear()
    env.backend.transcript.clear()


class Driver:
    """One game: which interaction comes next, and on which message."""

    def __init__(self, env: simcord.Env, guild: Any, channel: Any, members: list[Any]) -> None:
        self.env, self.guild, self.channel, self.members = env, guild, channel, members
        self.game: Any = None
        self.step = "hand"
        self.message: Any = None
        self.record: Any = None
        self.move: Any = None
        self.payload: Any = None

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
        data.setdefault("component_type", 3)
        record, payload = sim_interactions.base_payload(
            self.env.backend, type=3, channel_id=self.channel.id, guild_id=self.guild.id,
            user_id=member.id, data=data,
        )  # fmt: skip
        payload["message"] = dict(serializers.message_payload(self.env.backend, message))
        record.source_message_id = message.id
        self.record = record
        self.payload = payload
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
        at_once = self.step == "card" and not any(
            cid.startswith("k:take:") for cid in custom_ids(self.message)
        )
        kind = "trail" if at_once else self.step
        latency = LATENCY_OF.pop(int(self.payload["id"]), None)
        if latency is not None:
            BY_KIND.setdefault(kind, []).append(latency)
        if at_once:
            self.step = "hand"  # the card was played at once (a one-selection trail)
            return
        self.step = {"hand": "card", "card": "take", "take": "hand"}[self.step]


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
    tag, new at each rendering)."""
    return next(cid for cid in custom_ids(message) if cid.startswith(prefix))


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
) -> tuple[int, float, int]:
    """Play ``games`` games; returns (interactions, seconds, moves). With ``shards``, this
    process runs shard ``shard`` of them and waits for ``start`` before the clock starts."""
    instrument()
    quick_settle()
    quick_copies()
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
            cog = bot.get_cog("Kasino")
            for driver in drivers:  # lobbies and starts, one after another
                a, b = driver.members
                lobby = await a.slash(driver.channel, "kasino new", target=target, variant=variant)
                lobby = lobby.response
                await b.click(lobby, label="Join")
                await a.click(lobby, label="Start")
                driver.game = await cog.games.active(driver.channel.id)
            LATENCIES.clear()
            BY_KIND.clear()
            REST.clear()
            CREATES.clear()
            handled = 0
            if start is not None:
                start()  # every process starts playing at once
            started = time.perf_counter()
            while True:
                live = [d for d in drivers if not d.done]
                if not live:
                    break
                for first in range(0, len(live), wave):
                    batch = live[first : first + wave]
                    for driver in batch:
                        driver.next_interaction()
                    for driver in batch:
                        driver.emit()
                    await env.settle()
                    for driver in batch:
                        driver.advance()
                    handled += len(batch)
                    forget_logs(env)
                await env.advance_time(STEP)
            await env.advance_time(10)  # the last tables go out
            elapsed = time.perf_counter() - started
            moves = [await cog.games.storage.move_count(d.game.id) for d in drivers]
        await bot.close_storage()
    return handled, elapsed, sum(moves)


def one_process(args: argparse.Namespace) -> None:
    """A bot process of ``--processes`` (started by :func:`run_processes`): plays its
    shard's games once the go file appears, then writes its measurements as JSON."""
    folder = Path(args.worker)

    def go() -> None:
        (folder / f"ready-{args.shard}").touch()
        while not (folder / "go").exists():
            time.sleep(0.01)

    figures = asyncio.run(
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
        "figures": figures,
        "latencies": LATENCIES,
        "by_kind": BY_KIND,
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
        for kind, latencies in result["by_kind"].items():
            BY_KIND.setdefault(kind, []).extend(latencies)
        REST.extend(result["rest"])
        for channel, times in result["creates"].items():
            CREATES.setdefault(f"{len(CREATES)}:{channel}", []).extend(times)
    figures = [result["figures"] for result in results]
    handled, moves = sum(f[0] for f in figures), sum(f[2] for f in figures)
    elapsed = max(f[1] for f in figures)  # they started together: until the last is done
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
            BY_KIND.clear()
            REST.clear()
            CREATES.clear()
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


def report_lines(handled: int, elapsed: float, moves: int) -> None:
    print(f"  moves committed:        {moves}")
    print(f"  interactions handled:   {handled} in {elapsed:.1f} s = {handled / elapsed:.0f}/s")
    print(f"  dispatch -> response:   {percentiles(LATENCIES)}")
    for kind, what in KIND_WORDS.items():
        if BY_KIND.get(kind):
            print(f"    {what:<22}{percentiles(BY_KIND[kind])}")
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
    print(f"  worst burst:            {worst_burst()} new messages in one channel in 5 s (limit 5)")
    print("  (SimCord's simulated Discord runs in the same process and is included)")


KIND_WORDS = {
    "hand": "open the hand:",
    "card": "choose a card:",
    "take": "take (commits a move):",
    "trail": "card trailed at once:",
}


def percentiles(latencies: list[float]) -> str:
    """``p50 …, p99 …, max …`` of ``latencies`` (seconds) in ms."""
    lat = sorted(latencies)
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    p50, worst = statistics.median(lat), lat[-1]
    return f"p50 {p50 * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms, max {worst * 1000:.2f} ms"


def worst_burst(window: float = 5.0) -> int:
    """The most new messages any channel got in any ``window`` seconds (virtual time)."""
    worst = 0
    for times in CREATES.values():
        times = sorted(times)
        for i, start in enumerate(times):
            worst = max(worst, sum(1 for t in times[i:] if t < start + window))
    return worst


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
    args = parser.parse_args()
    discord.utils.setup_logging(level=30)
    if args.worker:
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
