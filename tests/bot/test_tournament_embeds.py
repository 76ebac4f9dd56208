"""The sign-up, standings and podium messages (bot.tournaments.embed) hold to Discord's
limits with the most players and the longest names, and say what they must."""

from __future__ import annotations

import discord

from bot.i18n import lang
from bot.models import GameOptions
from bot.tournaments.embed import podium_embed, settings_lines, signup_embed, standings_embed
from bot.tournaments.model import Entrant, Format, Phase, Settings, Standing

PLAYERS = 128
NAMES = {u: f"**Player_{u}** with a long name ~~x"[:32] for u in range(1, PLAYERS + 1)}


def standings() -> list[Standing]:
    return [
        Standing(
            u, u, 15 - u / 10, 15, 15 - u // 10, 1 / 3 + u / 1000, 1000 - u * 17.25, dropped=u == 2
        )
        for u in range(1, PLAYERS + 1)
    ]


def within_limits(embed: discord.Embed) -> None:
    assert len(embed) <= 6000 and len(embed.fields) <= 25
    assert all(len(field.value or "") <= 1024 for field in embed.fields)
    assert len(embed.description or "") <= 4096


def test_a_full_sign_up_fits_and_lists_in_join_order() -> None:
    entrants = [Entrant(u, NAMES[u]) for u in NAMES]
    settings = Settings(GameOptions(), cap=PLAYERS, hints=True)
    for code in ("en", "sv", "fi"):
        embed = signup_embed(3, "Friday Cup", settings, entrants, 1, Phase.SIGNUP, lang(code),
                             start_at=1_800_000_000)  # fmt: skip
        within_limits(embed)
    embed = signup_embed(3, "Friday Cup", settings, entrants, 1, Phase.SIGNUP,
                         start_at=1_800_000_000)  # fmt: skip
    text = "\n".join(f.value for f in embed.fields)
    assert "1. \\*\\*Player\\_1\\*\\*" in text  # markdown in a name is shown as typed
    assert "<t:1800000000:R>" in embed.description
    listed = [line for line in text.splitlines() if "Player" in line]
    assert [line.split(".")[0] for line in listed] == [str(i) for i in range(1, len(listed) + 1)]
    assert embed.fields[-1].value == f"… and {PLAYERS - len(listed)} more."
    empty = signup_embed(3, "Cup", settings, [], 1, Phase.SIGNUP)
    assert "Nobody yet." in empty.fields[-1].value


def test_the_standings_and_podium_fit_with_their_tiebreaks() -> None:
    lines = standings()
    for code in ("en", "sv", "fi"):
        embed = standings_embed("Cup", 3, 7, lines, NAMES, lang(code), done=60, tables=64)
        within_limits(embed)
        within_limits(podium_embed("Cup", lines, NAMES, lang(code), games=192))
    embed = standings_embed("Cup", 3, 7, lines, NAMES, done=60, tables=64)
    text = "\n".join(f.value for f in embed.fields)
    assert text.startswith("🥇 ") and "\n🥈 " in text and "\n🥉 " in text
    assert "(dropped)" in text and "opp 33%" in text and "diff +982.8" in text
    assert "… and " in embed.fields[-1].value  # 128 lines cannot all be shown
    assert "Tables finished: 60 of 64." in embed.description
    podium = podium_embed("Cup", lines, NAMES, games=192)
    assert podium.description.splitlines()[0].startswith("🥇 **")
    assert "192 games were played" in podium.description


def test_each_settings_line_starts_with_a_capital_in_every_language() -> None:
    for code in ("en", "sv", "fi"):
        for fmt in Format:
            settings = Settings(GameOptions(), format=fmt)
            for line in settings_lines(settings, lang(code)).splitlines():
                assert line[:1] == line[:1].upper(), (code, line)
