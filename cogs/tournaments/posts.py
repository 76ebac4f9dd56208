"""A tournament's own messages in its channel: the sign-up (kept up to date, then saying
what became of the tournament), one standings message a round (edited as its tables
finish) and the podium with a Replay button per game. What they look like is
:mod:`bot.tournaments.embed`'s and :mod:`cogs.tournaments.views`'s.

They are posted directly, not through the games' outbox (which is per game): each message's
id is kept on the tournament, so it is edited, never posted twice. A process killed between
posting one and saving its id posts it again on restart, with the same nonce (Discord's
enforced nonce: a repeat within minutes makes no second message). The nonce is made of the
tournament's stored random key and which message it is (:func:`bot.nonces.nonce`), never of
its id alone: a restored backup gives a new tournament an old one's id.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator, Callable

import discord

from bot.i18n import N_, Lang
from bot.nonces import nonce
from bot.render import relative_time
from bot.storage.tournaments import TournamentRow
from bot.tournaments import deals as tournament_deals
from bot.tournaments.embed import podium_embed, signup_embed, standings_embed
from bot.tournaments.model import Phase, Standing
from bot.tournaments.pairing import current_standings
from bot.tournaments.tables import results_of, round_tables
from bot.translator import command_name
from cogs.tournaments.views import Played, closed_view, podium_view, signup_view

NO_THREADS = N_(
    "⚠️ {organiser}, I cannot open this round's tables: each is a thread under this"
    " channel, and I need the **Create Public Threads** and **Send Messages in Threads**"
    " permissions here. Once they are given, `{pause}` and then `{resume}`"
    " open the tables. Tables not dealt by the round's deadline are decided unplayed."
)


def names_of(row: TournamentRow) -> dict[int, str]:
    """The entrants' names by user id."""
    return {e.user_id: e.name for e in row.entrants}


ROUND_BEGINS = N_(
    "🏁 **{name}**: round {round} of {rounds} has begun. Each table plays in its own thread;"
    " the round ends {deadline} ({left})."
)
BYES = N_("Bye this round (a win without a game): {players}.")

Paced = Callable[[int], contextlib.AbstractAsyncContextManager[None]]


@contextlib.asynccontextmanager
async def _unpaced(channel_id: int) -> AsyncIterator[None]:
    yield


class TournamentPosts:
    """Builds and posts the sign-up, round, standings and podium messages of tournaments."""

    def __init__(
        self, client: discord.Client, language: Callable[[int], Lang], paced: Paced = _unpaced
    ) -> None:
        self.client = client
        self.language = language  # a guild's public language
        # a new message waits for room in its channel's post budget (the outbox's)
        self.paced = paced

    def channel(self, row: TournamentRow) -> discord.PartialMessageable:
        """The tournament's channel."""
        return self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)

    # --------------------------------------------------------------- sign-up

    def signup_message(self, row: TournamentRow) -> tuple[discord.Embed, discord.ui.View | None]:
        """The sign-up message as it is now (its buttons while the sign-up is open; How
        to check, for a tournament with a committed deal seed, from the start to the end)."""
        t = self.language(row.guild_id)
        start_at = row.deadline if row.phase is Phase.SIGNUP else None
        sealed = tournament_deals.commitment(row.id, row.extra) is not None
        embed = signup_embed(row.id, row.name, row.settings, row.entrants, row.organiser_id,
                             row.phase, t, start_at=start_at, sealed=sealed,
                             cut_by=tournament_deals.cut_by(row.extra))  # fmt: skip
        if row.phase is Phase.SIGNUP:
            return embed, signup_view(row.id, t, sealed=sealed)
        # closed: How to check stays (its players look the commitment up there later)
        return embed, closed_view(row.id, t) if sealed else None

    async def show_signup(self, row: TournamentRow) -> None:
        """Bring the sign-up message up to date: the list and its buttons while it is
        open; once closed, what became of the tournament, without buttons."""
        if not row.message_id:
            return
        embed, view = self.signup_message(row)
        with contextlib.suppress(discord.HTTPException):
            await self.channel(row).get_partial_message(row.message_id).edit(embed=embed, view=view)

    # ------------------------------------------------------------- standings

    @staticmethod
    def standings_of(row: TournamentRow) -> list[Standing]:
        """The standings now, with the documented tiebreaks."""
        return current_standings(row.settings, row.entrants, results_of(row), seed=row.seed)

    def standings_message(
        self, row: TournamentRow, t: Lang, number: int | None = None
    ) -> discord.Embed:
        """The standings now (or as round ``number``'s message last showed them: the
        results up to that round), and how many of the round's tables have finished."""
        number = row.round if number is None else number
        current = round_tables(row, number)
        if number == row.round:
            standing = self.standings_of(row)
        else:  # an earlier round's message: who had dropped by then, its results
            entrants = [
                dataclasses.replace(e, dropped=None)
                if e.dropped is not None and e.dropped > number
                else e
                for e in row.entrants
            ]
            results = [r for r in results_of(row) if r.table.round <= number]
            standing = current_standings(row.settings, entrants, results, seed=row.seed)
        return standings_embed(
            row.name,
            number,
            int(row.extra.get("rounds") or row.round),
            standing,
            names_of(row),
            t,
            done=sum(tr.result is not None for tr in current),  # its byes among them
            tables=len(current),
            byes=sum(tr.table.bye for tr in current),
        )

    async def show_standings(self, row: TournamentRow) -> bool:
        """Edit the round's standings message, or post it (its id is then put in
        ``row.extra["standings"]``: ``True`` says the row needs saving)."""
        embed = self.standings_message(row, self.language(row.guild_id))
        kept = dict(row.extra.get("standings") or {})
        message_id = kept.get(str(row.round))
        if message_id:
            with contextlib.suppress(discord.NotFound):
                await self.channel(row).get_partial_message(int(message_id)).edit(embed=embed)
                return False
        async with self.paced(row.channel_id):
            message = await self.channel(row).send(
                embed=embed,
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=nonce(row.nonce_key, "standings", row.round),
            )
        kept[str(row.round)] = message.id
        row.extra["standings"] = kept
        return True

    # ----------------------------------------------------------------- rounds

    def round_text(self, row: TournamentRow) -> tuple[str, list[int]]:
        """The message saying the current round has begun, and who has a bye in it (to
        mention: they have no thread, so this is how they learn it)."""
        t = self.language(row.guild_id)
        deadline = int(row.deadline or 0)
        at = f"<t:{deadline}:t>"  # Discord's time markup, in the reader's client's clock
        text = t(
            ROUND_BEGINS,
            name=row.name,
            round=row.round,
            rounds=int(row.extra.get("rounds") or row.round),
            deadline=at,
            left=relative_time(deadline),
        )
        byes = [p for tr in round_tables(row) if tr.table.bye for p in tr.table.people]
        if byes:
            text += "\n" + t(BYES, players=t.listing(f"<@{p}>" for p in byes))
        return text, byes

    async def announce_round(self, row: TournamentRow) -> bool:
        """Say in the channel that the current round has begun, once a round (marked in
        ``row.extra["announced"]``, saved by the caller when this says ``True``). A repeat
        after a kill makes no second message (the nonce)."""
        if not row.round or row.extra.get("announced") == row.round:
            return False
        text, byes = self.round_text(row)
        with contextlib.suppress(discord.HTTPException):  # the round goes on without it
            async with self.paced(row.channel_id):
                await self.channel(row).send(
                    text,
                    allowed_mentions=discord.AllowedMentions(
                        users=[discord.Object(p) for p in byes]
                    ),
                    nonce=nonce(row.nonce_key, "round", row.round),
                )
        row.extra["announced"] = row.round
        return True

    # -------------------------------------------------------------- problems

    async def warn_no_threads(self, row: TournamentRow) -> bool:
        """Tell the organiser in the channel that the tables' threads cannot be made there,
        once a round (marked in ``row.extra["no_threads"]``, saved by the caller when this
        says ``True``). A repeat after a kill makes no second message (the nonce)."""
        if row.extra.get("no_threads") == row.round:
            return False
        organiser = discord.Object(row.organiser_id)
        t = self.language(row.guild_id)
        mention = f"<@{organiser.id}>"
        text = t(
            NO_THREADS,
            organiser=mention,
            pause=command_name(t, "tournament", "pause"),
            resume=command_name(t, "tournament", "resume"),
        )
        with contextlib.suppress(discord.HTTPException):  # the channel may refuse this too
            await self.channel(row).send(
                text,
                allowed_mentions=discord.AllowedMentions(users=[organiser]),
                nonce=nonce(row.nonce_key, "no-threads", row.round),
            )
        row.extra["no_threads"] = row.round
        return True

    # ---------------------------------------------------------------- podium

    async def post_podium(self, row: TournamentRow, final: list[Standing]) -> None:
        """Post the podium (once: its id goes in ``row.extra["podium_id"]``, saved by the
        caller with the FINISHED phase), with a Replay button per game, by round and
        table, as many as a message holds."""
        if row.extra.get("podium_id"):
            return
        embed, view = self.podium_message(row, final)
        async with self.paced(row.channel_id):
            message = await self.channel(row).send(
                embed=embed,
                view=view,
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=nonce(row.nonce_key, "podium"),
            )
        row.extra["podium_id"] = message.id

    def podium_message(
        self, row: TournamentRow, final: list[Standing]
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        """The podium's embed and its Replay buttons (by round and table), and How to
        check, which now gives the tournament's seed."""
        t = self.language(row.guild_id)
        games = [
            Played(int(tr.game_id), tr.table.round, tr.table.number)
            for tr in row.tables
            if tr.game_id is not None
        ]
        sealed = tournament_deals.commitment(row.id, row.extra) is not None
        embed = podium_embed(row.name, final, names_of(row), t, games=len(games), sealed=sealed)
        return embed, podium_view(games, t, tournament_id=row.id if sealed else None)
