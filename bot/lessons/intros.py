"""Each game's own opening of its lesson: a game that follows another's steps (Finnish
Kasino and Mulle follow Swedish Kasino's, Royal Casino Casino's) still introduces itself."""

from __future__ import annotations

from bot.i18n import N_

INTROS = {
    "overspader": N_(
        "Överspader: you play one card a turn and take table cards with it, and every "
        "spade beyond six scores a point. Each step is a small position: make the move "
        "asked for with the menus, as in a game."
    ),
    "finnish": N_(
        "Finnish Kasino: you play one card a turn and take table cards with it. Aces, "
        "lillan, storan and sweeps (mökki) count as soon as they are taken, and the first "
        "to 16 wins. Each step is a small position: make the move asked for with the "
        "menus, as in a game."
    ),
    "mulle": N_(
        "Mulle is played with two decks: you play one card a turn and take table cards "
        "with it, and taking your card's identical twin alone is a mulle, worth 5 points. "
        "Each step is a small position: make the move asked for with the menus, as in a "
        "game."
    ),
    "royal": N_(
        "Royal Casino: you capture and build as in Casino, and picture cards have numbers "
        "too (J 11, Q 12, K 13, an ace 1 or 14). Each step is a small position: make the "
        "move asked for with the menus, as in a game."
    ),
    "mulle-glimne": N_(
        "Glimne's Mulle is played with two decks: you capture and build as in Casino, and "
        "taking your card's identical twin is a mulle. Each step is a small position: "
        "make the move asked for with the menus, as in a game."
    ),
    "swazi": N_(
        "Swazi Casino: you capture and build as in Casino, anticlockwise, and the top "
        "card of an opponent's capture pile may go into a build. Each step is a small "
        "position: make the move asked for with the menus, as in a game."
    ),
    "sotho": N_(
        "Sotho Casino: you capture and build as in Swazi Casino, but picture cards only "
        "pair and an ace counts 1. Each step is a small position: make the move asked for "
        "with the menus, as in a game."
    ),
    "south-african": N_(
        "South African Casino is played with 40 cards and no pictures: you capture and "
        "build, and the top card of every capture pile may be taken. Each step is a small "
        "position: make the move asked for with the menus, as in a game."
    ),
}
