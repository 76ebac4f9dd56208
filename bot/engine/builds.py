"""Builds: table items made of cards, with a declared value only a card of that value takes.

The table of a building game holds :class:`Card` and :class:`Build` items. A build keeps
its cards in *groups*, each adding up to its value: one group is a simple build, several a
multiple (augmented) build. Groups are kept in the order they were added (Sotho piles keep
that order); ``cards`` lists every card in card order.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import Card, card_order, parse_cards
from .checks import brief

_ORDER = card_order()
_new = object.__new__


class Build:
    """An immutable, hashable table item: ``cards``, ``value``, ``owner``, ``multiple``.

    ``Build([[C3, H5], [S8]], 8, owner=0)`` is ``[8: 3C 5H | 8S]``: taken whole, only by a
    card of value 8. ``owner`` is the seat that made it or last changed it (who must hold
    a card of its value). ``groups`` gives the cards group by group.
    """

    __slots__ = ("_hash", "_key", "cards", "groups", "owner", "value")
    cards: tuple[Card, ...]
    groups: tuple[tuple[Card, ...], ...]
    value: int
    owner: int

    def __init__(self, groups: Iterable[Iterable[Card]], value: int, owner: int) -> None:
        try:  # sorting reads each card's key: anything but cards fails here
            parts = tuple(tuple(sorted(group, key=_ORDER)) for group in groups)
        except (AttributeError, TypeError):
            raise TypeError(_not_cards(groups)) from None
        if not parts or not all(parts):
            raise ValueError("a build is one or more non-empty groups of cards")
        if not all(isinstance(card, Card) for group in parts for card in group):
            raise TypeError(_not_cards(parts))
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 16:
            raise ValueError(f"a build's value is 1..16, not {value!r}")
        if not isinstance(owner, int) or isinstance(owner, bool) or owner < 0:
            raise ValueError(f"a build's owner is a seat, not {owner!r}")
        cards = tuple(sorted((card for group in parts for card in group), key=_ORDER))
        if len(cards) < 2:
            raise ValueError("a build holds at least two cards")
        self._fill(parts, cards, value, owner)

    @classmethod
    def _made(cls, groups: Iterable[Iterable[Card]], value: int, owner: int) -> Build:
        """A build whose parts the engine has checked (a legal move's split): the same
        object as ``Build(groups, value, owner)``, without the checks."""
        self = _new(cls)
        parts = tuple([tuple(sorted(group, key=_ORDER)) for group in groups])
        cards = tuple(sorted([card for group in parts for card in group], key=_ORDER))
        self._fill(parts, cards, value, owner)
        return self

    def _fill(
        self,
        parts: tuple[tuple[Card, ...], ...],
        cards: tuple[Card, ...],
        value: int,
        owner: int,
    ) -> None:
        """Set the fields once (the class refuses ``setattr``), with the key and hash."""
        setter = object.__setattr__
        setter(self, "groups", parts)
        setter(self, "cards", cards)
        setter(self, "value", value)
        setter(self, "owner", owner)
        key = (value, tuple([card._key for card in cards]), owner, len(parts))
        setter(self, "_key", key)
        setter(self, "_hash", hash((key, parts)))

    @classmethod
    def parse(cls, text: str, owner: int = 0) -> Build:
        """Read ``"[8: 3C 5H | 8S]"`` (brackets optional): value, then groups split by ``|``.

        ``TypeError`` for anything but text, ``ValueError`` for text that is not a build.
        """
        if not isinstance(text, str):
            raise TypeError(f"Build.parse reads text like '[8: 3C 5H]', not {brief(text)}")
        body = text.strip()
        if body.startswith("[") and body.endswith("]"):
            body = body[1:-1]
        value_text, sep, groups_text = body.partition(":")
        if not sep or not (value_text.strip().isascii() and value_text.strip().isdigit()):
            raise ValueError(f"{text!r} is not a build (try e.g. [8: 3C 5H | 8S])")
        groups = [parse_cards(part) for part in groups_text.split("|")]
        return cls(groups, int(value_text), owner)

    @property
    def multiple(self) -> bool:
        """Whether the build is several groups of its value (its value can never change)."""
        return len(self.groups) > 1

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("builds are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("builds are immutable")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Build):
            return NotImplemented
        return self._key == other._key and self.groups == other.groups

    def __hash__(self) -> int:
        return self._hash

    def __lt__(self, other: Build) -> bool:
        if not isinstance(other, Build):
            return NotImplemented
        return (self._key, self.groups) < (other._key, other.groups)

    def __reduce__(self) -> tuple[type[Build], tuple[object, ...]]:
        return (Build, (self.groups, self.value, self.owner))

    def __copy__(self) -> Build:
        return self

    def __deepcopy__(self, memo: dict) -> Build:
        return self

    def with_owner(self, owner: int) -> Build:
        """The same build owned by ``owner``."""
        return Build(self.groups, self.value, owner)

    @property
    def symbol(self) -> str:
        """The build for people, with suit symbols: ``"[8: 3♣ 5♥ | 8♠]"``."""
        groups = " | ".join(" ".join(card.symbol for card in group) for group in self.groups)
        return f"[{self.value}: {groups}]"

    def __str__(self) -> str:
        groups = " | ".join(" ".join(map(str, group)) for group in self.groups)
        return f"[{self.value}: {groups}]"

    def __repr__(self) -> str:
        return f"Build.parse({str(self)!r}, owner={self.owner})"

    def to_dict(self) -> dict[str, object]:
        """A plain form: ``{"value": 8, "owner": 0, "groups": [["3C", "5H"], ["8S"]]}``."""
        return {
            "value": self.value,
            "owner": self.owner,
            "groups": [[str(card) for card in group] for group in self.groups],
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Build:
        """The inverse of :meth:`to_dict`; ``ValueError`` on a damaged form."""
        if not isinstance(data, dict):
            raise ValueError("a saved build is a mapping")
        groups = data.get("groups")
        if not isinstance(groups, list) or not all(isinstance(g, list) for g in groups):
            raise ValueError("a build's groups are lists of cards")
        value, owner = data.get("value"), data.get("owner")
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in (value, owner)):
            raise ValueError("a build's value and owner are whole numbers")
        return cls([[Card.parse(c) for c in group] for group in groups], value, owner)


Item = Card | Build


def _not_cards(groups: object) -> str:
    """What is wrong with ``groups`` that are not groups of cards, for a ``TypeError``."""
    if isinstance(groups, str | Card) or not isinstance(groups, Iterable):
        return f"a build is groups of cards, not {brief(groups)}"
    for group in groups:
        if isinstance(group, str | Card) or not isinstance(group, Iterable):
            return f"a build's group is a list of cards, not {brief(group)}"
        for card in group:
            if not isinstance(card, Card):
                return f"a build is made of cards, not {brief(card)}"
    return "a build is groups of cards"


def item_key(item: Item) -> tuple:
    """The canonical order of table items: cards in card order, then builds by value."""
    if isinstance(item, Card):
        return (0, item._key)
    return (1, item._key, item.groups)


def item_cards(item: Item) -> tuple[Card, ...]:
    """The cards an item is made of."""
    return (item,) if isinstance(item, Card) else item.cards


def item_to_data(item: Item) -> object:
    """A card as its name, a build as its plain form."""
    return str(item) if isinstance(item, Card) else item.to_dict()


def item_from_data(data: object) -> Item:
    """The inverse of :func:`item_to_data`."""
    if isinstance(data, dict):
        return Build.from_dict(data)
    return Card.parse(data)
