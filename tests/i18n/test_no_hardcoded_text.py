"""No player-facing text outside the message catalogue.

Every string literal in the modules that talk to players is scanned: one that reads like
words for a person (a capitalised word, or words with spaces) must be a catalogue message
(the argument of ``t(…)``, ``N_(…)``, ``t.ngettext``, ``t.pgettext``, ``refuse``, a
``GameError`` or an engine ``reason``), a docstring, a log line or an internal error, or be
on the short allow-list below. A literal given as a label, placeholder, description,
content, title, name, value or text is checked even when it is one lowercase word.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(
    [
        *(ROOT / "cogs").glob("*.py"),
        ROOT / "bot" / "render.py",
        ROOT / "bot" / "rules_text.py",
        ROOT / "bot" / "turns.py",
        ROOT / "bot" / "games.py",
        ROOT / "bot" / "models.py",
        ROOT / "bot" / "ai" / "explain.py",
        ROOT / "bot" / "ai" / "explainbuilds.py",
    ]
)
# Calls whose arguments at these positions are catalogue messages (or their context).
CATALOGUE_ARGS = {
    "t": {0},
    "EN": {0},
    "N_": {0},
    "reason": {0},
    "GameError": {0},
    "ngettext": {0, 1},
    "pgettext": {0, 1},
    "refuse": {1},
}
LOGGING = {"debug", "info", "warning", "error", "exception", "critical"}
# Errors never shown to a player (a bad component is answered with a catalogue message).
INTERNAL_ERRORS = {
    "ValueError",
    "TypeError",
    "KeyError",
    "RuntimeError",
    "AssertionError",
    "BadComponent",
}
# Keywords whose literal values are shown to people (in every call, and in these calls).
SHOWN = {"label", "placeholder", "description", "content", "title", "name", "text"}
SHOWN_IN = {"add_field": {"value"}}
# Literals that look like words but are not text for a person.
ALLOWED = {
    "Kasino",  # the cog's name (get_cog), and the game's name in titles it is part of
    "ABC",  # the team letters (three teams: Krypkasino's six players in teams of two)
    "SHDC",  # the suits' order
    "KasinoButton",  # type variable bounds
    "KasinoSelect",
    "tournament organiser",  # the role (any case) that may open tournaments: looked up
}
WORDS = re.compile(r"[^\W\d_]{2,}")


def looks_like_text(text: str) -> bool:
    """Words for a person: a capitalised word, or several words."""
    if not WORDS.search(text):
        return False
    return " " in text.strip() or text.strip()[:1].isupper()


def call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def allowed_nodes(tree: ast.AST) -> set[int]:
    """The ids of every node inside a place where literals are fine."""
    fine: set[int] = set()

    def cover(node: ast.AST) -> None:
        fine.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            cover(first)  # a docstring
        if isinstance(node, ast.Call):
            name = call_name(node)
            for index in CATALOGUE_ARGS.get(name, ()):
                if index < len(node.args):
                    cover(node.args[index])
            if name in LOGGING and isinstance(node.func, ast.Attribute):
                cover(node)
            if name in INTERNAL_ERRORS:
                cover(node)
            for keyword in node.keywords:
                if keyword.arg == "custom_id":
                    cover(keyword.value)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            # slash commands' names and descriptions: translated by bot.translator
            for decorator in node.decorator_list:
                cover(decorator)
        if isinstance(node, ast.ClassDef):
            for keyword in node.keywords:
                cover(keyword)
        if isinstance(node, ast.Call) and call_name(node) == "Group":
            cover(node)  # a slash command subgroup's name and description: as decorators
        if isinstance(node, (ast.AnnAssign, ast.arg)) and node.annotation is not None:
            cover(node.annotation)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            cover(node.returns)
    return fine


def shown_literals(tree: ast.AST) -> set[int]:
    """Literals given directly as a shown keyword (``label="…"``)."""
    shown: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg in SHOWN | SHOWN_IN.get(call_name(node), set()):
                    value = keyword.value
                    parts = value.values if isinstance(value, ast.JoinedStr) else [value]
                    shown.update(id(p) for p in parts if isinstance(p, ast.Constant))
    return shown


def hard_coded(path: Path) -> list[str]:
    """The player-facing literals of a module that are not in the catalogue."""
    tree = ast.parse(path.read_text(), filename=str(path))
    fine = allowed_nodes(tree)
    shown = shown_literals(tree)
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        if id(node) in fine or node.value in ALLOWED:
            continue
        if looks_like_text(node.value) or (id(node) in shown and WORDS.search(node.value)):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_player_facing_text_outside_the_catalogue(path: Path) -> None:
    assert hard_coded(path) == []


def test_the_check_finds_a_hard_coded_label(tmp_path: Path) -> None:
    module = tmp_path / "view.py"
    module.write_text(
        "def view(t):\n"
        "    add(label='Join', custom_id='k:join')\n"
        "    add(label=t('Leave'))\n"
        "    send(f'Game over: {name} won')\n"
        "    log.info('game %s: started', 1)\n"
        "    raise ValueError('not a card')\n"
        "    add(placeholder='choose')\n"
    )
    ROOT_file = module.relative_to(tmp_path)
    found = [line.split(": ", 1)[1] for line in _scan(module, tmp_path)]
    assert found == ["'Join'", "'Game over: '", "'choose'"], ROOT_file


def _scan(path: Path, root: Path) -> list[str]:
    global ROOT
    saved, ROOT = ROOT, root
    try:
        return sorted(hard_coded(path), key=lambda line: int(line.split(":")[1]))
    finally:
        ROOT = saved


def test_engine_refusals_are_catalogue_messages() -> None:
    """Every ``IllegalMove`` the engine raises carries a :func:`reason` (a message id),
    and no ``explain`` returns a bare sentence."""
    found = []
    for path in sorted((ROOT / "bot" / "engine").glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and call_name(node) == "IllegalMove":
                arg = node.args[0] if node.args else None
                if isinstance(arg, (ast.Constant, ast.JoinedStr)):
                    found.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.FunctionDef) and (
                "explain" in node.name or "message" in node.name
            ):
                for inner in ast.walk(node):
                    value = inner.value if isinstance(inner, ast.Return) else None
                    if isinstance(value, (ast.Constant, ast.JoinedStr)) and value.value is not None:
                        found.append(f"{path.name}:{inner.lineno}")
    assert found == []
