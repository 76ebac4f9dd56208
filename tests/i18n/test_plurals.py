"""Every ``ngettext`` call in the bot is a plural entry of the message template.

Babel's extractor reads a call's first two strings as the singular and the plural, but
where a field of the call is itself a call (``name=seat_name(...)``) it can lose the
plural and extract the singular alone: the translations then have one form, and a count
of 2 would be said in the singular. Found so once (a ladder match lost on time); this
keeps every such call honest.
"""

from __future__ import annotations

import ast
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]


def ngettext_singulars() -> list[tuple[str, int, str]]:
    """``(file, line, singular)`` of every ``ngettext`` call with a literal singular."""
    found = []
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                first = node.args[0]
                if name == "ngettext" and isinstance(first, ast.Constant):
                    found.append((str(path.relative_to(ROOT)), node.lineno, str(first.value)))
    return found


def test_every_ngettext_message_is_a_plural_entry() -> None:
    with (ROOT / "bot" / "locales" / "kasino.pot").open("rb") as template:
        catalog = read_po(template)
    plurals = {m.id[0] for m in catalog if isinstance(m.id, tuple)}
    calls = ngettext_singulars()
    assert len(calls) > 10  # the bot says counts in many places
    missing = [(where, line, text) for where, line, text in calls if text not in plurals]
    assert not missing, f"extracted without their plural: {missing}"
