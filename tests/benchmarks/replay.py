"""Benchmark: a history page and a replay step with many stored matches.

Run as a script (it is not a test)::

    python tests/benchmarks/replay.py [--matches 100000] [--samples 400]
    python tests/benchmarks/replay.py --db postgresql://user@host/empty_db

It fills a fresh database (an SQLite file in a temporary folder, or the empty PostgreSQL
database ``--db`` names; ``python tests/pg_server.py --durable`` starts one) with
``--matches`` finished matches as the bot stores them: the game row with its final state,
every move of its log (round and whole move), and its history rows. They are real matches
the engine played (a few dozen of them, each stored many times over under new ids), spread
over 50 servers with 40 members each, one server holding half of them. Then it times, one
at a time as the bot does them, and prints the median and p99 of:

- a history page: ``Storage.history`` for a random server (with or without a member, with
  or without a variant) at a random page within its range, plus its embed;
- a replay step: a record loaded from the database as the replay view does on a cold
  cache (game row, move log, finish time, :meth:`GameRecord.from_game`), then
  :meth:`GameRecord.state_at` at a random step and its embed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.engine import Match
from bot.i18n import EN
from bot.models import Game, GameOptions, Seat, Status
from bot.moves import auto_move
from bot.records.record import load_record
from bot.records.replays import history_embed, replay_embed
from bot.storage import Storage
from bot.storage.base import _finished_steps
from bot.storage.records import game_values

GUILDS = 50
MEMBERS = 40
PAGE = 10
TEMPLATES = (("swedish", 2), ("swedish", 4), ("finnish", 3), ("mulle", 2), ("casino", 2),
             ("overspader", 2), ("swazi", 2))  # fmt: skip


def templates(count: int) -> list[tuple[GameOptions, Any, list[tuple[Any, ...]]]]:
    """``count`` finished matches: options, final match, move rows (seat, card, round, move)."""
    made = []
    for n in range(count):
        variant, players = TEMPLATES[n % len(TEMPLATES)]
        options = GameOptions(variant=variant, target=11).for_players(players)
        match = Match.start(options.rules(players), players, seed=f"bench-{n}")
        rows = []
        while not match.is_over:
            move = auto_move(match.round, f"b{n}")
            seat, number = match.round.to_move, match.rounds_played + 1
            match.play(move)
            rows.append((seat, str(move.card), number, json.dumps(move.to_dict())))
        made.append((options, match, rows))
    return made


def games(matches: int, rng: random.Random) -> list[dict[str, Any]]:
    """Where each stored match was played and by whom."""
    out = []
    for game_id in range(1, matches + 1):
        guild = 0 if rng.random() < 0.5 else rng.randrange(1, GUILDS)
        out.append({"id": game_id, "guild": 1000 + guild, "t": 1.7e9 + game_id * 60})
    return out


def rows_for(plan: dict[str, Any], template: Any, rng: random.Random) -> tuple[list, list, list]:
    """The game row, move rows and history rows of one stored match."""
    options, match, moves = template
    users = rng.sample(range(MEMBERS), match.players)
    seats = [Seat(plan["guild"] * 100 + u, f"member{u}") for u in users]
    game = Game(plan["id"], plan["guild"], plan["guild"] * 10, seats[0].user_id, options, seats,
                status=Status.FINISHED, match=match, created_at=plan["t"] - 600)  # fmt: skip
    values = game_values(game)
    game_row = [plan["id"], *values.values(), plan["t"] - 600, plan["t"]]
    move_rows = [
        [plan["id"], version, seat, card, "", 0, plan["t"] - 600 + version, number, move]
        for version, (seat, card, number, move) in enumerate(moves, start=1)
    ]
    history = [list(step.params) for step in _finished_steps(game, plan["t"])]
    return [game_row], move_rows, history


GAME_COLUMNS = ["id", "guild_id", "channel_id", "host_id", "status", "options", "seats", "state",
                "version", "message_id", "ping_id", "deadline", "timer", "last_move", "extra",
                "created_at", "updated_at"]  # fmt: skip
MOVE_COLUMNS = ["game_id", "version", "seat", "card", "taken", "auto", "at", "round", "move"]
FINISHED_COLUMNS = ["game_id", "guild_id", "variant", "finished_at", "summary"]
PLAYER_COLUMNS = ["game_id", "user_id", "guild_id", "variant", "finished_at"]


async def fill(storage: Storage, target: str, matches: int, rng: random.Random) -> None:
    """Insert the matches in batches, straight through the database's driver."""
    made = templates(28)
    plans = games(matches, rng)
    batch: dict[str, list] = {"games": [], "moves": [], "finished": [], "finished_players": []}

    async def flush() -> None:
        await _insert(storage, target, batch)
        for rows in batch.values():
            rows.clear()

    started = time.perf_counter()
    for n, plan in enumerate(plans, start=1):
        game_rows, move_rows, history = rows_for(plan, rng.choice(made), rng)
        batch["games"] += game_rows
        batch["moves"] += move_rows
        batch["finished"].append(history[0])
        batch["finished_players"] += history[1:]
        if n % 5000 == 0 or n == len(plans):
            await flush()
            print(f"  {n} matches stored ({time.perf_counter() - started:.0f} s)", flush=True)


async def _insert(storage: Storage, target: str, batch: dict[str, list]) -> None:
    columns = {"games": GAME_COLUMNS, "moves": MOVE_COLUMNS, "finished": FINISHED_COLUMNS,
               "finished_players": PLAYER_COLUMNS}  # fmt: skip
    if target.startswith("postgresql"):
        pool = storage._pool  # type: ignore[attr-defined]
        async with pool.acquire() as conn, conn.transaction():
            for table, rows in batch.items():
                await conn.copy_records_to_table(
                    table, records=[tuple(r) for r in rows], columns=columns[table]
                )
        return
    db = storage._db  # type: ignore[attr-defined]

    def job(conn: Any) -> None:
        conn.execute("BEGIN")
        for table, rows in batch.items():
            marks = ", ".join("?" for _ in columns[table])
            conn.executemany(
                f"INSERT INTO {table} ({', '.join(columns[table])}) VALUES ({marks})", rows
            )
        conn.execute("COMMIT")

    await db._execute(job, db._connection)


def summary(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{name}: median {statistics.median(ordered) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms"
        f" ({len(ordered)} samples)"
    )


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(20261125)
    folder = None
    target = args.db
    if target is None:
        folder = tempfile.TemporaryDirectory()
        target = str(Path(folder.name) / "bench.db")
    storage = await Storage.open(target)
    try:
        print(f"filling {args.matches} matches into {target.split('@')[-1]}", flush=True)
        await fill(storage, target, args.matches, rng)
        await storage.fetch("ANALYZE")
        history, replay = [], []
        variants = [None, None, "swedish", "casino"]
        warm = 20  # not counted: the first calls load catalogues and fill the engine's caches
        for sample in range(args.samples + warm):
            guild = 1000 + (0 if sample % 2 else rng.randrange(1, GUILDS))
            member = guild * 100 + rng.randrange(MEMBERS) if sample % 3 else None
            variant = rng.choice(variants)
            _, total = await storage.history(guild, member, variant, 0, 1)  # (to pick a page)
            pages = max(1, -(-total // PAGE))
            page = rng.randint(1, pages)
            started = time.perf_counter()
            rows, _ = await storage.history(guild, member, variant, (page - 1) * PAGE, PAGE)
            history_embed(rows, None, variant, page, pages, EN)
            history.append(time.perf_counter() - started)
            game_id = rng.randint(1, args.matches)
            started = time.perf_counter()
            record, _ = await load_record(storage, game_id)
            step = record.state_at(rng.randint(0, len(record.moves)), EN)
            replay_embed(step, t=EN)
            replay.append(time.perf_counter() - started)
            if sample < warm:
                del history[-1], replay[-1]
        print(summary("history page (count + page + embed)", history))
        print(summary("replay step (cold: load record + state_at + embed)", replay))
    finally:
        await storage.close()
        if folder is not None:
            folder.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--db", default=None, help="postgresql://… (an empty database)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
