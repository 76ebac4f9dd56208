"""The puzzle's words: its title and task (the whole position a player needs: the
variant, what the opponent holds, what each side has taken), and the judged answer.

The menus and the hand and table lines are the practice surface's (cogs/learning/practice.py);
this module gives it the texts. It reads render helpers, so unlike the rest of the
package it imports discord (through bot.render).
"""

from __future__ import annotations

from bot.engine import Move, Round
from bot.i18n import N_, Lang
from bot.moves import penalty_points
from bot.render import (
    ITEM_NAMES,
    KRYP_ITEM_NAMES,
    item_name,
    plain,
    sorted_cards,
    total,
    variant_name,
)
from bot.render import cards as cards_text
from bot.turns import mid_sentence, move_label

from .judge import Ending, Judgement
from .model import Puzzle

FAMILY_NAMES = {
    "nordic": N_("Nordic games"),
    "krypkasino": N_("Krypkasino"),
    "casino": N_("Building games"),
}


def family_name(family: str, t: Lang) -> str:
    """A family as the puzzle names it."""
    return t(FAMILY_NAMES[family])


def title(puzzle: Puzzle, day: str, t: Lang) -> str:
    """``Puzzle of the day · 2026-11-26 · Building games: Royal Casino`` (a family of one
    game, Krypkasino, is named once)."""
    family, variant = family_name(puzzle.family, t), variant_name(puzzle.variant, t)
    if family == variant:
        return t("Puzzle of the day · {day} · {variant}", day=day, variant=variant)
    return t(
        "Puzzle of the day · {day} · {family}: {variant}", day=day, family=family, variant=variant
    )


def move_words(round_: Round, move: Move, t: Lang, *, start: bool = False) -> str:
    """A move as the menus say it, with the card played, written inside a sentence:
    ``7♠ → take 3♥ 4♦``, ``trail 6♥`` (``start``: it begins the sentence, ``Trail 6♥``)."""
    if round_.rules.forced_capture and move.is_trail:
        return t("{card}: krypa", card=plain(move.card))  # as the card menu says it
    label = move_label(round_, move, plain, t)
    if move.kind == "capture":
        return f"{plain(move.card)} → {mid_sentence(label)}"
    return label if start else mid_sentence(label)


def _taken_line(rnd: Round, side: int, t: Lang) -> str:
    piles = rnd.side_piles()
    pile = piles[side]
    spades = sum(card.suit == "S" for card in pile)
    text = (
        t.ngettext("{n} card", "{n} cards", len(pile))
        + " · "
        + t.ngettext("{n} spade", "{n} spades", spades)
    )
    if rnd.rules.lowest_wins:
        items = rnd.live_items()[side]
        points = penalty_points(rnd.rules, pile) + items.get("tabbe", 0) + items.get("reward", 0)
        return text + " · " + t.ngettext("{n} penalty point", "{n} penalty points", points)
    points = sum(rnd.live_items()[side].values())
    return text + " · " + t.ngettext("{n} point", "{n} points", points)


def task(puzzle: Puzzle, answered: bool | None, t: Lang) -> str:
    """What to do, and everything about the position besides the hand and the table:
    nothing left to deal, the opponent's cards, what each side has taken so far and who
    captured last (the leftovers go to them). ``answered``: today's counted answer
    (None: none yet)."""
    t = t.for_game(puzzle.variant)
    rnd = puzzle.round
    me = rnd.to_move
    other = 1 - me
    side, other_side = rnd.side_of(me), rnd.side_of(other)
    lines = [
        t(
            "Nothing is left to deal, so you know every card. Your opponent holds: {cards}",
            cards=cards_text(sorted_cards(rnd.hands[other]), fmt=plain),
        ),
        t("Taken so far, you: {taken}", taken=_taken_line(rnd, side, t)),
        t("Taken so far, your opponent: {taken}", taken=_taken_line(rnd, other_side, t)),
    ]
    last = rnd.last_capturer
    if last is None:
        lines.append(t("Nobody has captured yet this round."))
    elif rnd.side_of(last) == side:
        lines.append(t("You captured last: the cards left on the table at the end are yours."))
    else:
        lines.append(t("Your opponent captured last: the cards left at the end are theirs so far."))
    if rnd.rules.lowest_wins:
        lines.append(
            t(
                "Find the move that leaves you the fewest penalty points against your"
                " opponent's, whatever they do."
            )
        )
    else:
        lines.append(
            t(
                "Find the move that ends this round with the most points for you against"
                " your opponent's, whatever they do."
            )
        )
    if answered is not None:
        lines.append(
            t("Today's answer is in: solved. Tries now do not change it.")
            if answered
            else t("Today's answer is in: missed. Tries now do not change it.")
        )
    return "\n".join(lines)


def _order(key: str) -> int:
    keys = list(KRYP_ITEM_NAMES) + list(ITEM_NAMES)
    return keys.index(key) if key in keys else len(keys)


def score_words(puzzle: Puzzle, ending: Ending, t: Lang) -> str:
    """How the round ends after a move: ``7–5``, yours first; in Krypkasino ``12–3 in
    penalty points``."""
    side = puzzle.round.side_of(puzzle.seat)
    mine, theirs = total(ending.scores[side].total), total(ending.scores[1 - side].total)
    if puzzle.round.rules.lowest_wins:
        return t("{mine}–{theirs} in penalty points", mine=mine, theirs=theirs)
    return f"{mine}–{theirs}"


def difference(puzzle: Puzzle, one: Ending, other: Ending, t: Lang) -> str:
    """The score items whose balance differs between two endings, in the variant's
    words: ``Cards, Sistan, Spades`` (what the better move wins)."""
    side = puzzle.round.side_of(puzzle.seat)
    rules = puzzle.round.rules

    def net(ending: Ending, key: str) -> int:
        return ending.scores[side][key] - ending.scores[1 - side][key]

    keys = {k for e in (one, other) for score in e.scores for k in score.items}
    changed = sorted((k for k in keys if net(one, k) != net(other, k)), key=_order)
    return ", ".join(item_name(rules, key, t) for key in changed)


def verdict_text(
    puzzle: Puzzle, judged: Judgement, counted: bool, solved_today: bool, streak: int, t: Lang
) -> str:
    """The judged answer: right (why: how the round ends after it against the next best
    move, and the score items that make the difference) or wrong (what the played move
    gives away, and the best move); then whether this answer counted, and the streak."""
    rnd = puzzle.round
    t = t.for_game(puzzle.variant)
    points = (
        (lambda n: t.ngettext("{n} penalty point", "{n} penalty points", n))
        if rnd.rules.lowest_wins
        else (lambda n: t.ngettext("{n} point", "{n} points", n))
    )
    if judged.right:
        lines = [
            t(
                "**Right!** {move} is the best move: with best play by both the round ends"
                " {score}.",
                move=move_words(rnd, judged.played.move, t, start=True),
                score=score_words(puzzle, judged.best, t),
            ),
            t(
                "The next best move, {move}, ends it {score}: {points} worse.",
                move=move_words(rnd, judged.other.move, t),
                score=score_words(puzzle, judged.other, t),
                points=points(judged.margin),
            ),
        ]
    else:
        lines = [
            t(
                "**Not the best move.** {move} ends the round {score} against the best"
                " defence: it gives away {points}.",
                move=move_words(rnd, judged.played.move, t, start=True),
                score=score_words(puzzle, judged.played, t),
                points=points(judged.loss),
            ),
            t(
                "The best move was {move}, which ends it {score}.",
                move=move_words(rnd, judged.best.move, t),
                score=score_words(puzzle, judged.best, t),
            ),
        ]
    changed = difference(puzzle, judged.best, judged.other, t)
    if changed:
        lines.append(t("The difference is in: {items}.", items=changed))
    if counted:
        lines.append(
            t("This was your answer of the day: solved.")
            if solved_today
            else t("This was your answer of the day: missed.")
        )
    else:
        lines.append(
            t("Your first answer today counts (solved).")
            if solved_today
            else t("Your first answer today counts (missed).")
        )
    if streak:
        lines.append(t.ngettext("Puzzle streak: {n} day", "Puzzle streak: {n} days", streak))
    else:
        lines.append(t("No puzzle streak yet: a day's puzzle solved starts one."))
    return "\n".join(lines)
