"""Play anywhere (issue 41): a game where the bot may only answer interactions.

In a group DM, or a server that did not install the app, the bot is no member: every
table, summary and end message is carried by a click's follow-ups (``cogs.play.couriers``),
computers move inside the click that hands them the turn, and a turn's time is applied
by the next click. The tests' Discord refuses and records any channel call there
(``tests/bot/user_installs.py``): none may be attempted.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.client import KasinoBot
from bot.config import Config
from bot.engine import Move
from bot.models import Game, Status, Timer
from bot.moves import auto_move, round_choices
from bot.records.ratings import GLOBAL
from bot.stages import SILENT_TURNS, by_interaction
from tests.bot.kasino_harness import Harness, _positions
from tests.bot.user_installs import FOLLOWUP_CAP, Place, PlaceActor, no_channel_calls


def ids_of(message: Any) -> list[str]:
    """The custom_ids on a message as the tests' Discord stores it."""
    found = []
    for row in message.components or []:
        row = row if isinstance(row, dict) else row.to_dict()
        found.extend(c["custom_id"] for c in row.get("components", []) if c.get("custom_id"))
    return found


def one_id(message: Any, prefix: str, suffix: str = "") -> str:
    """The one custom_id on ``message`` starting with ``prefix`` (and ending ``suffix``)."""
    found = [c for c in ids_of(message) if c.startswith(prefix) and c.endswith(suffix)]
    assert len(found) == 1, (prefix, suffix, ids_of(message))
    return found[0]


class PlaceTable:
    """Drives a game in a :class:`Place` as its people would: only clicks and commands."""

    def __init__(self, harness: Harness, place: Place) -> None:
        self.harness = harness
        self.place = place

    async def game(self) -> Game | None:
        """The place's running game, as the bot holds it."""
        return await self.harness.cog.games.active(self.place.channel_id)

    def message(self, message_id: int | None) -> Any:
        """A message of the place by id."""
        return next(m for m in self.place.messages() if m.id == message_id)

    def table(self, game: Game) -> Any:
        """The game's current table message (the database names it)."""
        assert game.message_id, "no table shown yet"
        return self.message(game.message_id)

    def person(self, game: Game, seat: int) -> PlaceActor:
        """The actor of a seat."""
        return self.place.member(int(game.seats[seat].user_id or 0))

    async def open_game(self, host: PlaceActor, *others: PlaceActor, computer: str = "") -> Game:
        """``/kasino new``, others join, a computer of ``computer`` level sits, Start."""
        opened = await host.slash("kasino new")
        assert opened.response is not None and not opened.ephemeral, opened
        lobby = opened.response.message if hasattr(opened.response, "message") else None
        lobby = self.place.public_messages()[-1] if lobby is None else lobby
        for person in others:
            joined = await person.click(lobby, custom_id=one_id(lobby, "k:lobby:", ":join"))
            assert joined.acknowledged and not joined.response.content, joined
        if computer:
            lobby = self.message(lobby.id)
            await host.click(lobby, custom_id=one_id(lobby, "k:lobby:", f":add-{computer}"))
        lobby = self.message(lobby.id)
        await host.click(lobby, custom_id=one_id(lobby, "k:lobby:", ":start"))
        game = await self.game()
        assert game is not None and game.status is Status.PLAYING
        return game

    async def move(self, game: Game, move: Move | None = None) -> None:
        """The person to move plays ``move`` (default: the safe move) from "Your hand"."""
        rnd = game.match.round
        seat = rnd.to_move
        person = self.person(game, seat)
        move = move or auto_move(rnd)
        table = self.table(game)
        hand = await person.click(table, custom_id=one_id(table, "k:hand:"))
        assert hand.ephemeral, hand
        view = hand.response
        index = rnd.hands[seat].index(move.card)
        before = game.version
        choices = round_choices(rnd, move.card, 23)  # before the card is chosen: it may play
        step = await person.select(view, [str(index)], custom_id=one_id(view, "k:card:"))
        if choices:
            value = "trail" if move.is_trail else next(
                (f"c{n}" for n, c in enumerate(choices) if sorted(c.taken) == sorted(move.taken)),
                "pick",
            )  # fmt: skip
            step = await person.select(step.response, [value],
                                       custom_id=one_id(step.response, "k:take:"))  # fmt: skip
            if value == "pick":
                picked = _positions(rnd.table, move.taken)
                step = await person.select(step.response, picked,
                                           custom_id=one_id(step.response, "k:pick:"))  # fmt: skip
        assert game.version > before, step

    async def to_end(self, game: Game, limit: int = 400) -> None:
        """Safe moves until the match ends."""
        for _ in range(limit):
            if game.status is not Status.PLAYING:
                return
            await self.move(game)
        raise AssertionError("the match did not end")


@pytest.fixture
def places(harness: Harness) -> tuple[Harness, Any]:
    """Sara and Olle, who share no server with the bot; Sara installed the app."""
    env = harness.env
    return harness, (env.create_user("sara"), env.create_user("olle"))


async def test_a_rated_group_dm_match_with_a_computer_and_a_rematch(
    places: tuple[Harness, Any],
) -> None:
    """The issue's "done when": two people and a computer play Swedish Kasino in their
    group DM from ``/kasino new`` to the end and a rematch; no channel call is tried; the
    global rating moves (no server rating: there is no server)."""
    harness, (sara_user, olle_user) = places
    gdm = harness.group_dm(sara_user, olle_user)
    sara, olle = gdm.members
    table = PlaceTable(harness, gdm)
    with no_channel_calls(harness.installs):
        game = await table.open_game(sara, olle, computer="normal")
        assert by_interaction(game.extra) and game.guild_id == 0
        shown = table.table(game)
        assert shown.embeds and not shown.is_ephemeral
        await table.to_end(game)
        storage = harness.cog.games.storage
        end = table.table(await storage.get_game(game.id))  # its end message, saved since
        assert "k:rematch:" in " ".join(ids_of(end))
        rated = await storage.fetch(
            "SELECT DISTINCT guild_id, user_id FROM rating_changes WHERE game_id = ?", [game.id]
        )
        assert {(int(g), int(u)) for g, u in rated} == {(GLOBAL, sara.id), (GLOBAL, olle.id)}
        await olle.click(end, custom_id=one_id(end, "k:rematch:"))
        again = await table.game()
        assert again is not None and again.id != game.id and by_interaction(again.extra)
        assert table.table(again).id != end.id
    # nothing was left for a click to carry
    assert await storage.carried_posts(gdm.channel_id) == []
