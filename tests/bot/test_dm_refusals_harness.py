"""The tests' Discord refusing DMs (``tests/bot/dm_refusals.py``), tested with a tiny
discord.py bot (not Kasino): the DM channel opens, and a message in it is refused with
403, 50007 for a person who closed their DMs or shares no server with the bot (unless
they installed the app); SimCord alone delivers all of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
import pytest
import simcord
from discord.ext import commands

from tests.bot.dm_refusals import CANNOT_SEND, DMRefusals
from tests.bot.user_installs import UserInstalls


class TinyBot(commands.Bot):
    """A discord.py bot that only sends DMs when told."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())


@dataclass
class World:
    env: simcord.Env
    refusals: DMRefusals
    installs: UserInstalls
    member: Any  # shares a server with the bot
    stranger: Any  # shares none

    async def dm(self, person: Any, text: str) -> tuple[int, int] | None:
        """Send ``text`` to ``person``'s DM: None if made, else Discord's (status, code)."""
        bot = self.env.bot
        channel = await bot.create_dm(discord.Object(id=person.id))
        try:
            await channel.send(text, nonce="tiny1")
        except discord.HTTPException as error:
            return error.status, error.code
        return None


@pytest.fixture
def simcord_bot() -> TinyBot:
    return TinyBot()


@pytest.fixture
async def world(
    simcord_env: simcord.Env,
    discord_dm_refusals: DMRefusals,
    discord_user_installs: UserInstalls,
) -> World:
    env = simcord_env
    guild = env.create_guild("Installed")
    member, stranger = env.create_user("member"), env.create_user("stranger")
    guild.add_member(member)
    return World(env, discord_dm_refusals, discord_user_installs, member, stranger)


def dms_of(env: simcord.Env, person: Any) -> list[str]:
    backend = env.backend
    channel_id = backend.dm_channels.get(int(person.id))
    if channel_id is None:
        return []
    return [m.content for m in backend.messages.get(channel_id, {}).values()]


async def test_a_member_who_allows_dms_gets_them(world: World) -> None:
    assert await world.dm(world.member, "hello") is None
    assert dms_of(world.env, world.member) == ["hello"] and world.refusals.refused == []


async def test_closed_dms_are_refused_with_50007_and_nothing_is_made(world: World) -> None:
    world.refusals.close_dms(world.member)
    assert await world.dm(world.member, "hello") == (403, CANNOT_SEND)
    assert dms_of(world.env, world.member) == []  # the channel opened, nothing in it
    assert world.refusals.refused == [world.member.id]
    # opened again: the same nonce is not taken by the refused message
    world.refusals.open_dms(world.member)
    assert await world.dm(world.member, "hello") is None
    assert dms_of(world.env, world.member) == ["hello"]


async def test_no_shared_server_is_refused_unless_they_installed_the_app(world: World) -> None:
    assert await world.dm(world.stranger, "hello") == (403, CANNOT_SEND)
    world.installs.app_installed_by(world.stranger)
    assert await world.dm(world.stranger, "again") is None
    assert dms_of(world.env, world.stranger) == ["again"]
    world.refusals.close_dms(world.stranger)  # an install does not open closed DMs
    assert await world.dm(world.stranger, "third") == (403, CANNOT_SEND)
