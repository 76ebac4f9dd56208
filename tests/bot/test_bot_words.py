"""The words of the menus and move lines follow the rules in play: Krypkasino's points
are penalties, its take menu offers "Choose the cards myself" only when that can help,
and the building games cry "sweep!" only when a sweep scores."""

from __future__ import annotations

import pytest

from bot.ai.explain import explain_move
from bot.engine import Card, Match, Move, Round, parse_cards, rules_for
from bot.i18n import lang
from bot.models import Game, GameOptions, Seat, Status
from bot.moves import more_captures
from bot.render import board_sweeps, describe_move
from bot.rules_text import rules_embed
from cogs.play.views import CAPTURE_CHOICES, take_view

LANGUAGES = ("en", "sv", "fi")
# what each language calls a scoring sweep in the building games
SWEEP_WORDS = {"en": "sweep!", "sv": "tabbe!", "fi": "mökki!"}


def game_at(variant: str, hand: str, table: str, **options: bool) -> Game:
    """A two-player game of ``variant`` whose seat 0 holds ``hand`` facing ``table``."""
    rules = rules_for(variant, **options)
    seats = [Seat(1, "Anna"), Seat(2, "Bo")]
    game = Game(7, 1, 2, 1, GameOptions(variant=variant, target=rules.target), seats)
    game.status = Status.PLAYING
    game.match = Match.start(rules, 2, seed=1)
    other = parse_cards("KC KD KH KS")
    game.match.round = Round.from_position(
        rules, [parse_cards(hand), other], parse_cards(table), to_move=0
    )
    return game


def take_options(game: Game, index: int = 0, code: str = "en") -> dict[str, str]:
    """The take menu of the card at ``index``: each option's value and its description."""
    view = take_view(game, 0, index, t=lang(code))
    select = getattr(view.children[0], "item", view.children[0])
    return {o.value: f"{o.label} | {o.description}" for o in select.options}


# ------------------------------------------------------------------ Krypkasino


@pytest.mark.parametrize("take_all", [True, False])
def test_krypkasino_says_penalty_points(take_all: bool) -> None:
    # 9♥ takes 4+5 and 6+3♠ (the 3♠ a penalty point), never the 7
    game = game_at("krypkasino", "9H", "4C 5D 6H 3S 7C", take_all=take_all)
    said = {code: take_options(game, code=code) for code in LANGUAGES}
    english = " ".join(said["en"].values())
    assert "1 penalty point" in english and "1 point " not in english
    assert "0 penalty points" in english or take_all  # 4+5 alone, only without take_all
    assert "1 straffpoäng" in " ".join(said["sv"].values())
    assert "1 sakkopiste" in " ".join(said["fi"].values())


def test_a_krypkasino_tabbe_says_its_share_of_the_penalty() -> None:
    game = game_at("krypkasino", "9H", "4C 5D 6H 3S")
    (option,) = take_options(game).values()
    assert option.endswith("5 cards · 6 penalty points · 5 of them for the tabbe"), option


@pytest.mark.parametrize("take_all", [True, False])
def test_choose_the_cards_myself_only_when_it_can_help(take_all: bool) -> None:
    """Every legal capture listed: picking could add nothing (under ``take_all`` a pick
    outside the whole captures is refused), so it is not offered. More captures than
    the menu holds: it is."""
    few = game_at("krypkasino", "9H", "4C 5D 6H 3S 7C", take_all=take_all)
    assert "pick" not in take_options(few)
    # the king takes 13 in a great many ways from this table
    table = "AC 2C 3C 4C 5C 6C 7C 8C 9C 2H 3H 4H 5H 6H 7H 8H"
    many = game_at("krypkasino", "KD", table, take_all=take_all)
    card = Card.parse("KD")
    captures = len(many.match.round.forced_captures(card))
    offered = take_options(many)
    listed = sum(value.startswith("c") for value in offered)
    assert listed == min(captures, CAPTURE_CHOICES)
    assert ("pick" in offered) == (captures > CAPTURE_CHOICES)
    if not take_all:
        assert captures > CAPTURE_CHOICES and "pick" in offered
    assert more_captures(many.match.round, card, captures - 1)
    assert not more_captures(many.match.round, card, captures)


def test_other_games_always_let_you_choose_the_cards() -> None:
    game = game_at("swedish", "9H 2C", "4C 5D 6H 3S 7C")
    assert "pick" in take_options(game)


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("en", ("played just before", "eight cards", "four when there are five players", "A♠")),
        ("sv", ("precis före", "åtta kort", "fyra när man är fem", "A♠")),
        ("fi", ("juuri ennen", "kahdeksan korttia", "neljä, kun pelaajia on viisi", "A♠")),
    ],
)
def test_krypkasino_rules_say_who_whom_and_how_many(code: str, words: tuple[str, ...]) -> None:
    text = rules_embed("krypkasino", lang(code)).description or ""
    for word in words:
        assert word in text, (word, text)
    assert "player before" not in text and "four or eight" not in text


# ------------------------------------------------------------ sweeps in Casino


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("sweeps", [False, True])
@pytest.mark.parametrize("variant", ["casino", "royal", "swazi"])
def test_a_sweep_is_cried_only_when_it_scores(variant: str, sweeps: bool, code: str) -> None:
    t = lang(code)
    rules = rules_for(variant, sweeps=sweeps)
    line = describe_move("Anna", rules, Move(Card.parse("5C"), parse_cards("5H")), sweep=True, t=t)
    assert (SWEEP_WORDS[code] in line) == sweeps, line
    assert line.endswith("!" if sweeps else "."), line
    # the take menu: the capture that clears the table, its point and its cry
    game = game_at(variant, "5C 9D", "5H", sweeps=sweeps)
    menu = " ".join(take_options(game, code=code).values())
    assert (SWEEP_WORDS[code] in menu) == sweeps, menu


def test_casino_s_default_takes_without_a_sweep_point() -> None:
    game = game_at("casino", "5C 9D", "5H")
    capture = take_options(game)["c0"]
    assert capture.endswith("2 cards · 0 points"), capture
    scoring = game_at("casino", "5C 9D", "5H", sweeps=True)
    assert take_options(scoring)["c0"].endswith("2 cards · 1 point · sweep!")


@pytest.mark.parametrize(
    ("code", "ending"),
    [
        ("en", "tabbe! +5 for Bo, −5 for the player who played before them."),
        ("sv", "tabbe! +5 till Bo, −5 till den som spelade före."),
        ("fi", "mökki! +5 pelaajalle Bo, −5 ennen häntä pelanneelle."),
    ],
)
def test_a_tabbe_without_a_name_for_the_reward_says_whose_it_is(code: str, ending: str) -> None:
    """The move line names who gets −5; when no name is at hand it still says the seat
    (the Finnish once read "pelaajalle edelliselle pelaajalle")."""
    rules = rules_for("krypkasino")
    move = Move(Card.parse("QD"), parse_cards("9H 3C"))
    line = describe_move("Bo", rules, move, sweep=True, t=lang(code))
    assert line.endswith(": " + ending), line


# ------------------------------------------------------------------ hints


def hint_for(variant: str, hand: str, table: str, code: str = "en", **options: bool) -> str:
    """The hint for taking the table's 10♥ with the 10♦ of ``hand`` (Bo holds two kings)."""
    rules = rules_for(variant, **options)
    bo = parse_cards("KC KD") if len(parse_cards(hand)) > 1 else []
    rnd = Round.from_position(rules, [parse_cards(hand), bo], parse_cards(table), to_move=0)
    return explain_move(rnd, 0, Move(Card.parse("10D"), parse_cards("10H")), lang(code))


@pytest.mark.parametrize("sweeps", [False, True])
def test_a_casino_hint_speaks_casino(sweeps: bool) -> None:
    hint = hint_for("casino", "10D 5C", "10H", sweeps=sweeps)
    assert "big casino is worth 2 points" in hint and "storan" not in hint, hint
    assert ("clearing the table is a sweep" in hint) == sweeps, hint
    assert "tabbe" not in hint, hint
    last = hint_for("casino", "10D", "10H 2C", sweeps=sweeps)  # the round's last card
    assert "the last capture takes the cards left on the table," in last, last
    assert "sistan" not in last, last


def test_a_swedish_hint_keeps_the_swedish_words() -> None:
    assert "clearing the table is a tabbe" in hint_for("swedish", "10D 5C", "10H")
    assert "storan is worth 2 points" in hint_for("swedish", "10D 5C", "10H")
    assert "left on the table and sistan" in hint_for("swedish", "10D", "10H 2C")
    assert "sistan" not in hint_for("finnish", "10D", "10H 2C")  # no sistan point there


def test_a_building_games_board_counts_sweeps() -> None:
    assert board_sweeps("casino", 2) == "2 sweeps"
    assert board_sweeps("casino", 1, lang("sv")) == "1 tabbe"
    assert board_sweeps("swedish", 3) == board_sweeps(None, 3) == "3 tabbar"
    assert board_sweeps("royal", 3, lang("fi")) == "3 mökkiä"


@pytest.mark.parametrize(
    ("variant", "said"),
    [("casino", True), ("swazi", True), ("south-african", True), ("mulle-glimne", False)],
)
def test_the_rules_say_when_sweeps_score_nothing(variant: str, said: bool) -> None:
    """Casino's sweeps score only with the lobby's option; Glimne's Mulle scores them."""
    text = rules_embed(variant).description or ""
    assert ("A sweep (clearing the table) scores nothing" in text) == said, text
    assert ("tabbar." in (rules_embed(variant, lang("sv")).description or "")) == said
