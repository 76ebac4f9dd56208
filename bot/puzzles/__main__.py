"""``python -m bot.puzzles build``: make the built-in puzzle set (bot/puzzles/builtin.json)."""

from __future__ import annotations

import sys

from .builtin import PATH, build


def main(argv: list[str]) -> int:
    """Run the command; the exit code."""
    if argv != ["build"]:
        print("usage: python -m bot.puzzles build", file=sys.stderr)
        return 2
    build()
    print(f"wrote {PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
