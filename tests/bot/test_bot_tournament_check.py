"""A tournament's quiet mark (issue 40, "A quiet table"): its sign-up and podium show
players one plain line ("🔒 Fair deal · sealed moves") and a How to check button, never
the seed's commitment; How to check gives the commitment privately while the tournament
runs, and the seed too once it is over (as its tables' exports then reveal it)."""

from __future__ import annotations

import re
from typing import Any

from bot.i18n import EN
from bot.models import GameOptions
from bot.records.deals import tournament_commitment
from bot.render import FAIR_MARK
from bot.tournaments.deals import deal_seed
from bot.tournaments.embed import podium_embed, signup_embed
from bot.tournaments.model import Entrant, Phase, Settings
from cogs.custom_ids import parse_click
from tests.bot.kasino_harness import Harness, custom_ids
from tests.bot.test_bot_tournaments import admin, stored, tour_id

HEX = re.compile(r"\b(?=[0-9]*[a-f])[0-9a-f]{16,}\b")  # a hash, not a mention's id


def shown_text(message: Any) -> str:
    """Everything a message shows in the channel: its content, embeds and button labels."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


def check_id(message: Any, tid: int) -> str:
    """The tournament's How to check button on ``message``."""
    found = f"k:tour:{tid}:check"
    assert found in custom_ids(message), custom_ids(message)
    return found


async def press_check(harness: Harness, member: Any, message: Any, tid: int) -> str:
    """Press How to check on ``message``: the private answer's text."""
    result = await harness.click(member, message, custom_id=check_id(message, tid))
    assert result.ephemeral, result
    return str(result.response.content)


def test_the_signup_shows_the_mark_and_no_hex() -> None:
    """The sign-up embed carries the mark, not the commitment (the old footer showed
    ``seed: <32 hex digits>``)."""
    rules = Settings(GameOptions())
    embed = signup_embed(7, "Cup", rules, [Entrant(1, "Anna")], 9, Phase.SIGNUP, EN, sealed=True)
    assert FAIR_MARK in embed.footer.text and not HEX.search(embed.footer.text)
    plain = signup_embed(7, "Cup", rules, [], 9, Phase.SIGNUP, EN)
    assert FAIR_MARK not in plain.footer.text  # a tournament from before deal seeds
    podium = podium_embed("Cup", [], {}, EN, sealed=True)
    assert FAIR_MARK in podium.footer.text


def test_how_to_check_is_a_tournament_button() -> None:
    click = parse_click("k:tour:12:check")
    assert (click.kind, click.game, click.action) == ("tour", 12, "check")


async def test_how_to_check_gives_the_commitment_then_the_seed(harness: Harness) -> None:
    organiser = admin(harness)
    opened = await harness.slash(
        organiser, "kasino tournament new", title="Quiet", format="round-robin",
        round_minutes=30, cap=4, target=21,
    )  # fmt: skip
    signup = opened.response.message
    tid = tour_id(signup)
    seed = deal_seed((await stored(harness, tid)).extra)
    assert seed is not None
    committed = tournament_commitment(tid, seed)[:32]
    for member in harness.members:
        await harness.click(member, signup, custom_id=f"k:tour:{tid}:join")
    signup = harness.current(signup)
    assert "🔒 Fair deal" in signup.embeds[0].footer.text
    assert committed not in shown_text(signup) and not HEX.search(shown_text(signup))
    # anyone may look, privately: the commitment each entrant was sent, not the seed
    outsider = harness.guild.add_member(harness.env.create_user("onlooker"))
    answer = await press_check(harness, outsider, signup, tid)
    assert f"`{committed}`" in answer and seed not in answer
    assert f"--seed {committed}" in answer and "revealed once the tournament is over" in answer
    await harness.slash(organiser, "kasino tournament start")
    signup = harness.current(signup)
    assert committed not in shown_text(signup)
    answer = await press_check(harness, harness.members[0], signup, tid)  # still there
    assert f"`{committed}`" in answer and seed not in answer
    await harness.env.advance_time(30 * 60 + 1)  # the round's deadline
    await harness.slash(organiser, "kasino tournament end")
    row = await stored(harness, tid)
    assert row.phase is Phase.FINISHED
    podium = next(m for m in harness.public_messages() if m.id == row.extra["podium_id"])
    assert "🔒 Fair deal" in podium.embeds[0].footer.text
    for message in (podium, harness.current(signup)):
        assert committed not in shown_text(message) and seed not in shown_text(message)
        answer = await press_check(harness, harness.members[1], message, tid)
        assert f"`{committed}`" in answer and f"`{seed}`" in answer
    # the button elsewhere (a forged custom_id on another message) tells nothing
    other = next(m for m in harness.public_messages() if m.id not in (podium.id, signup.id))
    forged = await harness.forge(harness.members[0], other, f"k:tour:{tid}:check")
    assert forged.ephemeral and committed not in str(forged.response.content)
