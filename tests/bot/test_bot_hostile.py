"""The defects found by killing the bot and feeding it bad input (issue 7): each test here
failed before its fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord
from simcord import interactions as sim_interactions

from bot.client import KasinoBot
from bot.engine import Move
from bot.models import Status
from bot.storage import is_postgres
from tests.bot.kasino_harness import Harness, cid, custom_ids
from tests.dbrows import execute, query


def stored(db_path: Path | str, game_id: int) -> dict[str, Any]:
    """The game's row as the database holds it (a separate connection: the truth on disk)."""
    (row,) = query(db_path, "SELECT * FROM games WHERE id = ?", (game_id,))
    return row


def mover(harness: Harness, game: Any) -> Any:
    return harness.member(game.seats[game.match.round.to_move].user_id)


async def take_view(harness: Harness, game: Any, capturing: bool = True) -> Any:
    """The mover's hand with a card chosen that can capture (a card that takes nothing is
    played at once): the message carrying the ``k:take`` select."""
    index = await harness.ready_to_capture(game)
    member = mover(harness, game)
    hand = (await harness.open_hand(member, game)).response
    step = await harness.select(member, hand, [str(index)], custom_id=cid(hand, "k:card:"))
    assert step.response.id == hand.id  # the owner's own hand view is edited in place
    return step.response


# ----------------------------------------------------------------- 1. one loaded state


async def test_a_move_and_a_hand_together_after_a_restart_share_one_state(
    harness: Harness, bot_config: Any, db_path: Path
) -> None:
    game = await harness.start_game(2)
    take = await take_view(harness, game)
    first = mover(harness, game)
    await harness.restart(KasinoBot(bot_config, seed=1))
    # nothing is cached now; a move and the other player's "Your hand" arrive together
    other = harness.member(game.seats[1 - game.match.round.to_move].user_id)
    table = harness.table_message(game)
    take_id = cid(take, "k:take:")
    harness.emit_component(
        first, take, {"custom_id": take_id, "component_type": 3, "values": ["trail"]}
    )
    harness.emit_component(other, table, {"custom_id": cid(table, "k:hand:"), "component_type": 2})
    await harness.env.settle()
    game = await harness.game()
    assert game.version == stored(db_path, game.id)["version"]
    assert game.seats[game.match.round.to_move].user_id == other.id
    hand = (await harness.open_hand(other, game)).response
    assert any(c.startswith("k:card:") for c in custom_ids(hand)), hand.content


# ------------------------------------------------------- 2. values that crashed a handler


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("card", "²"),  # passes str.isdigit(), int() refuses it
        ("card", "٣"),
        ("card", "99"),
        ("card", "-1"),
        ("card", "1" * 40),
        ("take", "c²"),
        ("take", "c99"),
        ("take", "steal"),
        ("pick", "²"),
        ("pick", "99"),
    ],
)
async def test_bad_select_values_are_refused(
    harness: Harness, db_path: Path, kind: str, value: str
) -> None:
    game = await harness.start_game(2)
    take = await take_view(harness, game, capturing=True)
    member = mover(harness, game)
    message = take
    if kind == "pick":
        message = (
            await harness.select(member, take, ["pick"], custom_id=cid(take, "k:take:"))
        ).response
    elif kind == "card":
        message = (await harness.open_hand(member, game)).response
    before = stored(db_path, game.id)
    result = await harness.forge(member, message, cid(message, f"k:{kind}:"), [value])
    assert result.acknowledged and result.ephemeral
    assert "nothing" in result.response.content.lower()
    assert stored(db_path, game.id) == before


async def test_a_value_not_among_the_options_is_refused(harness: Harness, db_path: Path) -> None:
    game = await harness.start_game(2)
    take = await take_view(harness, game, capturing=True)
    before = stored(db_path, game.id)
    # a well-formed choice the message never offered
    result = await harness.forge(
        mover(harness, game), take, cid(take, "k:take:"), ["c20"], doctor=False
    )
    assert result.acknowledged and result.ephemeral and "nothing" in result.response.content
    assert stored(db_path, game.id) == before


@pytest.mark.parametrize(
    "forged",
    [
        "k:hand:{big}:1",
        "k:card:{big}:1",
        "k:lobby:{big}:join",
        "k:rematch:{big}",
        "k:hand:{game}:{big}",
        "k:take:{game}:{version}:{big}",
        "k:scores:swedish:{big}:1",
        "k:scores:swedish:16:{big}",
        "k:scores:nonsense:16:1",
        "k:lobby:{game}:add-godlike",
        "k:hand:0{game}:{version}",
    ],
)
async def test_forged_custom_ids_are_refused(harness: Harness, db_path: Path, forged: str) -> None:
    game = await harness.start_game(2)
    member = mover(harness, game)
    hand = (await harness.open_hand(member, game)).response
    text = forged.format(big="1" * 25, game=game.id, version=game.version)
    before = stored(db_path, game.id)
    values = ["0"] if text.startswith(("k:card", "k:take")) else None
    result = await harness.forge(member, hand, text, values)
    assert result.acknowledged and result.ephemeral, text
    assert stored(db_path, game.id) == before


# ------------------------------------------------------------ 3. hand views stay private


async def test_a_select_arriving_with_the_table_message_leaves_it_public(
    harness: Harness, db_path: Path
) -> None:
    game = await harness.start_game(2)
    member = mover(harness, game)
    table = harness.table_message(game)
    before = (table.content, [e.to_dict() for e in table.embeds], custom_ids(table))
    row = stored(db_path, game.id)
    for custom_id, values in (
        (f"k:card:{game.id}:{game.version}", ["0"]),
        (f"k:take:{game.id}:{game.version}:0", ["pick"]),
        (f"k:hand:{game.id}:{game.version}", None),
    ):
        result = await harness.forge(member, table, custom_id, values)
        assert result.acknowledged
        now = harness.current(table)
        assert (now.content, [e.to_dict() for e in now.embeds], custom_ids(now)) == before
    assert stored(db_path, game.id) == row
    assert not any("Your hand" in (m.content or "") for m in harness.public_messages())


async def test_a_component_belongs_to_its_own_channel(harness: Harness, db_path: Path) -> None:
    game = await harness.start_game(2)
    member = mover(harness, game)
    hand = (await harness.open_hand(member, game)).response
    elsewhere = harness.guild.create_text_channel("elsewhere")
    lobby = (await member.slash(elsewhere, "kasino new")).response.message
    row = stored(db_path, game.id)
    # game 1's select, sent from a message in another channel
    result = await harness.forge(member, lobby, cid(hand, "k:card:"), ["0"])
    assert result.acknowledged and result.ephemeral
    assert stored(db_path, game.id) == row
    now = next(m for m in elsewhere.history() if m.id == lobby.id)
    assert any(c.startswith("k:lobby:") for c in custom_ids(now))  # still the lobby


# ---------------------------------------------------------- 4. what is posted is saved


async def test_the_turn_notice_is_saved_when_posted(harness: Harness, db_path: Path) -> None:
    game = await harness.start_game(2)
    for _ in range(3):
        # the turn notice is the table itself, posted fresh; its id is saved as posted
        notices = [m for m in harness.public_messages() if "your turn" in (m.content or "")]
        assert len(notices) == 1 and stored(db_path, game.id)["message_id"] == notices[-1].id
        await harness.play_move(game)


async def test_no_turn_notice_is_left_behind_by_a_restart(
    harness: Harness, bot_config: Any
) -> None:
    game = await harness.start_game(2)
    await harness.play_move(game)
    # killed right after the notice went out: the new process only has the database
    await harness.restart(KasinoBot(bot_config, seed=2))
    game = await harness.game()
    await harness.play_move(game)
    await harness.play_move(game)
    notices = [m for m in harness.public_messages() if "your turn" in (m.content or "")]
    assert len(notices) == 1


# ------------------------------------------------------ 5. a damaged saved game is closed


async def test_a_damaged_game_is_reported_once_and_closed_and_others_go_on(
    harness: Harness, bot_config: Any, db_path: Path
) -> None:
    game = await harness.start_game(2)
    host = harness.members[0]
    second = harness.guild.create_text_channel("second")
    lobby = (await host.slash(second, "kasino new")).response.message
    await harness.members[1].click(lobby, label="Join")
    await host.click(lobby, label="Start")
    other = await harness.cog.games.active(second.id)
    await harness.restart(KasinoBot(bot_config, seed=3))
    damage = (
        "(state::jsonb #- '{round,hands}')::text"
        if is_postgres(db_path)
        else "json_remove(state, '$.round.hands')"
    )
    execute(db_path, f"UPDATE games SET state = {damage} WHERE id = ?", (game.id,))
    table = harness.table_message(game)
    for _ in range(2):  # reported once, however often it is touched
        result = await harness.click(harness.members[0], table, label="Your hand")
        assert result.acknowledged and result.ephemeral
    reports = [m for m in harness.public_messages() if "could not be loaded" in (m.content or "")]
    assert len(reports) == 1 and f"#{game.id}" in reports[0].content
    assert stored(db_path, game.id)["status"] == "broken"
    assert not query(db_path, "SELECT * FROM results WHERE game_id = ?", (game.id,))
    # the other game goes on, and the damaged game's channel is free again
    other = await harness.cog.games.active(second.id)
    assert other is not None and other.status is Status.PLAYING
    seat = other.match.round.to_move
    member = harness.member(other.seats[seat].user_id)
    before = other.version
    async with harness.cog.games.lock(other.id):
        await harness.cog.games.play(other, seat, Move(other.match.round.hands[seat][0]))
    assert other.version == before + 1
    assert (await harness.slash(member, "kasino new")).response is not None
    assert (await harness.game()).status is Status.LOBBY


# ------------------------------------- issue 39 §5: every forged interaction is answered


@pytest.mark.parametrize(
    "forged",
    [
        "K:hand:{game}:{version}",
        ":k:hand:{game}:{version}",
        " k:hand:{game}:{version}",
        "x:hand:{game}:{version}",
        "kasino:hand:{game}",
        "k",
        "",
        "🂡",
        "k;hand:{game}",
    ],
)
async def test_a_custom_id_without_the_prefix_is_answered_and_changes_nothing(
    harness: Harness, db_path: Path, forged: str
) -> None:
    game = await harness.start_game(2)
    member = mover(harness, game)
    hand = (await harness.open_hand(member, game)).response
    text = forged.format(game=game.id, version=game.version)
    before = stored(db_path, game.id)
    for values in (None, ["0"]):  # a button, a select
        result = await harness.forge(member, hand, text, values)
        assert result.acknowledged and result.ephemeral, repr(text)
        assert "not valid" in result.response.content
    assert stored(db_path, game.id) == before


async def test_a_forged_modal_submit_is_answered_and_changes_nothing(
    harness: Harness, db_path: Path
) -> None:
    """The bot opens no modals: one submitted anyway (any custom_id) is refused kindly."""
    game = await harness.start_game(2)
    member = mover(harness, game)
    before = stored(db_path, game.id)
    for custom_id in (f"k:hand:{game.id}:{game.version}", "modal", ""):
        record, payload = sim_interactions.base_payload(
            harness.env.backend,
            type=5,
            channel_id=harness.channel.id,
            guild_id=harness.guild.id,
            user_id=member.id,
            data={"custom_id": custom_id, "components": []},
        )
        harness.env.backend.emit("INTERACTION_CREATE", payload)
        await harness.env.settle()
        result = simcord.InteractionResult(harness.env, record)
        assert result.acknowledged and result.ephemeral, repr(custom_id)
        assert "not valid" in result.response.content
    assert stored(db_path, game.id) == before
