"""The texts of the history and of a replay: a page of finished matches, and one step of
a finished match with every hand, the table, the move in words and the scores (the deal's
seed and commitment are behind the replay's "How to check", :mod:`bot.check_text`, and in
the export)."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import EN, Lang
from bot.models import Seat
from bot.records.profile import total_text
from bot.records.record import Step
from bot.render import (
    TABLE_COLOUR,
    TEXT_INK,
    CardInk,
    score_line,
    seat_name,
    short_date,
    side_name,
    signed,
    sorted_cards,
    table_text,
    variant_name,
    winner_text,
)
from bot.storage import HistoryRow


def _seat(data: dict[str, Any]) -> Seat:
    return Seat(None, str(data.get("name", "?")), str(data.get("kind", "human")), data.get("level"))


def history_line(row: HistoryRow, t: Lang = EN) -> str:
    """``#12 · <t:…:d> · Swedish Kasino · anna **16**, bjorn **12** · 🏆 anna``: each side
    named with its final total (:func:`bot.records.profile.total_text`; partners joined
    by ``&``)."""
    summary = row.summary
    rows = [s for s in summary.get("seats", []) if isinstance(s, dict)]
    seats = [_seat(s) for s in rows]
    sides: dict[int, list[str]] = {}
    for index, (seat, data) in enumerate(zip(seats, rows, strict=True)):
        sides.setdefault(int(data.get("side", index)), []).append(seat_name(seat, t))
    totals = list(summary.get("scores", []))
    scores = ", ".join(
        f"{' & '.join(sides.get(side, ['?']))} {total_text(int(points))}"
        for side, points in enumerate(totals)
    )
    winner = summary.get("winner")
    won = " & ".join(sides.get(winner, [])) if isinstance(winner, int) else ""
    line = t(
        "**#{id}** · {date} · {variant} · {scores} · 🏆 {winner}",
        id=row.game_id,
        date=short_date(row.finished_at),
        variant=variant_name(row.variant, t),
        scores=scores,
        winner=won or t("No winner"),
    )
    mark = summary.get("tournament")
    if isinstance(mark, dict) and mark.get("name") and isinstance(mark.get("round"), int):
        name = str(mark["name"]).replace("*", "").replace("`", "")
        line += " · " + t("{tournament}, round {round}", tournament=name, round=mark["round"])
    return line


def history_option_label(row: HistoryRow, t: Lang = EN) -> str:
    """A history page's match in the replay menu (no Discord timestamp there: the date as
    the reader's language writes it)."""
    return t(
        "#{id} · {variant} · {date}",
        id=row.game_id,
        variant=variant_name(row.variant, t),
        date=t.date(row.finished_at),
    )[:100]


def history_embed(
    rows: list[HistoryRow],
    who: str | None,
    variant: str | None,
    page: int,
    pages: int,
    t: Lang = EN,
) -> discord.Embed:
    """One page of finished matches, newest first (``who``: the member's name, or
    ``None`` for the whole server)."""
    title = t("Kasino history: {who}", who=who) if who else t("Kasino history: this server")
    if variant:
        title += f" · {variant_name(variant, t)}"
    embed = discord.Embed(title=title, colour=TABLE_COLOUR)
    lines = [history_line(row, t) for row in rows]
    embed.description = "\n".join(lines) or t("No finished matches here yet.")
    footer = t("Page {page} of {pages}", page=page, pages=pages)
    if rows:
        footer += t(" · choose a match below to replay it")
    embed.set_footer(text=footer)
    return embed


def replay_embed(step: Step, ink: CardInk = TEXT_INK, t: Lang = EN) -> discord.Embed:
    """One step of a finished match's replay (only ever of a finished match: every hand
    is shown)."""
    game = step.game
    t = t.for_game(game.options.variant)
    rnd = game.match.round
    title = t(
        "Replay: game #{id} · {variant}",
        id=game.id,
        variant=variant_name(game.options.variant, t),
    )
    embed = discord.Embed(title=title, colour=TABLE_COLOUR)
    lines = [
        t(
            "Step {step} of {steps} · round {round} · deal {k} of {n}",
            step=step.step,
            steps=step.steps,
            round=step.round,
            k=step.deal,
            n=step.deals,
        )
    ]
    if step.text:
        lines.append(t("**Move:** {move}", move=ink.line(step.text)))
    else:
        lines.append(t("The first deal: nobody has played yet."))
    if step.ended_round is not None and step.round_totals is not None:
        totals = " · ".join(
            f"{side_name(game, side, t)} {signed(points)}"
            for side, points in enumerate(step.round_totals)
        )
        lines.append(t("Round {round} is over: {totals}", round=step.ended_round, totals=totals))
    lines.append(
        t("**Table ({count}):** {table}", count=len(rnd.table), table=table_text(game, ink.card, t))
    )
    lines.append(t("**Score:** {score}", score=score_line(game, t)))
    if game.match.is_over:
        lines.append(f"🏆 **{winner_text(game, t)}**")
    elif not rnd.is_over:
        lines.append(t("**To move:** {name}", name=seat_name(game.seats[rnd.to_move], t)))
    embed.description = "\n".join(lines)
    for index, seat in enumerate(game.seats):
        hand = ink.cards(sorted_cards(rnd.hands[index]), empty=t("(empty)"))
        pile = t.ngettext("captured {n} card", "captured {n} cards", len(rnd.piles[index]))
        embed.add_field(name=seat_name(seat, t), value=f"{hand}\n{pile}", inline=True)
    embed.set_footer(
        text=t("Every hand is shown because the match is over. Game #{id}", id=game.id)
    )
    return embed
