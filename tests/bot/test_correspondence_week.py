"""Issue 43's "done when": two people play a Swedish Kasino match at a day a move over a
simulated week, each told the way they chose (Anna by DM, with quiet hours at night in
Stockholm; Bjorn by the mention in the game's channel), each playing every move from
``/kasino games`` (Anna in her DM with the bot, Bjorn in the server's channel), against
the tests' Discord with its cap on edits of hour-old messages."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from simcord.http import router as sim_router

from bot.models import PACES, Status
from tests.bot.kasino_harness import MESSAGES_ROUTE, Harness, cid
from tests.bot.old_edits import OldEdits
from tests.bot.test_correspondence_prefs import dms
from tests.bot.test_games_list import play_from

WEEK = 7 * 24 * 3600
STOCKHOLM = ZoneInfo("Europe/Stockholm")
QUIET = (23, 7)  # Anna's quiet hours, her time


def quiet_for_anna(at: float) -> bool:
    hour = dt.datetime.fromtimestamp(at, STOCKHOLM).hour
    return hour >= QUIET[0] or hour < QUIET[1]


def notices_to(harness: Harness, member: Any) -> list[float]:
    """When the bot sent ``member`` each turn notice by DM."""
    return [
        dt.datetime.fromisoformat(message.timestamp).timestamp()
        for message in dms(harness, member)
        if any(str(embed.get("title", "")).startswith("🔔") for embed in message.embeds or [])
    ]


def sent_to(harness: Harness, member: Any) -> list[Any]:
    """The messages the bot sent ``member`` by DM on its own (not answers to commands)."""
    return [m for m in dms(harness, member) if m.interaction_metadata is None]


class Posted:
    """Every channel message the bot makes (old tables are deleted: this keeps their
    words), by wrapping Create Message in the tests' Discord."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.contents: list[str] = []
        routes = sim_router._ROUTES
        monkeypatch.setitem(
            routes,
            "POST",
            [(t, self.wrap(h) if t == MESSAGES_ROUTE else h) for t, h in routes["POST"]],
        )

    def wrap(self, handler: Any) -> Any:
        def create(ctx: Any) -> Any:
            made = handler(ctx)
            self.contents.append(str(made.get("content") or ""))
            return made

        return create

    def pings_of(self, member: Any) -> int:
        """How many messages made mention ``member``."""
        return sum(f"<@{member.id}>" in content for content in self.contents)


async def from_the_list(harness: Harness, actor: Any, game: Any, **where: Any) -> None:
    """``actor`` lists their games (``where``: in a channel, else their DM with the bot),
    opens the hand of ``game`` from the list and plays the safe move there."""
    who = actor if where else actor.user  # a member in a channel, the person in a DM
    listing = await (who.slash(where["channel"], "kasino games") if where else
                     who.slash("kasino games"))  # fmt: skip
    assert listing.ephemeral and f"#{game.id}" in str(listing.response.embeds[0].to_dict())
    hand = cid(listing.response, f"k:hand:{game.id}:")
    opened = await who.click(listing.response, custom_id=hand)
    assert opened.ephemeral
    before = game.version
    await play_from(who, opened.response, game)
    assert game.version > before


@pytest.mark.usefixtures("virtual_waits")
async def test_a_week_of_a_move_a_day(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    capped = OldEdits()
    capped.install(monkeypatch)
    posted = Posted(monkeypatch)
    anna, bjorn = harness.members[:2]
    settings = await harness.slash(
        anna, "kasino settings", notices="dm", zone="Europe/Stockholm", quiet_from=23,
        quiet_until=7,
    )  # fmt: skip
    assert settings.ephemeral
    test_dms = len(sent_to(harness, anna))  # /kasino settings checks that a DM reaches her
    start = harness.env.now().timestamp()
    game = await harness.start_game(pace="1d")
    assert game.options.move_seconds == PACES["1d"]
    rng = random.Random(43)
    turns = {anna.id: 0, bjorn.id: 0}
    asleep = 0  # Anna's turns that began in her quiet hours
    while game.status is Status.PLAYING:
        if game.extra.get("paused"):  # between two rounds: the next is dealt in a moment
            await harness.env.advance_time(60)
            continue
        mover = harness.member(int(game.seats[game.match.round.to_move].user_id))
        turns[mover.id] += 1
        asleep += mover is anna and quiet_for_anna(harness.env.now().timestamp())
        wait = rng.uniform(5 * 60, 60 * 60)  # whenever it suits them, well within a day
        at = harness.env.now().timestamp() + wait
        if mover is anna:
            while quiet_for_anna(at):  # she sleeps: her move comes in the morning
                at += 1800
        await harness.env.advance_time(at - harness.env.now().timestamp())
        if mover is anna:
            await from_the_list(harness, anna, game)  # in her DM with the bot
        else:
            await from_the_list(harness, bjorn, game, channel=harness.channel)
    took = harness.env.now().timestamp() - start
    assert game.status is Status.FINISHED, game.status
    assert 2 * 24 * 3600 < took < WEEK, took / 3600  # days of play, within the week
    # each told once a turn, the way they chose: Anna by DM only, Bjorn by mention only
    assert len(notices_to(harness, anna)) == turns[anna.id]
    assert len(sent_to(harness, anna)) == test_dms + turns[anna.id]
    assert posted.pings_of(anna) == 0
    assert posted.pings_of(bjorn) == turns[bjorn.id]  # the table's ping, or a 🔔
    assert notices_to(harness, bjorn) == []
    # some of Anna's turns began in her quiet hours: their DMs waited for the morning
    assert asleep > 0
    assert not any(quiet_for_anna(at) for at in notices_to(harness, anna))
    rows = await harness.cog.games.storage.fetch(
        "SELECT user_id, won FROM results WHERE game_id = ?", [game.id]
    )
    assert len(rows) == 2
    assert capped.refused == []
