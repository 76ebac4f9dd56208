"""A running game's clock: what is due when a deadline passes (the next round's deal after
the pause, a reminder, a computer's move, the safe move of a person out of time).

Where the bot posts to the game's channel, each deadline is a timer of its own
(:class:`bot.timers.Timers`) and acts when it passes. Where the game is reached only
through clicks (:mod:`bot.stages`) nothing it did could be shown until someone clicks,
so nothing acts on its own there: each click at the table catches the clock up
(:meth:`GameClock.catch_up`), before the click is handled what time has run out, after
it the computers' moves and the next deal too, all shown in that click's answer.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.games import GameService
from bot.i18n import Lang
from bot.models import Game, Status, Timer
from bot.stages import by_interaction
from bot.timers import now
from cogs.play.table import TableFlow

log = logging.getLogger(__name__)

# The most timer steps one click applies (computers' moves, a deal, a safe move): six
# seats of computers around one person are a few steps; this only bounds a loop.
CATCH_UP_STEPS = 64


# The timers of a correspondence turn (bot.correspondence.clock)
CORRESPONDENCE = (Timer.NOTICE, Timer.WARN, Timer.LATE)


class GameClock:
    """Applies a game's due deadline, by its timer or at a click."""

    def __init__(
        self,
        games: GameService,
        table: TableFlow,
        turns: Callable[[Game], Awaitable[None]],
    ) -> None:
        self.games = games
        self.table = table
        # a correspondence turn's steps: its notice, warning, loss on time
        # (cogs.correspondence.notices.TurnNotices.step)
        self.turns = turns

    async def apply(self, game: Game) -> None:
        """The game's deadline passed (inside its session): deal after the pause, remind,
        let a computer move, or move for the player out of time."""
        if game.timer is Timer.DEAL:
            number = game.match.rounds_played + 1
            await self.games.resume_after_pause(
                game,
                lambda: self.table.announce(
                    game, lambda t: t("Round {round} is dealt.", round=number)
                ),
            )
            self.table.timers.schedule(game.id, game.deadline)
            self.table.follow(game)
        elif game.timer is Timer.REMIND:
            await self.games.remind(game, lambda: self.table.announce(game, reminder(game)))
            self.table.timers.schedule(game.id, game.deadline)
        elif game.timer is Timer.COMPUTER:
            await self.computer_turn(game)
        elif game.timer in CORRESPONDENCE:
            await self.turns(game)
        else:
            outcome = await self.games.play_for(game)
            log.info("game %s: automatic move", game.id)
            self.table.after_move(outcome)

    async def computer_turn(self, game: Game) -> None:
        """A computer player's pause is over: it moves (under the game's lock)."""
        if not self.games.computer_to_move(game):
            self.games.set_turn_timer(game)  # not a computer's turn after all: a fresh timer
            await self.games.save(game)
            self.table.timers.schedule(game.id, game.deadline)
            return
        outcome = await self.games.play_computer(game)
        log.info("game %s: computer move", game.id)
        self.table.after_move(outcome)

    async def catch_up(self, channel_id: int, *, computers: bool) -> None:
        """A click in a channel reached only through clicks: apply what the clock of its
        game owes by now; with ``computers``, their moves and the next deal too (after the
        click is answered: they may take a moment)."""
        game_id = await self.games.channel_game(channel_id)
        if game_id is None:
            return
        async with self.games.session(game_id) as game:
            for _ in range(CATCH_UP_STEPS):
                if game is None or not self.due(game, computers=computers):
                    return
                await self.apply(game)

    @staticmethod
    def due(game: Game, *, computers: bool) -> bool:
        """Whether a game reached through clicks owes a step of its clock now."""
        if game.status is not Status.PLAYING or not by_interaction(game.extra):
            return False
        if computers and game.timer in (Timer.DEAL, Timer.COMPUTER):
            return True
        return game.deadline is not None and game.deadline <= now()


def reminder(game: Game) -> Callable[[Lang], str]:
    """The reminder's words, once the automatic move's deadline is set."""
    when = f"<t:{int(game.deadline or 0)}:R>"
    return lambda t: t(
        "⏰ Reminder (game #{id}): if nobody plays {when}, I will make a safe move.",
        id=game.id,
        when=when,
    )
