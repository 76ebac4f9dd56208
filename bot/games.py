"""Game flow without Discord: lobbies, starting, moves, timers' decisions, results.

The cogs call these methods while holding the game's lock (:meth:`GameService.lock`);
every change is written to storage before the method returns, so the interaction reply
that follows always reports committed state.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
import weakref
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from bot.ai import LEVELS, hint
from bot.config import Config
from bot.correspondence.clock import next_step, shifted, turn_clock, valid
from bot.engine import Card, IllegalMove, Match, Move, Play, Reason, Round
from bot.i18n import EN, N_, Lang, lang, languages
from bot.models import (
    HUMAN,
    Game,
    GameOptions,
    Seat,
    Status,
    Timer,
    seat_limit,
    team_problem,
)
from bot.moves import auto_move, computer_move
from bot.records.deals import new_seed
from bot.records.ratings import lineup_of
from bot.records.seal import (
    CUT_MAX,
    VERSION,
    keep_seat_tags,
    new_salt,
    next_seal,
    players_cut,
    start_cut,
    version,
)
from bot.render import played_words, seat_name, variant_name
from bot.stages import SILENT_TURNS, Courier, Stage, by_interaction
from bot.storage import CorruptGame, MoveRecord, Outgoing, ResultRecord, Storage
from bot.timers import now
from bot.translator import command_field
from bot.turns import after, building

log = logging.getLogger(__name__)


class GameError(Exception):
    """A request that cannot be done; the message is shown to the person, nothing changed.

    ``message`` is a catalogue message (its English text is the id) and ``fields`` fill it
    in; a field may be a function of the language (a variant's or a player's name).
    :meth:`say` says it in a language; ``str(error)`` is the English.
    """

    def __init__(self, message: str, /, **fields: Any) -> None:
        self.message = message
        self.fields = fields
        self.reason: Reason | None = None
        super().__init__(self.say(EN))

    @classmethod
    def refused(cls, error: IllegalMove) -> GameError:
        """The engine's refusal of a move (its words; ``str`` is the engine's English)."""
        made = cls("{reason}", reason=str(error))
        made.reason = error.reason
        return made

    def say(self, t: Lang = EN, card: Callable[[Card], str] = str) -> str:
        """The message in language ``t`` (the engine's cards written with ``card``)."""
        if self.reason is not None:
            return t.reason(self.reason, card)
        fields = {key: value(t) if callable(value) else value for key, value in self.fields.items()}
        return t(self.message, **fields)


@dataclass(slots=True)
class MoveOutcome:
    """What a move did, for the messages that follow it."""

    game: Game
    text: str  # in English; ``texts`` has it in every language
    finished_round: Any = None  # the Round that just ended, if one did
    scores: Any = None  # that round's Score per side
    round_number: int = 0
    match_over: bool = False
    abandoned: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    mover: int = -1  # the seat that moved
    # the moves since a person last moved, this one last, each in every language (what
    # the table shows of a computer run, and a round's summary of its last moves)
    run: list[dict[str, str]] = field(default_factory=list)
    held: bool = False  # no table was queued for it: the computers' run goes on

    def text_in(self, t: Lang) -> str:
        """The move in words in language ``t``."""
        return self.texts.get(t.code) or self.text


# Told that a game's saved state is damaged (it is being closed); returns the posts that
# report it, written in the same transaction that closes the game.
BrokenHandler = Callable[[CorruptGame], list[Outgoing]]
# Handed the posts a save has just committed (to post them).
PostsHandler = Callable[[list[Outgoing]], None]
# Told, after the commit, that a game has just left the active statuses (finished,
# abandoned, stopped, cancelled): a tournament records its table's result. It must not
# wait (it is called inside the game's session): it starts its own task if it needs one.
EndedHandler = Callable[[Game], None]
# Queues (on ``game.outbox``) what the channel must be shown of a change, just before the
# change is committed, so both are written in one transaction.
Announce = Callable[[], None]


def _play_on(match: Match, move: Move) -> tuple[Play, Round, Round | None]:
    """Play ``move`` on ``match``: the play, the round it was played on (finished, if it
    was the round's last move) and, for a build, that round after it on a copy (how the
    builds' groups were made, for the words)."""
    played_on = match.round
    later = after(played_on, move) if move.kind == "build" or move.table_builds else None
    return match.play(move), played_on, later


# The columns a new table or lobby message changes: saved alone, without the match.
MESSAGE_COLUMNS = ("message_id", "ping_id")
# The most moves a game keeps of a run (six seats: a person's move and five computers')
RUN_LENGTH = 6


def run_after(game: Game, seat: int, texts: dict[str, str]) -> list[dict[str, str]]:
    """The moves since a person last moved, after ``seat`` played ``texts``: a person's
    move starts a new run, a computer's joins it (the last ``RUN_LENGTH`` are kept). It is
    kept in ``game.extra["run"]`` and saved with each move, so a restart loses none."""
    if not game.seats[seat].is_computer:
        return [texts]
    earlier = [dict(said) for said in game.extra.get("run", []) if isinstance(said, dict)]
    return [*earlier, texts][-RUN_LENGTH:]


class GameService:
    """Owns the loaded games, their locks, and every state change.

    The database row is the truth. A game is touched only inside :meth:`session`, which
    holds the game's lock and hands out the one loaded copy (loaded under that lock, so
    two interactions arriving together after a restart cannot each load their own). Saves
    are compare-and-set on the version, so a stale copy could never overwrite the row;
    when anything fails inside a session the copy is dropped and the next session loads
    the row again. The cache only spares re-reading a game on every click.

    What a change must show in the channel is queued on ``game.outbox`` before the change
    is saved and written in the same transaction (``compose`` does it for every move);
    once committed it is handed to ``on_posts``, which posts it.
    """

    def __init__(
        self,
        storage: Storage,
        config: Config,
        seed: int | None = None,
        on_broken: BrokenHandler | None = None,
        on_posts: PostsHandler | None = None,
    ) -> None:
        self.storage = storage
        self.config = config
        self._rng = random.Random(seed)
        # production (no fixed seed): every match is dealt from a secret seed (bot.records.deals)
        self._secret_seeds = seed is None
        self._games: dict[int, Game] = {}
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._on_broken = on_broken
        self._on_posts = on_posts
        # queues what a move shows (before the move is committed, on ``game.outbox``)
        self.compose: Callable[[MoveOutcome], None] | None = None
        # told when a game ends (see :data:`EndedHandler`)
        self.on_ended: EndedHandler | None = None
        # until when a person is away on vacation (cogs.correspondence): their
        # correspondence turns start their time when it ends
        self.away_until: Callable[[int], float | None] = lambda user_id: None

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock that serialises every change to one game (kept while anyone uses it)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    @asynccontextmanager
    async def session(self, game_id: int) -> AsyncIterator[Game | None]:
        """Hold the game's lock and yield its one loaded copy (``None``: no such game, or
        its saved state was damaged and the game has just been closed and reported)."""
        # the storage's lock keeps other processes off the game (a no-op on SQLite)
        async with self.lock(game_id), self.storage.game_lock(game_id) as version:
            game = await self._load(game_id, version)
            try:
                yield game
            except BaseException:
                self._games.pop(game_id, None)  # it may hold changes that were not saved
                raise

    async def _load(self, game_id: int, version: int | None = None) -> Game | None:
        """The game's one copy: the cached one if the row still holds its version
        (``version``: the row's, read with the lock; else read here), or read anew."""
        game = self._games.get(game_id)
        # another process may have moved it on (a restart, a shard moved): re-read then
        shared = game is not None and self.storage.shared
        if shared and version is None:
            version = await self.storage.game_version(game_id)
        if shared and version != game.stored_version:
            self._games.pop(game_id, None)
            game = None
        if game is not None:
            return game
        try:
            game = await self.storage.get_game(game_id)
        except CorruptGame as broken:
            await self._close_broken(broken)
            return None
        if game is not None and game.status.active:
            self._games[game_id] = game
        return game

    async def _close_broken(self, broken: CorruptGame) -> None:
        log.error("game %s: saved state refused (%s); closing it", broken.game_id, broken.reason)
        posts = self._on_broken(broken) if self._on_broken else []
        if await self.storage.close_broken(broken.game_id, now(), posts):
            self._posted(posts)

    def _posted(self, posts: list[Outgoing]) -> None:
        if posts and self._on_posts is not None:
            self._on_posts(posts)

    async def channel_game(self, channel_id: int) -> int | None:
        """The id of the lobby or match in a channel, if any."""
        for game in self._games.values():
            if game.channel_id == channel_id and game.status.active:
                return game.id
        return await self.storage.channel_game(channel_id)

    async def active(self, channel_id: int) -> Game | None:
        """The lobby or match in a channel (the loaded copy), if any."""
        game_id = await self.channel_game(channel_id)
        if game_id is None:
            return None
        async with self.session(game_id) as game:
            return game if game is not None and game.status.active else None

    async def save(
        self,
        game: Game,
        move: MoveRecord | None = None,
        results: list[ResultRecord] | None = None,
        *,
        columns: Sequence[str] | None = None,
        posted: Sequence[int] = (),
    ) -> None:
        """Commit a game (inside its session) with what it queued for its channel, then
        post that; a finished game leaves the cache. ``columns``: only these changed;
        ``posted``: outbox rows of posts made, deleted in the same transaction."""
        posts = game.outbox
        # only active games are kept loaded: a kept game saved inactive has just ended
        ending = self._games.get(game.id) is game and not game.status.active
        try:
            await self.storage.save_game(game, now(), move, results or (), columns, posted)
        except BaseException:
            self._games.pop(game.id, None)
            raise
        finally:
            game.outbox = []
        if not game.status.active:
            self._games.pop(game.id, None)
        self._posted(posts)
        if ending and self.on_ended is not None:
            self.on_ended(game)

    # ------------------------------------------------------------------ lobby

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host: Seat,
        options: GameOptions,
        locale: str | None = None,
        courier: Courier = Courier.CHANNEL,
    ) -> Game:
        """Create a lobby with the host seated; raises ``ChannelBusy`` if the channel is taken.
        ``locale``: the server's language as the host's interaction gave it; ``courier``:
        how the game's messages reach its channel (:mod:`bot.stages`)."""
        options.rules()  # validates
        extra: dict[str, Any] = {"locale": locale} if locale else {}
        if courier is not Courier.CHANNEL:
            extra["courier"] = courier.value
        # the match seed is drawn now, and its commitment shown on the lobby, before
        # anyone presses Start (whose click cuts the first deal: bot.records.seal)
        extra["seed"] = self.draw_seed()
        game = Game(0, guild_id, channel_id, int(host.user_id or 0), options, [host], extra=extra)
        await self.storage.create_game(game, now())
        self._games[game.id] = game
        return game

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        seats: Sequence[Seat],
        options: GameOptions,
        *,
        hints: bool = False,
        extra: dict[str, Any] | None = None,
        locale: str | None = None,
        seed: str | None = None,
        cuts: dict[str, int] | None = None,
        mirrors: Sequence[Stage] = (),
    ) -> Game:
        """A match already dealt with these ``seats`` (a tournament's table, in its own
        thread; a ladder match, shown also at its ``mirrors``): created PLAYING, its
        first turn's timer set; raises ``ChannelBusy`` if the channel is taken. The
        caller announces its table and saves it (one commit, as a rematch's); what it
        must show first is best kept in ``extra`` (a tournament's table keeps its welcome
        there, posted by :meth:`TableFlow.welcome`), so a process killed before that save
        still shows it after a restart. ``extra`` is kept with the game (a tournament's
        table names itself there); the first seat is its host. ``seed``: the table's
        seed, derived from the tournament's committed one; ``cuts``: its players' cuts
        (by user id as text). Without a seed (a tournament opened before they had one)
        the table is cut by its thread's id, as before."""
        game = self.dealt_table(
            guild_id,
            channel_id,
            seats,
            options,
            hints=hints,
            extra=extra,
            locale=locale,
            seed=seed,
            cuts=cuts,
            mirrors=mirrors,
        )
        await self.storage.create_game(game, now())
        self._games[game.id] = game
        return game

    def dealt_table(
        self,
        guild_id: int,
        channel_id: int,
        seats: Sequence[Seat],
        options: GameOptions,
        *,
        hints: bool = False,
        extra: dict[str, Any] | None = None,
        locale: str | None = None,
        seed: str | None = None,
        cuts: dict[str, int] | None = None,
        mirrors: Sequence[Stage] = (),
        at: float | None = None,
    ) -> Game:
        """:meth:`open_table`'s match, dealt in memory and not stored yet (the ladder
        stores it in the transaction that pairs its players; ``at``: its moment)."""
        options = options.for_players(len(seats))
        options.rules(len(seats))  # validates
        kept: dict[str, Any] = dict(extra or {})
        if locale:
            kept["locale"] = locale
        if hints:
            kept["hints"] = True
        host = int(seats[0].user_id or 0)
        if seed is not None:
            kept["seed"] = seed
            kept["lobby_cuts"] = dict(cuts or {})
        if mirrors:
            kept["mirrored"] = True  # its stages are read with it (bot.stages)
        game = Game(0, guild_id, channel_id, host, options, [s.fresh() for s in seats], extra=kept)
        game.mirrors = list(mirrors)
        # a derived seed depends on nothing known after the tournament's commitment; an
        # older tournament's table is cut by the number Discord gave its thread
        self.deal_match(game, None if seed is not None else channel_id, host, "table", at)
        return game

    async def join(self, game: Game, seat: Seat) -> None:
        """Seat a person in a lobby."""
        self._require(game, Status.LOBBY, N_("The game has already started."))
        if seat.user_id is not None and game.seat_of(seat.user_id) is not None:
            raise GameError("You already have a seat in this game.")
        self._require_room(game)
        game.seats.append(seat)
        game.version += 1
        await self.save(game)

    async def add_computer(self, game: Game, user_id: int, level: str) -> None:
        """The host seats a computer player of ``level``."""
        self._require_host(game, user_id, N_("Only the host can add computer players."))
        if level not in LEVELS:
            raise GameError("There is no {level} computer player.", level=repr(level))
        self._require_room(game)
        same = sum(seat.level == level for seat in game.seats if seat.is_computer)
        game.seats.append(Seat.computer(level, same + 1))
        game.version += 1
        await self.save(game)

    async def remove_computer(self, game: Game, user_id: int) -> None:
        """The host removes the computer player seated last."""
        self._require_host(game, user_id, N_("Only the host can remove computer players."))
        computers = [i for i, seat in enumerate(game.seats) if seat.is_computer]
        if not computers:
            raise GameError("There is no computer player to remove.")
        del game.seats[computers[-1]]
        game.version += 1
        await self.save(game)

    async def toggle_hints(self, game: Game, user_id: int) -> None:
        """The host turns hints on or off (a match played with hints is marked)."""
        self._require_host(game, user_id, N_("Only the host can turn hints on or off."))
        game.extra["hints"] = not game.hints
        game.version += 1
        await self.save(game)

    @staticmethod
    def _require_room(game: Game) -> None:
        """Refuse a seat beyond the variant's limit (4; 6 in Krypkasino)."""
        limit = seat_limit(game.options.variant)
        if len(game.seats) >= limit:
            raise GameError("The table is full ({count} players).", count=limit)

    def _require_host(self, game: Game, user_id: int, refusal: str) -> None:
        self._require(game, Status.LOBBY, N_("The game has already started."))
        if user_id != game.host_id:
            raise GameError(refusal)

    async def leave(self, game: Game, user_id: int) -> None:
        """Give up a seat in a lobby (the host cancels instead)."""
        self._require(
            game, Status.LOBBY, N_("The game has already started; ask the host to stop it.")
        )
        index = game.seat_of(user_id)
        if index is None:
            raise GameError("You are not seated in this game.")
        if user_id == game.host_id:
            raise GameError("You are the host: use Cancel to close the lobby.")
        del game.seats[index]
        cuts = game.extra.get("lobby_cuts")
        if isinstance(cuts, dict):
            cuts.pop(str(user_id), None)  # a cut is a seated person's
        game.version += 1
        await self.save(game)

    async def cut_deck(self, game: Game, user_id: int, number: int) -> None:
        """A seated person cuts the deck (``number`` 1..25) once, before Start: every
        round of the match is then shuffled with their cut too (bot.records.seal), so
        the deals depend on something they chose after the seed was committed to."""
        self._require(game, Status.LOBBY, N_("The game has already started."))
        if game.seat_of(user_id) is None:
            raise GameError("Only a seated player can cut the deck: join first.")
        if not 1 <= number <= CUT_MAX:
            raise GameError("Cut the deck at a number from 1 to {most}.", most=CUT_MAX)
        cuts = game.extra.setdefault("lobby_cuts", {})
        if str(user_id) in cuts:
            raise GameError(
                "You have already cut the deck (at {number}).", number=cuts[str(user_id)]
            )
        cuts[str(user_id)] = int(number)
        game.version += 1
        await self.save(game)

    def check_rematch_cut(self, old: Game, user_id: int) -> int:
        """The seat of a player of a finished match who may still cut its rematch's deck;
        else a friendly :class:`GameError`."""
        if old.status is not Status.FINISHED or old.extra.get("next_seed") is None:
            raise GameError("This game has no rematch to cut for.")
        if self._rematched(old):
            raise GameError("The rematch is already dealt.")
        seat = old.seat_of(user_id)
        if seat is None:
            raise GameError("Only the players of this game can ask for a rematch.")
        cuts = old.extra.get("rematch_cuts") or {}
        if str(seat) in cuts:
            raise GameError("You have already cut the deck (at {number}).", number=cuts[str(seat)])
        return seat

    @staticmethod
    def _rematched(old: Game) -> bool:
        """Whether the finished match's rematch was dealt (its Rematch button is gone from
        the end message: the channel holds the rematch, or held it)."""
        return bool(old.extra.get("rematch_dealt"))

    async def cut_rematch(self, old: Game, user_id: int, number: int) -> None:
        """A player of a finished match cuts the deck for its rematch (once, before it is
        dealt): kept by seat (the rematch keeps the seats), so no user id stays behind."""
        seat = self.check_rematch_cut(old, user_id)
        if not 1 <= number <= CUT_MAX:
            raise GameError("Cut the deck at a number from 1 to {most}.", most=CUT_MAX)
        old.extra.setdefault("rematch_cuts", {})[str(seat)] = int(number)
        old.version += 1
        await self.save(old)

    async def cancel(self, game: Game, user_id: int) -> None:
        """The host closes a lobby."""
        self._require(
            game,
            Status.LOBBY,
            N_("The game has already started; use {stop}."),
            stop=command_field("stop"),
        )
        if user_id != game.host_id:
            raise GameError("Only the host can cancel this lobby.")
        game.status = Status.CANCELLED
        game.extra.pop("lobby_cuts", None)  # kept by user id: not beyond the lobby
        game.version += 1
        await self.save(game)

    async def start(
        self,
        game: Game,
        user_id: int,
        announce: Announce | None = None,
        click_id: int | None = None,
    ) -> None:
        """The host deals the first round (``announce`` queues the first table), cut by
        the Start click (``click_id``: its Discord id)."""
        self._require(game, Status.LOBBY, N_("The game has already started."))
        if user_id != game.host_id:
            raise GameError("Only the host can start the game.")
        problem = team_problem(game.options, len(game.seats))
        if problem:
            raise GameError(problem)
        if len(game.seats) < 2:
            raise GameError("At least 2 players are needed to start.")
        counts = game.options.rules().player_counts
        if len(game.seats) not in counts:
            variant = game.options.variant
            raise GameError(
                "{variant} is for {counts} players.",
                variant=lambda t: variant_name(variant, t),
                counts=lambda t: t.listing(map(str, counts), "or"),
            )
        # four players of Casino, Swazi… always play in partnerships
        game.options = game.options.for_players(len(game.seats))
        self.deal_match(game, click_id, user_id)
        await self._commit(game, announce)

    def draw_seed(self) -> str | int:
        """A match seed: secret in production, reproducible with a test seed."""
        return new_seed() if self._secret_seeds else self._rng.getrandbits(64)

    def _draw_salt(self) -> str:
        """A seat's salt: secret in production, reproducible with a test seed."""
        return new_salt() if self._secret_seeds else f"{self._rng.getrandbits(128):032x}"

    @staticmethod
    def _seat_cuts(game: Game) -> dict[int, int]:
        """The cuts seated people made in the lobby, by seat (the lobby keeps them by user
        id while seats may still move; they are dropped here)."""
        made = game.extra.pop("lobby_cuts", None)
        by_seat = {}
        for user, number in made.items() if isinstance(made, dict) else ():
            seat = game.seat_of(int(user)) if str(user).lstrip("-").isdigit() else None
            if seat is not None and isinstance(number, int) and 1 <= number <= CUT_MAX:
                by_seat[seat] = number
        # a rematch's: made on the end message, kept by seat
        for place, number in (game.extra.pop("seat_cuts", None) or {}).items():
            seat = int(place) if str(place).isdigit() else -1
            if 0 <= seat < len(game.seats) and isinstance(number, int) and 1 <= number <= CUT_MAX:
                by_seat[seat] = number
        return by_seat

    def deal_match(
        self,
        game: Game,
        click_id: int | None = None,
        user_id: int = 0,
        how: str = "start",
        at: float | None = None,
    ) -> None:
        """Start the match in memory: shuffle, deal, set the first turn's deadline. The
        first round is cut by the click that dealt it (``click_id``, by ``user_id``)."""
        opts = game.options
        rules = opts.rules(len(game.seats))
        # drawn when the lobby opened, or a rematch's when the match before it ended
        # (a match finished before that has none: drawn now)
        seed = game.extra.pop("seed", None)
        if seed is None:
            seed = self.draw_seed()
        # the cut, fixed now for every round: the click and each person's own cut (made
        # in the lobby), by seat: no user id in it (bot.records.seal)
        cut = players_cut(start_cut(click_id, how), self._seat_cuts(game))
        game.match = Match.start(rules, len(game.seats), seed=seed, cut=cut)
        game.extra["cuts"] = [cut]
        # by seat, not by person: forgetting a person must not leave their id here
        game.extra["cut_by"] = {"seat": game.seat_of(user_id), "how": how}
        # every move of this match is sealed (version 2: the whole match, seats by a salted
        # tag so that forget-me can drop the id and keep the seal)
        game.extra["salts"] = {
            str(index): self._draw_salt() for index, seat in enumerate(game.seats) if seat.is_human
        }
        game.extra["seal"] = {"moves": 0, "v": VERSION}
        game.status = Status.PLAYING
        game.version += 1
        self.set_turn_timer(game, at)

    async def rematch(self, old: Game, user_id: int, click_id: int | None = None) -> Game:
        """A new match with the same seats and rules, dealt at once (cut by the Rematch
        click, ``click_id``)."""
        if old.status.active:
            raise GameError("This game is still running.")
        if old.in_tournament:  # an old table's button, or a forged click
            raise GameError("A tournament's table has no rematch.")
        if old.extra.get("ladder"):  # a forged click: its end message has no Rematch
            raise GameError("A ladder match has no rematch: queue again for a new opponent.")
        if old.seat_of(user_id) is None:
            raise GameError("Only the players of this game can ask for a rematch.")
        if self._rematched(old):
            raise GameError("The rematch is already dealt.")
        if any(seat.kind == HUMAN and seat.user_id is None for seat in old.seats):
            # a forgotten player's seat: nobody to seat again
            raise GameError(
                "A player of this game asked the bot to forget them, so there is no rematch."
                " Start a new game with {new}.",
                new=command_field("new"),
            )
        game = Game(
            0,
            old.guild_id,
            old.channel_id,
            user_id,
            old.options,
            [seat.fresh() for seat in old.seats],
            extra=_kept(old.extra),
        )
        if "next_seed" in old.extra:
            # drawn and committed to when the old match ended (its end message shows it)
            game.extra["seed"] = old.extra["next_seed"]
            game.extra["seed_game"] = old.id
            # the cuts its players made on the end message, by seat (the same seats)
            game.extra["seat_cuts"] = dict(old.extra.get("rematch_cuts") or {})
        self.deal_match(game, click_id, user_id, "rematch")
        await self.storage.create_game(game, now())
        self._games[game.id] = game
        # a cut made for it now would count for nothing: the old match says it is dealt
        old.extra["rematch_dealt"] = True
        old.version += 1
        await self.save(old)
        return game

    async def stop(
        self,
        game: Game,
        *,
        allowed: bool,
        announce: Announce | None = None,
        ended: str = "stopped",
    ) -> None:
        """End a lobby or match without a result (host or channel managers only);
        ``announce`` queues what the channel is shown of it. ``ended="deadline"``: a
        tournament's table stopped at its round's deadline (its record says so)."""
        if not game.status.active:
            raise GameError("This game is already over.")
        if not allowed:
            raise GameError("Only the host or someone with Manage Channels can stop this game.")
        game.status = Status.STOPPED
        game.extra.pop("lobby_cuts", None)  # kept by user id: not beyond the lobby
        keep_seat_tags(game)
        if ended == "deadline":
            game.extra["ended"] = "deadline"
        game.deadline = None
        game.timer = None
        game.version += 1
        await self._commit(game, announce)

    async def _commit(self, game: Game, announce: Announce | None) -> None:
        """Save a change with what ``announce`` queues for the channel (one transaction)."""
        if announce is not None:
            announce()
        await self.save(game)

    @staticmethod
    def _require(game: Game, status: Status, message: str, **fields: Any) -> None:
        if game.status is status:
            return
        if game.status is Status.CANCELLED:  # a lobby closed before it started: never played
            raise GameError("This game was cancelled before it started.")
        if game.status.active:
            raise GameError(message, **fields)
        raise GameError("This game is over.")

    # ------------------------------------------------------------------ moves

    def set_turn_timer(self, game: Game, at: float | None = None) -> None:
        """The player to move gets a fresh turn limit (reminder first, where one can be
        posted); a computer player gets its short pause before it moves. ``at``: the
        moment it starts (default now; a match dealt inside a database transaction, which
        runs off the event loop, is given the loop's moment)."""
        start = now() if at is None else at
        game.extra.pop("clock", None)
        if self.computer_to_move(game):
            game.deadline = start + self.config.computer_pause
            game.timer = Timer.COMPUTER
        elif game.options.correspondence:
            # days a move, the mover told, warned, then out of time (bot.correspondence)
            mover = game.seats[game.match.round.to_move].user_id or 0
            clock = turn_clock(start, game.options.move_seconds, self.away_until(mover))
            game.extra["clock"] = clock
            game.deadline, game.timer = next_step(clock, start)
        elif by_interaction(game.extra):
            # nobody can be reminded where the bot only answers clicks: the reminder's time
            # and the automatic move's are one limit, applied by the next click after it
            game.deadline = start + SILENT_TURNS * game.options.turn_seconds
            game.timer = Timer.AUTO
        else:
            game.deadline = start + game.options.turn_seconds
            game.timer = Timer.REMIND

    @staticmethod
    def computer_to_move(game: Game) -> bool:
        """Whether a computer player is to move in a running game."""
        if game.status is not Status.PLAYING or game.match is None:
            return False
        return game.seats[game.match.round.to_move].is_computer

    @staticmethod
    def move_seed(game: Game) -> str:
        """A seed for a computer's decision: the same game and position decide alike."""
        return f"kasino:{game.id}:{game.version}"

    def check_turn(self, game: Game, user_id: int) -> int:
        """The seat of ``user_id`` if they may move now; else a friendly :class:`GameError`."""
        if game.status is not Status.PLAYING:
            raise GameError("This game is not being played any more.")
        seat = game.seat_of(user_id)
        if seat is None:
            raise GameError("You are not playing in this game; you can follow it on the table.")
        if game.extra.get("paused"):
            raise GameError("The next round is being dealt; try again in a moment.")
        to_move = game.match.round.to_move
        if to_move != seat:
            waiting = game.seats[to_move]
            raise GameError(
                "It is not your turn: waiting for {name}.", name=lambda t: seat_name(waiting, t)
            )
        return seat

    async def play(self, game: Game, seat: int, move: Move, *, auto: bool = False) -> MoveOutcome:
        """Apply a move for ``seat`` and commit it; :class:`GameError` if it is illegal."""
        match = game.match
        rounds_before = match.rounds_played
        whole = move.to_dict()
        # the move's hash on the sealed log; in a game dealt with cuts it cuts the next
        # round, should this move end the round (set before the move, which deals it)
        keep_seat_tags(game)  # forget-me may remove a person's id later: the seal stays
        sealed = next_seal(game, rounds_before + 1, seat, whole, auto)
        cuts = game.extra.get("cuts")
        whole_match = version(game) == 2
        if whole_match and isinstance(cuts, list) and cuts:
            match.cut = str(cuts[0])  # version 2: every round by the cut fixed at Start
        elif sealed is not None and isinstance(cuts, list):
            match.cut = sealed[0]
        try:
            if building(match.round):
                # checking a move can list a card's moves (a busy Swazi table: ~0.1 s), so
                # it is played on a copy in a worker thread; the copy becomes the game's
                twin = match.copy()
                play, before, later = await asyncio.to_thread(_play_on, twin, move)
                game.match = match = twin
            else:
                play, before, later = _play_on(match, move)
        except IllegalMove as error:
            raise GameError.refused(error) from None
        player = game.seats[seat]
        player.tabbar += int(play.sweep)
        player.idle = player.idle + 1 if auto else 0
        # said once in every language: the table and each player's hand show their own
        # Krypkasino: a tabbe rewards the seat before the mover
        rewarded = game.seats[(seat - 1) % len(game.seats)] if match.rules.reward_points else None
        texts = {
            code: played_words(
                player, match.rules, play, later, auto=auto, rewarded=rewarded, t=lang(code)
            )
            for code in languages()
        }
        text = texts[EN.code]
        outcome = MoveOutcome(game, text, texts=texts, mover=seat)
        outcome.run = run_after(game, seat, texts)
        if match.rounds_played > rounds_before or match.is_over:
            outcome.finished_round = before
            outcome.scores = match.round_scores[-1] if match.round_scores else None
            outcome.round_number = rounds_before + 1
        # a new round's table starts without the last round's move (the summary has it)
        game.last_move = "" if outcome.finished_round is not None else text
        game.extra["last_move"] = {} if outcome.finished_round is not None else texts
        game.extra["run"] = [] if outcome.finished_round is not None else outcome.run
        game.version += 1
        if sealed is not None:
            game.extra["seal"] = {**game.extra["seal"], "head": sealed[0], "moves": sealed[1]}
            dealt = match.rounds_played > rounds_before and not match.is_over
            if isinstance(cuts, list) and dealt and not whole_match:
                game.extra["cuts"] = [*cuts, sealed[0]]  # the round just dealt
        results = self._finish(game, outcome, player)
        record = MoveRecord(
            seat,
            str(move.card),
            move_log(move),
            auto,
            round=rounds_before + 1,
            move=json.dumps(whole),
            seal=None if sealed is None else sealed[0],
        )
        if self.compose is not None:
            self.compose(outcome)  # what the channel sees of it, committed with it
        await self.save(game, record, results)
        if outcome.abandoned and game.extra.get("ladder"):
            # counted towards a pause of the person's queueing (bot.ladder), once a match
            await self.storage.record_ladder_abandon(int(player.user_id or 0), game.id, now())
        return outcome

    def _finish(self, game: Game, outcome: MoveOutcome, mover: Seat) -> list[ResultRecord]:
        match = game.match
        game.extra.pop("clock", None)  # the turn is over (the next one has its own)
        if match.is_over:
            outcome.match_over = True
            game.status = Status.FINISHED
            game.deadline = game.timer = None
            # a rematch is dealt at its click: its seed is drawn now, and its commitment
            # shown in the end message, before anyone clicks (the click cuts its deal); a
            # tournament's table has none (its thread belongs to the tournament)
            if not game.in_tournament and not game.extra.get("ladder"):  # none: no rematch
                game.extra["next_seed"] = self.draw_seed()
            return self.results(game)
        if mover.idle >= self.config.max_auto_moves:
            outcome.abandoned = True
            game.status = Status.ABANDONED
            game.deadline = game.timer = None
            if game.extra.get("ladder"):
                # a ladder match is not left for nothing: who stopped moving loses on time,
                # rated as any loss (the record says "abandoned": the moves end there)
                game.extra["lost_on_time"] = outcome.mover
                return self.results(game, lost=game.side_of(outcome.mover))
            return []
        if outcome.finished_round is not None and self.config.round_pause > 0:
            game.extra["paused"] = True
            game.deadline = now() + self.config.round_pause
            game.timer = Timer.DEAL
        else:
            self.set_turn_timer(game)
        return []

    @staticmethod
    def results(game: Game, lost: int | None = None) -> list[ResultRecord]:
        """The leaderboard lines of a finished match, one per person (never a computer);
        marked when a computer played or hints were on. Each carries the match's lineup
        (what rates it) and, for the profile, the rounds played and per side the rounds in
        which it took storan and lillan and the aces it took. ``lost``: the side that lost
        on time (a ladder match): the best of the others wins, and it ranks last."""
        match = game.match
        rules = match.rules
        keys = [
            (game.side_of(i), f"u{int(seat.user_id)}" if seat.is_human else f"c:{seat.level}")
            for i, seat in enumerate(game.seats)
        ]
        winner, ranked = match.winner, list(match.scores)
        if lost is not None:
            winner, ranked = on_time(ranked, lost, rules.lowest_wins)
        lineup = lineup_of(keys, ranked, winner, rules.lowest_wins).dumps()
        if game.extra.get("unrated"):
            lineup = ""  # a game the ladder offered while one waits: no rating moves
        rounds = len(match.round_scores)
        lines = []
        for index, seat in enumerate(game.seats):
            if not seat.is_human:
                continue
            side = game.side_of(index)
            scored = [scores[side] for scores in match.round_scores if side < len(scores)]
            aces = sum(s["aces"] for s in scored) // rules.ace_points if rules.ace_points else 0
            lines.append(
                ResultRecord(
                    int(seat.user_id or 0),
                    side,
                    side == winner,
                    match.scores[side],
                    seat.tabbar,
                    vs_computer=game.has_computers,
                    hinted=game.hints,
                    rounds=rounds,
                    storan=sum(s["storan"] > 0 for s in scored),
                    lillan=sum(s["lillan"] > 0 for s in scored),
                    aces=aces,
                    lineup=lineup,
                )
            )
        return lines

    @staticmethod
    def taken_at(game: Game, positions: tuple[int, ...]) -> tuple[Card, ...]:
        """Table cards by their positions (distinct, sorted), checking each is there."""
        table = game.match.round.table
        if not positions or positions[-1] >= len(table):
            raise GameError("Those cards are not on the table any more, so nothing was played")
        return tuple(table[i] for i in positions)

    # ----------------------------------------------------------------- timers

    async def resume_after_pause(self, game: Game, announce: Announce | None = None) -> None:
        """The pause after a round is over: the next round's first turn begins."""
        game.extra.pop("paused", None)
        game.version += 1
        self.set_turn_timer(game)
        await self._commit(game, announce)

    def clock_step(self, game: Game, **done: Any) -> None:
        """A correspondence turn's step is done (``noticed=True``, ``warned=True``, or
        ``notice_at=`` a later moment): the game's deadline becomes the next step's."""
        clock = game.extra.get("clock")
        if not valid(clock):  # damaged, or saved before: the turn starts again now
            self.set_turn_timer(game)
            return
        clock.update(done)
        game.deadline, game.timer = next_step(clock, now())

    def shift_clock(self, game: Game, seconds: float) -> bool:
        """Move the running correspondence turn's clock ``seconds`` later (its mover's
        vacation begins) or earlier (it ended early); ``False`` if there is none."""
        clock = game.extra.get("clock")
        if game.status is not Status.PLAYING or not valid(clock):
            return False
        game.extra["clock"] = moved = shifted(clock, seconds, now())
        game.deadline, game.timer = next_step(moved, now())
        game.version += 1
        return True

    async def lose_on_time(self, game: Game, announce: Announce | None = None) -> None:
        """The person to move in a correspondence game ran out of time: their side loses
        the match, rated as any loss (bot.correspondence); ``announce`` queues what every
        table shows of it."""
        late = game.match.round.to_move
        game.extra["lost_on_time"] = late
        game.extra.pop("clock", None)
        game.status = Status.ABANDONED
        game.deadline = game.timer = None
        game.version += 1
        keep_seat_tags(game)
        if announce is not None:
            announce()
        await self.save(game, None, self.results(game, lost=game.side_of(late)))

    async def remind(self, game: Game, announce: Announce | None = None) -> None:
        """After the reminder, the next deadline is the automatic move."""
        game.deadline = now() + game.options.turn_seconds
        game.timer = Timer.AUTO
        await self._commit(game, announce)

    async def play_for(self, game: Game) -> MoveOutcome:
        """Play the ``normal`` computer's move for the player whose time ran out."""
        rnd = game.match.round
        # a copy: a worker thread never reads the live round (see bot.offloop)
        move = await asyncio.to_thread(auto_move, rnd.copy(), self.move_seed(game))
        return await self.play(game, rnd.to_move, move, auto=True)

    async def play_computer(self, game: Game) -> MoveOutcome:
        """A computer player's turn: think in a worker thread, then play like a person.

        Called under the game's lock, so the round cannot change while it thinks; it
        thinks about a copy all the same, so a worker thread never reads the live round
        (were this task cancelled, the lock would be released while the thread runs).
        """
        seat = game.match.round.to_move
        level = game.seats[seat].level or "normal"
        budget = self.config.hard_budget_ms if level == "hard" else None
        rnd = game.match.round.copy()
        move = await asyncio.to_thread(
            computer_move, rnd, seat, level, self.move_seed(game), budget
        )
        return await self.play(game, seat, move)

    def hint_job(self, game: Game, seat: int, t: Lang = EN) -> Callable[[], tuple[Move, str]]:
        """What ``hard`` would play for ``seat`` and why: a job to run in a worker thread.

        It thinks about a copy of the round taken now, so moves made meanwhile cannot
        disturb it.
        """
        if not game.hints:
            raise GameError("Hints are off in this game.")
        rnd = game.match.round.copy()
        budget = self.config.hard_budget_ms
        return functools.partial(hint, rnd, seat, self.move_seed(game), budget, t=t)


def on_time(scores: list[int], lost: int, lowest_wins: bool) -> tuple[int, list[int]]:
    """The winner and the points a lineup ranks by when side ``lost`` lost on time: the
    best of the other sides wins, and the late side counts as below everyone."""
    others = [side for side in range(len(scores)) if side != lost]
    best = (min if lowest_wins else max)(others, key=lambda side: (scores[side], -side))
    worst = max(scores) + 1 if lowest_wins else min(scores) - 1
    return best, [worst if side == lost else points for side, points in enumerate(scores)]


def _kept(extra: dict[str, Any]) -> dict[str, Any]:
    """What a rematch keeps of the old game's settings: hints, the server's language, how
    its messages reach the channel."""
    kept = {key: extra[key] for key in ("hints", "locale", "courier") if extra.get(key)}
    return kept


def move_log(move: Move) -> tuple[str, ...]:
    """What the move log keeps of a move besides its card: the items taken, or for a build
    ``build <value>`` and the items used, and each build made from table cards."""
    words = [str(item) for item in move.taken]
    if move.value is not None:
        words += [f"build {move.value}", *map(str, move.using)]
    for made in move.table_builds:
        words += [f"build {made.value}", *map(str, made.using)]
    return tuple(words)
