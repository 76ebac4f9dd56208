"""Issue 39 §1: every post of a match is made exactly once against a Discord that checks
nonces as Discord documents (``kasino_harness.DiscordNonces``: a nonce the bot sent within
minutes makes no new message), on SQLite and PostgreSQL: a whole match, a kill between
Discord making a message and the bot noting it, a restart, a backup restored, a burst
across channels; and no channel gets more than 5 new messages (or a tournament's threads)
in any 5 s as Discord stamps them, however late a post lands."""

from __future__ import annotations

import asyncio
import collections
import random
from pathlib import Path
from typing import Any, ClassVar

import discord
import pytest
import simcord
from simcord.http import FakeHTTPClient

from bot import backup
from bot.client import KasinoBot
from bot.config import Config
from bot.models import Game, Status
from bot.nonces import MAX_LENGTH, legacy_key, new_key, nonce
from cogs.play.outbox import MAX_POSTS, WINDOW, Post
from cogs.tournaments.threads import MAX_THREADS, ThreadPacer
from tests.bot.kasino_harness import DiscordNonces, Harness, button, cid
from tests.bot.test_backup import _run, pg_tools  # noqa: F401 (a fixture)
from tests.dbrows import query

# ------------------------------------------------------------------------ helpers


def made(nonces: DiscordNonces) -> list[dict[str, Any]]:
    """Every message Discord made with a nonce, as it was first sent."""
    return [kept.payload for kept in nonces.seen.values()]


def custom_ids_of(payload: dict[str, Any]) -> list[str]:
    return [c.get("custom_id", "") for row in payload.get("components") or []
            for c in row.get("components", [])]  # fmt: skip


def tables_posted(nonces: DiscordNonces, game: Game) -> collections.Counter[int]:
    """How many times the table of each version of ``game`` was made."""
    prefix = f"k:hand:{game.id}:"
    return collections.Counter(
        int(custom.split(":")[3])
        for payload in made(nonces)
        for custom in custom_ids_of(payload)
        if custom.startswith(prefix)
    )


def ends_posted(nonces: DiscordNonces, game: Game) -> int:
    """How many times the match's end (its Rematch button) was made."""
    return sum(f"k:rematch:{game.id}" in custom_ids_of(p) for p in made(nonces))


def assert_each_once(nonces: DiscordNonces, game: Game) -> None:
    """No post was swallowed, and no table was made twice."""
    assert nonces.returned == [], "Discord took posts for earlier ones (same nonce)"
    twice = {version: n for version, n in tables_posted(nonces, game).items() if n > 1}
    assert not twice, f"tables made more than once: {twice}"


def assert_table_current(harness: Harness, game: Game, channel: Any = None) -> None:
    """The channel shows the game's table of its current version (saved as its table)."""
    table = harness.table_message(game, channel)
    assert f"k:hand:{game.id}:{game.version}" in cid(table, "k:hand:")


def outbox_rows(db_path: Path | str) -> list[dict[str, Any]]:
    return query(db_path, "SELECT * FROM outbox ORDER BY id")


async def settle_posts(harness: Harness) -> None:
    """Let the channels' budgets pass, so every queued post is made."""
    await harness.env.advance_time(WINDOW + 1)
    await harness.env.settle()


# ------------------------------------------------------------------------- nonces


def test_a_nonce_is_at_most_25_characters_and_its_key_decides_it() -> None:
    key = new_key()
    assert len(nonce(key)) == MAX_LENGTH == len(nonce(key, "standings", 12345))
    assert nonce(key) == nonce(key) != nonce(new_key())
    assert nonce(key, "standings", 1) != nonce(key, "standings", 2) != nonce(key)
    assert nonce(legacy_key(3, 1.5)) != nonce(legacy_key(3, 2.5))  # same id, another row
    with pytest.raises(ValueError):
        nonce("")


async def test_a_whole_match_posts_every_table_and_its_end_once(
    harness: Harness, discord_nonces: DiscordNonces, db_path: Path | str
) -> None:
    game = await harness.start_game(2, target=5)
    moves = await harness.play_to_end(game)
    await settle_posts(harness)
    assert game.status is Status.FINISHED and moves > 5
    assert_each_once(discord_nonces, game)
    assert ends_posted(discord_nonces, game) == 1
    shown = [m for m in harness.public_messages() if "Game over" in (m.content or "")]
    assert len(shown) == 1 and f"k:rematch:{game.id}" in cid(shown[0], "k:rematch:")
    # a table was made for the start and for most moves (computers coalesce, people don't)
    assert len(tables_posted(discord_nonces, game)) >= moves // 2
    assert outbox_rows(db_path) == []


def kill_after_discord_made_the_table(harness: Harness) -> list[int]:
    """The process dies once Discord has made the next table and before the bot saves its
    id and deletes its outbox row. Returns the ids of the messages made then."""
    outbox = harness.cog.table.outbox
    seen: list[int] = []

    async def killed(
        game_id: int, channel_id: int, message_id: int | None, row: int | None
    ) -> list[int]:
        seen.append(int(message_id or 0))
        raise asyncio.CancelledError  # as a killed process: no step after it

    outbox._table_posted = killed
    return seen


async def test_a_post_made_just_before_a_kill_is_not_made_again(
    harness: Harness, bot_config: Config, discord_nonces: DiscordNonces, db_path: Path | str
) -> None:
    game = await harness.start_game(2)
    for _ in range(3):
        await harness.play_move(game)
    made_then = kill_after_discord_made_the_table(harness)
    await harness.play_move(game)
    assert len(made_then) == 1
    assert [row["is_table"] for row in outbox_rows(db_path)] == [1]  # not noted as made
    version = game.version

    await harness.restart(KasinoBot(bot_config, seed=5))
    await settle_posts(harness)
    # the row was sent again with its nonce: Discord answered with the message it made
    assert [message for _, message in discord_nonces.returned] == made_then
    game = await harness.game()
    assert game is not None and game.version == version
    assert harness.table_message(game).id == made_then[0]
    tables = [m for m in harness.public_messages() if any(
        c.startswith("k:hand:") for c in cid_list(m))]  # fmt: skip
    assert [m.id for m in tables] == made_then  # one table: the older one was deleted
    assert outbox_rows(db_path) == []
    # and play goes on, every post made
    discord_nonces.returned.clear()
    for _ in range(2):
        await harness.play_move(game)
    await settle_posts(harness)
    assert_each_once(discord_nonces, game)
    assert_table_current(harness, game)


def cid_list(message: Any) -> list[str]:
    return [c.custom_id or "" for row in message.components for c in row.children]


async def test_play_goes_on_after_a_restart(
    harness: Harness, bot_config: Config, discord_nonces: DiscordNonces
) -> None:
    game = await harness.start_game(2)
    for _ in range(3):
        await harness.play_move(game)
    await harness.restart(KasinoBot(bot_config, seed=5))
    game = await harness.game()
    assert game is not None
    for _ in range(4):
        await harness.play_move(game)
    await settle_posts(harness)
    assert_each_once(discord_nonces, game)
    assert_table_current(harness, game)


async def take_backup(db_path: Path | str, folder: Path, request: pytest.FixtureRequest) -> Path:
    """A backup as docs/admin.md says: ``bot backup`` (SQLite) or ``pg_dump -Fc``."""
    if isinstance(db_path, Path):
        copy = folder / "kasino-backup.db"
        backup.backup(db_path, copy)
        return copy
    pg_dump, _ = request.getfixturevalue("pg_tools")
    dump = folder / "kasino.dump"
    await asyncio.to_thread(_run, [pg_dump, "-Fc", "-f", str(dump), str(db_path)])
    return dump


async def restore_backup(db_path: Path | str, copy: Path, request: pytest.FixtureRequest) -> None:
    """Restore it (the bot stopped): ``bot restore`` or ``pg_restore --clean``."""
    if isinstance(db_path, Path):
        backup.restore(copy, db_path)
        return
    _, pg_restore = request.getfixturevalue("pg_tools")
    command = [pg_restore, "--clean", "--if-exists", "-d", str(db_path), str(copy)]
    await asyncio.to_thread(_run, command)


async def test_play_goes_on_after_a_backup_is_restored(
    harness: Harness,
    bot_config: Config,
    discord_nonces: DiscordNonces,
    db_path: Path | str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    game = await harness.start_game(2)
    await harness.play_move(game)
    await settle_posts(harness)
    copy = await take_backup(db_path, tmp_path, request)
    # after the backup another server plays: its posts' rows get the ids that follow
    other = Harness(harness.env)
    later = await other.start_game(2)
    for _ in range(3):
        await other.play_move(later)
    await settle_posts(harness)
    assert_each_once(discord_nonces, later)

    env, old = harness.env, harness.env.bot
    await env.settle()
    await old.close_storage()
    await restore_backup(db_path, copy, request)
    await env.restart_bot(KasinoBot(bot_config, seed=5))
    await settle_posts(harness)
    game = await harness.game()
    assert game is not None and game.match is not None
    for _ in range(3):  # the rows now get the ids the other server's posts had
        await harness.play_move(game)
    await settle_posts(harness)
    assert_each_once(discord_nonces, game)
    assert_table_current(harness, game)


async def test_a_burst_of_posts_across_channels_is_made_whole(
    harness: Harness, discord_nonces: DiscordNonces
) -> None:
    servers = [harness] + [Harness(harness.env) for _ in range(3)]
    lobbies = []
    for server in servers:  # four lobbies, then every Start at once: a burst of tables
        host, guest = server.members[:2]
        lobby = await server.open_lobby(host)
        await server.click(guest, lobby, custom_id=button(lobby, "join"))
        lobbies.append((server, host, lobby))
    for server, host, lobby in lobbies:
        server.emit_component(host, lobby, {"custom_id": button(lobby, "start"),
                                            "component_type": 2})  # fmt: skip
    await harness.env.settle()
    games = [await server.game() for server in servers]
    for _ in range(3):
        for server, game in zip(servers, games, strict=True):
            await server.play_move(game, pace=0)
        await harness.env.advance_time(0.5)
    await settle_posts(harness)
    for server, game in zip(servers, games, strict=True):
        assert game is not None
        assert_each_once(discord_nonces, game)
        assert_table_current(server, game)


def test_the_stand_in_dedupes_as_discord_documents() -> None:
    """The stand-in itself: the same author and nonce within its memory returns the first
    message and makes none; after it, or with another nonce, a message is made."""
    nonces = DiscordNonces(memory=60)
    made_ids = iter(range(100, 200))

    class Clock:
        elapsed = 0.0

    class Backend:
        clock = Clock()
        bot_user = discord.Object(1)
        messages: ClassVar[dict[int, dict[int, Any]]] = {}

    def create(ctx: Any) -> dict[str, Any]:
        return {"id": str(next(made_ids)), "channel_id": "7"}

    send = nonces.wrap(create)

    class Ctx:
        backend = Backend()

        def __init__(self, value: str, enforce: bool = True) -> None:
            self.json = {"nonce": value, "enforce_nonce": enforce}

    first = send(Ctx("a"))
    assert send(Ctx("a")) == first and nonces.returned == [("a", 100)]
    assert send(Ctx("a", enforce=False))["id"] == "101"  # not enforced: a new one
    assert send(Ctx("b"))["id"] == "102"
    Backend.clock.elapsed = 61.0
    assert send(Ctx("a"))["id"] == "103"  # forgotten after its memory
    with pytest.raises(Exception, match="25 or fewer"):
        send(Ctx("x" * 26))


# ---------------------------------------------------------------- the channel budget


MESSAGES = "/channels/{channel_id}/messages"
THREADS = "/channels/{channel_id}/threads"


def slow_sends(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch, seed: int, path: str = MESSAGES
) -> None:
    """Make new messages reach Discord late, as under a loaded loop: for the first
    :data:`STALL` seconds nothing gets through (a send started then lands once it is over),
    and then they pass one at a time across the bot, each taking 0.02 to 0.2 s (virtual
    time), so posts that several channels start together land one after another."""
    request = FakeHTTPClient.request
    rng = random.Random(seed)
    lane = asyncio.Lock()
    start = env.now()

    async def late(delay: float) -> None:
        stalled = STALL - (env.now() - start).total_seconds()
        if stalled > 0:
            await asyncio.sleep(stalled)
        async with lane:
            await asyncio.sleep(delay)

    async def slow(self: Any, route: Any, *args: Any, **kw: Any) -> Any:
        if route.method == "POST" and route.path == path:
            await env.external_wait(late(rng.uniform(0.02, 0.2)), reason="a slow send")
        return await request(self, route, *args, **kw)

    monkeypatch.setattr(FakeHTTPClient, "request", slow)


STALL = 0.9  # seconds: how long the loop is too busy to send anything, at first


def most_in_a_window(stamps: list[float], window: float = WINDOW) -> int:
    """The most of ``stamps`` (seconds) in any ``window`` seconds."""
    stamps = sorted(stamps)
    return max((sum(1 for t in stamps[i:] if t < start + window)
                for i, start in enumerate(stamps)), default=0)  # fmt: skip


async def test_no_channel_gets_more_than_five_posts_in_five_seconds_as_discord_stamps_them(
    harness: Harness, virtual_waits: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = harness.env
    slow_sends(env, monkeypatch, seed=39)
    channels = [harness.guild.create_text_channel(f"table-{n}") for n in range(6)]
    outbox = harness.cog.table.outbox
    posts = 13  # per channel: well over a window's worth, all queued at once
    with env._bot_scope():  # queued as the bot's own work (SimCord's private scope)
        for n, channel in enumerate(channels):
            for i in range(posts):
                outbox.put(Post(900 + n, harness.guild.id, channel.id, content=f"post {n}.{i}",
                                nonce_key=new_key()))  # fmt: skip
    for _ in range(60):
        await env.advance_time(0.5)
    for channel in channels:
        stamps = [discord.utils.snowflake_time(m.id).timestamp() for m in channel.history()]
        assert len(stamps) == posts
        assert most_in_a_window(stamps) <= MAX_POSTS, sorted(stamps)


async def test_no_channel_gets_more_than_five_new_threads_in_five_seconds_either(
    harness: Harness, virtual_waits: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tournament round's threads, paced as the channel's messages are, with the first
    ones landing late: at most 5 in any 5 s as Discord stamps them."""
    env = harness.env
    slow_sends(env, monkeypatch, seed=39, path=THREADS)
    pacer = ThreadPacer(env.bot)
    made: list[int] = []

    async def make() -> None:  # one after another, as a round opens its tables
        for n in range(12):
            made.append(await pacer.make(harness.guild.id, harness.channel.id, f"table {n}"))

    with env._bot_scope():  # as the bot's own work (SimCord's private scope)
        task = asyncio.get_running_loop().create_task(make())
    for _ in range(60):
        await env.advance_time(0.5)
    assert task.done() and len(made) == 12
    stamps = [discord.utils.snowflake_time(thread).timestamp() for thread in made]
    assert most_in_a_window(stamps) <= MAX_THREADS, sorted(stamps)
