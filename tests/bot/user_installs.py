"""What Discord does for apps a person installs ("user installs"), which SimCord lacks.

SimCord models servers that installed the bot and the bot's DM. Since 2024 a person can
install an app to their account; its commands then run in that person's group DMs and in
servers where the app is not a member. This module adds that to the tests' Discord, from
the tests (SimCord's installed files are not touched: its route table, its interaction
payload builder and the backend's event feed are wrapped, as ``DiscordNonces`` wraps
Create Message). The quotes are from Discord's developer docs
(``developers/interactions/receiving-and-responding.mdx`` unless named otherwise).

1. **Contexts and owners.** "PRIVATE_CHANNEL 2: Interaction can be used within Group DMs
   and DMs other than the app's bot user" (:class:`GroupDM`, :class:`PrivateDM`); a
   server that did not install the app is context 0 (:class:`ForeignServer`);
   ``authorizing_integration_owners``: "If the key is GUILD_INSTALL ("0"), ... the value
   will be the guild ID if the interaction is triggered from a server; the value will be
   "0" if the interaction is triggered from a DM with the app's bot user. If the key is
   USER_INSTALL ("1"), the value will be the ID of the authorizing user", and "for
   command invocations, the command must be supported in the installation context (using
   integration_types)". ``app_permissions`` "includes ATTACH_FILES | EMBED_LINKS |
   MENTION_EVERYONE permissions for (G)DMs with other users".
   In a server the app is not in, the docs give no value: the harness sends @everyone's
   permissions in the channel (its choice). ``developers/events/gateway.mdx``: "Gateway
   events that do not contain a guild_id will only be sent to the first shard
   (shard_id: 0)": a (group) DM's interaction has none; SimCord's router does the rest.
2. **No channel calls.** The bot is no member of a group DM or of a server that did not
   install it, so every REST call on that channel or server is refused as Discord
   refuses what a token may not reach: 403, code 50001 "Missing access"
   (``developers/topics/opcodes-and-status-codes.mdx``), and recorded
   (:attr:`attempts`), so a test can assert none was made. Discord sends the bot no
   gateway events about them either (the harness drops them: :attr:`hidden_events`, and
   leaves the servers out of a shard's identify). The interaction's own routes work:
   "Interaction tokens are valid for 15 minutes and can be used to send followup
   messages". After the 15 minutes the docs name no error; Discord answers 401 "Invalid
   Webhook Token" (code 50027, "Invalid webhook token provided" in the error codes;
   observed in discord/discord-api-docs#6851), and so does the harness for the places'
   interactions (for every interaction with :attr:`expiry_everywhere`; otherwise
   SimCord's own 404 10015 stays, so today's tests see what they saw).
3. **The follow-up cap.** "Apps are limited to 5 followup messages per interaction if it
   was initiated from a user-installed app and isn't installed in the server (meaning the
   authorizing integration owners object only contains USER_INSTALL)". The docs name no
   error for the 6th: the harness answers 400 with a clear message (its choice).
4. **Forced ephemeral.** ``developers/change-log.mdx`` (New Use External Apps
   Permission): "If Use External Apps is disabled and your app is *not* installed to the
   server, your app's responses will be ephemeral for the end user";
   ``developers/topics/permissions.mdx``, USE_EXTERNAL_APPS: "Allows user-installed apps
   to send public responses. When disabled, users will still be allowed to use their apps
   but the responses will be ephemeral. This only applies to apps not also installed to
   the server." It is on by default ("enabled for servers by default"). So where the
   member lacks it, the response and follow-ups are made ephemeral without an error
   (the bot can tell from ``interaction.permissions.use_external_apps``).
5. **Who can run a command where.** ``developers/interactions/application-commands.mdx``:
   ``integration_types`` "defaults to GUILD_INSTALL ([0])", ``contexts`` "defaults to all
   contexts [0,1,2]", and "the PRIVATE_CHANNEL interaction context is only meaningful for
   commands installed to a user (when the command's integration_types includes
   USER_INSTALL)". A person runs a command in a group DM or a foreign server only if they
   installed the app and the command allows USER_INSTALL and that context; anyone there
   may press the buttons on its messages.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import discord
import simcord
from simcord import interactions as sim_interactions
from simcord.actors import _find_component
from simcord.backend import serializers
from simcord.backend.errors import BackendError, SetupError
from simcord.backend.models import Guild, Role
from simcord.backend.ops.guilds import DEFAULT_EVERYONE_PERMISSIONS
from simcord.enums import SELECT_TYPES, AppCommandType, ComponentType, InteractionType
from simcord.gateway import ShardRouter
from simcord.http import router as sim_router

if TYPE_CHECKING:
    import pytest


class Patcher(Protocol):
    """What changes SimCord's modules until the end (and changes them back then): pytest's
    ``MonkeyPatch`` in the tests, ``bot.preview_places.Patches`` in the preview (which
    uses this module without pytest)."""

    def setattr(self, target: Any, name: str, value: Any) -> None: ...

    def setitem(self, mapping: Any, key: Any, value: Any) -> None: ...


GUILD_INSTALL, USER_INSTALL = "0", "1"  # application integration types, as owners' keys
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2  # interaction context types
DM_TYPE, GROUP_DM_TYPE = 1, 3  # channel types DM and GROUP_DM
FOLLOWUP_CAP = 5
TOKEN_SECONDS = 15 * 60
EPHEMERAL = 1 << 6
USE_EXTERNAL_APPS = 1 << 50
PRIVATE_APP_PERMISSIONS = discord.Permissions(
    attach_files=True, embed_links=True, mention_everyone=True
).value
DEFAULT_INTEGRATION_TYPES = (0,)
DEFAULT_CONTEXTS = (GUILD, BOT_DM, PRIVATE_CHANNEL)


def missing_access() -> BackendError:
    """Discord's answer to a call on a channel or server the bot cannot reach."""
    return BackendError(403, 50001, "Missing Access")


def invalid_webhook_token() -> BackendError:
    """Discord's answer to an interaction token used after its 15 minutes."""
    return BackendError(401, 50027, "Invalid Webhook Token")


def followup_cap_reached() -> BackendError:
    """The harness's answer to a 6th follow-up (Discord's docs name no error)."""
    return BackendError(
        400,
        0,
        f"Maximum number of follow-up messages reached ({FOLLOWUP_CAP}): the app is "
        "user-installed and not installed in this server",
    )


class NotRunnableHere(SetupError):
    """A person tried a command Discord would not offer them here; ``reason`` says why:
    ``not-installed`` (they did not install the app), ``integration-types`` (the command
    does not allow USER_INSTALL), ``context`` (nor this interaction context), ``scope`` (no
    such global command)."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"Command '/{name}' is not offered here — a real user could not run it "
                         f"(reason: {reason})")  # fmt: skip
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Attempt:
    """A REST call the bot made on a channel or server it cannot reach (refused)."""

    method: str
    path: str


@dataclass(slots=True)
class Origin:
    """What Discord knows of one interaction made in a :class:`Place`."""

    place: Place
    owners: dict[str, str]
    forced_ephemeral: bool


def command_allows(command: dict[str, Any], context: int) -> str | None:
    """Why a user-installed ``command`` cannot run in ``context`` (None: it can)."""
    types = command.get("integration_types") or DEFAULT_INTEGRATION_TYPES
    if 1 not in [int(t) for t in types]:
        return "integration-types"
    contexts = command.get("contexts")
    if contexts is None:
        contexts = (GUILD,) if command.get("dm_permission") is False else DEFAULT_CONTEXTS
    if context not in [int(c) for c in contexts]:
        return "context"
    return None


def allows_install(command: dict[str, Any] | None, install: str) -> bool:
    """Whether ``command`` (None: not a command) supports the install type ``install``."""
    if command is None:
        return True
    types = command.get("integration_types") or DEFAULT_INTEGRATION_TYPES
    return int(install) in [int(t) for t in types]


@dataclass
class UserInstalls:
    """The tests' Discord for user installs (the module's docstring: what and why).

    ``installed``: ids of the people who installed the app to their account;
    ``attempts``: each refused REST call on a place's channel or server;
    ``hidden_events``: the gateway events Discord would not send the bot;
    ``origins``: each interaction made in a place, by interaction id."""

    installed: set[int] = field(default_factory=set)
    places: dict[int, Place] = field(default_factory=dict)  # by channel id
    foreign_guilds: set[int] = field(default_factory=set)
    attempts: list[Attempt] = field(default_factory=list)
    hidden_events: list[str] = field(default_factory=list)
    origins: dict[int, Origin] = field(default_factory=dict)
    expiry_everywhere: bool = False  # 401 after 15 minutes for every interaction's token
    _backends: set[int] = field(default_factory=set)
    _monkeypatch: Patcher | None = None

    # ------------------------------------------------------------ installing

    def install(self, monkeypatch: Patcher) -> None:
        """Wrap SimCord's routes and payload builder until the test (or the preview) ends."""
        self._monkeypatch = monkeypatch
        routes = sim_router._ROUTES  # SimCord's route table (private; pinned version)
        for method, table in list(routes.items()):
            monkeypatch.setitem(routes, method, [(t, self.wrap(t, h)) for t, h in table])
        monkeypatch.setattr(sim_interactions, "base_payload", self.payload_builder())
        identify = ShardRouter.identify

        def identify_hiding(router: ShardRouter, shard_id: int, **kw: Any) -> None:
            # a shard's (re)identify replays the guilds straight to the shard, past
            # ``attach``'s filter: the servers without the bot are left out of it
            with self.hidden_guilds(router._backend):
                identify(router, shard_id, **kw)

        monkeypatch.setattr(ShardRouter, "identify", identify_hiding)

    @contextlib.contextmanager
    def hidden_guilds(self, backend: Any) -> Iterator[None]:
        """SimCord's backend without the servers that did not install the app, for a
        moment (what the bot's gateway may list)."""
        hidden = {g: backend.guilds.pop(g) for g in self.foreign_guilds if g in backend.guilds}
        try:
            yield
        finally:
            backend.guilds.update(hidden)

    def app_installed_by(self, *users: Any) -> None:
        """These people install the app to their account."""
        self.installed.update(int(user.id) for user in users)

    def attach(self, env: simcord.Env) -> None:
        """Hide the places' gateway events from the bot of ``env`` (once per backend)."""
        backend = env.backend
        if id(backend) in self._backends:
            return
        assert self._monkeypatch is not None, "install() first"
        self._backends.add(id(backend))
        emit = backend.emit

        def filtered(event: str, payload: Any) -> None:
            if event != "INTERACTION_CREATE" and self.hides(event, payload):
                self.hidden_events.append(event)
                return
            emit(event, payload)

        self._monkeypatch.setattr(backend, "emit", filtered)

    def hides(self, event: str, payload: Any) -> bool:
        """Whether Discord would keep ``event`` from the bot (it is no member there)."""
        if not isinstance(payload, dict):
            return False

        def number(key: str) -> int | None:
            value = payload.get(key)
            return int(value) if value is not None else None

        if number("guild_id") in self.foreign_guilds or number("channel_id") in self.places:
            return True
        if event.startswith("GUILD_") and number("id") in self.foreign_guilds:
            return True
        return event.startswith(("CHANNEL_", "THREAD_")) and number("id") in self.places

    # ----------------------------------------------------------------- places

    def group_dm(
        self, env: simcord.Env, *people: Any, installer: Any = None, name: str | None = None
    ) -> GroupDM:
        """A group DM of ``people`` (users or members); ``installer`` (default: the first)
        installed the app. The bot is not in it."""
        self.attach(env)
        backend = env.backend
        ids = [int(p.id) for p in people]
        assert len(ids) >= 2, "a group DM has at least two people"
        installer_id = int((installer or people[0]).id)
        self.installed.add(installer_id)
        channel = backend.create_channel(None, name, type=GROUP_DM_TYPE, announce=False)
        channel.recipient_ids = list(ids)
        place = GroupDM(self, env, channel.id, installer_id, name)
        place.members = [PlaceActor(place, backend.get_user(i)) for i in ids]
        self.places[channel.id] = place
        return place

    def private_dm(self, env: simcord.Env, person: Any, other: Any) -> PrivateDM:
        """A DM between two people (not the bot's DM: context 2, like a group DM);
        ``person`` installed the app."""
        self.attach(env)
        backend = env.backend
        ids = [int(person.id), int(other.id)]
        self.installed.add(ids[0])
        channel = backend.create_channel(None, None, type=DM_TYPE, announce=False)
        channel.recipient_ids = list(ids)
        place = PrivateDM(self, env, channel.id, ids[0], None)
        place.members = [PlaceActor(place, backend.get_user(i)) for i in ids]
        self.places[channel.id] = place
        return place

    def foreign_server(
        self,
        env: simcord.Env,
        *people: Any,
        installer: Any = None,
        name: str = "Other Server",
        channel: str = "general",
        external_apps: bool = True,
    ) -> ForeignServer:
        """A server of ``people`` that did not install the app (the bot is no member);
        ``installer`` (default: the first) installed it to their account. Without
        ``external_apps`` the server has switched Use External Apps off for @everyone."""
        self.attach(env)
        backend = env.backend
        everyone = DEFAULT_EVERYONE_PERMISSIONS | (USE_EXTERNAL_APPS if external_apps else 0)
        guild_id = backend.snowflake()
        owner = backend.make_user(f"{name} Owner")
        guild = Guild(id=guild_id, name=name, owner_id=owner.id)
        guild.roles[guild_id] = Role(id=guild_id, name="@everyone", permissions=everyone)
        backend.guilds[guild_id] = guild  # made by hand: create_guild adds the bot
        self.foreign_guilds.add(guild_id)
        backend.add_member(guild_id, owner.id)
        ids = [int(p.id) for p in people]
        for user_id in ids:
            backend.add_member(guild_id, user_id)
        made = backend.create_channel(guild_id, channel, announce=False)
        installer_id = int((installer or people[0]).id)
        self.installed.add(installer_id)
        place = ForeignServer(self, env, made.id, installer_id, name, guild_id=guild_id)
        place.members = [PlaceActor(place, backend.get_user(i)) for i in ids]
        self.places[made.id] = place
        return place

    # ------------------------------------------------------------------ routes

    def wrap(self, template: list[str], handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """A route's handler as Discord answers it where the bot is no member."""
        if template[:1] == ["webhooks"] and "{token}" in template:
            return self._by_token(template, handler)
        if template[-1:] == ["callback"] and template[:1] == ["interactions"]:
            return self._callback(handler)
        if "{channel_id}" in template or "{guild_id}" in template:
            return self._refusing(handler)
        return handler

    def _refusing(self, handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def refusing(ctx: Any) -> Any:
            channel = ctx.args.get("channel_id")
            guild = ctx.args.get("guild_id")
            if (channel is not None and int(channel) in self.places) or (
                guild is not None and int(guild) in self.foreign_guilds
            ):
                self.attempts.append(Attempt(ctx.method, ctx.path))
                raise missing_access()
            return handler(ctx)

        return refusing

    def _origin_of_token(self, ctx: Any) -> tuple[Any, Origin] | None:
        backend = ctx.backend
        interaction_id = backend.interaction_tokens.get(ctx.args.get("token"))
        origin = self.origins.get(interaction_id) if interaction_id is not None else None
        if origin is None:
            return None
        return backend.interactions[interaction_id], origin

    def _by_token(self, template: list[str], handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
        creates = len(template) == 3  # POST /webhooks/{id}/{token}: a follow-up

        def by_token(ctx: Any) -> Any:
            found = self._origin_of_token(ctx)
            if found is None:
                if self.expiry_everywhere:
                    self._check_expiry(ctx)
                return handler(ctx)
            record, origin = found
            if record.expires_at is not None and ctx.backend.now_iso() >= record.expires_at:
                raise invalid_webhook_token()
            if creates and ctx.method == "POST" and not record.loading:
                if set(origin.owners) == {USER_INSTALL} and (
                    len(record.followup_ids) >= FOLLOWUP_CAP
                ):
                    raise followup_cap_reached()
                if origin.forced_ephemeral:
                    _force_ephemeral(ctx.body())
            return handler(ctx)

        return by_token

    def _check_expiry(self, ctx: Any) -> None:
        """Any interaction's token after its 15 minutes: 401 (``expiry_everywhere``)."""
        interaction_id = ctx.backend.interaction_tokens.get(ctx.args.get("token"))
        record = ctx.backend.interactions.get(interaction_id)
        expires = record.expires_at if record is not None else None
        if expires is not None and ctx.backend.now_iso() >= expires:
            raise invalid_webhook_token()

    def _callback(self, handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def callback(ctx: Any) -> Any:
            origin = self.origins.get(int(ctx.args["interaction_id"]))
            body = ctx.body()
            if origin is not None and origin.forced_ephemeral and body.get("type") in (4, 5):
                body["data"] = dict(body.get("data") or {})
                _force_ephemeral(body["data"])
            return handler(ctx)

        return callback

    # ----------------------------------------------------------------- payloads

    def payload_builder(self) -> Callable[..., tuple[Any, dict[str, Any]]]:
        """SimCord's ``base_payload`` with Discord's owners for a server that installed
        the app (``{"0": guild id}``) and the bot's DM (``{"0": "0"}``), plus
        ``{"1": user}`` where that user installed the app."""
        build = sim_interactions.base_payload

        def base_payload(backend: Any, **kw: Any) -> tuple[Any, dict[str, Any]]:
            record, payload = build(backend, **kw)
            command = _command_of(backend, kw.get("data") or {}, int(kw["type"]))
            guild_id = kw.get("guild_id")
            owners: dict[str, str] = {}
            if allows_install(command, GUILD_INSTALL):
                owners[GUILD_INSTALL] = str(guild_id) if guild_id is not None else "0"
            if int(kw["user_id"]) in self.installed and allows_install(command, USER_INSTALL):
                owners[USER_INSTALL] = str(kw["user_id"])
            payload["authorizing_integration_owners"] = owners
            return record, payload

        return base_payload


def _force_ephemeral(body: dict[str, Any]) -> None:
    """Set the EPHEMERAL flag on a message body (Discord's forced ephemeral answer)."""
    try:
        flags = int(body.get("flags") or 0)
    except (TypeError, ValueError):
        return  # SimCord's own check answers the bad value
    body["flags"] = flags | EPHEMERAL


def _command_of(backend: Any, data: dict[str, Any], kind: int) -> dict[str, Any] | None:
    """The registered command an application-command interaction runs (else None)."""
    if kind not in (
        InteractionType.APPLICATION_COMMAND,
        InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE,
    ):
        return None
    wanted = str(data.get("id"))
    for scope in backend.commands.values():
        for command in scope.values():
            if str(command.get("id")) == wanted:
                return command
    return None


@dataclass
class Place:
    """Somewhere the app is used only because a person installed it: its channel, who
    is there (:attr:`members`, each a :class:`PlaceActor`), and who installed it."""

    installs: UserInstalls
    env: simcord.Env
    channel_id: int
    installer_id: int
    name: str | None
    members: list[PlaceActor] = field(default_factory=list)

    context = PRIVATE_CHANNEL

    @property
    def backend(self) -> Any:
        """The simulated Discord."""
        return self.env.backend

    def member(self, user: Any) -> PlaceActor:
        """The actor for ``user`` (a handle, member, actor or id)."""
        wanted = int(getattr(user, "id", user))
        return next(m for m in self.members if m.id == wanted)

    def messages(self) -> list[Any]:
        """Every message in the place's channel, oldest first (SimCord's records)."""
        stored = self.backend.messages.get(self.channel_id, {})
        return sorted(stored.values(), key=lambda m: m.id)

    def public_messages(self) -> list[Any]:
        """The messages everyone there sees."""
        return [m for m in self.messages() if not m.is_ephemeral]

    def attempts(self) -> list[Attempt]:
        """The REST calls the bot tried on this place's channel (or server)."""
        return [a for a in self.installs.attempts if self._touches(a.path)]

    def _touches(self, path: str) -> bool:
        return f"/channels/{self.channel_id}" in path

    def fill(self, payload: dict[str, Any], actor: PlaceActor) -> None:
        """Make SimCord's DM-shaped payload this place's (context, channel, owners)."""
        raise NotImplementedError

    def owners_for(self, record: Any, source_message_id: int | None) -> dict[str, str]:
        """The authorizing owners: the invoker for a command; for a component, those of
        the interaction that made the message (else the place's installer)."""
        if source_message_id is None:
            return {USER_INSTALL: str(record.user_id)}
        for interaction_id, origin in self.installs.origins.items():
            made = self.backend.interactions.get(interaction_id)
            if made is not None and (
                made.message_id == source_message_id or source_message_id in made.followup_ids
            ):
                return dict(origin.owners)
        return {USER_INSTALL: str(self.installer_id)}

    def forced_ephemeral(self, actor: PlaceActor) -> bool:
        """Whether Discord makes the app's answers to ``actor`` here ephemeral."""
        return False


@dataclass
class GroupDM(Place):
    """A group DM (context 2, a GROUP_DM channel); the bot is no recipient."""

    def fill(self, payload: dict[str, Any], actor: PlaceActor) -> None:
        """Context 2, the GROUP_DM channel, the app's (G)DM permissions."""
        backend = self.backend
        channel = backend.get_channel(self.channel_id)
        recipients = [dict(serializers.user_payload(backend.get_user(i)))
                      for i in channel.recipient_ids]  # fmt: skip
        payload["channel"] = {
            "id": str(self.channel_id),
            "type": GROUP_DM_TYPE,
            "name": self.name,
            "icon": None,
            "owner_id": str(self.installer_id),
            "recipients": recipients,
            "last_message_id": None,
            "flags": 0,
        }
        payload["context"] = PRIVATE_CHANNEL
        payload["app_permissions"] = str(PRIVATE_APP_PERMISSIONS)


@dataclass
class PrivateDM(GroupDM):
    """A DM between two people, neither of them the bot (context 2, a DM channel)."""

    def fill(self, payload: dict[str, Any], actor: PlaceActor) -> None:
        """Context 2, the DM channel (its recipient: the other person), (G)DM permissions."""
        other = next(m for m in self.members if m.id != actor.id)
        payload["channel"] = {
            "id": str(self.channel_id),
            "type": DM_TYPE,
            "recipients": [dict(serializers.user_payload(self.backend.get_user(other.id)))],
            "last_message_id": None,
            "flags": 0,
        }
        payload["context"] = PRIVATE_CHANNEL
        payload["app_permissions"] = str(PRIVATE_APP_PERMISSIONS)


@dataclass
class ForeignServer(Place):
    """A server that did not install the app (context 0); the bot is no member."""

    guild_id: int = 0
    context = GUILD

    def _touches(self, path: str) -> bool:
        return super()._touches(path) or f"/guilds/{self.guild_id}" in path

    @property
    def guild(self) -> Guild:
        """SimCord's record of the server."""
        return self.backend.get_guild(self.guild_id)

    def member_permissions(self, user_id: int) -> int:
        """A member's permissions in the place's channel."""
        return int(self.backend.compute_permissions(self.guild_id, user_id, self.channel_id))

    def everyone_permissions(self) -> int:
        """@everyone's permissions in the channel: the harness's app_permissions here."""
        guild = self.guild
        value = guild.everyone_role.permissions
        channel = self.backend.get_channel(self.channel_id)
        for overwrite in channel.overwrites:
            if overwrite.target_id == self.guild_id:
                value = (value & ~overwrite.deny) | overwrite.allow
        return value

    def forced_ephemeral(self, actor: PlaceActor) -> bool:
        """Use External Apps denied to the member: answers are ephemeral."""
        return not self.member_permissions(actor.id) & USE_EXTERNAL_APPS

    def fill(self, payload: dict[str, Any], actor: PlaceActor) -> None:
        """Context 0, the server's partial guild and the member, as Discord sends them."""
        backend = self.backend
        guild = self.guild
        member = dict(serializers.member_payload(backend, guild, guild.members[actor.id]))
        member["permissions"] = str(self.member_permissions(actor.id))
        channel = dict(serializers.channel_payload(backend, backend.get_channel(self.channel_id)))
        payload.pop("user", None)
        payload.update(
            guild_id=str(self.guild_id),
            guild={"id": str(self.guild_id), "locale": guild.preferred_locale, "features": []},
            guild_locale=guild.preferred_locale,
            member=member,
            channel=channel,
            context=GUILD,
            app_permissions=str(self.everyone_permissions()),
        )

    def set_external_apps(self, allowed: bool) -> None:
        """The server's admin switches Use External Apps on or off for @everyone."""
        role = self.guild.everyone_role
        role.permissions = (role.permissions | USE_EXTERNAL_APPS) if allowed else (
            role.permissions & ~USE_EXTERNAL_APPS
        )  # fmt: skip


@dataclass
class PlaceActor:
    """A person in a :class:`Place`: runs slash commands, clicks and selects like
    SimCord's actors (what a real client offers them, checked)."""

    place: Place
    user: Any
    locale: str = "en-US"

    @property
    def id(self) -> int:
        """The person's user id."""
        return int(self.user.id)

    @property
    def name(self) -> str:
        """The person's user name."""
        return str(self.user.name)

    @property
    def _env(self) -> simcord.Env:  # SimCord's option builders read ``actor._env``
        return self.place.env

    async def slash(self, name: str, /, **options: Any) -> simcord.InteractionResult:
        """Run a global slash command here, if Discord would offer it to this person."""
        place = self.place
        backend = place.backend
        parts = name.split()
        root = backend.find_command(parts[0], None, type=AppCommandType.CHAT_INPUT)
        if root is None or root.get("guild_id"):
            raise NotRunnableHere(name, "scope")
        if self.id not in place.installs.installed:
            raise NotRunnableHere(name, "not-installed")
        reason = command_allows(root, place.context)
        if reason is not None:
            raise NotRunnableHere(name, reason)
        leaf, nesting = sim_interactions.walk_to_subcommand(root, parts[1:])
        leaf_options, resolved = sim_interactions.build_options(
            self, name, leaf, options, channel_id=place.channel_id
        )
        data: dict[str, Any] = {
            "id": root["id"],
            "name": root["name"],
            "type": root.get("type", AppCommandType.CHAT_INPUT),
            "options": sim_interactions.nest_options(root, nesting, leaf_options),
        }
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch(InteractionType.APPLICATION_COMMAND, data)

    def visible(self, message: Any) -> Any:
        """SimCord's record of a message here that this person can see."""
        message_id = int(getattr(message, "id", message))
        stored = self.place.backend.get_message(self.place.channel_id, message_id)
        if not stored.visible_to(self.id):
            raise SetupError("That message is not visible to this user")
        return stored

    async def click(
        self, message: Any, *, custom_id: str | None = None, label: str | None = None
    ) -> simcord.InteractionResult:
        """Press a button on a message here."""
        stored = self.visible(message)
        button = _find_component(stored.components, types=(ComponentType.BUTTON,),
                                 custom_id=custom_id, label=label)  # fmt: skip
        data = {"custom_id": button["custom_id"], "component_type": ComponentType.BUTTON}
        return await self._dispatch(InteractionType.MESSAGE_COMPONENT, data, stored)

    async def select(
        self, message: Any, values: Sequence[str], *, custom_id: str | None = None
    ) -> simcord.InteractionResult:
        """Choose options of a string select on a message here."""
        stored = self.visible(message)
        menu = _find_component(stored.components, types=SELECT_TYPES,
                               custom_id=custom_id, label=None)  # fmt: skip
        valid = {option["value"] for option in menu.get("options") or []}
        chosen = list(values)
        if not chosen or any(v not in valid for v in chosen):
            raise SetupError(f"Select options {chosen!r} not all among {sorted(valid)}")
        lo, hi = menu.get("min_values", 1), menu.get("max_values", 1)
        if not lo <= len(chosen) <= hi:
            raise SetupError(f"Select expects between {lo} and {hi} value(s)")
        data = {"custom_id": menu["custom_id"], "component_type": menu["type"], "values": chosen}
        return await self._dispatch(InteractionType.MESSAGE_COMPONENT, data, stored)

    async def _dispatch(
        self, kind: int, data: dict[str, Any], stored: Any = None
    ) -> simcord.InteractionResult:
        """Send the interaction as Discord would from this place and settle."""
        place = self.place
        env = place.env
        backend = place.backend
        record, payload = sim_interactions.base_payload(
            backend, type=kind, channel_id=place.channel_id, guild_id=None,
            user_id=self.id, data=data,
        )  # fmt: skip
        place.fill(payload, self)
        payload["locale"] = self.locale
        source = stored.id if stored is not None else None
        owners = place.owners_for(record, source)
        payload["authorizing_integration_owners"] = owners
        if isinstance(place, ForeignServer):
            record.guild_id = place.guild_id
        if stored is not None:
            payload["message"] = dict(serializers.message_payload(backend, stored))
            record.source_message_id = stored.id
        place.installs.origins[record.id] = Origin(place, owners, place.forced_ephemeral(self))
        env._notify_dispatch_observers(record)
        backend.emit("INTERACTION_CREATE", payload)
        await env._settle_internal(dispatch="INTERACTION_CREATE")
        return simcord.InteractionResult(env, record)


@contextlib.contextmanager
def no_channel_calls(installs: UserInstalls) -> Iterator[list[Attempt]]:
    """Fail if the bot attempts any refused channel or server call inside the block."""
    before = len(installs.attempts)
    made: list[Attempt] = []
    yield made
    made.extend(installs.attempts[before:])
    assert not made, f"the bot attempted calls Discord refuses here: {made}"


def user_installs(monkeypatch: pytest.MonkeyPatch) -> UserInstalls:
    """The tests' Discord learns user installs until the test ends."""
    installs = UserInstalls()
    installs.install(monkeypatch)
    return installs


__all__ = [
    "Attempt",
    "ForeignServer",
    "GroupDM",
    "NotRunnableHere",
    "PlaceActor",
    "PrivateDM",
    "UserInstalls",
    "no_channel_calls",
    "user_installs",
]
