"""The tests' Discord for user installs (``tests/bot/user_installs.py``), tested with a tiny
discord.py bot (not Kasino) that has a user-installable command and a button: each rule
the harness models, then one Kasino check (``/kasino`` in a group DM is offered to the
person who installed the app only)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands
from discord.ext import commands

from tests.bot.kasino_harness import Harness
from tests.bot.user_installs import (
    PRIVATE_APP_PERMISSIONS,
    TOKEN_SECONDS,
    USE_EXTERNAL_APPS,
    NotRunnableHere,
    UserInstalls,
    no_channel_calls,
)

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
BOTH_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)


@dataclass
class Seen:
    """What the tiny bot read off one interaction, as discord.py gives it."""

    kind: str
    user_id: int
    context: app_commands.AppCommandContext
    owners: dict[int, int]
    user_integration: bool
    guild_integration: bool
    app_permissions: int
    external_apps: bool
    channel_type: discord.ChannelType | None
    guild_id: int | None

    @classmethod
    def of(cls, kind: str, interaction: discord.Interaction) -> Seen:
        """Read ``interaction``."""
        channel = interaction.channel
        return cls(
            kind=kind,
            user_id=interaction.user.id,
            context=interaction.context,
            owners=dict(interaction._integration_owners),  # discord.py keeps them private
            user_integration=interaction.is_user_integration(),
            guild_integration=interaction.is_guild_integration(),
            app_permissions=interaction.app_permissions.value,
            external_apps=interaction.permissions.use_external_apps,
            channel_type=getattr(channel, "type", None),
            guild_id=interaction.guild_id,
        )


class Again(discord.ui.View):
    """The tiny bot's persistent button: a click edits the message it is on."""

    def __init__(self, bot: TinyBot) -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.button(label="Again", custom_id="tiny:again")
    async def again(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:
        """Note the click and edit the message."""
        self.bot.seen.append(Seen.of("click", interaction))
        await interaction.response.edit_message(content=f"again by {interaction.user.id}")

    @discord.ui.select(
        custom_id="tiny:pick",
        options=[discord.SelectOption(label=v, value=v) for v in ("a", "b")],
    )
    async def pick(self, interaction: discord.Interaction, menu: discord.ui.Select[Any]) -> None:
        """Note the choice and edit the message."""
        self.bot.seen.append(Seen.of("select", interaction))
        await interaction.response.edit_message(content=f"picked {menu.values[0]}")


@dataclass
class Log:
    """What the tiny bot's calls met: (what, status, code) of each refused call."""

    refused: list[tuple[str, int, int]] = field(default_factory=list)
    followups: int = 0
    kept: list[discord.Interaction] = field(default_factory=list)


class TinyBot(commands.Bot):
    """A discord.py bot with user-installable commands, a guild-only one, and a button."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.seen: list[Seen] = []
        self.log = Log()

    async def setup_hook(self) -> None:
        """Register the commands and the button, and sync (Discord lists them)."""
        for command in tiny_commands(self):
            self.tree.add_command(command)
        self.add_view(Again(self))
        await self.tree.sync()


def user_installable(command: app_commands.Command[Any, Any, Any]) -> Any:
    """Installable to servers and users, usable in servers, the bot's DM and group DMs."""
    command.allowed_installs = BOTH_INSTALLS
    command.allowed_contexts = EVERYWHERE
    return command


async def refused(bot: TinyBot, what: str, call: Any) -> Any:
    """Await a channel call; note its refusal as Discord answered it (None then)."""
    try:
        return await call
    except discord.HTTPException as exc:
        bot.log.refused.append((what, exc.status, exc.code))
        return None


def tiny_commands(bot: TinyBot) -> list[app_commands.Command[Any, Any, Any]]:
    """The tiny bot's slash commands."""

    @app_commands.command(name="deal", description="Answer with a button")
    async def deal(interaction: discord.Interaction) -> None:
        bot.seen.append(Seen.of("slash", interaction))
        await interaction.response.send_message("dealt", view=Again(bot))
        await interaction.followup.send("and a follow-up")

    @app_commands.command(name="spam", description="Answer, then follow up count times")
    async def spam(interaction: discord.Interaction, count: int) -> None:
        await interaction.response.send_message("answer")
        for n in range(count):
            try:
                await interaction.followup.send(f"follow-up {n + 1}")
                bot.log.followups += 1
            except discord.HTTPException as exc:
                bot.log.refused.append(("followup", exc.status, exc.code))

    @app_commands.command(name="channel", description="Try the channel's own calls")
    async def channel(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("trying")
        place = interaction.channel
        assert isinstance(place, discord.abc.Messageable)
        answer = await interaction.original_response()
        sent = await refused(bot, "send", place.send("hello"))
        await refused(bot, "fetch", place.fetch_message(answer.id))
        await refused(bot, "typing", interaction.client.http.send_typing(interaction.channel_id))
        http, channel_id = interaction.client.http, answer.channel.id
        route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                                   channel_id=channel_id, message_id=answer.id)  # fmt: skip
        await refused(bot, "edit", http.request(route, json={"content": "x"}))
        gone = sent.id if sent is not None else answer.id  # where allowed, not the answer
        await refused(bot, "delete", http.delete_message(channel_id, gone))
        await refused(bot, "thread", http.start_thread_with_message(
            channel_id, answer.id, name="t", auto_archive_duration=60))  # fmt: skip
        await interaction.edit_original_response(content="tried")
        await interaction.followup.send("still here")
        bot.log.followups += 1

    @app_commands.command(name="later", description="Defer and keep the interaction")
    async def later(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        bot.log.kept.append(interaction)

    @app_commands.command(name="guildonly", description="Installable to servers only")
    async def guildonly(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("server")

    @app_commands.command(name="dmonly", description="User-installed, DMs only")
    @app_commands.allowed_installs(guilds=False, users=True)
    @app_commands.allowed_contexts(guilds=False, dms=True, private_channels=False)
    async def dmonly(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("dm")

    return [user_installable(c) for c in (deal, spam, channel, later)] + [guildonly, dmonly]


@dataclass
class World:
    """The tiny bot's Discord: an installed server, and people who installed the app."""

    env: simcord.Env
    installs: UserInstalls
    guild: Any
    channel: Any
    alice: Any
    bob: Any
    carol: Any

    @property
    def bot(self) -> TinyBot:
        """The running tiny bot."""
        bot = self.env.bot
        assert isinstance(bot, TinyBot)
        return bot


class TestTinyBot:
    """Each rule of the harness, seen by a tiny discord.py bot."""

    @pytest.fixture
    def simcord_bot(self) -> TinyBot:
        """The tiny bot, not Kasino."""
        return TinyBot()

    @pytest.fixture
    async def world(
        self, simcord_env: simcord.Env, discord_user_installs: UserInstalls
    ) -> AsyncIterator[World]:
        """A server that installed the app, Alice who installed it too, Bob and Carol."""
        env = simcord_env
        guild = env.create_guild("Installed")
        channel = guild.create_text_channel("general")
        alice, bob, carol = (env.create_user(n) for n in ("alice", "bob", "carol"))
        yield World(env, discord_user_installs, guild, channel, alice, bob, carol)

    # ------------------------------------------------------------------ 1. contexts

    async def test_installed_server_and_bot_dm(self, world: World) -> None:
        """A server that installed the app: context 0, owners {"0": guild} (and {"1":
        user} for a person who also installed it); the bot's DM: context 1, {"0": "0"}."""
        member = world.guild.add_member(world.alice)
        await member.slash(world.channel, "deal")
        world.installs.app_installed_by(world.alice)
        await member.slash(world.channel, "deal")
        await world.bob.slash("deal")
        plain, both, dm = world.bot.seen
        assert plain.context.guild and plain.owners == {0: world.guild.id}
        assert plain.guild_integration and not plain.user_integration
        assert both.owners == {0: world.guild.id, 1: world.alice.id} and both.user_integration
        assert dm.context.dm_channel and dm.owners == {0: 0} and not dm.guild_integration

    async def test_group_dm(self, world: World) -> None:
        """A group DM: context 2 in a GROUP_DM channel, owners {"1": installer}, the
        (G)DM app permissions; anyone there may press the installer's button, and the
        click carries the installer as owner."""
        gdm = world.installs.group_dm(world.env, world.alice, world.bob, world.carol)
        alice, bob = gdm.member(world.alice), gdm.member(world.bob)
        with no_channel_calls(world.installs):
            result = await alice.slash("deal")
            assert result.response is not None and not result.ephemeral
            click = await bob.click(result.response, custom_id="tiny:again")
        assert click.acknowledged
        assert gdm.messages()[0].content == f"again by {world.bob.id}"
        slash, pressed = world.bot.seen
        assert slash.context.private_channel and not slash.context.guild
        assert slash.channel_type is discord.ChannelType.group and slash.guild_id is None
        assert slash.owners == {1: world.alice.id} and slash.user_integration
        assert not slash.guild_integration
        assert slash.app_permissions == PRIVATE_APP_PERMISSIONS
        assert pressed.owners == {1: world.alice.id} and pressed.user_id == world.bob.id
        assert not pressed.user_integration  # discord.py: the clicker is not the owner
        assert world.bot.get_channel(gdm.channel_id) is None  # no gateway event told it

    async def test_select_and_a_dm_between_two_people(self, world: World) -> None:
        """A DM between two people is context 2 too; the other one may use the menu."""
        dm = world.installs.private_dm(world.env, world.alice, world.bob)
        with no_channel_calls(world.installs):
            result = await dm.member(world.alice).slash("deal")
            assert result.response is not None
            await dm.member(world.bob).select(result.response, ["b"], custom_id="tiny:pick")
        assert dm.messages()[0].content == "picked b"
        slash, chosen = world.bot.seen
        assert slash.context.private_channel and slash.channel_type is discord.ChannelType.private
        assert slash.app_permissions == PRIVATE_APP_PERMISSIONS
        assert chosen.kind == "select" and chosen.owners == {1: world.alice.id}
        with pytest.raises(simcord.SetupError):
            await dm.member(world.bob).select(result.response, ["c"], custom_id="tiny:pick")

    async def test_foreign_server(self, world: World) -> None:
        """A server where the app is only user-installed: context 0 with its guild id,
        owners {"1": user}, the bot no member and told nothing of the server."""
        server = world.installs.foreign_server(world.env, world.alice, world.bob)
        with no_channel_calls(world.installs):
            result = await server.member(world.alice).slash("deal")
        assert result.response is not None and not result.ephemeral
        (seen,) = world.bot.seen
        assert seen.context.guild and seen.guild_id == server.guild_id
        assert seen.owners == {1: world.alice.id}
        assert seen.user_integration and not seen.guild_integration
        assert seen.app_permissions == server.everyone_permissions()
        assert seen.external_apps
        assert world.bot.get_guild(server.guild_id) is None
        assert "MESSAGE_CREATE" in world.installs.hidden_events

    async def test_restart_keeps_the_places_hidden(self, world: World) -> None:
        """A restarted bot is told of the installed server only, and the places work."""
        gdm = world.installs.group_dm(world.env, world.alice, world.bob)
        server = world.installs.foreign_server(world.env, world.alice, world.bob)
        await world.env.restart_bot(TinyBot())
        assert [g.id for g in world.bot.guilds] == [world.guild.id]
        for place in (gdm, server):
            result = await place.member(world.alice).slash("deal")
            assert result.response is not None and not result.ephemeral
        assert world.installs.attempts == []

    # --------------------------------------------------------- 2. no channel calls

    @pytest.mark.parametrize("where", ["group_dm", "foreign_server"])
    async def test_channel_calls_refused_and_recorded(self, world: World, where: str) -> None:
        """Every channel call is refused with 403 50001 and recorded; the interaction's
        own routes (response, its edit, a follow-up) work."""
        place = getattr(world.installs, where)(world.env, world.alice, world.bob)
        result = await place.member(world.alice).slash("channel")
        calls = ["send", "fetch", "typing", "edit", "delete", "thread"]
        assert world.bot.log.refused == [(what, 403, 50001) for what in calls]
        assert [a.method for a in place.attempts()] == ["POST", "GET", "POST", "PATCH",
                                                        "DELETE", "POST"]  # fmt: skip
        assert place.attempts() == world.installs.attempts
        assert result.response is not None and result.response.content == "tried"
        assert world.bot.log.followups == 1 and len(result.followups) == 1

    async def test_installed_server_allows_channel_calls(self, world: World) -> None:
        """The same calls in a server that installed the app are not refused (the
        harness refuses only where the bot is no member)."""
        member = world.guild.add_member(world.alice)
        result = await member.slash(world.channel, "channel")
        assert world.bot.log.refused == [] and world.installs.attempts == []
        assert result.response is not None and result.response.content == "tried"

    async def test_token_lasts_fifteen_minutes(self, world: World) -> None:
        """Within 15 minutes the token edits and follows up; after, 401 50027."""
        gdm = world.installs.group_dm(world.env, world.alice, world.bob)
        result = await gdm.member(world.alice).slash("later")
        (kept,) = world.bot.log.kept
        await world.env.advance_time(14 * 60)
        await kept.edit_original_response(content="still in time")
        await kept.followup.send("a follow-up in time")
        assert result.response is not None and result.response.content == "still in time"
        await world.env.advance_time(61)
        for late in (kept.edit_original_response(content="late"), kept.followup.send("late")):
            with pytest.raises(discord.HTTPException) as refusal:
                await late
            assert (refusal.value.status, refusal.value.code) == (401, 50027)
        assert world.installs.attempts == []

    async def test_expiry_everywhere_is_a_choice(self, world: World) -> None:
        """In a server that installed the app, an old token gets SimCord's own 404 unless
        ``expiry_everywhere`` (then Discord's 401, as in the places)."""
        member = world.guild.add_member(world.alice)
        statuses = []
        for everywhere in (False, True):
            world.installs.expiry_everywhere = everywhere
            await member.slash(world.channel, "later")
            await world.env.advance_time(TOKEN_SECONDS + 1)
            with pytest.raises(discord.HTTPException) as refusal:
                await world.bot.log.kept[-1].followup.send("late")
            statuses.append((refusal.value.status, refusal.value.code))
        assert statuses == [(404, 10015), (401, 50027)]

    # ---------------------------------------------------------- 3. follow-up cap

    @pytest.mark.parametrize("where", ["group_dm", "foreign_server"])
    async def test_five_followups_where_only_user_installed(self, world: World, where: str) -> None:
        """Owners {"1": user} only: the 6th follow-up is refused (400)."""
        place = getattr(world.installs, where)(world.env, world.alice, world.bob)
        result = await place.member(world.alice).slash("spam", count=7)
        assert world.bot.log.followups == 5 and len(result.followups) == 5
        assert [(s, c) for _, s, c in world.bot.log.refused] == [(400, 0), (400, 0)]

    async def test_no_cap_in_an_installed_server(self, world: World) -> None:
        """In a server that installed the app (owners hold GUILD_INSTALL) there is no cap,
        even for a person who installed the app too."""
        world.installs.app_installed_by(world.alice)
        member = world.guild.add_member(world.alice)
        result = await member.slash(world.channel, "spam", count=7)
        assert world.bot.log.followups == 7 and len(result.followups) == 7

    # -------------------------------------------------------- 4. forced ephemeral

    async def test_server_without_external_apps_forces_ephemeral(self, world: World) -> None:
        """Use External Apps off: the answer and follow-ups are ephemeral though the bot
        did not ask, without an error; the bot can tell from the member's permissions."""
        server = world.installs.foreign_server(world.env, world.alice, world.bob,
                                               external_apps=False)  # fmt: skip
        result = await server.member(world.alice).slash("deal")
        assert result.response is not None and result.ephemeral
        assert [f.ephemeral for f in result.followups] == [True]
        assert server.public_messages() == []
        (seen,) = world.bot.seen
        assert not seen.external_apps
        with pytest.raises(simcord.SetupError):  # Bob cannot see Alice's ephemeral answer
            await server.member(world.bob).click(result.response, custom_id="tiny:again")
        server.set_external_apps(True)
        again = await server.member(world.alice).slash("deal")
        assert not again.ephemeral and world.bot.seen[-1].external_apps
        assert server.guild.everyone_role.permissions & USE_EXTERNAL_APPS

    async def test_group_dm_answers_are_not_forced_ephemeral(self, world: World) -> None:
        """The setting is a server's: a group DM's answers stay public."""
        gdm = world.installs.group_dm(world.env, world.alice, world.bob)
        result = await gdm.member(world.alice).slash("deal")
        assert not result.ephemeral and len(gdm.public_messages()) == 2

    # ------------------------------------------------ 5. who can run what where

    async def test_commands_offered_by_install_and_context(self, world: World) -> None:
        """Only a person who installed the app runs its commands there, and only those
        allowing USER_INSTALL and that context."""
        gdm = world.installs.group_dm(world.env, world.alice, world.bob)
        server = world.installs.foreign_server(world.env, world.alice, world.bob)
        alice = gdm.member(world.alice)
        refusals = []
        for actor, name in (
            (alice, "guildonly"),
            (alice, "dmonly"),
            (server.member(world.alice), "dmonly"),
            (gdm.member(world.bob), "deal"),
            (alice, "nosuch"),
        ):
            with pytest.raises(NotRunnableHere) as refusal:
                await actor.slash(name)
            refusals.append(refusal.value.reason)
        assert refusals == ["integration-types", "context", "context",
                            "not-installed", "scope"]  # fmt: skip
        assert world.bot.seen == []
        world.installs.app_installed_by(world.bob)
        await gdm.member(world.bob).slash("deal")
        assert world.bot.seen[0].owners == {1: world.bob.id}


# ------------------------------------------------------------------------- Kasino


async def test_kasino_is_offered_in_a_group_dm_to_who_installed_it(harness: Harness) -> None:
    """``/kasino`` is installable to users: Discord offers it in a group DM to the person
    who installed the app, and not to one who did not."""
    env = harness.env
    gdm = harness.group_dm(env.create_user("sara"), env.create_user("olle"))
    with no_channel_calls(harness.installs):  # type: ignore[arg-type]
        answer = await gdm.members[0].slash("kasino rules")
    assert answer.ephemeral and answer.response.embeds[0].title == "Kasino rules"
    with pytest.raises(NotRunnableHere) as refusal:
        await gdm.members[1].slash("kasino rules")
    assert refusal.value.reason == "not-installed"


class ShardedTinyBot(commands.AutoShardedBot):
    """An auto-sharded bot with no commands: only what its gateway tells it matters."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), shard_count=2)


class TestShardedReconnect:
    """SimCord replays a reconnecting shard's guilds past the event filter; the harness
    leaves the servers without the bot out of that replay too."""

    @pytest.fixture
    def simcord_bot(self) -> ShardedTinyBot:
        """An auto-sharded bot."""
        return ShardedTinyBot()

    async def test_reconnecting_shard_is_not_told_of_a_foreign_server(
        self, simcord_env: simcord.Env, discord_user_installs: UserInstalls
    ) -> None:
        """After a disconnect and reconnect the bot knows the installed server only."""
        env = simcord_env
        installed = env.create_guild("Installed", shard_id=0)
        alice, bob = env.create_user("alice"), env.create_user("bob")
        server = discord_user_installs.foreign_server(env, alice, bob)
        bot = env.bot
        assert isinstance(bot, ShardedTinyBot)
        for shard_id in (0, 1):  # the server's shard among them, whichever it is
            shard = bot.get_shard(shard_id)
            assert shard is not None
            await shard.disconnect()
            await shard.reconnect()
            await env.settle()
        assert [g.id for g in bot.guilds] == [installed.id]
        assert bot.get_guild(server.guild_id) is None
        assert server.guild_id in env.backend.guilds  # hidden only while identifying
