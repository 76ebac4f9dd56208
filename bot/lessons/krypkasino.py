"""The Krypkasino lesson: krypa (a card that takes nothing), the forced capture, the
penalty cards and the tabbe, and that the lowest score wins."""

from __future__ import annotations

from bot.i18n import N_
from bot.lessons.steps import Step, Wrong, plays

INTRO = N_(
    "Krypkasino turns Kasino around: the cards you take bring penalty points, and the"
    " lowest score wins. Each step is a small position: make the move asked for with the"
    " menus, as in a game."
)

STEPS = (
    Step(
        "krypkasino",
        hand="7C KH",
        table="5S 2D 9H",
        others=("KC QC QD QH",),
        task=N_(
            "**Krypa:** playing a card that takes nothing is to krypa. The 5♠ is a penalty"
            " card (every spade is): krypa with your K♥, which takes nothing here."
        ),
        right=plays("KH", "trail"),
        wrongs=(
            Wrong(
                plays("7C"),
                N_(
                    "A card that can capture must capture when played: the 7♣ takes"
                    " 5♠ + 2♦, and the 5♠ is a penalty point."
                ),
            ),
        ),
        miss=N_("Krypa with the K♥: it takes nothing."),
        after=N_("Penalty cards: the 10♦ 3 points, the 2♠ 2, each ace 1, every other spade 1."),
    ),
    Step(
        "krypkasino",
        hand="9H 5C",
        table="9D 4S AD 7C",
        others=("KC QC QD QH",),
        task=N_(
            "**The forced capture:** both your cards can capture, so you may not krypa: you"
            " must capture. An ace counts 14 from the hand and 1 on the table. Choose the"
            " capture without penalty points."
        ),
        right=plays("9H"),
        wrongs=(
            Wrong(
                plays("5C"),
                N_(
                    "The 5♣ takes 4♠ + A♦ (the ace counts 1 on the table): 2 penalty"
                    " points. The 9♥ takes the 9♦, which costs nothing."
                ),
            ),
        ),
        miss=N_("Take the 9♦ with your 9♥: it costs nothing."),
        after=N_(
            "When every card in your hand can capture, you must capture, and a capture"
            " takes every group it can."
        ),
    ),
    Step(
        "krypkasino",
        hand="9D 5H",
        table="5S 4C",
        others=("KC QC QD QH",),
        task=N_(
            "**Tabbe:** taking every card on the table costs 5 penalty points. Both your"
            " cards must capture: avoid the tabbe."
        ),
        right=plays("5H"),
        wrongs=(
            Wrong(
                plays("9D"),
                N_(
                    "The 9♦ takes the whole table: a tabbe, 5 penalty points, and the 5♠"
                    " 1 more. The 5♥ takes only the 5♠."
                ),
            ),
        ),
        miss=N_("Take the 5♠ with your 5♥ and leave the 4♣."),
        after=N_(
            "1 penalty point instead of 6. The player before the one who makes a tabbe gets"
            " 5 points off."
        ),
    ),
)

OUTRO = N_(
    "That is Krypkasino. Each round the penalty cards add up to 42 points: the 10♦ 3, the"
    " 2♠ 2, each ace 1 and every other spade 1; a tabbe costs 5. The cards left at the end"
    " go to the last capturer. When someone reaches 50, the lowest score wins."
)
