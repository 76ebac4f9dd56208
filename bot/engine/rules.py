"""Rule sets: one frozen :class:`Rules` per variant, with options as small differences.

A variant is data: the fields below say how it deals, counts and scores. The building
games (RULES.md section 7) also name a *family* in ``builds`` (``"casino"``, ``"swazi"``
or ``"south-african"``): :mod:`bot.engine.families` gives each family's move rules as
a small class overriding a few hooks of the Casino core (:mod:`bot.engine.casino`), as
python-chess's ``variant.py`` does; :mod:`bot.engine.building` tells the design. The
Nordic variants have ``builds=""`` and never reach that code.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cached_property

from .cards import LILLAN, STORAN, Card, full_deck
from .checks import brief

TIEBREAKS = ("spades", "extra-round")
SPADES_MODES = ("most", "over-six", "most-split", "each-other", "over-five", "each-but-lillan")
DEALS = ("pairs", "singles")
FAMILIES = ("", "casino", "swazi", "south-african")
PILE_ORDERS = ("card-first", "card-on-top", "built", "lowest-on-top")
LAYOUTS = ("dealt", "cut")
NEXT_DEALERS = ("left", "right", "loser")


def _is_whole(value: object) -> bool:
    """Whether ``value`` is a whole number (an int, not a bool or a float)."""
    return isinstance(value, int) and not isinstance(value, bool)


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
    # Options of the building games.
    sweeps: bool = True
    permissive: bool = False
    last_capture_point: bool = False
    redeal: bool = False
    crazy: bool = False
    table_builds: int = 1  # Swazi, Sotho: builds a turn may make without the hand card
    demands: bool = False  # Swazi, Sotho: the opponents' demands always made
    # Options of Krypkasino.
    team_size: int = 2  # with 6 players and teams: 3 is two teams of three, alternate seats
    take_all: bool = False  # a capture must take every group it can (maximal captures only)
    majorities: bool = False  # most cards and most spades score (as penalties)
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
    # The building family (all defaults: the Nordic games).
    builds: str = ""
    face_numbers: bool = True  # False: J Q K have no number and only pair
    ace_high: bool = True  # an ace may count 14
    pictures: bool = True  # False: a 40-card deck without J Q K
    ace_points: int = 1
    storan_points: int = 2
    lillan_points: int = 1
    split_ties: bool = False  # a tie for most cards or spades gives each tied side 1
    mulle_twin: bool = False  # Glimne's mulle: a capture holding the played card's twin
    direction: int = 1  # 1 clockwise, -1 anticlockwise
    layout: str = "dealt"  # "cut": four cards cut from the middle of the deck
    sizes: tuple[tuple[int, int], ...] = ()  # per 2, 3, 4 players: (hand, table)
    pile_order: str = "card-first"
    shared_piles: bool = False  # partners keep one capture pile
    next_dealer: str = "left"
    player_counts: tuple[int, ...] = (2, 3, 4)
    four_in_teams: bool = False  # four players always play as two partnerships
    net_at_eleven: bool = False  # target 11, 2 players: a round's winner scores the difference
    # Krypkasino's shape: the negative game.
    team_counts: tuple[int, ...] = (4,)  # player counts that may play in teams
    hand_ace_only: bool = False  # an ace is 14 from the hand and 1 on the table, no choice
    forced_capture: bool = False  # a card that can capture must; only others may trail
    tabbe_points: int = 1  # what each sweep (tabbe) scores
    reward_points: int = 0  # taken off the side of the seat before each sweep's capturer
    most_spades_points: int = 0  # a majority of spades besides per-spade points
    lowest_wins: bool = False  # points are penalties: the lowest total wins

    def __post_init__(self) -> None:
        if not _is_whole(self.target) or not 5 <= self.target <= 100:
            raise ValueError(
                f"the target is a whole number from 5 to 100, not {brief(self.target)}"
            )
        if self.tiebreak not in TIEBREAKS:
            choices = ", ".join(TIEBREAKS)
            raise ValueError(f"tiebreak is one of {choices}, not {brief(self.tiebreak)}")
        flags = (self.teams, self.live, self.sweeps, self.permissive, self.last_capture_point)
        more = (self.redeal, self.crazy, self.demands, self.take_all, self.majorities)
        if not all(isinstance(flag, bool) for flag in (*flags, *more)):
            raise ValueError(
                "teams, live, sweeps, permissive, last_capture_point, redeal, crazy, "
                "demands, take_all and majorities are true or false"
            )
        # Whole numbers only: 2.0 equals 2, but the sides counted with it would be a float
        # no deal can use; True equals 1.
        if not _is_whole(self.team_size) or self.team_size not in (2, 3):
            raise ValueError(f"team_size is 2 or 3, not {brief(self.team_size)}")
        if self.team_size == 3 and not self.teams:
            raise ValueError("team_size 3 is for teams (6 players in two teams of three)")
        if self.spades not in SPADES_MODES or self.deal not in DEALS:
            raise ValueError(f"unknown spades rule {brief(self.spades)} or deal {brief(self.deal)}")
        if (
            self.builds not in FAMILIES
            or self.pile_order not in PILE_ORDERS
            or self.layout not in LAYOUTS
            or self.next_dealer not in NEXT_DEALERS
        ):
            raise ValueError("unknown building family, pile order, layout or dealer rule")
        if not _is_whole(self.table_builds) or not 0 <= self.table_builds <= 3:
            raise ValueError(f"table_builds is 0, 1, 2 or 3, not {brief(self.table_builds)}")
        if isinstance(self.sizes, list):  # from a saved game's JSON
            object.__setattr__(self, "sizes", tuple(tuple(s) for s in self.sizes))
        for name in ("player_counts", "team_counts"):
            if isinstance(getattr(self, name), list):
                object.__setattr__(self, name, tuple(getattr(self, name)))
        self._check_shape()
        self._check_penalties()

    def _check_penalties(self) -> None:
        """Where the lowest total wins (Krypkasino, docs/rules.md 10.8), refuse the options
        the game does not offer: counting as you go would end a match in mid-round, and the
        spades tiebreak hands a shared lowest total to the *highest* one (it picks among
        the highest totals)."""
        if not self.lowest_wins:
            return
        if self.live:
            raise ValueError(
                f"{self.name} has no counting as you go (live): the match is decided only"
                " after a whole round"
            )
        if self.tiebreak != "extra-round":
            raise ValueError(
                f"{self.name} breaks a shared lowest total with another round: tiebreak is"
                f" always 'extra-round', not {brief(self.tiebreak)}"
            )

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
        for field in (
            "spades_points",
            "cards_points",
            "sistan_points",
            "mulle_points",
            "ace_points",
            "storan_points",
            "lillan_points",
            "tabbe_points",
            "reward_points",
            "most_spades_points",
        ):
            points = getattr(self, field)
            if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= 10:
                raise ValueError(f"{field} is a whole number from 0 to 10, not {brief(points)}")
        shape = (self.finnish_values, self.sweep_limits, self.hand_ace_only)
        if not all(isinstance(flag, bool) for flag in (*shape, self.forced_capture)):
            raise ValueError("finnish_values, sweep_limits and the like are true or false")
        if not isinstance(self.lowest_wins, bool):
            raise ValueError("lowest_wins is true or false")
        if self.direction not in (1, -1) or not self.player_counts:
            raise ValueError("play goes clockwise (1) or anticlockwise (-1) among 2-6 players")
        if not set(self.player_counts) <= set(range(2, 7)) or not set(self.team_counts) <= {4, 6}:
            raise ValueError("a game is for 2 to 6 players, in teams with 4 or 6")
        if self.sizes and len(self.sizes) < max(self.player_counts) - 1:
            raise ValueError("sizes gives (hand, table) for every player count from 2")

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
        """52 or 104; 40 without pictures."""
        return (52 if self.pictures else 40) * self.decks

    def deck(self) -> list[Card]:
        """The ordered deck this variant plays with."""
        return full_deck(self.decks, pictures=self.pictures)

    def check_players(self, players: int) -> None:
        """Raise ``ValueError`` unless this many players can play these rules."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError(f"{self.name} is for 2, 3 or 4 players, not {brief(players)}")
        if players not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts[:-1])) + f" or {self.player_counts[-1]}"
            raise ValueError(f"{self.name} is for {counts} players, not {brief(players)}")
        if self.teams and players not in self.team_counts:
            if self.team_counts == (4,):
                raise ValueError("partnerships need exactly 4 players")
            raise ValueError(f"teams in {self.name} need 4 or 6 players, not {players}")
        if self.team_size == 3 and players != 6:
            raise ValueError(f"teams of three need 6 players, not {players}")
        if self.four_in_teams and players == 4 and not self.teams:
            raise ValueError(f"{self.name} with 4 players is played in partnerships (teams)")
        if self.crazy and players != 2:
            raise ValueError("crazy casino is for 2 players")

    def sides(self, players: int) -> int:
        """How many sides score: one per team (2 with 4 players, 3 or 2 with 6), else one
        per player."""
        return players // self.team_size if self.teams else players

    def side_of(self, seat: int, players: int | None = None) -> int:
        """The side a seat plays for: its team or itself.

        Teams sit alternately, so a seat's team is its seat modulo the number of teams:
        seats 0+2 and 1+3 with four players; 0+3, 1+4, 2+5 with six in teams of two;
        0+2+4 and 1+3+5 in teams of three. ``players`` may be left out only where teams
        are always two (every variant but Krypkasino, whose teams of two at six are three).
        """
        if not self.teams:
            return seat
        if players is None:
            if 6 in self.team_counts and self.team_size == 2:
                raise ValueError(f"the side of a seat in {self.name} teams depends on the players")
            return seat % 2
        return seat % self.sides(players)

    def sizes_for(self, players: int) -> tuple[int, int]:
        """``(hand, table)``: the cards each player gets per deal and the table's first cards."""
        if self.crazy:
            return (8, 4)
        if self.sizes:
            return self.sizes[players - 2]
        return (self.hand_size, self.table_size)


_CASINO = Rules(
    name="casino",
    target=21,
    tiebreak="extra-round",
    sweeps=False,
    builds="casino",
    face_numbers=False,
    ace_high=False,
    spades_points=1,
    cards_points=3,
    sistan_points=0,
    four_in_teams=True,
    net_at_eleven=True,
)
_SWAZI = Rules(
    name="swazi",
    target=21,
    tiebreak="extra-round",
    sweeps=False,
    builds="swazi",
    deal="singles",
    sizes=((12, 4), (16, 4), (12, 4)),
    layout="cut",
    direction=-1,
    next_dealer="right",
    spades_points=2,
    cards_points=2,
    sistan_points=0,
    split_ties=True,
    pile_order="card-on-top",
    shared_piles=True,
    four_in_teams=True,
)
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
    "casino": _CASINO,
    "royal": replace(_CASINO, name="royal", face_numbers=True, ace_high=True),
    "mulle-glimne": Rules(
        name="mulle-glimne",
        target=50,
        tiebreak="extra-round",
        builds="casino",
        decks=2,
        table_size=8,
        finnish_values=True,
        spades="each-other",
        spades_points=1,
        cards_points=0,
        sistan_points=0,
        ace_points=2,
        storan_points=3,
        lillan_points=2,
        mulle_twin=True,
        player_counts=(2, 4),
        four_in_teams=True,
    ),
    "swazi": _SWAZI,
    "sotho": replace(
        _SWAZI,
        name="sotho",
        face_numbers=False,
        ace_high=False,
        pile_order="built",
        shared_piles=False,
    ),
    "krypkasino": Rules(
        name="krypkasino",
        target=50,
        tiebreak="extra-round",
        take_all=True,
        decks=2,
        sizes=((4, 8), (4, 8), (4, 8), (4, 4), (4, 8)),
        hand_ace_only=True,
        forced_capture=True,
        spades="each-but-lillan",
        spades_points=1,
        cards_points=0,
        sistan_points=0,
        ace_points=1,
        storan_points=3,
        lillan_points=2,
        tabbe_points=5,
        reward_points=5,
        lowest_wins=True,
        player_counts=(2, 3, 4, 5, 6),
        team_counts=(4, 6),
    ),
    "south-african": Rules(
        name="south-african",
        target=21,
        tiebreak="extra-round",
        sweeps=False,
        builds="south-african",
        pictures=False,
        ace_high=False,
        deal="singles",
        sizes=((10, 0), (13, 1), (10, 0)),
        spades="over-five",
        spades_points=1,
        cards_points=2,
        sistan_points=0,
        split_ties=True,
        pile_order="lowest-on-top",
        next_dealer="loser",
    ),
}
ALIASES = {
    "överspader": "overspader",
    "sweden": "swedish",
    "finland": "finnish",
    "royal-casino": "royal",
    "glimne": "mulle-glimne",
    "south_african": "south-african",
    "kryp": "krypkasino",
}
OPTIONS = ("target", "teams", "tiebreak", "live")
BUILDING_OPTIONS = (
    "sweeps",
    "permissive",
    "last_capture_point",
    "redeal",
    "crazy",
    "table_builds",
    "demands",
)
KRYP_OPTIONS = ("team_size", "take_all", "majorities")
_OPTION_VARIANTS = {
    "sweeps": ("casino", "royal", "mulle-glimne", "swazi", "sotho", "south-african"),
    "permissive": ("casino", "royal", "mulle-glimne"),
    "last_capture_point": ("casino", "royal"),
    "redeal": ("swazi", "sotho"),
    "crazy": ("swazi", "sotho"),
    "table_builds": ("swazi", "sotho"),
    "demands": ("swazi", "sotho"),
    "team_size": ("krypkasino",),
    "take_all": ("krypkasino",),
    "majorities": ("krypkasino",),
}
_VARIANT_OPTIONS = (*BUILDING_OPTIONS, *KRYP_OPTIONS)


def rules_for(name: str = "swedish", **overrides: object) -> Rules:
    """The rules of variant ``name`` with options changed: ``rules_for("swedish", target=21)``.

    Options are ``target`` (5..100), ``teams`` (4 players only), ``tiebreak``
    (``"spades"`` or ``"extra-round"``) and ``live`` (count as you go). The building games
    add ``sweeps`` (each sweep scores 1), ``permissive`` (7.1's permissive building; Casino,
    Royal Casino and Glimne's Mulle), ``last_capture_point`` (most cards 2 and the last
    capture 1 instead of most cards 3; Casino and Royal Casino), and for Swazi and Sotho
    ``redeal`` (a layout with a scoring card or three pictures is dealt again) and
    ``crazy`` (crazy casino: 2 players, eight cards each and a draw pile) and
    ``table_builds`` (0 to 3, default 1: how many builds a trailing turn may make without
    the hand card) and ``demands`` (the opponents always demand that a capture takes all
    its card can take and that cards fitting your side's builds are added to them).
    Krypkasino adds ``team_size`` (2 or 3: with 6 players and ``teams``, two teams of
    three), ``take_all`` (on by default: a capture takes every group it can) and
    ``majorities`` (most cards 1 and most spades 2, as penalties); it offers neither
    ``live`` nor the ``"spades"`` tiebreak. Numbers are whole numbers (ints, not floats
    or bools).
    """
    key = ALIASES.get(str(name).lower(), str(name).lower())
    if key not in VARIANTS:
        raise ValueError(f"unknown variant {name!r}; choose one of {', '.join(VARIANTS)}")
    unknown = sorted(set(overrides) - set(OPTIONS) - set(_VARIANT_OPTIONS))
    if unknown:
        known = ", ".join((*OPTIONS, *_VARIANT_OPTIONS))
        raise ValueError(f"unknown rule option(s) {', '.join(unknown)}; the options are {known}")
    for option in sorted(set(overrides) & set(_VARIANT_OPTIONS)):
        if key not in _OPTION_VARIANTS[option]:
            where = ", ".join(_OPTION_VARIANTS[option])
            raise ValueError(f"the option {option} is for {where}, not {key}")
    return _derived(replace(VARIANTS[key], **overrides))


def _derived(rules: Rules) -> Rules:
    """The fields an option changes besides itself (the points its items score)."""
    if rules.last_capture_point:
        rules = replace(rules, cards_points=2, sistan_points=1)
    if rules.majorities:
        rules = replace(rules, cards_points=1, most_spades_points=2)
    return rules


def rules_to_dict(rules: Rules) -> dict[str, object]:
    """The rules as plain JSON data (tuples as lists, so a JSON round trip is equal)."""
    return {f.name: _plain(getattr(rules, f.name)) for f in fields(Rules)}


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
    options = [k for k in _VARIANT_OPTIONS if name in _OPTION_VARIANTS[k]]
    rules = replace(VARIANTS[name], **{k: data[k] for k in (*OPTIONS, *options) if k in data})
    rules = _derived(rules)
    for field in fields(Rules):
        if field.name in data:
            value, expected = data[field.name], _plain(getattr(rules, field.name))
            if _plain(value) != expected or type(_plain(value)) is not type(expected):
                raise ValueError(f"{name} has {field.name} {expected!r}, not {brief(value)}")
            if isinstance(expected, list) and not isinstance(value, list | tuple):
                raise ValueError(f"{name} has {field.name} {expected!r}, not {brief(value)}")
    return rules


def _plain(value: object) -> object:
    """Tuples as lists (as JSON has them), anything else as it is."""
    return [_plain(v) for v in value] if isinstance(value, tuple | list) else value


_FINNISH_HAND = {LILLAN: 15, STORAN: 16}


def capture_values(rules: Rules, card: Card, from_hand: bool) -> tuple[int, ...]:
    """The values ``card`` may count as: Swedish ace ``(1, 14)``, Finnish ace in hand ``(14,)``.

    Where pictures have no number (Casino, Sotho) a J, Q or K has none: ``()``; it only
    pairs with a card of its rank.
    """
    if card.rank > 10 and not rules.face_numbers:
        return ()
    if rules.hand_ace_only and card.rank == 1:
        return (14,) if from_hand else (1,)
    if rules.finnish_values:
        if not from_hand:
            return (card.rank,)
        return (14,) if card.rank == 1 else (_FINNISH_HAND.get(card, card.rank),)
    if card.rank == 1:
        return (1, 14) if rules.ace_high else (1,)
    return (card.rank,)
