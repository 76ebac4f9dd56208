"""Discord refusing the bot's direct messages, which SimCord does not model.

SimCord delivers every DM the bot sends to a person (it refuses only a DM to another bot).
Discord does not: a person may close their DMs to the bot, and a bot may DM only people
it can reach. What Discord documents and does:

- ``developers/topics/opcodes-and-status-codes.mdx`` (JSON error codes): "50007 | Cannot
  send messages to this user".
- Create DM (``developers/resources/user.mdx``, ``POST /users/@me/channels``) opens the
  channel; the refusal comes when a message is sent in it (``POST
  /channels/{channel.id}/messages``), as 403 with code 50007. SimCord's own route says so
  ("Real Discord happily opens the DM channel ...; the 50007 only surfaces when a message
  is actually sent"), and bots' reports show it: ``code: 50007, httpStatus: 403, method:
  'post', path: '/channels/<dm>/messages'`` (ScootKit/CustomDCBot#4; discord.js's
  ``DMChannel.send`` failing with "DiscordAPIError[50007]: Cannot send messages to this
  user", EternalCodeTeam/DiscordOfficer#28). There is no way to ask beforehand:
  "Currently you need to dm a user and wait for a 403" (discord/discord-api-docs#2247).
- Who refuses: a person who turned off "Allow direct messages from server members" for
  the servers they share with the bot (or blocked it), and a person the bot shares no
  server with, unless they installed the app to their account (a user install is an
  authorization of the app by that person: its bot may then DM them).

:class:`DMRefusals` (the autouse fixture ``discord_dm_refusals``) wraps SimCord's Create
Message: a message to the DM channel of such a person is refused with 403, 50007 "Cannot
send messages to this user", and nothing is made (before the nonce check, which never
sees it). :meth:`DMRefusals.close_dms` and :meth:`open_dms` switch a person's setting;
:attr:`refused` records each refused send (the person's id).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from simcord.backend.errors import BackendError
from simcord.http import router as sim_router

from tests.bot.kasino_harness import MESSAGES_ROUTE

if TYPE_CHECKING:
    from tests.bot.user_installs import Patcher, UserInstalls

DM_TYPE = 1  # channel type DM
CANNOT_SEND = 50007


def cannot_send_to_user() -> BackendError:
    """Discord's answer to a DM the person does not accept."""
    return BackendError(403, CANNOT_SEND, "Cannot send messages to this user")


@dataclass
class DMRefusals:
    """The tests' Discord refusing DMs (the module's docstring: what and why).

    ``closed``: ids of people who closed their DMs to the bot; ``refused``: the person of
    each refused send; ``installs``: who installed the app (they may be DMed without a
    shared server)."""

    installs: UserInstalls | None = None
    closed: set[int] = field(default_factory=set)
    refused: list[int] = field(default_factory=list)

    def install(self, monkeypatch: Patcher) -> None:
        """Wrap SimCord's Create Message until the test ends (outside any other wrapper:
        a refused message is never made, nor its nonce remembered)."""
        routes = sim_router._ROUTES  # SimCord's route table (private; pinned version)
        posts = [
            (template, self.wrap(handler) if template == MESSAGES_ROUTE else handler)
            for template, handler in routes["POST"]
        ]
        monkeypatch.setitem(routes, "POST", posts)

    def close_dms(self, *people: Any) -> None:
        """These people turn off direct messages from the bot."""
        self.closed.update(int(person.id) for person in people)

    def open_dms(self, *people: Any) -> None:
        """These people allow the bot's direct messages again."""
        self.closed.difference_update(int(person.id) for person in people)

    def refuses(self, backend: Any, user_id: int) -> bool:
        """Whether Discord refuses the bot's DM to this person."""
        if user_id in self.closed:
            return True
        if self.installs is not None and user_id in self.installs.installed:
            return False
        bot_id = backend.bot_user.id
        return not any(
            bot_id in guild.members and user_id in guild.members
            for guild in backend.guilds.values()
        )

    def wrap(self, handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """Create Message as Discord answers it in a DM the person does not accept."""

        def send_message(ctx: Any) -> Any:
            channel = ctx.backend.channels.get(ctx.int_arg("channel_id"))
            if channel is not None and channel.type == DM_TYPE:
                people = [i for i in channel.recipient_ids if i != ctx.backend.bot_user.id]
                refused = [i for i in people if self.refuses(ctx.backend, i)]
                if refused:
                    self.refused.extend(refused)
                    raise cannot_send_to_user()
            return handler(ctx)

        return send_message


def dm_refusals(monkeypatch: Patcher, installs: UserInstalls | None = None) -> DMRefusals:
    """A :class:`DMRefusals` installed until the test ends."""
    refusals = DMRefusals(installs=installs)
    refusals.install(monkeypatch)
    return refusals
