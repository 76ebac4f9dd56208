"""The bot's view of a game: seats, options and status around the engine's ``Match``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import Any

from bot.engine import Rules, rules_for
from bot.i18n import EN, N_, Lang

HUMAN = "human"
COMPUTER = "computer"

VARIANT_NAMES = {
    "swedish": N_("Swedish Kasino"),
    "overspader": N_("Överspader"),
    "finnish": N_("Finnish Kasino"),
    "mulle": N_("Mulle"),
    "casino": N_("Casino"),
    "royal": N_("Royal Casino"),
    "mulle-glimne": N_("Glimne's Mulle"),
    "swazi": N_("Swazi Casino"),
    "sotho": N_("Sotho Casino"),
    "south-african": N_("South African Casino"),
    "krypkasino": N_("Krypkasino"),
}
# The variants whose points are penalties: the lowest total wins.
LOWEST_WINS = frozenset(key for key in VARIANT_NAMES if rules_for(key).lowest_wins)
# The games with builds, and the rule options a lobby may switch on for them (engine names).
BUILDING = frozenset(("casino", "royal", "mulle-glimne", "swazi", "sotho", "south-african"))
SWITCHES = ("sweeps", "permissive", "last_capture_point")


def seat_limit(variant: str) -> int:
    """The most players a variant seats (the engine's ``player_counts``): 6 in Krypkasino."""
    try:
        return max(rules_for(variant).player_counts)
    except ValueError:
        return 4


def lowest_wins(variant: str) -> bool:
    """Whether a variant's points are penalties, so the lowest total wins (Krypkasino)."""
    try:
        return rules_for(variant).lowest_wins
    except ValueError:
        return False


class Status(StrEnum):
    """Where a game is in its life. Only ``LOBBY`` and ``PLAYING`` occupy the channel."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    STOPPED = "stopped"
    CANCELLED = "cancelled"
    ABANDONED = "abandoned"
    BROKEN = "broken"  # its saved state could not be loaded; closed without a result

    @property
    def active(self) -> bool:
        """Whether a game with this status still holds its channel."""
        return self in (Status.LOBBY, Status.PLAYING)


class Timer(StrEnum):
    """What happens when a game's deadline passes."""

    REMIND = "remind"
    AUTO = "auto"
    DEAL = "deal"
    COMPUTER = "computer"
    # a correspondence game's turn (bot.correspondence): the person to move is told (now,
    # or when their quiet hours end), warned before the end, and loses on time at the end
    NOTICE = "notice"
    WARN = "warn"
    LATE = "late"


LIVE = "live"
# A game's pace: live (the turn limit in minutes, a reminder, then a safe move) or
# correspondence, days to make a move, whose player out of time loses the match. The
# correspondence paces people choose from, in seconds a move (docs/rules.md, "Pace").
PACES: dict[str, int] = {"12h": 12 * 3600, "1d": 24 * 3600, "3d": 3 * 24 * 3600}
PACE_NAMES = {
    LIVE: N_("Live"),
    "12h": N_("12 hours a move"),
    "1d": N_("1 day a move"),
    "3d": N_("3 days a move"),
}


@dataclass(slots=True)
class Seat:
    """One place at the table.

    ``kind`` is ``"human"`` (``user_id`` set) or ``"computer"`` (``user_id`` is ``None``,
    ``level`` names its strength). ``idle`` counts automatic moves in a row made for this
    seat; ``tabbar`` counts its sweeps over the whole match.
    """

    user_id: int | None
    name: str
    kind: str = HUMAN
    level: str | None = None
    idle: int = 0
    tabbar: int = 0

    @property
    def is_human(self) -> bool:
        """Whether a person plays this seat."""
        return self.kind == HUMAN and self.user_id is not None

    @property
    def mention(self) -> str:
        """A Discord mention for a person, the plain name for a computer."""
        return f"<@{self.user_id}>" if self.is_human else self.name

    @property
    def is_computer(self) -> bool:
        """Whether a computer player plays this seat."""
        return self.kind == COMPUTER

    @classmethod
    def computer(cls, level: str, number: int = 1) -> Seat:
        """A computer seat, named so everyone sees it is one (``🤖 Normal bot``)."""
        suffix = f" {number}" if number > 1 else ""
        return cls(None, f"🤖 {level.capitalize()} bot{suffix}", COMPUTER, level)

    def fresh(self) -> Seat:
        """The same player with the per-match counters cleared (for a rematch)."""
        return Seat(self.user_id, self.name, self.kind, self.level)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        """Rebuild a seat stored by :func:`dataclasses.asdict`."""
        return cls(**data)


@dataclass(frozen=True, slots=True)
class GameOptions:
    """The rules a lobby was opened with, plus the turn limit in seconds."""

    variant: str = "swedish"
    target: int = 16
    teams: bool = False
    turn_seconds: int = 300
    sweeps: bool = False  # the building games' switches (:data:`SWITCHES`)
    permissive: bool = False
    last_capture_point: bool = False
    team_size: int = 2  # Krypkasino: 3 is six players in two teams of three
    take_all: bool = True  # Krypkasino: a capture takes every group it can
    majorities: bool = False  # Krypkasino: most cards and most spades as penalties
    pace: str = LIVE  # or a key of PACES: a correspondence game

    @property
    def correspondence(self) -> bool:
        """Whether this is a correspondence game (days a move, lost on time)."""
        return self.pace != LIVE

    @property
    def move_seconds(self) -> int:
        """The time a player has for a move: a correspondence pace's, else the turn limit."""
        return PACES.get(self.pace, self.turn_seconds)

    @property
    def variant_name(self) -> str:
        """The variant as people call it."""
        return VARIANT_NAMES.get(self.variant, self.variant)

    @property
    def switches(self) -> dict[str, bool]:
        """The building games' options that are on, by their engine names."""
        return {name: True for name in SWITCHES if getattr(self, name)}

    @property
    def kryp_options(self) -> dict[str, Any]:
        """Krypkasino's own options as the engine takes them (none for other variants)."""
        if self.variant != "krypkasino":
            return {}
        return {
            "team_size": self.team_size,
            "take_all": self.take_all,
            "majorities": self.majorities,
        }

    def rules(self, players: int | None = None) -> Rules:
        """The engine's rules for these options; ``ValueError`` for a combination the
        variant does not have. Four players of a game always played in partnerships
        (Casino, Swazi…) play as teams."""
        base = rules_for(self.variant)
        teams = self.teams or (players == 4 and base.four_in_teams)
        return rules_for(
            self.variant, target=self.target, teams=teams, **self.switches, **self.kryp_options
        )

    def for_players(self, players: int) -> GameOptions:
        """These options as a match of ``players`` plays them (teams where required)."""
        return replace(self, teams=self.rules(players).teams)


SWITCH_NAMES = {
    "sweeps": N_("Sweeps"),
    "permissive": N_("Permissive building"),
    "last_capture_point": N_("The last-capture point"),
    "team_size": N_("Teams of three"),
    "take_all": N_("The whole capture"),
    "majorities": N_("Majorities"),
}
# Krypkasino's options at their defaults (any other value is refused for other variants).
KRYP_DEFAULTS: dict[str, Any] = {"team_size": 2, "take_all": True, "majorities": False}


def options_problem(options: GameOptions, t: Lang = EN) -> str:
    """Why a lobby cannot be opened with these options, in words (``""``: it can)."""
    if options.pace != LIVE and options.pace not in PACES:
        return t("That pace does not exist.")
    if options.variant != "krypkasino":
        given = [
            name for name, default in KRYP_DEFAULTS.items() if getattr(options, name) != default
        ]
        if given:
            kryp = VARIANT_NAMES["krypkasino"]
            return t(
                "{switch} is an option of {games} only.",
                switch=t(SWITCH_NAMES[given[0]]),
                games=t(kryp),
            )
    elif options.team_size == 3 and not options.teams:
        return t("Teams of three are teams: turn teams on too (6 players, two teams of three).")
    for switch in options.switches:
        keys = [key for key in VARIANT_NAMES if _has_switch(key, switch)]
        if options.variant not in keys:
            games = t.listing(t(VARIANT_NAMES[key]) for key in keys)
            return t(
                "{switch} is an option of {games} only.",
                switch=t(SWITCH_NAMES[switch]),
                games=games,
            )
    try:
        options.rules()
    except ValueError as error:
        variant = t(VARIANT_NAMES.get(options.variant, options.variant))
        return t("{variant} cannot be played that way: {error}.", variant=variant, error=error)
    return ""


def team_problem(options: GameOptions, players: int) -> str:
    """Why ``players`` cannot start a game with these team options (a catalogue message;
    ``""``: they can): four for partnerships, and in Krypkasino four or six for teams of
    two and six for teams of three."""
    if not options.teams:
        return ""
    if options.variant != "krypkasino":
        return "" if players == 4 else N_("A team game needs exactly 4 players.")
    if options.team_size == 3:
        return "" if players == 6 else N_("Teams of three need exactly 6 players.")
    return "" if players in (4, 6) else N_("Teams of two need 4 or 6 players.")


def _has_switch(variant: str, switch: str) -> bool:
    try:
        rules_for(variant, **{switch: True})
    except ValueError:
        return False
    return True


@dataclass(slots=True)
class Game:
    """A game row: a lobby, a match in progress, or a finished match."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    options: GameOptions
    seats: list[Seat]
    status: Status = Status.LOBBY
    version: int = 0
    match: Any = None  # bot.engine.Match once started
    message_id: int | None = None
    ping_id: int | None = None
    deadline: float | None = None
    timer: Timer | None = None
    last_move: str = ""
    created_at: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
    # The version the database holds for this game (``None``: not stored yet). A save
    # succeeds only if the row still has it, so a stale copy can never overwrite the truth.
    stored_version: int | None = field(default=None, repr=False, compare=False)
    # What the channel must be shown of the change being made (``storage.Outgoing``s): the
    # next save writes them in its own transaction (the durable outbox), then posts them.
    outbox: list[Any] = field(default_factory=list, repr=False, compare=False)
    # The other places it is shown (``bot.stages.Stage``s, the ``stages`` table): a ladder
    # match's second table. Written with the game when it is created, read with it.
    mirrors: list[Any] = field(default_factory=list, repr=False, compare=False)
    # The people the index of who sits where holds for it (``bot.storage.players``;
    # ``None``: not known, so the next save writes them): a save writes them again only
    # when they change.
    stored_players: frozenset[int] | None = field(default=None, repr=False, compare=False)

    def seat_of(self, user_id: int) -> int | None:
        """The seat index of a person, or ``None`` when they are not playing."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    @property
    def record_guild(self) -> int:
        """The server whose boards and history a finished match counts in: its channel's,
        but none (0: the global boards only) for a ladder match, whose players come from
        different servers."""
        return 0 if self.extra.get("ladder") else self.guild_id

    @property
    def has_computers(self) -> bool:
        """Whether a computer player has a seat."""
        return any(seat.is_computer for seat in self.seats)

    @property
    def in_tournament(self) -> bool:
        """Whether this match is a tournament's table (dealt in the tournament's thread)."""
        return isinstance(self.extra.get("tournament"), dict)

    @property
    def hints(self) -> bool:
        """Whether the host turned hints on for this game."""
        return bool(self.extra.get("hints"))

    def side_of(self, seat: int) -> int:
        """The side (player or team) a seat plays for: teams sit alternately, so a seat's
        team is its seat modulo the number of teams (two, or three in Krypkasino's six
        players in teams of two)."""
        return seat % self.sides if self.options.teams else seat

    @property
    def sides(self) -> int:
        """How many sides score separately."""
        if not self.options.teams:
            return len(self.seats)
        return max(2, len(self.seats) // self.options.team_size)

    def side_name(self, side: int) -> str:
        """A readable name for a side: the player, or the partners."""
        if not self.options.teams:
            return self.seats[side].name
        return " & ".join(s.name for i, s in enumerate(self.seats) if self.side_of(i) == side)

    def seats_json(self) -> list[dict[str, Any]]:
        """The seats as plain data for storage."""
        return [asdict(seat) for seat in self.seats]
