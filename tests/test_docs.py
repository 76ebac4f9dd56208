"""The README and docs/ hold to what they promise: the README's first screen is short, its
two commands are the ones that run (the test command is CI's), the invite URL's
permissions integer is the permissions it names, and every link and #anchor leads
somewhere."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]


def section(text: str, heading: str) -> str:
    """The text under ``## heading``, up to the next ``## ``."""
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def test_the_readme_is_an_admins_first_screen() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 120
    headings = re.findall(r"^## (.*)$", text, re.M)
    assert headings[:2] == ["Create the Discord application and invite the bot", "Two commands"]


def test_the_two_commands_are_the_bots_and_cis() -> None:
    blocks = re.findall(
        r"```bash\n(.*?)```", section(README.read_text("utf-8"), "Two commands"), re.S
    )
    assert len(blocks) == 2 and all(block.count("\n") == 1 for block in blocks)
    run, tests = (block.strip() for block in blocks)
    assert run.endswith(".venv/bin/python -m bot") and "-e ." in run
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert tests == ci


def test_the_first_screen_says_how_to_back_up() -> None:
    """Right under the command that runs the bot: the one that backs it up, as it runs from
    this folder, and the admin guide's section on backups."""
    text = section(README.read_text("utf-8"), "Two commands")
    run_the_tests = text.index("Run the tests")
    backup = text.index("`.venv/bin/python -m bot backup ")
    assert backup < run_the_tests
    assert "(docs/admin.md#back-up-and-restore)" in text[backup:run_the_tests]


def test_the_invite_asks_for_the_permissions_it_names() -> None:
    text = section(README.read_text("utf-8"), "Create the Discord application and invite the bot")
    named = re.findall(r"^\s*\| ([A-Z][A-Za-z ]+) \| ", text, re.M)
    assert named == ["View Channels", "Send Messages", "Embed Links"]
    needed = discord.Permissions(view_channel=True, send_messages=True, embed_links=True)
    (url,) = re.findall(r"https://discord\.com/oauth2/authorize\?\S+", text)
    assert url.endswith(f"&permissions={needed.value}") and "scope=bot+applications.commands" in url
    assert f"**{needed.value}**" in text
    needed.send_messages_in_threads = True
    assert f"({needed.value} in all)" in text


def github_anchor(heading: str) -> str:
    """The #anchor GitHub gives a heading."""
    text = re.sub(r"[`*]", "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {github_anchor(h) for h in re.findall(r"^#+ (.*)$", text, re.M)}


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_every_link_leads_somewhere(page: Path) -> None:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        destination = (page.parent / path).resolve() if path else page
        assert destination.exists(), f"{page.name}: {target}"
        if anchor:
            assert anchor in anchors(destination), f"{page.name}: {target}"
