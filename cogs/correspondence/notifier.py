"""Direct messages to a person, for their turn notices and daily digest.

Discord refuses a DM to someone who closed their DMs to the bot, or shares no server with
it (and did not install the app): Create Message in the DM answers 403, code 50007
"Cannot send messages to this user" (50278 is the same refusal for a person with no
server in common). There is no way to ask beforehand, so :meth:`Notifier.dm` simply sends:
a refusal returns ``False`` and notes it once (:meth:`Prefs.dm_refused`), and the person's
notices come as mentions until they choose a DM again in ``/kasino settings``.

A message sent with a ``nonce`` is sent with ``enforce_nonce`` (discord.py adds it): sent
again after the process was killed between Discord making it and the bot noting it,
Discord answers with the first message and makes no second one (:mod:`bot.nonces`).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.correspondence.prefs import Prefs

log = logging.getLogger(__name__)

CANNOT_SEND = 50007  # "Cannot send messages to this user"
NO_MUTUAL_GUILDS = 50278  # "Cannot send messages to this user due to having no mutual guilds"


def refused(error: discord.HTTPException) -> bool:
    """Whether Discord's answer refuses the DM itself (not a passing failure)."""
    return error.status == 403 or error.code in (CANNOT_SEND, NO_MUTUAL_GUILDS)


class Notifier:
    """Sends DMs; a refused one returns ``False`` and is noted in the person's settings."""

    def __init__(self, bot: discord.Client, prefs: Prefs) -> None:
        self.bot = bot
        self.prefs = prefs

    async def dm(
        self,
        user_id: int,
        *,
        content: str | None = None,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
        nonce: str | None = None,
    ) -> bool:
        """Send a DM to ``user_id``: ``True`` if Discord took it, ``False`` if it refused
        (then noted) or the person is gone. Other failures (Discord down) raise."""
        sent: dict[str, Any] = {"content": content}
        if embed is not None:
            sent["embed"] = embed
        if view is not None:
            sent["view"] = view
        if nonce is not None:
            sent["nonce"] = nonce
        try:
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            await channel.send(**sent)
        except discord.NotFound:  # no such user any more
            return False
        except discord.HTTPException as error:
            if not refused(error):
                raise
            log.info("a direct message was refused (%s %s)", error.status, error.code)
            await self.prefs.dm_refused(user_id)
            return False
        return True
