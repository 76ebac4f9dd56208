"""The practice kinds' custom_ids (cogs.learning.practice): the game kinds' fields after an owner,
read by the same strict parser; anything else is refused."""

from __future__ import annotations

import pytest

from cogs.components import known_custom_id
from cogs.custom_ids import BadComponent, parse_click


@pytest.mark.parametrize(
    ("text", "values", "expected"),
    [
        ("k:xhand:lesson:5:3", None, ("xhand", "hand", "lesson", 5, 3, None, ())),
        ("k:xcard:lesson:5:3:a1", ["2"], ("xcard", "card", "lesson", 5, 3, None, (2,))),
        ("k:xtake:puzzle:9:0:1:zz", ["c4"], ("xtake", "take", "puzzle", 9, 0, 1, (4,))),
        ("k:xpick:lesson:5:3:0:b", ["2", "0"], ("xpick", "pick", "lesson", 5, 3, 0, (0, 2))),
        ("k:xwhich:lesson:5:3:1:6:c", ["c0"], ("xwhich", "which", "lesson", 5, 3, 1, (0,))),
    ],
)
def test_practice_kinds_are_read_like_the_game_kinds(
    text: str, values: list[str] | None, expected: tuple[object, ...]
) -> None:
    click = parse_click(text, values)
    got = (click.kind, click.base, click.owner, click.game, click.version, click.card)
    assert (*got, click.numbers) == expected
    assert known_custom_id(text)


def test_a_which_keeps_its_picked_positions() -> None:
    assert parse_click("k:xwhich:lesson:5:3:1:6:c", ["c0"]).picked == (1, 2)


def test_a_take_word_is_kept() -> None:
    assert parse_click("k:xtake:lesson:5:3:1:zz", ["trail"]).choice == "trail"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("k:xcard:lesson:5:3", ["1"]),  # no render tag (there are no older formats)
        ("k:xcard:chess:5:3:a", ["1"]),  # not an owner
        ("k:xcard::5:3:a", ["1"]),
        ("k:xcard:lesson:0:3:a", ["1"]),  # id 0
        ("k:xcard:lesson:05:3:a", ["1"]),  # not a plain number
        ("k:xcard:lesson:5:3:A", ["1"]),  # not a render tag
        ("k:xcard:lesson:5:3:a", ["1", "2"]),  # one value
        ("k:xcard:lesson:5:3:a", ["25"]),  # out of range
        ("k:xhand:lesson:5:3", ["1"]),  # a button sends no values
        ("k:xhand:lesson:5", None),
        ("k:xhand:lesson:5:3:4", None),
        ("k:xtake:lesson:5:3:1:a", ["c25"]),
        ("k:xpick:lesson:5:3:1:a", ["1", "1"]),  # distinct positions
        ("k:xwhich:lesson:5:3:1:0:a", ["c0"]),  # no positions
        ("k:xlobby:lesson:5:join", None),  # not a practice kind
        ("k:xcard", ["1"]),
    ],
)
def test_anything_else_is_refused(text: str, values: list[str] | None) -> None:
    with pytest.raises(BadComponent):
        parse_click(text, values)


def test_a_finished_lessons_button() -> None:
    click = parse_click("k:learn:royal:play")
    assert (click.kind, click.variant, click.action, click.owner) == ("learn", "royal", "play", "")
    assert known_custom_id("k:learn:royal:play")


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("k:learn:chess:play", None),
        ("k:learn:royal:stop", None),
        ("k:learn:royal", None),
        ("k:learn:royal:play:1", None),
        ("k:learn:royal:play", ["1"]),
    ],
)
def test_anything_else_for_a_lesson_is_refused(text: str, values: list[str] | None) -> None:
    with pytest.raises(BadComponent):
        parse_click(text, values)
