"""History, replays and exports of finished matches (issue 22): ``/kasino history``, the
private replay view, and ``/kasino export``. Only a *finished* match of the clicker's
server has a record (:func:`bot.records.record.load_record`), so nothing here can show a card that
is still hidden. Stepping a replay costs more the later the step: it runs in a worker
thread, on records kept in a small cache (a finished match changes only when one of its players
is forgotten, and then every process drops the cache: :mod:`cogs.records.forgetting`)."""

from __future__ import annotations

import asyncio
import io
import logging
from collections import OrderedDict
from typing import Any

import discord

from bot.check_text import check_text
from bot.i18n import N_, Lang
from bot.models import Game
from bot.records.record import GameRecord, NoRecord, RecordError, load_record
from bot.records.replays import history_embed, history_option_label, replay_embed
from bot.stages import stages_of
from bot.storage import CorruptGame, Storage
from cogs.common import ELSEWHERE, GONE, NOT_MINE, private, refuse
from cogs.components import kasino_ids
from cogs.custom_ids import Click, HistoryPage
from cogs.places import RecordPlace
from cogs.play.views import history_view, replay_view
from cogs.records.forgetting import PeopleCaches
from cogs.settings.decks import Inks

log = logging.getLogger(__name__)

HISTORY_PAGE = 10
CACHED_RECORDS = 32
NO_RECORD = {
    "missing": N_("There is no game #{id}, so there is nothing to show."),
    "unfinished": N_(
        "Game #{id} is still being played, or was never dealt: only a game that is over"
        " (won, stopped or abandoned) can be replayed or exported (its hidden cards stay"
        " hidden)."
    ),
    "old": N_("Game #{id} was played before moves were kept whole, so it cannot be replayed."),
    "damaged": N_("Game #{id}'s record is damaged, so it cannot be replayed."),
}
NO_PAGE = N_("There is no page {page}: the history has {pages}.")
NO_STEP = N_("Game #{id} has no step {step}: it has {steps}.")


class _ServerGames:
    """The storage as one place's records see it: another server's game does not exist
    (outside servers: another conversation's, :class:`cogs.places.RecordPlace`).

    An outsider asking for a game id of another server is answered exactly as for an id
    no game has ("missing", from :func:`load_record` itself), before anything else is
    read: "not finished", "old" or "damaged" would tell that the number exists.
    """

    def __init__(self, storage: Storage, place: RecordPlace) -> None:
        self._storage = storage
        self._place = place
        # the places the game read was shown in (kept with its record): its own server and
        # channel, and a ladder match's other table's
        self.places: tuple[tuple[int, int], ...] = ()

    async def get_game(self, game_id: int) -> Game | None:
        try:
            game = await self._storage.get_game(game_id)
        except CorruptGame as error:
            if error.guild_id != self._place.guild_id or self._place.channel_id is not None:
                # another server's damaged game: not "damaged" here either (nor, outside
                # servers, any: its channel is not known, so it is not this one's)
                return None
            raise
        if game is None or not self._place.holds_game(game):
            return None
        self.places = tuple((stage.guild_id, stage.channel_id) for stage in stages_of(game))
        return game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._storage, name)  # the moves and the time it finished


def own_message(interaction: discord.Interaction, prefixes: tuple[str, ...]) -> bool:
    """Whether the click came from the clicker's own private message, and that message
    carries only these kinds of component (a history page, or a replay)."""
    message = interaction.message
    origin = message.interaction_metadata if message is not None else None
    owner = origin.user.id if origin is not None else None
    if message is None or not message.flags.ephemeral or owner != interaction.user.id:
        return False
    return all(cid.startswith(prefixes) for cid in kasino_ids(message))


class RecordFlow:
    """The history pages, replays and exports."""

    def __init__(self, storage: Storage, inks: Inks, people: PeopleCaches) -> None:
        self.storage = storage
        self.inks = inks
        self.people = people
        # a record names its players: dropped whenever anyone is forgotten
        # each with where its match was played (a server, or outside servers a channel)
        self._records: OrderedDict[int, tuple[GameRecord, Places]] = OrderedDict()
        people.register("records", self._records.clear)

    # ---------------------------------------------------------------- records

    async def record(self, game_id: int, place: RecordPlace | int) -> GameRecord:
        """A finished match of this place's record (cached); :class:`NoRecord` else
        (``place`` an id: a server's)."""
        if isinstance(place, int):
            place = RecordPlace(place)
        await self.people.fresh()  # a person forgotten in another process: not named
        cached = self._records.get(game_id)
        if cached is None:
            epoch = self.people.epoch
            try:
                server = _ServerGames(self.storage, place)
                record, _guild = await load_record(server, game_id, build=asyncio.to_thread)
                cached = (record, server.places)
            except NoRecord:
                raise
            except (RecordError, CorruptGame) as error:
                log.warning("game %s: record refused (%s)", game_id, error)
                raise NoRecord("damaged") from None
            if epoch != self.people.epoch:  # read before a forgetting: served, not kept
                return _here(cached, place)
            table = cached[0].tournament
            if table is not None and table.get("seed") is None:
                return _here(cached, place)  # its tournament's seed comes with its end
            self._records[game_id] = cached
            while len(self._records) > CACHED_RECORDS:
                self._records.popitem(last=False)
        self._records.move_to_end(game_id)
        return _here(cached, place)

    async def _record_or_refuse(
        self, interaction: discord.Interaction, game_id: int
    ) -> GameRecord | None:
        try:
            return await self.record(game_id, RecordPlace.of(interaction))
        except NoRecord as missing:
            await refuse(interaction, NO_RECORD[missing.reason], id=game_id)
            return None

    # ---------------------------------------------------------------- history

    async def history_message(
        self, interaction: discord.Interaction, page: HistoryPage, names: dict[int, str]
    ) -> tuple[discord.Embed, discord.ui.View] | None:
        """A history page, or ``None`` (refused: a page out of range)."""
        place = RecordPlace.of(interaction)
        offset = (page.page - 1) * HISTORY_PAGE
        rows, total = await self.storage.history(
            place.guild_id, page.member, page.variant, offset, HISTORY_PAGE, place.channel_id
        )
        pages = max(1, -(-total // HISTORY_PAGE))
        if page.page > pages:
            await refuse(interaction, NO_PAGE, page=page.page, pages=pages)
            return None
        t = private(interaction)
        who = None
        if page.member is not None:
            who = names.get(page.member) or f"<@{page.member}>"
        embed = history_embed(rows, who, page.variant, page.page, pages, t)
        if place.channel_id is not None and who is None:  # no server: this conversation's
            embed.title = t("Kasino history: this conversation")
        options = [(row.game_id, history_option_label(row, t)) for row in rows]
        view = history_view(page.member, page.variant, page.page, pages, options, t)
        return embed, view

    async def show_history(
        self, interaction: discord.Interaction, page: HistoryPage, *, edit: bool = False
    ) -> None:
        """``/kasino history`` (a private answer), or Previous / Next on it."""
        names: dict[int, str] = {}
        if page.member is not None:
            names = await self.storage.recent_names(interaction.guild_id or 0, [page.member])
        made = await self.history_message(interaction, page, names)
        if made is None:
            return
        embed, view = made
        if edit:
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    async def on_history(self, interaction: discord.Interaction, click: Click) -> None:
        """A history page's buttons and its replay menu: only on one's own private page."""
        if not own_message(interaction, ("k:history:", "k:histpick:")):
            await refuse(interaction, NOT_MINE)
            return
        assert click.history is not None
        if click.kind == "history":
            await self.show_history(interaction, click.history, edit=True)
        else:
            await self.show_replay(interaction, click.game, 0, edit=False)

    # ---------------------------------------------------------------- replays

    async def on_replay(self, interaction: discord.Interaction, click: Click) -> None:
        """Replay (``open``: a new private view, from a finished match's table or the
        history), or a step of one's own replay view."""
        if click.kind == "replay" and click.slot == "open":
            await self.show_replay(interaction, click.game, click.step, edit=False)
            return
        if not own_message(interaction, ("k:replay:", "k:jump:", "k:analyse:", "k:check:")):
            await refuse(interaction, NOT_MINE)
            return
        await self.show_replay(interaction, click.game, click.step, edit=True)

    async def show_replay(
        self, interaction: discord.Interaction, game_id: int, step: int, *, edit: bool
    ) -> None:
        """A finished match at ``step``, privately (``edit``: in place)."""
        record = await self._record_or_refuse(interaction, game_id)
        if record is None:
            return
        steps = len(record.moves)
        if step > steps:
            await refuse(interaction, NO_STEP, id=game_id, step=step, steps=steps)
            return
        t = private(interaction)
        ink = self.inks.private(interaction.user.id, interaction.guild_id or 0)
        embed, view = await asyncio.to_thread(_replay_page, record, step, ink, t)
        if edit:
            await interaction.response.edit_message(content=None, embed=embed, view=view)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    # ------------------------------------------------------------ how to check

    async def on_check(self, interaction: discord.Interaction, click: Click) -> None:
        """ "How to check" (a lobby, table, end message or replay of this server): what the
        🔒 mark means and the game's values shown so far, privately. It reads only: every
        value in it was shown at the time or is the record's once the match is over."""
        try:
            game = await self.storage.get_game(click.game)
        except CorruptGame:
            game = None
        if game is None:
            await refuse(interaction, GONE)
            return
        if not RecordPlace.of(interaction).holds_game(game):
            await refuse(interaction, ELSEWHERE)
            return
        text = check_text(game, private(interaction))
        # a message holds 2000 characters (check_text keeps well within them)
        await interaction.response.send_message(text[:2000], ephemeral=True)

    # ----------------------------------------------------------------- export

    async def export(self, interaction: discord.Interaction, game_id: int) -> None:
        """``/kasino export``: a finished match of this server as a JSON file, privately."""
        record = await self._record_or_refuse(interaction, game_id)
        if record is None:
            return
        text = await asyncio.to_thread(record.to_json)
        t = private(interaction)
        file = discord.File(io.BytesIO(text.encode("utf-8")), filename=f"kasino-{game_id}.json")
        await interaction.response.send_message(
            t(
                "Game #{id} as a record (schema in docs/record.md). Check it *with the head"
                " you saw* in your hand view at the end (“Match sealed”) and the seed"
                " commitment you were sent when you joined:"
                " `python -m bot verify kasino-{id}.json --head HEAD --seed SEED`"
                " (the file alone proves nothing: whoever made it could have made it"
                " consistent). Play it back with `python -m bot replay kasino-{id}.json`.",
                id=game_id,
            ),
            file=file,
            ephemeral=True,
        )


# The places a match was shown in: (server id, channel id) of each (bot.stages).
Places = tuple[tuple[int, int], ...]


def _here(cached: tuple[GameRecord, Places], place: RecordPlace) -> GameRecord:
    """The record, if its match was shown in this place; else :class:`NoRecord`, as
    for a game that does not exist (kept by its own server: here it does not exist)."""
    record, shown = cached
    if not any(place.holds(guild, channel) for guild, channel in shown):
        raise NoRecord("missing")
    return record


def _replay_page(
    record: GameRecord, step: int, ink: object, t: Lang
) -> tuple[discord.Embed, discord.ui.View]:
    """In a worker thread: the replay's step and its controls."""
    state = record.state_at(step, t)
    index = record.index()
    return replay_embed(state, ink, t), replay_view(
        record.game_id, step, len(record.moves), index, t
    )  # type: ignore[arg-type]
