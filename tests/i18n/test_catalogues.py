"""The message catalogues: every message of the code in every language, formatting without
errors for sample values (plural forms too), the engine's refusals, and the locales."""

from __future__ import annotations

import string

import discord
import pytest

from bot import catalogue
from bot.engine import Card, IllegalMove, Move, Round, parse_cards, rules_for
from bot.i18n import EN, code_of, lang, lang_of, languages, native_name
from bot.render import item_name, plain, sweep_word

OTHERS = [code for code in languages() if code != "en"]
TEMPLATE = list(catalogue.extract())
MESSAGES = [m for m in TEMPLATE if m.id]


def fields(text: str) -> set[str]:
    """The named fields of a ``str.format`` template."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def sample(names: set[str]) -> dict[str, object]:
    return {name: f"<{name}>" for name in names}


def test_the_bot_speaks_swedish_finnish_and_english() -> None:
    assert set(languages()) == {"en", "sv", "fi"}


@pytest.mark.parametrize("code", OTHERS)
def test_every_message_is_translated(code: str) -> None:
    assert catalogue.problems(code) == []


def test_the_template_is_up_to_date() -> None:
    """``kasino.pot`` holds exactly the code's messages (run ``python -m bot.catalogue
    update`` after changing a message)."""
    with catalogue.TEMPLATE.open("rb") as source:
        from babel.messages.pofile import read_po

        stored = {(m.id, m.context) for m in read_po(source) if m.id}
    assert stored == {(m.id, m.context) for m in MESSAGES}


@pytest.mark.parametrize("code", languages())
def test_every_message_formats_with_sample_values(code: str) -> None:
    t = lang(code)
    checked = 0
    for message in MESSAGES:
        if message.pluralizable:
            singular, plural = message.id
            names = fields(singular) | fields(plural)
            for n in (0, 1, 2, 5, 21, 100):
                extra = sample(names - {"n"})
                text = t.ngettext(singular, plural, n, **extra)
                assert str(n) in text or "{n}" not in singular + plural, (code, message.id, n)
                assert "{" not in text, (code, message.id)
        elif message.context:
            names = fields(message.id)
            text = t.pgettext(message.context, message.id, **sample(names))
            assert text and "{" not in text.replace("{{", ""), (code, message.id)
        else:
            names = fields(message.id)
            text = t(message.id, **sample(names))
            assert text, (code, message.id)
            for name in names:  # every field the English has is said
                assert f"<{name}>" in text, (code, message.id, name)
        checked += 1
    assert checked == len(MESSAGES) > 300


@pytest.mark.parametrize("code", OTHERS)
def test_translations_use_the_same_fields(code: str) -> None:
    stored = catalogue.read(code)
    for message in MESSAGES:
        have = stored.get(message.id, context=message.context)
        ids, strings = catalogue.forms(message.id), catalogue.forms(have.string)
        wanted = set().union(*(fields(i) for i in ids))
        for text in strings:
            assert fields(text) <= wanted, (code, message.id, text)
            if not message.pluralizable:
                assert fields(text) == wanted, (code, message.id, text)


def test_plurals_in_each_language() -> None:
    sv, fi = lang("sv"), lang("fi")
    points = ("{n} point", "{n} points")
    assert [sv.ngettext(*points, n) for n in (1, 2)] == ["1 poäng", "2 poäng"]
    assert [fi.ngettext(*points, n) for n in (1, 2)] == ["1 piste", "2 pistettä"]
    assert [EN.ngettext(*points, n) for n in (1, 2)] == ["1 point", "2 points"]
    cards = ("{n} card", "{n} cards")
    assert [fi.ngettext(*cards, n) for n in (1, 7)] == ["1 kortti", "7 korttia"]
    tabbar = ("{n} tabbe", "{n} tabbar")
    assert [sv.ngettext(*tabbar, n) for n in (1, 3)] == ["1 tabbe", "3 tabbar"]
    assert [fi.ngettext(*tabbar, n) for n in (1, 3)] == ["1 mökki", "3 mökkiä"]


def test_the_games_own_words() -> None:
    swedish, finnish, casino = rules_for("swedish"), rules_for("finnish"), rules_for("casino")
    sv, fi = lang("sv"), lang("fi")
    assert sweep_word(swedish, sv) == sweep_word(finnish, sv) == "tabbe"
    assert sweep_word(finnish, fi) == sweep_word(swedish, fi) == "mökki"
    assert sweep_word(casino, EN) == "sweep"
    assert item_name(swedish, "storan", sv) == "Storan (10♦)"
    assert item_name(swedish, "lillan", sv).startswith("Lillan")
    assert item_name(swedish, "storan", fi) == "Ruutukymppi (10♦)"
    assert item_name(swedish, "lillan", fi).startswith("Patakakkonen")
    assert item_name(casino, "storan", EN) == "Big casino (10♦)"
    assert item_name(swedish, "sistan", sv) == "Sistan"


@pytest.mark.parametrize("code", ["en", "sv", "fi"])
def test_krypkasino_writes_storan_and_lillan_as_swedish_kasino_does(code: str) -> None:
    """One form: "Storan (10♦)" in the Krypkasino summary as in Swedish Kasino's, in the
    reader's words for the card ("Ruutukymppi (10♦)" in Finnish), not "Storan 10♦"."""
    kryp, swedish, t = rules_for("krypkasino"), rules_for("swedish"), lang(code)
    for key, card in (("storan", "(10♦)"), ("lillan", "(2♠\ufe0e)")):
        assert item_name(kryp, key, t) == item_name(swedish, key, t)
        assert item_name(kryp, key, t).endswith(" " + card)


@pytest.mark.parametrize(
    ("locale", "code"),
    [
        ("sv-SE", "sv"),
        (discord.Locale.swedish, "sv"),
        ("fi", "fi"),
        (discord.Locale.finnish, "fi"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("de", "en"),
        (None, "en"),
        ("", "en"),
    ],
)
def test_discord_locales(locale: object, code: str) -> None:
    assert code_of(locale) == code
    assert lang_of(locale).code == code


def refusal(rules: str, hands: str, table: str, move: Move) -> IllegalMove:
    hand = [parse_cards(h) for h in hands.split("|")]
    game = Round.from_position(rules_for(rules), hand, parse_cards(table), to_move=0)
    with pytest.raises(IllegalMove) as caught:
        game.play(move)
    return caught.value


def test_engine_refusals_keep_their_english_and_translate() -> None:
    error = refusal("swedish", "9H 2C|3S", "4S 3C", Move(Card.parse("9H"), parse_cards("3C 4S")))
    assert str(error) == "3C + 4S do not make 9"
    assert error.reason.template == "{taken} do not make {values}"
    assert EN.reason(error.reason) == str(error)
    assert lang("sv").reason(error.reason, plain) == "3♣\ufe0e + 4♠\ufe0e blir inte 9"
    assert lang("fi").reason(error.reason, plain) == "3♣\ufe0e + 4♠\ufe0e ei tee 9"
    ace = refusal("swedish", "AH 2C|3S", "4S 3C", Move(Card.parse("AH"), parse_cards("4S 3C")))
    assert str(ace) == "3C + 4S do not make 1 or 14"
    assert lang("sv").reason(ace.reason) == "3C + 4S blir inte 1 eller 14"
    assert lang("fi").reason(ace.reason) == "3C + 4S ei tee 1 tai 14"
    gone = refusal("swedish", "9H|3S", "4S", Move(Card.parse("KD")))
    assert str(gone) == "KD is not in your hand"
    assert lang("fi").reason(gone.reason, plain) == "K♦ ei ole kädessäsi"


def test_building_refusals_translate() -> None:
    # seat 0 owns an 8-build: it may not trail
    rules = rules_for("casino")
    game = Round.from_position(
        rules, [parse_cards("3C 8H 2D"), parse_cards("8D 2S")], parse_cards("5H"), to_move=0
    )
    game.play(Move.build(Card.parse("3C"), parse_cards("5H"), 8))
    game.play(Move(Card.parse("2S")))
    with pytest.raises(IllegalMove) as caught:
        game.play(Move(Card.parse("2D")))
    assert str(caught.value) == "you own a build, so you cannot trail"
    assert lang("sv").reason(caught.value.reason) == "du äger ett bygge, så du får inte lägga ut"
    assert lang("fi").reason(caught.value.reason).startswith("sinulla on rakennelma")


def test_each_language_is_named_in_itself() -> None:
    assert [native_name(code) for code in ("en", "sv", "fi")] == ["English", "Svenska", "Suomi"]
    assert native_name("no") == "Norsk"  # a new language needs no code for its name


@pytest.mark.parametrize(
    ("code", "decimal", "percent", "date"),
    [
        ("en", "−5.0", "42%", "Jan 15, 2027"),
        ("sv", "−5,0", "42\xa0%", "15 jan. 2027"),
        ("fi", "−5,0", "42\xa0%", "15.1.2027"),
    ],
)
def test_numbers_and_dates_in_each_language(
    code: str, decimal: str, percent: str, date: str
) -> None:
    """Decimals, percentages and dates as each language writes them (Babel), with a true
    minus sign below zero."""
    t = lang(code)
    assert t.decimal(-5.04) == decimal
    assert t.decimal(1.75, 2) == decimal.replace("−5", "1").replace("0", "75")
    assert t.percent(0.425) == percent
    assert t.date(1_800_000_000) == date
    assert t.signed(-3) == "−3" and t.signed(4) == "+4" and t.signed(0) == "0"
