"""``/kasino profile``, ``/kasino versus`` and the leaderboard by rating, through SimCord on
both databases; the private views' "Show in channel" button refuses anyone but the asker
and every forged custom_id."""

from __future__ import annotations

import re

import pytest

from tests.bot import test_bot_languages
from tests.bot.kasino_harness import Harness, button, cid, custom_ids
from tests.bot.test_bot_computers import play_against_computers
from tests.dbrows import query

# each member's client language (the fixture of the language tests, used here too)
client_locales = test_bot_languages.client_locales


async def two_matches(harness: Harness) -> None:
    for _ in range(2):
        game = await harness.start_game(2, target=5)
        await harness.play_to_end(game)


async def test_scores_by_rating_profile_and_versus(harness: Harness) -> None:
    anna, bjorn, cecilia = harness.members[:3]
    await two_matches(harness)
    db = harness.env.bot.config.db_path
    # each match moves the server's ratings and the global ones
    assert len(query(db, "SELECT * FROM rating_changes WHERE guild_id <> 0")) == 4
    assert len(query(db, "SELECT * FROM rating_changes WHERE guild_id = 0")) == 4
    # the leaderboard is by rating by default: both players still provisional
    board = await harness.slash(cecilia, "kasino scores")
    embed = board.response.embeds[0]
    assert embed.title == "Kasino leaderboard: Swedish Kasino, by rating"
    # one numbered list: both provisional, marked "?", on the shown scale
    lines = embed.description.splitlines()
    assert [line.split("** ", 1)[0] for line in lines] == ["**1.", "**2."]
    assert all(line.split(": **")[1].split("**")[0][-1] == "?" for line in lines)
    assert f"{anna.name}: **" in embed.description and "openskill" not in embed.footer.text
    assert "A rating starts at 1500" in embed.footer.text
    wins = await harness.click(cecilia, board.response, label="By wins")
    assert "by rating" not in wins.response.embeds[0].title
    assert f"{anna.name}: " in wins.response.embeds[0].description
    back = await harness.click(cecilia, wins.response, label="By rating")
    assert back.response.embeds[0].title.endswith("by rating")
    by_wins = await harness.slash(cecilia, "kasino scores", sort="wins")
    assert "all targets" in by_wins.response.embeds[0].title
    # a profile is private, with its picture, and can be shown in the channel
    mine = await harness.slash(anna, "kasino profile")
    assert mine.ephemeral
    embed = mine.response.embeds[0]
    assert embed.title == f"{anna.name}'s Kasino profile"
    assert "? (provisional: 2 of 5 rated matches), #" in embed.description
    assert "Not rated" not in embed.description
    fields = {f.name: f.value for f in embed.fields}
    assert "2 matches" in fields["Against people (all games)"]
    assert fields["Last results"].count(f" – {bjorn.name} **") == 2
    assert embed.image.url == "attachment://rating.png"
    assert [a.filename for a in mine.response.attachments] == ["rating.png"]
    show = cid(mine.response, "k:show:profile:")
    # someone else's button, and forged ones, are refused privately
    other = await harness.forge(bjorn, mine.response, show)
    assert other.ephemeral
    assert "Only the person who asked" in other.response.content
    for forged in (
        show.replace(f":{anna.id}:", ":0x1:", 1),
        f"k:show:profile:{anna.id}:{anna.id}:nonsense",
        f"k:show:secrets:{anna.id}:{anna.id}:-",
        f"k:show:profile:{anna.id}:{anna.id}",
    ):
        refused = await harness.forge(anna, mine.response, forged)
        assert refused.ephemeral and "not valid" in refused.response.content, forged
    on_public = await harness.forge(anna, board.response, show)
    assert on_public.ephemeral and "not valid" in on_public.response.content
    shown = await harness.click(anna, mine.response, custom_id=show)
    assert not shown.ephemeral
    assert shown.response.embeds[0].title == f"{anna.name}'s Kasino profile"
    assert not custom_ids(shown.response)
    # someone else's profile, of one game
    theirs = await cecilia.slash(harness.channel, "kasino profile", member=bjorn, variant="swedish")
    assert theirs.ephemeral
    assert theirs.response.embeds[0].title == f"{bjorn.name}'s Kasino profile"
    assert "Against people (Swedish Kasino)" in [f.name for f in theirs.response.embeds[0].fields]
    # head to head
    versus = await anna.slash(harness.channel, "kasino versus", member=bjorn)
    assert versus.ephemeral
    embed = versus.response.embeds[0]
    assert embed.title == f"{anna.name} against {bjorn.name}"
    assert embed.description.startswith(f"Rating in Swedish Kasino: {anna.name} 1")
    assert "\nAgainst each other: 2 matches; " in embed.description
    assert "As partners: 0 matches" in embed.description
    public = await harness.click(anna, versus.response, custom_id=cid(versus.response, "k:show:"))
    assert not public.ephemeral and public.response.embeds[0].title == embed.title
    alone = await anna.slash(harness.channel, "kasino versus", member=anna)
    assert alone.ephemeral and "another person" in alone.response.content


async def test_a_profile_in_swedish_and_finnish(
    harness: Harness, client_locales: dict[int, str]
) -> None:
    anna, bjorn = harness.members[:2]
    await two_matches(harness)
    client_locales.update({anna.id: "sv-SE", bjorn.id: "fi"})
    swedish = await harness.slash(anna, "kasino profile")
    assert swedish.response.embeds[0].title == f"{anna.name}s kasinoprofil"
    finnish = await bjorn.slash(harness.channel, "kasino versus", member=anna)
    assert "\nToisiaan vastaan: 2 ottelua" in finnish.response.embeds[0].description


@pytest.mark.usefixtures("virtual_waits")
async def test_a_krypkasino_profile_and_history(
    harness: Harness, client_locales: dict[int, str]
) -> None:
    """Anna, bjorn and a computer play Krypkasino to the end: the profile of the one with
    more penalty points says penalty points a match and a round (the match's total, not
    0.0), the penalties taken, and names each opponent with their total; the history
    names each side with its total."""
    from bot.i18n import lang
    from tests.bot.kasino_harness import button

    anna, bjorn = harness.members[:2]
    lobby = await harness.open_lobby(anna, variant="krypkasino", target=5)
    await harness.click(bjorn, lobby, custom_id=button(lobby, "join"))
    await harness.click(anna, lobby, custom_id=button(lobby, "add-normal"))
    await harness.click(anna, lobby, custom_id=button(lobby, "start"))
    game = await harness.game()
    assert game is not None
    for _ in range(600):
        if not game.status.active:
            break
        if game.seats[game.match.round.to_move].is_computer:
            await harness.env.advance_time(0.5)
        else:
            await harness.play_move(game)
    await harness.env.settle()
    assert not game.status.active
    match = game.match
    seat = {int(s.user_id): i for i, s in enumerate(game.seats) if s.is_human}
    total = {user: match.scores[game.side_of(i)] for user, i in seat.items()}
    who = max((anna, bjorn), key=lambda m: total[m.id])
    other = bjorn if who is anna else anna
    mine, rounds = total[who.id], len(match.round_scores)
    assert mine > 0  # penalties were taken: the profile must not say 0.0
    en = lang("en")
    profile = (await harness.slash(who, "kasino profile")).response.embeds[0]
    # a computer was at the table: the headline is the computers' board's rating
    assert profile.description.startswith("**Krypkasino** (against computers): Rating 1")
    assert "? (provisional: 1 of 5 rated matches), #" in profile.description
    fields = {f.name: f.value for f in profile.fields}
    against = fields["Against computers (all games)"]
    assert (
        f"{en.decimal(mine)} penalty points a match, {en.decimal(mine / rounds)} a round"
        " (lowest wins)"
    ) in against
    assert "Penalties taken: storan in " in against and " points a match ·" not in against
    bot = next(i for i, s in enumerate(game.seats) if s.is_computer)
    last = fields["Last results"]
    theirs = last.split(" – ", 1)[1]
    assert f"{other.name} **{total[other.id]}**" in theirs, last
    assert f"🤖 Normal bot **{match.scores[game.side_of(bot)]}**" in theirs, last
    assert f" **{mine}** – " in last and " · Krypkasino" in last
    # the history names each side with its total
    history = (await harness.slash(anna, "kasino history")).response.embeds[0]
    line = history.description.splitlines()[0]
    assert f"· {anna.name} **{total[anna.id]}**" in line, line
    assert f"{bjorn.name} **{total[bjorn.id]}**" in line, line
    assert f"🤖 Normal bot **{match.scores[game.side_of(bot)]}**" in line, line
    # in Swedish: per match and per round (omgång), penalties taken
    client_locales[who.id] = "sv-SE"
    swedish = (await harness.slash(who, "kasino profile")).response.embeds[0]
    text = "\n".join(f.value for f in swedish.fields)
    sv = lang("sv")
    assert (
        f"{sv.decimal(mine)} straffpoäng per match, {sv.decimal(mine / rounds)} per omgång" in text
    )
    assert "Tagna straff: storan i " in text and "giv" not in text


def shown_ratings(text: str) -> list[str]:
    """Every rating a profile line shows (``Rating 1433?`` → ``1433?``)."""
    return re.findall(r"Rating (\S+?)[ ,(\n]", text + "\n")


@pytest.mark.usefixtures("virtual_waits")
async def test_a_first_loss_reads_as_a_rating(harness: Harness) -> None:
    """After a first match, between people and then against a computer, each profile shows
    a rating on the 1500 scale (the loser's below it, never negative), marked provisional,
    and never "not rated" beside a number."""
    anna, bjorn = harness.members[:2]
    game = await harness.start_game(2, target=5)
    await harness.play_to_end(game)
    seen = []
    for member in (anna, bjorn):
        text = (await harness.slash(member, "kasino profile")).response.embeds[0].description
        assert "Not rated" not in text and "−" not in text and "-" not in text
        (rating,) = shown_ratings(text)
        assert rating.endswith("?") and int(rating[:-1]) > 0, text
        seen.append(int(rating[:-1]))
    assert min(seen) < 1500 < max(seen)
    cecilia = harness.members[2]
    lobby = await harness.open_lobby(cecilia, target=5)
    await harness.click(cecilia, lobby, label="Add normal computer")
    await harness.click(cecilia, lobby, custom_id=button(lobby, "start"))
    game = await harness.game()
    assert game is not None
    await play_against_computers(harness, game)
    embed = (await harness.slash(cecilia, "kasino profile")).response.embeds[0]
    text = embed.description + "".join(field.value for field in embed.fields)
    assert "Not rated" not in text and "(against computers)" in embed.description
    assert all(r.endswith("?") and int(r[:-1]) >= 0 for r in shown_ratings(text)), text
