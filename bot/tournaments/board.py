"""The server's tournaments board (``/kasino tournaments``) and the profile's tournaments,
as people read them.

Presentation only, like :mod:`bot.render` (so, unlike the pairing modules of this
package, it builds a Discord embed): the cog reads the rows
(:meth:`bot.storage.Storage.tournament_board`, :meth:`~bot.storage.Storage.player_tournaments`)
and hands them here. Every text is said in a language (``t``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.i18n import EN, Lang
from bot.render import TABLE_COLOUR, mention_or_name, variant_name
from bot.storage.tournaments import PlayerTournament, TournamentBoardRow

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}  # a podium place's mark
LAST_TOURNAMENTS = 5  # how many a profile lists


def board_embed(
    rows: Sequence[TournamentBoardRow],
    page: int,
    pages: int,
    offset: int,
    *,
    names: Mapping[int, str] | None = None,
    t: Lang = EN,
) -> discord.Embed:
    """One page of the server's tournaments board, in the storage's order: by wins (first
    places), then podiums (places 1 to 3), then tournaments played."""
    names = names or {}
    embed = discord.Embed(title=t("Kasino tournaments board"), colour=TABLE_COLOUR)
    lines = [
        t(
            "**{rank}.** {name}: {wins} · {podiums} · {played}",
            rank=offset + n + 1,
            name=mention_or_name(row.user_id, names),
            wins=t.ngettext("{n} win", "{n} wins", row.wins),
            podiums=t.ngettext("{n} podium", "{n} podiums", row.podiums),
            played=t.ngettext("{n} tournament", "{n} tournaments", row.played),
        )
        for n, row in enumerate(rows)
    ]
    embed.description = "\n".join(lines) or t("No finished tournaments in this server yet.")
    footer = t("Page {page} of {pages}", page=page, pages=pages)
    footer += " · " + t("By wins (first places), then podiums (top three).")
    embed.set_footer(text=footer)
    return embed


def place_text(place: int, players: int, t: Lang = EN) -> str:
    """A final place as people read it: ``🥇 place 1 of 8``, ``place 5 of 8``."""
    medal = MEDALS.get(place)
    text = t("place {place} of {players}", place=place, players=players)
    return f"{medal} {text}" if medal else text


def tournament_line(entry: PlayerTournament, t: Lang = EN) -> str:
    """A finished tournament on a profile: place of how many, its name, game and date."""
    return t(
        "{place} · **{name}** · {variant} · {date}",
        place=place_text(entry.place, entry.players, t),
        name=discord.utils.escape_markdown(entry.name),
        variant=variant_name(entry.variant, t),
        date=t.date(entry.finished_at),
    )


def tournaments_field(entries: Sequence[PlayerTournament], t: Lang = EN) -> tuple[str, str]:
    """The profile's "Tournaments" part (name, value), for a person who played any."""
    return t("Tournaments"), "\n".join(tournament_line(entry, t) for entry in entries)
