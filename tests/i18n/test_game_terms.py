"""Each game's card words, per language: docs/glossary.md's section "Each game's card words"
holds one table per language (concept, games, use, not), and the catalogues hold to it.

- Swedish and Finnish: no translation uses a word of a "not" column (word by word, its
  inflections too: "ison kasinon" is "iso kasino").
- English: every source message that names storan, lillan or a tabbe reads, through
  ``EN.for_game(variant)`` of an English-born game, in that game's words (big casino,
  little casino, sweep), unless the terms catalogue flags it as shown only in a Nordic
  game; and no text the Nordic games show takes the English-born games' words.
- The glossary's English games are :mod:`bot.terms`' families, and every variant is in it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot import catalogue, terms
from bot.engine.rules import VARIANTS, rules_for
from bot.i18n import EN, catalogue_path, lang, terms_catalogues, terms_path

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"
HEADING = "## Each game's card words"
EVERY = "every game"
TEMPLATE = [m for m in catalogue.extract() if m.id]
NORDIC = [m for m in TEMPLATE if catalogue.names_nordic_word(m)]


def _section() -> str:
    text = GLOSSARY.read_text(encoding="utf-8")
    return text.split(f"\n{HEADING}\n", 1)[1].split("\n## ", 1)[0]


def glossary() -> dict[str, list[dict[str, object]]]:
    """The section's tables: language (``### English``) → rows, each with ``concept``,
    ``games`` (variant names, or every variant), ``use`` and ``not`` (lists of words)."""
    tables: dict[str, list[dict[str, object]]] = {}
    language = ""
    for line in _section().splitlines():
        if line.startswith("### "):
            language = line[4:].strip()
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or cells[0] in ("concept", "") or set(cells[0]) <= {"-"}:
            continue
        concept, games, use, avoid = cells
        tables.setdefault(language, []).append(
            {
                "concept": concept,
                "games": list(VARIANTS) if games == EVERY else _words(games),
                "use": _words(use),
                "not": _words(avoid),
            }
        )
    return tables


def _words(cell: str) -> list[str]:
    return [
        word.strip() for word in re.sub(r"\(([^)]*)\)", r",\1", cell).split(",") if word.strip()
    ]


def word_pattern(word: str) -> re.Pattern[str]:
    """A glossary word in a text, inflected or not: each of its words as a word's start
    (``iso kasino`` finds ``ison kasinon``)."""
    parts = [re.escape(part) + r"\w*" for part in word.split()]
    return re.compile(r"\b" + r"\s+".join(parts), re.IGNORECASE)


def strings(message: object) -> list[str]:
    value = message.string  # type: ignore[attr-defined]
    return [s for s in (value if isinstance(value, tuple) else (value,)) if s]


def ids(message: object) -> list[str]:
    value = message.id  # type: ignore[attr-defined]
    return list(value) if isinstance(value, tuple) else [value]


def shown(t: object, message: object) -> list[str]:
    """What ``t`` makes of a template message (every plural form), fields left as they are."""
    if isinstance(message.id, tuple):  # type: ignore[attr-defined]
        one, many = message.id  # type: ignore[attr-defined]
        forms = [t._translations.ngettext(one, many, n) for n in (1, 2)]  # type: ignore[attr-defined]
    elif message.context:  # type: ignore[attr-defined]
        forms = [t._translations.pgettext(message.context, message.id)]  # type: ignore[attr-defined]
    else:
        forms = [t._translations.gettext(message.id)]  # type: ignore[attr-defined]
    return forms


TABLES = glossary()
LANGUAGES = {"English": "en", "Swedish": "sv", "Finnish": "fi"}


def test_the_glossary_has_a_table_per_language() -> None:
    assert set(TABLES) == set(LANGUAGES)
    for rows in TABLES.values():
        assert {row["concept"] for row in rows} == {"the 10♦", "the 2♠", "a sweep"}


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_game_has_one_word_per_concept(language: str) -> None:
    for concept in ("the 10♦", "the 2♠", "a sweep"):
        games = [g for row in TABLES[language] if row["concept"] == concept for g in row["games"]]
        assert sorted(games) == sorted(VARIANTS), (language, concept)


def test_the_english_games_are_the_terms_families() -> None:
    """An English row whose words are not the source's lists exactly the variants of one
    word family (bot/terms.py), and there is a terms catalogue for it."""
    for row in TABLES["English"]:
        families = {terms.family(game) for game in row["games"]}
        assert len(families) == 1, row
        (family,) = families
        if family is not None:
            assert terms_path("en", family).exists()
    assert {family for _, family, _ in terms_catalogues()} == set(terms.FAMILIES.values())


@pytest.mark.parametrize("language", ["Swedish", "Finnish"])
def test_no_translation_uses_a_not_word(language: str) -> None:
    code = LANGUAGES[language]
    with catalogue_path(code).open("rb") as source:
        translated = [m for m in read_po(source, locale=code) if m.id]
    found = []
    for row in TABLES[language]:
        assert row["games"] == list(VARIANTS), "Swedish and Finnish say one word in every game"
        for word in row["not"]:
            pattern = word_pattern(str(word))
            found += [
                (word, text)
                for m in translated
                for text in strings(m)
                if pattern.search(terms.FIELD.sub("", text))
            ]
    assert found == []


@pytest.mark.parametrize("language", ["Swedish", "Finnish"])
def test_each_nordic_word_message_says_the_words_to_use(language: str) -> None:
    """A translation of a message naming storan, lillan or a tabbe says that language's
    word for it (a message naming storan: ruutukymppi in Finnish, storan in Swedish)."""
    t = lang(LANGUAGES[language])
    use = {
        str(row["concept"]): [word_pattern(str(w)) for w in row["use"]] for row in TABLES[language]
    }
    concepts = {"the 10♦": r"\bstoran\b", "the 2♠": r"\blillan\b", "a sweep": r"\btabb"}
    missing = []
    for message in NORDIC:
        source = " ".join(terms.FIELD.sub("", text) for text in ids(message))
        for concept, pattern in concepts.items():
            if not re.search(pattern, source, re.IGNORECASE):
                continue
            for text in shown(t, message):
                if not any(word.search(text) for word in use[concept]):
                    missing.append((concept, text))
    assert missing == []


@pytest.mark.parametrize("variant", sorted(terms.FAMILIES))
def test_english_born_games_say_their_own_words(variant: str) -> None:
    """Every English text the bot can show for ``variant`` of a message naming a Nordic
    card word says big casino, little casino, sweep: none of the row's "not" words."""
    t = EN.for_game(variant)
    rows = [row for row in TABLES["English"] if variant in row["games"]]
    avoid = [word_pattern(str(word)) for row in rows for word in row["not"]]
    family = terms.family(variant)
    assert family is not None
    with terms_path("en", family).open("rb") as source:
        entries = {(m.id, m.context): m for m in read_po(source, locale="en") if m.id}
    leaks = []
    for message in NORDIC:
        entry = entries.get((message.id, message.context))
        assert entry is not None, f"the terms catalogue lacks {ids(message)[0]!r}"
        if terms.NORDIC_ONLY in entry.flags:
            continue
        leaks += [
            text
            for text in shown(t, message)
            if any(p.search(terms.FIELD.sub("", text)) for p in avoid)
        ]
    assert leaks == []


@pytest.mark.parametrize("variant", sorted(set(VARIANTS) - set(terms.FAMILIES)))
def test_nordic_games_keep_their_words_in_english(variant: str) -> None:
    t = EN.for_game(variant)
    rows = [row for row in TABLES["English"] if variant in row["games"]]
    avoid = [word_pattern(str(word)) for row in rows for word in row["not"]]
    for message in NORDIC:
        assert shown(t, message) == [text for text in shown(EN, message)]
        assert not [text for text in shown(t, message) if any(p.search(text) for p in avoid)]


def test_the_terms_catalogue_is_in_step_with_the_template() -> None:
    assert catalogue.terms_problems() == []


def test_glimnes_mulle_keeps_the_nordic_words_in_english() -> None:
    """A Nordic game with builds: English says storan, lillan and tabbe there (main once
    said big casino and sweep for every game with builds), as in Swedish Kasino."""
    from bot.render import item_name, sweep_word
    from bot.rules_text import RULES_TEXT

    assert "each tabbe 1" in EN.for_game("mulle-glimne")(RULES_TEXT["mulle-glimne"], target="")
    glimne, casino = rules_for("mulle-glimne"), rules_for("casino")
    assert item_name(glimne, "storan", EN) == "Storan (10♦)"
    assert item_name(glimne, "lillan", EN).startswith("Lillan (")
    assert item_name(glimne, "tabbe", EN) == "Tabbar" and sweep_word(glimne, EN) == "tabbe"
    assert item_name(casino, "storan", EN) == "Big casino (10♦)"
    assert item_name(casino, "tabbe", EN) == "Sweeps" and sweep_word(casino, EN) == "sweep"
