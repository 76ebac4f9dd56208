"""The puzzle's words: its title and task (the whole position a player needs: the
variant, what the opponent holds, what each side has taken), and the judged answer.

The menus and the hand and table lines are the practice surface's (cogs/practice.py);
this module gives it the texts. It reads render helpers, so unlike the rest of the
package it imports discord (through bot.render).
"""

from __future__ import annotations

from bot.engine import Move, Round
from bot.i18n import N_, Lang
from bot.moves import penalty_points
from bot.render import cards as cards_text
from bot.render import item_name, plain, sorted_cards, variant_name
from bot.turns import move_label

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
    """``Puzzle of the day · 2026-11-26 · Building games: Royal Casino``."""
    return t(
        "Puzzle of the day · {day} · {family}: {variant}",
        day=day,
        family=family_name(puzzle.family, t),
        variant=variant_name(puzzle.variant, t),
    )


def move_words(round_: Round, move: Move, t: Lang) -> str:
    """A move as the menus say it, with the card played: ``7♠ → Take 3♥ 4♦``."""
    label = move_label(round_, move, plain, t)
    return f"{plain(move.card)} → {label}" if move.kind == "capture" else label


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
                "Find the best move: the one after which you take the fewest penalty points"
                " against your opponent's, whatever they do."
            )
        )
    else:
        lines.append(
            t(
                "Find the best move: the one that ends this round with the most points for"
                " you against your opponent's, whatever they do."
            )
        )
    if answered is not None:
        lines.append(
            t("Today's answer is in: solved. Tries now do not change it.")
            if answered
            else t("Today's answer is in: missed. Tries now do not change it.")
        )
    return "\n".join(lines)


def _items(puzzle: Puzzle, ending: Ending, side: int, t: Lang) -> str:
    rules = puzzle.round.rules
    items = ending.scores[side].items
    parts = [f"{item_name(rules, key, t)} {value}" for key, value in items.items() if value]
    return ", ".join(parts) or t("nothing")


def ending_words(puzzle: Puzzle, ending: Ending, t: Lang) -> str:
    """How the round ends after a move: ``7–3 (you: Cards 3, Spades 2; your opponent:
    Aces 1)``; Krypkasino says penalty points."""
    side = puzzle.round.side_of(puzzle.seat)
    mine, theirs = ending.scores[side].total, ending.scores[1 - side].total
    fields = {
        "mine": mine,
        "theirs": theirs,
        "my_items": _items(puzzle, ending, side, t),
        "their_items": _items(puzzle, ending, 1 - side, t),
    }
    if puzzle.round.rules.lowest_wins:
        return t(
            "{mine} penalty points for you, {theirs} for your opponent (you: {my_items};"
            " your opponent: {their_items})",
            **fields,
        )
    return t("{mine}–{theirs} (you: {my_items}; your opponent: {their_items})", **fields)


def verdict_text(
    puzzle: Puzzle, judged: Judgement, counted: bool, solved_today: bool, streak: int, t: Lang
) -> str:
    """The judged answer: right (why, and what the best move gets against the next best)
    or wrong (what the played move gives away, and the best move); then whether this
    answer counted, and the streak."""
    rnd = puzzle.round
    points = (
        (lambda n: t.ngettext("{n} penalty point", "{n} penalty points", n))
        if rnd.rules.lowest_wins
        else (lambda n: t.ngettext("{n} point", "{n} points", n))
    )
    best = move_words(rnd, judged.best.move, t)
    if judged.right:
        lines = [
            t("**Right!** {move} is the best move.", move=move_words(rnd, judged.played.move, t)),
            t(
                "With best play by both the round ends {ending}.",
                ending=ending_words(puzzle, judged.best, t),
            ),
            t(
                "The next best move, {move}, ends it {ending}: {points} worse.",
                move=move_words(rnd, judged.other.move, t),
                ending=ending_words(puzzle, judged.other, t),
                points=points(judged.margin),
            ),
        ]
    else:
        lines = [
            t("**Not the best move.** {move}", move=move_words(rnd, judged.played.move, t)),
            t(
                "Against the best defence it ends the round {ending}: it gives away {points}.",
                ending=ending_words(puzzle, judged.played, t),
                points=points(judged.loss),
            ),
            t(
                "The best move was {move}, which ends it {ending}.",
                move=best,
                ending=ending_words(puzzle, judged.best, t),
            ),
        ]
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
    lines.append(t.ngettext("Puzzle streak: {n} day", "Puzzle streak: {n} days", streak))
    return "\n".join(lines)
