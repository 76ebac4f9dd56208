"""Bad input gets a clear ephemeral answer and changes nothing."""

from __future__ import annotations

import pytest
from simcord import SetupError

from bot.engine import Move, is_capture
from bot.moves import rank_choices
from tests.bot.kasino_harness import Harness, cid, custom_ids, select_options


async def snapshot(harness: Harness, game) -> tuple:
    """What must not change: version, the engine state, and the move log."""
    storage = harness.cog.games.storage
    return game.version, game.match.to_dict(), await storage.move_count(game.id)


def mover_and_other(harness: Harness, game):
    seat = game.match.round.to_move
    mover = harness.member(game.seats[seat].user_id)
    other = harness.member(game.seats[1 - seat].user_id)
    return mover, other


async def test_off_turn_hand_has_no_move_controls_and_forged_moves_are_refused(
    harness: Harness,
) -> None:
    game = await harness.start_game(2)
    mover, other = mover_and_other(harness, game)
    result = await harness.slash(other, "kasino hand")
    assert result.ephemeral and "Waiting for" in result.response.content
    assert not any(c.startswith("k:card") for c in custom_ids(result.response))
    before = await snapshot(harness, game)
    forged = await harness.forge(
        other, harness.table_message(game), f"k:card:{game.id}:{game.version}", ["0"], doctor=False
    )
    assert forged.ephemeral and "not valid" in forged.response.content
    # the same select on the mover's own hand view, used by the wrong person
    own = await harness.open_hand(mover, game)
    with pytest.raises(SetupError):  # another member cannot even see that message
        await other.select(own.response, ["0"], custom_id=cid(own.response, "k:card:"))
    assert await snapshot(harness, game) == before


async def test_spectators_are_refused_politely(harness: Harness) -> None:
    game = await harness.start_game(2)
    spectator = harness.members[3]
    result = await harness.click(spectator, harness.table_message(game), label="Your hand")
    assert result.ephemeral and "not playing in this game" in result.response.content
    hand = await harness.slash(spectator, "kasino hand")
    assert hand.ephemeral and "not playing" in hand.response.content


async def test_stale_view_answers_with_a_fresh_one(harness: Harness) -> None:
    game = await harness.start_game(2)
    mover, _ = mover_and_other(harness, game)
    old_view = (await harness.open_hand(mover, game)).response
    await harness.play_move(game)  # the mover plays through another hand view
    mover2, _ = mover_and_other(harness, game)
    await harness.play_move(game)  # and the other player answers: it is the mover's turn again
    assert mover2 is not mover
    before = await snapshot(harness, game)
    result = await harness.select(mover, old_view, ["0"], custom_id=cid(old_view, "k:card:"))
    assert "out of date" in result.response.content
    fresh = cid(result.response, "k:card:")
    assert fresh.startswith(f"k:card:{game.id}:{game.version}:")  # then its render tag
    assert await snapshot(harness, game) == before


async def test_double_click_applies_once(harness: Harness) -> None:
    game = await harness.start_game(2)
    mover, take = await harness.take_menu(game)
    storage = harness.cog.games.storage
    moves = await storage.move_count(game.id)
    take_id = cid(take, "k:take:")
    # the player opened the same choice twice (e.g. two clients): both show the same select
    first = await harness.select(mover, take, ["trail"], custom_id=take_id)
    assert "trailed" in first.response.content
    storage = harness.cog.games.storage
    version, count = game.version, await storage.move_count(game.id)
    second = await harness.forge(mover, first.response, take_id, ["trail"], doctor=False)
    assert second.ephemeral
    assert game.version == version and await storage.move_count(game.id) == count == moves + 1


async def test_concurrent_double_click_is_serialised(harness: Harness) -> None:
    """Two clicks on one select dispatched back to back: the lock lets one through."""
    game = await harness.start_game(2)
    mover, take = await harness.take_menu(game)
    moves = await harness.cog.games.storage.move_count(game.id)
    data = {"custom_id": cid(take, "k:take:"), "component_type": 3, "values": ["trail"]}
    version = game.version
    records = harness.emit_component(mover, take, data, times=2)
    await harness.env.settle()
    assert all(record.responded for record in records)
    assert await harness.cog.games.storage.move_count(game.id) == moves + 1
    assert game.version == version + 1


async def test_forged_and_broken_custom_ids(harness: Harness) -> None:
    game = await harness.start_game(2)
    mover, _ = mover_and_other(harness, game)
    table = harness.table_message(game)
    before = await snapshot(harness, game)
    for forged in (
        f"k:take:{game.id}:{game.version}:0",  # a real shape, not on this message
        "k:take:banana",
        "k:nonsense:1:2",
        f"k:hand:{game.id + 99}:0",
    ):
        values = ["trail"] if "take" in forged else None
        result = await harness.forge(mover, table, forged, values, doctor=False)
        assert result.ephemeral, forged
        assert "not valid" in result.response.content, forged
    assert await snapshot(harness, game) == before


def bad_pick(game) -> tuple[int, int] | None:
    """A hand card with some capture, and a table card it cannot take alone."""
    rnd = game.match.round
    rules = game.match.rules
    for i, card in enumerate(rnd.hands[rnd.to_move]):
        if not rank_choices(rules, card, rnd.table, 23):
            continue
        for j, table_card in enumerate(rnd.table):
            if not is_capture(rules, card, [table_card]):
                return i, j
    return None


async def test_chosen_cards_that_do_not_add_up(harness: Harness) -> None:
    game = await harness.start_game(2)
    while bad_pick(game) is None:
        await harness.play_move(game)
    index, position = bad_pick(game)
    mover, _ = mover_and_other(harness, game)
    view = (await harness.open_hand(mover, game)).response
    view = (
        await harness.select(mover, view, [str(index)], custom_id=cid(view, "k:card:"))
    ).response
    assert "pick" in {o["value"] for o in select_options(view, "k:take:")}
    view = (await harness.select(mover, view, ["pick"], custom_id=cid(view, "k:take:"))).response
    before = await snapshot(harness, game)
    result = await harness.select(mover, view, [str(position)], custom_id=cid(view, "k:pick:"))
    assert "cannot be taken" in result.response.content
    assert cid(result.response, "k:pick:")  # the picker is offered again
    assert await snapshot(harness, game) == before


async def test_take_options_are_ranked_and_fit_discord(harness: Harness) -> None:
    game = await harness.start_game(2)
    index = await harness.ready_to_capture(game)  # a card that takes nothing is played at once
    rnd = game.match.round
    mover, _ = mover_and_other(harness, game)
    move = Move(rnd.hands[rnd.to_move][index])
    view = (await harness.open_hand(mover, game)).response
    view = (
        await harness.select(mover, view, [str(index)], custom_id=cid(view, "k:card:"))
    ).response
    options = select_options(view, "k:take:")
    assert len(options) <= 25
    values = [o["value"] for o in options]
    assert "trail" in values
    choices = rank_choices(game.match.rules, move.card, rnd.table, 23)
    assert [o["label"] for o in options[: len(choices)]] == [
        o["label"] for o in options if o["value"].startswith("c")
    ]
    points = [c.points for c in choices]
    assert points == sorted(points, reverse=True)
    assert Move(move.card) in rnd.legal_moves()
