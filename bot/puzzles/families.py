"""The puzzle families: one puzzle a day per server for each.

- ``nordic``: Swedish Kasino, Överspader, Finnish Kasino and Mulle (capture only);
- ``krypkasino``: Krypkasino (penalty points, forced capture);
- ``casino``: the building games (Casino, Royal Casino, Glimne's Mulle, Swazi, Sotho,
  South African Casino).

``/kasino puzzle casino`` gives today's building-games puzzle; the position's own
variant is named on the puzzle. A variant name given to the command picks its family.
"""

from __future__ import annotations

from bot.engine.rules import ALIASES, VARIANTS

FAMILIES = ("nordic", "krypkasino", "casino")
DEFAULT = "nordic"


def family_of(variant: str) -> str:
    """The family of a variant (``swedish`` → ``nordic``); ValueError for no variant."""
    key = ALIASES.get(variant, variant)
    rules = VARIANTS.get(key)
    if rules is None:
        raise ValueError(f"unknown variant {variant!r}")
    if rules.builds:
        return "casino"
    return "krypkasino" if rules.lowest_wins else "nordic"


def family_named(name: str | None) -> str | None:
    """The family a command's choice names: a family, or a variant of one (None: the
    default); None back for a name that is neither."""
    if not name:
        return DEFAULT
    name = name.strip().lower()
    if name in FAMILIES:
        return name
    try:
        return family_of(name)
    except ValueError:
        return None


def variants_of(family: str) -> tuple[str, ...]:
    """The variants of ``family`` (for the built-in set: each gets a puzzle)."""
    return tuple(key for key in VARIANTS if family_of(key) == family)
