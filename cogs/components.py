"""Buttons and selects as ``DynamicItem``s: their custom_id carries the game id (and, for
moves, the state version), so they keep working after a restart and stale ones are
recognised. Each callback hands over to the Kasino cog.

custom_id formats (``k`` for Kasino)::

    k:lobby:<game>:<join|leave|start|cancel|add-<level>|remove-computer|hints>
    k:hand:<game>:<version>             Your hand / Refresh / Back
    k:hint:<game>:<version>             Hint (games with hints on)
    k:card:<game>:<version>             select: which card to play (value: hand position)
    k:take:<game>:<version>:<card>      select: c<n> (ranked capture), trail, pick
    k:pick:<game>:<version>:<card>      multi-select: table positions
    k:rematch:<game>
    k:scores:<variant|->:<target>:<page>[:<p|c>]   people / computers board
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, TypeVar

import discord

if TYPE_CHECKING:
    from cogs.kasino import Kasino

BUTTON_KINDS = ("lobby", "hand", "hint", "rematch", "scores")
SELECT_KINDS = ("card", "take", "pick")
ARGS = r"(?P<args>[A-Za-z0-9:_-]{0,80})"


def custom_id(kind: str, *parts: object) -> str:
    """Build a custom_id such as ``k:take:12:7:3``."""
    return ":".join(("k", kind, *map(str, parts)))


def parse_ints(args: str, count: int) -> tuple[int, ...] | None:
    """The first ``count`` numeric fields of a custom_id's arguments, or ``None``."""
    parts = args.split(":")
    if len(parts) < count or not all(p.isdigit() for p in parts[:count]):
        return None
    return tuple(int(p) for p in parts[:count])


def _cog(interaction: discord.Interaction) -> Kasino:
    cog = interaction.client.get_cog("Kasino")  # type: ignore[attr-defined]
    assert cog is not None
    return cog  # type: ignore[return-value]


class KasinoButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=re.compile(r"k:(?P<kind>" + "|".join(BUTTON_KINDS) + r"):" + ARGS),
):
    """Every Kasino button; ``kind`` and ``args`` come from the custom_id."""

    def __init__(
        self,
        kind: str,
        *args: object,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        cid = custom_id(kind, *args)
        button = discord.ui.Button(
            label=label, style=style, emoji=emoji, custom_id=cid, disabled=disabled, row=row
        )
        super().__init__(button)
        self.kind = kind
        self.args = ":".join(map(str, args))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> KasinoButton:
        """Rebuild from a clicked custom_id (never fails: bad arguments are checked later)."""
        return _rebuild(cls, item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the cog."""
        await _cog(interaction).on_button(interaction, self.kind, self.args)


class KasinoSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=re.compile(r"k:(?P<kind>" + "|".join(SELECT_KINDS) + r"):" + ARGS),
):
    """Every Kasino select menu."""

    def __init__(
        self,
        kind: str,
        *args: object,
        options: list[discord.SelectOption],
        placeholder: str,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id(kind, *args),
            options=options,
            placeholder=placeholder,
            min_values=1,
            max_values=max_values,
            row=row,
        )
        super().__init__(select)
        self.kind = kind
        self.args = ":".join(map(str, args))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> KasinoSelect:
        """Rebuild from a used custom_id."""
        return _rebuild(cls, item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the choice to the cog."""
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        await _cog(interaction).on_select(interaction, self.kind, self.args, values)


def known_custom_id(value: str) -> bool:
    """Whether a ``k:`` custom_id matches one of the templates above."""
    return bool(
        KasinoButton.__discord_ui_compiled_template__.fullmatch(value)
        or KasinoSelect.__discord_ui_compiled_template__.fullmatch(value)
    )


def message_custom_ids(message: discord.Message | None) -> set[str]:
    """Every custom_id on a message's components."""
    found: set[str] = set()
    if message is None:
        return found

    def walk(components: Any) -> None:
        for component in components:
            cid = getattr(component, "custom_id", None)
            if cid:
                found.add(cid)
            walk(getattr(component, "children", ()))

    walk(message.components)
    return found


_Item = TypeVar("_Item", "KasinoButton", "KasinoSelect")


def _rebuild(cls: type[_Item], item: discord.ui.Item[Any], match: re.Match[str]) -> _Item:
    """A component rebuilt from its custom_id: the kind and the raw arguments."""
    made = cls.__new__(cls)
    discord.ui.DynamicItem.__init__(made, item)
    made.kind, made.args = match["kind"], match["args"]
    return made
