"""Nothing heavy on the event loop: the menus of a busy table in a game with builds are
listed in a worker thread, never on the loop's thread, whether a person opens the hand,
chooses a card, plays from the menu, or has the view follow the game after a move."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import bot.turns
from bot.engine import Build, Card, Round, parse_cards, rules_for
from bot.engine.families import family_of
from tests.bot.kasino_harness import Harness, cid, custom_ids, select_options

# The busy Swazi position: 24,224 legal moves for the first hand.
BUSY_HANDS = ("QC QH QS 6H", "8C 5D 4H 9S")
BUSY_BUILD = "[8: AH 7S | 2H 6S]"  # owned by the second player
BUSY_TABLE = "JH 9C 10D 7D 10S QD 4C AD AC AS 2C 2S 2D 3S 3D"
# The listing's entry points: every menu lists through one of them.
TURNS_LISTINGS = ("moves_of", "best_moves", "matching")
# what a game with builds lists its moves with, whole or lazily, and checks a move with
FAMILY_LISTINGS = ("legal_moves", "card_moves", "has_moves", "check")


def busy_round() -> Round:
    """The busy position, the first player to move."""
    rules = rules_for("swazi")
    build = Build.parse(BUSY_BUILD)
    table = [Build(build.groups, build.value, 1), *parse_cards(BUSY_TABLE)]
    return Round.from_position(rules, [parse_cards(h) for h in BUSY_HANDS], table, to_move=0)


class Listings:
    """Records, for each listing of legal moves, whether it ran on the loop's thread."""

    def __init__(self) -> None:
        self.recording = False
        self.on_loop: list[str] = []
        self.in_worker: list[str] = []

    def wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """``function``, recording the thread of each call while recording."""

        def listed(*args: Any, **kwargs: Any) -> Any:
            if self.recording:
                main = threading.current_thread() is threading.main_thread()
                (self.on_loop if main else self.in_worker).append(name)
            return function(*args, **kwargs)

        return listed


@pytest.fixture
def listings(monkeypatch: pytest.MonkeyPatch) -> Iterator[Listings]:
    """Round.legal_moves, the Swazi family's listings and checks, and bot.turns' listings
    (wherever a module imported them), recorded. The tests run the loop on the main thread."""
    found = Listings()
    monkeypatch.setattr(Round, "legal_moves", found.wrap("Round", Round.legal_moves))
    for cls in type(family_of(rules_for("swazi"))).__mro__:
        for name in FAMILY_LISTINGS:
            if name in vars(cls):
                method = vars(cls)[name]
                monkeypatch.setattr(cls, name, found.wrap(f"{cls.__name__}.{name}", method))
    for name in TURNS_LISTINGS:
        original = getattr(bot.turns, name)
        wrapped = found.wrap(name, original)
        for module in list(sys.modules.values()):
            where = getattr(module, "__name__", "")
            if where.startswith(("bot.", "cogs.")) and getattr(module, name, None) is original:
                monkeypatch.setattr(module, name, wrapped)
    yield found


async def test_a_busy_swazi_table_lists_its_moves_off_the_loop(
    harness: Harness, listings: Listings
) -> None:
    game = await held_busy(harness)
    anna, bjorn = harness.members[0], harness.members[1]
    listings.recording = True

    # Bjorn keeps his hand open while Anna thinks: it follows the game to his turn
    bjorns = await harness.open_hand(bjorn, game)
    assert not any(c.startswith("k:card:") for c in custom_ids(bjorns.response))
    annas = await harness.open_hand(anna, game)
    hand = annas.response
    assert len(select_options(hand, "k:card:")) == 4
    queen = game.match.round.hands[0].index(Card.parse("QC"))
    step = await harness.select(anna, hand, [str(queen)], custom_id=cid(hand, "k:card:"))
    menu = step.response
    assert "What does it do?" in menu.content
    assert len(select_options(menu, "k:take:")) == 25
    before = game.version
    await harness.select(anna, menu, ["c0"], custom_id=cid(menu, "k:take:"))
    assert game.version == before + 1 and game.match.round.to_move == 1
    await harness.env.advance_time(1.5)

    # Bjorn's open view now offers his cards: built after the move, off the loop
    followed = bjorns.response
    assert any(c.startswith("k:card:") for c in custom_ids(followed)), followed.content
    annas = await harness.open_hand(anna, game)  # Anna's view follows back to her turn
    eight = game.match.round.hands[1].index(Card.parse("8C"))
    step = await harness.select(bjorn, followed, [str(eight)], custom_id=cid(followed, "k:card:"))
    menu = step.response
    await harness.select(bjorn, menu, ["c0"], custom_id=cid(menu, "k:take:"))
    assert game.version == before + 2 and game.match.round.to_move == 0
    await harness.env.advance_time(1.5)
    assert any(c.startswith("k:card:") for c in custom_ids(annas.response))

    assert not listings.on_loop, f"listed on the event loop: {listings.on_loop}"
    assert listings.in_worker, "no listing was recorded: the entry points have changed"


async def held_busy(harness: Harness) -> Any:
    """A 2-player Swazi game held on the busy position, Anna to move."""
    game = await harness.start_game(2, variant="swazi", target=21)
    cog = harness.cog
    async with cog.games.session(game.id) as held:
        held.match.round = busy_round()
        held.version += 1
        await cog.games.save(held)
    await harness.env.advance_time(1)
    return game


async def test_opening_the_same_hand_again_reuses_its_menus(
    harness: Harness, listings: Listings
) -> None:
    game = await held_busy(harness)
    anna = harness.members[0]
    listings.recording = True
    first = (await harness.open_hand(anna, game)).response
    listed = len(listings.in_worker)
    assert listed and not listings.on_loop
    again = (await harness.open_hand(anna, game)).response
    assert len(listings.in_worker) == listed  # nothing listed again
    assert select_options(again, "k:card:") == select_options(first, "k:card:")
    # a kept menu goes out as if built again: its select has a new render tag
    assert cid(again, "k:card:") != cid(first, "k:card:")
    assert cid(again, "k:card:").rpartition(":")[0] == cid(first, "k:card:").rpartition(":")[0]


async def test_a_menu_not_ready_in_time_defers_the_click_then_shows_the_hand(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await held_busy(harness)
    anna = harness.members[0]
    flow = harness.cog.hands
    monkeypatch.setattr("cogs.play.hands.GRACE", 0.0)
    release = threading.Event()
    defer = flow.defer
    deferred: list[bool] = []  # each deferral: whether it answered "thinking" (a new message)

    async def deferring(interaction: Any) -> None:
        await defer(interaction)
        deferred.append(interaction.response.type.name == "deferred_channel_message")
        release.set()  # the worker may go on once the click is deferred

    monkeypatch.setattr(flow, "defer", deferring)
    # the worker is busy until the click has been deferred
    flow.hands.menus.start(game, ("busy",), lambda _game: release.wait(30))
    result = await harness.open_hand(anna, game)
    assert deferred == [True]
    hand = result.response
    assert "Your hand" in hand.content and len(select_options(hand, "k:card:")) == 4
    # on the hand view itself the click is deferred in place, then edited
    release.clear()
    flow.hands.menus.start(game, ("busy", 2), lambda _game: release.wait(30))
    queen = game.match.round.hands[0].index(Card.parse("QC"))
    step = await harness.select(anna, hand, [str(queen)], custom_id=cid(hand, "k:card:"))
    assert deferred == [True, False]
    assert "What does it do?" in step.response.content
    assert step.response.id == hand.id
