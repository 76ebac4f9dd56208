"""Table talk at a ladder match (issue 42): a few canned lines instead of chat.

The players of a ladder match sit in different servers and cannot write to each other
through the bot, so the table offers five lines, each said in its reader's language at
every place the match is shown. No free text is ever carried: a line is a key of
:data:`LINES`, translated where it is shown. A person says at most one line every
:data:`TALK_EVERY` seconds (over every table: the time is kept with the person, not the
game), and a person may mute table talk: a place where every seated person muted it
shows no lines. After the match, its end message takes lines for :data:`TALK_AFTER_END`
seconds. No Discord import: the keys are read by :mod:`cogs.custom_ids`.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import N_
from bot.models import Status

# key -> the line (a catalogue message); the keys are what a button's custom_id carries
LINES: dict[str, str] = {
    "luck": N_("Good luck!"),
    "wp": N_("Well played!"),
    "thanks": N_("Thanks!"),
    "oops": N_("Oops!"),
    "gg": N_("Good game!"),
}
LINE_EMOJI = {"luck": "🍀", "wp": "👏", "thanks": "🙏", "oops": "😅", "gg": "🤝"}
MUTE = "mute"  # the custom_id's action of "Mute table talk" (a toggle, the clicker's own)
TALK_EVERY = 5.0  # seconds: one line per person at most this often
# seconds after a match's end that its end message still takes lines ("Good game"): its
# buttons stay, and a channel must not get lines from an old match for ever
TALK_AFTER_END = 15 * 60
SAID = N_("💬 {name}: {line}")  # how a line shows on a table


def talk_offered(game: Any) -> bool:
    """Whether a game's table offers talk: a ladder match, playing or finished ("Good
    game" and "Well played" belong to the end too)."""
    ladder = bool(game.extra.get("ladder"))
    return ladder and game.status in (Status.PLAYING, Status.FINISHED)


def seated(game: Any, user_id: int) -> bool:
    """Whether a person sits at the game."""
    return any(seat.is_human and seat.user_id == user_id for seat in game.seats)
