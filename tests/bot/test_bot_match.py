"""Whole matches played through slash commands, buttons and selects, to the leaderboard."""

from __future__ import annotations

import pytest

from bot.models import Status
from bot.render import HAND_TITLE, winner_text
from tests.bot.kasino_harness import Harness, custom_ids


def assert_hands_private(harness: Harness) -> None:
    """Every message showing a hand is ephemeral and invisible to everyone else."""
    for member in harness.members:
        seen = harness.channel.history(viewer=member)
        hands = [m for m in seen if HAND_TITLE in m.content]
        assert all(m.flags.ephemeral for m in hands)
    everyone = [m for member in harness.members for m in harness.channel.history(viewer=member)]
    assert any(HAND_TITLE in m.content for m in everyone), "no hand was ever shown"
    for message in harness.public_messages():
        assert HAND_TITLE not in message.content
        assert not any(
            cid.startswith(("k:card", "k:take", "k:pick")) for cid in custom_ids(message)
        )
    outsider = harness.guild.add_member(harness.env.create_user("spectator"))
    visible = harness.channel.history(viewer=outsider)
    assert not any(HAND_TITLE in m.content for m in visible)


async def play_match(harness: Harness, game, pick_every: int = 4) -> int:
    """Safe moves to the end; every ``pick_every``-th capture is chosen card by card."""
    from bot.moves import auto_move

    captures = moves = 0
    while game.status.active:
        move = auto_move(game.match.round)
        if not move.is_trail:
            captures += 1
        await harness.play_move(
            game, move, via_pick=not move.is_trail and captures % pick_every == 0
        )
        moves += 1
    return moves


async def test_two_player_match_to_the_leaderboard(harness: Harness) -> None:
    game = await harness.start_game(2)
    assert game.options.target == 16
    moves = await play_match(harness, game)
    assert game.status is Status.FINISHED
    winner = game.match.winner
    assert game.match.scores[winner] >= 16
    # the table message shows the winner and offers a rematch
    table = harness.table_message(game)
    assert "wins" in table.embeds[0].description
    assert any(c.startswith("k:rematch:") for c in custom_ids(table))
    # round summaries and the final announcement were posted publicly
    public = [m for m in harness.public_messages() if m.embeds]
    assert any("Round 1 is over" in (m.embeds[0].title or "") for m in public)
    # one end message naming the winner and the final score, no turn notice left behind
    end = harness.public_messages()[-1]
    assert "Game over" in end.content and winner_text(game) in end.content
    assert not any("your turn" in (m.content or "") for m in harness.public_messages())
    for message in public:
        for embed in message.embeds:
            assert "<@" not in (embed.description or "") + str([f.value for f in embed.fields])
    # every move is in the log; the result is on the leaderboard
    storage = harness.cog.games.storage
    assert await storage.move_count(game.id) == moves
    rows, total = await storage.leaderboard(harness.guild.id)
    assert total == 2
    assert rows[0].user_id == game.seats[winner].user_id and rows[0].wins == 1
    assert {r.user_id for r in rows} == {m.id for m in harness.members[:2]}
    result = await harness.slash(harness.members[2], "kasino scores")
    board = result.response.embeds[0].description
    # the board by rating: the winner first, provisional ("?") after one match
    first = board.splitlines()[0]
    assert first.startswith(f"**1.** {game.seats[winner].name}: **1")
    assert first.endswith("?** · 1 win in 1 match (100%)")
    assert_hands_private(harness)


async def test_four_player_team_match(harness: Harness) -> None:
    game = await harness.start_game(4, teams=True, target=11)
    assert game.sides == 2
    table = harness.table_message(game)
    assert {f.name for f in table.embeds[0].fields} == {"anna & cecilia", "bjorn & david"}
    await play_match(harness, game, pick_every=3)
    assert game.status is Status.FINISHED
    winner = game.match.winner
    rows, total = await harness.cog.games.storage.leaderboard(harness.guild.id, target=11)
    assert total == 4
    winners = {r.user_id for r in rows if r.wins}
    expected = {game.seats[i].user_id for i in range(4) if i % 2 == winner}
    assert winners == expected
    points = {r.user_id: r.points for r in rows}
    assert points[game.seats[winner].user_id] == game.match.scores[winner]
    assert_hands_private(harness)


@pytest.mark.parametrize("variant", ["overspader", "finnish", "mulle"])
async def test_other_variants_play_to_the_end(harness: Harness, variant: str) -> None:
    game = await harness.start_game(3, variant=variant, target=5)
    assert game.match.rules.name == variant
    await play_match(harness, game)
    assert game.status is Status.FINISHED
    rows, _ = await harness.cog.games.storage.leaderboard(harness.guild.id, variant=variant)
    assert sum(r.wins for r in rows) == 1


async def test_rematch_keeps_seats_and_rules(harness: Harness) -> None:
    game = await harness.start_game(2, target=5)
    await play_match(harness, game)
    table = harness.table_message(game)
    result = await harness.click(harness.members[1], table, label="Rematch")
    assert result.acknowledged and not result.ephemeral
    again = await harness.game()
    assert again is not None and again.id != game.id
    assert again.status is Status.PLAYING and again.options == game.options
    assert [s.user_id for s in again.seats] == [s.user_id for s in game.seats]
    assert "Rematch" in harness.public_messages()[-1].content
    # the old table lost its button; a second click on a copy is refused
    assert not any(c.startswith("k:rematch") for c in custom_ids(harness.table_message(game)))
    await harness.play_move(again)
    assert again.version > 1
