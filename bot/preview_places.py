"""Where ``python -m bot --preview --place …`` shows the game: places the bot is no member of.

``server`` (the default) is the preview's own server, which installed the bot. The others
are the places of issue 41, where a person installed the app to their account and the bot
may only answer interactions:

- ``group-dm``: a group DM of the preview's members (Anna, Bjorn, Cecilia, David), who
  all installed the app; the bot is no recipient.
- ``foreign-server``: a server of the same people that did not install the app; Anna
  installed it to her account.

And the ladder's (issue 42), ``ladder``: two servers that both added the bot. Anna,
Cecilia and David are in the preview's server (its ``#kasino``); Bjorn is in another one,
"Nordic Cards" (its ``#card-games``), and nowhere else. Each may type ``/kasino queue``
where they are; paired, each plays the one match at their own table.

SimCord models neither, so the preview borrows the tests' Discord for user installs
(``tests/bot/user_installs.py``, the one copy of it): interactions there come with
context 2 (0 in the foreign server) and Discord's ``authorizing_integration_owners``,
every REST call the bot makes on the place's channel or server is refused (403, recorded)
and the follow-up cap and the tokens' 15 minutes hold, as in the tests. The preview is a
development tool run from a checkout, where that module is.

SimCord's Preview shows a server channel to its members and a DM to its owner only; a
group DM is neither. So, while the preview runs, the group DM's people may see it (its
history, the commands), and the page's actions (a command, a click, a menu's choice) are
sent as that place's person (:class:`PlaceViewer`), not as SimCord's member or DM user.
Everything changed in SimCord is changed back when the preview ends (:class:`Patches`).

SimCord's Preview shows one channel of one server, to that server's members, and allows
one Preview per SimCord. So the ``ladder`` place's page shows each viewer their own
server's channel: the page's "Viewing as" switch moves the page to the channel of the
person chosen (:func:`_channel_follows_viewer`), and a second browser tab may look as the
other person at the same time.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from simcord.actors import MemberActor
from simcord.backend.errors import SetupError

from bot.preview import PreviewUnavailable

if TYPE_CHECKING:
    import simcord

    from tests.bot.user_installs import Place, PlaceActor, UserInstalls

PLACES = ("server", "group-dm", "foreign-server", "ladder", "games", "dm")
GROUP_DM_NAME = "Kasino night"  # the group DM's name, as its people may set one
FOREIGN_SERVER_NAME = "Friends' server"
LADDER_SERVER_NAME = "Nordic Cards"  # the ladder place's other server: Bjorn's
LADDER_CHANNEL_NAME = "card-games"


class PlaceUnavailable(PreviewUnavailable):
    """The tests' Discord for user installs cannot be imported (not run from a checkout)."""


class Patches:
    """Attributes and items changed while the preview runs, changed back by :meth:`undo`
    (the few calls of pytest's ``MonkeyPatch`` that ``UserInstalls.install`` makes, without
    pytest: the preview needs only SimCord)."""

    def __init__(self) -> None:
        self._undo: list[Callable[[], None]] = []

    def setattr(self, target: Any, name: str, value: Any) -> None:
        """Set ``target.name`` to ``value`` until :meth:`undo`."""
        had = name in getattr(target, "__dict__", {})
        old = getattr(target, name, None)
        self._undo.append(
            (lambda: setattr(target, name, old)) if had else (lambda: delattr(target, name))
        )
        setattr(target, name, value)

    def setitem(self, mapping: MutableMapping[Any, Any], key: Any, value: Any) -> None:
        """Set ``mapping[key]`` to ``value`` until :meth:`undo`."""
        had, old = key in mapping, mapping.get(key)
        self._undo.append(
            (lambda: mapping.__setitem__(key, old)) if had else (lambda: mapping.pop(key, None))
        )
        mapping[key] = value

    def undo(self) -> None:
        """Change everything back, the latest change first."""
        while self._undo:
            self._undo.pop()()


@dataclass
class Shown:
    """What the preview's page shows: a channel and who may look at it (the viewers)."""

    channel: Any  # SimCord's ChannelHandle
    viewers: Sequence[Any]  # MemberActor or PlaceViewer handles
    place: Place | None = None  # None: the preview's server, which installed the bot
    installs: UserInstalls | None = None
    # the ladder place: each viewer's (id's) own channel, which the page shows them
    channels: Mapping[int, Any] | None = None


def _user_installs_module() -> Any:
    """The tests' ``user_installs`` module (see the module docstring)."""
    try:
        from tests.bot import user_installs
    except ImportError as error:
        raise PlaceUnavailable(
            "--place needs the tests' Discord for user installs (tests/bot/user_installs.py):"
            " run the preview from the project's checkout"
        ) from error
    return user_installs


@contextlib.contextmanager
def place_for(
    env: simcord.Env,
    kind: str,
    members: Sequence[Any],
    locale: str = "en-US",
    channel: Any = None,
) -> Iterator[Shown | None]:
    """The place ``kind`` (one of :data:`PLACES`) of the preview's ``members``, made in
    ``env``, while inside; None for ``server`` (nothing is changed then). ``channel`` is
    the preview's own channel (the ladder's first place)."""
    if kind in ("server", "games"):  # games: the server's channel (seed_games adds the rest)
        yield None
        return
    if kind not in PLACES:
        raise ValueError(f"unknown place {kind!r}: one of {', '.join(PLACES)}")
    if kind == "dm":  # Anna's DM with the bot (:func:`dm_scene` fills it)
        anna = members[0]
        dm = env.backend.get_dm_channel(int(anna.id))
        yield Shown(_channel_handle_of(env, dm.id), [anna.user])
        return
    if kind == "ladder":
        patches = Patches()
        try:
            yield _ladder(env, patches, members, channel)
        finally:
            patches.undo()
        return
    module = _user_installs_module()
    patches = Patches()
    installs = module.UserInstalls()
    try:
        installs.install(patches)
        users = [member.user for member in members]
        if kind == "group-dm":
            place = installs.group_dm(env, *users, name=GROUP_DM_NAME)
            installs.app_installed_by(*users)  # anyone there may open a game
        else:
            place = installs.foreign_server(env, *users, name=FOREIGN_SERVER_NAME)
        for actor in place.members:
            actor.locale = locale
        _let_people_see(patches, installs)
        _route_commands(patches)
        _name_the_group(patches, installs)
        yield Shown(_channel_handle(env, place), _viewers(place, users), place, installs)
    finally:
        patches.undo()
        tell_refused(installs.attempts)


async def seed_games(bot: Any, env: Any, guild: Any, members: Sequence[Any]) -> None:
    """``games`` (issue 43): Anna's games elsewhere, for ``/kasino games``: a live match
    with Bjorn in the preview server's ``#cards``, a match of 3 days a move with Cecilia
    in another server ("Nordic Cards"), and a lobby in her DM with the bot. The page
    shows the server's ``#kasino``, where she may open one more."""
    from bot.models import GameOptions, Seat

    cog = bot.get_cog("Kasino")
    anna, bjorn, cecilia = members[:3]
    cards = guild.create_text_channel("cards")
    other = env.create_guild(LADDER_SERVER_NAME)
    there = other.create_text_channel(LADDER_CHANNEL_NAME)
    other.add_member(anna.user)
    other.add_member(cecilia.user)
    for where, partner, pace in ((cards, bjorn, "live"), (there, cecilia, "3d")):
        guild_id = guild.id if where is cards else other.id
        game = await cog.games.open_lobby(guild_id, where.id, Seat(anna.id, "Anna"),
                                          GameOptions(pace=pace))  # fmt: skip
        async with cog.games.session(game.id) as game:
            await cog.games.join(game, Seat(partner.id, partner.user.global_name or "?"))
            await cog.games.start(game, anna.id, announce=lambda g=game: cog.table.announce(g))
    await cog.games.open_lobby(0, anna.user.dm_channel.id, Seat(anna.id, "Anna"), GameOptions())
    await env.settle()


def _ladder(env: Any, patches: Patches, members: Sequence[Any], home: Any) -> Shown:
    """The ladder's two servers: ``home`` (the preview's channel) for everyone but Bjorn,
    who moves to a server of his own (:data:`LADDER_SERVER_NAME`)."""
    if home is None:
        raise ValueError("the ladder place needs the preview's own channel")
    here = members[0].guild
    locale = env.backend.get_guild(here.id).preferred_locale  # the same language there
    guild = env.create_guild(LADDER_SERVER_NAME, preferred_locale=locale)
    there = guild.create_text_channel(LADDER_CHANNEL_NAME)
    traveller = members[1]
    here.remove_member(traveller)  # the other player's server is not his
    viewers = [members[0], guild.add_member(traveller.user), *members[2:]]
    channels = {viewer.id: there if viewer.id == traveller.id else home for viewer in viewers}
    _channel_follows_viewer(patches, channels)
    return Shown(home, viewers, channels=channels)


def _channel_follows_viewer(patches: Patches, channels: Mapping[int, Any]) -> None:
    """The page shows each viewer their own channel (``channels``: a viewer's id to its
    ChannelHandle): "Viewing as" moves the page there, and a page opened as someone (a
    second tab) opens on theirs.

    SimCord's Preview keeps one channel (``Preview.channel``, which its actions and
    checks use) and gives each page that channel's id; here each action uses its page's
    channel, and the viewer switch changes the page's."""
    from simcord.preview import Preview

    by_id = {channel.id: channel for channel in channels.values()}
    prepare, open_page = Preview._prepare_action, Preview._open_page

    def _prepare_action(self: Any, page: Any, kind: str, body: Any) -> Any:
        self.channel = by_id.get(page.channel_id, self.channel)
        if kind != "viewer":
            return prepare(self, page, kind, body)
        channel = channels.get(self._viewer(body.get("viewer_id")).id, self.channel)
        plan = prepare(self, page, kind, body)

        async def switched(action: Any, cursor: int) -> Any:
            page.channel_id = channel.id  # before SimCord's switch looks for its messages
            self.channel = channel
            return await plan(action, cursor)

        return switched

    def _open_page(self: Any, viewer_id: Any = None, target_id: Any = None) -> Any:
        viewer = self.viewers[0] if viewer_id is None else self._viewer(viewer_id)
        self.channel = channels.get(viewer.id, self.channel)
        return open_page(self, viewer_id, target_id)

    patches.setattr(Preview, "_prepare_action", _prepare_action)
    patches.setattr(Preview, "_open_page", _open_page)


def tell_refused(attempts: Sequence[Any]) -> None:
    """Say which calls the bot tried that Discord refuses in the place (none should be:
    a refused call is a defect, issue 41 §5), when the preview ends."""
    for attempt in attempts:
        print(f"the bot tried a call Discord refuses here: {attempt.method} {attempt.path}",
              flush=True)  # fmt: skip


def _channel_handle(env: Any, place: Place) -> Any:
    """SimCord's handle of the place's channel (and of its server, if it has one)."""
    return _channel_handle_of(env, place.channel_id)


def _channel_handle_of(env: Any, channel_id: int) -> Any:
    """SimCord's handle of a channel (and of its server, if it has one)."""
    from simcord.builders import ChannelHandle, GuildHandle

    backend = env.backend
    channel = backend.get_channel(channel_id)
    guild = backend.get_guild(channel.guild_id) if channel.guild_id is not None else None
    return ChannelHandle(env, GuildHandle(env, guild) if guild else None, channel)


def _viewers(place: Place, users: Sequence[Any]) -> list[Any]:
    """A :class:`PlaceViewer` per person of the place, in the members' order."""
    from simcord.builders import GuildHandle

    guild_id = getattr(place, "guild_id", None)
    guild = GuildHandle(place.env, place.backend.get_guild(guild_id)) if guild_id else None
    by_id = {int(user.id): user for user in users}
    return [PlaceViewer(actor, by_id[actor.id], guild) for actor in place.members]


def _let_people_see(patches: Patches, installs: UserInstalls) -> None:
    """SimCord lets only a DM's owner (and the bot) see a channel outside a server; a group
    DM's people see it too (and the bot, which is no recipient, does not)."""
    from simcord.backend import access

    from tests.bot.user_installs import GroupDM

    original = access.channel_accessible

    def channel_accessible(
        backend: Any, channel_id: int, viewer_id: int, *, history: bool = False
    ) -> bool:
        place = installs.places.get(channel_id)
        if isinstance(place, GroupDM):
            return any(member.id == viewer_id for member in place.members)
        return original(backend, channel_id, viewer_id, history=history)

    # read at call time by SimCord's can_access_channel and can_access_message
    patches.setattr(access, "channel_accessible", channel_accessible)


def _name_the_group(patches: Patches, installs: UserInstalls) -> None:
    """The page's header and composer name a group DM by its name ("@ Kasino night",
    "Message @Kasino night"), as Discord does; SimCord's Preview takes every channel
    outside a server for the bot's DM and names the bot there."""
    import simcord.preview as sim_preview

    from tests.bot.user_installs import GroupDM

    build = sim_preview.build_snapshot

    def build_snapshot(preview: Any, page: Any) -> dict[str, Any]:
        snapshot = build(preview, page)
        place = installs.places.get(page.channel_id)
        channel = snapshot.get("channel") or {}
        if isinstance(place, GroupDM) and channel.get("recipient"):
            name = place.name or ", ".join(m.user.global_name or m.name for m in place.members)
            channel["recipient"] = dict(
                channel["recipient"], name=name, username=name, global_name=name,
                bot=False, application=False, avatar=None, avatar_available=False,
            )  # fmt: skip
        return snapshot

    patches.setattr(sim_preview, "build_snapshot", build_snapshot)


def _route_commands(patches: Patches) -> None:
    """The page's slash commands, typed by a place's person, are sent from the place
    (SimCord's Preview would send them as from a server member or the bot's DM)."""
    from simcord.preview import _action_plans

    original = _action_plans._slash_resolved  # SimCord 3.2's (pinned in pyproject.toml)

    async def slash_resolved(
        actor: Any, channel: Any, name: str, options: dict[str, Any], root: dict[str, Any]
    ) -> Any:
        if isinstance(actor, PlaceViewer):
            return await actor.actor.slash(name, **options)
        return await original(actor, channel, name, options, root)

    patches.setattr(_action_plans, "_slash_resolved", slash_resolved)


class PlaceViewer(MemberActor):
    """A person of a place, as the Preview's page acts for them.

    SimCord's Preview takes its viewers to be server members (or the DM's owner) and
    sends their actions through them; this one sends them through the tests'
    :class:`PlaceActor`, which makes each interaction the place's (its context, channel
    and authorizing owners). ``guild`` is the foreign server's handle, None in a group DM.
    """

    def __init__(self, actor: PlaceActor, user: Any, guild: Any = None) -> None:
        # not MemberActor's __init__: a group DM's person belongs to no server
        self._env = actor.place.env
        self.guild = guild
        self.user = user
        self.actor = actor

    def _check(self, channel: Any, *permissions: str) -> None:
        """The place's own rules apply (:class:`PlaceActor`), not a server member's."""

    async def click(self, message: Any, *, custom_id: str | None = None,
                    label: str | None = None) -> Any:  # fmt: skip
        """Press a button on a message of the place."""
        return await self.actor.click(message, custom_id=custom_id, label=label)

    async def select(self, message: Any, values: Sequence[str], *,
                     custom_id: str | None = None) -> Any:  # fmt: skip
        """Choose options of a menu on a message of the place."""
        return await self.actor.select(message, values, custom_id=custom_id)

    async def send(self, channel: Any, content: str = "", **_: Any) -> Any:
        """A plain message typed in the page's composer: the preview sends none here."""
        raise SetupError("the preview sends no plain messages in this place: use /kasino")

    def __repr__(self) -> str:
        return f"<PlaceViewer id={self.id} name={self.name!r}>"


def open_preview(env: Any, shown: Shown, **options: Any) -> Any:
    """The Preview of ``shown`` (an async context manager, as ``env.preview`` gives).

    A server channel goes through ``env.preview``. A group DM does not pass its checks
    (a channel outside a server must be the viewer's DM with the bot), nor do the ladder's
    two servers (every viewer must be a member of the channel's server), so their Preview
    is made directly, with what those checks would have given."""
    if shown.channel.guild is not None and not shown.channels:
        return env.preview(shown.channel, viewers=list(shown.viewers), **options)
    from types import MappingProxyType

    from simcord.preview import Preview

    settings = {
        "display": "responsive",
        "width": 960,
        "height": 720,
        "locale": "en-US",
        "timezone": "UTC",
        "presentation_time": None,
    }  # env.preview's defaults
    settings.update(options)
    settings["assets"] = MappingProxyType(dict(settings.get("assets") or {}))
    settings["port"] = settings.get("port") or 0
    return Preview(env, shown.channel, tuple(shown.viewers), **settings)


# ------------------------------------------------------------------ the DM place

DM_SCENE_GAMES = (("Bjorn", "kasino"), ("Cecilia", "kasino-2"))  # who hosts, where


async def dm_scene(env: Any, guild: Any, channel: Any, members: Sequence[Any], locale: str) -> None:
    """Anna's DM with the bot as she finds it at her digest hour (``--place dm``): two
    correspondence matches a move a day in the preview's server wait for her move (Bjorn
    hosts one in #kasino, Cecilia one in #kasino-2; Anna joins each, so she moves first),
    she chose the daily digest (Europe/Stockholm, quiet hours 22 to 7, at 18:00), and her
    digest is sent now, as at her hour. The page then shows the DM, where she may run
    ``/kasino settings`` and ``/kasino vacation`` herself."""
    from bot.correspondence import DIGEST, NoticePrefs
    from bot.i18n import code_of
    from bot.timers import now

    by_name = {member.user.global_name or member.name: member for member in members}
    anna = members[0]
    places = {"kasino": channel}
    for host_name, where in DM_SCENE_GAMES:
        place = places.get(where) or guild.create_text_channel(where)
        host = by_name[host_name]
        opened = await host.slash(place, "kasino new", pace="1d")
        lobby = opened.response.message
        await anna.click(lobby, custom_id=_lobby_button(lobby, "join"))
        await host.click(lobby, custom_id=_lobby_button(lobby, "start"))
    cog: Any = env.bot.get_cog("Kasino")
    prefs = NoticePrefs(
        how=DIGEST, tz="Europe/Stockholm", quiet_start=22, quiet_end=7, digest_hour=18,
        locale=code_of(locale),
    )  # fmt: skip
    await cog.prefs.save(anna.id, prefs)
    at = now()
    await cog.digests.send(anna.id, prefs, at, at)


def _lobby_button(message: Any, action: str) -> str:
    """The custom_id of a lobby's button by its action."""
    rows = [row if isinstance(row, dict) else row.to_dict() for row in message.components or []]
    found = [
        str(c["custom_id"])
        for row in rows
        for c in row.get("components", [])
        if str(c.get("custom_id", "")).startswith("k:lobby:")
        and str(c["custom_id"]).endswith(f":{action}")
    ]
    if len(found) != 1:
        raise RuntimeError(f"the lobby has no one {action} button: {found}")
    return found[0]
