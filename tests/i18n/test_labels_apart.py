"""No two labels of one message can be mistaken for each other at a glance, in any language.

Every view the bot sends is built here for every language: the lobby (hints on and off,
with and without computers), the table while playing and once finished (Rematch, Replay)
and after a rematch (Replay alone), the hand with its card menu, every card's take menu,
the "choose it myself" and "which move?" menus, the scores board in each order and
board, a profile's "Show in channel", the rules menu, the history and the replay views,
and ``/kasino forget-me``'s confirmation. The labels of a message's buttons and of its
menus' options are gathered per message, and every pair of them must differ by at least
:data:`MIN_DISTANCE` letters (the Levenshtein distance, ignoring case): "Uusinta" and
"Uusinto" (one letter apart) under one finished match is the kind of pair this catches.

Exempt are option labels that hold a card or a number (a suit sign or a digit): the
cards of a hand or of a capture (``7♠`` and ``7♣``), a replay's ``Round 1`` and
``Round 2``, a history's dated matches. Such labels are told apart by what they name,
and a card's option shows the card's face as its emoji too. Button labels are never
exempt.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

import discord
import pytest

from bot.ai import LEVELS
from bot.i18n import Lang, lang, languages
from bot.models import VARIANT_NAMES, Game, Seat, Status
from bot.turns import moves_of
from cogs.play.views import (
    forget_view,
    hand_view,
    history_view,
    lobby_view,
    pick_view,
    replay_only_view,
    replay_view,
    rules_view,
    scores_view,
    show_view,
    table_view,
    take_view,
    which_view,
)
from tests.i18n import test_every_variant as every_variant

MIN_DISTANCE = 3
# a label that names cards or numbers: told apart by them (see the module's docstring)
NAMES_CARDS_OR_NUMBERS = re.compile(r"[0-9♠♣♥♦]")


def distance(a: str, b: str) -> int:
    """The Levenshtein distance: the fewest letters inserted, deleted or replaced to turn
    ``a`` into ``b`` (one row of the table at a time)."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def test_the_distance_counts_letters() -> None:
    assert distance("uusinta", "uusinto") == 1
    assert distance("kitten", "sitting") == 3
    assert distance("", "abc") == distance("abc", "") == 3
    assert distance("rematch", "rematch") == 0


def labels(view: discord.ui.View | None) -> list[str]:
    """The labels of a message's buttons and of its menus' options that must stand apart."""
    found = []
    for child in view.children if view is not None else ():
        item = getattr(child, "item", child)  # a DynamicItem wraps its button or select
        if isinstance(item, discord.ui.Button) and item.label:
            found.append(item.label)
        for option in getattr(item, "options", ()):
            if not NAMES_CARDS_OR_NUMBERS.search(option.label):
                found.append(option.label)
    return found


def too_close(view: discord.ui.View | None) -> list[tuple[str, str]]:
    """The pairs of one message's labels fewer than :data:`MIN_DISTANCE` letters apart."""
    return [
        (a, b)
        for a, b in itertools.combinations(labels(view), 2)
        if distance(a.casefold(), b.casefold()) < MIN_DISTANCE
    ]


def test_a_close_pair_is_found() -> None:
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Uusinta"))
    view.add_item(discord.ui.Button(label="Uusinto"))
    view.add_item(discord.ui.Select(options=[discord.SelectOption(label="7♠")] * 2))
    assert too_close(view) == [("Uusinta", "Uusinto")]


def game_of(variant: str, seed: int) -> Game:
    """A two-player game of ``variant`` in play (as the variant test makes it), hints on."""
    game = every_variant.game_of(variant, seed)
    game.extra["hints"] = True
    return game


def variant_views(variant: str, t: Lang) -> Iterator[discord.ui.View | None]:
    """A variant's lobby, table, hand and menus over a few turns, and its finished table."""
    game = game_of(variant, seed=5)
    for hints, seats in ((True, [Seat(1, "Anna")]), (False, [Seat(1, "A"), Seat.computer("hard")])):
        lobby = Game(8, 1, 2, 1, game.options, seats)
        lobby.extra["hints"] = hints
        yield lobby_view(lobby, t)
    yield rules_view(variant, t)
    for _ in range(8):
        rnd = game.match.round
        seat = rnd.to_move
        yield hand_view(game, seat, t=t)
        for index in range(len(rnd.hands[seat])):
            yield take_view(game, seat, index, t=t)
        yield pick_view(game, 0, t=t)
        moves = [m for card in rnd.hands[seat] for m in moves_of(rnd, card)]
        if rnd.rules.builds and moves:
            yield which_view(game, 0, (0,), moves[:5], t=t)
        yield table_view(game, t)
        game.match.play(moves[0] if rnd.rules.builds else rnd.legal_moves(limit=8)[-1])
    game.status = Status.FINISHED
    yield table_view(game, t)
    yield replay_only_view(game.id, t)


def other_views(t: Lang) -> Iterator[discord.ui.View | None]:
    """The views that belong to no one game: scores, profile, history, replay, forget-me."""
    for computers, rating in itertools.product((False, True), repeat=2):
        yield scores_view("swedish", 16, 2, 3, computers=computers, rating=rating, t=t)
    yield show_view("profile", 1, 2, None, t)
    yield history_view(1, None, 2, 3, [(5, "2026-11-01 Swedish Kasino"), (6, "Krypkasino")], t)
    index = [(1, 1)] * 3 + [(1, 2)] * 3 + [(2, 1)] * 3
    for step in (0, 4, 8):
        yield replay_view(9, step, 8, index, t)
    yield forget_view(1, t)
    assert len(LEVELS) == 3  # the lobby's three "add a computer" buttons


@pytest.mark.parametrize("code", languages())
@pytest.mark.parametrize("variant", list(VARIANT_NAMES))
def test_a_variants_labels_stand_apart(variant: str, code: str) -> None:
    t = lang(code)
    problems = [pair for view in variant_views(variant, t) for pair in too_close(view)]
    assert not problems, sorted(set(problems))


@pytest.mark.parametrize("code", languages())
def test_the_other_views_labels_stand_apart(code: str) -> None:
    t = lang(code)
    problems = [pair for view in other_views(t) for pair in too_close(view)]
    assert not problems, sorted(set(problems))
