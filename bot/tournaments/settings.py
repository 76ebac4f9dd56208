"""Whether a tournament can be run with the organiser's settings, and why not in words.

The limits (docs/rules.md, "Tournaments"): the game options a lobby accepts; tables of a
size the variant plays (2, 3 or 4; up to 6 in Krypkasino); teams (the ``teams`` option)
only in a Swiss, at tables of exactly the size the variant plays in teams (4; Krypkasino 4
or 6, six in teams of three); round robin and knockout at 2-player tables only; a round
robin for at most 16 players; a Swiss of 1 to 15 rounds; 2 to 128 players; a round of 1
minute to a week.
"""

from __future__ import annotations

from bot.i18n import EN, Lang
from bot.models import VARIANT_NAMES, GameOptions, options_problem, team_problem
from bot.tournaments.model import Format, Settings
from bot.tournaments.roundrobin import MAX_PLAYERS as ROUND_ROBIN_MAX

MIN_PLAYERS = 2
MAX_PLAYERS = 128
MAX_ROUNDS = 15
MAX_MINUTES = 7 * 24 * 60  # a round's deadline: at most a week


def table_sizes(options: GameOptions) -> frozenset[int]:
    """The table sizes these options can be played at (the variant's player counts that
    its team options allow)."""
    allowed = set()
    for players in range(2, 7):
        try:
            options.rules(players).check_players(players)
        except ValueError:
            continue
        allowed.add(players)
    return frozenset(allowed)


def smallest_table(settings: Settings) -> int:
    """The fewest players a table of the tournament seats: the table size, or one less
    where the variant allows it at a Swiss (never in teams: a team table is full)."""
    size = settings.table_size
    if settings.format is Format.SWISS and size - 1 in table_sizes(settings.game):
        return size - 1
    return size


def settings_problem(settings: Settings, players: int | None = None, t: Lang = EN) -> str:
    """Why a tournament cannot be run with ``settings`` (and ``players`` signed up, when
    given), in words; ``""`` when it can."""
    game = settings.game
    problem = options_problem(game, t)
    if problem:
        return problem
    variant = t(VARIANT_NAMES.get(game.variant, game.variant))
    size = settings.table_size
    if game.teams and settings.format is not Format.SWISS:
        # a round robin and a knockout are duels: there is no table to play in teams at
        return t("Teams play only in a Swiss: a round robin and single elimination are duels.")
    if settings.format is not Format.SWISS and size != 2:
        return t("A round robin and single elimination are played at 2-player tables.")
    allowed = table_sizes(game)
    if size not in allowed:
        teams = team_problem(game, size)
        if teams and size in table_sizes(GameOptions(game.variant)):
            return t(teams)
        counts = t.listing((str(n) for n in sorted(allowed)), "or")
        return t(
            "{variant} is played at tables of {counts} players, not {size}.",
            variant=variant,
            counts=counts,
            size=size,
        )
    if settings.rounds is not None:
        if settings.format is not Format.SWISS:
            return t("Only a Swiss has a number of rounds to choose.")
        if not 1 <= settings.rounds <= MAX_ROUNDS:
            return t(
                "A Swiss has 1 to {most} rounds, not {rounds}.",
                most=MAX_ROUNDS,
                rounds=settings.rounds,
            )
    if not 1 <= settings.round_minutes <= MAX_MINUTES:
        return t(
            "A round lasts 1 to {most} minutes, not {minutes}.",
            most=MAX_MINUTES,
            minutes=settings.round_minutes,
        )
    if not MIN_PLAYERS <= settings.cap <= MAX_PLAYERS:
        return t(
            "A tournament takes {least} to {most} players, not {cap}.",
            least=MIN_PLAYERS,
            most=MAX_PLAYERS,
            cap=settings.cap,
        )
    if settings.format is Format.ROUND_ROBIN and settings.cap > ROUND_ROBIN_MAX:
        return t(
            "A round robin takes at most {most} players (everyone meets everyone): set a cap"
            " of {most} or fewer.",
            most=ROUND_ROBIN_MAX,
        )
    if players is None:
        return ""
    if players > settings.cap:
        return t("This tournament takes at most {cap} players.", cap=settings.cap)
    least = max(MIN_PLAYERS, 1 if settings.fillers else smallest_table(settings))
    if players < least:
        return t("This tournament needs at least {least} players.", least=least)
    return ""
