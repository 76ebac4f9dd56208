"""How long a big tournament round takes to start, within Discord's rate limits: a Swiss of
``--players`` people (default 64: 32 two-player tables, 32 threads), from the organiser's
Start until every table's game is dealt and its first table posted in its thread, through
SimCord in virtual time.

Run as a script (it is not a test)::

    python tests/benchmarks/tournament_round.py [--players 64] [--latency 0.3] [--runs 3]

It prints, per run, the virtual seconds until every table had its game and until every
thread's first messages were posted, the CPU seconds the process spent meanwhile, the most
threads made under the channel in any 5 s (the bot keeps to 5), the most new messages in
any one channel in any 5 s (Discord allows 5), and the most new messages in the whole
guild in any 5 s; then the medians and the worst. ``--latency`` makes every request to a
channel (a thread, a message) take that many virtual seconds, as Discord's do.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import discord
import simcord
from simcord.http.client import FakeHTTPClient

from bot.client import KasinoBot
from bot.config import Config
from bot.timers import now
from tests.bot.kasino_harness import Harness, custom_ids, settle_defaults

THREADS: list[float] = []  # thread creations under the tournament's channel: times
POSTS: dict[int, list[float]] = collections.defaultdict(list)  # channel -> new messages


def record(latency: float) -> None:
    """Keep the time of every thread made and every new message, per channel; each
    channel request takes ``latency`` virtual seconds."""
    request = FakeHTTPClient.request

    async def counted(self: Any, route: Any, **kw: Any) -> Any:
        if route.path.startswith("/channels/{channel_id}") and latency:
            await asyncio.sleep(latency)
        if route.method == "POST" and route.path == "/channels/{channel_id}/threads":
            THREADS.append(now())
        if route.method == "POST" and route.path == "/channels/{channel_id}/messages":
            POSTS[int(route.channel_id)].append(now())
        return await request(self, route, **kw)

    FakeHTTPClient.request = counted  # type: ignore[method-assign]


def worst_window(times: list[float], window: float = 5.0) -> int:
    """The most of ``times`` in any ``window`` seconds."""
    times = sorted(times)
    return max(
        (sum(1 for t in times[i:] if t < start + window) for i, start in enumerate(times)),
        default=0,
    )


async def one_run(players: int) -> dict[str, float]:
    """Sign ``players`` up, start, and time the first round's start."""
    THREADS.clear()
    POSTS.clear()
    for function, (defaults, keywords) in settle_defaults(0.001):
        function.__defaults__, function.__kwdefaults__ = defaults, keywords
    with tempfile.TemporaryDirectory(prefix="kasino-tour-") as folder:
        config = Config(token=None, db_path=Path(folder) / "kasino.db", turn_seconds=3600)
        bot = KasinoBot(config, seed=3)
        async with simcord.run(bot, settle_timeout=600) as env:
            harness = Harness(env)
            harness.add_members(tuple(f"player{i}" for i in range(players - 4)))
            role = harness.guild.create_role(
                "Admins", permissions=discord.Permissions(manage_guild=True)
            )
            organiser = harness.guild.add_member(env.create_user("organiser"), roles=[role])
            result = await harness.slash(organiser, "kasino tournament new", title="Big")
            signup = result.response.message
            tid = next(int(c.split(":")[2]) for c in custom_ids(signup) if c.startswith("k:tour"))
            for member in harness.members:
                await harness.click(member, signup, custom_id=f"k:tour:{tid}:join")
            storage = bot.get_cog("Kasino").games.storage
            started = now()
            clock = time.process_time()
            await harness.click(organiser, signup, custom_id=f"k:tour:{tid}:start")
            dealt = None
            while dealt is None:
                await env.advance_time(0.5)
                row = await storage.get_tournament(tid)
                tables = [tr for tr in row.tables if tr.table.round == 1 and not tr.table.bye]
                if tables and all(tr.game_id for tr in tables):
                    dealt = now() - started
            await env.settle()
            threads = {tr.thread_id for tr in tables}
            posted = max(max(POSTS[thread]) for thread in threads) - started
            cpu = time.process_time() - clock
            everything = [t for times in POSTS.values() for t in times if t >= started]
            measured = {
                "tables": len(tables),
                "dealt": dealt,
                "posted": posted,
                "cpu": cpu,
                "threads_5s": worst_window(THREADS),
                "channel_5s": max(worst_window(times) for times in POSTS.values()),
                "guild_5s": worst_window(everything),
            }
        await bot.close_storage()
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.0, help="s per channel request")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    discord.utils.setup_logging(level=40)
    record(args.latency)
    runs = []
    for number in range(args.runs):
        measured = asyncio.run(one_run(args.players))
        runs.append(measured)
        print(
            f"run {number + 1}: {measured['tables']:.0f} tables; every game dealt after"
            f" {measured['dealt']:.1f} s, every first table posted after"
            f" {measured['posted']:.1f} s (virtual); {measured['cpu']:.1f} CPU s;"
            f" most threads in 5 s {measured['threads_5s']:.0f} (kept to 5), most messages in"
            f" one channel in 5 s {measured['channel_5s']:.0f} (limit 5), in the guild"
            f" {measured['guild_5s']:.0f}"
        )
    for key in ("dealt", "posted", "cpu"):
        values = [run[key] for run in runs]
        print(f"{key}: median {statistics.median(values):.1f} s, worst {max(values):.1f} s")


if __name__ == "__main__":
    main()
