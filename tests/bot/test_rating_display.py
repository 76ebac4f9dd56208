"""What players read of ratings and records, without Discord: the shown scale and its
meaning by openskill's own prediction, the one rule for rated / provisional / not rated,
numbers and dates in each language, Krypkasino's penalty figures, named results and
history lines, and the rating picture at 1× on both of Discord's themes."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.i18n import lang
from bot.records import chart, ratings
from bot.records.profile import (
    Placed,
    Tally,
    rating_line,
    ratings_embed,
    result_line,
    totals_text,
    versus_embed,
)
from bot.records.replays import history_line, history_option_label
from bot.storage import HistoryRow
from bot.storage.records import RatingRow, ResultLine, Totals

EN, SV, FI = lang("en"), lang("sv"), lang("fi")
NBSP = "\xa0"


def mu_of(points: float) -> float:
    """The mean whose shown rating is ``points``."""
    return ratings.MODEL.mu + (points - ratings.START) / ratings.SCALE


@pytest.mark.parametrize("sigma", [1.0, 1.5, 2.0])
@pytest.mark.parametrize("lower", [1300, 1500, 1800])
def test_200_points_apart_is_about_three_wins_in_four(sigma: float, lower: int) -> None:
    model = ratings.MODEL
    high = model.rating(mu=mu_of(lower + 200), sigma=sigma)
    low = model.rating(mu=mu_of(lower), sigma=sigma)
    assert ratings.points(high.mu) - ratings.points(low.mu) == 200
    chance = model.predict_win([[high], [low]])[0]
    assert 0.72 <= chance <= 0.78, chance


def test_the_shown_scale() -> None:
    assert ratings.points(ratings.Rating().mu) == 1500 == ratings.START
    assert ratings.points(-50.0) == 0  # never below zero: no "rating −1.7"
    assert ratings.points(float("nan")) == 1500
    assert ratings.spread(25 / 3) == 400 and ratings.spread(1.0) == 48


def test_one_rule_for_rated_provisional_and_not_rated() -> None:
    standing = ratings.standing
    assert standing(0) is ratings.Standing.UNRATED
    assert {standing(n) for n in range(1, 5)} == {ratings.Standing.PROVISIONAL}
    assert standing(5) is standing(40) is ratings.Standing.RATED
    assert ratings.shown(mu_of(1480), 2) == "1480?"
    assert ratings.shown(mu_of(1480), 5) == "1480"
    assert ratings.shown(mu_of(1480), 0) == "1500?"  # nobody is rated before a match
    row = RatingRow(1, mu_of(1620), 3.0, 4, 3)
    assert row.shown == "1620?" and row.standing is ratings.Standing.PROVISIONAL
    # the profile says the same, and never "not rated" beside a number
    line = rating_line(Placed(row, 3, 12), EN)
    assert line == "Rating 1620? (provisional: 4 of 5 rated matches), #3 of 12 in this server"
    settled = rating_line(Placed(RatingRow(1, mu_of(1700), 1.5, 9, 6), 1, 12), EN)
    assert settled == "Rating 1700, #1 of 12 in this server"
    assert rating_line(Placed(), EN) == "No rated matches yet."


def test_a_board_page_numbers_on_and_says_what_a_rating_is() -> None:
    rows = [RatingRow(7, mu_of(1560), 2.0, 9, 5), RatingRow(8, mu_of(1610), 5.0, 2, 2)]
    embed = ratings_embed(rows, "swedish", 2, 2, 10, names={7: "anna", 8: "bjorn"}, t=EN)
    assert embed.description.splitlines() == [
        "**11.** anna: **1560** · 5 wins in 9 matches (56%)",
        "**12.** bjorn: **1610?** · 2 wins in 2 matches (100%)",
    ]
    footer = embed.footer.text
    assert footer.startswith("Page 2 of 2 · A rating starts at 1500 and moves after each")
    assert "about three matches in four" in footer and "fewer than 5 rated" in footer
    assert "openskill" not in footer and "σ" not in footer
    swedish = ratings_embed(rows, "swedish", 1, 1, 0, names={7: "anna"}, t=SV)
    assert f"(56{NBSP}%)" in swedish.description


def test_numbers_in_each_language() -> None:
    tally = Tally(scored=Totals(matches=4, wins=2, points=20, tabbar=3, rounds=12, storan=5,
                                lillan=6, aces=12))  # fmt: skip
    english = totals_text(tally, EN)
    assert english.splitlines() == [
        "2 wins in 4 matches (50%)",
        "5.0 points a match · 0.25 tabbar a round",
        "Storan in 42% of rounds, lillan in 50%, 1.00 aces a round",
    ]
    swedish = totals_text(tally, SV)
    assert "5,0 poäng per match · 0,25 tabbar per omgång" in swedish
    assert f"Storan i 42{NBSP}% av omgångarna, lillan i 50{NBSP}%, 1,00 ess per omgång" in swedish
    assert "giv" not in swedish
    finnish = totals_text(tally, FI)
    assert "5,0 pistettä ottelussa · 0,25 mökkiä kierroksessa" in finnish
    assert f"42{NBSP}% kierroksista" in finnish and "jao" not in finnish


def test_krypkasino_figures_are_penalties() -> None:
    kryp = Totals(matches=2, wins=0, points=30, tabbar=1, rounds=6, storan=2, lillan=3, aces=6)
    only = totals_text(Tally(penalties=kryp), EN)
    assert only.splitlines() == [
        "0 wins in 2 matches (0%)",
        "15.0 penalty points a match, 5.0 a round (lowest wins)",
        "Penalties taken: storan in 33% of rounds, lillan in 50%, 1.00 aces and 0.17 tabbar"
        " a round",
    ]
    # beside another game's figures: each kind said apart, the penalties under their game
    both = totals_text(
        Tally(Totals(matches=1, wins=1, points=16, rounds=2), kryp), EN, "Krypkasino"
    )
    assert "16.0 points a match" in both
    assert "**Krypkasino:** 15.0 penalty points a match, 5.0 a round" in both
    swedish = totals_text(Tally(penalties=kryp), SV)
    assert "15,0 straffpoäng per match, 5,0 per omgång (lägst vinner)" in swedish
    assert f"Tagna straff: storan i 33{NBSP}% av omgångarna" in swedish


def test_results_name_every_other_side_with_its_total() -> None:
    lineup = ratings.lineup_of(
        [(0, "u1"), (1, "u2"), (2, "c:normal"), (3, "u3")], [15, 7, 3, 10], 2, lowest_wins=True
    )
    line = ResultLine(4, "krypkasino", False, 15, True, lineup.dumps(), 1_700_000_000.0)
    names = {1: "david", 2: "anna", 3: "bjorn"}
    assert result_line(line, 1, names, EN).startswith(
        "❌ Lost **15** – anna **7**, 🤖 Normal bot **3**, bjorn **10** · Krypkasino"
        " <t:1700000000:d>"
    )
    teams = ratings.lineup_of([(0, "u1"), (1, "u2"), (0, "u3"), (1, "c:hard")], [16, 12], 0)
    won = ResultLine(5, "swedish", True, 16, True, teams.dumps(), 0.0)
    assert "✅ Won **16** with bjorn – anna & 🤖 Hard bot **12** · " in result_line(
        won, 1, names, EN
    )
    # two computers of one level are told apart as the lobby named them
    bots = ratings.lineup_of([(0, "u1"), (1, "c:normal"), (2, "c:normal")], [20, 13, 9], 2)
    lost = ResultLine(6, "krypkasino", False, 20, True, bots.dumps(), 0.0)
    assert " – 🤖 Normal bot **13**, 🤖 Normal bot 2 **9** · " in result_line(lost, 1, names, EN)


def history_row() -> HistoryRow:
    seats = [
        {"name": "anna", "kind": "human", "side": 0},
        {"name": "Normal 2", "kind": "computer", "level": "normal", "side": 1},
        {"name": "bjorn", "kind": "human", "side": 2},
    ]
    summary = {"seats": seats, "scores": [15, -5, 10], "winner": 1}
    return HistoryRow(12, "krypkasino", 1_764_115_200.0, summary)  # 2025-11-26 00:00 UTC


def test_a_history_line_names_each_side_with_its_total() -> None:
    line = history_line(history_row(), EN)
    assert line == (
        "**#12** · <t:1764115200:d> · Krypkasino · anna **15**, 🤖 Normal bot 2 **−5**,"
        " bjorn **10** · 🏆 🤖 Normal bot 2"
    )


def test_a_replay_option_dates_the_match_in_the_readers_language() -> None:
    row = history_row()
    assert history_option_label(row, EN) == "#12 · Krypkasino · Nov 26, 2025"
    assert history_option_label(row, SV).endswith("26 nov. 2025")
    assert history_option_label(row, FI).endswith("26.11.2025")


def test_versus_shows_both_ratings_by_the_one_rule() -> None:
    anna = RatingRow(1, mu_of(1555), 1.8, 12, 8)
    embed = versus_embed(1, 2, [], {1: "anna", 2: "bjorn"}, EN, [("swedish", anna, None)])
    first = embed.description.splitlines()[0]
    assert first == "Rating in Swedish Kasino: anna 1555, bjorn 1500?"
    assert "1500" in embed.footer.text


def picture(history: list[tuple[float, float, float, float]], t=EN) -> Image.Image:  # type: ignore[no-untyped-def]
    return Image.open(io.BytesIO(chart.rating_chart(history, 3, t))).convert("RGBA")


def test_the_picture_reads_at_1x_on_both_themes() -> None:
    history = [(25.0, 8.3, 27.0, 7.0), (27.0, 7.0, 26.0, 6.2), (26.0, 6.2, 29.5, 5.1)]
    image = picture(history)
    # at most as wide as Discord shows an embed's picture, so it is never scaled down
    assert image.size == chart.CHART_SIZE and image.size[0] <= 400
    # text no smaller than Discord's body text, in a scalable font
    assert chart._font(chart.TEXT_PX).size >= 16
    # an opaque card (rounded: the corners let the theme through), whose ink contrasts
    # with it as strongly as body text, whichever theme is around it
    assert image.getpixel((0, 0))[3] == 0
    assert image.getpixel((200, 120))[3] == 255
    assert contrast(chart.INK, chart.CARD) >= 7 and contrast(chart.LINE, chart.CARD) >= 4.5
    for theme in ((49, 51, 56), (255, 255, 255)):
        assert contrast(chart.EDGE, theme) > 1.2 or contrast(chart.CARD, theme) > 1.2
    # the y axis is the shown scale: its numbers sit far from openskill's 25
    top = {image.getpixel((x, y))[:3] for x in range(0, 56) for y in range(40, 190)}
    assert len(top) > 2  # numbers are drawn left of the plot


@pytest.mark.parametrize("code", ["en", "sv", "fi"])
def test_the_pictures_title_fits_in_every_language(code: str) -> None:
    from PIL import ImageDraw

    t = lang(code)
    draw = ImageDraw.Draw(Image.new("RGBA", chart.CHART_SIZE))
    title = t("Rating after each rated match")
    font = chart._title_font(draw, title, chart.CHART_SIZE[0] - 24)
    assert draw.textlength(title, font=font) <= chart.CHART_SIZE[0] - 24
    assert font.size >= chart.TEXT_PX
    picture([(25.0, 8.3, 27.0, 7.0)], t)


def test_the_font_has_every_letter_of_the_languages() -> None:
    font = chart._font(chart.TEXT_PX)
    if "DejaVu" not in str(getattr(font, "path", "")):
        pytest.skip("DejaVu Sans is not installed (apt-get install fonts-dejavu-core)")
    from PIL import ImageDraw

    def ink(letter: str) -> bytes:
        image = Image.new("L", (40, 40))
        ImageDraw.Draw(image).text((5, 5), letter, font=font, fill=255)
        return image.tobytes()

    missing = ink("\uffff")  # what a letter the font lacks looks like
    for letter in "åäöÅÄÖ–−":
        assert ink(letter) != missing, letter


def contrast(one: tuple[int, ...], other: tuple[int, ...]) -> float:
    """WCAG's contrast ratio of two colours."""

    def luminance(colour: tuple[int, ...]) -> float:
        parts = [c / 255 for c in colour[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)
