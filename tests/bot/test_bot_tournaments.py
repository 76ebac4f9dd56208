"""Tournaments through SimCord, on both databases: a Swiss of eight people from the sign-up
to the podium (with refused bad inputs, a drop-out mid-round and a kill while a round's
threads are being made), and a knockout of four to the podium.

The games are ordinary games in their threads: the Swiss's are decided at each round's
deadline (by the score), the knockout's end when an idle player's automatic moves abandon
them (that player forfeits). A match played to its end gives its result as
tests/bot/test_tournament_results.py shows."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.client import KasinoBot
from bot.config import Config
from bot.models import Status
from bot.tournaments.model import Decided, Phase
from bot.tournaments.pairing import current_standings
from bot.tournaments.tables import round_tables
from cogs.tournaments.threads import ThreadPacer
from tests.bot.kasino_harness import Harness, custom_ids, stored

EIGHT = ("erik", "frida", "gustav", "hanna")


def admin(harness: Harness) -> Any:
    """A member with Manage Server: the organiser."""
    role = harness.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return harness.guild.add_member(harness.env.create_user("organiser"), roles=[role])


def tour_id(message: Any) -> int:
    """The tournament id on a sign-up message's buttons."""
    found = {int(c.split(":")[2]) for c in custom_ids(message) if c.startswith("k:tour:")}
    assert len(found) == 1, custom_ids(message)
    return found.pop()


async def sign_up(harness: Harness, organiser: Any, **options: Any) -> tuple[Any, int]:
    result = await harness.slash(organiser, "kasino tournament new", **options)
    assert result.response is not None and not result.ephemeral, result
    signup = result.response.message
    tid = tour_id(signup)
    for member in harness.members:
        joined = await harness.click(member, signup, custom_id=f"k:tour:{tid}:join")
        assert not joined.ephemeral, joined.response.content
    return harness.current(signup), tid


@pytest.fixture
def bot_config(db_path: Any) -> Config:
    """Hour-long turns (the Swiss's games wait for the round's deadline)."""
    return Config(token=None, db_path=db_path, turn_seconds=3600, round_pause=0,
                  computer_pause=0.1, hard_budget_ms=10)  # fmt: skip


async def test_a_swiss_of_eight_to_the_podium(harness: Harness, bot_config: Config) -> None:
    harness.add_members(EIGHT)
    anna, bjorn = harness.members[:2]
    organiser = admin(harness)
    # only an organiser opens one
    refused = await harness.slash(anna, "kasino tournament new", title="Cup")
    assert refused.ephemeral and "Manage Server" in refused.response.content
    signup, tid = await sign_up(harness, organiser, title="Friday Cup", round_minutes=30)
    assert "8 of at most 64 players" in signup.embeds[0].fields[0].value
    # bad inputs are refused and change nothing
    before = await stored(harness, tid)
    twice = await harness.click(anna, signup, custom_id=f"k:tour:{tid}:join")
    assert twice.ephemeral and "already signed up" in twice.response.content
    start = await harness.click(anna, signup, custom_id=f"k:tour:{tid}:start")
    assert start.ephemeral and "Only the organiser" in start.response.content
    for forged in (f"k:tour:{tid + 1}:join", f"k:tour:{tid}:win", f"k:tour:0{tid}:join"):
        answer = await harness.forge(anna, signup, forged)
        assert answer.ephemeral and "not valid" in answer.response.content
    after = await stored(harness, tid)
    assert (after.version, after.entrants, after.phase) == (
        before.version,
        before.entrants,
        before.phase,
    )
    # the organiser starts: round 1's four tables, each a game in its own thread
    started = await harness.click(organiser, signup, custom_id=f"k:tour:{tid}:start")
    assert not started.ephemeral
    await harness.env.settle()
    # its buttons are gone but How to check
    assert custom_ids(harness.current(signup)) == [f"k:tour:{tid}:check"]
    late = await harness.forge(anna, signup, f"k:tour:{tid}:join")  # an old client's
    assert late.ephemeral and "sign-up is closed" in late.response.content
    row = await stored(harness, tid)
    assert row.phase is Phase.RUNNING and row.round == 1 and row.extra["rounds"] == 3
    tables = round_tables(row)
    assert len(tables) == 4 and all(tr.game_id and tr.thread_id for tr in tables)
    threads = {t.id: t for t in harness.channel.threads}
    for tr in tables:
        game = await harness.cog.games.storage.get_game(tr.game_id)
        assert game.status is Status.PLAYING and game.channel_id == tr.thread_id
        assert not game.hints and not game.has_computers
        posted = threads[tr.thread_id].history()
        welcome = next(m for m in posted if "round 1, table" in (m.content or ""))
        assert all(f"<@{p}>" in welcome.content for p in tr.table.players)
        assert any(m.embeds and "k:hand:" in str(custom_ids(m)) for m in posted)
    # a player drops mid-round: their table is decided against them at its end
    quitter = tables[0].table.players[0]
    dropped = await harness.slash(harness.member(quitter), "kasino tournament drop")
    assert not dropped.ephemeral and "has left the tournament" in dropped.response.content
    # the round's deadline: unfinished tables are stopped and decided by the score, and
    # the standings are shown once for them all (not edited once a table)
    shown: list[int] = []
    posts = harness.cog.rounds.posts
    show = posts.show_standings
    posts.show_standings = lambda row: shown.append(row.round) or show(row)  # type: ignore[method-assign]
    await harness.env.advance_time(30 * 60 + 1)
    posts.show_standings = show  # type: ignore[method-assign]
    assert shown == [1]
    row = await stored(harness, tid)
    first = [tr for tr in row.tables if tr.table.round == 1]
    assert all(tr.result is not None for tr in first)
    assert first[0].result.decided is Decided.FORFEIT
    assert first[0].result.places[0] == 1  # the one who dropped is last
    assert {tr.result.decided for tr in first[1:]} == {Decided.SCORE}
    standings = [m for m in harness.public_messages() if m.embeds and "standings after round 1"
                 in (m.embeds[0].title or "")]  # fmt: skip
    assert len(standings) == 1 and "Tables finished: 4 of 4" in standings[0].embeds[0].description
    # round 2 pairs the seven still in: three tables and a bye, the one who left unpaired
    assert row.round == 2
    second = round_tables(row)
    assert sum(tr.table.bye for tr in second) == 1 and len(second) == 4
    assert all(quitter not in tr.table.players for tr in second)
    # anyone sees the standings; the organiser adds a latecomer, paired from round 3
    shown = await harness.slash(bjorn, "kasino tournament standings")
    assert shown.ephemeral and "standings after round 2" in shown.response.embeds[0].title
    late = harness.guild.add_member(harness.env.create_user("ivar"))
    refused = await bjorn.slash(harness.channel, "kasino tournament add", member=late)
    assert refused.ephemeral and "Only the organiser" in refused.response.content
    again = await organiser.slash(harness.channel, "kasino tournament add", member=anna)
    assert again.ephemeral and "already in this tournament" in again.response.content
    added = await organiser.slash(harness.channel, "kasino tournament add", member=late)
    assert not added.ephemeral and "from the next round" in added.response.content
    # a kill while round 3's threads are made: one thread made but not kept
    kill_after_a_thread(harness)
    await harness.env.advance_time(30 * 60 + 1)
    row = await stored(harness, tid)
    assert row.round == 3 and not any(tr.game_id for tr in round_tables(row))
    assert len(harness.channel.threads) == 4 + 3 + 1
    await harness.restart(KasinoBot(bot_config, seed=11))
    await harness.env.settle()
    row = await stored(harness, tid)
    assert all(tr.game_id for tr in round_tables(row) if not tr.table.bye)
    names = [t.name for t in harness.channel.threads]
    assert len(names) == len(set(names)) == 4 + 3 + 4  # no table got two threads
    assert any(late.id in tr.table.players for tr in round_tables(row))
    # the last round's deadline: the podium
    await harness.env.advance_time(30 * 60 + 1)
    row = await stored(harness, tid)
    assert row.phase is Phase.FINISHED and row.extra.get("podium_id")
    podium = next(m for m in harness.public_messages() if m.id == row.extra["podium_id"])
    assert "🥇" in podium.embeds[0].description and "🥉" in podium.embeds[0].description
    replays = [c for c in custom_ids(podium) if c.startswith("k:replay:")]
    assert len(replays) == 4 + 3 + 4
    board, total = await harness.cog.games.storage.tournament_board(harness.guild.id)
    assert total == 9 and sum(line.wins for line in board) == 1
    # a finished tournament takes no more commands
    late = await harness.slash(bjorn, "kasino tournament standings")
    assert late.ephemeral and "no open tournament" in late.response.content


def kill_after_a_thread(harness: Harness) -> None:
    """The bot process dies while making a round's threads: it makes the first thread,
    then stops before keeping it (nothing more of the round is done until a restart)."""
    rounds = harness.cog.rounds
    made = rounds.pacer.make

    async def dies_after(guild_id: int, parent_id: int, name: str) -> int:
        await made(guild_id, parent_id, name)
        raise asyncio.CancelledError  # as a killed process: no step after it

    rounds.pacer.make = dies_after


@pytest.fixture
def knockout_config(db_path: Any) -> Config:
    """Five-minute turns, and a game is abandoned after two automatic moves in a row for
    one seat: idle players' matches end in a virtual hour, the seat that timed out first
    forfeiting (a match played to its end: tests/bot/test_tournament_results.py)."""
    return Config(token=None, db_path=db_path, turn_seconds=300, round_pause=0,
                  computer_pause=0.1, hard_budget_ms=10, max_auto_moves=2)  # fmt: skip


@pytest.fixture
def simcord_bot(knockout_config: Config, request: pytest.FixtureRequest) -> KasinoBot:
    """The knockout runs with :func:`knockout_config`, the Swiss with :func:`bot_config`."""
    if "knockout" in request.node.name:
        return KasinoBot(knockout_config, seed=20240607)
    return KasinoBot(request.getfixturevalue("bot_config"), seed=20240607)


async def test_a_knockout_of_four_to_the_podium(harness: Harness) -> None:
    organiser = admin(harness)
    _, tid = await sign_up(
        harness, organiser, title="Cup", format="knockout", target=5, round_minutes=1440
    )
    command = await harness.slash(organiser, "kasino tournament start")
    assert command.ephemeral and "has started" in command.response.content
    for _ in range(30):
        await harness.env.advance_time(600)
        row = await stored(harness, tid)
        if row.phase is Phase.FINISHED:
            break
    assert row.phase is Phase.FINISHED and row.round == 2
    assert all(tr.result.decided is Decided.FORFEIT for tr in row.tables)
    final = [tr for tr in row.tables if tr.table.round == 2]
    assert len(final) == 1
    winner = final[0].table.players[final[0].result.places.index(0)]
    podium = next(m for m in harness.public_messages() if m.id == row.extra["podium_id"])
    assert f"🥇 **{row.entrant(winner).name}**" in podium.embeds[0].description
    games = [await harness.cog.games.storage.get_game(tr.game_id) for tr in row.tables]
    assert all(g.status is Status.ABANDONED for g in games)
    # the board: the winner first, the finalist second, the semi-finals' losers third
    board, total = await harness.cog.games.storage.tournament_board(harness.guild.id)
    assert total == 4 and board[0].user_id == winner and board[0].wins == 1
    assert sum(line.podiums for line in board) == 4


async def test_a_round_robin_starts_on_time_pauses_and_is_ended(harness: Harness) -> None:
    anna = harness.members[0]
    organiser = admin(harness)
    signup, tid = await sign_up(
        harness,
        organiser,
        title="Night",
        format="round-robin",
        start_in=5,
        round_minutes=30,
        cap=4,
    )
    assert "It starts <t:" in signup.embeds[0].description
    full = await harness.click(organiser, signup, custom_id=f"k:tour:{tid}:join")
    assert full.ephemeral and "full (4 players)" in full.response.content
    assert len((await stored(harness, tid)).entrants) == 4
    await harness.env.advance_time(5 * 60 + 1)  # the start time: it starts by itself
    row = await stored(harness, tid)
    assert row.phase is Phase.RUNNING and row.round == 1 and row.extra["rounds"] == 3
    assert custom_ids(harness.current(signup)) == [f"k:tour:{tid}:check"]  # only that
    refused = await harness.slash(anna, "kasino tournament pause")
    assert refused.ephemeral and "Only the organiser" in refused.response.content
    paused = await harness.slash(organiser, "kasino tournament pause")
    assert not paused.ephemeral and "paused" in paused.response.content
    # the round's deadline decides its tables, but no new round starts while paused
    await harness.env.advance_time(30 * 60 + 1)
    row = await stored(harness, tid)
    assert row.phase is Phase.PAUSED and row.round == 1
    assert all(tr.result is not None for tr in row.tables)
    resumed = await harness.slash(organiser, "kasino tournament resume")
    assert not resumed.ephemeral
    row = await stored(harness, tid)
    assert row.phase is Phase.RUNNING and row.round == 2
    assert all(tr.game_id for tr in round_tables(row))
    # the organiser ends it: round 2's games are stopped and the podium is posted
    ended = await harness.slash(organiser, "kasino tournament end")
    assert ended.ephemeral and "podium" in ended.response.content, ended
    row = await stored(harness, tid)
    assert row.phase is Phase.FINISHED and row.round == 2
    assert all(tr.result.decided is Decided.SCORE for tr in row.tables)
    for tr in row.tables:
        game = await harness.cog.games.storage.get_game(tr.game_id)
        assert game.status is Status.STOPPED
    assert any(m.id == row.extra["podium_id"] for m in harness.public_messages())


async def test_a_swiss_in_teams(harness: Harness) -> None:
    """Eight people play Swedish Kasino in teams: two tables of four, partners at seats
    1+3 and 2+4 (1st+4th against 2nd+3rd by the ratings), sharing their side's result."""
    harness.add_members(EIGHT)
    organiser = admin(harness)
    # teams are a Swiss's: a knockout in teams is refused before any sign-up
    refused = await harness.slash(
        organiser, "kasino tournament new", title="Duo", format="knockout", teams=True
    )
    assert refused.ephemeral and "only in a Swiss" in refused.response.content
    signup, tid = await sign_up(
        harness, organiser, title="Pairs", teams=True, rounds=2, round_minutes=30
    )
    row = await stored(harness, tid)
    assert row.settings.game.teams and row.settings.table_size == 4  # teams' table size
    await harness.click(organiser, signup, custom_id=f"k:tour:{tid}:start")
    await harness.env.settle()
    row = await stored(harness, tid)
    tables = round_tables(row)
    assert [len(tr.table.players) for tr in tables] == [4, 4]
    for tr in tables:
        game = await harness.cog.games.storage.get_game(tr.game_id)
        assert game.options.teams and game.sides == 2 and not game.has_computers
        assert [s.user_id for s in game.seats] == list(tr.table.players)
    await harness.env.advance_time(30 * 60 + 1)  # round 1's deadline: decided by score
    row = await stored(harness, tid)
    assert row.round == 2
    first = [tr for tr in row.tables if tr.table.round == 1]
    for tr in first:
        places = tr.result.places
        assert places[0] == places[2] and places[1] == places[3]  # partners share a place
    order = current_standings(row.settings, row.entrants, [tr.result for tr in first],
                              seed=row.seed)  # fmt: skip
    line = {s.user_id: s for s in order}
    for tr in first:
        a, b, c, d = tr.table.players
        for one, partner in ((a, c), (b, d)):
            assert (line[one].match_points, line[one].difference) == (
                line[partner].match_points,
                line[partner].difference,
            )
    posted = [m for m in harness.public_messages() if m.embeds and "standings after round 1"
              in (m.embeds[0].title or "")]  # fmt: skip
    assert len(posted) == 1 and "Tables finished: 2 of 2" in posted[0].embeds[0].description
    assert [len(tr.table.players) for tr in round_tables(row)] == [4, 4]


async def test_the_organiser_is_told_when_threads_cannot_be_made(
    harness: Harness, bot_config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    organiser = admin(harness)
    # a channel where the bot may not make threads: no tournament opens there
    closed = harness.guild.create_text_channel(
        "closed",
        overwrites={harness.guild.me: discord.PermissionOverwrite(create_public_threads=False)},
    )
    refused = await organiser.slash(closed, "kasino tournament new", title="Cup")
    assert refused.ephemeral and "**Create Public Threads**" in refused.response.content
    assert await harness.cog.games.storage.channel_tournament(closed.id) is None
    # the permission is taken away after the sign-up: Discord refuses the threads
    signup, tid = await sign_up(harness, organiser, title="Cup", round_minutes=30)
    made = ThreadPacer.make

    async def refused_thread(*args: Any, **kw: Any) -> int:
        raise discord.Forbidden(
            SimpleNamespace(status=403, reason="Forbidden"), "Missing Permissions"
        )

    monkeypatch.setattr(ThreadPacer, "make", refused_thread)
    await harness.click(organiser, signup, custom_id=f"k:tour:{tid}:start")
    await harness.env.settle()
    row = await stored(harness, tid)
    assert row.phase is Phase.RUNNING and not any(tr.game_id for tr in round_tables(row))

    def warnings() -> list[Any]:
        return [m for m in harness.public_messages() if "**Create Public Threads**" in m.content]

    assert len(warnings()) == 1 and organiser.mention in warnings()[0].content
    # a restart tries again, and does not say it twice in a round
    await harness.restart(KasinoBot(bot_config, seed=20240607))
    assert len(warnings()) == 1 and not harness.channel.threads
    # given the permission, pause and resume open the round's tables
    monkeypatch.setattr(ThreadPacer, "make", made)
    await harness.slash(organiser, "kasino tournament pause")
    await harness.slash(organiser, "kasino tournament resume")
    row = await stored(harness, tid)
    assert (
        all(tr.game_id and tr.thread_id for tr in round_tables(row))
        and len(harness.channel.threads) == 2
    )


async def test_a_cancelled_tournaments_join_says_it_was_cancelled(harness: Harness) -> None:
    """Issue 39: Join on a cancelled sign-up said "has already started"."""
    anna = harness.members[0]
    organiser = admin(harness)
    opened = await harness.slash(organiser, "kasino tournament new", title="Cup")
    signup = opened.response.message
    tid = tour_id(signup)
    cancelled = await harness.click(organiser, signup, custom_id=f"k:tour:{tid}:cancel")
    assert not cancelled.ephemeral
    join = await harness.forge(anna, harness.current(signup), f"k:tour:{tid}:join")
    assert join.ephemeral and "was cancelled" in join.response.content
    assert "already started" not in join.response.content
    assert (await stored(harness, tid)).entrants == []


async def test_forget_me_edits_a_knockouts_messages_without_the_winner(
    harness: Harness,
) -> None:
    """Issue 39: after a tournament, forget-me left the winner's name on its sign-up,
    standings and podium (and on their tables' end messages); each kept message is now
    edited without them, the others' names staying."""
    organiser = admin(harness)
    _, tid = await sign_up(
        harness, organiser, title="Cup", format="knockout", target=5, round_minutes=1440
    )
    await harness.slash(organiser, "kasino tournament start")
    for _ in range(30):
        await harness.env.advance_time(600)
        row = await stored(harness, tid)
        if row.phase is Phase.FINISHED:
            break
    assert row.phase is Phase.FINISHED
    final = next(tr for tr in row.tables if tr.table.round == 2)
    winner = harness.member(final.table.players[final.result.places.index(0)])
    channel = harness.channel.id
    kept = [(channel, row.message_id), (channel, row.extra["podium_id"])]
    kept += [(channel, int(m)) for m in row.extra["standings"].values()]
    for tr in row.tables:
        if winner.id in tr.table.players:
            game = await harness.cog.games.storage.get_game(tr.game_id)
            kept.append((game.channel_id, game.message_id))  # its end, in its thread
    assert len(kept) >= 5
    assert all(winner.name in shows(harness, *where) for where in kept[:2] + kept[-2:])
    asked = await harness.slash(winner, "kasino forget-me")
    yes = next(c for c in custom_ids(asked.response) if c.endswith(":yes"))
    done = await harness.click(winner, asked.response, custom_id=yes)
    assert "Done" in done.response.content
    await harness.cog.forget_posts.idle()
    for where in kept:
        shown = shows(harness, *where)
        assert winner.name not in shown and str(winner.id) not in shown, shown
    podium = shows(harness, *kept[1])
    runner_up = harness.member(next(p for p in final.table.players if p != winner.id))
    assert "🥇 **former player**" in podium and runner_up.name in podium, podium
    assert harness.cog.forget_posts.skipped == 0


def shows(harness: Harness, channel_id: int, message_id: int) -> str:
    """Everything a message shows now, as text."""
    message = harness.env.backend.get_message(channel_id, message_id)
    return (message.content or "") + str(message.embeds)
