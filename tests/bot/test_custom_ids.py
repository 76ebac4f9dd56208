"""The strict parser of custom_ids and select values: what the bot makes reads back
exactly; anything else raises ``BadComponent`` and nothing else."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cogs.custom_ids import (
    MAX_ID,
    BadComponent,
    Click,
    ScoresPage,
    custom_id,
    number,
    parse_click,
    positions_mask,
    render_tag,
)


def test_what_the_bot_makes_reads_back() -> None:
    assert parse_click(custom_id("lobby", 5, "add-hard")) == Click("lobby", 5, action="add-hard")
    assert parse_click(custom_id("hand", 5, 9)) == Click("hand", 5, 9)
    assert parse_click(custom_id("card", 5, 9), ["3"]) == Click("card", 5, 9, numbers=(3,))
    take = parse_click(custom_id("take", 5, 9, 2), ["c4"])
    assert take == Click("take", 5, 9, 2, choice="capture", numbers=(4,))
    assert parse_click(custom_id("take", 5, 9, 2), ["trail"]).choice == "trail"
    pick = parse_click(custom_id("pick", 5, 9, 2), ["7", "0", "3"])
    assert pick.numbers == (0, 3, 7)
    assert parse_click(custom_id("rematch", 5)) == Click("rematch", 5)
    which = parse_click(custom_id("which", 5, 9, 2, positions_mask((0, 3, 24))), ["c1"])
    assert which == Click("which", 5, 9, 2, numbers=(1,), picked=(0, 3, 24))
    assert parse_click("k:scores:south-african:21:1").scores == ScoresPage(
        "south-african", 21, 1, False
    )
    page = parse_click(custom_id("scores", "-", 0, 2, "c")).scores
    assert page == ScoresPage(None, None, 2, True)
    old = parse_click("k:scores:mulle:50:1").scores  # from before the computers board
    assert old == ScoresPage("mulle", 50, 1, False)
    assert parse_click(custom_id("hand", MAX_ID, 0)).game == MAX_ID
    rules = parse_click(custom_id("rules", "swedish"), ["south-african"])
    assert rules == Click("rules", variant="south-african")


def test_selects_carry_a_render_tag() -> None:
    tag = render_tag()
    card = parse_click(custom_id("card", 5, 9, tag), ["3"])
    assert card == Click("card", 5, 9, numbers=(3,), render=tag)
    take = parse_click(custom_id("take", 5, 9, 2, tag), ["c4"])
    assert take == Click("take", 5, 9, 2, choice="capture", numbers=(4,), render=tag)
    assert parse_click(custom_id("pick", 5, 9, 2, tag), ["1", "0"]).numbers == (0, 1)
    which = parse_click(custom_id("which", 5, 9, 2, 6, tag), ["c0"])
    assert which == Click("which", 5, 9, 2, numbers=(0,), picked=(1, 2), render=tag)
    # selects made before the tag still read (their version says whether they are current)
    assert parse_click("k:card:5:9", ["3"]) == Click("card", 5, 9, numbers=(3,))
    assert parse_click("k:which:5:9:2:6", ["c0"]).render == ""


def test_render_tags_are_new_at_every_call() -> None:
    tags = [render_tag() for _ in range(5000)]
    assert len(set(tags)) == len(tags)
    assert all(1 <= len(tag) <= 8 and tag.isascii() and tag.isalnum() for tag in tags)
    assert all(tag == tag.lower() for tag in tags)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("k:card:5:9", ["²"]),  # passes str.isdigit()
        ("k:card:5:9", ["٣"]),
        ("k:card:5:9", ["03"]),
        ("k:card:5:9", ["25"]),
        ("k:card:5:9", ["-1"]),
        ("k:card:5:9", [" 1"]),
        ("k:card:5:9", ["1", "2"]),
        ("k:card:5:9", []),
        ("k:card:5:9", None),
        ("k:card:5:9", [1]),
        ("k:take:5:9:2", ["c²"]),
        ("k:take:5:9:2", ["c25"]),
        ("k:take:5:9:2", ["c01"]),
        ("k:take:5:9:2", ["steal"]),
        ("k:take:5:9:99", ["trail"]),
        ("k:pick:5:9:2", ["1", "1"]),
        ("k:pick:5:9:2", ["99"]),
        ("k:pick:5:9:2", ["0"] * 26),
        ("k:which:5:9:2:0", ["c0"]),  # picked nothing
        (f"k:which:5:9:2:{2**25}", ["c0"]),  # beyond the 25 positions
        ("k:which:5:9:2:6", ["c0", "c1"]),
        ("k:which:5:9:2:6", ["trail"]),
        ("k:which:5:9:2:6", ["c25"]),
        ("k:which:5:9:2", ["c0"]),
        ("k:which:5:9:2:06", ["c0"]),
        ("k:card:5:9:AB12", ["0"]),  # render tags are lowercase
        ("k:card:5:9:abcdefghi", ["0"]),  # at most 8 digits
        ("k:card:5:9:", ["0"]),
        ("k:card:5:9:ab-1", ["0"]),
        ("k:card:5:9:ab:cd", ["0"]),
        ("k:take:5:9:2:x²", ["trail"]),
        ("k:which:5:9:2:6:é", ["c0"]),
        ("k:hand:5:9:ab", None),  # buttons carry none
        ("k:hand:5:9", ["0"]),
        (f"k:hand:{'1' * 25}:1", None),  # SQLite cannot hold it
        (f"k:hand:{MAX_ID + 1}:1", None),
        ("k:hand:0:1", None),
        ("k:hand:05:1", None),
        ("k:hand:5", None),
        ("k:hand:5:1:2", None),
        ("k:lobby:5:explode", None),
        ("k:lobby:5:add-godlike", None),
        ("k:scores:nonsense:16:1", None),
        ("k:scores:-:3:1", None),
        ("k:scores:-:16:0", None),
        ("k:scores:-:16:1:x", None),
        ("k:rules:swedish", ["swedish"]),  # the variant already shown
        ("k:rules:swedish", ["bridge"]),
        ("k:rules:swedish", ["casino", "royal"]),
        ("k:rules:swedish", []),
        ("k:rules:swedish", None),
        ("k:rules:bridge", ["casino"]),
        ("k:rules:swedish:2:3", ["casino"]),
        ("k:rules", ["casino"]),
        ("k:other:1", None),
        ("x:hand:1:2", None),
        ("", None),
        (None, None),
        ("k:hand:" + "9" * 200, None),
    ],
)
def test_anything_else_is_refused(text: object, values: object) -> None:
    with pytest.raises(BadComponent):
        parse_click(text, values)


@given(
    st.text(max_size=120),
    st.one_of(st.none(), st.lists(st.text(max_size=30), max_size=30), st.integers()),
)
def test_random_input_raises_only_bad_component(text: str, values: object) -> None:
    for candidate in (text, "k:" + text, "k:take:1:1:" + text):
        with contextlib.suppress(BadComponent):  # anything else raised fails the test
            parse_click(candidate, values)


@given(st.text(max_size=25))
def test_numbers_are_plain_ascii(text: str) -> None:
    try:
        value = number(text, 10**6)
    except BadComponent:
        return
    assert text.isascii() and str(value) == text


def test_rating_boards_and_show_in_channel_buttons() -> None:
    page = parse_click(custom_id("scores", "finnish", 0, 3, "c", "r")).scores
    assert page == ScoresPage("finnish", None, 3, True, rating=True)
    assert not parse_click("k:scores:-:0:1:p").scores.rating  # from before ratings: wins
    show = parse_click(custom_id("show", "profile", 12, 34, "-")).show
    assert (show.kind, show.viewer, show.subject, show.variant) == ("profile", 12, 34, None)
    assert parse_click("k:show:versus:1:2:mulle").show.variant == "mulle"
    for forged in (
        "k:scores:-:0:1:p:x",
        "k:scores:-:0:1:p:r:extra",
        "k:show:profile:1:2",
        "k:show:profile:0:2:-",
        "k:show:profile:1:٢:-",
        "k:show:stats:1:2:-",
        "k:show:profile:1:2:nonsense",
        "k:show:profile:1:2:-:x",
    ):
        with pytest.raises(BadComponent):
            parse_click(forged)
    with pytest.raises(BadComponent):
        parse_click("k:show:profile:1:2:-", ["1"])


def test_records_custom_ids_are_strict() -> None:
    from cogs.custom_ids import HistoryPage

    replay = parse_click("k:replay:12:3:next")
    assert (replay.kind, replay.game, replay.step, replay.slot) == ("replay", 12, 3, "next")
    jump = parse_click("k:jump:12:ab1", ["40"])
    assert (jump.game, jump.step) == (12, 40)
    page = parse_click("k:history:0:-:2")
    assert page.history == HistoryPage(None, None, 2)
    pick = parse_click("k:histpick:77:swedish:1:zz", ["12"])
    assert pick.game == 12 and pick.history == HistoryPage(77, "swedish", 1)
    for forged, values in [
        ("k:replay:12:3:nexts", None),
        ("k:replay:0:3:next", None),
        ("k:replay:12:99999:next", None),
        ("k:replay:12:03:first", None),
        ("k:replay:12:3:next", ["1"]),
        ("k:replay:12:3", None),
        ("k:jump:12", ["1"]),
        ("k:jump:12:ab1", ["1", "2"]),
        ("k:jump:12:ab1", ["-1"]),
        ("k:history:0:-:0", None),
        ("k:history:0:-:1001", None),
        ("k:history:0:nope:1", None),
        ("k:history:0:-:1:x", None),
        ("k:histpick:0:-:1:zz", ["0"]),
        ("k:histpick:0:-:1", ["5"]),
        ("k:histpick:0:-:1:zz", ["٣"]),
    ]:
        with pytest.raises(BadComponent):
            parse_click(forged, values)


def test_analysis_custom_ids_are_strict() -> None:
    assert parse_click(custom_id("analyse", 12)) == Click("analyse", 12)
    page = parse_click(custom_id("review", 12, 3, 40, "c2"))
    assert (page.kind, page.game, page.seat, page.step, page.slot) == ("review", 12, 3, 40, "c2")
    assert parse_click("k:review:12:0:0:summary").step == 0
    for forged, values in [
        ("k:analyse:0", None),
        ("k:analyse:12:1", None),
        ("k:analyse", None),
        ("k:analyse:12", ["1"]),
        ("k:analyse:+12", None),
        ("k:review:12:6:1:next", None),  # six seats at most: 0-5
        ("k:review:12:0:99999:next", None),
        ("k:review:12:0:1:sideways", None),
        ("k:review:12:0:01:next", None),
        ("k:review:12:0:1", None),
        ("k:review:12:0:1:next:x", None),
        ("k:review:12:٣:1:next", None),
        ("k:review:12:0:1:next", ["1"]),
    ]:
        with pytest.raises(BadComponent):
            parse_click(forged, values)


def test_tournament_board_pages_are_strict() -> None:
    assert parse_click(custom_id("tboard", 3)) == Click("tboard", page=3)
    for forged, values in [
        ("k:tboard:0", None),
        ("k:tboard:1001", None),
        ("k:tboard:01", None),
        ("k:tboard", None),
        ("k:tboard:1:2", None),
        ("k:tboard:٣", None),
        ("k:tboard:2", ["1"]),
    ]:
        with pytest.raises(BadComponent):
            parse_click(forged, values)


def test_pages_of_ones_games_are_strict() -> None:
    """``/kasino games``'s pages (issue 43): one plain page number, no values."""
    assert parse_click(custom_id("games", 2)) == Click("games", page=2)
    for forged, values in [
        ("k:games:0", None),
        ("k:games:1001", None),
        ("k:games:01", None),
        ("k:games", None),
        ("k:games:1:2", None),
        ("k:games:-1", None),
        ("k:games:٣", None),
        ("k:games:2", ["1"]),
    ]:
        with pytest.raises(BadComponent):
            parse_click(forged, values)


def test_global_board_pages_are_strict() -> None:
    page = parse_click(custom_id("gscores", "mulle", 4, "c")).scores
    assert page == ScoresPage("mulle", None, 4, True, rating=True, everywhere=True)
    assert parse_click("k:gscores:swedish:1:p") == Click(
        "gscores", scores=ScoresPage("swedish", None, 1, False, rating=True, everywhere=True)
    )
    for forged, values in [
        ("k:gscores:-:1:p", None),  # always one game's board
        ("k:gscores:nonsense:1:p", None),
        ("k:gscores:swedish:0:p", None),
        ("k:gscores:swedish:1001:p", None),
        ("k:gscores:swedish:01:p", None),
        ("k:gscores:swedish:٣:p", None),
        ("k:gscores:swedish:1:x", None),
        ("k:gscores:swedish:1", None),
        ("k:gscores:swedish:1:p:r", None),
        ("k:gscores:swedish:1:p", ["1"]),
    ]:
        with pytest.raises(BadComponent):
            parse_click(forged, values)
