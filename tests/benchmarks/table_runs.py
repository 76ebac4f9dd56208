"""The table beside a computers' run: one person with five computers at a six-seat
Krypkasino table (or ``--computers 3`` at a four-seat Swedish one), the default pauses (a
computer moves 1.5 s after the last move, a round is dealt 5 s after its summary), played
to ``--target`` in virtual time through SimCord.

Run as a script (it is not a test)::

    python tests/benchmarks/table_runs.py [--target 30] [--computers 5] [--before]
                                          [--latency 0.3]

It prints the rounds, the table posts and all new channel messages per round, the most new
messages the channel got in any 5 s (Discord allows 5), how long after the person's turn
came the table naming them was posted (mean and worst, virtual seconds), and how many
times the person's hand view said "Your turn" while the channel's latest table did not
name them. ``--latency`` makes each channel request (a new message, a deletion) take that
many virtual seconds, as Discord's do. ``--before`` plays the same match as the bot did
before tables carried runs: a table queued at every move, hand views following at once.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import discord
import simcord
from simcord.http.client import FakeHTTPClient, FakeWebhookAdapter

from bot.client import KasinoBot
from bot.config import Config
from bot.models import Status
from bot.moves import auto_move
from bot.timers import now
from cogs.play.outbox import Outbox
from cogs.play.table import TableFlow
from tests.bot.kasino_harness import Harness, settle_defaults

TABLE_TITLE = "Kasino: "
POSTS: list[tuple[float, dict[str, Any]]] = []  # new channel messages: time, body
TURN_EDITS: list[tuple[float, int]] = []  # "Your turn" hand edits: time, posts before


def record(latency: float) -> None:
    """Keep every new channel message and every hand view edit saying "Your turn"; each
    channel request (a new message, a deletion) takes ``latency`` virtual seconds."""
    request = FakeHTTPClient.request
    hook = FakeWebhookAdapter.request

    async def counted(self: Any, route: Any, **kw: Any) -> Any:
        if route.path.startswith("/channels/{channel_id}/messages") and latency:
            await asyncio.sleep(latency)
        if route.method == "POST" and route.path == "/channels/{channel_id}/messages":
            POSTS.append((now(), dict(kw.get("json") or {})))
        return await request(self, route, **kw)

    async def hooked(self: Any, route: Any, session: Any, **kw: Any) -> Any:
        content = str((kw.get("payload") or {}).get("content"))
        if route.method == "PATCH" and "**Your turn**" in content:
            TURN_EDITS.append((now(), len(POSTS)))
        return await hook(self, route, session, **kw)

    FakeHTTPClient.request = counted  # type: ignore[method-assign]
    FakeWebhookAdapter.request = hooked  # type: ignore[method-assign]


def the_old_way() -> None:
    """The bot before runs: every move queues its table, views follow at once."""
    TableFlow.holds = lambda self, outcome: False  # type: ignore[method-assign]
    Outbox.table_ready = lambda self, game_id: None  # type: ignore[method-assign]


def table_of(body: dict[str, Any]) -> dict[str, Any] | None:
    """A message's table embed, if it has one."""
    embeds = body.get("embeds") or []
    return next((e for e in embeds if str(e.get("title", "")).startswith(TABLE_TITLE)), None)


def names(body: dict[str, Any], person: str) -> bool:
    """Whether a table post names the person as the one to move."""
    table = table_of(body) or {}
    return f"**To move:** {person}" in str(table.get("description", ""))


async def play(target: int, computers: int) -> tuple[int, list[float]]:
    """Play the match; the rounds played and, per turn of the person, the virtual
    seconds from their turn coming to the table naming them being posted."""
    for function, (defaults, keywords) in settle_defaults(0.001):
        function.__defaults__, function.__kwdefaults__ = defaults, keywords
    with tempfile.TemporaryDirectory(prefix="kasino-runs-") as folder:
        config = Config(token=None, db_path=Path(folder) / "kasino.db", hard_budget_ms=10)
        bot = KasinoBot(config, seed=3)
        async with simcord.run(bot, settle_timeout=120) as env:
            harness = Harness(env)
            anna = harness.members[0]
            variant = "krypkasino" if computers > 3 else "swedish"
            lobby = await harness.open_lobby(anna, variant=variant, target=target)
            for _ in range(computers):
                await harness.click(anna, lobby, label="Add normal computer")
            await harness.click(anna, lobby, label="Start")
            game = await harness.game()
            lags: list[float] = []
            while game.status is Status.PLAYING:
                mine = not game.seats[game.match.round.to_move].is_computer
                if mine and not game.extra.get("paused"):
                    came = float(game.deadline or 0) - game.options.turn_seconds  # her turn
                    shown = [t for t, body in POSTS if names(body, anna.name) and t >= came]
                    if shown:  # she plays once the table names her
                        lags.append(shown[0] - came)
                        await harness.play_move(game, auto_move(game.match.round), pace=0.2)
                        continue
                await env.advance_time(0.25)
            await env.advance_time(10)
            rounds = game.match.rounds_played
        await bot.close_storage()
    return rounds, lags


def worst_window(times: list[float], window: float = 5.0) -> int:
    """The most of ``times`` in any ``window`` seconds."""
    times = sorted(times)
    return max(sum(1 for t in times[i:] if t < start + window) for i, start in enumerate(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=int, default=30, help="the match's target or limit")
    parser.add_argument("--computers", type=int, default=5, help="5 (Krypkasino) or 3 (Swedish)")
    parser.add_argument("--before", action="store_true", help="as the bot did before runs")
    parser.add_argument("--latency", type=float, default=0.0, help="s per channel request")
    args = parser.parse_args()
    discord.utils.setup_logging(level=40)
    record(args.latency)
    if args.before:
        the_old_way()
    rounds, lags = asyncio.run(play(args.target, args.computers))
    tables = [body for _, body in POSTS if table_of(body) is not None]
    ahead = 0
    for _, before in TURN_EDITS:
        shown = [body for _, body in POSTS[:before] if table_of(body) is not None]
        ahead += not shown or not names(shown[-1], "anna")
    kind = "before runs" if args.before else "with runs"
    print(
        f"1 person, {args.computers} computers, to {args.target}, {kind}, channel requests"
        f" taking {args.latency:g} s: {rounds} rounds"
    )
    print(f"  table posts per round:       {len(tables) / rounds:.1f}")
    print(f"  new messages per round:      {len(POSTS) / rounds:.1f}")
    print(f"  most new messages in 5 s:    {worst_window([t for t, _ in POSTS])} (limit 5)")
    print(
        f"  the person's turn -> table:  mean {statistics.fmean(lags):.2f} s,"
        f" worst {max(lags):.2f} s over {len(lags)} turns"
    )
    print(f"  'Your turn' while the table named another: {ahead} of {len(TURN_EDITS)}")


if __name__ == "__main__":
    main()
