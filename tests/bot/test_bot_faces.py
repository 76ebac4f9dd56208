"""Card faces: drawn, uploaded once as application emojis, and used wherever a card is shown;
text where the upload failed."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import re
import threading
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from PIL import Image
from simcord.backend.errors import invalid_form_body
from simcord.http.client import FakeHTTPClient

from bot import card_emojis, faces
from bot.card_emojis import wanted_names
from bot.client import KasinoBot
from bot.config import Config
from bot.engine import Card
from bot.models import Status
from bot.render import TEXT_INK, CardInk
from tests.bot.kasino_harness import Harness, select_options

FACE = re.compile(r"<:(ace|10|[2-9]|jack|queen|king)_of_[a-z]+_[0-9a-f]{4}:\d+>")
WORDS = re.compile(
    r"(ace|10|[2-9]|jack|queen|king)_of_(spades|hearts|diamonds|clubs)(_4c)?_[0-9a-f]{4}"
)
MAX_BYTES = 256 * 1024
NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
TEXT_CARDS = re.compile(r"((10|[2-9AJQK])[♠♥♦♣][\ufe0e\ufe0f]? ?)+")


def test_two_decks_of_52_distinct_faces_within_discords_limits() -> None:
    deck = faces.deck()
    pngs = [faces.face_png(card, style) for style in faces.STYLES for card in deck]
    # ♠ and ♥ look the same in both decks; ♦ and ♣ have their own colours in the second
    assert len(set(deck)) == 52 and len(set(pngs)) == 52 + 26
    for png in pngs:
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG" and image.size == (128, 128) and image.mode == "RGBA"
        assert len(png) <= MAX_BYTES
    names = list(wanted_names())
    assert len(set(names)) == 104 and all(NAME.fullmatch(name) for name in names)
    assert sum("_4c_" in name for name in names) == 52


def test_an_emoji_name_says_the_card_and_its_deck() -> None:
    """What a notification, a screen reader or the emoji's tooltip shows: the card in
    words, ``4c`` for the four-colour deck, and only a short digest after them."""
    queen = faces.emoji_name(Card.parse("QH"))
    assert re.fullmatch(r"queen_of_hearts_[0-9a-f]{4}", queen)
    assert re.fullmatch(
        r"10_of_diamonds_4c_[0-9a-f]{4}", faces.emoji_name(Card.parse("10D"), "four")
    )
    assert re.fullmatch(r"ace_of_spades_[0-9a-f]{4}", faces.emoji_name(Card.parse("AS")))
    for name, (style, card) in wanted_names().items():
        assert WORDS.fullmatch(name) and len(name) <= 25
        assert faces.face_of(name) == (style, card)
    # the names before: still the bot's faces, of the card they say
    assert faces.face_of("kc_QH_1f2e3d") == ("two", Card.parse("QH"))
    assert faces.face_of("k4_10D_000000") == ("four", Card.parse("10D"))
    for other in ("queen_of_hearts", "kc_QH", "party_parrot", "queen_of_hearts_4c_1f2e_x"):
        assert faces.face_of(other) is None and not faces.is_face_name(other)


def test_a_face_is_drawn_the_same_every_time() -> None:
    drawn = [faces.face_png(card, style) for style in faces.STYLES for card in faces.deck()]
    faces.face_png.cache_clear()
    again = [faces.face_png(card, style) for style in faces.STYLES for card in faces.deck()]
    assert again == drawn  # byte for byte: the emoji names carry their digest


def inked(card: Card, style: str = faces.TWO_COLOUR) -> set[tuple[int, ...]]:
    """The strongly coloured (not grey) pixels of a face."""
    pixels = faces.draw_face(card, style).get_flattened_data()
    return {p[:3] for p in pixels if p[3] == 255 and max(p[:3]) - min(p[:3]) > 120}


def hue(card: Card, style: str) -> str:
    """The face's ink: "grey" (black), or the strongest of red, green and blue."""
    colours = inked(card, style)
    if not colours:
        return "grey"
    r, g, b = (sum(c[i] for c in colours) for i in range(3))
    return max((r, "red"), (g, "green"), (b, "blue"))[1]


def test_red_and_black_ink_or_four_colours() -> None:
    assert inked(Card.parse("QH")) and not inked(Card.parse("QS"))
    two = {suit: hue(Card(5, suit), faces.TWO_COLOUR) for suit in "SHDC"}
    assert two == {"S": "grey", "H": "red", "D": "red", "C": "grey"}
    four = {suit: hue(Card(5, suit), faces.FOUR_COLOUR) for suit in "SHDC"}
    assert four == {"S": "grey", "H": "red", "D": "blue", "C": "green"}


def test_the_ink_writes_faces_or_text() -> None:
    ace = Card.parse("AS")
    ink = CardInk()
    ink.use({c: discord.PartialEmoji(name=f"kc_{c}", id=n + 1) for n, c in enumerate(faces.deck())})
    assert ink.card(ace).startswith("<:kc_") and ink.emoji(ace) is not None
    assert TEXT_INK.card(ace) == "A♠\ufe0e" and TEXT_INK.emoji(ace) is None
    line = ink.line("Anna played A♥ as 14 and took 4♣\ufe0e 10♦: tabbe! Game #10♦")
    assert line.count("<:kc_") == 3 and "Anna played" in line and "#10♦" in line
    # beside a face, a label's suits are text in the theme's colour (neither deck's colours)
    queen = Card.parse("QD")
    assert ink.label(queen) == "Q♦\ufe0e" and TEXT_INK.label(queen) == "Q♦"
    ink.use({ace: discord.PartialEmoji(name="kc_AS", id=1)})  # not all 52: text for all
    assert ink.card(ace) == "A♠\ufe0e"


async def test_the_faces_are_drawn_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawing 104 faces takes seconds: never on the loop, where every game would wait."""
    threads = []

    def name(card: Card, style: str) -> str:
        threads.append(threading.current_thread())
        return real_name(card, style)

    real_name = card_emojis.emoji_name
    monkeypatch.setattr(card_emojis, "emoji_name", name)
    wanted_names.cache_clear()
    try:
        assert await card_emojis._drawn_names() == {real_name(c, s): (s, c) for s, c in FACES}
    finally:
        wanted_names.cache_clear()
    assert threads and threading.main_thread() not in threads
    assert await card_emojis._drawn_names() is wanted_names()  # drawn once


FACES = [(style, card) for style in faces.STYLES for card in faces.deck()]


async def wait_faces(harness: Harness) -> KasinoBot:
    bot = harness.env.bot
    if bot.faces_task is not None:
        await bot.faces_task
    return bot


def uploads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count the emoji uploads of every bot from now on."""
    names: list[str] = []
    create = discord.Client.create_application_emoji

    async def counted(self: Any, *, name: str, image: bytes) -> discord.Emoji:
        names.append(name)
        return await create(self, name=name, image=image)

    monkeypatch.setattr(discord.Client, "create_application_emoji", counted)
    return names


async def test_faces_are_uploaded_once_and_redrawn_ones_again(
    harness: Harness, bot_config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    await wait_faces(harness)
    backend = harness.env.backend
    names = {e.name for e in backend.application_emojis.values()}
    assert names == set(wanted_names())
    created = uploads(monkeypatch)
    await harness.restart(KasinoBot(bot_config, seed=1))
    await wait_faces(harness)
    assert created == []  # a second start uploads nothing
    # a face drawn differently since (another name) and one left from an old drawing
    ace = next(
        e for e in backend.application_emojis.values() if e.name.startswith("ace_of_spades_")
    )
    backend.delete_application_emoji(ace.id)
    old = backend.create_application_emoji("ace_of_spades_0000")
    await harness.restart(KasinoBot(bot_config, seed=2))
    bot = await wait_faces(harness)
    assert created == [faces.emoji_name(Card.parse("AS"))]
    assert old.id not in backend.application_emojis
    assert len(backend.application_emojis) == 104 and len(bot.ink.faces) == 52
    assert len(bot.inks[faces.FOUR_COLOUR].faces) == 52


async def test_table_hand_and_menus_show_the_faces(harness: Harness) -> None:
    await wait_faces(harness)
    game = await harness.start_game(2)
    table = harness.table_message(game)
    assert FACE.search(table.embeds[0].description)
    mover = harness.member(game.seats[game.match.round.to_move].user_id)
    hand = (await harness.open_hand(mover, game)).response
    hand_line = hand.content.splitlines()[1]
    assert len(FACE.findall(hand_line)) == len(game.match.round.hands[game.match.round.to_move])
    for option in select_options(hand, "k:card:"):
        assert WORDS.fullmatch(option["emoji"]["name"]) and option["emoji"]["id"]
        assert re.match(r"(10|[2-9AJQK])[♠♥♦♣]", option["label"])  # still readable as text
    await harness.play_move(game)
    table = harness.table_message(game)
    last = table.embeds[0].description.split("**Last move:**")[1]
    assert FACE.search(last)


class TestRefusedUpload:
    """Discord refuses the upload (say, the app's emoji limit): cards are text."""

    @pytest.fixture
    def simcord_bot(self, bot_config: Config, monkeypatch: pytest.MonkeyPatch) -> KasinoBot:
        async def refuse(self: Any, **_: Any) -> discord.Emoji:
            response = SimpleNamespace(status=400, reason="Bad Request")
            raise discord.HTTPException(response, "Maximum number of emojis reached")

        monkeypatch.setattr(discord.Client, "create_application_emoji", refuse)
        return KasinoBot(bot_config, seed=20240607)

    async def test_cards_are_text_and_one_line_is_logged(
        self, harness: Harness, caplog: pytest.LogCaptureFixture
    ) -> None:
        bot = await wait_faces(harness)
        assert bot.ink.faces == {}
        game = await harness.start_game(2)
        table = harness.table_message(game)
        assert "<:" not in table.embeds[0].description
        mover = harness.member(game.seats[game.match.round.to_move].user_id)
        hand = (await harness.open_hand(mover, game)).response
        assert "<:" not in hand.content
        assert TEXT_CARDS.fullmatch(hand.content.splitlines()[1])
        assert all(not o.get("emoji") for o in select_options(hand, "k:card:"))
        records = caplog.get_records("setup") + caplog.records  # the bot starts in setup
        warnings = [r for r in records if "card faces unavailable" in r.getMessage()]
        assert len(warnings) == 1 and "\n" not in warnings[0].getMessage()


def name_taken(backend: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make SimCord's application refuse a second emoji of one name as Discord does:
    ``400 Invalid Form Body`` (code 50035, ``APPLICATION_EMOJI_NAME_ALREADY_TAKEN``),
    which SimCord's transport raises to the bot as a real :class:`discord.HTTPException`.
    Returns the names refused."""
    refused: list[str] = []
    create = backend.create_application_emoji

    def create_once(name: str, **kwargs: Any) -> Any:
        if any(e.name == name for e in backend.application_emojis.values()):
            refused.append(name)
            problem = {"code": "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                       "message": "Application emoji name already taken"}  # fmt: skip
            raise invalid_form_body(errors={"name": {"_errors": [problem]}})
        return create(name, **kwargs)

    monkeypatch.setattr(backend, "create_application_emoji", create_once)
    # every request takes a moment on the way, as over a network (SimCord answers at once),
    # so two processes' requests interleave
    request = FakeHTTPClient.request

    async def travelling(self: Any, *args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0)
        return await request(self, *args, **kwargs)

    monkeypatch.setattr(FakeHTTPClient, "request", travelling)
    return refused


def another_process(bot_config: Config, running: KasinoBot) -> KasinoBot:
    """A second bot process of the same application (another shard), with its own HTTP
    client to the same simulated Discord: SimCord runs one bot an event loop, and the
    faces need only the application's emojis."""
    other = KasinoBot(bot_config, seed=2)
    backend = running.http.backend  # type: ignore[attr-defined]
    other.http = FakeHTTPClient(backend, asyncio.get_running_loop())
    other._connection.http = other.http
    other._connection.application_id = running.application_id
    return other


class TestTwoProcessesStartingTogether:
    """Two shard processes start at once: both find no faces and upload them."""

    @pytest.fixture
    def simcord_bot(self, bot_config: Config) -> KasinoBot:
        # started without faces: the test starts both uploads itself, at the same moment
        return KasinoBot(dataclasses.replace(bot_config, card_faces=False), seed=1)

    async def test_both_end_with_every_face(
        self, harness: Harness, bot_config: Config, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        first = harness.env.bot
        backend = first.http.backend
        refused = name_taken(backend, monkeypatch)
        second = another_process(bot_config, first)
        wanted_names()  # drawn now: both processes then list the emojis at the same moment
        await asyncio.gather(first.load_faces(), second.load_faces())
        assert refused  # they did race: the slower one's upload was refused
        assert len(backend.application_emojis) == 104  # one of each, both decks
        names = {e.name for e in backend.application_emojis.values()}
        assert names == set(wanted_names())
        for bot in (first, second):
            for ink in bot.inks.values():
                assert len(ink.faces) == 52
        assert first.ink.faces == second.ink.faces  # the same emojis


def slow_drawing(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Hold every bot's background upload before it draws the faces (drawing 104 takes
    seconds): until the event is set only the faces read at start-up can show."""
    drawn = asyncio.Event()
    real = card_emojis._drawn_names

    async def held() -> dict[str, tuple[str, Card]]:
        await harness.env.external_wait(drawn.wait(), reason="the faces are being drawn")
        return await real()

    monkeypatch.setattr(card_emojis, "_drawn_names", held)
    return drawn


async def first_hand(harness: Harness) -> tuple[Any, Any]:
    """The mover's hand view of the game, by the process's first interaction."""
    game = await harness.game()
    assert game is not None
    mover = harness.member(game.seats[game.match.round.to_move].user_id)
    return game, (await harness.open_hand(mover, game)).response


async def test_a_restarted_process_shows_the_uploaded_faces_from_its_first_answer(
    harness: Harness, bot_config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    await wait_faces(harness)
    await harness.start_game(2)
    drawn = slow_drawing(harness, monkeypatch)
    created = uploads(monkeypatch)
    bot = KasinoBot(bot_config, seed=3)
    await harness.restart(bot)
    assert bot.faces_task is not None and not bot.faces_task.done()  # still drawing
    game, hand = await first_hand(harness)
    hand_line = hand.content.splitlines()[1]
    assert len(FACE.findall(hand_line)) == len(game.match.round.hands[game.match.round.to_move])
    assert all(WORDS.fullmatch(o["emoji"]["name"]) for o in select_options(hand, "k:card:"))
    drawn.set()
    await wait_faces(harness)
    assert created == [] and len(bot.ink.faces) == 52  # nothing to upload: all were there


async def test_a_slow_discord_delays_start_up_at_most_the_listing_timeout(
    harness: Harness, bot_config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Listing the faces hangs: start-up goes on after the timeout, with text cards, and
    the background upload shows the faces later."""
    await wait_faces(harness)
    listing = asyncio.Event()

    async def hanging(self: Any) -> Any:
        await listing.wait()
        return {}

    monkeypatch.setattr(card_emojis, "faces_on_application", hanging)
    monkeypatch.setattr("bot.client.faces_on_application", hanging)
    monkeypatch.setattr("bot.client.FACES_LIST_TIMEOUT", 0.5)
    bot = KasinoBot(bot_config, seed=4)
    started = asyncio.get_running_loop().time()
    await harness.restart(bot)
    assert 0.5 <= asyncio.get_running_loop().time() - started < 5
    await wait_faces(harness)
    assert len(bot.ink.faces) == 52


async def test_a_deploy_replaces_the_faces_of_the_old_names(
    harness: Harness, bot_config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The application holds the faces under their names before the cards were named in
    words (``kc_QH_1f2e3d``, ``k4_…``): the new process shows them from its first answer,
    uploads the faces of the new names, shows those, and deletes the old ones."""
    await wait_faces(harness)
    backend = harness.env.backend
    await harness.start_game(2)
    for emoji in list(backend.application_emojis.values()):
        backend.delete_application_emoji(emoji.id)
    prefixes = {faces.TWO_COLOUR: "kc", faces.FOUR_COLOUR: "k4"}
    old = {
        backend.create_application_emoji(f"{prefixes[style]}_{card.rank_name}{card.suit}_1f2e3d").id
        for style, card in FACES
    }
    other = backend.create_application_emoji("party_parrot")  # not the bot's face: kept
    drawn = slow_drawing(harness, monkeypatch)
    bot = KasinoBot(bot_config, seed=5)
    await harness.restart(bot)
    _, hand = await first_hand(harness)
    assert re.search(r"<:kc_\w+:\d+>", hand.content)  # the old faces, until replaced
    drawn.set()
    await wait_faces(harness)
    names = {e.name for e in backend.application_emojis.values()}
    assert names == set(wanted_names()) | {"party_parrot"}
    assert not old & set(backend.application_emojis) and other.id in backend.application_emojis
    _, hand = await first_hand(harness)
    assert FACE.search(hand.content) and "kc_" not in hand.content
    four = bot.inks[faces.FOUR_COLOUR].faces
    assert all(faces.face_of(e.name) == ("four", c) for c, e in four.items())


CUSTOM_EMOJI = re.compile(r"<a?:\w+:\d+>")


def contents(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the content of every message the bots post or edit in a channel."""
    seen: list[str] = []
    send, edit = discord.abc.Messageable.send, discord.Message.edit

    async def sent(self: Any, content: Any = None, **kwargs: Any) -> Any:
        seen.append(str(content or ""))
        return await send(self, content, **kwargs)

    async def edited(self: Any, **kwargs: Any) -> Any:
        seen.append(str(kwargs.get("content") or ""))
        return await edit(self, **kwargs)

    monkeypatch.setattr(discord.abc.Messageable, "send", sent)
    monkeypatch.setattr(discord.Message, "edit", edited)
    return seen


@pytest.mark.parametrize("style", [faces.TWO_COLOUR, faces.FOUR_COLOUR])
async def test_notifications_write_the_cards_as_text(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, style: str
) -> None:
    """A message's content is what its ping's notification and a screen reader say: over a
    whole match with the faces uploaded, no content that mentions a member holds a custom
    emoji; the cards of a last move are there as text, their faces in the embed."""
    bot = await wait_faces(harness)
    await bot.get_cog("Kasino").inks.choose("guild", harness.guild.id, style)
    seen = contents(monkeypatch)
    game = await harness.start_game(2)
    await harness.play_to_end(game)
    pings = [text for text in seen if "<@" in text]
    assert len(pings) > 10 and not any(CUSTOM_EMOJI.search(text) for text in pings)
    assert any(re.search(r"(10|[2-9AJQK])[♠♥♦♣]", text) for text in pings)  # as text
    table = harness.table_message(game)
    assert FACE.search(table.embeds[0].description) or style == faces.FOUR_COLOUR
    assert all(not CUSTOM_EMOJI.search(m.content or "") for m in harness.public_messages())


def test_a_menu_built_before_a_redrawn_face_is_not_reused() -> None:
    """The menus built off the loop are kept per ink as it is: replacing one face (a
    redrawn 9♥, say) tells them apart; the same faces again do not."""
    from bot.offloop import ink_key

    deck = {c: discord.PartialEmoji(name=f"f{n}", id=n + 1) for n, c in enumerate(faces.deck())}
    ink = CardInk()
    text = ink_key(ink)
    ink.use(deck)
    drawn = ink_key(ink)
    ink.use(dict(deck))
    assert ink_key(ink) == drawn != text
    ink.use({**deck, Card.parse("9H"): discord.PartialEmoji(name="nine", id=999)})
    assert ink_key(ink) != drawn


async def test_reminders_automatic_moves_and_the_abandoned_note_write_cards_as_text(
    harness: Harness,
) -> None:
    """Nobody plays: the reminders, the automatic moves' tables and the note that the game
    is abandoned (its last move) name the cards as text, with the faces uploaded."""
    await wait_faces(harness)
    game = await harness.start_game(2)
    for _ in range(6):
        await harness.env.advance_time(600)
    assert game.status is Status.ABANDONED
    texts = [m.content or "" for m in harness.public_messages()]
    assert "abandoned" in texts[-1] and re.search(r"(10|[2-9AJQK])[♠♥♦♣]", texts[-1])
    assert not any(CUSTOM_EMOJI.search(text) for text in texts)
