"""The Swedish and Finnish catalogues held to the glossary (docs/glossary.md, "Words for
the whole bot"): one word for one thing, in every message.

Each row of that table names a concept by its English words, the Swedish and Finnish words
to use (any inflection or compound: a word is found anywhere in a word, so `omgång`
covers *omgången* and `ottelu` *vahvuuslukuottelu*) and the words not to use (found at the
start of a word: `ratad` catches *ratade*). Every translated message whose English names the
concept is checked:

- its translation uses none of the row's *not* words (every row);
- for a row marked ✓, its translation also uses one of the row's words. Rows without the
  mark are checked for their *not* words only: their English word also means other things
  (a *turn* of the table and to *turn* hints on, *game* as one game played and as a kind of
  game) or the languages say them by verbs that change with the sentence (*trail*,
  *capture*), so a word-by-word "use" check could not be exact there.

Code spans (`python -m bot verify …`) are left out of both sides (a command or a file
name is not a word of the sentence), and so are fields ({name}), which the English keeps
as "{}" (the glossary's "{} bot" is "🤖 {level} bot", a computer player).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.catalogue import translated

GLOSSARY = Path(__file__).resolve().parents[2] / "docs" / "glossary.md"
SECTION = "## Words for the whole bot"
CODES = {"Svenska": "sv", "Suomi": "fi"}
NOT_CODES = {"sv": "sv", "fi": "fi"}
CODE = re.compile(r"`[^`]*`")  # a command, a file name: not words of the sentence
FIELD = re.compile(r"\{[^}]*\}")


@dataclass(frozen=True)
class Row:
    """One concept of the glossary's table."""

    concept: str
    english: tuple[str, ...]
    use: dict[str, tuple[str, ...]]
    avoid: dict[str, tuple[str, ...]]
    exact: bool


def _words(cell: str, sep: str) -> tuple[str, ...]:
    return tuple(w.strip().lower() for w in cell.split(sep) if w.strip() and w.strip() != "—")


def _avoid(cell: str) -> dict[str, tuple[str, ...]]:
    """ "sv: giv; fi: jako (a note)" → {"sv": ("giv",), "fi": ("jako",)}."""
    cell = re.sub(r"\(.*?\)", "", cell)
    found: dict[str, tuple[str, ...]] = {}
    for part in cell.split(";"):
        code, _, words = part.partition(":")
        if code.strip() in NOT_CODES:
            found[code.strip()] = _words(words, ",")
    return found


def rows() -> list[Row]:
    """The table of the section, row by row."""
    text = GLOSSARY.read_text(encoding="utf-8").split(SECTION, 1)[1].split("\n## ", 1)[0]
    lines = [line for line in text.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    found = []
    for line in lines[2:]:
        cells = dict(zip(header, (c.strip() for c in line.strip("|").split("|")), strict=True))
        found.append(
            Row(
                concept=cells["Concept"],
                english=_words(cells["English"], ","),
                use={code: _words(cells[name], " / ") for name, code in CODES.items()},
                avoid=_avoid(cells["Not"]),
                exact="✓" in cells["Concept"],
            )
        )
    return found


def english_names(row: Row, english: str) -> bool:
    """Whether an English message names the row's concept."""
    for word in row.english:
        tail = r"(?:s|es)?\b" if word[-1].isalnum() else ""
        if re.search(rf"(?<!\w){re.escape(word)}{tail}", english, re.I):
            return True
    return False


def uses(words: tuple[str, ...], said: str, *, whole: bool = False) -> list[str]:
    """The words of ``words`` that ``said`` uses: anywhere in a word (Swedish and Finnish
    join words into compounds), or with ``whole`` only at the start of one."""
    start = r"(?<!\w)" if whole else ""
    return [w for w in words if re.search(rf"{start}{re.escape(w)}", said, re.I)]


def texts(code: str) -> list[tuple[str, str]]:
    """Every translated message: English and translation, code and fields left out."""
    found = []
    for ids, strings in translated(code):
        # a field stays "{}" in the English ("🤖 {} bot" names a computer player)
        english = FIELD.sub("{}", CODE.sub(" ", " ".join(ids)))
        found.extend((english, FIELD.sub(" ", CODE.sub(" ", said))) for said in strings)
    return found


def problems(code: str, table: list[Row]) -> list[tuple[str, str, str]]:
    """``(concept, English, translation)`` of every message not held to its row."""
    wrong = []
    for english, said in texts(code):
        for row in table:
            if not english_names(row, english):
                continue
            if uses(row.avoid.get(code, ()), said, whole=True):
                wrong.append((f"{row.concept}: a 'not' word", english, said))
            if row.exact and row.use[code] and not uses(row.use[code], said):
                wrong.append((f"{row.concept}: not its word", english, said))
    return wrong


def test_the_table_is_there_and_read_whole() -> None:
    table = rows()
    assert len(table) >= 40
    concepts = " ".join(row.concept for row in table)
    for needed in ("rematch", "replay", "rated match", "computer player", "puzzle", "seed", "bye"):
        assert needed in concepts
    assert all(row.english or row.concept.startswith("backup") for row in table)


@pytest.mark.parametrize("code", ["sv", "fi"])
def test_every_message_keeps_to_the_glossary(code: str) -> None:
    wrong = problems(code, rows())
    assert not wrong, "\n".join(map(str, wrong))


def test_the_check_finds_a_word_the_glossary_forbids() -> None:
    """The check is not empty: the translations issue 40 found are caught by it."""
    table = rows()
    rated = next(row for row in table if row.concept.startswith("rated match"))
    assert english_names(rated, "fewer than {n} rated matches")
    assert uses(rated.avoid["fi"], "arvioituja otteluita on alle 5", whole=True)
    assert not uses(rated.use["sv"], "färre än 5 ratade matcher")
    replay = next(row for row in table if row.concept.startswith("replay"))
    assert uses(replay.avoid["fi"], "Toisto: peli #3", whole=True)
    computer = next(row for row in table if row.concept.startswith("computer player"))
    assert english_names(computer, "🤖 {} bot {}")
    assert uses(computer.avoid["fi"], "🤖   botti  ", whole=True)
