"""The global rating on the profile and ``/kasino scores scope:global``, through SimCord on
both databases, in English and Swedish: the global board lists only people with a rated
match, named as the bot knows them outside the server (never a server nickname; a
mention for someone it cannot see), pages strictly, and refuses what it cannot show."""

from __future__ import annotations

from typing import Any

import simcord

from bot.records import ratings
from bot.storage import Statement
from tests.bot import test_bot_languages
from tests.bot.kasino_harness import Harness, custom_ids
from tests.dbrows import query

client_locales = test_bot_languages.client_locales

UNSEEN = 4242  # a person the bot has never seen (they played in another server)


async def rated_elsewhere(harness: Harness) -> None:
    """Ratings the bot did not make here: an unseen person's global rating (high, listed
    first), and a forgotten person's row (a negative id: listed nowhere)."""
    insert = (
        "INSERT INTO ratings (guild_id, variant, board, user_id, mu, sigma, matches, wins,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    await harness.env.bot.storage.write(
        [
            Statement(insert, (ratings.GLOBAL, "swedish", "people", UNSEEN, 40.0, 2.0, 9, 8, 0.0)),
            Statement(insert, (ratings.GLOBAL, "swedish", "people", -5, 45.0, 2.0, 9, 9, 0.0)),
        ]
    )


async def greta_plays_anna(harness: Harness) -> Any:
    """Greta (Discord name "Greta G", in this server "Greta (club)") plays anna twice."""
    user = harness.env.create_user("greta", global_name="Greta G")
    greta = harness.guild.add_member(user, nick="Greta (club)")
    harness.members.insert(0, greta)  # the host: seated with anna
    for _ in range(2):
        game = await harness.start_game(2, target=5)
        await harness.play_to_end(game)
    return greta


async def test_the_profile_and_the_global_board(harness: Harness) -> None:
    greta = await greta_plays_anna(harness)
    anna = harness.members[1]
    await rated_elsewhere(harness)
    db = harness.env.bot.config.db_path
    assert len(query(db, "SELECT * FROM rating_changes WHERE guild_id = 0")) == 4
    # the profile: the server's rating, then the global one
    mine = await harness.slash(anna, "kasino profile")
    line = mine.response.embeds[0].description.splitlines()[0]
    assert ", #" in line and " in this server · everywhere 1" in line and line.endswith("?")
    # the global board: by rating, the unseen person first, never the forgotten one; the
    # asker under her Discord name (not the server's nickname), and the people the bot
    # cannot see (it has no member list) as mentions, which Discord names for the reader
    board = await harness.slash(greta, "kasino scores", scope="global")
    assert not board.ephemeral
    embed = board.response.embeds[0]
    assert embed.title == "Global Kasino leaderboard: Swedish Kasino, by rating"
    lines = embed.description.splitlines()
    assert len(lines) == 3 and lines[0].startswith(f"**1.** <@{UNSEEN}>: **")
    assert "Greta G: **" in embed.description and "Greta (club)" not in embed.description
    assert f"<@{anna.id}>: **" in embed.description
    assert "every rated match, in every server" in embed.footer.text
    ids = custom_ids(board.response)
    assert all(c.startswith("k:gscores:swedish:") for c in ids), ids
    # the computers' global board, by its button; nobody played a computer
    computers = await harness.click(greta, board.response, label="Against computers")
    assert computers.response.embeds[0].title.startswith("Global Kasino vs computers")
    assert "No finished matches" in computers.response.embeds[0].description
    back = await harness.click(greta, computers.response, label="Against people")
    assert back.response.embeds[0].title == embed.title
    # a page past the end, and what the global board cannot show, change nothing
    past = await harness.slash(anna, "kasino scores", scope="global", page=2)
    assert past.ephemeral and "There is no page 2" in past.response.content
    for options in ({"sort": "wins"}, {"target": 11}):
        refused = await harness.slash(anna, "kasino scores", scope="global", **options)
        assert refused.ephemeral and "by rating only" in refused.response.content
    # forged pages are refused privately: malformed, or on a board of another kind
    page = "k:gscores:swedish:1:c"
    assert page in ids
    for forged in (
        "k:gscores:-:1:p",
        "k:gscores:swedish:0:p",
        "k:gscores:swedish:1:x",
        "k:gscores:swedish:1:p:r",
        "k:gscores:nonsense:1:p",
        "k:gscores:swedish:01:p",
    ):
        refused = await harness.forge(anna, board.response, forged)
        assert refused.ephemeral and "not valid" in refused.response.content, forged
    server = await harness.slash(anna, "kasino scores")
    assert server.response.embeds[0].title == "Kasino leaderboard: Swedish Kasino, by rating"
    assert "Greta (club)" in server.response.embeds[0].description  # the server's own name
    on_server = await harness.forge(anna, server.response, page)
    assert on_server.ephemeral and "not valid" in on_server.response.content


async def test_the_global_rating_in_swedish(
    simcord_env: simcord.Env, client_locales: dict[int, str]
) -> None:
    """A Swedish server (its public board in Swedish) and a Swedish client (the private
    profile and refusal in Swedish)."""
    harness = Harness(simcord_env, locale="sv-SE")
    try:
        await greta_plays_anna(harness)
        anna = harness.members[1]
        client_locales[anna.id] = "sv-SE"
        mine = await harness.slash(anna, "kasino profile")
        line = mine.response.embeds[0].description.splitlines()[0]
        assert " på servern · överallt 1" in line, line
        board = await harness.slash(anna, "kasino scores", scope="global")
        embed = board.response.embeds[0]
        assert embed.title == "Kasinos globala topplista: Svenskt kasino, efter rating"
        assert "på alla servrar" in embed.footer.text
        refused = await harness.slash(anna, "kasino scores", scope="global", sort="wins")
        assert refused.ephemeral and "går bara efter rating" in refused.response.content
    finally:
        await simcord_env.bot.close_storage()
