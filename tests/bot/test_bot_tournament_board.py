"""``/kasino tournaments`` (the server's tournaments board, paged) and the "Tournaments" part
of ``/kasino profile``, through SimCord on both databases, from finished tournaments
written with the storage's own API."""

from __future__ import annotations

from typing import Any

from bot.models import GameOptions
from bot.storage import Storage
from bot.storage.tournaments import TournamentRow
from bot.tournaments.model import Entrant, Phase, Settings
from tests.bot.kasino_harness import Harness, components, custom_ids

DAY = 86400.0


async def finished(
    storage: Storage, harness: Harness, name: str, places: list[int], at: float
) -> None:
    """A finished Casino tournament in the harness's server: ``places[i]`` is the place
    of the i-th person of ``people``."""
    settings = Settings(GameOptions(variant="casino", target=21))
    row = TournamentRow(0, harness.guild.id, harness.channel.id, 1, name, settings)
    row.entrants = [Entrant(user, f"p{user}") for user in people(harness)[: len(places)]]
    row = await storage.create_tournament(row, at - 100)
    row.phase = Phase.FINISHED
    users = [e.user_id for e in row.entrants]
    await storage.save_tournament(row, at, places=list(zip(users, places, strict=True)))


def people(harness: Harness) -> list[int]:
    """The four members first, then eight more people who never joined the server."""
    return [m.id for m in harness.members] + [9000 + n for n in range(8)]


def lines(answer: Any) -> list[str]:
    return str(answer.response.embeds[0].description).splitlines()


async def test_the_tournaments_board_pages_and_the_profile_lists_them(harness: Harness) -> None:
    anna, bjorn, cecilia = harness.members[:3]
    storage = harness.cog.games.storage
    start = 1_772_323_200.0  # 2026-03-01 00:00 UTC
    await finished(storage, harness, "Friday night", list(range(1, 13)), start)
    await finished(storage, harness, "Saturday *cup*", [2, 1, 3], start + DAY)

    board = await harness.slash(cecilia, "kasino tournaments")
    assert not board.ephemeral
    embed = board.response.embeds[0]
    assert embed.title == "Kasino tournaments board" and "Page 1 of 2" in embed.footer.text
    shown = lines(board)
    # by wins, then podiums: Anna and Björn one win and two podiums each, then Cecilia
    # (two podiums, no win), then the others (one tournament each)
    assert len(shown) == 10
    assert shown[0].startswith("**1.** ") and "1 win · 2 podiums · 2 tournaments" in shown[0]
    assert shown[1].startswith("**2.** ") and "1 win · 2 podiums · 2 tournaments" in shown[1]
    assert "0 wins · 2 podiums · 2 tournaments" in shown[2]
    assert "0 wins · 0 podiums · 1 tournament" in shown[3]
    after = await harness.click(cecilia, board.response, label="Next")
    assert [line.split(" ", 1)[0] for line in lines(after)] == ["**11.**", "**12.**"]
    assert "Page 2 of 2" in after.response.embeds[0].footer.text
    # a page button forged onto another message is refused, changing nothing
    lobby = await harness.open_lobby(anna)
    refused = await harness.forge(bjorn, lobby, "k:tboard:2")
    assert refused.ephemeral and "not valid" in refused.response.content
    forged = await harness.forge(cecilia, after.response, "k:tboard:0")
    assert forged.ephemeral and "not valid" in forged.response.content
    assert "k:tboard:1" in custom_ids(after.response)

    mine = await harness.slash(bjorn, "kasino profile")
    fields = {f.name: f.value for f in mine.response.embeds[0].fields}
    assert fields["Tournaments"].splitlines() == [
        "🥇 place 1 of 3 · **Saturday \\*cup\\*** · Casino · Mar 2, 2026",
        "🥈 place 2 of 12 · **Friday night** · Casino · Mar 1, 2026",
    ]
    # a profile of another game lists that game's tournaments: none here, so no part
    other = await harness.slash(bjorn, "kasino profile", variant="swedish")
    assert "Tournaments" not in {f.name for f in other.response.embeds[0].fields}


def labelled(message: Any, label: str) -> dict[str, Any]:
    """The button of that label on a message."""
    return next(c for c in components(message) if c.get("label") == label)


async def test_a_page_past_the_end_changes_nothing(harness: Harness) -> None:
    """A disabled Next sent anyway (issue 39), on the tournaments board and on both
    leaderboards, and a page past the end asked for by the command: a kind private
    refusal, the public message as it was."""
    anna, bjorn = harness.members[:2]
    await finished(harness.cog.games.storage, harness, "Cup", [1, 2], 1_772_323_200.0)
    game = await harness.start_game(2, target=5)  # a rated match: the boards have a line
    await harness.play_to_end(game)
    board = await harness.slash(anna, "kasino tournaments")
    scores = await harness.slash(anna, "kasino scores")
    wins = await harness.slash(anna, "kasino scores", sort="wins")
    for answer in (board, scores, wins):
        message = answer.response
        assert "Page 1 of 1" in message.embeds[0].footer.text
        following = labelled(message, "Next")
        assert following.get("disabled"), following
        before = (message.embeds[0].to_dict(), custom_ids(message))
        sent = await harness.forge(bjorn, message, following["custom_id"], doctor=False)
        assert sent.ephemeral and "There is no page 2" in sent.response.content
        assert "Nothing changed" in sent.response.content
        shown = harness.current(message)
        assert (shown.embeds[0].to_dict(), custom_ids(shown)) == before
    for command, options in (("kasino tournaments", {}), ("kasino scores", {})):
        asked = await harness.slash(bjorn, command, page=3, **options)
        assert asked.ephemeral and "There is no page 3" in asked.response.content
