"""The rating board, a player's profile, head-to-head, and the profile's rating picture.

Pure presentation: the cog reads the rows (:mod:`bot.storage`) and hands them here. Every
text is said in a language (``t``), like :mod:`bot.render`.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import discord
from PIL import Image, ImageDraw, ImageFont

from bot.i18n import EN, Lang
from bot.models import lowest_wins
from bot.records import ratings
from bot.render import HINTED_MARK, LEVEL_NAMES, TABLE_COLOUR, variant_name
from bot.storage.records import RatingRow, ResultLine, Totals

CHART_FILE = "rating.png"
CHART_SIZE = (480, 160)
LAST_RESULTS = 5


def rating_text(mu: float, sigma: float) -> str:
    """``12.3 ± 4.1``: the ordinal (mu − 3σ) and the uncertainty (σ)."""
    return f"{mu - 3 * sigma:.1f} ± {sigma:.1f}"


def ratings_embed(
    rows: Sequence[RatingRow],
    provisional: Sequence[RatingRow],
    variant: str,
    page: int,
    pages: int,
    offset: int,
    *,
    computers: bool = False,
    names: Mapping[int, str] | None = None,
    t: Lang = EN,
) -> discord.Embed:
    """One page of a rating board, and the provisional players (fewer than
    :data:`bot.records.ratings.PROVISIONAL` rated matches) listed apart below it."""
    names = names or {}
    title = t("Kasino vs computers") if computers else t("Kasino leaderboard")
    board = t("{variant}, by rating", variant=variant_name(variant, t))
    embed = discord.Embed(title=f"{title}: {board}", colour=TABLE_COLOUR)

    def line(row: RatingRow) -> str:
        return t(
            "{name}{mark}: {wins} in {matches} ({rate}) · rating {rating}",
            name=names.get(row.user_id) or f"<@{row.user_id}>",
            mark=HINTED_MARK if row.hinted else "",
            wins=t.ngettext("{n} win", "{n} wins", row.wins),
            matches=t.ngettext("{n} match", "{n} matches", row.matches),
            rate=f"{row.win_rate:.0%}",
            rating=rating_text(row.mu, row.sigma),
        )

    lines = [f"**{offset + n + 1}.** {line(row)}" for n, row in enumerate(rows)]
    if provisional and page == 1:
        lines.append(
            t(
                "**Provisional** (fewer than {n} rated matches):",
                n=ratings.PROVISIONAL,
            )
        )
        lines += [f"• {line(row)}" for row in provisional]
    embed.description = "\n".join(lines) or t("No finished matches on this board yet.")
    footer = t("Page {page} of {pages}", page=page, pages=pages)
    footer += t(" · rating: openskill's mu − 3σ, ± σ")
    if any(row.hinted for row in (*rows, *provisional)):
        footer += t(" · {mark} some matches played with hints", mark=HINTED_MARK)
    embed.set_footer(text=footer)
    return embed


@dataclass(slots=True)
class Profile:
    """Everything a profile shows, as read from storage."""

    user_id: int
    name: str
    variant: str  # the variant whose rating is shown
    chosen: bool  # the variant was asked for (else: the favourite), stats are of it alone
    people: Totals
    computers: Totals
    rating: RatingRow | None = None
    rank: int = 0
    rated: int = 0
    computer_rating: RatingRow | None = None
    favourite: tuple[str, int] | None = None
    longest: int = 0
    current: int = 0
    last: list[ResultLine] = field(default_factory=list)
    history: list[tuple[float, float, float, float]] = field(default_factory=list)


def seat_label(seat: str, names: Mapping[int, str], t: Lang = EN) -> str:
    """A lineup seat as people read it: a person's name, or the computer's level."""
    if seat.startswith("c:"):
        level = seat[2:]
        return t("🤖 {level} bot", level=t(LEVEL_NAMES.get(level, level)))
    user = int(seat[1:])
    return names.get(user) or f"<@{user}>"


def _totals_text(totals: Totals, t: Lang, low: bool = False) -> str:
    """A person's totals in lines; ``low``: one game's where points are penalties."""
    if not totals.matches:
        return t("No matches yet.")
    rounds = max(totals.rounds, 1)
    return "\n".join(
        (
            t(
                "{wins} in {matches} ({rate})",
                wins=t.ngettext("{n} win", "{n} wins", totals.wins),
                matches=t.ngettext("{n} match", "{n} matches", totals.matches),
                rate=f"{totals.wins / totals.matches:.0%}",
            ),
            _points_text(totals, rounds, t, low),
            t(
                "Storan in {storan} of rounds, lillan in {lillan}, {aces} aces a round",
                storan=f"{totals.storan / rounds:.0%}",
                lillan=f"{totals.lillan / rounds:.0%}",
                aces=f"{totals.aces / rounds:.2f}",
            ),
        )
    )


def _points_text(totals: Totals, rounds: int, t: Lang, low: bool) -> str:
    """Points a match and tabbar a round (penalty points where the lowest wins)."""
    points = f"{totals.points / totals.matches:.1f}"
    sweeps = f"{totals.tabbar / rounds:.2f}"
    if low:
        return t(
            "{points} penalty points a match (lowest wins) · {sweeps} tabbar a round",
            points=points,
            sweeps=sweeps,
        )
    return t("{points} points a match · {sweeps} tabbar a round", points=points, sweeps=sweeps)


def _rating_line(row: RatingRow | None, rank: int, rated: int, t: Lang) -> str:
    if row is None:
        return t("Not rated yet.")
    text = t("Rating {rating}", rating=rating_text(row.mu, row.sigma))
    if rank:
        return text + t(", #{rank} of {count} in this server", rank=rank, count=rated)
    return text + t(
        " (provisional: {n} of {needed} rated matches)", n=row.matches, needed=ratings.PROVISIONAL
    )


def result_line(line: ResultLine, user_id: int, names: Mapping[int, str], t: Lang) -> str:
    """One of the last results: won or lost, the score, against whom, in which game."""
    lineup = ratings.Lineup.loads(line.lineup)
    against = ""
    if lineup is not None:
        others = [seat_label(s, names, t) for s in lineup.opponents_of(user_id)]
        against = t(" against {names}", names=t.listing(others)) if others else ""
        theirs = [s.points for s in lineup.sides if f"u{user_id}" not in s.seats]
        # the best other side: the highest, or where the lowest wins (Krypkasino) the lowest
        best = (min if lineup.lowest_wins else max)(theirs, default=0)
        score = f"{line.points}–{best}"
    else:
        score = str(line.points)
    text = t("Won {score}", score=score) if line.won else t("Lost {score}", score=score)
    mark = "✅" if line.won else "❌"
    return f"{mark} {text}{against} · {variant_name(line.variant, t)} <t:{int(line.finished_at)}:d>"


def profile_embed(profile: Profile, names: Mapping[int, str], t: Lang = EN) -> discord.Embed:
    """A player's profile (private, or shown in the channel: it holds nothing secret)."""
    embed = discord.Embed(
        title=t("{name}'s Kasino profile", name=profile.name), colour=TABLE_COLOUR
    )
    embed.description = "\n".join(
        (
            f"**{variant_name(profile.variant, t)}**: "
            + _rating_line(profile.rating, profile.rank, profile.rated, t),
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
    scope = variant_name(profile.variant, t) if profile.chosen else t("all games")
    low = profile.chosen and lowest_wins(profile.variant)
    embed.add_field(
        name=t("Against people ({scope})", scope=scope),
        value=_totals_text(profile.people, t, low),
        inline=False,
    )
    against = _totals_text(profile.computers, t, low)
    if profile.computer_rating is not None:
        row = profile.computer_rating
        against += "\n" + t("Rating {rating}", rating=rating_text(row.mu, row.sigma))
    embed.add_field(name=t("Against computers ({scope})", scope=scope), value=against, inline=False)
    lines = [result_line(line, profile.user_id, names, t) for line in profile.last]
    embed.add_field(
        name=t("Last results"), value="\n".join(lines) or t("No matches yet."), inline=False
    )
    if profile.history:
        embed.set_image(url=f"attachment://{CHART_FILE}")
    return embed


def versus_embed(
    one: int,
    other: int,
    meetings: Sequence[tuple[ResultLine, ResultLine, bool]],
    names: Mapping[int, str],
    t: Lang = EN,
) -> discord.Embed:
    """Two people's matches together: against each other (wins each) and as partners."""
    first, second = names.get(one) or f"<@{one}>", names.get(other) or f"<@{other}>"
    embed = discord.Embed(
        title=t("{one} against {other}", one=first, other=second), colour=TABLE_COLOUR
    )
    apart = [(a, b) for a, b, same in meetings if not same]
    together = [(a, b) for a, b, same in meetings if same]
    embed.description = "\n".join(
        (
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
        )
    )
    lines = []
    for mine, theirs, same in meetings[:LAST_RESULTS]:
        when = f"<t:{int(mine.finished_at)}:d>"
        game = variant_name(mine.variant, t)
        if same:
            text = t("Partners, won") if mine.won else t("Partners, lost")
        elif mine.won:
            text = t("{name} won", name=first)
        elif theirs.won:
            text = t("{name} won", name=second)
        else:
            text = t("Neither won")
        lines.append(f"{text} {mine.points}–{theirs.points} · {game} {when}")
    embed.add_field(
        name=t("Last meetings"),
        value="\n".join(lines) or t("They have not played together yet."),
        inline=False,
    )
    return embed


# ------------------------------------------------------------------ the picture

LINE = (67, 160, 71, 255)  # green, readable on Discord's dark and light themes
BAND = (67, 160, 71, 60)
GRID = (128, 128, 128, 110)
INK = (128, 128, 128, 255)  # mid grey: legible on both themes


def rating_chart(history: Sequence[tuple[float, float, float, float]]) -> bytes:
    """A small PNG (transparent, :data:`CHART_SIZE`) of the shown rating (mu − 3σ) over
    the last matches, with its uncertainty (± σ, as the profile writes it) as a faint
    band around it."""
    width, height = CHART_SIZE
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image, "RGBA")
    font = ImageFont.load_default(size=13)
    if not history:
        return _png(image)
    points = [(history[0][0], history[0][1])] + [(mu, sigma) for _, _, mu, sigma in history]
    shown = [mu - 3 * sigma for mu, sigma in points]
    tops = [s + sigma for (_, sigma), s in zip(points, shown, strict=True)]
    lows = [s - sigma for (_, sigma), s in zip(points, shown, strict=True)]
    high, low = max(tops), min(lows)
    if high - low < 1:
        high, low = high + 0.5, low - 0.5
    left, right, top, bottom = 44, width - 10, 10, height - 22

    def x(i: int) -> float:
        return left + (right - left) * i / max(len(points) - 1, 1)

    def y(value: float) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    for value in (low, (low + high) / 2, high):
        draw.line([(left, y(value)), (right, y(value))], fill=GRID, width=1)
        draw.text((4, y(value) - 7), f"{value:.0f}", fill=INK, font=font)
    band = [(x(i), y(v)) for i, v in enumerate(tops)]
    band += [(x(i), y(v)) for i, v in reversed(list(enumerate(lows)))]
    draw.polygon(band, fill=BAND)
    draw.line([(x(i), y(v)) for i, v in enumerate(shown)], fill=LINE, width=3, joint="curve")
    for i, v in enumerate(shown):
        draw.ellipse([x(i) - 3, y(v) - 3, x(i) + 3, y(v) + 3], fill=LINE)
    label = f"{shown[-1]:.1f}"
    draw.text((right - draw.textlength(label, font=font), bottom + 5), label, fill=INK, font=font)
    return _png(image)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
