"""A game that is over as a record: built from the stored rows, written as JSON, stepped
with the engine, and verified. No Discord connection is needed (``python -m bot verify``
and ``python -m bot replay`` use it on an exported file); the schema is in docs/record.md.

A record exists only for a match that is *over* (won, stopped, abandoned, or stopped at a
tournament round's deadline): :func:`load_record` refuses a game in play, so nothing here
can show a card that is still hidden. The seeds it carries are then harmless, and they let
anyone check each round's commitment (:mod:`bot.records.deals`) and deal; a tournament's
seed, from which its tables' seeds are derived, only once the whole tournament is over.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine import IllegalMove, Match, Move
from bot.engine.checks import as_score
from bot.engine.rules import rules_from_dict, rules_to_dict
from bot.i18n import EN, Lang
from bot.models import Game, GameOptions, Seat, Status
from bot.records.deals import (
    commitment,
    round_seed,
    seed_commitment,
    table_seed,
    tournament_commitment,
)
from bot.records.seal import (
    chain,
    chain_v2,
    ended_of,
    final_head,
    header,
    matches_head,
    options_of,
    result_dict,
    seat_tag,
    seat_tag_of,
    seed_shown_in,
    table_mark,
    tournament_of,
    version,
)
from bot.render import played_words
from bot.turns import after

FORMAT = "kasino-record"
# 2: the sealed move log ("chain", each move's "seal"); 3: the whole match sealed (chain
# version 2: seats' tags and salts, "ended", the final head); 1 and 2 are still read
SCHEMA = 3
READABLE_SCHEMAS = (1, 2, 3)
ENDINGS = ("won", "stopped", "abandoned", "deadline")
MAX_MOVES = 20_000  # no real match comes near; a bigger file is refused unread


class RecordError(ValueError):
    """A record that cannot be read, or a game that has none; says why."""


class NoRecord(RecordError):
    """A game without a record: ``reason`` is ``missing``, ``unfinished`` or ``old``."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"no record: {reason}")
        self.reason = reason


@dataclass(frozen=True, slots=True)
class RecordedMove:
    """One turn: who (``seat``), in which round (from 1), the engine's move, whether the
    bot played it for a player whose time ran out, and when (Unix seconds)."""

    seat: int
    round: int
    move: Move
    auto: bool = False
    at: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "seat": self.seat,
            "round": self.round,
            "move": self.move.to_dict(),
            "auto": self.auto,
            "at": self.at,
        }


@dataclass(slots=True)
class Step:
    """The position after ``step`` moves (0: the first deal), for a replay page."""

    step: int
    steps: int
    game: Game  # the record's game with the match as it stood then
    round: int  # the round in play (from 1)
    deal: int
    deals: int
    text: str  # the move that led here, in words ("" at step 0)
    ended_round: int | None  # the round that move ended, if it did
    round_totals: list[int] | None  # that round's points per side
    seed: str
    commitment: str


@dataclass(slots=True)
class GameRecord:
    """Everything needed to replay a finished match and check its deals."""

    game_id: int
    guild_id: str
    channel_id: str
    options: dict[str, Any]
    rules: dict[str, Any]
    players: int
    seats: list[dict[str, Any]]
    seed: int | float | str
    moves: list[RecordedMove]
    scores: list[int]
    winner: int | None
    round_scores: list[list[dict[str, int]]]
    started_at: float = 0.0
    finished_at: float = 0.0
    # each move's hash in the sealed log as stored or exported (None: a game without one)
    seals: list[str] | None = None
    # what an exported file's "chain" claims (checked by verify; None: built from storage)
    chain_claim: dict[str, Any] | None = None
    # round 1's cut (bot.records.seal); later rounds are cut by the chain's head at the
    # end of the round before. None: a game dealt from the seed alone (before cuts)
    cut: str | None = None
    # the game whose message showed the seed's commitment first (a rematch: the match
    # before it, whose end message did); None: this game's own lobby
    seed_game: int | None = None
    # the sealed log's version: 1 seals the moves from the seed and round 1's cut; 2 the
    # whole match (header, how each move was made, the result: bot.records.seal)
    chain_version: int = 1
    # how the match ended: "won" (a side won), or without a result "stopped", "abandoned",
    # or "deadline" (a tournament table decided at its deadline)
    ended: str = "won"
    # a tournament's table dealt from the tournament's seed: its id, round, table, the
    # commitment to its deal seed, and the seed itself once the tournament is over
    tournament: dict[str, Any] | None = None
    _heads: list[str] | None = field(default=None, repr=False, compare=False)
    _index: list[tuple[int, int]] | None = field(default=None, repr=False, compare=False)

    # ------------------------------------------------------------- building

    @classmethod
    def from_game(cls, game: Game, moves: Sequence[Any], finished_at: float = 0.0) -> GameRecord:
        """The record of a finished game from its row and its move log
        (``storage.StoredMove`` rows); :class:`NoRecord` for any other game."""
        ended = ended_of(game)
        if ended is None or game.match is None:
            raise NoRecord("unfinished")
        played = []
        seals = [row.seal for row in moves]
        for row in moves:
            if row.move is None or row.round is None:
                raise NoRecord("old")
            try:
                move = Move.from_dict(json.loads(row.move))
            except ValueError as error:
                raise RecordError(f"move {row.version}: {error}") from None
            played.append(RecordedMove(row.seat, row.round, move, row.auto, row.at))
        match = game.match
        cuts = game.extra.get("cuts")
        whole = version(game) == 2
        return cls(
            game_id=game.id,
            guild_id=str(game.guild_id),
            channel_id=str(game.channel_id),
            options=options_of(game.options, game.hints),
            rules=rules_to_dict(match.rules),
            players=match.players,
            seats=[_seat_dict(game, index, whole) for index in range(len(game.seats))],
            seed=match.seed,
            moves=played,
            scores=list(match.scores),
            winner=match.winner if ended == "won" else None,
            round_scores=[[dict(s.items) for s in scores] for scores in match.round_scores],
            started_at=float(game.created_at or 0.0),
            finished_at=float(finished_at or 0.0),
            # a game dealt before moves were sealed has none (no row of it has a seal)
            seals=[str(h) for h in seals] if seals and all(seals) else None,
            cut=str(cuts[0]) if isinstance(cuts, list) and cuts else None,
            seed_game=None if seed_shown_in(game) == game.id else seed_shown_in(game),
            chain_version=2 if whole else 1,
            ended=ended,
            tournament=_table_of(game.extra) if whole else None,
        )

    @property
    def rounds(self) -> int:
        """How many rounds were dealt."""
        return max((m.round for m in self.moves), default=1)

    def round_cut(self, number: int) -> str | None:
        """Round ``number``'s cut: round 1's from the Start click, round ``k``'s the
        sealed log's head after round ``k-1``'s last move (None: dealt before cuts)."""
        if self.cut is None or number <= 1 or self.chain_version == 2:
            return self.cut  # version 2: every round by the cut fixed at Start
        last = max((i for i, m in enumerate(self.moves, 1) if m.round == number - 1), default=0)
        return self.heads()[last]

    def round_seed(self, number: int) -> str:
        """Round ``number``'s seed (with its cut)."""
        return round_seed(self.seed, number, self.round_cut(number))

    def commitment(self, number: int) -> str:
        """Round ``number``'s commitment, as the table showed its start."""
        return commitment(self.round_seed(number), self.game_id, number)

    @property
    def sealed(self) -> bool:
        """Whether the game's moves were sealed as they were played (not an older game)."""
        return self.seals is not None

    def seed_commitment(self) -> str:
        """The commitment to the match seed, which starts the sealed log."""
        return seed_commitment(self.seed, self.seed_game or self.game_id)

    def seat_tag(self, index: int) -> str | None:
        """Seat ``index``'s tag in the header: from the person's id and salt, or the tag
        the record carries once they were forgotten (``None``: a computer's seat)."""
        seat = self.seats[index]
        salt, user = seat.get("salt"), seat.get("user_id")
        if isinstance(salt, str) and user not in (None, ""):
            return seat_tag(self.game_id, index, user, salt)
        tag = seat.get("tag")
        return tag if isinstance(tag, str) else None

    def header(self) -> dict[str, Any]:
        """What ``h_0`` of a version-2 chain seals (bot.records.seal.header)."""
        seats = [
            {"kind": s.get("kind"), "level": s.get("level"), "side": s.get("side"),
             "tag": self.seat_tag(i)}
            for i, s in enumerate(self.seats)
        ]  # fmt: skip
        return header(
            self.game_id,
            self.rules,
            self.options,
            seats,
            self.seed_commitment(),
            self.cut,
            self.tournament,
            (self.guild_id, self.channel_id),
        )

    def heads(self) -> list[str]:
        """The sealed log recomputed from the moves: ``[h_0, h_1, …, h_n]`` (once)."""
        if self._heads is None:
            if self.chain_version == 2:
                sealed = ((m.round, m.seat, m.auto, m.move.to_dict()) for m in self.moves)
                self._heads = chain_v2(self.game_id, self.header(), sealed)
            else:
                moves = ((m.round, m.seat, m.move.to_dict()) for m in self.moves)
                self._heads = chain(self.game_id, self.seed_commitment(), moves, self.cut)
        return self._heads

    def result(self) -> dict[str, Any]:
        """What the final head seals of the result (bot.records.seal.result_dict)."""
        return result_dict(self.round_scores, self.scores, self.winner, self.ended)

    def final(self) -> str | None:
        """The final head (version 2): the chain's last head and the result, in one hash;
        ``None`` for an older game."""
        if not self.sealed or self.chain_version != 2:
            return None
        return final_head(self.game_id, self.heads()[-1], self.result())

    def chain_dict(self) -> dict[str, Any] | None:
        """The export's ``chain``: the seed's commitment, ``h_0`` and the head, and in a
        version-2 chain its version and the final head (``None``: no sealed log)."""
        if not self.sealed:
            return None
        heads = self.heads()
        data = {"seed_commitment": self.seed_commitment(), "origin": heads[0], "head": heads[-1]}
        if self.chain_version == 2:
            data = {"version": 2, **data, "final": self.final()}
        return data

    # ---------------------------------------------------------------- JSON

    def to_dict(self) -> dict[str, Any]:
        """The documented JSON form (docs/record.md)."""
        return {
            "format": FORMAT,
            "schema": SCHEMA,
            "game": self.game_id,
            "guild": self.guild_id,
            "channel": self.channel_id,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "options": self.options,
            "rules": self.rules,
            "players": self.players,
            "seats": self.seats,
            "seed": self.seed,
            "cut": self.cut,
            **({"seed_game": self.seed_game} if self.seed_game is not None else {}),
            **({"tournament": self.tournament} if self.tournament is not None else {}),
            "rounds": [self._round_dict(n) for n in range(1, self.rounds + 1)],
            "chain": self.chain_dict(),
            "moves": [self._move_dict(i) for i in range(len(self.moves))],
            "result": {
                "scores": self.scores,
                "winner": self.winner,
                "round_scores": self.round_scores,
                "ended": self.ended,
            },
        }

    def _round_dict(self, number: int) -> dict[str, Any]:
        """Round ``number`` in the JSON form: its seed and commitment, and in a game dealt
        with cuts its cut and who made it (``start``: the click; ``moves``: the chain)."""
        data: dict[str, Any] = {
            "round": number,
            "seed": self.round_seed(number),
            "commitment": self.commitment(number),
        }
        if self.cut is not None:
            data["cut"] = self.round_cut(number)
            first = number == 1 or self.chain_version == 2
            data["cut_by"] = "start" if first else "moves"
        return data

    def _move_dict(self, index: int) -> dict[str, Any]:
        """Move ``index`` (from 0) in the JSON form, with its seal in a sealed game."""
        data = self.moves[index].to_dict()
        if self.seals is not None:
            data["seal"] = self.seals[index]
        return data

    def to_json(self) -> str:
        """The record as a JSON document (UTF-8 text, indented)."""
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        """Read the JSON form; :class:`RecordError` names what is wrong. The commitments in
        ``rounds`` are kept aside for :meth:`verify` (see :func:`read`)."""
        try:
            return cls._from_dict(data)
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            raise RecordError(f"not a Kasino record ({type(error).__name__}: {error})") from None

    @classmethod
    def _from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f'not a Kasino record (no "format": "{FORMAT}")')
        if data.get("schema") not in READABLE_SCHEMAS:
            raise RecordError(f"record schema {data.get('schema')!r}; this bot reads 1 to {SCHEMA}")
        moves = data["moves"]
        if not isinstance(moves, list) or len(moves) > MAX_MOVES:
            raise RecordError('"moves" is a list of at most 20000 moves')
        seed = data["seed"]
        if not isinstance(seed, int | float | str) or isinstance(seed, bool):
            raise RecordError('"seed" is a number or text')
        # a known variant's rules, every field written out (none left to a default)
        rules = rules_from_dict(data["rules"])
        if rules_to_dict(rules) != data["rules"]:
            raise RecordError('"rules" are not a known variant\'s rules, written out whole')
        result = data["result"]
        sealed = data.get("chain") is not None
        cut = data.get("cut")
        if cut is not None and not isinstance(cut, str):
            raise RecordError('"cut" is text or null')
        shown = data.get("seed_game")
        seed_game = None if shown is None else _whole(shown, "seed_game")
        whole = sealed and isinstance(data["chain"], dict) and data["chain"].get("version") == 2
        ended = result.get("ended", "won")
        if ended not in ENDINGS:
            raise RecordError(f'"ended" is one of {", ".join(ENDINGS)}, not {ended!r}')
        return cls(
            game_id=_whole(data["game"], "game"),
            guild_id=str(data["guild"]),
            channel_id=str(data["channel"]),
            options=dict(data["options"]),
            rules=dict(data["rules"]),
            players=_whole(data["players"], "players"),
            seats=[dict(seat) for seat in data["seats"]],
            seed=seed,
            moves=[
                RecordedMove(
                    _whole(m["seat"], "seat"),
                    _whole(m["round"], "round"),
                    Move.from_dict(m["move"]),
                    bool(m.get("auto", False)),
                    float(m.get("at", 0.0)),
                )
                for m in moves
            ],
            scores=[_score(s, rules.lowest_wins) for s in result["scores"]],
            winner=None if result["winner"] is None else _whole(result["winner"], "winner"),
            round_scores=list(result.get("round_scores", [])),
            started_at=float(data.get("started_at", 0.0)),
            finished_at=float(data.get("finished_at", 0.0)),
            seals=[str(m.get("seal", "")) for m in moves] if sealed else None,
            chain_claim=dict(data["chain"]) if sealed else None,
            cut=cut,
            seed_game=seed_game,
            chain_version=2 if whole else 1,
            ended=ended,
            tournament=_tournament(data.get("tournament")),
        )

    # ----------------------------------------------------------- the engine

    def start(self) -> Match:
        """The match as it was dealt (round 1 with its cut)."""
        rules = rules_from_dict(self.rules)
        return Match.start(rules, self.players, seed=self.seed, cut=self.cut)

    def game_at(self, match: Match, status: Status = Status.FINISHED) -> Game:
        """A game (for the texts) with the record's seats and options around ``match``."""
        options = GameOptions(**{k: v for k, v in self.options.items() if k in _OPTION_KEYS})
        seats = [
            Seat(
                int(s["user_id"]) if s.get("user_id") not in (None, "") else None,
                str(s.get("name", "?")),
                str(s.get("kind", "human")),
                s.get("level"),
            )
            for s in self.seats
        ]
        return Game(
            self.game_id, int(self.guild_id or 0), int(self.channel_id or 0), 0, options, seats,
            status=status, match=match, created_at=self.started_at,
        )  # fmt: skip

    def _play(self, match: Match, number: int) -> Any:
        """Play move ``number`` (from 1) on ``match``; :class:`RecordError` if the engine
        or the log disagree."""
        recorded = self.moves[number - 1]
        if match.is_over:
            raise RecordError(f"move {number}: the match was already over")
        if recorded.round != match.rounds_played + 1:
            raise RecordError(
                f"move {number}: logged in round {recorded.round}, played in round"
                f" {match.rounds_played + 1}"
            )
        if recorded.seat != match.round.to_move:
            raise RecordError(
                f"move {number}: logged for seat {recorded.seat}, seat"
                f" {match.round.to_move} was to move"
            )
        if self.chain_version == 2:
            match.cut = self.cut  # every round by the cut fixed at Start
        elif self.cut is not None:
            # as the bot did: should this move end the round, the head after it cuts the next
            match.cut = self.heads()[number]
        try:
            return match.play(recorded.move)
        except IllegalMove as error:
            raise RecordError(f"move {number} ({recorded.move}): {error}") from None

    def replay(self, on_move: Callable[[int, Match, Any, str], None] | None = None) -> Match:
        """Play every move through the engine (``on_move(number, match, play, words)``
        after each) and check the end: the final scores and winner are the record's."""
        match = self.start()
        for number in range(1, len(self.moves) + 1):
            before = match.round.copy() if on_move is not None else None
            play = self._play(match, number)
            if on_move is not None:
                auto = self.moves[number - 1].auto
                on_move(number, match, play, self._words(match, before, play, EN, auto))
        if self.ended == "won" and not match.is_over:
            raise RecordError("after every move the match is not over")
        if self.ended != "won" and match.is_over:
            raise RecordError(f"the match was won, the record says it ended {self.ended!r}")
        if self.ended != "won" and self.winner is not None:
            raise RecordError("a match that was not played out has no winner")
        if list(match.scores) != self.scores or match.winner != self.winner:
            raise RecordError(
                f"the replay ends {match.scores} (winner {match.winner}), the record says"
                f" {self.scores} (winner {self.winner})"
            )
        played = [[dict(s.items) for s in scores] for scores in match.round_scores]
        if self.round_scores and played != self.round_scores:
            raise RecordError("the round scores are not the ones the replay gives")
        return match

    def index(self) -> list[tuple[int, int]]:
        """``(round, deal)`` in play at every step 0..len(moves) (computed once)."""
        if self._index is None:
            match = self.start()
            index = [(1, match.round.deal_number)]
            for number in range(1, len(self.moves) + 1):
                self._play(match, number)
                index.append((_round_in_play(match), match.round.deal_number))
            self._index = index
        return self._index

    def state_at(self, step: int, t: Lang = EN) -> Step:
        """The position after ``step`` moves (0..len(moves)): every hand, the table, the
        scores, and the last move in words. Its cost grows with ``step``: the bot calls it
        in a worker thread."""
        if not 0 <= step <= len(self.moves):
            raise RecordError(f"step {step} is not in 0..{len(self.moves)}")
        match = self.start()
        for number in range(1, step):
            self._play(match, number)
        text, ended, totals = "", None, None
        if step:
            rounds_before = match.rounds_played
            before = match.round.copy()
            play = self._play(match, step)
            text = self._words(match, before, play, t, self.moves[step - 1].auto)
            if match.rounds_played > rounds_before or match.is_over:
                ended = rounds_before + 1
                if match.round_scores:
                    totals = [s.total for s in match.round_scores[-1]]
        number = _round_in_play(match)
        game = self.game_at(match, Status.FINISHED if match.is_over else Status.PLAYING)
        game.last_move = text
        return Step(
            step, len(self.moves), game, number, match.round.deal_number,
            match.round.deals_total, text, ended, totals,
            self.round_seed(number), self.commitment(number),
        )  # fmt: skip

    def _words(self, match: Match, before: Any, play: Any, t: Lang, auto: bool = False) -> str:
        """A played move in words, as the table said it."""
        move = play.move
        seats = self.game_at(match).seats
        seat = seats[play.seat]
        rewarded = seats[(play.seat - 1) % len(seats)] if match.rules.reward_points else None
        later = None
        if before is not None and (move.kind == "build" or move.table_builds):
            later = after(before, move)
        return played_words(seat, match.rules, play, later, auto=auto, rewarded=rewarded, t=t)

    # -------------------------------------------------------------- checks

    def sealed_by(self, head: str) -> int | None:
        """How many moves the head a player saw (16 or more hex digits) seals: ``n`` when
        it is this record's ``h_n``; ``None`` when it is none of its heads."""
        if not self.sealed:
            return None
        for number, computed in reversed(list(enumerate(self.heads()))):
            if matches_head(computed, head):
                return number
        return None

    def tournament_problems(self) -> list[str]:
        """A tournament table's seed must be derived from the tournament's seed, and that
        seed be the one committed to (once revealed: the tournament is over)."""
        table = self.tournament
        if table is None or table.get("seed") is None:
            return []
        seed = str(table["seed"])
        problems = []
        if tournament_commitment(table["id"], seed) != table["commitment"]:
            problems.append(
                "the tournament's seed is not the one its commitment"
                f" {str(table['commitment'])[:32]} was made to"
            )
        if table_seed(seed, table["round"], table["table"]) != str(self.seed):
            problems.append(
                f"the table's seed is not derived from the tournament's (round"
                f" {table['round']}, table {table['table']})"
            )
        return problems

    def is_final(self, head: str) -> bool:
        """Whether ``head`` (what a player saw) is this record's final head: the one that
        seals the whole match (a version-2 chain only)."""
        final = self.final()
        return final is not None and matches_head(final, head)

    def chain_problems(self, head: str | None = None) -> list[str]:
        """What is wrong with the sealed log: each move's seal must be the hash of the
        moves up to it, the file's ``chain`` the recomputed one, and ``head`` (what a player
        saw) one of the log's heads."""
        if not self.sealed:
            if head is None:
                return []
            return [
                "this record has no sealed move log (the game was dealt before moves were"
                " sealed): no head can be checked against it"
            ]
        heads = self.heads()
        problems = [
            f"move {number}: its seal {str(claimed)[:16]}… is not the hash of the moves up to"
            f" it ({heads[number][:16]}…)"
            for number, claimed in enumerate(self.seals or [], start=1)
            if claimed != heads[number]
        ]
        if self.chain_claim is not None and self.chain_claim != self.chain_dict():
            what = "record" if self.chain_version == 2 else "seed and moves"
            problems.append(
                f"the chain {self.chain_claim!r} is not the one the {what} give"
                f" (head {heads[-1][:16]}…)"
            )
        if head is not None and not self.is_final(head) and self.sealed_by(head) is None:
            problems.append(
                f"the head {head.strip()[:64]} is not this record's (its final head is"
                f" {(self.final() or heads[-1])[:16]}…): this is not the match that was"
                " played, or not these moves"
            )
        return problems

    def verify(
        self, commitments: Sequence[str] | None = None, head: str | None = None
    ) -> list[str]:
        """What is wrong with the record (empty: nothing): each round's commitment must be
        the one its seed gives (``commitments``: the ones the file claims), the replay
        through the engine must accept every move (each card played came from the hand
        the seed dealt) and end on the record's scores and winner, and the sealed log
        must be the moves' (``head``: one a player saw, :meth:`chain_problems`)."""
        problems = self.chain_problems(head) + self.tournament_problems()
        if commitments is not None:
            if len(commitments) != self.rounds:
                problems.append(
                    f"{len(commitments)} round commitments for {self.rounds} rounds played"
                )
            for number, claimed in enumerate(commitments, start=1):
                if claimed != self.commitment(number):
                    problems.append(
                        f"round {number}: the commitment {str(claimed)[:16]}… is not the"
                        f" SHA-256 of its seed ({self.commitment(number)[:16]}…)"
                    )
        try:
            self.replay()
        except RecordError as error:
            problems.append(str(error))
        return problems


_OPTION_KEYS = frozenset(GameOptions.__dataclass_fields__)


def _table_of(extra: dict[str, Any]) -> dict[str, Any] | None:
    """A tournament table's part of the record (its seed revealed later, by
    :func:`load_record`, once the tournament is over)."""
    mark = tournament_of(extra)
    return None if mark is None else {**table_mark(mark), "seed": None}


def _tournament(value: object) -> dict[str, Any] | None:
    """The record's ``tournament``, checked for shape."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RecordError('"tournament" is an object or absent')
    found = {key: value.get(key) for key in ("id", "round", "table")}
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in found.values()):
        raise RecordError('"tournament" names its id, round and table as whole numbers')
    if not isinstance(value.get("commitment"), str):
        raise RecordError('"tournament" carries the commitment to its seed')
    seed = value.get("seed")
    if seed is not None and not isinstance(seed, str):
        raise RecordError('the tournament\'s "seed" is text or null')
    return {**found, "commitment": value["commitment"], "seed": seed}


def _seat_dict(game: Game, index: int, whole: bool) -> dict[str, Any]:
    """Seat ``index`` in the record: name, kind, level, user id, side, and in a game sealed
    whole the person's salt (verify recomputes the seat's tag from it), or the tag alone
    once the person was forgotten."""
    seat = game.seats[index]
    data: dict[str, Any] = {
        "name": seat.name,
        "kind": seat.kind,
        "level": seat.level,
        "user_id": None if seat.user_id is None else str(seat.user_id),
        "side": game.side_of(index),
    }
    if whole:
        salts = game.extra.get("salts")
        salt = salts.get(str(index)) if isinstance(salts, dict) else None
        if salt is not None and seat.user_id is not None:
            data["salt"] = salt
        else:
            tag = seat_tag_of(game, index)
            if tag is not None:
                data["tag"] = tag
    return data


def _round_in_play(match: Match) -> int:
    """The round a match's position belongs to (from 1): the last one once it is over."""
    return max(1, match.rounds_played if match.round.is_over else match.rounds_played + 1)


def _whole(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RecordError(f'"{name}" is a whole number, not {value!r}')
    return value


def _score(value: object, negative: bool) -> int:
    """A final score: a whole number, below zero only in a game of penalties (Krypkasino's
    rewards can take a total there)."""
    try:
        return as_score(value, "scores", negative)
    except ValueError:
        least = "" if negative else " from 0 up"
        raise RecordError(f'"scores" are whole numbers{least}, not {value!r}') from None


def read(text: str) -> tuple[GameRecord, list[Any]]:
    """A record from JSON text, with the seeds and commitments its ``rounds`` claim."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise RecordError(f"not JSON: {error}") from None
    record = GameRecord.from_dict(data)
    rounds = data.get("rounds", []) if isinstance(data, dict) else []
    if not isinstance(rounds, list):
        raise RecordError('"rounds" is a list')
    for number, entry in enumerate(rounds, start=1):
        if not isinstance(entry, dict):
            raise RecordError('each of "rounds" is an object')
        if entry.get("cut") != record.round_cut(number):
            what = "the Start click's" if number == 1 else f"round {number - 1}'s chain head"
            raise RecordError(
                f"round {number}: its cut {entry.get('cut')!r} is not {what}"
                f" {record.round_cut(number)!r}"
            )
        if entry.get("seed") != record.round_seed(number):
            raise RecordError(
                f"round {number}: its seed {entry.get('seed')!r} is not the match seed's"
                f" {record.round_seed(number)!r}"
            )
    return record, [entry.get("commitment") for entry in rounds]


async def load_record(
    storage: Any, game_id: int, build: Callable[..., Awaitable[Any]] | None = None
) -> tuple[GameRecord, int]:
    """The record of a stored game and the server it was played in; :class:`NoRecord`
    for a game that does not exist, is not a finished match, or was played before moves
    were kept whole. ``build`` runs the parsing of the moves (``asyncio.to_thread`` in
    the bot: its cost grows with the game)."""
    game = await storage.get_game(game_id)
    if game is None:
        raise NoRecord("missing")
    if ended_of(game) is None or game.match is None:
        raise NoRecord("unfinished")  # in play (its hidden cards stay hidden), or never dealt
    moves = await storage.game_moves(game_id)
    finished = await storage.finished_at(game_id) or 0.0
    if build is None:
        record = GameRecord.from_game(game, moves, finished)
    else:
        record = await build(GameRecord.from_game, game, moves, finished)
    if record.tournament is not None:
        record.tournament["seed"] = await _revealed_seed(storage, record.tournament["id"])
    return record, game.guild_id


async def _revealed_seed(storage: Any, tournament_id: int) -> str | None:
    """A tournament's deal seed once it is over (finished or cancelled): before, it would
    tell the deals of tables still in play."""
    from bot.tournaments.deals import deal_seed  # the records need no tournament else

    getter = getattr(storage, "get_tournament", None)
    row = await getter(tournament_id) if getter is not None else None
    if row is None or row.phase.open:
        return None
    return deal_seed(row.extra)
