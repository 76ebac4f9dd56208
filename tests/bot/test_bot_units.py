"""The bot's pure parts: configuration, storage, rendering, capture ranking, auto-moves."""

from __future__ import annotations

import asyncio
import gc
import sqlite3
import threading
from pathlib import Path

import pytest

from bot.client import GC_THRESHOLDS, freeze_heap
from bot.config import DEFAULT_DB_PATH, ConfigError, load_config
from bot.engine import (
    Card,
    Match,
    Move,
    Round,
    capture_targets,
    card_points,
    is_capture,
    parse_cards,
    rules_for,
)
from bot.games import MESSAGE_COLUMNS
from bot.models import Game, GameOptions, Seat, Status
from bot.moves import auto_move, rank_choices
from bot.render import card, choice_label, describe_move, plain, table_embed
from bot.storage import (
    MIGRATIONS,
    ChannelBusy,
    MoveRecord,
    ResultRecord,
    StaleGame,
    Storage,
    is_postgres,
)
from cogs.components import known_custom_id
from cogs.custom_ids import custom_id

# ---------------------------------------------------------------- config


def test_config_requires_a_token_with_a_clear_message() -> None:
    with pytest.raises(ConfigError, match=r"DISCORD_TOKEN is not set.*--preview"):
        load_config({})


def test_config_defaults_and_values() -> None:
    config = load_config({"DISCORD_TOKEN": "secret-token"})
    assert config.db_path == DEFAULT_DB_PATH == Path("data/kasino.db")
    assert config.dev_guild_id is None and config.turn_seconds == 300
    assert "secret-token" not in repr(config)
    config = load_config(
        {"DISCORD_TOKEN": "t", "KASINO_DB": "/x/k.db", "DEV_GUILD_ID": "42", "TURN_SECONDS": "60"}
    )
    assert config.db_path == Path("/x/k.db") and config.dev_guild_id == 42
    assert config.turn_seconds == 60
    assert load_config({}, require_token=False).token is None


@pytest.mark.parametrize(
    "env",
    [{"DEV_GUILD_ID": "abc"}, {"TURN_SECONDS": "5"}, {"ROUND_PAUSE": "-1"}, {"LOG_LEVEL": "loud"}],
)
def test_config_rejects_bad_values(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError):
        load_config({"DISCORD_TOKEN": "t", **env})


def test_config_reads_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("DEV_GUILD_ID", raising=False)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-dotenv\nDEV_GUILD_ID=7\n")
    config = load_config()
    assert config.token == "from-dotenv" and config.dev_guild_id == 7


# --------------------------------------------------------------- storage


def new_game(channel: int = 10, players: int = 2) -> Game:
    seats = [Seat(100 + i, f"p{i}") for i in range(players)]
    return Game(0, 1, channel, 100, GameOptions(), seats)


async def test_storage_migrates_and_round_trips_a_game(db_path: Path | str) -> None:
    path = db_path
    storage = await Storage.open(path)
    try:
        assert await storage.schema_version() == len(MIGRATIONS)
        game = await storage.create_game(new_game(), now=1000.0)
        assert game.id == 1
        with pytest.raises(ChannelBusy) as busy:
            await storage.create_game(new_game(), now=1001.0)
        assert busy.value.game_id == 1
        game.match = Match.start(rules_for("swedish"), 2, seed=5)
        game.status, game.version, game.deadline = Status.PLAYING, 3, 1300.0
        game.seats[0].tabbar = 2
        move = game.match.round.legal_moves()[0]
        game.match.play(move)
        await storage.save_game(game, 1002.0, MoveRecord(0, str(move.card), ()))
        loaded = await storage.get_game(game.id)
        assert loaded is not None and loaded.match.to_dict() == game.match.to_dict()
        assert loaded.seats == game.seats and loaded.deadline == 1300.0
        assert await storage.deadlines() == [(game.id, 1300.0)]
        assert await storage.move_count(game.id) == 1
    finally:
        await storage.close()
    if not is_postgres(path):
        with sqlite3.connect(path) as raw:
            assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    reopened = await Storage.open(path)  # migrations are not applied twice
    assert await reopened.channel_game(10) == 1
    await reopened.close()


async def playing_game(storage: Storage) -> Game:
    """A new two-player Swedish game, dealt and saved at version 1."""
    game = await storage.create_game(new_game(), now=1.0)
    game.match = Match.start(rules_for("swedish"), 2, seed=5)
    game.status, game.version = Status.PLAYING, 1
    await storage.save_game(game, 2.0)
    return game


async def test_a_copy_loaded_before_another_save_is_never_saved(db_path: Path | str) -> None:
    """Saves are compare-and-set on the version (beneath PostgreSQL's lock per game): a copy
    loaded before another copy's save is refused whole, its move and its row."""
    storage = await Storage.open(db_path)
    try:
        game = await playing_game(storage)
        first, second = await storage.get_game(game.id), await storage.get_game(game.id)
        assert first is not None and second is not None
        move = first.match.round.legal_moves()[0]
        first.match.play(move)
        first.version += 1
        await storage.save_game(first, 3.0, MoveRecord(0, str(move.card), ()))
        second.deadline, second.version = 99.0, second.version + 1  # a change without a move
        with pytest.raises(StaleGame):
            await storage.save_game(second, 4.0)
        other = second.match.round.legal_moves()[-1]
        second.match.play(other)
        with pytest.raises(StaleGame):
            await storage.save_game(second, 4.0, MoveRecord(0, str(other.card), ()))
        stored = await storage.get_game(game.id)
        assert stored is not None and stored.version == first.version == 2
        assert stored.match.to_dict() == first.match.to_dict() and stored.deadline is None
        assert await storage.move_count(game.id) == 1
    finally:
        await storage.close()


async def test_a_new_messages_id_is_saved_alone(db_path: Path | str) -> None:
    """A table or lobby message's id is saved without encoding the match again, still
    compare-and-set on the version."""
    storage = await Storage.open(db_path)
    try:
        game = await playing_game(storage)
        game.message_id, game.ping_id, game.last_move = 7, 6, "not saved"
        await storage.save_game(game, 3.0, columns=MESSAGE_COLUMNS)
        stored = await storage.get_game(game.id)
        assert stored is not None and (stored.message_id, stored.ping_id) == (7, 6)
        assert stored.last_move == "" and stored.version == 1
        assert stored.match.to_dict() == game.match.to_dict()
        game.stored_version, game.message_id = 0, 8
        with pytest.raises(StaleGame):
            await storage.save_game(game, 4.0, columns=MESSAGE_COLUMNS)
    finally:
        await storage.close()


async def test_leaderboard_orders_and_filters(db_path: Path | str) -> None:
    storage = await Storage.open(db_path)
    try:
        for n, (winner, target) in enumerate([(0, 16), (0, 16), (1, 16), (1, 21)]):
            game = await storage.create_game(new_game(channel=n), now=1.0)
            game.options = GameOptions(target=target)
            game.status = Status.FINISHED
            results = [
                ResultRecord(100 + s, s, s == winner, 16 if s == winner else 9, s) for s in (0, 1)
            ]
            await storage.save_game(game, 2.0, results=results)
        rows, total = await storage.leaderboard(1, target=16)
        assert total == 2
        assert [(r.user_id, r.wins, r.matches) for r in rows] == [(100, 2, 3), (101, 1, 3)]
        assert rows[0].win_rate == pytest.approx(2 / 3) and rows[1].tabbar == 3
        rows, _ = await storage.leaderboard(1, target=21)
        assert [(r.user_id, r.wins) for r in rows] == [(101, 1), (100, 0)]
        page, total = await storage.leaderboard(1, offset=1, limit=1)
        assert total == 2 and len(page) == 1
        assert (await storage.leaderboard(2))[1] == 0
    finally:
        await storage.close()


# ------------------------------------------------------------- rendering


def test_cards_show_suits_red_and_black() -> None:
    assert card(Card.parse("AH")) == "A♥️" and card(Card.parse("10D")) == "10♦️"
    # black suits in text presentation (U+FE0E, never the emoji selector U+FE0F): drawn
    # as text in the theme's colour, readable on the dark theme
    assert card(Card.parse("QS")) == "Q♠\ufe0e" and card(Card.parse("2C")) == "2♣\ufe0e"
    assert "\ufe0f" not in card(Card.parse("QS")) + card(Card.parse("2C"))
    assert plain(Card.parse("10D")) == "10♦" and plain(Card.parse("10S")) == "10♠\ufe0e"


def test_move_descriptions_say_how_aces_count() -> None:
    rules = rules_for("swedish")
    ace = Card.parse("AH")
    taken = parse_cards("4C 9D AS")
    assert capture_targets(rules, ace, taken) == (14,)
    text = describe_move("Anna", rules, Move(ace, taken), (14,), sweep=True)
    assert text == "Anna played A♥ as 14 and took A♠\ufe0e 4♣\ufe0e 9♦: tabbe!"
    assert describe_move("Bo", rules, Move(Card.parse("7C"))) == "Bo trailed 7♣\ufe0e."
    finnish = rules_for("finnish")
    assert "mökki" in describe_move("Bo", finnish, Move(ace, parse_cards("KS AD")), sweep=True)
    mulle = rules_for("mulle")
    text = describe_move("Cy", mulle, Move(Card.parse("5D"), [Card.parse("5D")]), mulle=True)
    assert text.endswith("took 5♦: mulle!")
    both = capture_targets(rules, ace, [Card.parse("AD")])  # an ace takes an ace either way
    assert both == (1, 14)


def test_table_embed_shows_turn_deal_and_sides() -> None:
    game = new_game(players=2)
    game.id, game.status = 5, Status.PLAYING
    game.match = Match.start(rules_for("swedish", target=21), 2, seed=1)
    game.deadline = 1_800_000_000.0
    embed = table_embed(game)
    text = embed.description
    # players by name in embeds, not by mention
    assert "deal 1 of 6" in text and "<@" not in text and "<t:1800000000:R>" in text
    assert "sistan" not in text
    assert [f.name for f in embed.fields] == ["p0", "p1"]
    assert "Score **0** / 21" in embed.fields[0].value
    game.match.round.is_last_deal = True
    assert "sistan: last deal" in table_embed(game).description


@pytest.mark.parametrize(
    ("variant", "options", "count"),
    [("swedish", {}, "tabbe 0"), ("casino", {}, None), ("casino", {"sweeps": True}, "sweep 0")],
)
def test_sides_count_sweeps_only_where_they_score(
    variant: str, options: dict[str, bool], count: str | None
) -> None:
    game = new_game(players=2)
    game.status = Status.PLAYING
    game.match = Match.start(rules_for(variant, **options), 2, seed=1)
    side = table_embed(game).fields[0].value
    assert side.endswith(count) if count else "sweep" not in side


# ---------------------------------------------------------- capture menu


def test_rank_choices_prefers_points_then_cards_and_respects_the_limit() -> None:
    rules = rules_for("swedish")
    table = parse_cards("10D 5C 5H 2S 3C AD")
    choices = rank_choices(rules, Card.parse("10S"), table, 23)
    assert choices and all(is_capture(rules, Card.parse("10S"), c.taken) for c in choices)
    keys = [(c.points, c.cards) for c in choices]
    assert keys == sorted(keys, reverse=True)
    assert Card.parse("10D") in choices[0].taken  # storan is worth most
    big = parse_cards("AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 5S 5H 5D 5C")
    many = rank_choices(rules, Card.parse("KS"), big, 23)
    assert 0 < len(many) <= 23
    label = choice_label(rules, Card.parse("AH"), many[0])
    assert len(label) <= 100


def test_auto_move_is_legal_and_safe() -> None:
    rules = rules_for("swedish")
    rnd = Round.from_position(
        rules, [parse_cards("10D 7C 2S AH"), parse_cards("KS")], parse_cards("6C 4C 9H"), to_move=0
    )
    move = auto_move(rnd)
    assert rnd.is_legal(move) and move.card == Card.parse("10D")
    assert sorted(move.taken) == sorted(parse_cards("6C 4C"))
    hands = [parse_cards("10D 7C 2S AH"), parse_cards("KS")]
    trail_only = Round.from_position(rules, hands, [], to_move=0)
    assert auto_move(trail_only) == Move(Card.parse("7C"))  # the lowest card worth nothing
    assert card_points(Card.parse("10D")) == 2 and card_points(Card.parse("5H")) == 0


# -------------------------------------------------------------- custom ids


def test_custom_ids_fit() -> None:
    longest = custom_id("pick", 2**63 - 1, 2**31 - 1, 24)
    assert len(longest) <= 100 and known_custom_id(longest)
    assert not known_custom_id("k:other:1") and not known_custom_id("x:hand:1:2")


async def test_a_file_that_is_not_sqlite_is_refused_and_closed(tmp_path: Path) -> None:
    path = tmp_path / "kasino.db"
    path.write_bytes(b"this is not a database, " * 100)
    before = {t.name for t in threading.enumerate()}
    with pytest.raises(sqlite3.DatabaseError):
        await Storage.open(path)
    await asyncio.sleep(0.05)
    left = {t.name for t in threading.enumerate()} - before
    assert not left, left  # no database thread left to keep the process alive


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (10, {"en": "10 s turns", "sv": "10 s per drag", "fi": "vuoroaika 10 s"}),
        (300, {"en": "5 min turns", "sv": "5 min per drag", "fi": "vuoroaika 5 min"}),
        (90, {"en": "1 min 30 s turns", "sv": "1 min 30 s per drag", "fi": "vuoroaika 1 min 30 s"}),
    ],
)
def test_the_lobby_shows_the_turn_limit_in_whole_units(seconds: int, words: dict) -> None:
    from bot.i18n import lang
    from bot.models import GameOptions
    from bot.render import rules_line

    for code, expected in words.items():
        line = rules_line(GameOptions(turn_seconds=seconds), lang(code))
        assert line.endswith(", " + expected), line
        assert "." not in line.rsplit(",", 1)[1], line  # never "0.166667 min"


def test_the_start_up_heap_is_left_out_of_full_collections() -> None:
    """``python -m bot`` freezes what start-up made, so CPython's full collections, which
    pause every game of the process, do not walk it again."""
    before, thresholds = gc.get_freeze_count(), gc.get_threshold()
    try:
        freeze_heap()
        assert gc.get_freeze_count() > before
        assert gc.get_threshold() == GC_THRESHOLDS
    finally:
        gc.unfreeze()  # the test process starts many bots: let them all be collected
        gc.set_threshold(*thresholds)
