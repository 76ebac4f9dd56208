"""Rule sets: one frozen :class:`Rules` per variant, with options as small differences."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cached_property

from .cards import LILLAN, STORAN, Card, full_deck
from .checks import brief

TIEBREAKS = ("spades", "extra-round")
SPADES_MODES = ("most", "over-six", "most-split")
DEALS = ("pairs", "singles")


@dataclass(frozen=True)
class Rules:
    """Everything that makes one variant differ from another.

    ``rules_for`` builds these; the fields below the options describe the variant itself.
    """

    name: str = "swedish"
    target: int = 16
    teams: bool = False
    tiebreak: str = "spades"
    live: bool = False
    # The variant's fixed shape.
    decks: int = 1
    deal: str = "pairs"
    hand_size: int = 4
    table_size: int = 4
    finnish_values: bool = False
    spades: str = "most"
    spades_points: int = 2
    cards_points: int = 1
    sistan_points: int = 1
    mulle_points: int = 0
    sweep_limits: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.target, int) or isinstance(self.target, bool):
            raise ValueError(
                f"the target is a whole number from 5 to 100, not {brief(self.target)}"
            )
        if not 5 <= self.target <= 100:
            raise ValueError(
                f"the target is a whole number from 5 to 100, not {brief(self.target)}"
            )
        if self.tiebreak not in TIEBREAKS:
            choices = ", ".join(TIEBREAKS)
            raise ValueError(f"tiebreak is one of {choices}, not {brief(self.tiebreak)}")
        if not isinstance(self.teams, bool) or not isinstance(self.live, bool):
            raise ValueError("teams and live are true or false")
        if self.spades not in SPADES_MODES or self.deal not in DEALS:
            raise ValueError(f"unknown spades rule {brief(self.spades)} or deal {brief(self.deal)}")
        self._check_shape()

    def _check_shape(self) -> None:
        """Refuse a variant shape no deal can follow (``decks=7``, ``hand_size=0``)."""
        if not isinstance(self.name, str):
            raise ValueError("a variant's name is text")
        if self.decks not in (1, 2) or isinstance(self.decks, bool):
            raise ValueError(f"a game has 1 or 2 decks, not {brief(self.decks)}")
        packet = 2 if self.deal == "pairs" else 1
        for field in ("hand_size", "table_size"):
            size = getattr(self, field)
            if not isinstance(size, int) or isinstance(size, bool) or not 0 <= size <= 8:
                raise ValueError(f"{field} is a whole number from 0 to 8, not {brief(size)}")
            if size % packet:
                raise ValueError(f"{field} must be even when cards are dealt in pairs")
        if not self.hand_size:
            raise ValueError("a hand holds at least one card")
        for field in ("spades_points", "cards_points", "sistan_points", "mulle_points"):
            points = getattr(self, field)
            if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= 10:
                raise ValueError(f"{field} is a whole number from 0 to 10, not {brief(points)}")
        if not isinstance(self.finnish_values, bool) or not isinstance(self.sweep_limits, bool):
            raise ValueError("finnish_values and sweep_limits are true or false")

    @cached_property
    def table_values(self) -> tuple[tuple[int, ...], ...]:
        """Index ``rank`` gives the values a table card of that rank may take."""
        return ((), *(capture_values(self, Card(rank, "H"), False) for rank in range(1, 14)))

    @cached_property
    def table_shifts(self) -> tuple[tuple[int, int], ...]:
        """Per rank, a table card's lowest and highest value (the same but for aces)."""
        return tuple((min(v, default=0), max(v, default=0)) for v in self.table_values)

    @cached_property
    def hand_values(self) -> dict[Card, tuple[int, ...]]:
        """The values each card may take when played from hand."""
        return {card: capture_values(self, card, True) for card in full_deck()}

    @property
    def cards_in_deck(self) -> int:
        """52 or 104."""
        return 52 * self.decks

    def check_players(self, players: int) -> None:
        """Raise ``ValueError`` unless this many players can play these rules."""
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
            raise ValueError(f"{self.name} is for 2, 3 or 4 players, not {brief(players)}")
        if self.teams and players != 4:
            raise ValueError("partnerships need exactly 4 players")

    def sides(self, players: int) -> int:
        """How many sides score: 2 in a partnership game, else one per player."""
        return 2 if self.teams else players

    def side_of(self, seat: int) -> int:
        """The side a seat plays for: its team (seats 0+2 and 1+3) or itself."""
        return seat % 2 if self.teams else seat


VARIANTS: dict[str, Rules] = {
    "swedish": Rules(),
    "overspader": Rules(name="overspader", target=21, spades="over-six", spades_points=1),
    "finnish": Rules(
        name="finnish",
        tiebreak="extra-round",
        live=True,
        finnish_values=True,
        spades="most-split",
        sistan_points=0,
        sweep_limits=True,
    ),
    "mulle": Rules(
        name="mulle",
        target=50,
        decks=2,
        deal="singles",
        hand_size=5,
        table_size=5,
        spades_points=1,
        cards_points=0,
        mulle_points=5,
    ),
}
ALIASES = {"överspader": "overspader", "sweden": "swedish", "finland": "finnish"}
OPTIONS = ("target", "teams", "tiebreak", "live")


def rules_for(name: str = "swedish", **overrides: object) -> Rules:
    """The rules of variant ``name`` with options changed: ``rules_for("swedish", target=21)``.

    Options are ``target`` (5..100), ``teams`` (4 players only), ``tiebreak``
    (``"spades"`` or ``"extra-round"``) and ``live`` (count as you go).
    """
    key = ALIASES.get(str(name).lower(), str(name).lower())
    if key not in VARIANTS:
        raise ValueError(f"unknown variant {name!r}; choose one of {', '.join(VARIANTS)}")
    unknown = sorted(set(overrides) - set(OPTIONS))
    if unknown:
        known = ", ".join(OPTIONS)
        raise ValueError(f"unknown rule option(s) {', '.join(unknown)}; the options are {known}")
    return replace(VARIANTS[key], **overrides)


def rules_from_dict(data: dict[str, object]) -> Rules:
    """The inverse of ``dataclasses.asdict`` on a Rules, ignoring unknown keys.

    Only a known variant with its options changed is accepted: every other field must be
    the variant's own (raises ``ValueError`` naming the field otherwise).
    """
    if not isinstance(data, dict):
        raise ValueError("saved rules are a mapping of rule fields")
    name = data.get("name", "swedish")
    if not isinstance(name, str) or name not in VARIANTS:
        raise ValueError(f"unknown variant {brief(name)}; the variants are {', '.join(VARIANTS)}")
    rules = replace(VARIANTS[name], **{k: data[k] for k in OPTIONS if k in data})
    for field in fields(Rules):
        if field.name in data:
            value, expected = data[field.name], getattr(rules, field.name)
            if type(value) is not type(expected) or value != expected:
                raise ValueError(f"{name} has {field.name} {expected!r}, not {brief(value)}")
    return rules


_FINNISH_HAND = {LILLAN: 15, STORAN: 16}


def capture_values(rules: Rules, card: Card, from_hand: bool) -> tuple[int, ...]:
    """The values ``card`` may count as: Swedish ace ``(1, 14)``, Finnish ace in hand ``(14,)``."""
    if rules.finnish_values:
        if not from_hand:
            return (card.rank,)
        return (14,) if card.rank == 1 else (_FINNISH_HAND.get(card, card.rank),)
    return (1, 14) if card.rank == 1 else (card.rank,)
