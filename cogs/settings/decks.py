"""Which card deck each message is drawn with: the usual two colours, or four (♠ black,
♥ red, ♦ blue, ♣ green).

Like the languages (:mod:`cogs.settings.languages`): private views (a hand and its menus, hints,
refusals that show cards) follow the reader, the deck the player chose with
``/kasino deck``, else the server's; public messages (the table, the lobby, summaries)
follow the server's deck, chosen by an admin (Manage Server). The choices are kept in the
database and read once, so a click needs no query. A deck whose faces are not uploaded
(text mode, or the upload failed) shows the two-colour faces, or text.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.faces import DEFAULT_STYLE, STYLES
from bot.render import CardInk
from bot.storage import Storage
from bot.timers import now

GUILD, USER = "guild", "user"


class Inks:
    """The bot's ink for each deck style, and the servers' and players' chosen decks
    (loaded once, kept in step with the database)."""

    def __init__(self, inks: Mapping[str, CardInk], storage: Storage) -> None:
        self._inks = dict(inks)
        self._storage = storage
        self._chosen: dict[str, dict[int, str]] = {GUILD: {}, USER: {}}

    async def load(self) -> None:
        """Read every server's and player's chosen deck."""
        self._chosen = await self._storage.deck_styles()

    async def reload(self) -> None:
        """Read the choices again (someone was forgotten, maybe by another process: their
        deck goes from memory too). The players' choices go first, so a failed read
        leaves nobody's in memory."""
        self._chosen = {GUILD: self._chosen[GUILD], USER: {}}
        await self.load()

    def chosen(self, kind: str, subject_id: int) -> str | None:
        """The deck a server (``kind`` "guild") or a player ("user") chose, if any."""
        return self._chosen[kind].get(subject_id)

    async def choose(self, kind: str, subject_id: int, style: str | None) -> None:
        """Save a server's or a player's choice (``None``: the default again)."""
        if style is not None and style not in STYLES:
            raise ValueError(f"unknown deck style {style!r}")
        await self._storage.set_deck_style(kind, subject_id, style, now())
        if style is None:
            self._chosen[kind].pop(subject_id, None)
        else:
            self._chosen[kind][subject_id] = style

    def server_style(self, guild_id: int) -> str:
        """The deck of a server's public messages."""
        return self._chosen[GUILD].get(guild_id, DEFAULT_STYLE)

    def player_style(self, user_id: int, guild_id: int) -> str:
        """The deck of a player's private views in a server: theirs, else the server's."""
        return self._chosen[USER].get(user_id) or self.server_style(guild_id)

    def public(self, guild_id: int) -> CardInk:
        """The ink of a server's public messages (the table, the lobby, summaries)."""
        return self.ink(self.server_style(guild_id))

    def private(self, user_id: int, guild_id: int) -> CardInk:
        """The ink of a player's private views in a server (hand, menus, hints)."""
        return self.ink(self.player_style(user_id, guild_id))

    def available(self, style: str) -> bool:
        """Whether the deck's faces are uploaded (else cards show as before)."""
        ink = self._inks.get(style)
        return ink is not None and bool(ink.faces)

    def ink(self, style: str) -> CardInk:
        """The ink of a deck; the two-colour one while that deck's faces are missing."""
        return self._inks[style] if self.available(style) else self._inks[DEFAULT_STYLE]
