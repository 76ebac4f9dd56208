"""The bot's languages: one gettext message catalogue per language, read with Babel.

The catalogues are plain ``.po`` files, ``bot/locales/<code>/LC_MESSAGES/kasino.po``
(``bot/locales/kasino.pot`` is the template), so a translator needs no Python and a new
language is a new file. English is the source language: its texts are the message ids in
the code, so it has no catalogue of its own. A ``.po`` file is compiled in memory when first
used (Babel's ``read_po`` and ``write_mo``), so a fresh clone needs no build step.

Numbers and dates are written the language's way through Babel (:meth:`Lang.decimal`,
:meth:`Lang.percent`, :meth:`Lang.date`), wherever Discord's ``<t:…>`` markup cannot go.

A game's card words (storan, big casino, ruutukymppi…) come from the game and the reader's
language: :meth:`Lang.for_game` lays the language's *terms catalogue* for that game's word
family (``kasino@<family>.po``, see :mod:`bot.terms`) over its catalogue.

Messages are ``str.format`` templates with named fields (``"{name} wins {score} to
{others}"``). The code marks them for extraction with ``t("…")`` (translate now),
``t.ngettext("…", "…", n)`` (plurals: the count is the field ``{n}``), ``t.pgettext(ctx,
"…")`` (a short word that needs a context) and ``N_("…")`` (a constant translated later).
"""

from __future__ import annotations

import datetime
import functools
import gettext
import hashlib
import io
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_datetime
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

from bot import terms
from bot.engine import Build, Card, Joined, Reason

LOCALES = Path(__file__).parent / "locales"
DOMAIN = "kasino"
DEFAULT = "en"
MINUS = "\u2212"  # the minus sign of negative numbers the bot writes


def N_(message: str) -> str:
    """Mark a constant for the catalogue; it is translated where it is shown."""
    return message


def catalogue_path(code: str) -> Path:
    """Where the catalogue of language ``code`` lives."""
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def terms_path(code: str, family: str) -> Path:
    """Where the terms catalogue of language ``code`` for a word family lives (a name
    :func:`languages` does not take for a language)."""
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}@{family}.po"


def terms_catalogues() -> list[tuple[str, str, Path]]:
    """Every terms catalogue there is: ``(language, family, path)``."""
    found = []
    for path in sorted(LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}@*.po")):
        found.append((path.parent.parent.name, path.stem.partition("@")[2], path))
    return found


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages the bot speaks: English, then every language with a catalogue."""
    found = sorted(p.parent.parent.name for p in LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (DEFAULT, *(code for code in found if code != DEFAULT))


def native_name(code: str, *, in_sentence: bool = False) -> str:
    """A language's name in itself, from Babel's locale data, so a new language needs no
    code: capitalised as in a menu (``Svenska``, ``Suomi``, ``English``), or with
    ``in_sentence`` as that language writes it mid-sentence (``svenska``, ``suomi``,
    ``English``)."""
    try:
        name = Locale.parse(code).get_display_name(code) or code
    except (ValueError, UnknownLocaleError):
        name = code
    return name if in_sentence else name[:1].upper() + name[1:]


def code_of(locale: object) -> str:
    """The language the bot speaks for a Discord locale (``"sv-SE"`` → ``"sv"``,
    ``"fi"`` → ``"fi"``), or English for one it does not speak."""
    text = str(getattr(locale, "value", locale) or "")
    base = text.replace("_", "-").split("-")[0].lower()
    return base if base in languages() else DEFAULT


def _compiled(code: str) -> gettext.NullTranslations:
    """The catalogue of ``code`` as gettext translations (compiled in memory; fuzzy and
    untranslated entries fall back to English)."""
    if code == DEFAULT:
        return gettext.NullTranslations()
    return _compiled_file(catalogue_path(code), code)


def _compiled_file(path: Path, code: str) -> gettext.GNUTranslations:
    """One ``.po`` file as gettext translations, compiled in memory."""
    with path.open("rb") as source:
        catalogue = read_po(source, locale=code, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def catalogue_digest() -> str:
    """A digest of every catalogue (the command set's localizations change with them)."""
    digest = hashlib.sha256()
    for code in languages()[1:]:
        digest.update(code.encode() + catalogue_path(code).read_bytes())
    return digest.hexdigest()


class Lang:
    """One language: translate a message and fill in its fields."""

    def __init__(
        self, code: str, translations: gettext.NullTranslations, *, base: Lang | None = None
    ) -> None:
        self.code = code
        self._translations = translations
        self._base = base  # the language's own Lang, when this one is a game's words

    def __repr__(self) -> str:
        return f"Lang({self.code!r})"

    def for_game(self, variant: str | None) -> Lang:
        """This language as the players of ``variant`` speak it: its card words from the
        game's terms catalogue where the language has one (English Casino says big casino,
        little casino, sweep), else this language unchanged. ``None``: no game known."""
        base = self._base or self
        family = terms.family(variant)
        if family is None:
            return base
        return _game_lang(base, family)

    def __call__(self, message: str, /, **fields: Any) -> str:
        """``message`` in this language, with its fields filled in."""
        return self._translations.gettext(message).format(**fields)

    def ngettext(self, singular: str, plural: str, n: int, /, **fields: Any) -> str:
        """The form of a message for the count ``n`` (also the field ``{n}``)."""
        return self._translations.ngettext(singular, plural, n).format(n=n, **fields)

    def pgettext(self, context: str, message: str, /, **fields: Any) -> str:
        """A message that needs a context to be translated (a lone word, a command name)."""
        return self._translations.pgettext(context, message).format(**fields)

    def decimal(self, value: float, digits: int = 1) -> str:
        """``value`` with ``digits`` decimals, as the language writes it (``5.0``, ``5,0``);
        below zero with a true minus sign (``−5,0``), as the bot's signed items are."""
        pattern = "#,##0" + ("." + "0" * digits if digits else "")
        text = format_decimal(abs(value), format=pattern, locale=self.code)
        return MINUS + text if round(value, digits) < 0 else text

    def percent(self, fraction: float) -> str:
        """A fraction as a whole percentage (``42%``, ``42 %``)."""
        return format_percent(fraction, locale=self.code)

    def signed(self, points: int) -> str:
        """Points with their sign: ``+3``, ``−5`` (a minus sign, not a hyphen), ``0``."""
        return f"+{points}" if points > 0 else f"{MINUS}{-points}" if points < 0 else "0"

    def date(self, timestamp: float, *, time: bool = False) -> str:
        """A moment (seconds since the epoch, UTC) as a date the language writes
        (``Nov 26, 2026``, ``26 nov. 2026``, ``26.11.2026``), with the time if asked: for
        a select option or a picture, where Discord's ``<t:…>`` markup is not shown."""
        moment = datetime.datetime.fromtimestamp(timestamp, datetime.UTC)
        if time:
            return format_datetime(moment, "short", tzinfo=datetime.UTC, locale=self.code)
        return format_date(moment, "medium", locale=self.code)

    def listing(self, items: Iterable[str], word: str = "and") -> str:
        """``A, B and C`` (``word``: ``"and"`` or ``"or"``)."""
        items = list(items)
        if len(items) <= 1:
            return "".join(items)
        joiner = self.pgettext("list", "and") if word == "and" else self.pgettext("list", "or")
        return f"{', '.join(items[:-1])} {joiner} {items[-1]}"

    def reason(self, reason: Reason, card: Callable[[Card], str] = str) -> str:
        """An engine refusal in this language, its cards written with ``card``."""
        fields = {key: self._field(value, card) for key, value in reason.params.items()}
        return self(reason.template, **fields)

    def _field(self, value: object, card: Callable[[Card], str]) -> str:
        if isinstance(value, Card):
            return card(value)
        if isinstance(value, Build):
            groups = " | ".join(" ".join(card(c) for c in group) for group in value.groups)
            return f"[{value.value}: {groups}]"
        if isinstance(value, Joined):
            parts = [self._field(item, card) for item in value]
            word = value.sep.strip()
            if word in ("and", "or"):
                joiner = self.pgettext("list", word)
                return f" {joiner} ".join(parts)
            return value.sep.join(parts)
        return str(value)


def lang(code: str = DEFAULT) -> Lang:
    """The language ``code`` (a Discord locale is accepted too; English if unknown)."""
    return _lang(code_of(code))


@functools.cache
def _lang(code: str) -> Lang:
    """One :class:`Lang` per spoken language: ``"sv"`` and ``"sv-SE"`` share a compiled
    catalogue."""
    return Lang(code, _compiled(code))


@functools.cache
def _game_lang(base: Lang, family: str) -> Lang:
    """``base`` with its terms catalogue for ``family`` laid over it (``base`` itself when
    the language has none: Swedish and Finnish say the same words in every game)."""
    path = terms_path(base.code, family)
    if not path.exists():
        return base
    words = _compiled_file(path, base.code)
    words.add_fallback(base._translations)  # every other message: the language's own
    return Lang(base.code, words, base=base)


def lang_of(locale: object) -> Lang:
    """The language for a Discord locale (``interaction.locale``, ``guild_locale``)."""
    return lang(code_of(locale))


EN = lang(DEFAULT)
