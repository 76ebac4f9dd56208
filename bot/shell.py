"""Commands as a person can type them where they stand: the hints in the bot's errors
name the Python (and pip) that is running the bot, relative to the current folder when it
lives under it (``.venv/bin/python``, as the README's commands have it), so a hint copied
into the same shell runs in the same environment instead of failing with a traceback in
the system's Python.

Nothing here imports Discord: ``bot.config`` uses it before anything else is loaded.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def python_command(executable: str | None = None, cwd: Path | None = None) -> str:
    """The running interpreter as a command: ``.venv/bin/python`` from the folder that holds
    the venv, ``python`` where that is the same interpreter (a Docker image), else its
    full path."""
    path = Path(executable or sys.executable)
    here = cwd or Path.cwd()
    if not path.is_absolute():
        return str(path)
    on_path = shutil.which("python")
    if on_path is not None and Path(on_path) == path:
        return "python"
    try:
        relative = path.relative_to(here)
    except ValueError:
        return str(path)
    return str(relative) if os.sep in str(relative) else f".{os.sep}{relative}"


def pip_command(executable: str | None = None, cwd: Path | None = None) -> str:
    """pip of the running interpreter: the ``pip`` beside it (``.venv/bin/pip``), or
    ``python -m pip`` where there is none."""
    python = python_command(executable, cwd)
    path = Path(executable or sys.executable)
    if python != "python" and (path.parent / "pip").exists():
        return str(Path(python).parent / "pip")
    return f"{python} -m pip"


def preview_command(executable: str | None = None, cwd: Path | None = None) -> str:
    """Install the preview's extra and run it, as one line (the README's shape)."""
    pip, python = pip_command(executable, cwd), python_command(executable, cwd)
    return f"{pip} install -q -e '.[preview]' && {python} -m bot --preview"


def not_installed(module: str, executable: str | None = None, cwd: Path | None = None) -> str:
    """The one-line error for ``python -m bot`` run by a Python that lacks the bot's
    packages (the system's, the venv not activated): which Python to run it with."""
    here = cwd or Path.cwd()
    venv = here / ".venv" / "bin" / "python"
    python = python_command(executable, cwd)
    if venv.exists():
        advice = "run it with `.venv/bin/python -m bot`"
    else:
        advice = (
            "install it first: `python3 -m venv .venv && .venv/bin/pip install -q -e ."
            " && .venv/bin/python -m bot`"
        )
    return f"error: {module} is not installed for {python}: {advice} (see README.md)."
