"""Uploading the card faces as the application's own emojis, once.

Application emojis belong to the bot, not to a server: they need no permission in any
server and show wherever the bot writes. At start-up the bot lists its emojis, uploads
only the faces it lacks (a face's name carries a digest of its picture, so a redrawn face
is uploaded again and the old one deleted) and hands the card→emoji map to the
:class:`~bot.render.CardInk` every message is written with. Any failure leaves the cards
as text.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import discord

from bot.engine import Card
from bot.faces import NAME_PREFIX, deck, emoji_name, face_png

log = logging.getLogger(__name__)

Faces = dict[Card, discord.PartialEmoji]


def wanted_names() -> dict[str, Card]:
    """The emoji name each of the 52 faces should have."""
    return {emoji_name(card): card for card in deck()}


async def sync_card_emojis(client: discord.Client) -> Faces:
    """Make the application's emojis hold exactly the current faces; return card→emoji.

    Raises :class:`discord.HTTPException` (or another error) when Discord refuses; what was
    uploaded stays, so the next start uploads only the rest.
    """
    wanted = wanted_names()
    found: Faces = {}
    stale: list[discord.Emoji] = []
    for emoji in await client.fetch_application_emojis():
        if emoji.name in wanted:
            found[wanted[emoji.name]] = _partial(emoji)
        elif emoji.name.startswith(NAME_PREFIX):
            stale.append(emoji)
    # old drawings first: they would count against the application's emoji limit
    await _delete(stale)
    missing = [(name, card) for name, card in wanted.items() if card not in found]
    for name, card in missing:
        emoji = await client.create_application_emoji(name=name, image=face_png(card))
        found[card] = _partial(emoji)
    log.info(
        "card faces ready: %d uploaded, %d already there, %d old ones removed",
        len(missing), len(found) - len(missing), len(stale),
    )  # fmt: skip
    return found


async def _delete(emojis: Iterable[discord.Emoji]) -> None:
    for emoji in emojis:
        await emoji.delete()


def _partial(emoji: discord.Emoji) -> discord.PartialEmoji:
    return discord.PartialEmoji(name=emoji.name, id=emoji.id, animated=emoji.animated)
