"""Uploading the card faces as the application's own emojis, once.

Application emojis belong to the bot, not to a server: they need no permission in any
server and show wherever the bot writes. At start-up the bot lists its emojis, uploads
only the faces it lacks, of both decks (two- and four-colour; a face's name carries a
digest of its picture, so a redrawn face is uploaded again and the old one deleted), and
hands each deck's card→emoji map to its :class:`~bot.render.CardInk`. Any failure leaves
the cards as text.

Several processes (shards) may start at once and upload the same faces: Discord takes the
first upload of a name and refuses the others (``400``, code 50035,
``APPLICATION_EMOJI_NAME_ALREADY_TAKEN``). A refused upload is looked up again in the
application's emojis and the one found there is used, so one process's upload serves all.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Iterable

import discord

from bot.engine import Card
from bot.faces import STYLES, deck, emoji_name, face_png, is_face_name

log = logging.getLogger(__name__)

Faces = dict[Card, discord.PartialEmoji]
INVALID_FORM = 50035  # Discord's code for a refused field, among them a name already taken


@functools.cache
def wanted_names() -> dict[str, tuple[str, Card]]:
    """The emoji name each face of each deck should have: name → (deck style, card)
    (drawn once per process; do not change the mapping)."""
    return {emoji_name(card, style): (style, card) for style in STYLES for card in deck()}


async def _drawn_names() -> dict[str, tuple[str, Card]]:
    """:func:`wanted_names`, drawn in a worker thread the first time: 104 faces take
    seconds, which would stop every game of the process on the event loop."""
    if wanted_names.cache_info().currsize:
        return wanted_names()
    return await asyncio.to_thread(wanted_names)


async def sync_card_emojis(client: discord.Client) -> dict[str, Faces]:
    """Make the application's emojis hold exactly the current faces of both decks; return
    each deck style's card→emoji map.

    Raises :class:`discord.HTTPException` (or another error) when Discord refuses; what was
    uploaded stays, so the next start uploads only the rest.
    """
    wanted = await _drawn_names()
    found: dict[str, discord.PartialEmoji] = {}
    stale: list[discord.Emoji] = []
    for emoji in await client.fetch_application_emojis():
        if emoji.name in wanted:
            found[emoji.name] = _partial(emoji)
        elif is_face_name(emoji.name):
            stale.append(emoji)
    # old drawings first: they would count against the application's emoji limit
    await _delete(stale)
    uploaded = adopted = 0
    for name, (style, card) in wanted.items():
        if name in found:
            continue
        try:
            emoji = await client.create_application_emoji(name=name, image=face_png(card, style))
        except discord.HTTPException as error:
            if error.code != INVALID_FORM:
                raise
            # another process has just uploaded it (or more): take what is there now
            before = len(found)
            await _adopt(client, wanted, found)
            if name not in found:
                raise
            adopted += len(found) - before
            continue
        found[name] = _partial(emoji)
        uploaded += 1
    log.info(
        "card faces ready: %d uploaded, %d uploaded meanwhile by another process, %d already"
        " there, %d old ones removed",
        uploaded, adopted, len(found) - uploaded - adopted, len(stale),
    )  # fmt: skip
    faces: dict[str, Faces] = {style: {} for style in STYLES}
    for name, emoji in found.items():
        style, card = wanted[name]
        faces[style][card] = emoji
    return faces


async def _adopt(
    client: discord.Client,
    wanted: dict[str, tuple[str, Card]],
    found: dict[str, discord.PartialEmoji],
) -> None:
    """Add to ``found`` the wanted faces the application holds now."""
    for emoji in await client.fetch_application_emojis():
        if emoji.name in wanted and emoji.name not in found:
            found[emoji.name] = _partial(emoji)


async def _delete(emojis: Iterable[discord.Emoji]) -> None:
    for emoji in emojis:
        # another process starting now may have deleted it already
        with contextlib.suppress(discord.NotFound):
            await emoji.delete()


def _partial(emoji: discord.Emoji) -> discord.PartialEmoji:
    return discord.PartialEmoji(name=emoji.name, id=emoji.id, animated=emoji.animated)
