"""The Swedish Kasino lesson (also for Överspader, Finnish Kasino and Mulle, with a step
or a note on what differs): capturing by rank and by sum, several groups at once, the ace,
the special cards, the tabbe, the last deal and the scoring in brief."""

from __future__ import annotations

from bot.i18n import N_
from bot.lessons.steps import Step, Wrong, plays, takes, takes_any, trails

INTRO = N_(
    "Swedish Kasino: you play one card a turn and take table cards with it. Each step is"
    " a small position: make the move asked for with the menus, as in a game."
)

STEPS = (
    Step(
        "swedish",
        hand="8H 3C",
        table="8S KD 4D",
        task=N_(
            "**Capturing by rank:** a card takes a table card of the same value."
            " Take the 8♠ with your 8♥."
        ),
        right=takes("8H", "8S"),
        miss=N_("Not that one: play the 8♥ and choose the 8♠ as what it takes."),
        after=N_("Taken cards go to your pile; they score when the round ends."),
    ),
    Step(
        "swedish",
        hand="9C 2H",
        table="4D 5S QH",
        task=N_(
            "**Capturing by sum:** a card also takes table cards that add up to its value."
            " 4 + 5 = 9: take 4♦ + 5♠ with your 9♣."
        ),
        right=takes("9C", "4D 5S"),
        miss=N_("Play the 9♣: 4 + 5 = 9, so it takes the 4♦ and the 5♠ together."),
        after=N_("Picture cards count too: J 11, Q 12 and K 13, so a K takes 6 + 7."),
    ),
    Step(
        "swedish",
        hand="7D JS",
        table="7C 4H 3S KD",
        task=N_(
            "**Several groups at once:** one card takes every group you choose, each adding"
            " up to its value. Take as much as you can with your 7♦."
        ),
        right=takes("7D", "7C 4H 3S"),
        wrongs=(
            Wrong(
                plays("7D", "capture"),
                N_("That is only part of it: the 7♦ takes the 7♣ and 4♥ + 3♠ in one move."),
            ),
        ),
        miss=N_("Play the 7♦ and take the 7♣ and 4♥ + 3♠ together."),
        after=N_(
            "Each table card belongs to one group only. You may always take less, or trail instead."
        ),
    ),
    Step(
        "swedish",
        hand="AH 6C",
        table="10C 4D 8S",
        task=N_("**The ace** counts 1 or 14, as you choose. Play your A♥ as 14 and take 10♣ + 4♦."),
        right=takes("AH", "10C 4D"),
        miss=N_("Play the A♥: as 14 it takes 10 + 4."),
        after=N_("An ace on the table may count 1 or 14 as well, and every ace scores 1 point."),
    ),
    Step(
        "swedish",
        hand="10S 6C",
        table="10D 2S 4H 9C",
        task=N_(
            "**The special cards:** the 10♦ (storan) scores 2 points and the 2♠ (lillan)"
            " 1 point. Take the one worth more."
        ),
        right=takes_any("10D"),
        wrongs=(
            Wrong(
                takes_any("2S"),
                N_("Lillan (2♠) is worth 1 point, storan (10♦) 2: take the 10♦ with your 10♠."),
            ),
        ),
        miss=N_("Take the 10♦ (storan, 2 points) with your 10♠."),
        after=N_("Storan is yours: 2 points when the round is scored."),
    ),
    Step(
        "swedish",
        hand="9S 3D",
        table="5D 4C",
        task=N_(
            "**Tabbe:** a capture that leaves the table empty scores 1 point. Clear the table."
        ),
        right=takes("9S", "5D 4C"),
        wrongs=(
            Wrong(
                trails,
                N_(
                    "A trail leaves the cards for your opponent. The 9♠ takes 5♦ + 4♣ and"
                    " clears the table."
                ),
            ),
        ),
        miss=N_("The 9♠ takes 5♦ + 4♣: play it and clear the table."),
        after=N_("Tabbe! 1 point, and your opponent must now trail onto the empty table."),
    ),
    Step(
        "swedish",
        hand="7H",
        others=("2H",),
        table="7C 3D 9S",
        deck="",
        last_capturer=1,
        task=N_(
            "**The last deal (sistan):** when the cards run out, the cards left on the"
            " table go to whoever captured last, with 1 point. Your opponent captured last"
            " so far and has one card left. Make the last capture."
        ),
        right=takes("7H", "7C"),
        wrongs=(
            Wrong(
                trails,
                N_(
                    "After a trail the cards left on the table would go to your opponent,"
                    " who captured last. Take the 7♣ with your 7♥."
                ),
            ),
        ),
        miss=N_("Take the 7♣ with your 7♥."),
        after=N_(
            "Your opponent's last card cannot capture, so the cards left on the table are"
            " yours, with the point for sistan."
        ),
    ),
)

OUTRO = N_(
    "That is Swedish Kasino. Each round scores most spades 2, most cards 1, each ace 1,"
    " storan 2, lillan 1, the last capture 1 and each tabbe 1. The first to 16 points wins."
)

FINNISH = Step(
    "finnish",
    hand="AC 7H",
    table="AD 6S 8C",
    task=N_(
        "**Finnish Kasino:** a card from your hand can count more than on the table: the"
        " ace 14 (only), the 2♠ 15 and the 10♦ 16. Take 6♠ + 8♣ with your A♣."
    ),
    right=takes("AC", "6S 8C"),
    wrongs=(
        Wrong(
            plays("7H", "capture"),
            N_(
                "Allowed (the A♦ counts 1 on the table, and 6 + 1 = 7), but this step is about"
                " the ace from your hand: as 14 it takes 6♠ + 8♣."
            ),
        ),
    ),
    miss=N_("Play the A♣: from your hand it counts 14, so it takes 6♠ + 8♣."),
    after=N_("On the table an ace counts 1, the 2♠ 2 and the 10♦ 10."),
)

MULLE = Step(
    "mulle",
    hand="7H 9S",
    table="7H 3C 4D",
    task=N_(
        "**Mulle** is played with two decks, so every card has a twin. Taking the twin of"
        " your card and nothing else is a mulle: 5 points. Make a mulle: choose the cards"
        " yourself and take only the 7♥."
    ),
    right=takes("7H", "7H"),
    wrongs=(
        Wrong(
            plays("7H", "capture"),
            N_(
                "More cards, but no mulle: a mulle takes the identical twin and nothing else."
                " Take only the 7♥."
            ),
        ),
    ),
    miss=N_("Take the table's 7♥ alone with your 7♥."),
    after=N_("Mulle! 5 points."),
)

NOTES = {
    "overspader": N_(
        "Överspader is played the same way, but instead of 2 points for most spades every"
        " spade beyond six scores 1 point, and the game is to 21."
    ),
    "finnish": N_(
        "Finnish Kasino: no point for the last capture; a sweep (mökki) scores nothing in"
        " the last deal or once a side has 10 points, and sweeps cancel each other out."
        " Aces, lillan, storan and sweeps count as soon as they are taken: the first to 16"
        " wins at once."
    ),
    "mulle": N_(
        "Mulle: two decks, five cards each; most spades scores 1, most cards nothing, each"
        " mulle 5; the game is to 50."
    ),
}
