"""Correspondence games (issue 43): a pace of days a move, the turn's notice, its warning
and the loss on time, over virtual days."""

from __future__ import annotations

import pytest

from bot.models import PACES, Status, Timer
from tests.bot.kasino_harness import Harness
from tests.bot.old_edits import OldEdits
from tests.bot.test_ladder import queue
from tests.bot.test_two_tables import two_servers

DAY = PACES["1d"]
HOUR = 3600


@pytest.fixture(autouse=True)
def capped(monkeypatch: pytest.MonkeyPatch) -> OldEdits:
    """Every game here runs against Discord's cap on edits of hour-old messages (the
    strictest reading: none): a game of days must never need one."""
    edits = OldEdits()
    edits.install(monkeypatch)
    return edits


def mentions_of(harness: Harness, user_id: int) -> list[str]:
    """Every public message's content that pings this person."""
    return [
        m.content for m in harness.public_messages() if m.content and f"<@{user_id}>" in m.content
    ]


@pytest.mark.usefixtures("virtual_waits")
async def test_a_day_a_move_warns_then_loses_on_time(harness: Harness, capped: OldEdits) -> None:
    """The table pings the person to move once (their notice) and says until when they
    have; a quarter of the day before the end a warning mentions them; at the end they
    lose the match, rated as any loss."""
    game = await harness.start_game(pace="1d")
    assert game.options.correspondence and game.options.move_seconds == DAY
    mover = game.seats[game.match.round.to_move]
    clock = game.extra["clock"]
    assert clock["noticed"] and game.timer is Timer.WARN
    assert clock["ends"] - clock["warn"] == DAY / 4
    table = harness.table_message(game)
    assert f"<@{mover.user_id}>, your turn" in table.content
    assert f"<t:{int(clock['ends'])}:R>" in str(table.embeds[0].to_dict())
    assert "1 day a move" in str(table.embeds[0].to_dict())
    pinged = len(mentions_of(harness, int(mover.user_id)))
    await harness.env.advance_time(DAY * 3 / 4 - HOUR)
    assert len(mentions_of(harness, int(mover.user_id))) == pinged  # nothing more yet
    await harness.env.advance_time(2 * HOUR)
    warned = mentions_of(harness, int(mover.user_id))
    assert len(warned) == pinged + 1 and "runs out" in warned[-1]
    assert game.timer is Timer.LATE and game.extra["clock"]["warned"]
    await harness.env.advance_time(DAY / 4)
    stored = await harness.cog.games.storage.get_game(game.id)
    assert stored.status is Status.ABANDONED
    late = stored.extra["lost_on_time"]
    assert stored.seats[late].user_id == mover.user_id
    assert any("ran out of time" in (m.content or "") for m in harness.public_messages())
    assert capped.refused == []  # the day-old lobby was left as it was
    rows = await harness.cog.games.storage.fetch(
        "SELECT user_id, won FROM results WHERE game_id = ?", [game.id]
    )
    assert {int(u): bool(w) for u, w in rows} == {
        int(s.user_id): s.user_id != mover.user_id for s in game.seats
    }


@pytest.mark.usefixtures("virtual_waits")
async def test_a_move_starts_the_next_turn_with_a_whole_day(harness: Harness) -> None:
    game = await harness.start_game(pace="12h")
    await harness.env.advance_time(5 * HOUR)
    await harness.play_move(game, pace=0)
    clock = game.extra["clock"]
    assert clock["ends"] - harness.env.now().timestamp() == pytest.approx(PACES["12h"], abs=1)
    assert not clock.get("warned")
    mover = game.seats[game.match.round.to_move]
    assert f"<@{mover.user_id}>, your turn" in harness.table_message(game).content


@pytest.mark.usefixtures("virtual_waits")
async def test_the_ladder_pairs_a_pace_with_the_same_pace_only(harness: Harness) -> None:
    """A correspondence pool is its own: a live queuer is not paired with someone waiting
    for a day a move; two of the same pace are, into a correspondence match."""
    anna, here, erik, there = await two_servers(harness)
    bjorn = harness.members[1]
    waiting = await queue(harness, anna, here, pace="1d")
    assert "1 day a move" in str(waiting.embeds[0].to_dict())
    elsewhere = harness.guild.create_text_channel("live")
    await queue(harness, bjorn, elsewhere)
    await harness.env.advance_time(1)
    assert await harness.cog.games.active(here.id) is None  # the paces never meet
    await queue(harness, erik, there, pace="1d")
    await harness.env.advance_time(1)
    game = await harness.cog.games.active(here.id)
    assert game is not None and game.extra.get("ladder")
    assert game.options.pace == "1d" and "clock" in game.extra
    assert {s.user_id for s in game.seats} == {anna.id, erik.id}
    await harness.env.advance_time(60)
    mover = game.seats[game.match.round.to_move]
    for channel in (here, there):
        pings = [m for m in channel.history() if f"<@{mover.user_id}>" in (m.content or "")]
        assert len(pings) == (1 if mover.user_id == (anna if channel is here else erik).id else 0)


class Told:
    """How each person is told, as /kasino settings would keep it (the notices' hooks),
    and the DMs sent: ``refuse`` holds the people whose DMs Discord refuses; ``quiet``
    each person's quiet periods (start, end)."""

    def __init__(
        self, harness: Harness, how: dict[int, str], refuse: frozenset[int] = frozenset()
    ) -> None:
        self.how, self.refuse = how, set(refuse)
        self.dms: list[tuple[int, dict]] = []
        self.quiet: dict[int, list[tuple[float, float]]] = {}
        notices = harness.cog.notices
        notices.how_of = lambda user: self.how.get(user, "mention")
        notices.quiet_until = lambda user, at: self._period(user, at, 1)
        notices.quiet_from = lambda user, at: self._period(user, at, 0)
        notices.send_dm = self.send_dm

    def _period(self, user: int, at: float, end: int) -> float | None:
        period = next((p for p in self.quiet.get(user, []) if p[0] <= at < p[1]), None)
        return None if period is None else period[end]

    async def send_dm(self, user: int, **message: object) -> bool:
        if user in self.refuse:
            return False
        self.dms.append((user, message))
        return True


@pytest.mark.usefixtures("virtual_waits")
async def test_a_dm_notice_once_a_turn_and_no_ping(harness: Harness) -> None:
    """Who chose DMs gets one DM a turn, with "Your hand" for that game, and the table
    names them without a ping; who chose nothing gets nothing, not even the warning."""
    anna, bjorn = harness.members[:2]
    told = Told(harness, {anna.id: "dm", bjorn.id: "none"})
    game = await harness.start_game(pace="1d")
    turns = 0
    for _ in range(4):
        turns += game.seats[game.match.round.to_move].user_id == anna.id
        await harness.play_move(game, pace=HOUR)
    turns += game.seats[game.match.round.to_move].user_id == anna.id
    assert [user for user, _ in told.dms] == [anna.id] * turns
    _, message = told.dms[-1]
    hand = [item.custom_id for item in message["view"].children if item.custom_id]
    if game.seats[game.match.round.to_move].user_id == anna.id:
        assert hand == [f"k:hand:{game.id}:{game.version}"]
    assert message["embed"].title == f"🔔 Your move in game #{game.id}"
    assert not mentions_of(harness, anna.id) and not mentions_of(harness, bjorn.id)
    late = game.seats[game.match.round.to_move].user_id
    await harness.env.advance_time(DAY)
    assert game.status is Status.ABANDONED
    warned = [m["embed"].title for user, m in told.dms if "runs out" in m["embed"].title]
    assert warned == ([f"⏰ Your time runs out in game #{game.id}"] if late == anna.id else [])
    assert not mentions_of(harness, bjorn.id)


@pytest.mark.usefixtures("virtual_waits")
async def test_a_refused_dm_falls_back_to_the_mention(harness: Harness) -> None:
    anna = harness.members[0]
    told = Told(harness, {anna.id: "dm"}, refuse={anna.id})
    game = await harness.start_game(pace="1d")
    if game.seats[game.match.round.to_move].user_id != anna.id:
        await harness.play_move(game, pace=1)
    await harness.env.advance_time(1)
    assert not told.dms
    pinged = mentions_of(harness, anna.id)
    assert len(pinged) == 1 and "your move in game" in pinged[0]


@pytest.mark.usefixtures("virtual_waits")
async def test_a_notice_waits_for_the_end_of_quiet_hours(harness: Harness) -> None:
    """A turn that begins in its mover's quiet hours is shown without a ping; the mention
    comes when they end; the warning that would fall in them comes before they begin."""
    anna, bjorn = harness.members[:2]
    told = Told(harness, {})
    start = harness.env.now().timestamp()
    for person in (anna, bjorn):
        # quiet for the first 8 hours, and again from 15 to 20 hours after the start
        told.quiet[person.id] = [(start, start + 8 * HOUR), (start + 15 * HOUR, start + 20 * HOUR)]
    game = await harness.start_game(pace="1d")
    mover = int(game.seats[game.match.round.to_move].user_id)
    assert f"<@{mover}>" not in (harness.table_message(game).content or "")
    assert game.timer is Timer.NOTICE
    await harness.env.advance_time(8 * HOUR - 60)
    assert not mentions_of(harness, mover)
    await harness.env.advance_time(120)
    pinged = mentions_of(harness, mover)
    assert len(pinged) == 1 and "your move in game" in pinged[0]
    # the warning, due 18 hours after the start, is in the quiet hours: it comes at 15
    assert game.timer is Timer.WARN and game.deadline == start + 15 * HOUR
    await harness.env.advance_time(7 * HOUR)
    assert len(mentions_of(harness, mover)) == 2 and game.extra["clock"]["warned"]


@pytest.mark.usefixtures("virtual_waits")
async def test_a_team_game_warns_the_partner_too(harness: Harness) -> None:
    game = await harness.start_game(players=4, teams=True, pace="12h")
    mover = game.match.round.to_move
    partner = game.seats[(mover + 2) % 4]
    await harness.env.advance_time(PACES["12h"] * 3 / 4 + 1)
    warning = [m for m in harness.public_messages() if (m.content or "").startswith("⏰")]
    assert len(warning) == 1
    assert f"<@{game.seats[mover].user_id}>" in warning[0].content
    assert f"<@{partner.user_id}>" in warning[0].content
    others = [s for i, s in enumerate(game.seats) if i not in (mover, (mover + 2) % 4)]
    assert all(f"<@{s.user_id}>" not in warning[0].content for s in others)


@pytest.mark.usefixtures("virtual_waits")
async def test_vacation_stops_the_clock_and_ending_it_early_starts_it_again(
    harness: Harness,
) -> None:
    """The person to move takes two days off: their turn's end moves two days later and a
    fresh table says until when; the day they had passes without a loss; back early, the
    turn's end moves back by the days not used, and then the clock runs out."""
    game = await harness.start_game(pace="1d")
    mover = harness.member(int(game.seats[game.match.round.to_move].user_id))
    ends = game.extra["clock"]["ends"]
    await harness.env.advance_time(HOUR)
    away = await harness.slash(mover, "kasino vacation", days=2)
    assert away.ephemeral and "You are away until" in away.response.content
    assert game.extra["clock"]["ends"] == pytest.approx(ends + 2 * DAY)
    table = harness.table_message(game)
    assert "on vacation until" in str(table.embeds[0].to_dict())
    assert f"<@{mover.id}>" not in (table.content or "")  # told once a turn: no new ping
    await harness.env.advance_time(DAY)
    assert game.status is Status.PLAYING  # the day they had is gone, the clock stood still
    back = await harness.slash(mover, "kasino vacation", days=0)
    assert "Welcome back" in back.response.content
    left = game.extra["clock"]["ends"] - harness.env.now().timestamp()
    assert left == pytest.approx(DAY - HOUR, abs=60)  # what was left when they went away
    assert "on vacation" not in str(harness.table_message(game).embeds[0].to_dict())
    await harness.env.advance_time(left + 1)
    assert game.status is Status.ABANDONED and game.extra["lost_on_time"] is not None


@pytest.mark.usefixtures("virtual_waits")
async def test_a_turn_that_begins_during_a_vacation_starts_when_it_ends(
    harness: Harness,
) -> None:
    game = await harness.start_game(pace="12h")
    other = harness.member(int(game.seats[1 - game.match.round.to_move].user_id))
    await harness.slash(other, "kasino vacation", days=1)
    await harness.play_move(game, pace=0)
    clock = game.extra["clock"]
    assert clock["away"] == pytest.approx(harness.env.now().timestamp() + DAY, abs=60)
    assert clock["ends"] == pytest.approx(clock["away"] + PACES["12h"])
