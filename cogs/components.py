"""Buttons and selects as ``DynamicItem``s: their custom_id carries the game id (and, for
moves, the state version), so they keep working after a restart and stale ones are
recognised. Each callback hands the raw custom_id and values to the Kasino cog, which
parses them in one strict place (:mod:`cogs.custom_ids`).
"""

from __future__ import annotations

import re
from typing import Any, Protocol, TypeVar

import discord

from bot.acks import unless_answered_elsewhere
from cogs.custom_ids import BUTTON_KINDS, SELECT_KINDS, custom_id, render_tag


class ComponentHandler(Protocol):
    """What handles the clicks: the Kasino cog (named by protocol, so this module does not
    import the cog that imports it)."""

    async def on_component(
        self, interaction: discord.Interaction, raw_id: str, values: object
    ) -> None: ...


# Loose on purpose: anything shaped like ours reaches the strict parser, which refuses it
# politely (a custom_id no item matches would get no answer at all).
ARGS = r"(?P<args>[^\s]{0,96})"


def _cog(interaction: discord.Interaction) -> ComponentHandler:
    cog = interaction.client.get_cog("Kasino")  # type: ignore[attr-defined]
    assert cog is not None
    return cog  # type: ignore[return-value]


class KasinoButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=re.compile(r"k:(?P<kind>" + "|".join(BUTTON_KINDS) + r"):" + ARGS),
):
    """Every Kasino button."""

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

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> KasinoButton:
        """Rebuild from a clicked custom_id (never fails: the cog parses it strictly)."""
        return _rebuild(cls, item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the cog (an answer another process gave first is noted, not
        raised: discord.py would log its traceback)."""
        with unless_answered_elsewhere(interaction):
            await _cog(interaction).on_component(interaction, self.item.custom_id, None)


class KasinoSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=re.compile(r"k:(?P<kind>" + "|".join(SELECT_KINDS) + r"):" + ARGS),
):
    """Every Kasino select menu. Its custom_id ends in a render tag new at every rendering
    (:func:`cogs.custom_ids.render_tag`), so a hand view edited to its next step never
    carries the previous step's select id: no client keeps a choice across the edit."""

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
            custom_id=custom_id(kind, *args, render_tag()),
            options=options,
            placeholder=placeholder,
            min_values=1,
            max_values=max_values,
            row=row,
        )
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> KasinoSelect:
        """Rebuild from a used custom_id."""
        return _rebuild(cls, item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the choice to the cog."""
        values = (interaction.data or {}).get("values")  # type: ignore[union-attr]
        with unless_answered_elsewhere(interaction):
            await _cog(interaction).on_component(interaction, self.item.custom_id, values)


def known_custom_id(value: str) -> bool:
    """Whether a ``k:`` custom_id matches one of the templates above."""
    return bool(
        KasinoButton.__discord_ui_compiled_template__.fullmatch(value)
        or KasinoSelect.__discord_ui_compiled_template__.fullmatch(value)
    )


def find_component(message: discord.Message | None, cid: str, kind: object = None) -> Any:
    """The component with custom_id ``cid`` (and of type ``kind``, if given) on
    ``message``, or ``None``."""

    def walk(components: Any) -> Any:
        for component in components:
            if getattr(component, "custom_id", None) == cid and (
                kind is None or getattr(getattr(component, "type", None), "value", None) == kind
            ):
                return component
            found = walk(getattr(component, "children", ()))
            if found is not None:
                return found
        return None

    return walk(message.components) if message is not None else None


def kasino_ids(message: discord.Message | None) -> list[str]:
    """The Kasino custom_ids on a message."""
    found: list[str] = []

    def walk(components: Any) -> None:
        for component in components:
            cid = getattr(component, "custom_id", None)
            if isinstance(cid, str) and cid.startswith("k:"):
                found.append(cid)
            walk(getattr(component, "children", ()))

    if message is not None:
        walk(message.components)
    return found


def dispatched(message: discord.Message | None, cid: str, component_type: object) -> bool:
    """Whether discord.py hands this click to one of our items: it does only when the
    message carries a component of that custom_id and type (others get no answer unless
    the cog's listener gives one)."""
    # as discord.py looks: a component of that type with that id (a forged message may also
    # carry one of another type with the same id)
    return known_custom_id(cid) and find_component(message, cid, component_type) is not None


def offered(message: discord.Message | None, cid: str, values: Any) -> bool:
    """Whether ``message`` carries the component ``cid`` and, for a select, offers every
    value chosen: a genuine click always does; a tampered one may not."""
    component = find_component(message, cid)
    if component is None:
        return False
    if values is None:
        return not hasattr(component, "options")
    options = {option.value for option in getattr(component, "options", ())}
    return isinstance(values, list) and all(isinstance(v, str) and v in options for v in values)


def reissue(view: discord.ui.View) -> discord.ui.View:
    """A copy of a built view to send now: every select with a new render tag (as if built
    again, see :class:`KasinoSelect`), stopped like every view of the bot.

    Menus built once and kept (:mod:`bot.offloop`) go out through this, on the loop: a view
    built in a worker thread has no loop to mark it stopped, and discord.py would keep
    it."""
    copied = discord.ui.View(timeout=None)
    for child in view.children:
        item = child.item if isinstance(child, discord.ui.DynamicItem) else child
        if isinstance(item, discord.ui.Select):
            prefix = (item.custom_id or "").rpartition(":")[0]
            select: discord.ui.Select[Any] = discord.ui.Select(
                custom_id=f"{prefix}:{render_tag()}",
                options=list(item.options),
                placeholder=item.placeholder,
                min_values=item.min_values,
                max_values=item.max_values,
                disabled=item.disabled,
                row=item.row,
            )
            copied.add_item(_rebuild(KasinoSelect, select))
        elif isinstance(item, discord.ui.Button):
            button: discord.ui.Button[Any] = discord.ui.Button(
                label=item.label,
                style=item.style,
                emoji=item.emoji,
                custom_id=item.custom_id,
                url=item.url,
                disabled=item.disabled,
                row=item.row,
            )
            copied.add_item(_rebuild(KasinoButton, button) if item.custom_id else button)
        else:  # pragma: no cover - the bot's views hold only selects and buttons
            raise TypeError(f"cannot reissue {item!r}")
    copied.stop()
    return copied


_Item = TypeVar("_Item", "KasinoButton", "KasinoSelect")


def _rebuild(cls: type[_Item], item: discord.ui.Item[Any]) -> _Item:
    """A component rebuilt around the clicked item (its custom_id is read by the cog)."""
    made = cls.__new__(cls)
    discord.ui.DynamicItem.__init__(made, item)
    return made
