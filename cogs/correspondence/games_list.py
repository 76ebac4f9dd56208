"""``/kasino games``: every game a person sits in, everywhere, and their hand for each.

One private message lists the person's lobbies and matches in play in every place
(servers, the bot's DM, group DMs, ladder matches), those where it is their turn first:
the game and its pace, the opponents, where it is (a link to its table), whose turn it is
and the clock (a Discord timestamp). Each match in play has a button that opens the
person's hand for it right there, with the table's own ``k:hand`` custom_id: the hand and
its menus work from any channel or DM for a player seated in the game
(:func:`cogs.common.foreign`), so all one's moves can be played from this list. The list
is read from the index of who sits where (:meth:`bot.storage.Storage.person_games`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import discord

from bot.correspondence.clock import turn_ends
from bot.i18n import N_, Lang
from bot.models import PACE_NAMES, Game, Status
from bot.render import variant_name
from bot.stages import Courier, seat_stage
from bot.storage import Storage
from cogs.common import NOT_MINE, own_view, private, refuse, stage_url
from cogs.components import KasinoButton, kasino_ids
from cogs.play.hands import HandFlow
from cogs.play.views import hand_button

PAGE_SIZE = 10  # games a page: two rows of hand buttons, one of pages
NO_GAMES = N_(
    "You are not in any game right now. Start one with {new}, or find an opponent from any"
    " server with {queue}."
)
NO_PAGE = N_("There is no page {page}: your games fill {pages}. Nothing changed.")
# Discord's limit on an embed's description, with room to spare
DESCRIPTION_LIMIT = 4000


@dataclass(frozen=True, slots=True)
class Listed:
    """One game of the list, as the person sees it: their seat, whether it is their turn,
    and the moment its clock runs out (``None``: none shown)."""

    game: Game
    seat: int
    my_turn: bool
    clock: float | None

    @property
    def order(self) -> tuple[int, float, int]:
        """Their turn first, then the others' matches, then lobbies; each by the clock."""
        rank = 0 if self.my_turn else 1 if self.game.status is Status.PLAYING else 2
        return rank, self.clock if self.clock is not None else math.inf, self.game.id


def listed(games: Sequence[Game], user_id: int) -> list[Listed]:
    """The person's games in the list's order (a game they no longer sit in is left out)."""
    found = []
    for game in games:
        seat = game.seat_of(user_id)
        if seat is None or not game.status.active:
            continue
        playing = game.status is Status.PLAYING and game.match is not None
        my_turn = playing and game.match.round.to_move == seat
        found.append(Listed(game, seat, my_turn, turn_ends(game) if playing else None))
    return sorted(found, key=lambda item: item.order)


def where_text(game: Game, seat: int, t: Lang, server_name: Callable[[int], str | None]) -> str:
    """Where the game is, as a link to the person's table: the server's name (when the
    bot is in it), "a server", "DM" or "group DM"; a ladder match says so."""
    stage = seat_stage(game, seat)
    if stage.guild_id:
        place = server_name(stage.guild_id) or t("a server")
    elif stage.courier is Courier.INTERACTION:
        place = t("group DM")
    else:
        place = t("DM")
    place = place.replace("[", "(").replace("]", ")")  # a server's name inside a link
    link = f"[{place}]({stage_url(stage)})"
    return t("ladder, {place}", place=link) if game.extra.get("ladder") else link


def turn_text(item: Listed, t: Lang) -> str:
    """Whose turn it is and the clock, or that the lobby waits."""
    game = item.game
    if game.status is Status.LOBBY:
        return t("waiting to start")
    if item.my_turn:
        turn = t("**your turn**")
    else:
        mover = game.seats[game.match.round.to_move]
        turn = t("{name}'s turn", name=discord.utils.escape_markdown(mover.name))
    if item.clock is None:
        return turn
    when = f"<t:{int(item.clock)}:R>"  # Discord shows it in the reader's time and words
    return t("{turn}, time runs out {when}", turn=turn, when=when)


def game_line(number: int, item: Listed, t: Lang, server_name: Callable[[int], str | None]) -> str:
    """One game's two lines: the game, its pace and opponents; where, whose turn, clock."""
    game = item.game
    others = [s.name for i, s in enumerate(game.seats) if i != item.seat]
    names = ", ".join(discord.utils.escape_markdown(name) for name in others)
    head = f"**{number}.** {variant_name(game.options.variant, t)} #{game.id}"
    head += f" · {t(PACE_NAMES.get(game.options.pace, PACE_NAMES['live']))}"
    against = t("against {names}", names=names)
    head += f" · {against}" if others else ""
    return f"{head}\n{where_text(game, item.seat, t, server_name)} · {turn_text(item, t)}"


def games_embed(
    items: Sequence[Listed],
    page: int,
    t: Lang,
    server_name: Callable[[int], str | None],
) -> discord.Embed:
    """A page of the list (1 first)."""
    pages = page_count(items)
    start = (page - 1) * PAGE_SIZE
    lines = [
        game_line(start + n + 1, item, t, server_name)
        for n, item in enumerate(items[start : start + PAGE_SIZE])
    ]
    waiting = sum(item.my_turn for item in items)
    embed = discord.Embed(
        title=t("Your games"),
        description="\n\n".join(lines)[:DESCRIPTION_LIMIT],
        colour=discord.Colour.dark_green(),
    )
    footer = (
        t.ngettext("{n} game waits for your move.", "{n} games wait for your move.", waiting)
        if waiting
        else ""
    )
    if pages > 1:
        footer = " · ".join(filter(None, [footer, t("Page {page} of {pages}", page=page,
                                                          pages=pages)]))  # fmt: skip
    if footer:
        embed.set_footer(text=footer)
    return embed


def games_view(items: Sequence[Listed], page: int, t: Lang) -> discord.ui.View:
    """A "Your hand" button for each match in play on the page (the table's own custom_id),
    and the pages' buttons."""
    view = discord.ui.View(timeout=None)
    start = (page - 1) * PAGE_SIZE
    for n, item in enumerate(items[start : start + PAGE_SIZE]):
        game = item.game
        if game.status is not Status.PLAYING:
            continue
        style = discord.ButtonStyle.primary if item.my_turn else discord.ButtonStyle.secondary
        label = t("{number}. Your hand", number=start + n + 1)
        view.add_item(hand_button(game, label, style, row=n // 5))
    pages = page_count(items)
    if pages > 1:
        view.add_item(KasinoButton("games", max(page - 1, 1), label=t("Previous"),
                                   disabled=page <= 1, row=2))  # fmt: skip
        view.add_item(KasinoButton("games", page + 1, label=t("Next"),
                                   disabled=page >= pages, row=2))  # fmt: skip
    view.stop()  # every item is dispatched by its custom_id: nothing to keep
    return view


def page_count(items: Sequence[Listed]) -> int:
    """How many pages the list fills (at least one)."""
    return max(1, math.ceil(len(items) / PAGE_SIZE))


def is_games_list(interaction: discord.Interaction) -> bool:
    """Whether a click comes from the clicker's own ``/kasino games`` list: a private
    message of theirs with an embed (a hand view has none) whose buttons are the list's
    hand and page buttons only."""
    message = interaction.message
    if message is None or not message.embeds or not own_view(interaction):
        return False
    ids = kasino_ids(message)
    return bool(ids) and all(c.startswith(("k:games:", "k:hand:")) for c in ids)


class GamesList:
    """The ``/kasino games`` flow (see the module docstring)."""

    def __init__(
        self,
        storage: Storage,
        hands: HandFlow,
        server_name: Callable[[int], str | None],
        new_command: Callable[[Lang], str],
        queue_command: Callable[[Lang], str],
    ) -> None:
        self.storage = storage
        self.hands = hands
        self.server_name = server_name
        self.new_command = new_command
        self.queue_command = queue_command

    async def page_of(
        self, interaction: discord.Interaction, page: int
    ) -> tuple[discord.Embed, discord.ui.View, int] | None:
        """A page of the clicker's list, its view and the page count; ``None``: no games."""
        user = interaction.user.id
        items = listed(await self.storage.person_games(user), user)
        if not items:
            return None
        t = private(interaction)
        pages = page_count(items)
        page = min(page, pages)
        return games_embed(items, page, t, self.server_name), games_view(items, page, t), pages

    async def command(self, interaction: discord.Interaction) -> None:
        """``/kasino games``: the first page, privately (anywhere)."""
        made = await self.page_of(interaction, 1)
        if made is None:
            await refuse(interaction, NO_GAMES, new=self.new_command, queue=self.queue_command)
            return
        embed, view, _ = made
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    async def on_page(self, interaction: discord.Interaction, page: int) -> None:
        """Previous / Next on one's own list: that page, fresh, in place."""
        if not is_games_list(interaction):
            await refuse(interaction, NOT_MINE)  # pages turn on one's own list only
            return
        made = await self.page_of(interaction, page)
        if made is None:  # every game ended meanwhile
            t = private(interaction)
            said = t(NO_GAMES, new=self.new_command(t), queue=self.queue_command(t))
            await interaction.response.edit_message(content=said, embed=None, view=None)
            return
        embed, view, pages = made
        if page > pages:
            await refuse(interaction, NO_PAGE, page=page, pages=pages)
            return
        await interaction.response.edit_message(embed=embed, view=view)

    async def show_hand(self, interaction: discord.Interaction, game: Game) -> None:
        """ "Your hand" (inside the game's session): from the list, the hand opens as a new
        private message, so the list stays to open the next game's; elsewhere (the
        table, a notice, the hand view's own Refresh) as the hand flow shows it."""
        shown = game.seat_of(interaction.user.id) is not None and game.match is not None
        shown = shown and game.status is Status.PLAYING  # else a refusal, said at once
        if shown and is_games_list(interaction) and not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        await self.hands.show_hand(interaction, game)
