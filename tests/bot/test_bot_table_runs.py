"""The table keeps up with the computers: one table post carries a computers' run (its
moves in order) and names who is to move, the channel never gets more than 5 new messages
in 5 s, a hand view never says "Your turn" before the table does, and a restart in the
middle of a run loses no move. Virtual time, Discord's default pauses (1.5 s a computer
move, 5 s between rounds)."""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass
from typing import Any

import pytest
from simcord.http.client import FakeHTTPClient, FakeWebhookAdapter

from bot.client import KasinoBot
from bot.config import Config
from bot.games import RUN_LENGTH, run_after
from bot.i18n import EN
from bot.models import Game, GameOptions, Seat
from bot.render import MOVES_CHARS, moves_text, seat_name
from bot.timers import now
from cogs.play import table
from cogs.play.outbox import MAX_POSTS, WINDOW
from cogs.play.table import RUN_TABLE_EVERY
from tests.bot.kasino_harness import Harness
from tests.dbrows import query

PAUSE = 1.5  # the default computer pause
LATENCY = 0.3  # virtual seconds a channel request (a new message, a deletion) takes
TABLE_TITLE = "Kasino: "  # the table embed's title starts so (a summary's does not)


@pytest.fixture
def bot_config(db_path) -> Config:  # type: ignore[no-untyped-def]
    """The default pauses: computers move 1.5 s apart, rounds are dealt 5 s after."""
    return Config(
        token=None,
        db_path=db_path,
        turn_seconds=300,
        round_pause=5,
        computer_pause=PAUSE,
        hard_budget_ms=10,
    )


@dataclass
class Sent:
    """A request the bot made: a new channel message, or an edit of a hand view."""

    at: float
    body: dict[str, Any]
    after: int = 0  # an edit: how many channel messages were made before it

    @property
    def table(self) -> dict[str, Any] | None:
        """The table embed of a channel message, if it has one."""
        return next(
            (
                e
                for e in self.body.get("embeds") or []
                if e.get("title", "").startswith(TABLE_TITLE)
            ),
            None,
        )

    @property
    def to_move(self) -> str:
        """The table's ``**To move:**`` line (empty when nobody is to move)."""
        table = self.table or {}
        lines = str(table.get("description", "")).splitlines()
        return next((line for line in lines if line.startswith("**To move:**")), "")

    @property
    def moves(self) -> list[str]:
        """The moves the table shows, oldest first (one for ``**Last move:**``)."""
        lines = str((self.table or {}).get("description", "")).splitlines()
        for index, line in enumerate(lines):
            if line.startswith("**Last move:** "):
                return [line.removeprefix("**Last move:** ")]
            if line == "**Last moves:**":
                return [m.removeprefix("· ") for m in lines[index + 1 :] if m.startswith("· ")]
        return []


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> tuple[list[Sent], list[Sent]]:
    """Every new channel message and every hand-view edit, in the order they were made,
    with their virtual times; a channel request takes ``LATENCY`` seconds, as Discord's
    do (a hand view that does not wait for its table would be edited ahead of it)."""
    posts: list[Sent] = []
    edits: list[Sent] = []
    request = FakeHTTPClient.request
    hook = FakeWebhookAdapter.request

    async def counted(self: Any, route: Any, **kw: Any) -> Any:
        if route.path.startswith("/channels/{channel_id}/messages"):
            await asyncio.sleep(LATENCY)
        if route.method == "POST" and route.path == "/channels/{channel_id}/messages":
            posts.append(Sent(now(), dict(kw.get("json") or {})))
        return await request(self, route, **kw)

    async def hooked(self: Any, route: Any, session: Any, **kw: Any) -> Any:
        if route.method == "PATCH" and route.path.endswith("/messages/@original"):
            edits.append(Sent(now(), dict(kw.get("payload") or {}), after=len(posts)))
        return await hook(self, route, session, **kw)

    monkeypatch.setattr(FakeHTTPClient, "request", counted)
    monkeypatch.setattr(FakeWebhookAdapter, "request", hooked)
    return posts, edits


async def person_and_computers(harness: Harness, computers: int, **options: Any) -> Game:
    """Anna hosts and sits first; ``computers`` normal computer players after her."""
    anna = harness.members[0]
    lobby = await harness.open_lobby(anna, **options)
    for _ in range(computers):
        await harness.click(anna, lobby, label="Add normal computer")
    await harness.click(anna, lobby, label="Start")
    game = await harness.game()
    assert game is not None and len(game.seats) == computers + 1
    return game


async def play_rounds(harness: Harness, game: Game, posts: list[Sent], rounds: int = 1) -> None:
    """Anna plays half a second after the table names her (as a person would, seeing it);
    the computers at their pace."""
    anna = harness.members[0]
    while game.status.active and game.match.rounds_played < rounds:
        anna_to_move = not game.seats[game.match.round.to_move].is_computer
        tables = [post for post in posts if post.table is not None]
        if anna_to_move and not game.extra.get("paused") and anna.name in tables[-1].to_move:
            await harness.env.advance_time(0.5)
            await harness.play_move(game, pace=0.2)
        else:
            await harness.env.advance_time(0.25)
    await harness.env.advance_time(2 * WINDOW)  # what is still queued goes out


def logged(harness: Harness, game: Game) -> list[dict[str, Any]]:
    """The game's moves as the database logged them: seat, round and virtual time."""
    sql = "SELECT seat, round, at FROM moves WHERE game_id = ? ORDER BY version"
    return query(harness.env.bot.config.db_path, sql, (game.id,))


def worst_window(times: list[float]) -> int:
    """The most of ``times`` in any ``WINDOW`` seconds."""
    times = sorted(times)
    return max((sum(1 for t in times[i:] if t < start + WINDOW) for i, start in enumerate(times)),
               default=0)  # fmt: skip


def run_until(log: list[dict[str, Any]], at: float) -> list[int]:
    """The seats that moved, in order, since the person (seat 0) last moved in the round
    being played at ``at`` (the run a table posted then should show)."""
    done = [move for move in log if move["at"] <= at]
    if not done:
        return []
    current = [move for move in done if move["round"] == done[-1]["round"]]
    starts = [i for i, move in enumerate(current) if move["seat"] == 0]
    return [move["seat"] for move in current[starts[-1] if starts else 0 :]]


def names_in_order(game: Game, shown: list[str], seats: list[int]) -> bool:
    """Whether the table's move lines are the moves of ``seats``, one each, in order."""
    names = [seat_name(game.seats[seat], EN) + " " for seat in seats]
    return len(shown) == len(names) and all(map(str.startswith, shown, names))


@pytest.mark.usefixtures("virtual_waits")
@pytest.mark.parametrize(
    ("options", "computers"),
    [
        pytest.param({"variant": "krypkasino"}, 5, id="krypkasino-6"),
        pytest.param({}, 3, id="swedish-4"),
    ],
)
async def test_a_round_with_computers_keeps_the_table_up(
    harness: Harness, sent: tuple[list[Sent], list[Sent]], options: dict[str, Any], computers: int
) -> None:
    posts, edits = sent
    if computers > 3:
        harness.add_members()
    game = await person_and_computers(harness, computers, **options)
    anna = harness.members[0]
    await play_rounds(harness, game, posts)
    log = logged(harness, game)
    assert game.match.rounds_played >= 1 and len(log) > 10

    # (a) never over Discord's 5 new messages in any 5 s
    assert worst_window([post.at for post in posts]) <= MAX_POSTS

    # (b) a table naming the person after a run shows that run's moves, in order
    tables = [post for post in posts if post.table is not None]
    turns = [post for post in tables if anna.name in post.to_move]
    runs = [post for post in turns if post.moves and len(run_until(log, post.at)) > 1]
    assert runs, "no table after a computers' run"
    for post in runs:
        assert names_in_order(game, post.moves, run_until(log, post.at)), post.moves
    # one table per computers' run, and one at most every RUN_TABLE_EVERY seconds within it
    computer_moves = sum(1 for move in log if move["seat"] != 0)
    assert len(tables) < computer_moves

    # a run longer than RUN_TABLE_EVERY is shown on its way, never at every move: tables
    # naming a computer with no person to move in between are that far apart
    runs: list[list[float]] = [[]]
    for post in posts:
        if post.table is not None and "🤖" in post.to_move:
            runs[-1].append(post.at)
        else:
            runs.append([])
    gaps = [b - a for run in runs for a, b in itertools.pairwise(run)]
    assert all(gap >= RUN_TABLE_EVERY - PAUSE for gap in gaps), gaps
    assert bool(gaps) == (computers * PAUSE > RUN_TABLE_EVERY)

    # (c) the hand view says "Your turn" only once the table naming the person is posted
    turn_edits = [edit for edit in edits if "**Your turn**" in str(edit.body.get("content"))]
    assert turn_edits, "the person's hand view never followed to their turn"
    for edit in turn_edits:
        latest = [post for post in posts[: edit.after] if post.table is not None][-1]
        assert anna.name in latest.to_move, (edit.at, latest.at, latest.to_move)
        assert anna.mention in str(latest.body.get("content"))


@pytest.mark.usefixtures("virtual_waits")
async def test_the_hand_view_waits_for_a_table_the_channel_holds_back(
    harness: Harness, sent: tuple[list[Sent], list[Sent]]
) -> None:
    """The channel has just had its 5 messages (summaries, other tables): the table that
    names the person waits for the budget, and their hand view says "Your turn" only
    after it, not at the computer's move."""
    posts, edits = sent
    game = await person_and_computers(harness, 1)
    anna = harness.members[0]
    while game.seats[game.match.round.to_move].is_computer:
        await harness.env.advance_time(0.5)
    await harness.env.advance_time(2 * WINDOW)
    # the channel's budget is spent now: the next new message waits for the window
    spent = now()
    harness.cog.table.outbox._sent[harness.channel.id].extend([spent] * MAX_POSTS)
    shown, followed = len(posts), len(edits)
    await harness.play_move(game, pace=0)  # her hand view stays open, followed
    await harness.env.advance_time(PAUSE)  # the computer moves: her turn again
    assert not game.seats[game.match.round.to_move].is_computer
    await harness.env.advance_time(WINDOW)
    turn = [edit for edit in edits[followed:] if "**Your turn**" in str(edit.body["content"])]
    assert turn, "her hand view did not follow"
    tables = [post for post in posts[shown : turn[0].after] if post.table is not None]
    assert tables and anna.name in tables[-1].to_move, [t.to_move for t in tables]
    assert tables[-1].at >= spent + WINDOW and turn[0].at >= tables[-1].at


@pytest.mark.usefixtures("virtual_waits")
async def test_a_restart_in_a_long_run_loses_no_move(
    harness: Harness,
    sent: tuple[list[Sent], list[Sent]],
    bot_config: Config,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Killed after two computers' moves of five; the new process plays the rest, shows
    the run on its way (slow computers: the table waits at most 5.5 s here) and whole when
    it is the person's turn."""
    monkeypatch.setattr(table, "RUN_TABLE_EVERY", 4 * PAUSE - 0.5)
    posts, _ = sent
    harness.add_members()
    game = await person_and_computers(harness, 5, variant="krypkasino")
    anna = harness.members[0]
    while game.seats[game.match.round.to_move].is_computer:
        await harness.env.advance_time(0.25)
    await harness.env.advance_time(2 * WINDOW)  # the channel's posts are all out
    await harness.play_move(game, pace=0)
    while len(game.extra["run"]) < 3:  # two computers move after anna: no table yet
        await harness.env.advance_time(0.25)
    assert game.seats[game.match.round.to_move].is_computer
    harness.cog.timers.cancel_all()  # killed: the old process starts no more moves
    await harness.env.settle()
    shown, moved = len(posts), len(logged(harness, game))
    saved = query(bot_config.db_path, "SELECT extra FROM games WHERE id = ?", (game.id,))
    extra = saved[0]["extra"]
    held = len((json.loads(extra) if isinstance(extra, str) else extra)["run"])
    assert 3 <= held < 6  # anna's move and the computers' so far, committed with them
    shown_last = [post for post in posts if post.table is not None][-1]
    assert names_in_order(game, shown_last.moves, [0])  # no table for the held moves
    await harness.restart(KasinoBot(bot_config, seed=7))
    game = await harness.game()
    while game.seats[game.match.round.to_move].is_computer:
        await harness.env.advance_time(0.25)
    await harness.env.advance_time(WINDOW)
    *on_its_way, last = [post for post in posts[shown:] if post.table is not None]
    assert len(logged(harness, game)) == moved + 6 - held  # the new process played the rest
    assert anna.name in last.to_move
    assert names_in_order(game, last.moves, [0, 1, 2, 3, 4, 5]), last.moves
    assert on_its_way and all("🤖" in post.to_move for post in on_its_way)
    for post in on_its_way:  # the run so far, anna's move first
        assert names_in_order(game, post.moves, list(range(len(post.moves)))), post.moves


def test_a_run_is_kept_in_order_and_a_person_starts_a_new_one() -> None:
    seats = [Seat(1, "anna")] + [Seat.computer("normal", n) for n in range(1, 6)]
    game = Game(1, 1, 1, 1, GameOptions(variant="krypkasino"), seats)
    game.extra["run"] = run_after(game, 0, {"en": "anna"})
    for seat in range(1, 6):
        game.extra["run"] = run_after(game, seat, {"en": f"bot {seat}"})
    assert [said["en"] for said in game.extra["run"]] == ["anna"] + [
        f"bot {n}" for n in range(1, 6)
    ]
    game.extra["run"] = run_after(game, 1, {"en": "bot 1 again"})  # never longer than kept
    assert len(game.extra["run"]) == RUN_LENGTH and game.extra["run"][-1]["en"] == "bot 1 again"
    assert run_after(game, 0, {"en": "anna again"}) == [{"en": "anna again"}]


def test_the_moves_of_a_run_fit_and_the_newest_is_never_left_out() -> None:
    assert moves_text(["anna took 5♣"]) == "**Last move:** anna took 5♣"
    assert moves_text(["a", "b", "c"]) == "**Last moves:**\n· a\n· b\n· c"
    long = [f"bot {n} " + "x" * 600 for n in range(6)]
    text = moves_text(long)
    assert len(text) <= MOVES_CHARS + 100 and text.endswith(long[-1])
    assert "\n· …\n" in text and long[0] not in text
