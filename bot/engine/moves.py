"""Moves and the error raised for an illegal one.

One :class:`Move` describes a whole turn: the hand card played and what it does.

- ``Move(card)`` trails; ``Move(card, taken)`` captures the table items ``taken`` (cards,
  and in the building games whole builds; in South African Casino also the top cards of
  other players' capture piles).
- ``Move.build(card, using, value)`` plays ``card`` into one build of capture value
  ``value`` made with the table items ``using``: creating a build, increasing a simple
  build and adding to a build are all this one form.
- ``table_builds`` (Swazi and Sotho; permissive Casino's "build from table cards, then
  trail"): the turn's build actions that use no hand card, each a :class:`TableBuild`
  ``(value, using)``; ``using`` may hold the top cards of other players' capture piles
  (in the building games a deck has one copy of each card, so a card names its place).

Items are kept in a canonical order, so moves doing the same thing are equal.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .builds import Item, item_from_data, item_key, item_to_data
from .cards import Card, card_order
from .reasons import Reason, reason_of

_ORDER = card_order()


class IllegalMove(ValueError):
    """A move the rules do not allow; the message is meant for the player.

    Its :attr:`reason` is the message with a stable id (the English template) and the
    params it was made from, so an interface can say it in the player's language.
    """

    @property
    def reason(self) -> Reason:
        """The message as a :class:`~bot.engine.reasons.Reason` (template and params)."""
        return reason_of(self.args[0] if self.args else "")


class TableBuild(NamedTuple):
    """A build action without a hand card: the items ``using`` become one build of ``value``."""

    value: int
    using: tuple[Item, ...]

    def __str__(self) -> str:
        return f"builds {self.value} with {' '.join(map(str, self.using))}"


def _canonical(items: Iterable[Item]) -> tuple[Item, ...]:
    items = tuple(items)
    if len(items) < 2:
        return items
    if all(isinstance(item, Card) for item in items):
        return tuple(sorted(items, key=_ORDER))
    return tuple(sorted(items, key=item_key))


class _Parts:
    """A move's fields, filled without checks; the engine's fast path then makes the object
    a :class:`Move` (assigning ``__class__`` is cheaper than setting frozen slots one by
    one, which matters on tables with tens of thousands of moves)."""

    __slots__ = ("card", "table_builds", "taken", "using", "value")


class Move(_Parts):
    """A turn: play ``card`` from hand and take ``taken`` (empty: a trail, or a build).

    ``kind`` is ``"trail"``, ``"capture"`` or ``"build"``; ``value`` is a build move's
    declared value (else ``None``) and ``using`` its table items (else ``()``).
    """

    __slots__ = ()
    card: Card
    taken: tuple[Item, ...]
    value: int | None
    using: tuple[Item, ...]
    table_builds: tuple[TableBuild, ...]

    def __init__(
        self,
        card: Card,
        taken: Iterable[Item] = (),
        *,
        value: int | None = None,
        using: Iterable[Item] = (),
        table_builds: Iterable[tuple[int, Iterable[Item]]] = (),
    ) -> None:
        taken, using = _canonical(taken), _canonical(using)
        extra = tuple(
            sorted((TableBuild(v, _canonical(u)) for v, u in table_builds), key=_build_key)
        )
        if value is not None:
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"a build's value is a whole number, not {value!r}")
            if taken:
                raise ValueError("a build move takes nothing")
        elif using:
            raise ValueError("a move using table items to build needs a value")
        _set_card(self, card)
        _set_taken(self, taken)
        _set_value(self, value)
        _set_using(self, using)
        _set_table_builds(self, extra)

    @classmethod
    def build(
        cls,
        card: Card,
        using: Iterable[Item],
        value: int,
        table_builds: Iterable[tuple[int, Iterable[Item]]] = (),
    ) -> Move:
        """Play ``card`` into one build of value ``value`` with the table items ``using``."""
        return cls(card, value=value, using=using, table_builds=table_builds)

    @classmethod
    def trail(cls, card: Card) -> Move:
        """The move trailing ``card`` (one shared object per card)."""
        move = _TRAILS.get(card)
        if move is None:
            move = _TRAILS[card] = cls(card)
        return move

    @classmethod
    def _ordered(cls, card: Card, taken: tuple[Item, ...]) -> Move:
        """A capture whose ``taken`` is already in canonical order (the engine's fast path)."""
        move = _new(_Parts)
        move.card = card
        move.taken = taken
        move.value = None
        move.using = ()
        move.table_builds = ()
        move.__class__ = cls
        return move

    @classmethod
    def _made(
        cls,
        card: Card,
        taken: tuple[Item, ...],
        value: int | None,
        using: tuple[Item, ...],
        table_builds: tuple[TableBuild, ...] = (),
    ) -> Move:
        """Any move whose parts are already canonical (the build generator's fast path)."""
        move = _new(_Parts)
        move.card = card
        move.taken = taken
        move.value = value
        move.using = using
        move.table_builds = table_builds
        move.__class__ = cls
        return move

    @classmethod
    def _each(cls, card: Card, value: int | None, parts: Iterable[tuple[Item, ...]]) -> list[Move]:
        """The moves of ``card`` capturing each of ``parts`` (``value`` ``None``) or building
        ``value`` with each, parts in canonical order: the fast path for long lists (one
        call, no frame per move)."""
        build = value is not None
        out: list[Move] = []
        append = out.append
        for items in parts:
            move = _new(_Parts)
            move.card = card
            move.taken = () if build else items
            move.value = value
            move.using = items if build else ()
            move.table_builds = ()
            move.__class__ = cls
            append(move)
        return out

    @property
    def kind(self) -> str:
        """``"trail"``, ``"capture"`` or ``"build"``."""
        if self.value is not None:
            return "build"
        return "capture" if self.taken else "trail"

    @property
    def is_trail(self) -> bool:
        """Whether the card goes to the table on its own (taking nothing, building nothing)."""
        return not self.taken and self.value is None

    def _fields(self) -> tuple:
        return (self.card, self.taken, self.value, self.using, self.table_builds)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (
            self.card is other.card
            and self.taken == other.taken
            and self.value == other.value
            and self.using == other.using
            and self.table_builds == other.table_builds
        )

    def __hash__(self) -> int:
        return hash(self._fields())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("moves are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("moves are immutable")

    def __reduce__(self) -> tuple:
        return (_rebuild, self._fields())

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: dict) -> Move:
        return self

    def __repr__(self) -> str:
        parts = [repr(self.card)]
        if self.taken:
            parts.append(f"taken={self.taken!r}")
        if self.value is not None:
            parts.append(f"value={self.value!r}, using={self.using!r}")
        if self.table_builds:
            parts.append(f"table_builds={self.table_builds!r}")
        return f"Move({', '.join(parts)})"

    def __str__(self) -> str:
        before = "".join(f"{b}; " for b in self.table_builds)
        if self.value is not None:
            using = " ".join(map(str, self.using))
            return f"{before}{self.card} builds {self.value} with {using}"
        if self.taken:
            return f"{before}{self.card} takes {' '.join(map(str, self.taken))}"
        return f"{before}{self.card} trails"

    def to_dict(self) -> dict[str, object]:
        """A plain form: ``{"card": "AS", "taken": ["4C", "9D"]}``; builds as dicts.

        Build moves add ``"value"`` and ``"using"``, Swazi-family turns ``"table_builds"``.
        """
        data: dict[str, object] = {
            "card": str(self.card),
            "taken": [item_to_data(item) for item in self.taken],
        }
        if self.value is not None:
            data["value"] = self.value
            data["using"] = [item_to_data(item) for item in self.using]
        if self.table_builds:
            data["table_builds"] = [
                {"value": b.value, "using": [item_to_data(i) for i in b.using]}
                for b in self.table_builds
            ]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Move:
        """The inverse of :meth:`to_dict`; ``ValueError`` for anything else."""
        if not isinstance(data, dict) or "card" not in data:
            raise ValueError("a saved move is a mapping with a card")
        taken = data.get("taken", [])
        using = data.get("using", [])
        extra = data.get("table_builds", [])
        if not isinstance(taken, list) or not isinstance(using, list):
            raise ValueError("a move's taken and using items are lists")
        if not isinstance(extra, list) or not all(
            isinstance(b, dict) and isinstance(b.get("using", []), list) for b in extra
        ):
            raise ValueError("a move's table builds are a list of builds")
        value = data.get("value")
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise ValueError("a build move's value is a whole number")
        values = [b.get("value") for b in extra]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise ValueError("a table build's value is a whole number")
        return cls(
            Card.parse(data["card"]),
            [item_from_data(i) for i in taken],
            value=value,
            using=[item_from_data(i) for i in using],
            table_builds=[
                (v, [item_from_data(i) for i in b.get("using", [])])
                for v, b in zip(values, extra, strict=True)
            ],
        )


def _build_key(build: TableBuild) -> tuple:
    return (build.value, tuple(item_key(i) for i in build.using))


def _rebuild(card, taken, value, using, table_builds) -> Move:
    return Move._made(card, taken, value, using, table_builds)


_new = object.__new__
_set_card = Move.card.__set__  # type: ignore[attr-defined]
_set_taken = Move.taken.__set__  # type: ignore[attr-defined]
_set_value = Move.value.__set__  # type: ignore[attr-defined]
_set_using = Move.using.__set__  # type: ignore[attr-defined]
_set_table_builds = Move.table_builds.__set__  # type: ignore[attr-defined]
_TRAILS: dict[Card, Move] = {}
