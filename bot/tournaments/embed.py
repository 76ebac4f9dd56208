"""What a tournament's public messages look like: the sign-up (settings and the live list of
players), a round's standings (with the tiebreak columns) and the podium.

Pure functions of the tournament's data and a language: no storage, no Discord calls
(only ``discord.Embed``, the shape they are posted in), so they are tested on their own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.i18n import EN, N_, Lang
from bot.render import FAIR_MARK, TABLE_COLOUR, rules_line
from bot.tournaments.model import Entrant, Format, Phase, Settings, Standing
from bot.translator import command_name

FORMAT_NAMES = {
    Format.SWISS: N_("Swiss"),
    Format.ROUND_ROBIN: N_("round robin"),
    Format.KNOCKOUT: N_("single elimination"),
}
MEDALS = ("🥇", "🥈", "🥉")
TIEBREAKS = N_(
    "Order: match points, then the opponents' match-win share (opp), then the points"
    " difference (diff), then a seeded draw."
)
FIELD_CHARS = 1024  # Discord's limit on an embed field's value
MAX_FIELDS = 25  # and on an embed's fields
# An embed holds 6,000 characters in all; lists stop short of it (with "… and n more")
BUDGET = 5_800
NAME_CHARS = 32  # a Discord display name's most


def _name(names: Mapping[int, str], user_id: int, t: Lang = EN) -> str:
    """A player's name as the tournament knows it, its markdown and mentions made plain;
    a forgotten one's (no name: ``/kasino forget-me``) is a "former player"."""
    name = names.get(user_id, str(user_id))[:NAME_CHARS]
    if not name:
        return t("former player")
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))


def _listed(embed: discord.Embed, title: str, lines: Sequence[str], t: Lang) -> None:
    """Add ``lines`` as fields (the first named ``title``), as many as fit in the embed's
    limits; then one line saying how many more there are."""
    fields: list[list[str]] = [[]]
    shown = 0
    room = BUDGET - len(embed) - len(title) - 40  # kept for the "… and n more" line
    for line in lines:
        if len(line) + 1 > room:
            break
        if len("\n".join([*fields[-1], line])) > FIELD_CHARS:
            if len(embed.fields) + len(fields) >= MAX_FIELDS - 1:
                break
            fields.append([])
            room -= 1  # the next field's name (a zero-width space)
        fields[-1].append(line)
        room -= len(line) + 1
        shown += 1
    for index, chunk in enumerate(fields):
        if chunk:
            embed.add_field(name=title if index == 0 else "\u200b", value="\n".join(chunk),
                            inline=False)  # fmt: skip
    if shown < len(lines):
        more = t("… and {count} more.", count=len(lines) - shown)
        embed.add_field(name="\u200b", value=more, inline=False)


def settings_lines(settings: Settings, t: Lang = EN, *, players: int = 0) -> str:
    """The settings in words: the game and its rules, the format and its rounds, the
    table size, the round's time, hints and fillers, the cap."""
    fmt = t(FORMAT_NAMES[settings.format])
    if settings.format is Format.SWISS:
        if settings.rounds:
            fmt = t("{format}, {rounds} rounds", format=fmt, rounds=settings.rounds)
        else:
            fmt = t("{format}, rounds by the number of players", format=fmt)
    lines = [
        rules_line(settings.game, t),
        fmt[:1].upper() + fmt[1:],  # a line of its own (the names are lower case mid-sentence)
        t("{size} players a table", size=settings.table_size),
        t("{minutes} min a round", minutes=settings.round_minutes),
        t("Hints allowed") if settings.hints else t("No hints"),
        t("Computer players fill tables") if settings.fillers else t("No computer players"),
        t("{players} of at most {cap} players", players=players, cap=settings.cap),
    ]
    return "\n".join(lines)


def signup_embed(
    tournament_id: int,
    name: str,
    settings: Settings,
    entrants: Sequence[Entrant],
    organiser_id: int,
    phase: Phase,
    t: Lang = EN,
    *,
    start_at: float | None = None,
    sealed: bool = False,
    cut_by: set[int] | frozenset[int] = frozenset(),
) -> discord.Embed:
    """The sign-up message: the settings, how to join, the players so far (in join
    order, ✂️ for who cut the deck), what happened to the sign-up once it is closed and,
    for a tournament whose deal seed is ``sealed`` (committed to), the one plain mark that
    its deals can be checked: the commitment itself is in its How to check answer, sent to
    each entrant on Join and in its tables' records, never a hex value in the channel."""
    embed = discord.Embed(title=t("🏆 Tournament: {name}", name=name), colour=TABLE_COLOUR)
    if phase is Phase.SIGNUP:
        text = t("Press **Join** to play. The organiser <@{organiser}> starts it.",
                 organiser=organiser_id)  # fmt: skip
        if start_at is not None:
            text += "\n" + t("It starts <t:{when}:R>.", when=int(start_at))
    elif phase is Phase.CANCELLED:
        text = t("This tournament was cancelled.")
    elif phase is Phase.FINISHED:
        text = t("This tournament is over: the podium is below.")
    else:
        text = t("The sign-up is closed: the tournament has started.")
    embed.description = text
    embed.add_field(
        name=t("Settings"),
        value=settings_lines(settings, t, players=len(entrants)),
        inline=False,
    )
    footer = t("Tournament #{id}", id=tournament_id)
    if sealed:
        footer += "\n" + t(FAIR_MARK)
    embed.set_footer(text=footer)
    lines = [
        f"{i}. {_name({e.user_id: e.name}, e.user_id, t)}" + (" ✂️" if e.user_id in cut_by else "")
        for i, e in enumerate(entrants, 1)
    ]
    _listed(embed, t("Players ({count})", count=len(entrants)), lines or [t("Nobody yet.")], t)
    return embed


def number(value: float, t: Lang, *, digits: int = 2) -> str:
    """A count as the language writes it: whole (``3``), or with the decimals it needs,
    at most ``digits`` (``1.5``, ``1,5``, ``0,33``)."""
    value = round(value, digits)
    if value == int(value):
        return t.signed(int(value)).removeprefix("+")  # a true minus sign below zero
    needed = next(d for d in range(1, digits + 1) if round(value, d) == value)
    return t.decimal(value, needed)


def standing_line(standing: Standing, names: Mapping[int, str], t: Lang = EN) -> str:
    """``3. Anna · 2 pts · 2/3 won · opp 56% · diff +12``: match points, matches won of
    those played (a shared place is half a point, not a win), the tiebreaks; a dropped
    player is marked."""
    rank = MEDALS[standing.rank - 1] if standing.rank <= len(MEDALS) else f"{standing.rank}."
    value = round(standing.match_points, 2)  # a third of a point: 0.33
    shown = number(value, t)
    points = t.ngettext("{points} pt", "{points} pts", 1 if value == 1 else 2, points=shown)
    dropped = t(" (dropped)") if standing.dropped else ""
    difference = ("+" if round(standing.difference, 1) > 0 else "") + number(
        standing.difference, t, digits=1
    )
    return t(
        "{rank} **{name}**{dropped} · {points} · {wins}/{played} won · opp {opponents} ·"
        " diff {difference}",
        rank=rank,
        name=_name(names, standing.user_id, t),
        dropped=dropped,
        points=points,
        wins=standing.wins,
        played=standing.played,
        opponents=t.percent(standing.opponents),
        difference=difference,
    )


def _standing_fields(
    embed: discord.Embed, standings: Sequence[Standing], names: Mapping[int, str], t: Lang
) -> None:
    """The standings' lines, after everything else of the embed is set."""
    embed.set_footer(text=t(TIEBREAKS))
    _listed(embed, t("Standings"), [standing_line(s, names, t) for s in standings], t)


def standings_embed(
    name: str,
    round_number: int,
    rounds: int,
    standings: Sequence[Standing],
    names: Mapping[int, str],
    t: Lang = EN,
    *,
    done: int = 0,
    tables: int = 0,
    byes: int = 0,
) -> discord.Embed:
    """A round's standings: every player's line with the tiebreak columns, and how many
    of the round's tables have finished (a bye is a table, finished from the start: said,
    so that "2 of 4" with one game over reads right)."""
    embed = discord.Embed(
        title=t(
            "🏆 {name}: standings after round {round} of {rounds}",
            name=name,
            round=round_number,
            rounds=rounds,
        ),
        colour=TABLE_COLOUR,
    )
    if tables and byes:
        embed.description = t(
            "Tables finished: {done} of {tables} (byes: {byes}).",
            done=done,
            tables=tables,
            byes=byes,
        )
    elif tables:
        embed.description = t("Tables finished: {done} of {tables}.", done=done, tables=tables)
    _standing_fields(embed, standings, names, t)
    return embed


def podium_embed(
    name: str,
    standings: Sequence[Standing],
    names: Mapping[int, str],
    t: Lang = EN,
    *,
    games: int = 0,
    sealed: bool = False,
) -> discord.Embed:
    """The end: the podium (🥇🥈🥉) and the final standings with their tiebreaks; for a
    tournament whose deal seed was ``sealed``, the plain mark of its How to check button
    (which then gives the seed itself)."""
    embed = discord.Embed(title=t("🏆 {name}: the podium", name=name), colour=TABLE_COLOUR)
    podium = [
        f"{MEDALS[i]} **{_name(names, s.user_id, t)}**"
        for i, s in enumerate(standings[: len(MEDALS)])
    ]
    text = "\n".join(podium) or t("Nobody played.")
    if games:
        history = command_name(t, "history")  # outside the call: Babel reads its plural then
        text += "\n\n" + t.ngettext(
            "{n} game was played: replay it with the button below or {history}.",
            "{n} games were played: replay them with the buttons below or {history}.",
            games,
            history=history,
        )
    embed.description = text
    _standing_fields(embed, standings, names, t)
    if sealed:
        embed.set_footer(text=f"{embed.footer.text}\n{t(FAIR_MARK)}")
    return embed
