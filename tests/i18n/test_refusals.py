"""Every refusal of a move reads as sentences, in every language: the engine's reasons
(bot/engine, each made with ``reason("…")``) hold no colon of their own, so a refusal that
joins one into a sentence ("{card} cannot be played now: {why}.") has a single colon, never
"du äger ett bygge: du får inte lägga ut" after another."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file

from bot.i18n import lang, languages

ENGINE = Path(__file__).resolve().parents[2] / "bot" / "engine"
# the messages that join an engine reason into a sentence of their own (cogs/play/hands.py,
# cogs/common.py)
JOINS = (
    ("{card} cannot be played now: {why}.", "why"),
    (
        "⚠️ {card} can do nothing with exactly {items}: {why}. Nothing was played. Choose"
        " again below.",
        "why",
    ),
    ("{error}. Nothing was played.", "error"),
)


def engine_reasons() -> list[str]:
    """Every reason template the engine can refuse a move with."""
    found = []
    for path in sorted(ENGINE.glob("*.py")):
        for _, message, _, _ in extract_from_file("python", path, keywords={"reason": None}):
            found.append(message)
    return found


def filled(t, template: str) -> str:  # type: ignore[no-untyped-def]
    """A reason in the language ``t``, its fields filled with plain words."""
    fields = {name: "7♣" for name in re.findall(r"{(\w+)}", template)}
    return t(template, **fields)


def test_the_engine_has_reasons() -> None:
    assert len(engine_reasons()) > 30


@pytest.mark.parametrize("code", languages())
def test_no_reason_holds_a_colon_so_no_refusal_has_two(code: str) -> None:
    t = lang(code)
    for template in engine_reasons():
        why = filled(t, template)
        assert ":" not in why, (code, template, why)
        for join, field in JOINS:
            text = t(join, card="4♥", items="7♣", **{field: why})
            assert text.count(":") <= 1, (code, text)
            assert "  " not in text and not text.startswith(" "), (code, text)
