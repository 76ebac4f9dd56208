"""The component layouts of the bot's messages (lobby, table, hand, scores)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import discord

from bot.ai import LEVELS
from bot.engine import capture_options, capture_values
from bot.models import MAX_SEATS, Game, Status
from bot.moves import MAX_MENU_OPTIONS, rank_choices
from bot.render import (
    TEXT_INK,
    CardInk,
    choice_description,
    choice_label,
    plain,
    sorted_cards,
)
from cogs.components import KasinoButton, KasinoSelect

P = ParamSpec("P")
V = TypeVar("V", bound=discord.ui.View | None)

# Discord allows 25 options; two are "Trail" and "Choose the cards myself".
CAPTURE_CHOICES = MAX_MENU_OPTIONS - 2


def _view() -> discord.ui.View:
    return discord.ui.View(timeout=None)


def _static(builder: Callable[P, V]) -> Callable[P, V]:
    """Stop the built view before it is sent.

    Every item is a ``DynamicItem`` dispatched by its custom_id, so discord.py need not
    keep the view: a stopped view is not stored and starts no timeout task (it would
    otherwise keep one per ephemeral hand message for 15 minutes).
    """

    @functools.wraps(builder)
    def build(*args: P.args, **kwargs: P.kwargs) -> V:
        view = builder(*args, **kwargs)
        if view is not None:
            view.stop()
        return view

    return build


@_static
def lobby_view(game: Game) -> discord.ui.View | None:
    """Join, Leave, Start, Cancel (none once the lobby is closed)."""
    if game.status is not Status.LOBBY:
        return None
    view = _view()
    ready = len(game.seats) == 4 if game.options.teams else len(game.seats) >= 2
    view.add_item(
        KasinoButton("lobby", game.id, "join", label="Join", style=discord.ButtonStyle.success)
    )
    view.add_item(KasinoButton("lobby", game.id, "leave", label="Leave"))
    view.add_item(
        KasinoButton(
            "lobby",
            game.id,
            "start",
            label="Start",
            style=discord.ButtonStyle.primary,
            disabled=not ready,
        )
    )
    view.add_item(
        KasinoButton("lobby", game.id, "cancel", label="Cancel", style=discord.ButtonStyle.danger)
    )
    _add_host_controls(view, game)
    return view


def _add_host_controls(view: discord.ui.View, game: Game) -> None:
    """The second row: add a computer of each level, remove one, hints on/off."""
    full = len(game.seats) >= MAX_SEATS
    for level in LEVELS:
        view.add_item(
            KasinoButton(
                "lobby", game.id, f"add-{level}", label=f"Add {level} computer", emoji="🤖",
                disabled=full, row=1,
            )
        )  # fmt: skip
    view.add_item(
        KasinoButton(
            "lobby", game.id, "remove-computer", label="Remove computer",
            disabled=not game.has_computers, row=1,
        )
    )  # fmt: skip
    view.add_item(
        KasinoButton(
            "lobby", game.id, "hints", label=f"Hints: {'on' if game.hints else 'off'}",
            emoji="💡", row=1,
        )
    )  # fmt: skip


@_static
def table_view(game: Game) -> discord.ui.View | None:
    """ "Your hand" while playing, "Rematch" after a finished match."""
    view = _view()
    if game.status is Status.PLAYING:
        view.add_item(
            KasinoButton(
                "hand",
                game.id,
                game.version,
                label="Your hand",
                emoji="🂠",
                style=discord.ButtonStyle.primary,
            )
        )
        return view
    if game.status is Status.FINISHED:
        view.add_item(
            KasinoButton("rematch", game.id, label="Rematch", style=discord.ButtonStyle.success)
        )
        return view
    return None


def _card_option(game: Game, index: int, seat: int, ink: CardInk) -> discord.SelectOption:
    """A card of the hand: its face as the option's emoji when the faces are uploaded, and
    always a text label (``7♦``), so the option reads without the picture too. Never
    Discord's own suit emoji: its black suits are near-invisible on the dark theme; the
    label's black suits carry U+FE0E (text presentation, see :data:`bot.render.SUIT_PLAIN`)."""
    rnd = game.match.round
    rules = game.match.rules
    played = rnd.hands[seat][index]
    label = plain(played)
    values = capture_values(rules, played, True)
    if values != (played.rank,):
        label += " (counts " + " or ".join(map(str, values)) + ")"
    can_take = bool(rnd.table) and bool(capture_options(rules, played, list(rnd.table), limit=1))
    if can_take:
        description = "can capture: choose what next"
    else:
        label += ": trail"
        description = "takes nothing: put on the table at once"
    return discord.SelectOption(
        label=label, value=str(index), description=description, emoji=ink.emoji(played)
    )


@_static
def hand_view(game: Game, seat: int, ink: CardInk = TEXT_INK) -> discord.ui.View:
    """On your turn a select of the card to play, in the sorted order of the hand (its
    values stay hand positions), and Hint when hints are on; always a Refresh button."""
    view = _view()
    rnd = game.match.round
    my_turn = game.status is Status.PLAYING and not game.extra.get("paused") and rnd.to_move == seat
    hand = rnd.hands[seat]
    if my_turn and hand:
        order = sorted(range(len(hand)), key=lambda i: sorted_cards(hand).index(hand[i]))
        options = [_card_option(game, i, seat, ink) for i in order]
        view.add_item(
            KasinoSelect(
                "card",
                game.id,
                game.version,
                options=options[:MAX_MENU_OPTIONS],
                placeholder="Your turn: choose a card to play",
            )
        )
    if my_turn and game.hints:
        view.add_item(KasinoButton("hint", game.id, game.version, label="Hint", emoji="💡"))
    if game.status is Status.PLAYING:
        view.add_item(KasinoButton("hand", game.id, game.version, label="Refresh", emoji="🔄"))
    return view


@_static
def take_view(game: Game, seat: int, index: int, ink: CardInk = TEXT_INK) -> discord.ui.View:
    """What the chosen card takes: ranked captures, trail, or choosing the cards yourself."""
    rnd = game.match.round
    rules = game.match.rules
    played = rnd.hands[seat][index]
    choices = rank_choices(rules, played, rnd.table, CAPTURE_CHOICES) if rnd.table else []
    options = [
        discord.SelectOption(
            label=choice_label(rules, played, choice),
            value=f"c{n}",
            description=choice_description(rules, choice),
        )
        for n, choice in enumerate(choices)
    ]
    options.append(
        discord.SelectOption(
            label="Trail: take nothing",
            value="trail",
            description=f"Put {plain(played)} on the table",
            emoji=ink.emoji(played),
        )
    )
    if choices:
        options.append(
            discord.SelectOption(
                label="Choose the cards myself",
                value="pick",
                description="Pick any table cards that add up",
            )
        )
    view = _view()
    view.add_item(
        KasinoSelect(
            "take",
            game.id,
            game.version,
            index,
            options=options,
            placeholder=f"What does {plain(played)} take?",
        )
    )
    view.add_item(KasinoButton("hand", game.id, game.version, label="Back"))
    return view


@_static
def pick_view(game: Game, index: int, ink: CardInk = TEXT_INK) -> discord.ui.View:
    """A multi-select of the table cards (values are table positions: cards may repeat)."""
    table = game.match.round.table[:MAX_MENU_OPTIONS]
    options = [
        discord.SelectOption(label=plain(c), value=str(i), emoji=ink.emoji(c))
        for i, c in enumerate(table)
    ]
    view = _view()
    view.add_item(
        KasinoSelect(
            "pick",
            game.id,
            game.version,
            index,
            options=options,
            placeholder="Choose the table cards to take",
            max_values=len(options),
        )
    )
    view.add_item(KasinoButton("hand", game.id, game.version, label="Back"))
    return view


@_static
def scores_view(
    variant: str | None, target: int | None, page: int, pages: int, *, computers: bool = False
) -> discord.ui.View:
    """Previous / Next page buttons, and a switch between the people / computers boards."""
    view = _view()
    key, board = variant or "-", "c" if computers else "p"
    view.add_item(
        KasinoButton(
            "scores", key, target or 0, max(page - 1, 1), board,
            label="Previous", disabled=page <= 1,
        )
    )  # fmt: skip
    view.add_item(
        KasinoButton(
            "scores", key, target or 0, page + 1, board, label="Next", disabled=page >= pages
        )
    )
    other = "p" if computers else "c"
    label = "Against people" if computers else "Against computers"
    view.add_item(KasinoButton("scores", key, target or 0, 1, other, label=label, emoji="🤖"))
    return view
