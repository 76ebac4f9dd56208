"""The games with builds at the Discord table: lobbies, builds shown on the table, and
every kind of build move made by people clicking in their hand views."""

from __future__ import annotations

import random
import re
import threading
from typing import Any

import pytest

from bot import games
from bot.client import KasinoBot
from bot.engine import Build, Card, Move, Round, parse_cards
from bot.models import Game
from bot.turns import matching, moves_of
from cogs.play.views import pick_items, ranked_moves
from tests.bot.kasino_harness import Harness, cid, custom_ids, select_options

BUILDING = ("casino", "royal", "mulle-glimne", "swazi", "sotho", "south-african")


async def play_by_menus(harness: Harness, game: Game, move: Move, via_pick: bool = False) -> Any:
    """The player to move plays ``move`` from a fresh hand view: the card, then the ranked
    move (or "choose it myself": the items, then which move). Returns the last answer."""
    rnd = game.match.round
    member = harness.member(int(game.seats[rnd.to_move].user_id))
    hand = (await harness.open_hand(member, game)).response
    index = rnd.hands[rnd.to_move].index(move.card)
    before = game.version
    at_once = moves_of(rnd, move.card) == [Move(move.card)]  # a trail is all it can do
    step = await harness.select(member, hand, [str(index)], custom_id=cid(hand, "k:card:"))
    if not at_once:
        step = await _choose(harness, member, rnd, step.response, move, via_pick)
    assert game.version > before, step.response.content if step.response else step
    await harness.env.advance_time(1.5)
    return step


async def _choose(
    harness: Harness, member: Any, rnd: Round, menu: Any, move: Move, via_pick: bool
) -> Any:
    ranked = ranked_moves(rnd, move.card)
    if move == Move(move.card):
        value = "trail"
    elif via_pick or move not in ranked:
        value = "pick"
    else:
        value = f"c{ranked.index(move)}"
    step = await harness.select(member, menu, [value], custom_id=cid(menu, "k:take:"))
    if value != "pick":
        return step
    offered = pick_items(rnd, move.card)
    used = [*move.taken, *move.using, *(i for b in move.table_builds for i in b.using)]
    positions = [str(offered.index(item)) for item in used]
    menu = step.response
    step = await harness.select(member, menu, positions, custom_id=cid(menu, "k:pick:"))
    if any(c.startswith("k:which:") for c in custom_ids(step.response)):
        items = [offered[int(p)] for p in positions]
        choice = f"c{matching(rnd, move.card, items).index(move)}"
        menu = step.response
        step = await harness.select(member, menu, [choice], custom_id=cid(menu, "k:which:"))
    return step


def _position(
    harness: Harness, game: Game, hands: str, table: str, to_move: int = 0, piles: str = ""
) -> Round:
    """Put the running round into a chosen position (the saved game follows at the next
    move, as the bot keeps one copy per game)."""
    rnd = Round.from_position(
        game.match.rules,
        [parse_cards(h) for h in hands.split("/")],
        [Build.parse(t) if t.startswith("[") else Card.parse(t) for t in _items(table)],
        to_move=to_move,
        piles=[parse_cards(p) for p in piles.split("/")] if piles else None,
    )
    game.match.round = rnd
    return rnd


def _items(table: str) -> list[str]:
    """``"5H [8: 3C 5D] 2S"`` as ``["5H", "[8: 3C 5D]", "2S"]``."""
    out, depth, word = [], 0, ""
    for char in table + " ":
        depth += (char == "[") - (char == "]")
        if char == " " and depth == 0:
            if word:
                out.append(word)
            word = ""
        else:
            word += char
    return out


@pytest.mark.parametrize("variant", BUILDING)
async def test_a_whole_match_by_people_clicking(harness: Harness, variant: str) -> None:
    game = await harness.start_game(2, variant=variant, target=5)
    rng = random.Random(variant)
    kinds: set[str] = set()
    moves = 0
    while game.status.active and moves < 400:
        rnd = game.match.round
        legal = rnd.legal_moves()
        # mostly builds and captures, so builds are made, raised, added to and taken
        keen = [m for m in legal if m.kind != "trail"] or legal
        move = rng.choice(keen if rng.random() < 0.8 else legal)
        kinds.add(move.kind)
        await play_by_menus(harness, game, move, via_pick=rng.random() < 0.25)
        moves += 1
    assert not game.status.active and game.match.winner is not None, moves
    assert {"build", "capture"} <= kinds
    final = harness.public_messages()[-1]
    assert "wins" in final.content
    board = await harness.slash(harness.members[0], "kasino scores", variant=variant)
    winner = game.seats[game.match.winner].name
    assert winner in board.response.embeds[0].description


async def test_build_raise_add_take_and_a_refused_trail(harness: Harness) -> None:
    game = await harness.start_game(2, variant="casino", target=21)
    anna = harness.members[0]
    _position(harness, game, "3C 8H 8C 9S/AD 6S 8D 10C", "5H 4S 3D")
    # build 8: 3♣ on 5♥ (Anna keeps two 8s)
    await play_by_menus(harness, game, Move.build(Card.parse("3C"), parse_cards("5H"), 8))
    shown = harness.table_message(game).embeds[0].description
    assert re.search(r"\[8 = <:3_of_clubs_\w+:\d+>\+<:5_of_hearts_\w+:\d+>\] anna's", shown), shown
    await play_by_menus(harness, game, Move(Card.parse("AD")))  # Bjorn trails
    # Anna owns a build: 9♠ can do nothing, and her trail is refused with the reason
    hand = (await harness.open_hand(anna, game)).response
    nine = next(o for o in select_options(hand, "k:card:") if o["label"].startswith("9♠"))
    assert "cannot be played now" in nine["label"] and "cannot trail" in nine["description"]
    before = game.version
    refused = await harness.select(anna, hand, [nine["value"]], custom_id=cid(hand, "k:card:"))
    assert refused.ephemeral and "cannot trail" in refused.response.content
    eight = game.match.round.hands[0].index(Card.parse("8C"))
    step = await harness.select(anna, hand, [str(eight)], custom_id=cid(hand, "k:card:"))
    menu = step.response
    assert "What does it do?" in menu.content and "choose what it does" in menu.content
    trail = next(o for o in select_options(menu, "k:take:") if o["value"] == "trail")
    assert trail["label"] == "Why can't I trail?" and "cannot trail" in trail["description"]
    refused = await harness.select(anna, menu, ["trail"], custom_id=cid(menu, "k:take:"))
    assert refused.ephemeral and "cannot trail" in refused.response.content
    assert game.version == before
    # she adds her 8♣ to her build: "choose it myself", the build, then which move
    rnd = game.match.round
    build = next(i for i in rnd.table if isinstance(i, Build))
    add = Move.build(Card.parse("8C"), [build], 8)
    assert len(matching(rnd, add.card, [build])) == 2  # take it, or add to it
    await play_by_menus(harness, game, add, via_pick=True)
    assert "added 8♣\ufe0e to [8 = 3♣\ufe0e+5♥]" in game.last_move, game.last_move
    build = next(i for i in game.match.round.table if isinstance(i, Build))
    assert build.multiple and build.owner == 0
    # Bjorn takes the build whole with his 8♦, with the loose A♦ + 3♦ + 4♠
    rnd = game.match.round
    take = moves_of(rnd, Card.parse("8D"))[0]
    assert build in take.taken
    await play_by_menus(harness, game, take)
    assert not any(isinstance(i, Build) for i in game.match.round.table)
    assert "took" in game.last_move and "[8 = 3♣\ufe0e+5♥ | 8♣\ufe0e]" in game.last_move


async def test_a_simple_build_is_raised(harness: Harness) -> None:
    game = await harness.start_game(2, variant="casino", target=21)
    _position(harness, game, "2C 5C/3D 8S", "[5: 2H 3S] 9C", to_move=1)
    rnd = game.match.round
    rnd.table[0] = Build.parse("[5: 2H 3S]", owner=0)
    await play_by_menus(harness, game, Move.build(Card.parse("3D"), [rnd.table[0]], 8))
    assert "bjorn raised [5 = 2♥+3♠\ufe0e] to 8 with 3♦" in game.last_move, game.last_move
    build = next(i for i in game.match.round.table if isinstance(i, Build))
    assert build.value == 8 and build.owner == 1


async def test_swazi_pile_tops_and_a_trail_that_builds(harness: Harness) -> None:
    game = await harness.start_game(2, variant="swazi")
    _position(harness, game, "10H 3C 9D/2C 7D 8S", "5S 5D 6C", piles="/KS 4D")
    shown = (await harness.open_hand(harness.members[0], game)).response.content
    assert re.search(r"\*\*Pile tops:\*\* bjorn <:4_of_diamonds_\w+:\d+>", shown), shown
    # the opponent's pile top is offered by "choose it myself", and taken with the table
    rnd = game.match.round
    steal = Move(Card.parse("10H"), parse_cards("5S 5D 6C 4D"))
    assert pick_items(rnd)[-1] == Card.parse("4D")
    await play_by_menus(harness, game, steal, via_pick=True)
    assert "took" in game.last_move and "4♦" in game.last_move
    # one turn, two groups: 3♣+6♣ and the opponent's pile top 4♦ with 5♦, built as 9
    _position(harness, game, "3C 9D/2C 7D 8S", "5S 5D 6C", piles="/KS 4D")
    rnd = game.match.round
    built = Move.build(Card.parse("3C"), parse_cards("5D 6C 4D"), 9)
    assert built in moves_of(rnd, Card.parse("3C"))
    await play_by_menus(harness, game, built)
    assert "built 9: " in game.last_move and "4♦" in game.last_move, game.last_move
    nine = next(i for i in game.match.round.table if isinstance(i, Build))
    assert nine.multiple and Card.parse("4D") in nine.cards
    # a trail that also builds 9 from table cards (Swazi's table builds)
    _position(harness, game, "3C 9D/2C 9S", "5S 4D 6C", to_move=0)
    rnd = game.match.round
    drift = next(m for m in moves_of(rnd, Card.parse("3C")) if m.table_builds)
    await play_by_menus(harness, game, drift)
    assert "trailed 3♣\ufe0e and built 9" in game.last_move, game.last_move


async def test_a_card_under_a_pile_top_is_offered_once_the_top_is_used(harness: Harness) -> None:
    """docs/rules.md: once an opponent's pile top goes into a group, the card below may go
    into a later group of the same turn. "Choose it myself" offers that card too, so such a
    move can be made from the menus (it could not, outside the ranked moves)."""
    game = await harness.start_game(2, variant="sotho")
    _position(harness, game, "2H 9S/3C 4C", "9C JC", piles="/10C 7D 9D")
    rnd = game.match.round
    deep = Move.build(Card.parse("2H"), parse_cards("9C 9D 7D"), 9)
    assert deep in moves_of(rnd, Card.parse("2H"))
    assert Card.parse("7D") not in pick_items(rnd)  # not for any card: only where a move uses it
    assert pick_items(rnd, Card.parse("2H"))[-1] == Card.parse("7D")
    await play_by_menus(harness, game, deep, via_pick=True)
    assert "built 9" in game.last_move and "7♦" in game.last_move, game.last_move


async def test_builds_survive_a_restart_and_stale_menus_change_nothing(
    harness: Harness, bot_config: Any
) -> None:
    game = await harness.start_game(2, variant="royal")
    rnd = game.match.round
    while not any(isinstance(i, Build) for i in rnd.table):  # play until a build lies there
        legal = rnd.legal_moves()
        move = next((m for m in legal if m.kind == "build"), legal[-1])
        await play_by_menus(harness, game, move)
        rnd = game.match.round
    anna = harness.member(int(game.seats[rnd.to_move].user_id))
    hand = (await harness.open_hand(anna, game)).response
    table = [str(item) for item in rnd.table]
    await harness.restart(KasinoBot(bot_config, seed=5))
    game = await harness.game()
    assert [str(item) for item in game.match.round.table] == table
    # a move from the old menu's version after someone else's move: refused, nothing played
    mover = game.match.round.to_move
    await play_by_menus(harness, game, game.match.round.legal_moves()[0])
    before = game.version
    stale = await harness.select(anna, hand, ["0"], custom_id=cid(hand, "k:card:"))
    assert "out of date" in stale.response.content
    assert game.version == before and game.match.round.to_move != mover


@pytest.mark.usefixtures("virtual_waits")
async def test_one_person_against_two_computers_in_royal_casino(harness: Harness) -> None:
    anna = harness.members[0]
    lobby = await harness.open_lobby(anna, variant="royal", target=5)
    for level in ("normal", "hard"):
        await harness.click(anna, lobby, label=f"Add {level} computer")
    await harness.click(anna, lobby, label="Start")
    game = await harness.game()
    rng = random.Random(3)
    moves = 0
    while game.status.active and moves < 300:
        if game.seats[game.match.round.to_move].is_computer:
            await harness.env.advance_time(0.1)  # the computers' pause in the tests
            continue
        legal = game.match.round.legal_moves()
        await play_by_menus(harness, game, rng.choice(legal))
        moves += 1
    assert not game.status.active and game.match.winner is not None
    assert "wins" in harness.public_messages()[-1].content
    board = await harness.slash(anna, "kasino scores", variant="royal", opponents="computers")
    assert "anna" in board.response.embeds[0].description


async def test_a_hint_explains_a_build(harness: Harness) -> None:
    anna = harness.members[0]
    lobby = await harness.open_lobby(anna, variant="casino")
    await harness.click(anna, lobby, label="Add normal computer")
    await harness.click(anna, lobby, label="Hints: off")
    await harness.click(anna, lobby, label="Start")
    game = await harness.game()
    _position(harness, game, "3C 8H 10S/2D 9S 4C", "5H KD")
    hand = (await harness.open_hand(anna, game)).response
    before = game.version
    result = await harness.click(anna, hand, label="Hint")
    assert result.response.flags.ephemeral and result.followups == [], result  # in the hand view
    assert "build 8 with" in result.response.content, result.response.content
    assert "you hold another 8" in result.response.content
    assert game.version == before and game.match.round.to_move == 0  # nothing played


async def test_time_running_out_while_owning_a_build(harness: Harness) -> None:
    game = await harness.start_game(2, variant="casino")
    _position(harness, game, "3C 8H 8C 9S/AD 6S 8D 10C", "5H 4S 3D")
    await play_by_menus(harness, game, Move.build(Card.parse("3C"), parse_cards("5H"), 8))
    await play_by_menus(harness, game, Move(Card.parse("AD")))
    before = game.version
    await harness.env.advance_time(600)  # a reminder, then the automatic move
    assert game.version == before + 1
    assert "automatic move" in game.last_move and "trailed" not in game.last_move


async def test_a_move_on_a_busy_table_is_checked_off_the_event_loop(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checking a move can list a card's moves (on issue 23's Swazi table, 24,224 moves):
    the move is played on a copy in a worker thread, and the copy becomes the game."""
    threads: list[threading.Thread] = []

    def spy(match: Any, move: Move) -> Any:
        threads.append(threading.current_thread())
        return play_on(match, move)

    play_on = games._play_on
    monkeypatch.setattr(games, "_play_on", spy)
    game = await harness.start_game(2, variant="swazi")
    eight = Build([parse_cards("AH 7S"), parse_cards("2H 6S")], 8, 1)
    table = [eight, *parse_cards("JH 9C 10D 7D 10S QD 4C AD AC AS 2C 2S 2D 3S 3D")]
    hands = [parse_cards("QC QH QS 6H"), parse_cards("8C 5H 4H KD")]
    game.match.round = Round.from_position(game.match.rules, hands, table, to_move=0)
    before = game.match
    move = ranked_moves(game.match.round, Card.parse("QC"))[0]
    await play_by_menus(harness, game, move)
    assert threads and threading.main_thread() not in threads
    assert game.match is not before and game.match.round.plays[-1].move == move
