"""Every variant's lobby, table, hand, menus, summaries and rules in every language: said
without a field left unfilled, and without English words in Swedish or Finnish."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from bot.engine import Match, rules_for
from bot.i18n import lang, languages
from bot.models import VARIANT_NAMES, Game, GameOptions, Seat, Status
from bot.render import (
    describe_move,
    hand_content,
    lobby_embed,
    round_summary,
    table_embed,
)
from bot.rules_text import rules_embed
from bot.turns import after, moves_of
from cogs.play.views import hand_view, lobby_view, pick_view, table_view, take_view

# Words that only English messages use: none may appear in another language's.
ENGLISH = re.compile(
    r"\b(the|and|your|turn|table|round|deal|score|players?|points?|cards?|take|trail|"
    r"build|game|wins?|over|choose|hint|join|start)\b",
    re.IGNORECASE,
)


def said(embed: discord.Embed) -> str:
    data = embed.to_dict()
    parts = [
        data.get("title", ""),
        data.get("description", ""),
        data.get("footer", {}).get("text", ""),
    ]
    parts += [f"{f['name']} {f['value']}" for f in data.get("fields", [])]
    return "\n".join(parts)


def view_text(view: discord.ui.View | None) -> str:
    parts: list[Any] = []
    for child in view.children if view is not None else ():
        item = getattr(child, "item", child)  # a DynamicItem wraps its button or select
        parts += [getattr(item, "label", None), getattr(item, "placeholder", None)]
        for option in getattr(item, "options", ()):
            parts += [option.label, option.description]
    return "\n".join(p for p in parts if p)


def game_of(variant: str, seed: int) -> Game:
    seats = [Seat(1, "Anna"), Seat(2, "Bjorn")]
    game = Game(7, 1, 2, 1, GameOptions(variant=variant, target=rules_for(variant).target), seats)
    game.status = Status.PLAYING
    game.match = Match.start(game.options.rules(2), 2, seed=seed)
    game.deadline = 1_800_000_000.0
    return game


@pytest.mark.parametrize("variant", list(VARIANT_NAMES))
@pytest.mark.parametrize("code", languages())
def test_a_variant_in_a_language(variant: str, code: str) -> None:
    t = lang(code)
    game = game_of(variant, seed=3)
    lobby = Game(8, 1, 2, 1, game.options, [Seat(1, "Anna"), Seat.computer("hard")])
    texts = [said(lobby_embed(lobby, t)), view_text(lobby_view(lobby, t))]
    texts.append(said(rules_embed(variant, t)))
    # a few turns, each said in words; the menus of the player to move
    for _ in range(6):
        rnd = game.match.round
        seat = rnd.to_move
        texts += [hand_content(game, seat, t=t), view_text(hand_view(game, seat, t=t))]
        for index in range(len(rnd.hands[seat])):
            texts.append(view_text(take_view(game, seat, index, t=t)))
        texts.append(view_text(pick_view(game, 0, t=t)))
        if rnd.rules.builds:  # the best move of the first card that has one
            move = next(m for card in rnd.hands[seat] for m in moves_of(rnd, card)[:1])
        else:
            move = rnd.legal_moves(limit=8)[-1]
        later = after(rnd, move)
        before = game.match.rounds_played
        play = game.match.play(move)
        texts.append(
            describe_move(
                "Anna", rnd.rules, move, sweep=play.sweep, mulle=play.mulle, later=later, t=t
            )
        )
        texts += [said(table_embed(game, t=t)), view_text(table_view(game, t))]
        if game.match.rounds_played > before or game.match.is_over:
            break
    finished = game.match.round
    texts.append(said(round_summary(game, finished, None, 1, "", t=t)))
    assert sum(len(text) for text in texts) > 2000
    for text in texts:
        assert "{" not in text.replace("{{", ""), text
        if code != "en":
            assert not ENGLISH.findall(text), (ENGLISH.findall(text), text)
