"""The commands the bot's errors suggest work where the reader stands: the token error's
way to try the bot without a token and the preview's missing-extra error name the venv's
own pip and Python (``.venv/bin/pip …``, ``.venv/bin/python …``, as the README's two
commands do), not a bare ``python`` that is the system's and fails with a traceback."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import bot.preview
from bot.config import ConfigError, load_config
from bot.shell import pip_command, preview_command, python_command

README_LIKE = ".venv/bin/pip install -q -e '.[preview]' && .venv/bin/python -m bot --preview"


def a_venv(root: Path, *, pip: bool = True) -> Path:
    """A folder with a ``.venv/bin/python`` (and ``pip``) in it: the interpreter's path."""
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").touch()
    if pip:
        (bin_dir / "pip").touch()
    return bin_dir / "python"


def test_the_venv_is_named_from_the_folder_that_holds_it(tmp_path: Path) -> None:
    python = str(a_venv(tmp_path))
    assert python_command(python, tmp_path) == ".venv/bin/python"
    assert pip_command(python, tmp_path) == ".venv/bin/pip"
    assert preview_command(python, tmp_path) == README_LIKE
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert python_command(python, elsewhere) == python  # from elsewhere: the whole path
    assert pip_command(python, elsewhere) == str(tmp_path / ".venv" / "bin" / "pip")


def test_without_a_pip_beside_python_pip_is_run_through_it(tmp_path: Path) -> None:
    python = str(a_venv(tmp_path, pip=False))
    assert pip_command(python, tmp_path) == ".venv/bin/python -m pip"


def test_the_python_named_runs_the_bot_from_here() -> None:
    """Not a string compare only: the command, run from this folder, imports the bot."""
    command = [*shlex.split(python_command()), "-c", "import bot.client"]
    assert subprocess.run(command, cwd=Path.cwd(), check=False).returncode == 0


def test_the_token_error_suggests_the_preview_from_the_venv(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "executable", str(a_venv(tmp_path)))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as raised:
        load_config({})
    assert f"`{README_LIKE}`" in str(raised.value)


def test_the_previews_missing_extra_names_the_venvs_pip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "executable", str(a_venv(tmp_path)))
    monkeypatch.chdir(tmp_path)
    found = bot.preview.importlib.util.find_spec
    monkeypatch.setattr(
        bot.preview.importlib.util,
        "find_spec",
        lambda name: None if name == "simcord" else found(name),
    )
    with pytest.raises(bot.preview.PreviewUnavailable) as raised:
        bot.preview.check_preview_installed()
    assert str(raised.value) == (
        f"--preview needs simcord: install them and start it with `{README_LIKE}`"
    )


@pytest.mark.parametrize("has_venv", [True, False])
def test_the_bot_run_by_a_python_without_its_packages_says_which_to_use(
    tmp_path: Path, has_venv: bool
) -> None:
    """``python -m bot`` in the system's Python (no discord.py, no aiohttp) is one line,
    not a traceback: the venv's Python when there is one here, else the README's line."""
    if has_venv:
        a_venv(tmp_path)
    without_aiohttp = (
        "import runpy, sys; sys.modules['aiohttp'] = None; sys.argv = ['bot'];"
        " runpy.run_module('bot', run_name='__main__', alter_sys=True)"
    )
    root = Path(__file__).resolve().parents[2]
    ran = subprocess.run(
        [sys.executable, "-c", without_aiohttp],
        cwd=tmp_path,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 1 and "Traceback" not in ran.stderr
    (line,) = ran.stderr.splitlines()
    assert line.startswith("error: aiohttp is not installed for ")
    if has_venv:
        assert line.endswith("run it with `.venv/bin/python -m bot` (see README.md).")
    else:
        readme = (root / "README.md").read_text(encoding="utf-8")
        run = "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/python -m bot"
        assert f"\n{run}\n" in readme and f"`{run}`" in line  # the README's own line
