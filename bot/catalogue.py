"""Keeping the message catalogues: extract the messages from the code, update each
language's ``.po`` file, and check that every message is translated.

    python -m bot.catalogue update   # bot/locales/kasino.pot and every .po file
    python -m bot.catalogue check    # exit 1 naming what is missing or stale

The terms catalogues (``kasino@<family>.po``, see :mod:`bot.terms`) are kept in step too:
each holds exactly the template's messages that name storan, lillan or a tabbe (new ones
added untranslated, vanished ones dropped), and ``check`` names an entry that is neither
translated nor flagged ``nordic-only`` (shown only in a Nordic game), and a stale one.

Both print only their verdict: what Babel would warn about while extracting (an f-string
with substitutions inside a ``t(…)`` call, which it skips) is part of the verdict, one
line each, and ``check`` fails on it.

A new language: ``mkdir -p bot/locales/xx/LC_MESSAGES``, copy ``kasino.pot`` there as
``kasino.po`` (set its ``Language`` and ``Plural-Forms`` headers), translate, and check.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from bot import terms
from bot.i18n import DOMAIN, LOCALES, catalogue_path, languages, native_name, terms_catalogues

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("bot", "cogs")
# The calls whose arguments are catalogue messages, in Babel's keyword notation (the
# argument numbers of the message, its plural and its context).
KEYWORDS: dict[str, object] = {
    "t": None,
    "EN": None,
    "N_": None,
    "reason": None,
    "GameError": None,
    "refuse": (2,),
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
}
TEMPLATE = LOCALES / f"{DOMAIN}.pot"


def source_files() -> Iterator[Path]:
    """The Python files whose messages the catalogue holds."""
    for folder in SOURCES:
        yield from sorted((ROOT / folder).rglob("*.py"))


def _command_strings() -> list[tuple[object, str]]:
    """The ``/kasino`` commands' strings (imported only here: the cog needs discord.py)."""
    from bot.translator import command_strings
    from cogs.kasino import Kasino

    return list(
        command_strings(
            Kasino.__cog_group_name__,
            Kasino.__cog_group_description__,
            Kasino.__cog_app_commands__,
        )
    )


def extract(skipped: list[str] | None = None) -> Catalog:
    """Every message of the code and the command tree, as a template catalogue. What
    Babel skips (it writes a warning to stderr) goes into ``skipped`` instead, one line
    each: ``bot/x.py:12: …``."""
    from bot.translator import COMMAND, Where

    catalogue = Catalog(project="kasino", domain=DOMAIN, fuzzy=False)
    for path in source_files():
        relative = path.relative_to(ROOT).as_posix()
        for line, message, comments, context in _messages_of(path, relative, skipped):
            catalogue.add(
                message, locations=[(relative, line)], auto_comments=comments, context=context
            )
    for where, text in _command_strings():
        if where is Where.choice_name:
            # each language's own name (the language setting) stays as it is everywhere
            native = {native_name(code) for code in languages()}
            if (text, None) not in _keys(catalogue) and text not in native:
                catalogue.add(text, locations=[("cogs/kasino.py", 0)])
            continue
        catalogue.add(text, locations=[("cogs/kasino.py", 0)], context=COMMAND)
    return catalogue


def _messages_of(
    path: Path, relative: str, skipped: list[str] | None
) -> list[tuple[int, str | tuple[str, ...], list[str], str | None]]:
    """The messages of one file, Babel's warnings about it caught (not printed)."""
    warnings = io.StringIO()
    with contextlib.redirect_stderr(warnings):
        found = list(extract_from_file("python", path, keywords=KEYWORDS, comment_tags=("i18n:",)))
    for warning in warnings.getvalue().splitlines():
        if skipped is not None and warning.strip():
            skipped.append(_skip_line(warning, str(path), relative))
    return found


def _skip_line(warning: str, path: str, relative: str) -> str:
    """Babel's warning as one line of the verdict, the file named from the repository."""
    where, _, text = warning.partition(": warning: ")
    where = where.replace(path, relative, 1)
    if text.startswith("Skipping f-string"):
        text = (
            "an f-string with substitutions inside a catalogue call: Babel skips it (give"
            " its value as a field made outside the call)"
        )
    return f"{where}: {text or warning}"


def _keys(catalogue: Catalog) -> set[tuple[object, str | None]]:
    return {(m.id, m.context) for m in catalogue if m.id}


def read(code: str) -> Catalog:
    """A language's catalogue."""
    with catalogue_path(code).open("rb") as source:
        return read_po(source, locale=code, domain=DOMAIN)


def update() -> list[str]:
    """Write the template and bring every language's catalogue up to date with it (new
    messages untranslated, vanished ones dropped; translations kept). Locations name the
    file without a line number, so an edit elsewhere in a file changes no catalogue.
    Returns what extraction skipped (see :func:`extract`)."""
    skipped: list[str] = []
    template = extract(skipped)
    with TEMPLATE.open("wb") as out:
        write_po(
            out, template, width=100, sort_output=False, omit_header=False, include_lineno=False
        )
    for code in languages()[1:]:
        catalogue = read(code)
        catalogue.update(template, no_fuzzy_matching=True)
        with catalogue_path(code).open("wb") as out:
            write_po(out, catalogue, width=100, ignore_obsolete=True, include_lineno=False)
    for code, _family, path in terms_catalogues():
        skipped += _update_terms(template, code, path)
    return skipped


def forms(text: str | tuple[str, ...]) -> tuple[str, ...]:
    """A catalogue message's id or string as its forms: one, or each plural form."""
    return text if isinstance(text, tuple) else (text,)


def translated(code: str) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every translated message of a language: its English forms and its translation's."""
    for message in read(code):
        if message.id and message.string:
            yield forms(message.id), forms(message.string)


def names_nordic_word(message: Message) -> bool:
    """Whether a catalogue message (either plural form) names storan, lillan or a tabbe."""
    return any(terms.names_nordic_word(text) for text in forms(message.id) if text)


def _read_terms(code: str, path: Path) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=code, domain=DOMAIN)


def _update_terms(template: Catalog, code: str, path: Path) -> list[str]:
    """Bring one terms catalogue in step with the template: exactly the messages naming a
    Nordic card word, translations and flags kept. Returns a line saying what changed."""
    old = _read_terms(code, path)
    new = Catalog(
        locale=code,
        domain=DOMAIN,
        project="kasino",
        fuzzy=False,
        creation_date=old.creation_date,  # no change of date without a change of words
    )
    new.header_comment = old.header_comment
    added = 0
    for message in template:
        if not message.id or not names_nordic_word(message):
            continue
        have = old.get(message.id, context=message.context)
        if have is None:
            added += 1
            blank = ("",) * new.num_plurals if isinstance(message.id, tuple) else ""
        new.add(
            message.id,
            string=have.string if have is not None else blank,
            locations=message.locations,
            flags=[f for f in have.flags if f != "fuzzy"] if have is not None else (),
            user_comments=have.user_comments if have is not None else (),
            context=message.context,
        )
    dropped = len(_keys(old) - _keys(new))
    with path.open("wb") as out:
        write_po(out, new, width=100, ignore_obsolete=True, include_lineno=False)
    if not added and not dropped:
        return []
    where = path.relative_to(ROOT)
    return [f"{where}: {added} new (to translate or flag nordic-only), {dropped} stale dropped"]


def terms_problems(template: Catalog | None = None) -> list[str]:
    """What the terms catalogues lack or hold too much of: a template message naming a
    Nordic card word with no entry, an entry neither translated nor flagged
    ``nordic-only``, an entry whose message is gone."""
    template = template if template is not None else extract()
    wanted = {(m.id, m.context) for m in template if m.id and names_nordic_word(m)}
    found = []
    for code, family, path in terms_catalogues():
        name = f"{code}@{family}"
        catalogue = _read_terms(code, path)
        for key in sorted(wanted - _keys(catalogue), key=str):
            found.append(f"{name}: missing: {_first(key[0])!r}")
        for key in sorted(_keys(catalogue) - wanted, key=str):
            found.append(f"{name}: stale: {_first(key[0])!r}")
        for message in catalogue:
            if not message.id or (message.id, message.context) not in wanted:
                continue
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            done = all(strings) and not message.fuzzy
            if not done and terms.NORDIC_ONLY not in message.flags:
                found.append(f"{name}: untranslated: {_first(message.id)!r}")
    return found


def _first(message_id: object) -> str:
    return message_id[0] if isinstance(message_id, tuple) else str(message_id)


def problems(code: str) -> list[str]:
    """What the catalogue of ``code`` lacks: messages of the code it does not translate."""
    catalogue = read(code)
    found = []
    for message in extract():
        if not message.id:
            continue
        have = catalogue.get(message.id, context=message.context)
        strings = have.string if have is not None else None
        texts = strings if isinstance(strings, tuple) else (strings,)
        if have is None or have.fuzzy or not all(texts):
            key = message.id if isinstance(message.id, str) else message.id[0]
            found.append(f"{code}: untranslated: {key!r}")
    return found


def main(argv: list[str]) -> int:
    """``update`` or ``check``."""
    if argv[:1] == ["update"]:
        for line in update():
            print(line)
        print(f"wrote {TEMPLATE.relative_to(ROOT)} and {len(languages()) - 1} catalogues")
        return 0
    if argv[:1] == ["check"]:
        skipped: list[str] = []
        template = extract(skipped)
        missing = [line for code in languages()[1:] for line in problems(code)]
        missing += terms_problems(template)
        print("\n".join(skipped + missing) or "every message is translated")
        return 1 if skipped or missing else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
