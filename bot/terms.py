"""Which words a game's card terms take: the variant → word family mapping.

The bot's English source strings name the 10♦, the 2♠ and a sweep as the Nordic games do
(storan, lillan, tabbe). A *word family* is a set of games whose players say them otherwise
in some language: the English-born building games (Casino and its kin) say big casino,
little casino and sweep. A language that needs a family's words has a *terms catalogue*,
``bot/locales/<code>/LC_MESSAGES/kasino@<family>.po``, whose messages are the source
strings that name those words and whose translations say them the family's way (English:
``kasino@casino.po``). :meth:`bot.i18n.Lang.for_game` lays it over the language's own
catalogue. Swedish and Finnish need none: Swedish says storan, lillan and tabbe in every
game, Finnish ruutukymppi, patakakkonen and mökki.

The mapping lives here, not in the engine: it is about words, not rules.
"""

from __future__ import annotations

import re

CASINO = "casino"
"""The English-born building games: big casino, little casino, sweep."""

FAMILIES: dict[str, str] = {
    "casino": CASINO,
    "royal": CASINO,
    "swazi": CASINO,
    "sotho": CASINO,
    "south-african": CASINO,
}
"""Each variant with a word family of its own; every other variant (the Nordic games:
swedish, overspader, finnish, mulle, mulle-glimne, krypkasino) takes the source words."""

NORDIC_WORDS = re.compile(r"\b(storan|lillan|tabbe|tabbar|tabben)\b", re.IGNORECASE)
"""The source strings' Nordic card words, which a terms catalogue must cover."""

FIELD = re.compile(r"\{[^{}]*\}")

NORDIC_ONLY = "nordic-only"
"""The flag of a terms catalogue entry whose message is shown only in a Nordic game (a
Swedish Kasino lesson, Krypkasino's rules): it keeps the Nordic words and needs no
translation."""


def family(variant: str | None) -> str | None:
    """The word family of ``variant`` (``None``: the source words, or no game known)."""
    return FAMILIES.get(variant or "")


def names_nordic_word(text: str) -> bool:
    """Whether ``text`` names storan, lillan or a tabbe (in its words, not in a field's
    name such as ``{tabbar}``)."""
    return NORDIC_WORDS.search(FIELD.sub("", text)) is not None
