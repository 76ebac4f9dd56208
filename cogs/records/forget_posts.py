"""After ``/kasino forget-me``: the bot's own public messages that named the person, edited
without them.

The forget transaction makes the person's seats nameless in the database; the channel
still shows what was posted while they played. The messages whose ids the bot keeps are
drawn again from the anonymised rows and edited in place (their seat shows as a "former
player"):

- each game they sat in: its lobby (kept above the tables, saying how the game ended)
  and its last table (a finished match's end message: the final line, the table and its
  Replay and Analyse buttons, no Rematch any more since a forgotten seat cannot be seated
  again; the last round's summary that was beside it is left out, it would name them by
  their moves);
- each tournament they entered: its sign-up message, every round's standings message and
  the podium.

What the bot does not keep an id of stays as it was: the round summaries, the turn
notices' words in older tables (those tables are deleted as the game goes on), "X has
left the tournament", a table thread's welcome message, and anything another process
posted. docs/players.md#forget-me says so to the players.

The edits run one at a time in the background, at most :data:`BURST` in a channel within
:data:`WINDOW` seconds (Discord allows 5 messages in 5 s per channel; it also limits
edits of messages older than an hour more strictly, without saying how, and answers a
refused edit with a wait that discord.py honours). An edit Discord refuses (a message
deleted, a channel gone or out of reach, a tournament table's thread archived) is
skipped: that message stays. The list lives in memory only: edits not yet made when the
process stops are not made.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from bot import timers
from bot.i18n import Lang
from bot.models import Game, Status
from bot.render import CardInk, ended_text, final_line, lobby_embed, table_embed
from bot.storage import Storage
from bot.storage.privacy import Forgotten
from bot.storage.tournaments import TournamentRow
from bot.timers import now
from bot.tournaments.pairing import final_standings
from bot.tournaments.tables import results_of
from cogs.play.views import replay_only_view
from cogs.tournaments.posts import TournamentPosts

log = logging.getLogger(__name__)

BURST = 4  # edits in one channel within WINDOW seconds (Discord's budget is 5 in 5 s)
WINDOW = 5.0
SLACK = 0.25  # seconds added to a wait for the window, for clocks that differ a little


@dataclass(frozen=True, slots=True)
class Edit:
    """One message to edit: where, which, and the fields to put on it."""

    channel_id: int
    message_id: int
    fields: dict[str, Any] = field(default_factory=dict)


class ForgetPosts:
    """Edits the kept public messages of a forgotten person's games and tournaments."""

    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        language: Callable[[Game], Lang],
        ink: Callable[[int], CardInk],
        posts: TournamentPosts,
    ) -> None:
        self.client = client
        self.storage = storage
        self.language = language  # a game's public language
        self.ink = ink  # a server's public deck
        self.posts = posts
        self._due: deque[tuple[str, int]] = deque()
        self._sent: dict[int, deque[float]] = {}  # per channel: when its recent edits went
        self._task: asyncio.Task[None] | None = None
        self.edited = 0  # messages edited so far (for the tests and the curious)
        self.skipped = 0  # refused by Discord: they stay as they were

    def forgot(self, done: Forgotten) -> None:
        """Queue the messages of what the forget-me anonymised (and start editing)."""
        self._due.extend(("game", game) for game in done.game_ids)
        self._due.extend(("tournament", tid) for tid in done.tournament_ids)
        if self._due and (self._task is None or self._task.done()):
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def idle(self) -> None:
        """Wait until every queued edit has been tried."""
        while self._task is not None and not self._task.done():
            await asyncio.wait({self._task})

    async def close(self) -> None:
        """Stop editing (the bot is stopping)."""
        if self._task is not None:
            self._task.cancel()
        self._due.clear()

    async def _run(self) -> None:
        while self._due:
            kind, ident = self._due.popleft()
            try:
                edits = await (self._game(ident) if kind == "game" else self._tournament(ident))
            except Exception:  # one damaged row must not keep the others unedited
                log.exception("%s %s: its messages could not be drawn again", kind, ident)
                continue
            for edit in edits:
                await self._budget(edit.channel_id)
                await self._edit(edit)

    async def _budget(self, channel_id: int) -> None:
        """Wait while the channel has had :data:`BURST` edits in the last window."""
        sent = self._sent.setdefault(channel_id, deque(maxlen=BURST))
        if len(sent) == BURST:
            wait = sent[0] + WINDOW + SLACK - now()
            if wait > 0:
                await timers.pause(wait)  # (looked up here: tests put it on virtual time)
        sent.append(now())

    async def _edit(self, edit: Edit) -> None:
        channel = self.client.get_partial_messageable(edit.channel_id)
        try:
            await channel.get_partial_message(edit.message_id).edit(
                allowed_mentions=discord.AllowedMentions.none(), **edit.fields
            )
        except discord.HTTPException as error:  # deleted, out of reach, archived thread
            self.skipped += 1
            log.info("a forgotten player's message was not edited (HTTP %s)", error.status)
        else:
            self.edited += 1

    async def _game(self, game_id: int) -> list[Edit]:
        """A game's lobby and last table, drawn again from its anonymised row."""
        game = await self.storage.get_game(game_id)
        if game is None or game.status.active or not posted_by_bot(game):
            return []
        t = self.language(game)
        edits = []
        lobby = game.extra.get("lobby_id") if game.match is not None else game.message_id
        if isinstance(lobby, int):
            edits.append(Edit(game.channel_id, lobby, {"embeds": [lobby_embed(game, t)]}))
        if game.match is not None and game.message_id and game.message_id != lobby:
            ended = final_line(game, t) if game.status is Status.FINISHED else None
            fields = {
                "content": ended or ended_text(game.status, t),
                # drawn again, the end message keeps its final head: it may have been the
                # only place a player saw it (the edit is marked anyway)
                "embeds": [
                    table_embed(game, ink=self.ink(game.guild_id), t=t, final_shown=bool(ended))
                ],
                # no Rematch: a forgotten seat cannot be seated again
                "view": replay_only_view(game.id, t) if ended else None,
            }
            edits.append(Edit(game.channel_id, game.message_id, fields))
        return edits

    async def _tournament(self, tournament_id: int) -> list[Edit]:
        """A tournament's sign-up, standings and podium, drawn again without the person."""
        row = await self.storage.get_tournament(tournament_id)
        if row is None:
            return []
        edits = []
        if row.message_id:
            embed, view = self.posts.signup_message(row)
            edits.append(Edit(row.channel_id, row.message_id, {"embed": embed, "view": view}))
        t = self.posts.language(row.guild_id)
        for number, message_id in sorted((row.extra.get("standings") or {}).items()):
            embed = self.posts.standings_message(row, t, int(number))
            edits.append(Edit(row.channel_id, int(message_id), {"embed": embed}))
        podium = row.extra.get("podium_id")
        if podium:
            places = await self.storage.final_places(row.id)
            edits.append(self._podium(row, int(podium), places))
        return edits

    def _podium(self, row: TournamentRow, message_id: int, places: dict[int, int]) -> Edit:
        """The podium drawn again in the order it had: its stored places first (the
        seeded draws behind the order are made from ids, and the person's id changed)."""
        final = final_standings(row.settings, row.entrants, results_of(row), seed=row.seed)
        if places:
            final.sort(key=lambda line: places.get(line.user_id, len(final) + 1))
            final = [replace(line, rank=rank) for rank, line in enumerate(final, start=1)]
        embed, view = self.posts.podium_message(row, final)
        return Edit(row.channel_id, message_id, {"embed": embed, "view": view})


def posted_by_bot(game: Game) -> bool:
    """Whether the game's messages are the bot's own channel messages, which it may edit.

    Outside a server (a DM or group DM: guild id 0), and on a stage reached only through
    interactions (a server that did not add the bot), its messages are answers to
    interactions: Discord refuses the bot every channel call there (403, 50001) and an
    answer's token lasts 15 minutes, so they stay as they are."""
    if not game.guild_id:
        return False
    stages = game.extra.get("stages")
    if isinstance(stages, list):
        return not any(isinstance(s, dict) and s.get("kind") == "interaction" for s in stages)
    return True
