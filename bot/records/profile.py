"""The rating board, a player's profile and head-to-head (the profile's picture is
:mod:`bot.records.chart`).

Pure presentation: the cog reads the rows (:mod:`bot.storage`) and hands them here. Every
text is said in a language (``t``), like :mod:`bot.render`; numbers through ``t.decimal``
and ``t.percent``, ratings through :func:`bot.records.ratings.shown` (one rule for rated,
provisional and not rated).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import discord

from bot.i18n import EN, Lang
from bot.records import ratings
from bot.records.chart import CHART_FILE
from bot.render import (
    HINTED_MARK,
    LEVEL_NAMES,
    TABLE_COLOUR,
    hinted_mark,
    mention_or_name,
    total,
    variant_name,
)
from bot.storage.records import RatingRow, ResultLine, Totals
from bot.storage.tournaments import PlayerTournament
from bot.tournaments.board import tournaments_field

LAST_RESULTS = 5


def total_text(points: int) -> str:
    """A side's final total in bold: ``**16**``, ``**−5**`` (Krypkasino's totals can be
    below zero: a true minus sign). Bold, so that a computer's seat number (``🤖 Normal
    bot 2``) is never read as its total."""
    return f"**{total(points)}**"


def rating_meaning(t: Lang = EN) -> str:
    """What a rating means, in two sentences: a board's footer, the profile's caption and
    ``/kasino help`` say it alike."""
    return t(
        "A rating starts at {start} and moves after each rated match: up when you place"
        " better than the ratings at the table expected, down when worse; {gap} points"
        " apart, the higher-rated player is expected to win about three matches in four."
        " A “?” ({example}) marks a provisional rating: fewer than {n} rated matches so far.",
        start=ratings.START,
        gap=200,
        example=str(ratings.START - 20) + "?",  # 1480?
        n=ratings.PROVISIONAL,
    )


def ratings_embed(
    rows: Sequence[RatingRow],
    variant: str,
    page: int,
    pages: int,
    offset: int,
    *,
    computers: bool = False,
    names: Mapping[int, str] | None = None,
    t: Lang = EN,
    everywhere: bool = False,
) -> discord.Embed:
    """One page of a rating board: one numbered list of every player, the rated first,
    then the provisional ones (marked ``?``), as :meth:`bot.storage.Storage.rating_board`
    orders them. ``everywhere``: the global board (every rated match in every server)."""
    names = names or {}
    if everywhere:
        title = t("Global Kasino vs computers") if computers else t("Global Kasino leaderboard")
    else:
        title = t("Kasino vs computers") if computers else t("Kasino leaderboard")
    board = t("{variant}, by rating", variant=variant_name(variant, t))
    embed = discord.Embed(title=f"{title}: {board}", colour=TABLE_COLOUR)

    def line(row: RatingRow) -> str:
        return t(
            "{name}{mark}: **{rating}** · {wins} in {matches} ({rate})",
            name=mention_or_name(row.user_id, names),
            mark=hinted_mark(row.hinted),
            rating=row.shown,
            wins=t.ngettext("{n} win", "{n} wins", row.wins),
            matches=t.ngettext("{n} match", "{n} matches", row.matches),
            rate=t.percent(row.win_rate),
        )

    lines = [f"**{offset + n + 1}.** {line(row)}" for n, row in enumerate(rows)]
    embed.description = "\n".join(lines) or t("No finished matches on this board yet.")
    footer = t("Page {page} of {pages}", page=page, pages=pages) + " · " + rating_meaning(t)
    if everywhere:
        footer += " " + t("The global board counts every rated match, in every server.")
    if any(row.hinted for row in rows):
        footer += t(" · {mark} some matches played with hints", mark=HINTED_MARK)
    embed.set_footer(text=footer)
    return embed


@dataclass(slots=True)
class Tally:
    """A person's totals, kept apart where points mean opposite things: ``scored`` in the
    games where points are good, ``penalties`` in those where the lowest total wins
    (Krypkasino), whose points are penalty points."""

    scored: Totals = field(default_factory=Totals)
    penalties: Totals = field(default_factory=Totals)
    # ``scored`` by variant: each game's figures are said in its own card words
    scored_by: dict[str, Totals] = field(default_factory=dict)

    def add(self, variant: str, totals: Totals, *, penalties: bool) -> None:
        """Count one variant's totals in (``penalties``: a game where the lowest wins)."""
        if penalties:
            self.penalties += totals
            return
        self.scored += totals
        self.scored_by[variant] = self.scored_by.get(variant, Totals()) + totals

    @property
    def matches(self) -> int:
        """Matches of both kinds."""
        return self.scored.matches + self.penalties.matches

    @property
    def wins(self) -> int:
        """Wins of both kinds."""
        return self.scored.wins + self.penalties.wins


@dataclass(slots=True)
class Placed:
    """A person's rating on one board and their place on its one list (0: not on it)."""

    row: RatingRow | None = None
    rank: int = 0
    count: int = 0
    on_global_board: bool = False  # the rank is on the global board (a profile outside servers)


@dataclass(slots=True)
class Profile:
    """Everything a profile shows, as read from storage."""

    user_id: int
    name: str
    variant: str  # the variant whose rating is shown
    chosen: bool  # the variant was asked for (else: the favourite), stats are of it alone
    people: Tally
    computers: Tally
    rating: Placed = field(default_factory=Placed)
    computer_rating: Placed = field(default_factory=Placed)
    # the global ratings of the same boards (every rated match anywhere); empty where
    # the profile is not a server's (its ratings are the global ones already)
    everywhere: Placed = field(default_factory=Placed)
    computer_everywhere: Placed = field(default_factory=Placed)
    favourite: tuple[str, int] | None = None
    longest: int = 0
    current: int = 0
    last: list[ResultLine] = field(default_factory=list)
    history: list[tuple[float, float, float, float]] = field(default_factory=list)
    puzzle_streak: int = 0  # consecutive UTC days with a solved puzzle here (bot.puzzles)
    tournaments: list[PlayerTournament] = field(default_factory=list)  # the last finished

    @property
    def charted(self) -> Placed:
        """The board the headline and the picture show: people's, else (a player who has
        only played computers) the computers'."""
        return self.rating if self.rating.row is not None else self.computer_rating

    @property
    def charted_everywhere(self) -> Placed:
        """The global rating said beside the headline's: of the same board, else (not
        rated in this server) people's, else the computers'."""
        if self.rating.row is not None:
            return self.everywhere
        if self.computer_rating.row is not None or self.everywhere.row is None:
            return self.computer_everywhere
        return self.everywhere


def seat_label(seat: str, names: Mapping[int, str], t: Lang = EN, number: int = 1) -> str:
    """A lineup seat as people read it: a person's name, or the computer's level (the
    ``number``-th of its level at the table, as the lobby named it: ``🤖 Normal bot 2``)."""
    if seat.startswith("c:"):
        level = t(LEVEL_NAMES.get(seat[2:], seat[2:]))
        if number > 1:
            return t("🤖 {level} bot {number}", level=level, number=number)
        return t("🤖 {level} bot", level=level)
    user = int(seat[1:])
    return names.get(user) or f"<@{user}>"


def side_labels(lineup: ratings.Lineup, names: Mapping[int, str], t: Lang = EN) -> list[list[str]]:
    """Each side's seats as people read them, side by side; two computers of one level
    are told apart by number, in the order they sat (``🤖 Normal bot``, ``🤖 Normal bot
    2``), so a result line never names the same bot twice."""
    seen: dict[str, int] = {}
    labels = []
    for side in lineup.sides:
        row = []
        for seat in side.seats:
            seen[seat] = seen.get(seat, 0) + 1
            row.append(seat_label(seat, names, t, seen[seat]))
        labels.append(row)
    return labels


def totals_text(tally: Tally, t: Lang, label: str = "") -> str:
    """A person's totals in lines: wins, then the figures of the games where points are
    good and of those where they are penalties (``label``: the penalty game's name, said
    when both kinds are there)."""
    if not tally.matches:
        return t("No matches yet.")
    lines = [
        t(
            "{wins} in {matches} ({rate})",
            wins=t.ngettext("{n} win", "{n} wins", tally.wins),
            matches=t.ngettext("{n} match", "{n} matches", tally.matches),
            rate=t.percent(tally.wins / tally.matches),
        )
    ]
    if tally.scored.matches:
        lines += _scored_blocks(tally, t)
    if tally.penalties.matches:
        prefix = f"**{label}:** " if label and tally.scored.matches else ""
        lines += [prefix + line for line in _penalty_lines(tally.penalties, t)]
    return "\n".join(lines)


def _scored_blocks(tally: Tally, t: Lang) -> list[str]:
    """The figures of the games where points are good, each in its games' card words: one
    block where the games share their words (every game in Swedish and Finnish), else a
    block per set of games that say them alike, named (English: ``**Casino:** … big
    casino …`` apart from ``**Swedish Kasino:** … storan …``)."""
    groups: dict[Lang, tuple[list[str], Totals]] = {}
    for variant, totals in sorted(tally.scored_by.items()):
        words = t.for_game(variant)
        names, sum_ = groups.get(words, ([], Totals()))
        groups[words] = ([*names, variant], sum_ + totals)
    if len(groups) <= 1:
        words = next(iter(groups), t)
        return _scored_lines(tally.scored, words)
    lines = []
    for words, (variants, totals) in groups.items():
        label = t.listing(variant_name(v, t) for v in variants)
        lines += [f"**{label}:** {line}" for line in _scored_lines(totals, words)]
    return lines


def _scored_lines(totals: Totals, t: Lang) -> list[str]:
    """Points a match, tabbar, storan, lillan and aces, where taking them is good."""
    rounds = max(totals.rounds, 1)
    return [
        t(
            "{points} points a match · {sweeps} tabbar a round",
            points=t.decimal(totals.points / totals.matches),
            sweeps=t.decimal(totals.tabbar / rounds, 2),
        ),
        t(
            "Storan in {storan} of rounds, lillan in {lillan}, {aces} aces a round",
            storan=t.percent(totals.storan / rounds),
            lillan=t.percent(totals.lillan / rounds),
            aces=t.decimal(totals.aces / rounds, 2),
        ),
    ]


def _penalty_lines(totals: Totals, t: Lang) -> list[str]:
    """Penalty points a match and a round, and the penalties taken (lowest wins)."""
    rounds = max(totals.rounds, 1)
    return [
        t(
            "{points} penalty points a match, {per_round} a round (lowest wins)",
            points=t.decimal(totals.points / totals.matches),
            per_round=t.decimal(totals.points / rounds),
        ),
        t(
            "Penalties taken: storan in {storan} of rounds, lillan in {lillan},"
            " {aces} aces and {sweeps} tabbar a round",
            storan=t.percent(totals.storan / rounds),
            lillan=t.percent(totals.lillan / rounds),
            aces=t.decimal(totals.aces / rounds, 2),
            sweeps=t.decimal(totals.tabbar / rounds, 2),
        ),
    ]


def rating_line(placed: Placed, t: Lang, everywhere: Placed | None = None) -> str:
    """``Rating 1540, #2 of 9 in this server`` (``1480?`` and how many rated matches
    while provisional), or that there is no rated match yet; then the global rating of
    the same board where there is one (``· everywhere 1562``)."""
    glob = everywhere.row if everywhere is not None else None
    if glob is not None and glob.standing is ratings.Standing.UNRATED:
        glob = None
    row = placed.row
    if row is None or row.standing is ratings.Standing.UNRATED:
        if glob is not None:
            return t("No rated matches in this server yet · everywhere {rating}", rating=glob.shown)
        return t("No rated matches yet.")
    text = t("Rating {rating}", rating=row.shown)
    if row.standing is ratings.Standing.PROVISIONAL:
        text += t(
            " (provisional: {n} of {needed} rated matches)",
            n=row.matches,
            needed=ratings.PROVISIONAL,
        )
    if placed.rank and placed.on_global_board:
        text += t(", #{rank} of {count} on the global board", rank=placed.rank, count=placed.count)
    elif placed.rank:
        text += t(", #{rank} of {count} in this server", rank=placed.rank, count=placed.count)
    if glob is not None:
        text += t(" · everywhere {rating}", rating=glob.shown)
    return text


def result_line(line: ResultLine, user_id: int, names: Mapping[int, str], t: Lang) -> str:
    """One of the last results: won or lost with the player's total (and partners), then
    every other side with its total, in which game and when:
    ``❌ Lost **15** – anna **7**, bjorn **10**, 🤖 Normal bot **3** · Krypkasino``."""
    lineup = ratings.Lineup.loads(line.lineup)
    mine = total_text(line.points)
    text = t("Won {score}", score=mine) if line.won else t("Lost {score}", score=mine)
    if lineup is not None:
        me = f"u{user_id}"
        labelled = list(zip(lineup.sides, side_labels(lineup, names, t), strict=True))
        partners = [
            label
            for side, labels in labelled
            if me in side.seats
            for seat, label in zip(side.seats, labels, strict=True)
            if seat != me
        ]
        if partners:
            text += t(" with {names}", names=t.listing(partners))
        others = [
            f"{' & '.join(labels)} " + total_text(side.points)
            for side, labels in labelled
            if me not in side.seats
        ]
        if others:
            text += " – " + ", ".join(others)
    mark = "✅" if line.won else "❌"
    return f"{mark} {text} · {variant_name(line.variant, t)} <t:{int(line.finished_at)}:d>"


def profile_embed(profile: Profile, names: Mapping[int, str], t: Lang = EN) -> discord.Embed:
    """A player's profile (private, or shown in the channel: it holds nothing secret)."""
    embed = discord.Embed(
        title=t("{name}'s Kasino profile", name=profile.name), colour=TABLE_COLOUR
    )
    game = f"**{variant_name(profile.variant, t)}**"
    if profile.rating.row is None and profile.computer_rating.row is not None:
        game += t(" (against computers)")  # the headline's rating is the computers' board
    embed.description = "\n".join(
        (
            f"{game}: {rating_line(profile.charted, t, profile.charted_everywhere)}",
            t(
                "Streaks: longest {longest}, now {current}",
                longest=profile.longest,
                current=profile.current,
            ),
        )
    )
    if profile.favourite is not None:
        key, count = profile.favourite
        embed.description += "\n" + t(
            "Favourite game: {variant} ({matches})",
            variant=variant_name(key, t),
            matches=t.ngettext("{n} match", "{n} matches", count),
        )
    if profile.puzzle_streak:
        embed.description += "\n" + t.ngettext(
            "Puzzle streak: {n} day", "Puzzle streak: {n} days", profile.puzzle_streak
        )
    scope = variant_name(profile.variant, t) if profile.chosen else t("all games")
    label = variant_name("krypkasino", t)
    embed.add_field(
        name=t("Against people ({scope})", scope=scope),
        value=totals_text(profile.people, t, label),
        inline=False,
    )
    against = totals_text(profile.computers, t, label)
    if profile.rating.row is not None and profile.computer_rating.row is not None:
        # the headline shows the people's rating: the computers' one is said here
        against += "\n" + rating_line(profile.computer_rating, t, profile.computer_everywhere)
    embed.add_field(name=t("Against computers ({scope})", scope=scope), value=against, inline=False)
    lines = [result_line(line, profile.user_id, names, t) for line in profile.last]
    embed.add_field(
        name=t("Last results"), value="\n".join(lines) or t("No matches yet."), inline=False
    )
    if profile.tournaments:
        name, value = tournaments_field(profile.tournaments, t)
        embed.add_field(name=name, value=value, inline=False)
    footer = rating_meaning(t)
    if profile.history:
        embed.set_image(url=f"attachment://{CHART_FILE}")
        footer = (
            t(
                "The picture: the rating after each rated match; the shaded band is where it"
                " probably lies (± one standard deviation)."
            )
            + "\n"
            + footer
        )
    embed.set_footer(text=footer)
    return embed


def versus_embed(
    one: int,
    other: int,
    meetings: Sequence[tuple[ResultLine, ResultLine, bool]],
    names: Mapping[int, str],
    t: Lang = EN,
    rated: Sequence[tuple[str, RatingRow | None, RatingRow | None]] = (),
) -> discord.Embed:
    """Two people's matches together: their ratings (``rated``: per variant, each one's
    row on the people's board), against each other (wins each) and as partners."""
    first, second = names.get(one) or f"<@{one}>", names.get(other) or f"<@{other}>"
    embed = discord.Embed(
        title=t("{one} against {other}", one=first, other=second), colour=TABLE_COLOUR
    )
    apart = [(a, b) for a, b, same in meetings if not same]
    together = [(a, b) for a, b, same in meetings if same]
    lines = [
        t(
            "Rating in {variant}: {one} {rating}, {other} {others}",
            variant=variant_name(variant, t),
            one=first,
            rating=_shown(mine),
            other=second,
            others=_shown(theirs),
        )
        for variant, mine, theirs in rated
    ]
    lines += [
        t(
            "Against each other: {matches}; {one} won {wins}, {other} won {others}",
            matches=t.ngettext("{n} match", "{n} matches", len(apart)),
            one=first,
            other=second,
            wins=sum(a.won for a, _ in apart),
            others=sum(b.won for _, b in apart),
        ),
        t(
            "As partners: {matches}, {wins} won",
            matches=t.ngettext("{n} match", "{n} matches", len(together)),
            wins=sum(a.won for a, _ in together),
        ),
    ]
    embed.description = "\n".join(lines)
    last = []
    for mine_line, theirs_line, same in meetings[:LAST_RESULTS]:
        when = f"<t:{int(mine_line.finished_at)}:d>"
        game = variant_name(mine_line.variant, t)
        if same:
            text = t("Partners, won") if mine_line.won else t("Partners, lost")
        elif mine_line.won:
            text = t("{name} won", name=first)
        elif theirs_line.won:
            text = t("{name} won", name=second)
        else:
            text = t("Neither won")
        last.append(f"{text} {mine_line.points}–{theirs_line.points} · {game} {when}")
    embed.add_field(
        name=t("Last meetings"),
        value="\n".join(last) or t("They have not played together yet."),
        inline=False,
    )
    if rated:
        embed.set_footer(text=rating_meaning(t))
    return embed


def _shown(row: RatingRow | None) -> str:
    """A rating by the one rule: a person with no rated match shows the start, ``1500?``."""
    return row.shown if row is not None else ratings.shown(ratings.MODEL.mu, 0)
