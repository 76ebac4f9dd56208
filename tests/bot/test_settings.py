"""One source of truth for the settings: every environment variable the code reads is in
``bot.config.SETTINGS`` (found in the code itself, so a new one cannot be forgotten), and
``.env.example`` and the settings table of docs/admin.md name each with the same default."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot import config
from bot.ai.hard import DEFAULT_BUDGET_MS
from bot.config import SETTINGS, load_config

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_ONLY = {"POSTGRES_PASSWORD"}  # read by compose.yaml, not by the bot
NO_DEFAULT = ("none", "required", "all of them")


def names_read_in_config() -> set[str]:
    """Every setting name config.py passes to a reader of ``env`` (``env.get``, ``env[…]``,
    ``_raw``, ``_int``, ``_float``, ``_switch``…): the upper-case string constants among
    the arguments of calls and subscripts that involve ``env``."""
    tree = ast.parse((ROOT / "bot" / "config.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            parts = [node.func, *node.args]
        elif isinstance(node, ast.Subscript):
            parts = [node.value, node.slice]
        else:
            continue
        if not any(isinstance(n, ast.Name) and n.id == "env" for p in parts for n in ast.walk(p)):
            continue
        for part in parts:
            text = part.value if isinstance(part, ast.Constant) else None
            if isinstance(text, str) and re.fullmatch(r"[A-Z][A-Z0-9_]+", text):
                found.add(text)
    return found


def env_example() -> dict[str, tuple[str, str]]:
    """``.env.example``'s settings: name -> (first value written, the comments above it)."""
    out: dict[str, tuple[str, str]] = {}
    comments: list[str] = []
    for line in (ROOT / ".env.example").read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"#?\s*([A-Z][A-Z0-9_]+)=(.*)", line.strip())
        if match:
            out.setdefault(match[1], (match[2].strip(), " ".join(comments)))
        elif line.startswith("#"):
            comments.append(line.lstrip("# "))
            continue
        comments = []
    return out


def settings_table() -> dict[str, str]:
    """The settings table of docs/admin.md (the admin's guide): name -> its default cell."""
    text = (ROOT / "docs" / "admin.md").read_text(encoding="utf-8")
    section = text.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    return {
        match[1]: match[2].strip()
        for match in re.finditer(r"^\| `([A-Z][A-Z0-9_]+)` \| ([^|]*) \|", section, re.M)
    }


def test_every_setting_the_code_reads_is_registered() -> None:
    read = names_read_in_config()
    assert {"DISCORD_TOKEN", "TURN_SECONDS", "CARD_FACES", "SHARD_IDS"} <= read  # the scan works
    assert read == set(SETTINGS)


def test_only_config_reads_the_environment() -> None:
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name == "config.py" and path.parent.name == "bot":
                continue
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"os\.environ|getenv\(", text), f"{path} reads the environment"


def test_a_setting_outside_the_registry_cannot_be_read() -> None:
    with pytest.raises(KeyError, match="SETTINGS"):
        config._raw({}, "NEW_SETTING")


def test_env_example_names_every_setting_with_its_default() -> None:
    example = env_example()
    assert set(example) == set(SETTINGS) | COMPOSE_ONLY
    for name, default in SETTINGS.items():
        if default is None:
            continue
        value, comments = example[name]
        assert value == default, f".env.example: {name}={value}, the default is {default}"
        if "default" in comments.lower():
            assert re.search(rf"(?<![\d.]){re.escape(default)}(?![\d.])", comments), (
                f".env.example's words on {name} give another default than {default}"
            )


def test_the_admin_guides_table_names_every_setting_with_its_default() -> None:
    table = settings_table()
    assert set(table) == set(SETTINGS)
    for name, default in SETTINGS.items():
        cell = table[name].replace("`", "")
        if default is None:
            assert cell.startswith(NO_DEFAULT), f"docs/admin.md: {name}'s default is {cell!r}"
        else:
            assert cell == default or cell.endswith(f"({default})"), (
                f"docs/admin.md: {name}'s default is {cell!r}, the code's is {default}"
            )


def test_the_registered_defaults_are_the_codes() -> None:
    """Writing each default out changes nothing: the registry is what the code does."""
    base = load_config({"DISCORD_TOKEN": "x"}, dotenv=False)
    for name, default in SETTINGS.items():
        if default is None or name == "DISCORD_TOKEN":
            continue
        spelled = load_config({"DISCORD_TOKEN": "x", name: default}, dotenv=False)
        if name == "HARD_BUDGET_MS":  # unset: the player's own budget
            assert base.hard_budget_ms is None and spelled.hard_budget_ms == DEFAULT_BUDGET_MS
        else:
            assert spelled == base, name


def test_compose_migration_line_works_as_written_in_a_shell() -> None:
    """The copy-and-paste command at the top of compose.yaml, run by the user's shell with
    nothing set: the database URL is left for the container to expand, never emptied."""
    import shutil
    import subprocess

    if shutil.which("bash") is None:
        pytest.skip("no bash")
    lines = (ROOT / "compose.yaml").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if "docker compose run" in line)
    command = ""
    for line in lines[start:]:
        part = line.lstrip("#").strip()
        command += part.removesuffix("\\") + " "
        if not part.endswith("\\"):
            break
    assert command.startswith("docker compose run") and "migrate-db" in command
    echoed = command.replace("docker compose run", "printf '%s\\n'", 1)
    out = subprocess.run(
        ["bash", "-c", echoed], env={}, capture_output=True, text=True, check=True
    ).stdout
    assert "postgresql://kasino:@" not in out, "the password was expanded (to nothing)"
    assert '--to "$KASINO_DB"' in out, out  # the container's shell expands it
