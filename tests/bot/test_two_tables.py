"""One game shown in two places (``bot.stages``): a ladder match between members of two
servers, each at their own table in their own channel, in their server's language. Moves
from either side show on both tables; the person to move is pinged only where they sit;
the match counts on the global boards only (its players come from two servers)."""

from __future__ import annotations

from typing import Any

from bot.models import Game, GameOptions, Seat, Status
from bot.moves import auto_move, round_choices
from bot.records.ratings import GLOBAL
from bot.stages import Stage
from tests.bot.kasino_harness import Harness, _positions, cid


async def two_servers(harness: Harness) -> tuple[Any, Any, Any, Any]:
    """Anna in the harness's server; Erik in another server with its own channel, whose
    language is Swedish."""
    env = harness.env
    other = env.create_guild("Klubben", preferred_locale="sv-SE")
    channel = other.create_text_channel("kortspel")
    erik = other.add_member(env.create_user("erik"))
    return harness.members[0], harness.channel, erik, channel


async def ladder_match(harness: Harness, anna: Any, here: Any, erik: Any, there: Any) -> Game:
    """A match of Anna (here) and Erik (there), made as the ladder makes it."""
    cog = harness.cog
    mirror = Stage(there.guild.id, there.id, seats=(1,), locale="sv-SE")
    game = await cog.games.open_table(
        harness.guild.id,
        here.id,
        [Seat(anna.id, "anna"), Seat(erik.id, "erik")],
        GameOptions(),
        extra={"ladder": True},
        mirrors=[mirror],
    )
    async with cog.games.session(game.id) as game:
        assert game is not None
        cog.table.announce(game, lambda t: t("The cards are dealt."))
        await cog.games.save(game)
    await harness.env.advance_time(1)
    return game


def table_in(harness: Harness, channel: Any, game: Game) -> Any:
    """The game's table message in a channel (its newest message with the hand button)."""
    found = [m for m in channel.history() if any(c.startswith("k:hand:") for c in ids(m))]
    assert found, f"no table in #{channel.name}"
    return max(found, key=lambda m: m.id)


def ids(message: Any) -> list[str]:
    return [c.custom_id for row in message.components for c in row.children if c.custom_id]


async def move_from(harness: Harness, game: Game, channel: Any, member: Any) -> None:
    """The person to move plays the safe move from the table in ``channel``."""
    await play(harness, game, table_in(harness, channel, game), member)
    await harness.env.advance_time(1.5)


async def play(harness: Harness, game: Game, table: Any, member: Any) -> None:
    """``member`` plays the safe move from ``table``, "Your hand" and its menus."""
    rnd = game.match.round
    move = auto_move(rnd)
    hand = (await harness.click(member, table, custom_id=cid(table, "k:hand:"))).response
    index = rnd.hands[rnd.to_move].index(move.card)
    choices = round_choices(rnd, move.card, 23)  # before the card is chosen: it may play
    step = await harness.select(member, hand, [str(index)], custom_id=cid(hand, "k:card:"))
    if choices:
        value = "trail" if move.is_trail else next(
            (f"c{n}" for n, c in enumerate(choices) if sorted(c.taken) == sorted(move.taken)),
            "pick",
        )  # fmt: skip
        step = await harness.select(member, step.response, [value],
                                    custom_id=cid(step.response, "k:take:"))  # fmt: skip
        if value == "pick":
            picked = _positions(rnd.table, move.taken)
            await harness.select(member, step.response, picked,
                                 custom_id=cid(step.response, "k:pick:"))  # fmt: skip


async def test_a_match_between_two_servers_shows_on_both_tables(harness: Harness) -> None:
    anna, here, erik, there = await two_servers(harness)
    game = await ladder_match(harness, anna, here, erik, there)
    first_here, first_there = table_in(harness, here, game), table_in(harness, there, game)
    # each in its server's language; the person to move pinged only at their own table
    assert "The cards are dealt." in first_here.content
    assert "Korten är utdelade." in first_there.content
    mover = game.seats[game.match.round.to_move].user_id
    pinged_here = f"<@{mover}>" in first_here.content
    assert pinged_here == (mover == anna.id)
    assert (f"<@{mover}>" in first_there.content) == (mover == erik.id)
    moves = 0
    while game.status is Status.PLAYING and moves < 200:
        mover = game.seats[game.match.round.to_move].user_id
        if mover == anna.id:
            await move_from(harness, game, here, anna)
        else:
            await move_from(harness, game, there, erik)
        moves += 1
    assert game.status is Status.FINISHED
    # the end on both tables; the old tables gone from both channels
    ends = {}
    for channel in (here, there):
        tables = [m for m in channel.history() if any(c.startswith("k:") for c in ids(m))]
        (ends[channel.id],) = tables  # the end message; every table before it deleted
        assert any(c.startswith("k:replay:") for c in ids(ends[channel.id]))
    stored = await harness.cog.games.storage.get_game(game.id)
    assert stored.message_id == ends[here.id].id
    assert [m.message_id for m in stored.mirrors] == [ends[there.id].id]
    rated = await harness.cog.games.storage.fetch(
        "SELECT DISTINCT guild_id FROM rating_changes WHERE game_id = ?", [game.id]
    )
    assert [int(g) for (g,) in rated] == [GLOBAL]
