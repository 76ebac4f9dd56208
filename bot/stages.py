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

import json
from dataclasses import dataclass
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


@dataclass(slots=True)
class Stage:
    """One place a game is shown: its own channel (the *home*, kept in the game's row) or
    another (a *mirror*, a row of the ``stages`` table: a ladder match's second table).
    ``seats``: the seats whose players sit here (the person to move is mentioned only
    where they sit; the home has every seat no mirror has). ``locale``: the place's
    language as its interaction gave it. ``message_id``: its current table message."""

    guild_id: int
    channel_id: int
    courier: Courier = Courier.CHANNEL
    seats: tuple[int, ...] = ()
    locale: str | None = None
    message_id: int | None = None
    ping_id: int | None = None
    home: bool = False

    def to_row(self) -> dict[str, Any]:
        """The mirror's stored form (its columns of ``stages``, but the game id)."""
        return {
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "courier": self.courier.value,
            "seats": json.dumps(list(self.seats)),
            "locale": self.locale,
        }


def home_stage(game: Any) -> Stage:
    """A game's own channel as a stage: every seat no mirror has."""
    elsewhere = {seat for mirror in game.mirrors for seat in mirror.seats}
    return Stage(
        game.guild_id,
        game.channel_id,
        courier_of(game.extra),
        tuple(i for i in range(len(game.seats)) if i not in elsewhere),
        game.extra.get("locale"),
        game.message_id,
        game.ping_id,
        home=True,
    )


def stages_of(game: Any) -> list[Stage]:
    """Every place a game is shown, its home first."""
    return [home_stage(game), *game.mirrors]


def seat_stage(game: Any, seat: int) -> Stage:
    """Where a seat's player sits: a mirror that has the seat (a ladder match's second
    table), else the game's own channel."""
    return next((s for s in game.mirrors if seat in s.seats), None) or home_stage(game)


def stage_at(game: Any, channel_id: int | None) -> Stage | None:
    """The stage of a game in a channel (``None``: the game is not shown there)."""
    return next((s for s in stages_of(game) if s.channel_id == channel_id), None)
