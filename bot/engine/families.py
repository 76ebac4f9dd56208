"""Each building game's family of move rules, chosen by ``Rules.builds``."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from . import buildgroups
from .building import _split_plan
from .casino import Casino, SouthAfrican
from .swazi import Swazi

if TYPE_CHECKING:
    from .rules import Rules


@lru_cache(maxsize=64)
def family_of(rules: Rules) -> Casino | None:
    """The building family's move rules, one object per rule set (``None`` for the Nordic
    games)."""
    return family_for(rules) if rules.builds else None


def family_for(rules: Rules) -> Casino:
    """The move rules of a building game."""
    if rules.builds == "south-african":
        return SouthAfrican(rules)
    if rules.builds == "swazi":
        return Swazi(rules)
    return Casino(rules)


def clear_caches() -> None:
    """Forget remembered groups (benchmarks time cold searches)."""
    buildgroups.groups_by_sum.cache_clear()
    buildgroups._grown.cache_clear()
    buildgroups.unions_of.cache_clear()
    buildgroups._PLAIN_OPTIONS.clear()
    buildgroups._PLAIN_SUMS.clear()
    buildgroups._PLAIN_UNIONS.clear()
    buildgroups._PLAIN_BUILDS.clear()
    buildgroups._card_table.cache_clear()
    _split_plan.cache_clear()
