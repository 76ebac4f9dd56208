"""Krypkasino at the table: six seats, its team options, lowest wins everywhere, and a whole
six-player match through SimCord (three people, three computers) to the leaderboard."""

from __future__ import annotations

import discord
import pytest

from bot import faces
from bot.card_emojis import emoji_name
from bot.engine import Card, Move, Round, parse_cards, rules_for
from bot.models import Game, GameOptions, Seat, Status
from bot.render import winner_text
from tests.bot.kasino_harness import Harness, button, components, custom_ids, select_options
from tests.bot.test_bot_match import assert_hands_private

# Discord's embed limits.
TITLE, DESCRIPTION, FIELDS, FIELD_NAME, FIELD_VALUE, FOOTER, TOTAL = (
    256, 4096, 25, 256, 1024, 2048, 6000,
)  # fmt: skip


def within_limits(embed) -> None:  # type: ignore[no-untyped-def]
    """Every part of ``embed`` within Discord's limits."""
    assert len(embed.title or "") <= TITLE, embed.title
    assert len(embed.description or "") <= DESCRIPTION
    assert len(embed.fields) <= FIELDS
    for field in embed.fields:
        assert 0 < len(field.name) <= FIELD_NAME and 0 < len(field.value) <= FIELD_VALUE
    assert len(embed.footer.text or "") <= FOOTER
    assert len(embed) <= TOTAL


async def lobby_of(harness: Harness, **options: object):  # type: ignore[no-untyped-def]
    """A Krypkasino lobby opened by anna with these options."""
    return await harness.open_lobby(harness.members[0], variant="krypkasino", **options)


async def test_six_seats_and_no_seventh(harness: Harness) -> None:
    harness.add_members(("erik", "frida", "gustav"))
    lobby = await lobby_of(harness)
    for member in harness.members[1:6]:
        joined = await harness.click(member, lobby, custom_id=button(lobby, "join"))
        assert not joined.ephemeral, joined
    seventh = await harness.click(harness.members[6], lobby, custom_id=button(lobby, "join"))
    assert seventh.ephemeral and "full (6 players)" in seventh.response.content
    shown = harness.current(lobby).embeds[0]
    assert any(f.name == "Seats (6/6)" for f in shown.fields)
    # the host's computer buttons are off once the table is full
    full = harness.current(lobby)
    adds = [c for c in custom_ids(full) if ":add-" in c]
    assert adds and all(
        c.get("disabled") for c in components(full) if ":add-" in c.get("custom_id", "")
    )
    started = await harness.click(harness.members[0], lobby, custom_id=button(lobby, "start"))
    assert started.acknowledged
    game = await harness.game()
    assert game is not None and game.match.players == 6 and game.sides == 6
    assert "lowest wins" in harness.table_message(game).embeds[0].title


async def test_other_variants_still_seat_four(harness: Harness) -> None:
    harness.add_members()
    lobby = await harness.open_lobby(harness.members[0])
    for member in harness.members[1:4]:
        await harness.click(member, lobby, custom_id=button(lobby, "join"))
    fifth = await harness.click(harness.members[4], lobby, custom_id=button(lobby, "join"))
    assert fifth.ephemeral and "full (4 players)" in fifth.response.content


async def test_two_teams_of_three(harness: Harness) -> None:
    harness.add_members()
    lobby = await lobby_of(harness, teams=True, team_size=3, target=5)
    rules_field = harness.current(lobby).embeds[0].fields[0].value
    assert "two teams of three" in rules_field and "lowest wins" in rules_field
    for member in harness.members[1:4]:
        await harness.click(member, lobby, custom_id=button(lobby, "join"))
    # four seated: Start is off, and a forged click is refused in words
    assert _disabled(harness.current(lobby), "start")
    game_id = (await harness.game()).id
    early = await harness.forge(harness.members[0], lobby, f"k:lobby:{game_id}:start")
    assert early.ephemeral and "Teams of three need exactly 6 players" in early.response.content
    for member in harness.members[4:6]:
        await harness.click(member, lobby, custom_id=button(lobby, "join"))
    seats = next(f for f in harness.current(lobby).embeds[0].fields if f.name.startswith("Seats"))
    assert [line.rsplit("team ", 1)[-1] for line in seats.value.splitlines()] == list("ABABAB")
    await harness.click(harness.members[0], lobby, custom_id=button(lobby, "start"))
    game = await harness.game()
    assert game.sides == 2 and game.match.rules.team_size == 3
    names = {f.name for f in harness.table_message(game).embeds[0].fields}
    assert names == {"anna & cecilia & erik", "bjorn & david & frida"}


async def test_three_teams_of_two_at_six_and_two_at_four(harness: Harness) -> None:
    harness.add_members()
    lobby = await lobby_of(harness, teams=True)
    for member in harness.members[1:5]:
        await harness.click(member, lobby, custom_id=button(lobby, "join"))
    assert _disabled(harness.current(lobby), "start")  # five players cannot be teams of two
    await harness.click(harness.members[5], lobby, custom_id=button(lobby, "join"))
    assert not _disabled(harness.current(lobby), "start")
    await harness.click(harness.members[0], lobby, custom_id=button(lobby, "start"))
    game = await harness.game()
    assert game.sides == 3
    assert [game.side_of(i) for i in range(6)] == [0, 1, 2, 0, 1, 2]
    names = {f.name for f in harness.table_message(game).embeds[0].fields}
    assert names == {"anna & david", "bjorn & erik", "cecilia & frida"}


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"variant": "krypkasino", "team_size": 3}, "turn teams on too"),
        ({"variant": "swedish", "team_size": 3}, "Teams of three is an option of Krypkasino"),
        ({"variant": "casino", "take_all": False}, "The whole capture is an option of Krypkasino"),
        ({"variant": "mulle", "majorities": True}, "Majorities is an option of Krypkasino"),
    ],
)
async def test_impossible_options_are_refused_in_words(
    harness: Harness, options: dict[str, object], words: str
) -> None:
    result = await harness.slash(harness.members[0], "kasino new", **options)
    assert result.ephemeral and words in result.response.content
    assert await harness.game() is None


async def test_options_are_kept_and_shown(harness: Harness) -> None:
    lobby = await lobby_of(harness, take_all=False, majorities=True, target=30)
    line = harness.current(lobby).embeds[0].fields[0].value
    assert line.startswith("Krypkasino, limit 30 (lowest wins)")
    assert "any capture will do" in line and "majorities" in line
    game = await harness.game()
    await harness.restart(type(harness.env.bot)(harness.env.bot.config, seed=1))
    again = await harness.game()
    assert again.options == game.options
    assert again.options.rules(2) == rules_for(
        "krypkasino", target=30, take_all=False, majorities=True
    )


def _disabled(message, action: str) -> bool:  # type: ignore[no-untyped-def]
    found = [c for c in components(message) if str(c.get("custom_id", "")).endswith(f":{action}")]
    return bool(found[0].get("disabled"))


async def test_a_card_that_can_capture_offers_only_its_captures(harness: Harness) -> None:
    game = await harness.start_game(2, variant="krypkasino")
    member, menu = await harness.take_menu(game)
    rnd = game.match.round
    index = next(i for i, c in enumerate(rnd.hands[rnd.to_move]) if rnd.forced_captures(c))
    card = rnd.hands[rnd.to_move][index]
    options = select_options(menu, "k:take:")
    values = [o["value"] for o in options]
    assert "trail" not in values  # a card that can capture must: no krypa with it
    captures = [o for o in options if o["value"].startswith("c")]
    assert len(captures) == len(rnd.forced_captures(card))
    points = [int(o["description"].split(" · ")[1].split()[0]) for o in captures]
    assert points == sorted(points)  # the fewest penalty points first
    # the hand's card menu says which cards must capture and which krypar
    hand = (await harness.open_hand(member, game)).response
    for option, held in zip(
        select_options(hand, "k:card:"), sorted(rnd.hands[rnd.to_move]), strict=False
    ):
        assert "must" in option["description"] or "krypa" in option["description"], held


async def test_a_krypa_and_a_tabbe_in_words(harness: Harness) -> None:
    """The move lines read right: a krypa, and a tabbe naming its +5 and the −5."""
    from bot.engine import Play
    from bot.i18n import lang
    from bot.render import played_words

    rules = rules_for("krypkasino")
    anna, bjorn = Seat(1, "anna"), Seat(2, "bjorn")
    krypa = Play(0, Move(Card.parse("7S")), False, False, False)
    tabbe = Play(1, Move(Card.parse("QD"), parse_cards("9H 3C")), True, True, False)
    said = {
        code: (
            played_words(anna, rules, krypa, None, t=lang(code)),
            played_words(bjorn, rules, tabbe, None, rewarded=anna, t=lang(code)),
        )
        for code in ("en", "sv", "fi")
    }
    # krypa in every language (Swedish conjugates it: kröp); a tabbe in the reader's word
    assert said == {
        "en": (
            "anna played 7♠\ufe0e as a krypa.",
            "bjorn played Q♦ and took 3♣\ufe0e 9♥: tabbe! +5 for bjorn, −5 for anna.",
        ),
        "sv": (
            "anna kröp med 7♠\ufe0e.",
            "bjorn spelade Q♦ och tog 3♣\ufe0e 9♥: tabbe! +5 till bjorn, −5 till anna.",
        ),
        "fi": (
            "anna krypasi kortilla 7♠\ufe0e.",
            "bjorn pelasi kortin Q♦ ja otti 3♣\ufe0e 9♥: mökki! +5 pelaajalle bjorn,"
            " −5 pelaajalle anna.",
        ),
    }


@pytest.mark.usefixtures("virtual_waits")
async def test_six_player_match_three_people_three_computers(harness: Harness) -> None:
    """Anna hosts; bjorn, cecilia and three computers (one of each level) sit between the
    people; a match to the smallest limit is played to its end through the UI."""
    host, bjorn, cecilia = harness.members[:3]
    lobby = await lobby_of(harness, target=5)
    await harness.click(host, lobby, custom_id=button(lobby, "add-easy"))
    await harness.click(bjorn, lobby, custom_id=button(lobby, "join"))
    await harness.click(host, lobby, custom_id=button(lobby, "add-normal"))
    await harness.click(cecilia, lobby, custom_id=button(lobby, "join"))
    await harness.click(host, lobby, custom_id=button(lobby, "add-hard"))
    await harness.click(host, lobby, custom_id=button(lobby, "start"))
    game = await harness.game()
    assert game is not None and [s.is_human for s in game.seats] == [True, False] * 3
    steps = 0
    while game.status.active and steps < 400:
        steps += 1
        if game.seats[game.match.round.to_move].is_computer:
            await harness.env.advance_time(0.5)  # the computer's pause, then its move
            continue
        await harness.play_move(game)
    await harness.env.settle()
    assert game.status is Status.FINISHED, game.status
    match = game.match
    winner = match.winner
    assert match.scores[winner] == min(match.scores) and max(match.scores) >= 5
    assert match.scores.count(match.scores[winner]) == 1
    # every table and summary posted fits Discord's limits; the end says lowest wins
    public = harness.public_messages()
    for message in public:
        for embed in message.embeds:
            within_limits(embed)
    end = public[-1]
    assert "Game over" in end.content and winner_text(game) in end.content
    assert "lowest total" in winner_text(game)
    summaries = [m.embeds[0] for m in public if m.embeds and "is over" in (m.embeds[0].title or "")]
    assert summaries and len(summaries[-1].fields) == 6
    shown = [int(f.value.split("Match: **")[1].split("**")[0]) for f in summaries[-1].fields]
    assert shown == sorted(match.scores)  # lowest first
    # the people's results: won only by the lowest total, their points the penalties
    storage = harness.cog.games.storage
    rows, total = await storage.leaderboard(harness.guild.id, variant="krypkasino", computers=True)
    assert total == 3
    people = {int(s.user_id): game.side_of(i) for i, s in enumerate(game.seats) if s.is_human}
    for row in rows:
        side = people[row.user_id]
        assert row.points == match.scores[side] and row.wins == int(side == winner)
    # the board: wins first, then the fewest penalty points
    assert [(-r.wins, r.points) for r in rows] == sorted((-r.wins, r.points) for r in rows)
    board = await harness.slash(
        harness.members[3], "kasino scores", variant="krypkasino", opponents="computers",
        sort="wins",
    )  # fmt: skip
    embed = board.response.embeds[0]
    assert "(lowest wins)" in embed.title
    order = [line.split("** ", 1)[1].split(":")[0] for line in embed.description.splitlines()]
    names = {m.id: m.name for m in harness.members}
    assert order == [names[r.user_id] for r in rows]
    assert_hands_private(harness)


def test_largest_table_and_summary_fit_discord(monkeypatch: pytest.MonkeyPatch) -> None:
    """The largest table message and round summary of six sides, measured in every
    language with card faces: 32-character names, the longest computer names, the fullest
    table play can leave, three-digit totals and every item scored."""
    from bot.engine import Match, Score
    from bot.games import RUN_LENGTH
    from bot.i18n import lang, languages
    from bot.render import CardInk, round_summary, table_embed

    ink = CardInk(real_faces())
    worst: dict[str, int] = {}
    for teams, size in ((False, 2), (True, 2), (True, 3)):
        options = GameOptions(
            variant="krypkasino", target=100, teams=teams, team_size=size, take_all=False,
            majorities=True, turn_seconds=5430,
        )  # fmt: skip
        seats = [Seat(i, "W" * 32) for i in range(1, 4)] + [
            Seat.computer("normal", n) for n in (1, 2, 3)
        ]
        game = Game(99999, 1, 2, 1, options, seats, status=Status.PLAYING)
        game.match = Match.start(options.rules(6), 6, seed=1)
        game.match.banked = [-150, 199, 188, 177, 166, 155][: game.sides]
        rnd: Round = game.match.round
        # more table cards than play can leave: every rank once, and the eight aces
        rnd.table = [Card(rank, "S") for rank in range(2, 14)] + [Card(1, s) for s in "SHDC"] * 2
        game.deadline = 1_800_000_000.0
        game.last_move = "x"
        items = {"storan": 6, "lillan": 4, "aces": 8, "spades": 24, "tabbe": 95, "reward": -95,
                 "cards": 1, "most_spades": 2}  # fmt: skip
        scores = [Score(dict(items)) for _ in range(game.sides)]
        for code in languages():
            t = lang(code)
            long_move = played_words_longest(game, t)
            game.extra["last_move"] = {code: long_move}
            # a computers' run as long as a game keeps, every move the longest
            game.extra["run"] = [{code: long_move}] * RUN_LENGTH
            for embed in (
                table_embed(game, ink=ink, t=t),
                round_summary(game, rnd, scores, 12, long_move, ink=ink, t=t),
                round_summary(game, rnd, scores, 12, [long_move] * RUN_LENGTH, ink=ink, t=t),
            ):
                within_limits(embed)
                if embed.fields and "Storan" in str(embed.fields):
                    # one form with Swedish Kasino: "Storan (10♦): 6", "Reward: −95"
                    text = str([field.value for field in embed.fields])
                    assert "Storan (" in text and "): 6" in text and ": +" not in text, text
                    assert "−95" in text
                key = f"{code} {'table' if embed.fields and 'Score' in str(embed.fields) else ''}"
                worst[key] = max(worst.get(key, 0), len(embed))
    assert max(worst.values()) <= TOTAL


def played_words_longest(game: Game, t) -> str:  # type: ignore[no-untyped-def]
    """A long last move: an ace as 14 taking six cards, a tabbe, the longest names."""
    from bot.engine import Play
    from bot.render import played_words

    taken = parse_cards("KS QS JS 10S 9S 8S")
    play = Play(0, Move(Card.parse("AS"), taken), True, True, False)
    return played_words(game.seats[0], game.match.rules, play, None, rewarded=game.seats[5], t=t)


def real_faces() -> dict[Card, discord.PartialEmoji]:
    """Card faces as Discord writes uploaded emojis: their names and 19-digit ids."""
    return {
        c: discord.PartialEmoji(
            name=emoji_name(c, faces.TWO_COLOUR), id=1_234_567_890_123_456_789 + n
        )
        for n, c in enumerate(faces.deck())
    }


def test_an_illegal_computer_move_is_replaced_by_a_safe_one() -> None:
    """A computer's mistake never stalls a game: the illegal move (a krypa with a card
    that must capture) becomes the legal move giving away fewest points."""
    from bot.moves import legal_or_safe

    hands = [parse_cards("7H 9C"), parse_cards("3C 3D"), parse_cards("6C 6D")]
    rnd = Round.from_position(
        rules_for("krypkasino"), hands, parse_cards("5D 2S 4H"), dealer=2, to_move=0
    )
    wrong = Move(Card.parse("7H"))
    assert not rnd.is_legal(wrong)
    safe = legal_or_safe(rnd, wrong)
    assert safe == Move(Card.parse("9C"), parse_cards("5D 4H"))  # 0 points, not lillan's 2
    legal = Move(Card.parse("7H"), parse_cards("5D 2S"))
    assert legal_or_safe(rnd, legal) is legal


@pytest.fixture
def client_locale(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Every interaction sent as from a client in ``client_locale["locale"]`` (SimCord
    sends en-US), with the server's language as ``guild_locale``, as Discord does."""
    from simcord import interactions as sim_interactions

    chosen = {"locale": "en-US"}
    original = sim_interactions.base_payload

    def with_locale(backend, **kwargs):  # type: ignore[no-untyped-def]
        record, payload = original(backend, **kwargs)
        payload["locale"] = chosen["locale"]
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", with_locale)
    return chosen


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en-US", ("lowest", "crawl", "5 penalty points", "tabbe", "storan", "lillan")),
        ("sv-SE", ("lägst", "krypa", "5 straffpoäng till den som tar", "tabbe", "storan")),
        ("fi", ("pienin", "krypata", "ottaja saa 5 sakkopistettä", "mökki", "ruutukymppi")),
    ],
)
async def test_the_rules_of_krypkasino_in_three_languages(
    harness: Harness, client_locale: dict[str, str], locale: str, words: tuple[str, ...]
) -> None:
    client_locale["locale"] = locale
    result = await harness.slash(harness.members[0], "kasino rules", variant="krypkasino")
    assert result.ephemeral
    embed = result.response.embeds[0]
    within_limits(embed)
    text = embed.description
    assert text.startswith("**Krypkasino**"), text
    # krypa in every language, the card words in the reader's, and the match's limit
    # where the lowest wins
    for word in ("krypa", "10♦", "50", *words):
        assert word in text, (word, text)


async def test_a_six_seat_table_in_a_finnish_server(simcord_env) -> None:  # type: ignore[no-untyped-def]
    harness = Harness(simcord_env, locale="fi")
    try:
        harness.add_members()
        lobby = await harness.open_lobby(
            harness.members[0], variant="krypkasino", teams=True, team_size=3
        )
        for member in harness.members[1:6]:
            await harness.click(member, lobby, custom_id=button(lobby, "join"))
        await harness.click(harness.members[0], lobby, custom_id=button(lobby, "start"))
        game = await harness.game()
        for _ in range(3):
            await harness.play_move(game)
        embed = harness.table_message(game).embeds[0]
        within_limits(embed)
        assert "raja 50 (pienin voittaa)" in embed.title
        assert "kaksi kolmen joukkuetta" in embed.title
        assert all("Tämä kierros:" in field.value for field in embed.fields)
        assert len(embed.fields) == 2
    finally:
        await simcord_env.bot.close_storage()


def test_a_failing_computer_plays_a_safe_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """A computer that raises (as bot.ai's view does for six players in teams of two,
    whose side needs the player count) still moves: the safest legal move."""
    import bot.moves as moves
    from bot.engine import Match

    def broken(*args: object, **kwargs: object) -> Move:
        raise ValueError("the side of a seat in krypkasino teams depends on the players")

    monkeypatch.setattr(moves, "choose_move", broken)
    match = Match.start(rules_for("krypkasino", teams=True), 6, seed=3)
    for _ in range(12):
        rnd = match.round
        move = moves.computer_move(rnd.copy(), rnd.to_move, "normal", seed=1)
        assert rnd.is_legal(move)
        match.play(move)


def test_ratings_and_profiles_rank_the_lowest_first() -> None:
    """A Krypkasino lineup ranks fewest points first after the winner, keeps saying so
    through storage, and a profile's result names every other side with its total."""
    from bot.i18n import EN
    from bot.records import ratings
    from bot.records.profile import result_line
    from bot.storage.records import ResultLine

    seats = [(0, "u1"), (1, "u2"), (2, "c:easy")]
    lineup = ratings.lineup_of(seats, [12, 57, 40], winner=0, lowest_wins=True)
    assert lineup.ranks() == [0, 2, 1]  # 12 wins; 40 is second, 57 last
    again = ratings.Lineup.loads(lineup.dumps())
    assert again == lineup and again.lowest_wins
    assert ratings.lineup_of(seats, [12, 57, 40], winner=1).ranks() == [2, 0, 1]
    before = {1: ratings.Rating(), 2: ratings.Rating()}
    after = ratings.rate(lineup, before)
    assert after[1].mu > before[1].mu > after[2].mu
    lost = ResultLine(7, "krypkasino", False, 57, True, lineup.dumps(), 0.0)
    assert "Lost **57** – <@1> **12**, 🤖 Easy bot **40** · " in result_line(lost, 2, {}, EN)


def test_a_total_below_zero_is_written_with_a_minus_sign() -> None:
    """A reward can take a Krypkasino total below zero: every place a total is shown writes
    it ``−2`` (a minus sign, as the signed items are), never a hyphen's ``-2``."""
    from bot.engine import Match, Score
    from bot.i18n import lang, languages
    from bot.render import round_summary, score_line, standings, table_embed

    options = GameOptions(variant="krypkasino", target=40)
    game = Game(7, 1, 2, 1, options, [Seat(1, "Anna"), Seat(2, "Bjorn")], status=Status.PLAYING)
    game.match = Match.start(options.rules(2), 2, seed=1, scores=[-2, 30])
    scores = [Score({"reward": -5, "spades": 3}), Score({"storan": 3})]
    for code in languages():
        t = lang(code)
        table = table_embed(game, t=t)
        summary = round_summary(game, game.match.round, scores, 1, t=t)
        texts = [score_line(game, t), standings(game, t)] + [
            field.value for embed in (table, summary) for field in embed.fields
        ]
        for text in texts:
            assert "-2" not in text and "-5" not in text, text
        assert all("−2" in text for text in [*texts[:2], table.fields[0].value]), texts
        assert "−5" in str([field.value for field in summary.fields])
    game.status = Status.FINISHED
    game.match.banked, game.match.winner = [-2, 41], 0
    assert "−2 against 41" in winner_text(game)
