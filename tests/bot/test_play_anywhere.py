"""Play anywhere (issue 41): a game where the bot may only answer interactions.

In a group DM, or a server that did not install the app, the bot is no member: every
table, summary and end message is carried by a click's follow-ups (``cogs.play.couriers``),
computers move inside the click that hands them the turn, and a turn's time is applied
by the next click. The tests' Discord refuses and records any channel call there
(``tests/bot/user_installs.py``): none may be attempted.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.client import KasinoBot
from bot.config import Config
from bot.engine import Move
from bot.models import Game, Status, Timer
from bot.moves import auto_move, round_choices
from bot.records.ratings import GLOBAL
from bot.stages import SILENT_TURNS, by_interaction
from bot.storage import is_postgres
from bot.timers import now
from tests.bot.kasino_harness import Harness, _positions
from tests.bot.user_installs import Place, PlaceActor, no_channel_calls
from tests.dbrows import execute


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


@pytest.mark.parametrize("where", ["group-dm", "foreign-server"])
async def test_a_rated_match_with_a_computer_and_a_rematch(
    places: tuple[Harness, Any], where: str
) -> None:
    """The issue's "done when": two people who share no server with the bot and a
    computer play Swedish Kasino in their group DM (and in a server that did not install
    the app) from ``/kasino new`` to the end and a rematch; no channel call is tried. The
    match counts on the global ratings (and on that server's board; a group DM has no
    server)."""
    harness, (sara_user, olle_user) = places
    if where == "group-dm":
        place: Place = harness.group_dm(sara_user, olle_user)
        server = 0
    else:
        foreign = harness.foreign_server(sara_user, olle_user)
        place, server = foreign, foreign.guild_id
    sara, olle = place.members
    table = PlaceTable(harness, place)
    storage = harness.cog.games.storage
    with no_channel_calls(harness.installs):
        game = await table.open_game(sara, olle, computer="normal")
        assert by_interaction(game.extra) and game.guild_id == server
        shown = table.table(game)
        assert shown.embeds and not shown.is_ephemeral
        await table.to_end(game)
        end = table.table(await storage.get_game(game.id))  # its end message, saved since
        rated = await storage.fetch(
            "SELECT DISTINCT guild_id, user_id FROM rating_changes WHERE game_id = ?", [game.id]
        )
        scopes = {GLOBAL, server} if server else {GLOBAL}
        assert {(int(g), int(u)) for g, u in rated} == {
            (scope, person.id) for scope in scopes for person in (sara, olle)
        }
        await olle.click(end, custom_id=one_id(end, "k:rematch:"))
        again = await table.game()
        assert again is not None and again.id != game.id and by_interaction(again.extra)
        assert table.table(again).id != end.id
        await table.move(again)
    # nothing was left for a click to carry
    assert await storage.carried_posts(place.channel_id) == []


async def test_a_server_that_hides_apps_answers_is_told_once(
    places: tuple[Harness, Any],
) -> None:
    """Where Use External Apps is off, Discord would make the table Sara's alone: no game
    opens, and she is told why (privately), with nothing tried on the channel."""
    harness, (sara_user, olle_user) = places
    server = harness.foreign_server(sara_user, olle_user, external_apps=False)
    with no_channel_calls(harness.installs):
        refused = await server.members[0].slash("kasino new")
    assert refused.ephemeral and "Use External Apps" in refused.response.content
    assert await PlaceTable(harness, server).game() is None


async def test_a_turn_runs_out_at_the_next_click(
    places: tuple[Harness, Any], bot_config: Config
) -> None:
    """Nothing is posted when a turn's time runs out (nothing could be); the table says
    when it runs out and that the next click applies it; Olle's next click makes the safe
    move for Sara, shows it, and hands him his turn."""
    harness, (sara_user, olle_user) = places
    gdm = harness.group_dm(sara_user, olle_user)
    table = PlaceTable(harness, gdm)
    with no_channel_calls(harness.installs):
        game = await table.open_game(*gdm.members)
        late = table.person(game, game.match.round.to_move)
        other = next(m for m in gdm.members if m.id != late.id)
        shown = table.table(game)
        assert "the next click at the table applies it" in str(shown.embeds[0])
        assert game.timer is Timer.AUTO
        limit = SILENT_TURNS * bot_config.turn_seconds
        assert game.deadline == pytest.approx(now() + limit, abs=2)
        before, count = game.version, len(gdm.messages())
        await harness.env.advance_time(limit + 60)
        assert game.version == before and len(gdm.messages()) == count  # it waits
        opened = await other.click(shown, custom_id=one_id(shown, "k:hand:"))
        assert opened.ephemeral
    assert game.version == before + 1 and game.seats[game.seat_of(late.id)].idle == 1
    fresh = table.table(game)
    assert fresh.id != shown.id and other.id and f"<@{other.id}>" in fresh.content


async def test_a_kill_mid_match_loses_nothing(
    places: tuple[Harness, Any], bot_config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process killed after a move is committed but before its click carried the table
    leaves the table in the outbox; after a restart the next click (anyone's) carries it,
    and the match goes on to the end."""
    harness, (sara_user, olle_user) = places
    gdm = harness.group_dm(sara_user, olle_user)
    table = PlaceTable(harness, gdm)
    game = await table.open_game(*gdm.members)
    await table.move(game)
    # the next move is committed, and the process dies before its click carries anything
    courier = type(harness.cog.courier)

    async def killed(self: Any, interaction: Any) -> None:
        return None

    monkeypatch.setattr(courier, "carry", killed)
    shown = table.table(game)
    await table.move(game)
    storage = harness.cog.games.storage
    waiting = await storage.carried_posts(gdm.channel_id)
    assert [row.table for row in waiting] == [True]
    monkeypatch.undo()
    harness.installs.install(monkeypatch)  # undo() took the tests' Discord's wrappers too
    await harness.restart(KasinoBot(bot_config, seed=7))
    reloaded = await table.game()
    assert reloaded is not None and reloaded.message_id == shown.id  # not shown yet
    mover = table.person(reloaded, reloaded.match.round.to_move)
    with no_channel_calls(harness.installs):
        await mover.click(shown, custom_id=one_id(shown, "k:hand:"))
        assert await harness.cog.games.storage.carried_posts(gdm.channel_id) == []
        assert table.table(await table.game()).id != shown.id
        await table.to_end(await table.game())


async def test_a_round_ends_and_the_next_is_dealt_in_the_same_click(
    places: tuple[Harness, Any], bot_config: Config
) -> None:
    """Between rounds a channel's game pauses for a while before it deals; where nothing
    could be posted when the pause ends, the click that ends a round shows its summary
    and deals the next round at once."""
    harness, (sara_user, olle_user) = places
    await harness.restart(KasinoBot(replace(bot_config, round_pause=30), seed=7))
    gdm = harness.group_dm(sara_user, olle_user)
    table = PlaceTable(harness, gdm)
    with no_channel_calls(harness.installs):
        game = await table.open_game(*gdm.members)
        while game.match.rounds_played == 0:
            last = gdm.public_messages()[-1].id
            await table.move(game)
        assert not game.extra.get("paused") and game.timer is Timer.AUTO
        carried = [m for m in gdm.public_messages() if m.id > last]
        assert len(carried) == 2, [m.content for m in carried]  # the summary, the new table
        assert carried[-1].id == game.message_id


async def test_joining_where_answers_are_hidden_is_refused(
    places: tuple[Harness, Any],
) -> None:
    """Once a server hides apps' answers from its members, a Join is refused with the
    reason (a table their clicks carried would be theirs alone); the lobby is unchanged."""
    harness, (sara_user, olle_user) = places
    server = harness.foreign_server(sara_user, olle_user)
    sara, olle = server.members
    opened = await sara.slash("kasino new")
    assert not opened.ephemeral
    lobby = server.public_messages()[-1]
    server.set_external_apps(False)
    with no_channel_calls(harness.installs):
        refused = await olle.click(lobby, custom_id=one_id(lobby, "k:lobby:", ":join"))
    assert refused.ephemeral and "Use External Apps" in refused.response.content
    game = await PlaceTable(harness, server).game()
    assert game is not None and game.seat_of(olle.id) is None


async def test_a_table_whose_tokens_expired_still_works(places: tuple[Harness, Any]) -> None:
    """Twenty minutes on, no token can edit or delete the table any more: a click on it
    still opens the hand, the move is played, and its click shows the next table; the old
    one stays (nothing may delete it) and its button still answers."""
    harness, (sara_user, olle_user) = places
    harness.installs.expiry_everywhere = True
    gdm = harness.group_dm(sara_user, olle_user)
    table = PlaceTable(harness, gdm)
    with no_channel_calls(harness.installs):
        opened = await gdm.members[0].slash("kasino new", turn_minutes=60)
        lobby = gdm.public_messages()[-1]
        await gdm.members[1].click(lobby, custom_id=one_id(lobby, "k:lobby:", ":join"))
        await gdm.members[0].click(lobby, custom_id=one_id(lobby, "k:lobby:", ":start"))
        assert opened.acknowledged
        game = await table.game()
        old = table.table(game)
        await harness.env.advance_time(20 * 60)
        await table.move(game)
        assert table.table(game).id != old.id
        assert old.id in [m.id for m in gdm.messages()]  # it stays
        answer = await table.person(game, game.match.round.to_move).click(
            old, custom_id=one_id(old, "k:hand:")
        )
        assert answer.ephemeral


async def test_stop_and_a_damaged_game_are_shown_by_clicks(
    places: tuple[Harness, Any], bot_config: Config, db_path: Any
) -> None:
    """``/kasino stop`` in a group DM: its answer says so and the click removes the table;
    a damaged saved game there is closed at the next click and reported, once, in that
    click's answer (never by a channel post)."""
    harness, (sara_user, olle_user) = places
    gdm = harness.group_dm(sara_user, olle_user)
    sara, olle = gdm.members
    table = PlaceTable(harness, gdm)
    with no_channel_calls(harness.installs):
        game = await table.open_game(sara, olle)
        shown = table.table(game)
        stopped = await sara.slash("kasino stop")
        assert not stopped.ephemeral and "stopped" in stopped.response.content
        assert shown.id not in [m.id for m in gdm.messages()]  # removed through its token
        game = await table.open_game(sara, olle)
        shown = table.table(game)
    await harness.restart(KasinoBot(bot_config, seed=7))
    damage = (
        "(state::jsonb #- '{round,hands}')::text"
        if is_postgres(db_path)
        else "json_remove(state, '$.round.hands')"
    )
    execute(db_path, f"UPDATE games SET state = {damage} WHERE id = ?", (game.id,))
    with no_channel_calls(harness.installs):
        for _ in range(2):  # reported once, however often it is touched
            answer = await olle.click(shown, custom_id=one_id(shown, "k:hand:"))
            assert answer.ephemeral
    reports = [m for m in gdm.public_messages() if "could not be loaded" in (m.content or "")]
    assert len(reports) == 1 and f"#{game.id}" in reports[0].content


async def test_a_click_carries_at_most_three_follow_ups(places: tuple[Harness, Any]) -> None:
    """Discord caps a user-installed app's follow-ups at 5 an interaction: a click carries
    at most 3 of what waits (the rest of the cap is its own), oldest first, and the next
    click carries the rest; Discord never refuses one."""
    harness, (sara_user, olle_user) = places
    gdm = harness.group_dm(sara_user, olle_user)
    sara, olle = gdm.members
    table = PlaceTable(harness, gdm)
    game = await table.open_game(sara, olle)
    cog = harness.cog
    async with cog.games.session(game.id) as held:
        for n in range(5):
            cog.table.post(held, content=f"note {n}")
        await cog.games.save(held)
    shown = table.table(game)
    with no_channel_calls(harness.installs):
        first = await olle.click(shown, custom_id=one_id(shown, "k:hand:"))
        assert [m.content for m in first.followups] == ["note 0", "note 1", "note 2"]
        second = await sara.click(shown, custom_id=one_id(shown, "k:hand:"))
        assert [m.content for m in second.followups] == ["note 3", "note 4"]
    assert await cog.games.storage.carried_posts(gdm.channel_id) == []


async def test_the_rules_line_says_the_whole_turn_limit(places: tuple[Harness, Any]) -> None:
    """Where there is no reminder, the table's rules line says the whole turn limit, the
    same time its "time runs out" says (not the reminder's half of it)."""
    harness, (sara_user, olle_user) = places
    gdm = harness.group_dm(sara_user, olle_user)
    table = PlaceTable(harness, gdm)
    game = await table.open_game(*gdm.members)
    title = table.table(game).embeds[0]["title"]
    assert "10 min turns" in title, title
