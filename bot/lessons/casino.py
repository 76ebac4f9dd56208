"""The Casino lesson (also for Royal Casino, Glimne's Mulle, Swazi, Sotho and South African
Casino, with a note on what differs): capturing, building, raising a build, adding to a
build, what blocks a trail, and capturing a build."""

from __future__ import annotations

from bot.engine import Move
from bot.i18n import N_
from bot.lessons.steps import Step, Wrong, builds, plays, takes

INTRO = N_(
    "Casino: you capture as in Kasino, and you can also build: put cards together as a"
    " build to take on a later turn. Each step is a small position: make the move asked for"
    " with the menus, as in a game."
)


def _raises_to_nine(move: Move) -> bool:
    return move.card.rank == 3 and move.kind == "build" and move.value == 9


STEPS = (
    Step(
        "casino",
        hand="9C QH",
        table="4D 5C 6H 3S QS",
        task=N_(
            "**Capturing:** an ace counts 1 and 2 to 10 their number; a card takes table"
            " cards of its value and groups adding up to it. J, Q and K have no number and"
            " take only their own rank. Take 4♦ + 5♣ and 6♥ + 3♠ together with your 9♣."
        ),
        right=takes("9C", "4D 5C 6H 3S"),
        wrongs=(
            Wrong(
                plays("9C", "capture"),
                N_("Take both groups in one move: 4 + 5 and 6 + 3 are both 9."),
            ),
            Wrong(
                plays("QH", "capture"),
                N_(
                    "Allowed, but a queen takes only a queen. This step is about sums: take"
                    " both groups with your 9♣."
                ),
            ),
        ),
        miss=N_("Play the 9♣ and take 4♦ + 5♣ and 6♥ + 3♠ together."),
        after=N_("Two groups in one move, as in Kasino."),
    ),
    Step(
        "casino",
        hand="3H 8S 7D",
        table="5H 2D",
        task=N_(
            "**Building:** play 3♥ onto 5♥ as a build of 8. You keep your 8♠ to take the"
            " build on a later turn: you may only build a value you hold."
        ),
        right=builds("3H", 8, "5H"),
        wrongs=(
            Wrong(
                plays("7D", "capture"),
                N_(
                    "Taking 5♥ + 2♦ is allowed, but this step is about building: play 3♥"
                    " onto 5♥ as an 8."
                ),
            ),
        ),
        miss=N_("Choose the 3♥, then the build of 8 with the 5♥."),
        after=N_(
            "The build is yours: it is taken whole, only by an 8. Your opponent may take it"
            " with an 8 of their own, or change it."
        ),
    ),
    Step(
        "casino",
        hand="3H 9S",
        table="[6: 4C 2D]@1 KC",
        task=N_(
            "**Raising a build:** your opponent built 6. Add your 3♥ to make it 9: you"
            " hold the 9♠ to take it, and the build becomes yours."
        ),
        right=_raises_to_nine,
        wrongs=(
            Wrong(
                plays("9S", "trail"),
                N_("The 9♠ takes nothing yet: first raise the build to 9 with your 3♥."),
            ),
        ),
        miss=N_("Choose the 3♥ and raise the build of 6 to 9."),
        after=N_(
            "Only a card from your hand raises a build, and a build of several groups can"
            " never be raised."
        ),
    ),
    Step(
        "casino",
        hand="2S 8S",
        table="[8: 5H 3D] 6C",
        task=N_(
            "**Adding to a build:** 2♠ + 6♣ make 8 too. Add them to your build of 8: it"
            " becomes a build of two groups, still worth 8, and your 8♠ takes it all later."
        ),
        right=builds("2S", 8, "5H 3D 6C"),
        wrongs=(
            Wrong(
                plays("8S", "capture"),
                N_(
                    "Taking your build now is allowed, but adding first wins the 2♠ and the"
                    " 6♣ too (the 2♠ is worth a point)."
                ),
            ),
        ),
        miss=N_("Choose the 2♠ and add it with the 6♣ to your build of 8."),
        after=N_("Anyone may add to a build; whoever adds last must hold its value."),
    ),
    Step(
        "casino",
        hand="4H 9S",
        table="[9: 5C 4D] KC",
        task=N_(
            "**What blocks a trail:** while you own a build you may not trail. Your 4♥ can"
            " do nothing else, so take your build of 9 with the 9♠."
        ),
        right=takes("9S", "5C 4D"),
        miss=N_("Take your build with the 9♠."),
        after=N_("Owning a build, you must take, build or add each turn: no plain trail."),
    ),
    Step(
        "casino",
        hand="7S 5D",
        table="[7: 4C 3D]@1 2H",
        task=N_(
            "**Capturing a build:** a build is taken whole, by a card of its value."
            " Take your opponent's build of 7 with your 7♠."
        ),
        right=takes("7S", "4C 3D"),
        wrongs=(
            Wrong(
                plays("5D", "build"),
                N_(
                    "Building is allowed, but your opponent could still take the build."
                    " Take it now with your 7♠."
                ),
            ),
        ),
        miss=N_("Take the build of 7 with your 7♠."),
        after=N_("The build is yours, all its cards."),
    ),
)

OUTRO = N_(
    "That is Casino. The last capturer takes the cards left at the end. Each round scores"
    " most cards 3, most spades 1, each ace 1, the 10♦ (big casino) 2 and the 2♠ (little"
    " casino) 1. The first to 21 points wins."
)

NOTES = {
    "royal": N_(
        "Royal Casino: J 11, Q 12, K 13 and an ace 1 or 14, so picture cards take sums and"
        " are built like the others."
    ),
    "mulle-glimne": N_(
        "Glimne's Mulle: two decks, eight cards to the table at first; from the hand an ace"
        " counts 14, the 2♠ 15 and the 10♦ 16. Taking your card's identical twin is a"
        " mulle, worth the card's hand value."
    ),
    "swazi": N_(
        "Swazi Casino: played anticlockwise; J 11, Q 12, K 13, an ace 1 or 14. The top card"
        " of an opponent's capture pile may go into a build. No sweeps; most cards 2 and"
        " most spades 2."
    ),
    "sotho": N_("Sotho Casino: as Swazi Casino, but picture cards only pair and an ace counts 1."),
    "south-african": N_(
        "South African Casino: 40 cards, no pictures. The top card of every capture pile"
        " may be taken, and while you own a build you may not trail."
    ),
}
