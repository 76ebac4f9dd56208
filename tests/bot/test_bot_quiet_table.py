"""A quiet table (issue 40): the lobby, the table and the end message carry one plain 🔒
mark and a "How to check" button instead of hex values; the values a player must have seen
at the time reach them privately (the final head in their hand view's last update), and
stay on the end message, small, only where someone has no private place for them."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest

from bot.i18n import EN
from bot.records.deals import seed_commitment
from bot.records.seal import live_final, live_head
from bot.render import FAIR_MARK, private_heads, table_embed
from tests.bot.kasino_harness import Harness, cid, components, hand_now, how_to_check
from tests.bot.test_bot_fairness import record_hand_views
from tests.bot.test_bot_match import play_match

# a hash shown in hex (16 digits or more, a letter among them: not a Discord id)
HEX = re.compile(r"\b(?=[0-9]*[a-f])[0-9a-f]{16,}\b")


def public_text(message: Any) -> str:
    """What everyone sees of a message: its content and every embed's text."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.description or "", embed.footer.text or ""]
        parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


def rows(message: Any) -> list[int]:
    """How many components each action row of a message holds."""
    return [len(row.children) for row in message.components]


async def test_the_table_shows_a_mark_and_no_values(harness: Harness) -> None:
    game = await harness.start_game(2, target=5)
    await harness.play_move(game)
    table = harness.table_message(game)
    shown = public_text(table)
    assert EN(FAIR_MARK) in shown and not HEX.search(shown), shown
    assert "Cut" not in shown and "deal 1:" not in shown
    assert len(rows(table)) <= 5 and max(rows(table)) <= 5
    answer = await how_to_check(harness, harness.members[2], table)  # not seated: may look
    assert "python -m bot verify" in answer and "docs/record.md" in answer
    assert str(game.match.seed) not in answer  # never the seed of a game in progress
    # nobody cut this one: the answer does not let "Fair deal" stand for it
    assert "Nobody cut this game's deck" in answer and "could have chosen them" in answer


async def test_each_player_gets_the_final_head_privately(harness: Harness) -> None:
    anna, bjorn = harness.members[:2]
    game = await harness.start_game(2, target=5)
    views = record_hand_views(harness)
    await play_match(harness, game)
    final = live_final(game) or ""
    assert final
    for member in (anna, bjorn):
        assert f"Match sealed: `{final[:32]}`" in hand_now(harness, views[member.id]).content
    end = harness.table_message(game)
    shown = public_text(end)
    # both had a hand view to receive it: the end message does not repeat it
    assert final[:16] not in shown and "Match sealed" not in shown
    assert EN(FAIR_MARK) in shown
    # the rematch's seed commitment is no hex on the public message: a player sees it
    # before the Rematch click cuts it, under How to check and with "Cut the rematch"
    following = seed_commitment(game.extra["next_seed"], game.id)[:32]
    assert following[:8] not in shown and "seed" not in shown.lower()
    assert rows(end) == [5]  # Rematch, Replay, Analyse, Cut the rematch, How to check
    answer = await how_to_check(harness, anna, end)
    assert f"Final head: `{final[:32]}`" in answer and f"Seed: `{game.match.seed}`" in answer
    assert f"rematch's seed commitment: `{following}`" in answer


async def test_someone_without_a_hand_view_sees_the_final_head_on_the_end_message(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player whose hand view can no longer be edited (closed over 15 minutes ago, or
    never opened) has no private place for the final head: the end message keeps it."""
    bjorn = harness.members[1]
    game = await harness.start_game(2, target=5)
    live = harness.cog.live
    is_open = live.is_open
    monkeypatch.setattr(
        live, "is_open", lambda game_id, user: user != bjorn.id and is_open(game_id, user)
    )
    await play_match(harness, game)
    final = live_final(game) or ""
    end = harness.table_message(game)
    assert f"match sealed: {final[:32]}" in end.embeds[-1].footer.text


def test_a_table_of_computers_only_keeps_the_final_head_on_its_end_message() -> None:
    """No person seated: nobody has a private place, so the final head stays public."""

    computer = SimpleNamespace(is_human=False, user_id=None)
    person = SimpleNamespace(is_human=True, user_id=7)
    table = SimpleNamespace(seats=[computer, computer])
    assert private_heads(table, lambda user: True) is False  # type: ignore[arg-type]
    # one person with a view open is enough; without one the head stays public
    mixed = SimpleNamespace(seats=[person, computer])
    assert private_heads(mixed, lambda user: True) is True  # type: ignore[arg-type]
    assert private_heads(mixed, lambda user: False) is False  # type: ignore[arg-type]


async def test_the_footer_carries_the_final_head_only_when_asked(harness: Harness) -> None:
    game = await harness.start_game(2, target=5)
    await play_match(harness, game)
    final = live_final(game) or ""
    quiet = table_embed(game).footer.text
    loud = table_embed(game, final_shown=True).footer.text
    assert final[:32] not in quiet and f"match sealed: {final[:32]}" in loud
    assert live_head(game) is not None


async def test_the_replay_is_about_the_cards(harness: Harness) -> None:
    anna = harness.members[0]
    game = await harness.start_game(2, target=5)
    await play_match(harness, game)
    end = harness.table_message(game)
    replay = await harness.click(anna, end, custom_id=cid(end, "k:replay:"))
    shown = public_text(replay.response)
    assert "Commitment" not in shown and not HEX.search(shown), shown
    ids = [c.get("custom_id", "") for c in components(replay.response)]
    assert any(i.startswith("k:check:") for i in ids)
    answer = await how_to_check(harness, anna, replay.response)
    assert f"Seed: `{game.match.seed}`" in answer


async def test_the_mark_shows_only_where_its_button_is(harness: Harness) -> None:
    """A stopped game's lobby and last table have no How to check button: no mark that
    tells people to press it."""
    game = await harness.start_game(2, target=21)
    await harness.play_move(game)
    await harness.slash(harness.members[0], "kasino stop")
    await harness.env.settle()
    for message in harness.public_messages():
        if EN(FAIR_MARK) in public_text(message):
            ids = [c.get("custom_id", "") for c in components(message)]
            assert any(i.startswith("k:check:") for i in ids), public_text(message)
