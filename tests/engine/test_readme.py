"""The README's engine examples run as written."""

import contextlib
import io
import re
from pathlib import Path

import pytest

README = (Path(__file__).parents[2] / "README.md").read_text()
ENGINE = README[README.index("## The engine") :]
BLOCKS = re.findall(r"```python\n(.*?)```", ENGINE, re.S)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_engine_example_runs(index):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(BLOCKS[index], f"README block {index}", "exec"), {})
    assert out.getvalue()


def test_the_build_example_prints_what_its_comments_say():
    block = next(b for b in BLOCKS if "Move.build" in b)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "README build example", "exec"), {})
    printed = out.getvalue().splitlines()
    said = [line.split("# ", 1)[1] for line in block.splitlines() if "print(" in line]
    for line, comment in zip(printed, said, strict=True):
        assert comment.endswith(line) or line in comment, (line, comment)
