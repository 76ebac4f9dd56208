"""Correspondence notices as people meet them: ``/kasino settings`` (shown, changed, a bad
zone refused), a DM Discord refuses (``Notifier.dm`` answers False, the flag is set and
said in /kasino settings), ``/kasino vacation`` (taken, ended early, days given back, the
monthly limit), the daily digest (once a day at the person's hour in their zone, never in
their quiet hours), and forget-me removing the settings."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.client import KasinoBot
from bot.config import Config
from bot.correspondence import VACATION_DAYS, NoticePrefs
from bot.correspondence.prefs import DAY
from tests.bot.dm_refusals import DMRefusals
from tests.bot.kasino_harness import Harness, custom_ids
from tests.dbrows import query

HOUR = 3600.0


def shown(result: Any) -> str:
    """An answer's text and embeds, as one string."""
    response = result.response
    assert response is not None and result.ephemeral, result
    parts = [response.content or ""]
    for embed in response.embeds:
        data = embed.to_dict()
        parts += [data.get("title", ""), data.get("description", "")]
        parts += [f"{f['name']}: {f['value']}" for f in data.get("fields", [])]
    return "\n".join(parts)


def dms(harness: Harness, member: Any) -> list[Any]:
    """The messages in the bot's DM with ``member``, oldest first."""
    backend = harness.env.backend
    channel_id = backend.dm_channels.get(int(member.id))
    if channel_id is None:
        return []
    return sorted(backend.messages.get(channel_id, {}).values(), key=lambda m: m.id)


def now(harness: Harness) -> float:
    return harness.env.now().timestamp()


async def test_settings_are_shown_and_changed(harness: Harness, db_path: Any) -> None:
    anna = harness.members[0]
    first = shown(await harness.slash(anna, "kasino settings"))
    assert "Your correspondence notices" in first
    assert "A mention in the game's channel" in first and "Quiet hours: Off" in first
    assert f"{VACATION_DAYS} of {VACATION_DAYS} vacation days left" in first
    changed = shown(
        await harness.slash(
            anna, "kasino settings", zone="europe/stockholm", quiet_from=22, quiet_until=7
        )
    )
    assert "Saved." in changed and "Europe/Stockholm" in changed
    assert "22:00 to 07:00" in changed
    prefs = harness.cog.prefs.of(anna.id)
    assert (prefs.tz, prefs.quiet_start, prefs.quiet_end) == ("Europe/Stockholm", 22, 7)
    # stored, and the start of the other end kept when only one end changes
    await harness.slash(anna, "kasino settings", quiet_until=6)
    row = query(db_path, "SELECT tz, quiet_start, quiet_end FROM notice_prefs")[0]
    assert (row["tz"], row["quiet_start"], row["quiet_end"]) == ("Europe/Stockholm", 22, 6)
    off = shown(await harness.slash(anna, "kasino settings", quiet_off=True))
    assert "Quiet hours: Off" in off
    # someone else's settings are their own
    assert harness.cog.prefs.of(harness.members[1].id) == NoticePrefs()


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"zone": "Mars/Olympus_Mons"}, "I do not know the time zone"),
        ({"zone": "../../etc/passwd"}, "I do not know the time zone"),
        ({"quiet_from": 22}, "Quiet hours need both ends"),
        ({"quiet_from": 7, "quiet_until": 7}, "must end at another hour"),
        ({"quiet_from": 22, "quiet_until": 7, "quiet_off": True}, "not both at once"),
    ],
)
async def test_bad_settings_are_refused_and_change_nothing(
    harness: Harness, db_path: Any, options: dict[str, Any], said: str
) -> None:
    anna = harness.members[0]
    answer = await harness.slash(anna, "kasino settings", notices="dm", **options)
    assert answer.ephemeral and said in answer.response.content
    assert "Nothing changed" in answer.response.content
    assert query(db_path, "SELECT * FROM notice_prefs") == []
    assert dms(harness, anna) == []


async def test_the_zone_list_offers_matching_zones(harness: Harness) -> None:
    from cogs.correspondence.settings import zone_choices

    found = [c.value for c in zone_choices("stockh")]
    assert found == ["Europe/Stockholm"]
    assert len(zone_choices("")) == 25 and zone_choices("new york")[0].value == "America/New_York"


async def test_a_refused_dm_falls_back_and_is_said(
    harness: Harness, discord_dm_refusals: DMRefusals
) -> None:
    anna = harness.members[0]
    discord_dm_refusals.close_dms(anna)
    chosen = shown(await harness.slash(anna, "kasino settings", notices="dm"))
    assert "Discord refused the bot's direct message" in chosen
    assert "until you open your DMs and choose DM again" in chosen
    prefs = harness.cog.prefs.of(anna.id)
    assert prefs.how == "dm" and prefs.dm_refused and prefs.told_by == "mention"
    assert discord_dm_refusals.refused == [anna.id] and dms(harness, anna) == []
    # the notifier answers False and notes it once (no second write, no exception)
    assert await harness.cog.notifier.dm(anna.id, content="your move") is False
    assert harness.cog.prefs.of(anna.id).dm_refused
    again = shown(await harness.slash(anna, "kasino settings"))
    assert again.count("until you open your DMs and choose DM again") == 1
    # she opens her DMs and chooses a DM again: it reaches her
    discord_dm_refusals.open_dms(anna)
    reopened = shown(await harness.slash(anna, "kasino settings", notices="dm"))
    assert "sent you a direct message" in reopened and "DMs are closed" not in reopened
    assert not harness.cog.prefs.of(anna.id).dm_refused
    assert len(dms(harness, anna)) == 1
    assert await harness.cog.notifier.dm(anna.id, content="your move", nonce="k1") is True
    assert [m.content for m in dms(harness, anna)][-1] == "your move"


async def test_a_dm_sent_again_with_its_nonce_makes_one_message(harness: Harness) -> None:
    anna = harness.members[0]
    notifier = harness.cog.notifier
    assert await notifier.dm(anna.id, content="your move", nonce="kdigest1")
    assert await notifier.dm(anna.id, content="your move", nonce="kdigest1")  # after a kill
    assert [m.content for m in dms(harness, anna)] == ["your move"]


async def test_vacation_taken_ended_early_and_the_monthly_limit(
    harness: Harness, virtual_waits: None
) -> None:
    anna = harness.members[0]
    shifts: list[tuple[int, float]] = []
    harness.cog.settings_flow.on_away = lambda user, shift: shifts.append((user, shift))
    start = now(harness)
    taken = await harness.slash(anna, "kasino vacation", days=3)
    text = taken.response.content
    assert f"You are away until <t:{int(start + 3 * DAY)}:f>" in text
    assert f"You have {VACATION_DAYS - 3} vacation days left this month." in text
    assert shifts == [(anna.id, 3 * DAY)]
    again = await harness.slash(anna, "kasino vacation", days=1)
    assert "already away" in again.response.content and len(shifts) == 1
    assert "Away until" in shown(await harness.slash(anna, "kasino settings"))
    await harness.env.advance_time(DAY + 2 * HOUR)
    ended = await harness.slash(anna, "kasino vacation", days=0)
    assert "Welcome back" in ended.response.content
    assert "1 unused day was given back" in ended.response.content
    assert shifts[-1] == (anna.id, -(2 * DAY - 2 * HOUR))
    left = VACATION_DAYS - 2
    assert f"You have {left} vacation days left this month." in ended.response.content
    too_many = await harness.slash(anna, "kasino vacation", days=left + 1)
    assert f"You have {left} vacation days left this month" in too_many.response.content
    assert "Nothing changed" in too_many.response.content and len(shifts) == 2
    home = await harness.slash(anna, "kasino vacation", days=0)
    assert "not on vacation" in home.response.content and len(shifts) == 2
    assert harness.cog.prefs.of(anna.id).away_days == 2


async def test_forget_me_removes_the_settings(harness: Harness, db_path: Any) -> None:
    anna = harness.members[0]
    await harness.slash(anna, "kasino settings", zone="Europe/Helsinki", notices="none")
    await harness.slash(anna, "kasino vacation", days=2)
    assert query(db_path, "SELECT * FROM notice_prefs")
    asked = await harness.slash(anna, "kasino forget-me")
    yes = next(c for c in custom_ids(asked.response) if c.endswith(":yes"))
    await harness.click(anna, asked.response, custom_id=yes)
    assert query(db_path, "SELECT * FROM notice_prefs") == []
    assert harness.cog.prefs.of(anna.id) == NoticePrefs()


async def waiting_game(harness: Harness) -> tuple[Any, Any, Any]:
    """A correspondence match of two people whose clock stands still (the coordinator's
    clock is not part of this test): the game, the person to move, and the other."""
    game = await harness.start_game(2, pace="3d")
    harness.cog.timers.cancel(game.id)  # no reminders or automatic moves in these days
    stored = await harness.cog.games.storage.get_game(game.id)
    assert stored is not None and stored.options.pace == "3d"  # the pace is kept
    mover = game.seats[game.match.round.to_move].user_id
    first, second = harness.members[:2]
    return game, (first if first.id == mover else second), (second if first.id == mover else first)


async def test_the_daily_digest_at_the_persons_hour_outside_quiet_hours(
    harness: Harness, virtual_waits: None
) -> None:
    game, mover, other = await waiting_game(harness)
    # SimCord's clock starts on 1 January 2026, 00:00 UTC: 01:00 in Stockholm (UTC+1)
    start = now(harness)
    assert dt.datetime.fromtimestamp(start, dt.UTC).hour == 0
    await harness.slash(mover, "kasino settings", notices="digest", zone="Europe/Stockholm",
                        quiet_from=22, quiet_until=7, digest_hour=18)  # fmt: skip
    await harness.slash(other, "kasino settings", notices="digest")  # not their move
    assert [m.content for m in dms(harness, mover)] == [
        "This is where the bot tells you of your turns in correspondence games"
        " (set with /kasino settings)."
    ]
    await harness.env.advance_time(17 * HOUR - 120)  # 17:58 in Stockholm
    assert len(dms(harness, mover)) == 1
    await harness.env.advance_time(180)  # 18:01
    digest = dms(harness, mover)[-1]
    assert len(dms(harness, mover)) == 2
    assert digest.embeds[0]["title"] == "1 game waits for you"
    assert f"k:hand:{game.id}:{game.version}" in [c["custom_id"] for c in _buttons(digest)]
    assert len(dms(harness, other)) == 1  # the other player's digest: nothing waits
    await harness.env.advance_time(5 * HOUR)  # the evening: nothing more
    assert len(dms(harness, mover)) == 2
    # at 23:01 she moves it to 23:00, in her quiet hours (22 to 7): today's waits for 07:00
    await harness.slash(mover, "kasino settings", digest_hour=23)
    await harness.env.advance_time(7 * HOUR)  # 2 January, 06:01 in Stockholm: quiet
    assert len(dms(harness, mover)) == 2
    await harness.env.advance_time(HOUR)  # 07:01
    assert len(dms(harness, mover)) == 3  # between 06:01 and 07:01: at 07:00
    await harness.env.advance_time(DAY - HOUR)  # 3 January 06:01: not yet
    assert len(dms(harness, mover)) == 3


async def test_the_digest_is_not_sent_twice_across_a_restart(
    harness: Harness, virtual_waits: None, bot_config: Config
) -> None:
    game, mover, _ = await waiting_game(harness)
    await harness.slash(mover, "kasino settings", notices="digest", digest_hour=1)
    await harness.env.advance_time(HOUR + 60)  # 01:01 UTC: sent
    assert len(dms(harness, mover)) == 2
    await harness.restart(KasinoBot(bot_config, seed=20240607))
    harness.cog.timers.cancel(game.id)
    await harness.env.advance_time(HOUR)
    assert len(dms(harness, mover)) == 2  # not again after the restart
    await harness.env.advance_time(DAY - HOUR)  # the next day's at 01:00
    assert len(dms(harness, mover)) == 3


def _buttons(message: Any) -> list[dict[str, Any]]:
    found = []
    for row in message.components or []:
        data = row if isinstance(row, dict) else row.to_dict()
        found += [c for c in data.get("components", []) if c.get("type") == 2]
    return found


async def test_a_refused_digest_is_noted_and_said(
    harness: Harness, virtual_waits: None, discord_dm_refusals: DMRefusals
) -> None:
    _, mover, _ = await waiting_game(harness)
    await harness.slash(mover, "kasino settings", notices="digest", digest_hour=2)
    discord_dm_refusals.close_dms(mover)  # after the first DM reached her
    await harness.env.advance_time(2 * HOUR + 60)
    assert discord_dm_refusals.refused == [mover.id] and len(dms(harness, mover)) == 1
    prefs = harness.cog.prefs.of(mover.id)
    assert prefs.dm_refused and prefs.told_by == "mention"
    said = shown(await harness.slash(mover, "kasino settings"))
    assert said.count("until you open your DMs and choose DM again") == 1
    await harness.env.advance_time(DAY)  # no more tries while refused
    assert discord_dm_refusals.refused == [mover.id]


async def test_a_dm_notice_is_in_the_persons_language(
    harness: Harness, virtual_waits: None
) -> None:
    """The turn's DM speaks the language Anna's client had when she chose DMs (Finnish),
    while the table in the English server stays English."""
    anna, bjorn = harness.members[:2]
    for member in (anna, bjorn):
        await harness.cog.prefs.save(member.id, NoticePrefs(how="dm", locale="fi"))
    game = await harness.start_game(2, pace="1d")
    await harness.env.advance_time(60)
    mover = game.seats[game.match.round.to_move].user_id
    person = anna if mover == anna.id else bjorn
    told = [m.embeds[0]["title"] for m in dms(harness, person) if m.embeds]
    assert told == [f"🔔 Sinun vuorosi pelissä #{game.id}"]
    table = harness.table_message(game)
    assert "Swedish Kasino" in str([e.to_dict() for e in table.embeds]), table.embeds
