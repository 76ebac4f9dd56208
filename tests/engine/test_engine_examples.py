"""The engine examples of docs/development.md ("The engine") run as written."""

import contextlib
import io
import re
from pathlib import Path

import pytest

GUIDE = (Path(__file__).parents[2] / "docs" / "development.md").read_text(encoding="utf-8")
ENGINE = GUIDE[GUIDE.index("\n## The engine\n") :]
BLOCKS = re.findall(r"```python\n(.*?)```", ENGINE, re.S)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_engine_example_runs(index):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(BLOCKS[index], f"docs/development.md block {index}", "exec"), {})
    assert out.getvalue()


def test_the_build_example_prints_what_its_comments_say():
    block = next(b for b in BLOCKS if "Move.build" in b)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "docs/development.md build example", "exec"), {})
    printed = out.getvalue().splitlines()
    said = [line.split("# ", 1)[1] for line in block.splitlines() if "print(" in line]
    for line, comment in zip(printed, said, strict=True):
        assert comment.endswith(line) or line in comment, (line, comment)
