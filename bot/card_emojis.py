"""Uploading the card faces as the application's own emojis, once.

Application emojis belong to the bot, not to a server: they need no permission in any
server and show wherever the bot writes. A face's name says its card
(``queen_of_hearts_1f2e``, four colours ``queen_of_hearts_4c_1f2e``; see
:func:`bot.faces.emoji_name`): what a notification, a screen reader and the emoji's tooltip
show.

Start-up has two steps. :func:`faces_on_application` lists the application's emojis (one
HTTP call, before the gateway connects) and reads the faces there by their names alone,
drawing nothing, so a process whose faces are uploaded shows them from its first answer.
Then :func:`sync_card_emojis`, in the background, draws the faces of both decks, uploads
the ones missing and hands each deck's card→emoji map on; only then are the faces no
longer wanted deleted: an older drawing (its name ends in another digest of its picture)
or an older name (``kc_QH_1f2e3d``, ``k4_…``, before the cards were named in words).
Deleting last keeps the cards of the messages posted meanwhile drawn. Any failure leaves
the cards as they were (text, or the faces found).

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
from collections.abc import Callable, Iterable

import discord

from bot.engine import Card
from bot.faces import STYLES, deck, emoji_name, face_of, face_png, is_face_name

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


def faces_in(emojis: Iterable[discord.Emoji]) -> dict[str, Faces]:
    """Each deck style's faces among ``emojis``, read from their names (no drawing): of a
    card shown by several (an older drawing, an older name) the newest upload. A deck may
    come out incomplete; :meth:`bot.render.CardInk.use` shows text then."""
    newest: dict[tuple[str, Card], discord.Emoji] = {}
    for emoji in emojis:
        shown = face_of(emoji.name)
        if shown is not None and (shown not in newest or emoji.id > newest[shown].id):
            newest[shown] = emoji
    faces: dict[str, Faces] = {style: {} for style in STYLES}
    for (style, card), emoji in newest.items():
        faces[style][card] = _partial(emoji)
    return faces


async def faces_on_application(client: discord.Client) -> dict[str, Faces]:
    """The faces the application holds now, of each deck style (one HTTP call)."""
    return faces_in(await client.fetch_application_emojis())


async def sync_card_emojis(
    client: discord.Client, ready: Callable[[dict[str, Faces]], None] | None = None
) -> dict[str, Faces]:
    """Make the application's emojis hold exactly the current faces of both decks; return
    each deck style's card→emoji map, given to ``ready`` before the faces no longer wanted
    are deleted (so the inks never write a deleted emoji).

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
    faces: dict[str, Faces] = {style: {} for style in STYLES}
    for name, emoji in found.items():
        style, card = wanted[name]
        faces[style][card] = emoji
    if ready is not None:
        ready(faces)
    # the old ones last: until now they were what the cards showed (an application holds
    # 2000 emojis, room for both sets of 104)
    await _delete(stale)
    log.info(
        "card faces ready: %d uploaded, %d uploaded meanwhile by another process, %d already"
        " there, %d old ones removed",
        uploaded, adopted, len(found) - uploaded - adopted, len(stale),
    )  # fmt: skip
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
