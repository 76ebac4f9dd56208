"""``python -m bot.catalogue check`` prints only its verdict: on this code one line and
nothing on stderr, and code Babel would skip (an f-string with substitutions inside a
``t(…)`` call) is named in the verdict and fails the check instead of scrolling past as
a warning before it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import catalogue


def test_check_prints_only_its_verdict() -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "bot.catalogue", "check"],
        cwd=catalogue.ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.stderr == ""
    assert ran.stdout == "every message is translated\n" and ran.returncode == 0


def test_an_f_string_in_a_catalogue_call_is_in_the_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "bot" / "mentions.py"
    source.parent.mkdir()
    source.write_text(
        'def hello(t, user):\n    return t("Hello {name}", name=f"<@{user}>")\n',
        encoding="utf-8",
    )

    def only_this() -> Iterator[Path]:
        yield source

    monkeypatch.setattr(catalogue, "ROOT", tmp_path)
    monkeypatch.setattr(catalogue, "source_files", only_this)
    monkeypatch.setattr(catalogue, "problems", lambda code: [])
    monkeypatch.setattr(catalogue, "terms_problems", lambda template=None: [])
    assert catalogue.main(["check"]) == 1
    out, err = capsys.readouterr()
    assert err == ""
    assert out == (
        "bot/mentions.py:2: an f-string with substitutions inside a catalogue call: Babel"
        " skips it (give its value as a field made outside the call)\n"
    )
    skipped: list[str] = []
    assert "Hello {name}" in [m.id for m in catalogue.extract(skipped)]  # the message stays
    assert len(skipped) == 1
