"""Issue 40, "a tournament people can follow", through SimCord on both databases: the
channel says when a round begins (its deadline, who has the bye), a drop ends its table at
once as the forfeit the standings show, a tournament's table offers no rematch, the
podium's Replay buttons go by round and table, and a table's welcome survives a kill
between its game being saved and its first posts."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
import pytest

from bot.client import KasinoBot
from bot.config import Config
from bot.games import GameError
from bot.models import Game, Status
from bot.moves import auto_move
from bot.render import final_line
from bot.tournaments.model import Decided, Phase
from bot.tournaments.tables import round_tables
from cogs.play.views import table_view
from cogs.tournaments.views import Played, podium_view
from tests.bot.kasino_harness import Harness, custom_ids, stored

THREE_MORE = ("erik", "frida", "gustav")  # with the harness's four: seven, so one bye


@pytest.fixture
def bot_config(db_path: Any) -> Config:
    """Hour-long turns: a table ends by a drop, a played match or the round's deadline,
    never by turn limits."""
    return Config(token=None, db_path=db_path, turn_seconds=3600, round_pause=0,
                  computer_pause=0.1, hard_budget_ms=10)  # fmt: skip


def admin(harness: Harness) -> Any:
    """A member with Manage Server: the organiser (who plays at no table)."""
    role = harness.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return harness.guild.add_member(harness.env.create_user("organiser"), roles=[role])


async def start(harness: Harness, **options: Any) -> tuple[int, Any]:
    """``/kasino tournament new``, every member joins, the organiser starts: its id and
    the organiser."""
    organiser = admin(harness)
    made = await harness.slash(organiser, "kasino tournament new", **options)
    signup = made.response.message
    ids = {int(c.split(":")[2]) for c in custom_ids(signup) if c.startswith("k:tour:")}
    tid = ids.pop()
    for member in harness.members:
        joined = await harness.click(member, signup, custom_id=f"k:tour:{tid}:join")
        assert not joined.ephemeral, joined.response.content
    started = await harness.click(organiser, harness.current(signup),
                                  custom_id=f"k:tour:{tid}:start")  # fmt: skip
    assert not started.ephemeral
    await harness.env.settle()
    return tid, organiser


def round_posts(harness: Harness) -> list[Any]:
    """The channel's messages saying a round has begun."""
    return [m for m in harness.public_messages() if "has begun" in (m.content or "")]


def standings_line(harness: Harness, number: int) -> str:
    """What round ``number``'s standings message says of its tables."""
    found = [
        m
        for m in harness.public_messages()
        if m.embeds and f"standings after round {number}" in (m.embeds[0].title or "")
    ]
    assert len(found) == 1, found
    return str(found[0].embeds[0].description)


def thread_texts(harness: Harness, thread_id: int) -> list[str]:
    thread = next(t for t in harness.channel.threads if t.id == thread_id)
    return [m.content or "" for m in thread.history()]


async def test_a_round_begins_in_the_channel_and_tells_the_bye(harness: Harness) -> None:
    harness.add_members(THREE_MORE)
    tid, _ = await start(harness, title="Friday Cup", round_minutes=30)
    row = await stored(harness, tid)
    assert row.round == 1
    bye = next(tr for tr in round_tables(row) if tr.table.bye)
    (sitting_out,) = bye.table.people
    # one message in the channel: the round, its deadline as Discord draws it, the bye
    (posted,) = round_posts(harness)
    deadline = int(row.deadline or 0)
    assert "**Friday Cup**: round 1 of 3 has begun" in posted.content
    assert f"<t:{deadline}:t>" in posted.content and f"<t:{deadline}:R>" in posted.content
    assert f"Bye this round (a win without a game): <@{sitting_out}>." in posted.content
    assert [u.id for u in posted.mentions] == [sitting_out]  # the bye is pinged, no one else
    # a table ends (a drop): the standings count it and the bye, of four
    playing = next(tr for tr in round_tables(row) if not tr.table.bye)
    quitter = harness.member(playing.table.players[0])
    await harness.slash(quitter, "kasino tournament drop")
    await harness.env.settle()
    assert "Tables finished: 2 of 4 (byes: 1)." in standings_line(harness, 1)
    # the deadline: round 2 begins, said once (a restart says it no second time)
    await harness.env.advance_time(30 * 60 + 1)
    row = await stored(harness, tid)
    assert row.round == 2
    await harness.restart(KasinoBot(harness.env.bot.config, seed=3))
    await harness.env.settle()
    texts = [m.content for m in round_posts(harness)]
    assert len(texts) == 2 and "round 2 of 3 has begun" in texts[-1]


async def test_a_drop_ends_the_table_at_once_as_a_forfeit(harness: Harness) -> None:
    tid, organiser = await start(harness, title="Cup", round_minutes=600)
    row = await stored(harness, tid)
    first, second = round_tables(row)
    quitter = first.table.players[1]
    dropped = await harness.slash(harness.member(quitter), "kasino tournament drop")
    assert not dropped.ephemeral and "has left the tournament" in dropped.response.content
    await harness.env.settle()  # no time passes: no turn limit is waited for
    row = await stored(harness, tid)
    first = next(tr for tr in row.tables if tr.table == first.table)
    assert first.result is not None and first.result.decided is Decided.FORFEIT
    assert first.result.places[1] == 1  # the one who left is last
    game = await harness.cog.games.storage.get_game(first.game_id)
    assert game.status is Status.STOPPED and game.deadline is None
    said = thread_texts(harness, first.thread_id)
    name = row.entrant(quitter).name
    assert any(
        f"{name} has left the tournament: this table ends now, forfeited by {name}." in text
        for text in said
    ), said
    assert not any("abandoned" in text for text in said)
    assert "Tables finished: 1 of 2." in standings_line(harness, 1)
    # the other table plays on; once its player leaves too, round 2 begins at once
    assert (await harness.cog.games.storage.get_game(second.game_id)).status is Status.PLAYING
    other = harness.member(second.table.players[0])
    answer = await organiser.slash(harness.channel, "kasino tournament drop", member=other)
    assert not answer.ephemeral
    await harness.env.settle()
    row = await stored(harness, tid)
    assert row.round == 2 and row.phase is Phase.RUNNING
    # bad input changes nothing: one who left cannot leave again
    again = await harness.slash(harness.member(quitter), "kasino tournament drop")
    assert again.ephemeral and "not playing in this tournament" in again.response.content
    assert (await stored(harness, tid)).version == row.version


async def test_a_finished_tournament_table_offers_no_rematch(harness: Harness) -> None:
    tid, _ = await start(harness, title="Cup", target=5, round_minutes=600)
    row = await stored(harness, tid)
    tr = round_tables(row)[0]
    cog = harness.cog
    game: Game = await cog.games.active(tr.thread_id)
    while game.status.active:  # the match played to its end (the bot's own move path)
        async with cog.games.session(game.id) as live:
            seat = live.match.round.to_move
            await cog.games.play(live, seat, auto_move(live.match.round))
    await harness.env.settle()  # its result recorded
    assert game.status is Status.FINISHED and "next_seed" not in game.extra
    # its last table: Replay and Analyse, no Rematch nor its cut; no rematch's seed
    t = cog.table.lang(game)
    ids = [item.item.custom_id for item in table_view(game, t).children]
    assert any(c.startswith("k:replay:") for c in ids)
    assert not any(c.startswith(("k:rematch:", "k:cutfor:")) for c in ids), ids
    assert "rematch" not in final_line(game, t)
    # an old client's or forged Rematch click is refused and deals nothing
    player = int(game.seats[0].user_id)
    with pytest.raises(GameError, match="no rematch"):
        await cog.games.rematch(game, player)
    thread = next(t for t in harness.channel.threads if t.id == tr.thread_id)
    forged = await harness.forge(harness.member(player), thread.history()[-1],
                                 f"k:rematch:{game.id}")  # fmt: skip
    assert forged.ephemeral
    assert await cog.games.storage.channel_game(tr.thread_id) is None


def test_the_podiums_replays_go_by_round_and_table() -> None:
    games = [Played(9, 3, 1), Played(10, 3, 2), Played(5, 2, 1), Played(1, 1, 1),
             Played(2, 1, 2), Played(6, 2, 2)]  # fmt: skip
    view = podium_view(games)
    assert view is not None
    labels = [item.item.label for item in view.children]
    assert labels == [
        "Round 1 · #1",
        "Round 1 · #2",
        "Round 2 · #1",
        "Round 2 · #2",
        "Round 3 · #1",
        "Round 3 · #2",
    ]
    ids = [item.item.custom_id.split(":")[2] for item in view.children]
    assert ids == ["1", "2", "5", "6", "9", "10"]
    # more games than a message holds: the latest are kept, still in order
    many = [Played(100 + n, 1 + n // 4, 1 + n % 4) for n in range(30)]
    kept = [item.item.label for item in podium_view(list(reversed(many))).children]
    assert len(kept) == 25 and kept[0] == "Round 2 · #2" and kept[-1] == "Round 8 · #2"


async def test_a_kill_after_a_tables_game_is_saved_still_welcomes_it(
    harness: Harness, bot_config: Config
) -> None:
    storage = harness.cog.games.storage
    create = storage.create_game
    killed: list[int] = []

    async def dies_after(game: Game, now: float, *args: Any) -> Game:
        made = await create(game, now, *args)
        if not killed:  # the first table's game is committed, then the process dies
            killed.append(made.id)
            raise asyncio.CancelledError
        return made

    storage.create_game = dies_after
    tid, _ = await start(harness, title="Friday Cup", round_minutes=600)
    await harness.restart(KasinoBot(bot_config, seed=5))
    await harness.env.settle()
    row = await stored(harness, tid)
    assert killed and all(tr.game_id for tr in round_tables(row))
    for tr in round_tables(row):
        texts = thread_texts(harness, tr.thread_id)
        welcomes = [t for t in texts if re.match(r"🏆 Friday Cup, round 1, table \d", t)]
        assert len(welcomes) == 1, texts
        assert all(f"<@{p}>" in welcomes[0] for p in tr.table.players)
        thread = next(t for t in harness.channel.threads if t.id == tr.thread_id)
        tables = [m for m in thread.history() if any("k:hand:" in c for c in custom_ids(m))]
        assert len(tables) == 1
        assert thread.history().index(tables[0]) > texts.index(welcomes[0])  # welcome first
