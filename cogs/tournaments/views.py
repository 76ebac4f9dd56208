"""A tournament's buttons: the sign-up's Join / Leave (players) and Start / Cancel (the
organiser), the podium's Replay per game (``k:replay:<game>:0:open``, as a finished
match's own Replay button), labelled by its round and table, and on both the tournament's
How to check (``k:tour:<tournament>:check``: its seed's commitment, privately)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import discord

from bot.i18n import EN, Lang
from bot.records.seal import CUT_MAX
from cogs.components import KasinoButton, KasinoSelect

ROW_WIDTH = 5  # buttons a row
MAX_BUTTONS = 25  # five rows of five: a message's limit


def check_button(tournament_id: int, t: Lang = EN, *, row: int = 0) -> KasinoButton:
    """The tournament's How to check: what its 🔒 mark stands for, privately."""
    return KasinoButton("tour", tournament_id, "check", label=t("How to check"), emoji="🔒",
                        row=row)  # fmt: skip


def closed_view(tournament_id: int, t: Lang = EN) -> discord.ui.View:
    """A closed sign-up's one button: How to check (its players noted the commitment on
    Join; anyone may look it up here, through the tournament and after it)."""
    view = discord.ui.View(timeout=None)
    view.add_item(check_button(tournament_id, t))
    view.stop()
    return view


def signup_view(tournament_id: int, t: Lang = EN, *, sealed: bool = True) -> discord.ui.View:
    """The sign-up message's buttons (dispatched by their custom_ids: the view is stopped);
    How to check for a tournament whose deal seed is ``sealed``."""
    view = discord.ui.View(timeout=None)
    view.add_item(KasinoButton("tour", tournament_id, "join", label=t("Join"),
                               style=discord.ButtonStyle.success))  # fmt: skip
    view.add_item(KasinoButton("tour", tournament_id, "leave", label=t("Leave")))
    view.add_item(KasinoButton("tour", tournament_id, "start", label=t("Start"),
                               style=discord.ButtonStyle.primary, row=1))  # fmt: skip
    view.add_item(KasinoButton("tour", tournament_id, "cancel", label=t("Cancel"),
                               style=discord.ButtonStyle.danger, row=1))  # fmt: skip
    if sealed:  # beside Join and Leave: anyone's, not the organiser's
        view.add_item(check_button(tournament_id, t, row=0))
    options = [discord.SelectOption(label=str(n), value=str(n)) for n in range(1, CUT_MAX + 1)]
    view.add_item(
        KasinoSelect(
            "tcut",
            tournament_id,
            options=options,
            placeholder=t("✂️ Cut the deck (optional): pick a number"),
            row=2,
        )
    )
    view.stop()
    return view


class Played(NamedTuple):
    """A game of the tournament, as the podium's Replay button names it."""

    game_id: int
    round: int
    table: int


def podium_view(
    games: Sequence[Played], t: Lang = EN, *, tournament_id: int | None = None
) -> discord.ui.View | None:
    """A Replay button per game, in the order played (round by round, table by table),
    each saying its round and table ("Round 1 · #1"); past a message's :data:`MAX_BUTTONS`,
    the latest games (the final rounds matter most). With ``tournament_id``, the
    tournament's How to check comes last (one Replay fewer). ``None`` when there is no
    button at all."""
    if not games and tournament_id is None:
        return None
    room = MAX_BUTTONS - (tournament_id is not None)
    ordered = sorted(games, key=lambda g: (g.round, g.table))[-room:] if games else []
    view = discord.ui.View(timeout=None)
    for index, game in enumerate(ordered):
        view.add_item(
            KasinoButton(
                "replay",
                game.game_id,
                0,
                "open",
                label=t("Round {round} · #{table}", round=game.round, table=game.table),
                emoji="⏯️",
                row=index // ROW_WIDTH,
            )
        )
    if tournament_id is not None:
        view.add_item(check_button(tournament_id, t, row=len(ordered) // ROW_WIDTH))
    view.stop()
    return view
