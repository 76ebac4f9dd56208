"""What a tournament refuses, in words, in every language."""

from __future__ import annotations

import pytest

from bot.i18n import lang, languages
from bot.models import GameOptions
from bot.tournaments.model import Format, Settings
from bot.tournaments.settings import settings_problem, table_sizes

SWEDISH = GameOptions()
KRYP = GameOptions("krypkasino", target=50)


def test_table_sizes() -> None:
    assert table_sizes(SWEDISH) == {2, 3, 4}
    assert table_sizes(GameOptions("mulle-glimne")) == {2, 4}
    assert table_sizes(KRYP) == {2, 3, 4, 5, 6}
    assert table_sizes(GameOptions("casino", teams=True)) == {4}
    assert table_sizes(GameOptions("krypkasino", target=50, teams=True)) == {4, 6}


@pytest.mark.parametrize(
    "settings",
    [
        Settings(SWEDISH),
        Settings(SWEDISH, table_size=4, rounds=15, cap=128),
        Settings(GameOptions("casino"), table_size=4),
        Settings(KRYP, Format.ROUND_ROBIN, cap=16),
        Settings(KRYP, table_size=6),
        Settings(SWEDISH, Format.KNOCKOUT, cap=2),
    ],
)
def test_what_can_be_run(settings) -> None:
    assert settings_problem(settings) == ""
    assert settings_problem(settings, settings.table_size) == ""


@pytest.mark.parametrize(
    ("settings", "players", "words"),
    [
        (Settings(GameOptions(sweeps=True)), None, "option"),  # the lobby's own check
        (Settings(SWEDISH, Format.ROUND_ROBIN, table_size=3, cap=16), None, "2-player"),
        (Settings(SWEDISH, Format.KNOCKOUT, table_size=4), None, "2-player"),
        (Settings(SWEDISH, table_size=5), None, "2, 3 or 4"),
        (Settings(GameOptions("mulle-glimne"), table_size=3), None, "2 or 4"),
        (Settings(GameOptions("casino", teams=True), table_size=2), None, "4 players"),
        (Settings(SWEDISH, Format.ROUND_ROBIN, rounds=3, cap=16), None, "Swiss"),
        (Settings(SWEDISH, rounds=0), None, "1 to 15"),
        (Settings(SWEDISH, rounds=16), None, "1 to 15"),
        (Settings(SWEDISH, round_minutes=0), None, "minutes"),
        (Settings(SWEDISH, cap=1), None, "2 to 128"),
        (Settings(SWEDISH, cap=129), None, "2 to 128"),
        (Settings(SWEDISH, Format.ROUND_ROBIN), None, "16"),
        (Settings(SWEDISH, cap=8), 9, "at most 8"),
        (Settings(SWEDISH), 1, "at least 2"),
        (Settings(SWEDISH, table_size=4), 2, "at least 3"),
        (Settings(GameOptions("mulle-glimne"), table_size=4), 3, "at least 4"),
    ],
)
def test_what_is_refused(settings, players, words) -> None:
    english = settings_problem(settings, players)
    assert words in english
    for code in languages()[1:]:
        translated = settings_problem(settings, players, lang(code))
        assert translated and translated != english, code


def test_fillers_let_a_small_field_play() -> None:
    assert settings_problem(Settings(SWEDISH, table_size=4, fillers=True), 2) == ""
