"""An analysis as the player sees it: a summary, and a page per move (embeds only; the
buttons are :mod:`cogs.learning.analysis`'s). Every text is in the reader's language, numbers
the language's way (:meth:`bot.i18n.Lang.decimal`), cards in the reader's ink."""

from __future__ import annotations

import discord

from bot.analysis.model import (
    BEST_BELOW,
    FINE_BELOW,
    INACCURACY_BELOW,
    VERDICTS,
    Analysis,
    MoveReview,
)
from bot.engine import Move, Round
from bot.i18n import DEFAULT, N_, Lang
from bot.records.record import GameRecord
from bot.render import TEXT_INK, CardInk, sorted_cards, table_text, variant_name
from bot.turns import cards_of, move_label

# a mark per verdict, the same in the summary, the page and the buttons
MARKS = {"best": "✅", "fine": "☑️", "inaccuracy": "⚠️", "mistake": "❌"}
VERDICT_NAMES = {
    "best": N_("best"),
    "fine": N_("fine"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
}
COLOURS = {
    "best": discord.Colour.green(),
    "fine": discord.Colour.dark_green(),
    "inaccuracy": discord.Colour.gold(),
    "mistake": discord.Colour.red(),
}
SUMMARY_COLOUR = discord.Colour.dark_green()
COSTLIEST = 3


def verdict_text(verdict: str, t: Lang) -> str:
    """A verdict with its mark: ``❌ mistake``."""
    return f"{MARKS[verdict]} {t(VERDICT_NAMES[verdict])}"


def points(cost: float, t: Lang) -> str:
    """Points given away, the language's way (``1.25``, ``1,25``)."""
    return t.decimal(cost, 2)


def move_number(analysis: Analysis, review: MoveReview) -> int:
    """The review's page: its place among the seat's moves analysed, from 1."""
    return analysis.reviews.index(review) + 1


def summary_embed(analysis: Analysis, variant: str, t: Lang) -> discord.Embed:
    """The counts per verdict, the points given away in all, and the costliest moves."""
    t = t.for_game(variant)
    embed = discord.Embed(
        title=t(
            "Your moves in game #{id} · {variant}",
            id=analysis.game_id,
            variant=variant_name(variant, t),
        ),
        colour=SUMMARY_COLOUR,
    )
    moves = len(analysis.reviews)
    lines = [
        t.ngettext(
            "{n} move analysed: what the hard computer would have played, seeing only what"
            " you saw.",
            "{n} moves analysed: what the hard computer would have played, seeing only what"
            " you saw.",
            moves,
        )
    ]
    counts = analysis.counts()
    lines.append(" · ".join(f"{verdict_text(v, t)} **{counts[v]}**" for v in VERDICTS))
    lines.append(t("**Points given away in all:** {points}", points=points(analysis.total_cost, t)))
    exact = analysis.exact_count
    if exact:
        lines.append(
            t.ngettext(
                "{n} move was valued exactly (a last deal of two players, every line of play"
                " searched to the end of the round); the others are estimates.",
                "{n} moves were valued exactly (a last deal of two players, every line of play"
                " searched to the end of the round); the others are estimates.",
                exact,
            )
        )
    embed.description = "\n".join(lines)
    costliest = analysis.costliest(COSTLIEST)
    if costliest:
        rows = [
            t(
                "{n}. Move {move} (round {round}): {verdict}, {points} points given away",
                n=rank,
                move=move_number(analysis, review),
                round=review.round_number,
                verdict=verdict_text(review.verdict, t),
                points=points(review.cost, t),
            )
            for rank, review in enumerate(costliest, 1)
        ]
        embed.add_field(name=t("The costliest moves"), value="\n".join(rows), inline=False)
    else:
        embed.add_field(
            name=t("The costliest moves"),
            value=t("None: every move was as good as the hard computer's."),
            inline=False,
        )
    embed.set_footer(
        text=t(
            "Points: what the move gave away in the round's expected points against the"
            " better move. Best: under {best} · fine: under {fine} · inaccuracy: under"
            " {inaccuracy} · mistake: {inaccuracy} or more.",
            best=t.decimal(BEST_BELOW),
            fine=t.decimal(FINE_BELOW),
            inaccuracy=t.decimal(INACCURACY_BELOW),
        )
    )
    return embed


def move_embed(
    record: GameRecord,
    analysis: Analysis,
    page: int,
    ink: CardInk = TEXT_INK,
    t: Lang | None = None,
) -> discord.Embed:
    """The page of the ``page``-th move analysed (from 1): the move played and the better
    one in words and faces, the points given away, the verdict and the reason. Replays
    the record to the position before the move: its cost grows with the step (the bot
    calls it in a worker thread)."""
    assert t is not None
    review = analysis.reviews[page - 1]
    state = record.state_at(review.step - 1, t)
    before = state.game.match.round
    t = t.for_game(state.game.options.variant)
    embed = discord.Embed(
        title=t(
            "Game #{id} · move {n} of {count} · round {round}",
            id=analysis.game_id,
            n=page,
            count=len(analysis.reviews),
            round=review.round_number,
        ),
        colour=COLOURS[review.verdict],
    )
    same = review.played == review.best
    lines = [f"**{verdict_text(review.verdict, t)}**"]
    if same:
        lines.append(
            t("No move does better, against the best defence.")
            if review.exact
            else t(
                "No better move found: as good as the hard computer's, within the estimate's noise."
            )
        )
    else:
        lines.append(t("**Points given away:** {points}", points=points(review.cost, t)))
    lines.append(exactness(review, t))
    embed.description = "\n".join(lines)
    hand = ink.cards(sorted_cards(before.hands[analysis.seat]), empty=t("(empty)"))
    embed.add_field(name=t("Your hand"), value=hand, inline=False)
    embed.add_field(name=t("The table"), value=table_text(state.game, ink.card, t), inline=False)
    embed.add_field(name=t("You played"), value=move_text(before, review.played, ink, t))
    if not same:
        embed.add_field(name=t("Better"), value=move_text(before, review.best, ink, t))
    reason = review.reasons.get(t.code) or review.reasons.get(DEFAULT, "")
    if reason:
        embed.add_field(name=t("Why"), value=ink.line(reason)[:1024], inline=False)
    return embed


def exactness(review: MoveReview, t: Lang) -> str:
    """How the move was valued: exactly, or estimated."""
    if review.exact:
        return t(
            "Exact: nothing was left to deal, so your opponent's cards were known and every"
            " line of play was searched to the end of the round."
        )
    return t(
        "Estimated: the rest of the round was played out quickly in sampled deals of the"
        " cards you could not see, not searched to the end."
    )


def move_text(rnd: Round, move: Move, ink: CardInk, t: Lang) -> str:
    """A move in words (as its menu option says it), under the faces of the card played
    and of the cards it takes or builds with when the reader sees faces."""
    words = move_label(rnd, move, ink.label, t)
    if not ink.faces:
        return words
    used = cards_of([*move.taken, *move.using])
    faces = ink.card(move.card) + (" → " + ink.cards(used) if used else "")
    return f"{faces}\n{words}"
