"""Where a game is shown: its *stage*, and how its messages get there (its *courier*).

A game is played in the database; players see it on a stage: the channel (or thread)
it was opened in. What a change shows there (a table, a round's summary, the end) is
written with the change as rows of the durable outbox, each naming its stage's channel
and courier, and only the courier differs:

- ``channel``: a channel the bot may post to (a server that installed it, a tournament's
  thread, the bot's own DM). A worker per channel posts the rows as they are committed,
  within the channel's rate limit, and timers act on their own (:mod:`cogs.play.outbox`).
- ``interaction``: a group DM, a DM between two people, or a server where the app is
  only installed by a person. The bot is no member there and may not post, edit or
  delete a message of its own accord: it can only answer interactions. So nothing is
  sent until someone at the table clicks; that click's answer carries what waits (its
  follow-ups, within Discord's cap), and whatever the clock owes (a computer's move, the
  next deal, a missed turn) is applied inside that click (:mod:`cogs.play.couriers`).

The stage is chosen when the game opens (from where ``/kasino new`` was typed) and kept
with the game (``extra["courier"]``); a rematch keeps it. The rest of the bot (rules,
turns, the outbox's rows, results) does not ask where a game is shown. The outbox rows
are per channel, so a game shown in two places (a ladder match) has one row per place.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

# Where a game's time limits cannot ping anybody (an interaction stage), a turn has the
# reminder's time and the automatic move's together: this many turn limits in all.
SILENT_TURNS = 2


class Courier(StrEnum):
    """How a stage is reached (see the module docstring)."""

    CHANNEL = "channel"
    INTERACTION = "interaction"

    @classmethod
    def parse(cls, value: object) -> Courier:
        """A stored courier's name (anything else, an older game's missing key included, is
        the channel's: every game before this existed was shown in a channel)."""
        return cls.INTERACTION if value == cls.INTERACTION.value else cls.CHANNEL


def courier_of(extra: dict[str, Any]) -> Courier:
    """The courier of a game, from its ``extra``."""
    return Courier.parse(extra.get("courier"))


def by_interaction(extra: dict[str, Any]) -> bool:
    """Whether a game (its ``extra``) is shown only through interactions."""
    return courier_of(extra) is Courier.INTERACTION
