"""What the channel sees of a running game: the table posted fresh at every turn (the turn
notice is the table itself, with one mention of the person to move), round summaries,
the one end message, the lobby saying how the game ended, and the players' open hand
views following along. While computers move one after another the table waits: their
moves are kept in the game (``game.extra["run"]``, saved with each move) and one table
shows them in order when a person is to move, the round ends, or every
:data:`RUN_TABLE_EVERY` seconds of a long run; the hand views follow with that table,
once it is posted, never ahead of it. Everything here is called inside the game's session
and only *queues*, so it never waits for Discord: posts on ``game.outbox``, which the
game's next save writes in its own transaction before they are posted (see
:mod:`cogs.play.outbox`), and hand views in :mod:`cogs.play.live` (a menu that may be slow to build
is built off the event loop first, see :mod:`bot.offloop`)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable

import discord

from bot.games import MESSAGE_COLUMNS, GameService, MoveOutcome, on_time
from bot.i18n import EN, Lang
from bot.models import Game, Status
from bot.offloop import heavy, view_key
from bot.records.seal import live_final, shown
from bot.render import (
    CardInk,
    final_line,
    hand_content,
    lobby_embed,
    private_heads,
    round_summary,
    seat_name,
    side_name,
    table_embed,
)
from bot.stages import Stage, home_stage, stage_at, stages_of
from bot.timers import Timers, now
from cogs.play.live import LiveHands
from cogs.play.outbox import Outbox, Post
from cogs.play.views import hand_view, table_view
from cogs.settings.decks import Inks
from cogs.settings.languages import Languages

log = logging.getLogger(__name__)

# A public note said in the language of the channel it goes to.
Note = Callable[[Lang], str]
# While computers move one after another their table waits at most this many seconds (a
# slow run is shown on its way). Five computers 1.5 s apart (7.5 s) are one table.
RUN_TABLE_EVERY = 10.0


def built_hand_view(game: Game, *, seat: int, ink: CardInk, t: Lang) -> discord.ui.View:
    """A seat's hand view, built in the menus' worker thread from a snapshot of the game
    (the key it is kept under is :func:`bot.offloop.view_key` ``("hand", seat, t, ink)``,
    the same for a click and for a view following the game)."""
    return hand_view(game, seat, ink, t)


class TableFlow:
    """Queues a game's public messages and follows its players' hand views."""

    def __init__(
        self,
        games: GameService,
        outbox: Outbox,
        hands: LiveHands,
        timers: Timers,
        inks: Inks,
        languages: Languages,
    ) -> None:
        self.games = games
        self.languages = languages
        self.inks = inks  # each reader's: public(guild) and private(user, guild)
        self.outbox = outbox
        self.hands = hands
        self.timers = timers
        # whether the fresh table's ping is a correspondence turn's notice for this
        # person now (cogs.correspondence.notices: they chose mentions, not quiet now)
        self.pings: Callable[[int, float], bool] = lambda user_id, at: True

    def post(self, game: Game, stage: Stage | None = None, **kwargs: object) -> None:
        """Queue a message for one place the game is shown (``stage``; default its own
        channel): the game's next save writes it with the change it shows, then it is
        posted (or carried by the next click there: :mod:`bot.stages`)."""
        stage = stage or home_stage(game)
        post = Post(
            game.id,
            stage.guild_id,
            stage.channel_id,
            courier=stage.courier.value,
            **kwargs,  # type: ignore[arg-type]
        )
        game.outbox.append(post.record())

    def lang(self, game: Game, stage: Stage | None = None) -> Lang:
        """The language of the game's public messages (at ``stage``: that place's)."""
        if stage is None or stage.home:
            return self.languages.public(game)
        return self.languages.server(stage.guild_id, stage.locale)

    def announce(self, game: Game, note: Note | None = None) -> None:
        """Post the table fresh wherever the game is shown (the previous one is deleted
        once this is saved), naming the player to move: a person is mentioned once, where
        they sit, a computer named. ``note`` says what happened, in each place's language."""
        game.extra["table_at"] = now()  # saved with it: a computers' run counts from here
        for stage in stages_of(game):
            self._announce_at(game, stage, note)

    def _announce_at(self, game: Game, stage: Stage, note: Note | None) -> None:
        t = self.lang(game, stage)
        ink = self.inks.public(stage.guild_id)
        text = note(t) if note is not None else ""
        mention = None
        if game.status is Status.PLAYING and not game.extra.get("paused"):
            to_move = game.match.round.to_move
            seat = game.seats[to_move]
            if seat.is_computer:
                turn = t("{name} is thinking…", name=seat_name(seat, t))
            elif to_move in stage.seats and self._pinged(game, int(seat.user_id or 0)):
                mention = seat.user_id
                turn = t("{mention}, your turn.", mention=seat.mention)
            elif to_move in stage.seats:  # told another way (or already): named, no ping
                named = f"**{seat_name(seat, t)}**"
                turn = t("{mention}, your turn.", mention=named)
            else:  # they sit at another place's table: named, not pinged here
                turn = t("Next to play: {name}.", name=seat_name(seat, t))
            text = f"{text} {turn}".strip()
        self.post(
            game,
            stage,
            # the content is what the ping's notification and a screen reader say: cards as
            # text (``A♥ 2♠``), their faces in the embed
            content=text or None,
            embeds=[table_embed(game, ink=ink, t=t)],
            view=table_view(game, t),
            mention=mention,
            table=True,
        )

    def _pinged(self, game: Game, user_id: int) -> bool:
        """Whether the table mentions the person to move: always in a live game; in a
        correspondence game once a turn, as its notice, if that is how they are told now
        (the turn's notice is then done: :mod:`cogs.correspondence.notices`)."""
        if not game.options.correspondence:
            return True
        clock = game.extra.get("clock")
        if not isinstance(clock, dict) or clock.get("noticed"):
            return False
        if not self.pings(user_id, now()):
            return False
        self.games.clock_step(game, noticed=True)
        return True

    def out_of_time(self, game: Game) -> None:
        """A correspondence game's person to move ran out of time and lost: said at every
        table, with the last table (its buttons gone but How to check)."""
        late = game.extra.get("lost_on_time")
        for stage in stages_of(game):
            t = self.lang(game, stage)
            ink = self.inks.public(stage.guild_id)
            content = self._abandoned(game, t)
            embeds = [table_embed(game, ink=ink, t=t)]
            self.post(game, stage, content=content, embeds=embeds, table=True)
        self.lobby_ended(game)
        log.info("game %s: lost on time by seat %s", game.id, late)

    def stopped(self, game: Game) -> None:
        """The game is stopped: its last table goes (replaced, in a game sealed whole, by a
        new message with the final head: a head on an edited message could be changed
        unseen), and its lobby says so."""
        final = live_final(game)
        for stage in stages_of(game):
            if final is not None:
                t = self.lang(game, stage)
                text = t(
                    "Game #{id} ended without a result. Match sealed: `{head}` (check its"
                    " export with `python -m bot verify --head`).",
                    id=game.id,
                    head=shown(final),
                )
                self.post(game, stage, content=text, table=True)
            elif game.match is not None:
                self.post(game, stage, table=True)
        self.lobby_ended(game)

    def welcome(self, game: Game) -> None:
        """Queue the message a tournament's table shows first, naming its players, if it
        is still owed: kept in the game's row from its creation (``extra["welcome"]``) and
        dropped by the save that queues it, so a process killed in between still posts it
        after a restart (before the table the restart posts)."""
        owed = game.extra.pop("welcome", None)
        if not isinstance(owed, dict):
            return
        t = self.lang(game)
        people = [int(p) for p in owed.get("players") or () if p is not None]
        text = t(
            "🏆 {name}, round {round}, table {table}: {players}. Good luck!",
            name=owed.get("name", ""),
            round=owed.get("round", 0),
            table=owed.get("table", 0),
            players=t.listing(f"<@{p}>" for p in people),
        )
        self.post(game, content=text, mentions=tuple(people))

    def forfeited(self, game: Game, name: str) -> None:
        """A tournament's table ended at once because ``name`` left the tournament: what
        the tournament records (their forfeit) is what the table says; its last table
        goes (a match sealed whole keeps its final head in this message)."""
        t = self.lang(game)
        text = t(
            "🏳️ {name} has left the tournament: this table ends now, forfeited by {name}."
            " The round's standings show its result.",
            name=name,
        )
        final = live_final(game)
        if final is not None:
            text += "\n" + t("Match sealed: `{head}`", head=shown(final))
        self.post(game, content=text, table=True)
        self.lobby_ended(game)

    def lobby_ended(self, game: Game) -> None:
        """The game's lobby (kept above its tables) says how the game ended, buttons gone."""
        lobby = game.extra.get("lobby_id") if game.match is not None else game.message_id
        if isinstance(lobby, int) and not game.status.active:
            self.post(game, embeds=[lobby_embed(game, self.lang(game))], edit=lobby)

    def follow(self, game: Game, skip: int | None = None) -> None:
        """Bring every open hand view of the game up to date (except ``skip``'s, the user
        whose click is being answered with a fresh view anyway); once the game is over
        each says how it ended and loses its menus, and is no longer followed."""
        final = game.status is not Status.PLAYING
        # a view never runs ahead of the table: it follows once the game's table waiting
        # in the outbox is posted (the table that names the person to move comes first)
        ready = self.outbox.table_ready(game.id)
        for index, seat in enumerate(game.seats):
            if not seat.is_human or seat.user_id == skip:
                continue
            user = int(seat.user_id or 0)
            if self.hands.is_open(game.id, user) and game.match is not None:
                t = self.hands.lang(game.id, user)  # the reader's, as they last clicked
                ink = self.inks.private(user, game.guild_id)
                content = hand_content(game, index, ink=ink, t=t)
                if not final and heavy(game, index):
                    key = view_key("hand", index, t, ink)
                    build = functools.partial(built_hand_view, seat=index, ink=ink, t=t)
                    view = self.hands.menus.start(game, key, build)
                    self.hands.push_built(game.id, user, content, view, after=ready)
                    continue
                view = None if final else hand_view(game, index, ink, t)
                self.hands.push(game.id, user, content, view, final=final, after=ready)
        if final:
            self.hands.forget_game(game.id)

    def after_move(self, outcome: MoveOutcome, mover: int | None = None) -> None:
        """What follows a committed move in this process: its timer, the hand views (a
        move of a computers' run that was not shown on the table leaves them as the table
        is: they follow with the table that shows it)."""
        self.timers.schedule(outcome.game.id, outcome.game.deadline)
        if not outcome.held:
            self.follow(outcome.game, skip=mover)

    def holds(self, outcome: MoveOutcome) -> bool:
        """Whether a move's table waits: a computer moved and another is to move, in the
        same round, and a table was posted less than :data:`RUN_TABLE_EVERY` ago. Its
        words are kept in the game's run (``game.extra["run"]``, saved with the move), and
        the next table shows the whole run, when a person is to move or the run is long."""
        game = outcome.game
        if outcome.finished_round is not None or outcome.match_over or outcome.abandoned:
            return False
        if not 0 <= outcome.mover < len(game.seats) or not game.seats[outcome.mover].is_computer:
            return False
        if not self.games.computer_to_move(game) or game.extra.get("paused"):
            return False
        shown = game.extra.get("table_at")
        return isinstance(shown, (int, float)) and now() - shown < RUN_TABLE_EVERY

    def compose(self, outcome: MoveOutcome) -> None:
        """Queue everything public a move shows, before it is committed (it is written in
        the move's transaction), wherever the game is shown: a round's summary, the fresh
        table, the match's end."""
        if self.holds(outcome):
            outcome.held = True  # the run goes on: its table comes later
            return
        game = outcome.game
        if outcome.match_over:
            log.info("game %s: finished, winner side %s", game.id, game.match.winner)
        elif outcome.abandoned:
            log.info("game %s: abandoned", game.id)
        # the final head goes to each person's hand view (its last update); the end
        # message keeps it, small, only where someone has no view open to get it
        everyone = outcome.match_over and private_heads(
            game, lambda user: self.hands.is_open(game.id, user)
        )
        for stage in stages_of(game):
            self._compose_at(outcome, stage, final_shown=not everyone)
        self.lobby_ended(game)

    def _compose_at(self, outcome: MoveOutcome, stage: Stage, *, final_shown: bool) -> None:
        """What a move shows at one place, in its language and deck."""
        game = outcome.game
        t = self.lang(game, stage)
        ink = self.inks.public(stage.guild_id)
        summary = None
        if outcome.finished_round is not None:
            # the round's last moves: a computers' run that ended the round is shown whole
            moves = [str(said.get(t.code) or said.get(EN.code, "")) for said in outcome.run]
            summary = round_summary(
                game,
                outcome.finished_round,
                outcome.scores,
                outcome.round_number,
                moves or outcome.text_in(t),
                ink=ink,
                t=t,
            )
        if outcome.match_over:
            table = table_embed(game, ink=ink, t=t, final_shown=final_shown)
            embeds = [summary, table] if summary else [table]
            content = final_line(game, t)
            view = table_view(game, t)
            self.post(game, stage, content=content, embeds=embeds, view=view, table=True)
        elif outcome.abandoned:
            content = (
                outcome.text_in(t)  # cards as text in a content, as in announce
                + "\n"
                + self._abandoned(game, t)
            )
            embeds = [table_embed(game, ink=ink, t=t)]
            self.post(game, stage, content=content, embeds=embeds, table=True)
        else:
            if summary is not None:
                self.post(game, stage, embeds=[summary])
            game.extra["table_at"] = now()  # saved with it: a computers' run counts from here
            self._announce_at(game, stage, None if summary is not None else outcome.text_in)

    def _abandoned(self, game: Game, t: Lang) -> str:
        """Why a game ended after missed turns: no result, or (a ladder match) who lost on
        time and who won."""
        missed = self.games.config.max_auto_moves
        late = game.extra.get("lost_on_time")
        if isinstance(late, int) and 0 <= late < len(game.seats):
            match = game.match
            winner, _ = on_time(list(match.scores), game.side_of(late), match.rules.lowest_wins)
            name, won = seat_name(game.seats[late], t), side_name(game, winner, t)
            if game.options.correspondence:
                return t(
                    "⏰ {name} ran out of time to move and loses the match: {winner} wins."
                    " The result is rated.",
                    name=name,
                    winner=won,
                )
            return t.ngettext(
                "⏰ {name} missed {n} turn in a row and loses on time: {winner} wins. The"
                " result is rated.",
                "⏰ {name} missed {n} turns in a row and loses on time: {winner} wins. The"
                " result is rated.",
                missed,
                name=name,
                winner=won,
            )
        return t.ngettext(
            "The game is abandoned: a player missed {n} turn in a row. No result is recorded.",
            "The game is abandoned: a player missed {n} turns in a row. No result is recorded.",
            missed,
        )

    async def table_posted(
        self, game_id: int, channel_id: int, message_id: int | None, row: int | None = None
    ) -> Iterable[int]:
        """Save the new table message of the game in a channel (as soon as it is posted)
        and say which old ones to delete: the previous table there, and one a killed
        process may have left. The post's outbox ``row`` is deleted in the same
        transaction (one write a move, not two); with no game to save, it is deleted alone."""
        async with self.games.session(game_id) as game:
            stage = stage_at(game, channel_id) if game is not None else None
            if game is None or stage is None:
                if row is not None:
                    await self.games.storage.post_done(row)
                return [message_id] if message_id else []
            stale = [m for m in (stage.message_id, stage.ping_id) if m and m != message_id]
            stage.ping_id = stage.message_id if stage.message_id != message_id else stage.ping_id
            stage.message_id = message_id
            posted = () if row is None else (row,)
            if stage.home:
                game.message_id, game.ping_id = stage.message_id, stage.ping_id
                await self.games.save(game, columns=MESSAGE_COLUMNS, posted=posted)
            else:
                await self.games.storage.mirror_posted(game.id, stage, posted)
        return stale
