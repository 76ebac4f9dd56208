"""A match: rounds until a side reaches the target and wins."""

from __future__ import annotations

import copy
import secrets
from collections.abc import Sequence

from .cards import LILLAN, STORAN, Card
from .checks import as_count, as_list, as_score, as_seat, brief, fields_of, per_seat, saved_version
from .moves import IllegalMove, Move
from .reasons import reason
from .round import FORMAT_VERSION, READABLE_VERSIONS, Play, Round
from .rules import Rules, rules_from_dict, rules_to_dict
from .scoring import END_ITEMS, LIVE_ITEMS, NEGATIVE_ITEMS, Score, drop_zeros

_ITEMS = frozenset((*LIVE_ITEMS, *END_ITEMS))


class Match:
    """Rounds to the target. Start one with :meth:`start`; ``play`` moves on the current round."""

    def __init__(
        self, rules: Rules, players: int, seed: object, round_: Round, banked: list[int]
    ) -> None:
        self.rules = rules
        self.players = players
        self.seed = seed
        self.round = round_
        self.banked = banked
        self.rounds_played = 0
        self.winner: int | None = None
        self.round_scores: list[list[Score]] = []
        # the players' cut the next round's shuffle mixes in (None: dealt from the seed
        # alone, as before cuts); the caller sets it before each move (not saved)
        self.cut: str | None = None

    @classmethod
    def start(
        cls,
        rules: Rules,
        players: int,
        seed: object = None,
        dealer: int = 0,
        scores: Sequence[int] | None = None,
        cut: str | None = None,
    ) -> Match:
        """Deal the first round. ``seed`` makes every round's shuffle reproducible;
        ``cut`` (text the players supplied) is mixed into the first round's shuffle.

        ``scores`` (match points per side to start from) are whole numbers from 0 up (any
        whole numbers where the lowest wins), and must not already decide the match (a tie
        at the top plays on, as after a round).
        A seed other than a number or text is kept as its text, which deals the same.
        """
        rules.check_players(players)
        if seed is None:
            seed = secrets.randbits(64)
        elif not isinstance(seed, int | float | str):
            seed = str(seed)
        sides = rules.sides(players)
        banked = [0] * sides if scores is None else list(scores)
        if len(banked) != sides:
            raise ValueError(f"scores needs one entry per side ({sides})")
        for score in banked:
            as_score(score, "scores", rules.lowest_wins)
        winner = _winner(rules, banked)
        if winner is not None:
            raise ValueError(
                f"side {winner} already has {banked[winner]} points and the target is "
                f"{rules.target}: that match is over"
            )
        first = Round.deal(rules, players, dealer, seed=_round_seed(seed, 0, cut), scores=banked)
        return cls(rules, players, seed, first, banked)

    def copy(self) -> Match:
        """An independent copy: the round copied, the lists of scores copied (scores
        themselves are immutable)."""
        twin = copy.copy(self)
        twin.round = self.round.copy()
        twin.banked = list(self.banked)
        twin.round_scores = [list(scores) for scores in self.round_scores]
        return twin

    @property
    def is_over(self) -> bool:
        """Whether a side has won."""
        return self.winner is not None

    @property
    def scores(self) -> list[int]:
        """Match points per side, with points already taken this round where they count live."""
        if self.rules.live and not self.round.is_over:
            return self.round.live_totals()
        return list(self.banked)

    def play(self, move: Move) -> Play:
        """Play ``move`` on the current round; score it, decide the winner, deal the next."""
        if self.is_over:
            raise IllegalMove(reason("the match is over"))
        play = self.round.play(move)
        if self.rules.live:
            # Points taken with this card count at once, before any end-of-round item.
            self._live_winner(leftovers=False)
        if self.round.is_over and not self.is_over:
            self._end_round()
        return play

    def _live_winner(self, leftovers: bool) -> None:
        totals = self.round.live_totals(leftovers)
        self.winner = _winner(self.rules, totals)
        if self.winner is not None:
            self.banked = totals
            items = self.round.live_items(leftovers)
            self.round_scores.append([Score(drop_zeros(i)) for i in items])

    def _end_round(self) -> None:
        self._score_round(self.round)
        if self.winner is None:
            self._next_round()

    def _score_round(self, finished: Round) -> None:
        """Bank a finished round's scores (from the totals it started with) and decide
        the winner, if any; the next round is not dealt here."""
        scores = finished.score()
        self.round_scores.append(scores)
        self.rounds_played += 1
        if self.rules.live and self.rules.builds:
            self._count_out(finished)
        elif self.rules.live:
            # The leftovers' aces count as they are taken, then each end item in turn.
            self.banked = finished.live_totals()
            self.winner = _leader(self.banked, self.rules.target)
            end = finished.end_items()
            for item in END_ITEMS:
                if self.winner is not None:
                    return
                self.banked = [b + items[item] for b, items in zip(self.banked, end, strict=True)]
                self.winner = _leader(self.banked, self.rules.target)
        elif self._nets():
            # Target 11, two players (7.1): the round's winner scores the difference.
            low = min(s.total for s in scores)
            self.banked = [b + s.total - low for b, s in zip(self.banked, scores, strict=True)]
            self.winner = _leader(self.banked, self.rules.target)
        else:
            self.banked = [b + s.total for b, s in zip(self.banked, scores, strict=True)]
            self.winner = _winner(self.rules, self.banked)
        if self.winner is None and self.rules.tiebreak == "spades":
            self.winner = _leader(self.banked, self.rules.target, finished.spades_taken())

    def _nets(self) -> bool:
        """Target 11 with two players (7.1): a round's winner banks the difference."""
        rules = self.rules
        return rules.net_at_eleven and rules.target == 11 and self.players == 2

    def _count_out(self, finished: Round) -> None:
        """7.1's counting out: from the points before the round, add the round's items in
        the order cards, last capture, spades, big casino, little casino, aces (♠ ♣ ♥ ♦),
        sweeps, mulle; the first side to reach the target wins."""
        start = list(finished.scores)
        scores = finished.score()
        piles = finished.side_piles()
        steps: list[list[int]] = []
        for key in ("cards", "sistan", "spades"):
            steps.append([s[key] for s in scores])
        rules = self.rules
        steps.append([rules.storan_points * pile.count(STORAN) for pile in piles])
        steps.append([rules.lillan_points * pile.count(LILLAN) for pile in piles])
        for suit in "SCHD":
            steps.append([rules.ace_points * pile.count(_ace(suit)) for pile in piles])
        steps.append([s["tabbe"] for s in scores])
        steps.append([s["mulle"] for s in scores])
        self.banked = start
        for step in steps:
            self.banked = [b + p for b, p in zip(self.banked, step, strict=True)]
            self.winner = _leader(self.banked, self.rules.target)
            if self.winner is not None:
                return

    def _next_dealer(self) -> int:
        finished, players = self.round, self.players
        if self.rules.next_dealer == "right":
            return (finished.dealer - 1) % players
        if self.rules.next_dealer == "loser":
            # South African: the round's loser is dealt to first and starts.
            totals = [s.total for s in self.round_scores[-1]]
            low = min(totals)
            step = self.rules.direction
            starter = (finished.dealer + step) % players
            order = [(starter + step * i) % players for i in range(players)]
            loser = next(seat for seat in order if totals[self.rules.side_of(seat, players)] == low)
            return (loser - step) % players
        return (finished.dealer + 1) % players

    def _next_round(self) -> None:
        dealer = self._next_dealer()
        self.round = Round.deal(
            self.rules,
            self.players,
            dealer,
            seed=_round_seed(self.seed, self.rounds_played, self.cut),
            scores=self.banked,
        )

    def to_dict(self) -> dict[str, object]:
        """A plain, JSON-able form; :meth:`from_dict` plays on identically."""
        return {
            "version": FORMAT_VERSION,
            "rules": rules_to_dict(self.rules),
            "players": self.players,
            "seed": self.seed,
            "banked": list(self.banked),
            "rounds_played": self.rounds_played,
            "winner": self.winner,
            "round": self.round.to_dict(),
            "round_scores": [[s.items for s in scores] for scores in self.round_scores],
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Match:
        """Rebuild a match from :meth:`to_dict`; raise ``ValueError`` on a damaged form.

        As :meth:`Round.from_dict`, only what play can reach is accepted: the round's
        rules are the match's, the winner is a side that has reached the target, a match
        with no winner has its round in play, and the scores agree.
        """
        try:
            return cls._from_dict(data)
        except (KeyError, TypeError, AttributeError, IndexError, RecursionError) as error:
            raise ValueError(f"not a saved match ({type(error).__name__})") from error

    @classmethod
    def _from_dict(cls, data: dict) -> Match:
        field = fields_of(data, "match")
        saved_version(field("version"), READABLE_VERSIONS, "match")
        rules = rules_from_dict(field("rules"))
        players = field("players")
        rules.check_players(players)
        round_ = Round.from_dict(field("round"))
        if round_.rules != rules or round_.players != players:
            raise ValueError("the match's rules or players differ from its round's")
        seed = field("seed")
        if not isinstance(seed, int | float | str):
            raise ValueError(f"the seed is a number or text, not {brief(seed)}")
        _round_seed(seed, 0)  # a number too long to write out raises ValueError
        sides = rules.sides(players)
        banked = [
            as_score(s, "banked", rules.lowest_wins)
            for s in per_seat(as_list(field("banked"), "banked"), sides, "banked")
        ]
        match = cls(rules, players, seed, round_, banked)
        match.rounds_played = as_count(field("rounds_played"), "rounds_played")
        winner = field("winner")
        match.winner = None if winner is None else as_seat(winner, sides, "the winner")
        match.round_scores = [
            _round_score(r, sides) for r in as_list(field("round_scores"), "round_scores")
        ]
        match._check_saved()
        return match

    def _check_saved(self) -> None:
        """Refuse (``ValueError``) a match play cannot have reached."""
        extra = len(self.round_scores) - self.rounds_played
        if extra not in (0, 1) or (extra and (self.winner is None or not self.rules.live)):
            raise ValueError(
                f"{len(self.round_scores)} round scores for {brief(self.rounds_played)} rounds"
            )
        self._check_history()
        if self.winner is None:
            if self.round.is_over:
                raise ValueError("a finished round without a winner is followed by the next deal")
            if _winner(self.rules, self.banked) is not None:
                raise ValueError("the scores have a winner but the match has none")
            if self.round.scores != self.banked:
                raise ValueError("the round does not start from the match's scores")
        else:
            best = self.banked[self.winner]
            if self.rules.lowest_wins:
                won = max(self.banked) >= self.rules.target and best == min(self.banked)
            else:
                won = best >= self.rules.target and best == max(self.banked)
            if not won:
                raise ValueError(f"side {self.winner} has not won with {brief(best)} points")
            if not extra and not self.round.is_over:
                raise ValueError("a match won at the end of a round has that round over")
            self._check_ending()

    def _check_history(self) -> None:
        """The rounds before the current one went on without a winner (``ValueError``).

        Each finished round banked its scores on the totals it started from, so counting
        back from the current round's start through the saved round scores gives the
        totals after every earlier round, and the match's start: none may have a winner
        (the match would have ended there), and the start is one :meth:`start` takes.
        """
        rules = self.rules
        done = len(self.round_scores) - (self.winner is not None)
        totals = list(self.round.scores)
        for scores in reversed(self.round_scores[:done]):
            if _winner(rules, totals) is not None:
                raise ValueError(
                    f"the totals {totals} after an earlier round had a winner, so the match"
                    " would have ended there"
                )
            points = [s.total for s in scores]
            if self._nets():
                points = [p - min(points) for p in points]
            totals = [t - p for t, p in zip(totals, points, strict=True)]
        for total in totals:
            as_score(total, "the match's start", rules.lowest_wins)
        if _winner(rules, totals) is not None:
            raise ValueError(f"the match would have started won, at {totals}")

    def _check_ending(self) -> None:
        """A won match's totals, winner and last round's scores are the ones its last
        round gives: the totals it started from plus its scores (raise ``ValueError``).

        Its last play is scored again on a twin, exactly as :meth:`play` scored it: live
        counting first, then the end of the round if the round is over and nobody won.
        """
        finished = self.round
        twin = Match(self.rules, self.players, self.seed, finished, list(finished.scores))
        if self.rules.live:
            twin._live_winner(leftovers=False)
        if twin.winner is None and finished.is_over:
            twin._score_round(finished)
        if twin.banked != self.banked:
            raise ValueError(
                f"the totals {self.banked} are not the last round's start {finished.scores}"
                f" plus its scores: {twin.banked}"
            )
        if twin.winner != self.winner:
            raise ValueError(f"the totals {self.banked} do not make side {self.winner} the winner")
        extra = len(self.round_scores) - self.rounds_played
        if len(twin.round_scores) - twin.rounds_played != extra:
            when = "as it was played" if extra == 0 else "when its round was counted"
            raise ValueError(
                f"{len(self.round_scores)} round scores for {self.rounds_played} rounds,"
                f" but the last play won the match {when}"
            )
        if self.round_scores[-1:] != twin.round_scores:
            raise ValueError("the last round's saved scores are not the ones its cards give")


def _round_score(data: object, sides: int) -> list[Score]:
    """One finished round's scores, per side, from a saved match."""
    scores = per_seat(as_list(data, "round_scores"), sides, "a round's scores")
    result = []
    for items in scores:
        if not isinstance(items, dict) or not set(items) <= _ITEMS:
            raise ValueError(f"a round's score maps items ({', '.join(sorted(_ITEMS))}) to points")
        result.append(Score({key: _points(key, value) for key, value in items.items()}))
    return result


def _points(key: str, value: object) -> int:
    """A saved item's points: a reward is below zero, every other item above."""
    if key in NEGATIVE_ITEMS:
        if as_score(value, key, True) >= 0:
            raise ValueError(f"{key} is below zero, not {brief(value)}")
        return value
    return as_count(value, key)


def _ace(suit: str) -> Card:
    return Card(1, suit)


def _round_seed(seed: object, number: int, cut: str | None = None) -> str:
    """Round ``number`` (from 0)'s shuffle seed; with the players' ``cut``, that too."""
    return f"{seed}/{number}" if cut is None else f"{seed}/{number}/{cut}"


def live_winner(round_: Round) -> int | None:
    """The side that wins the match in ``round_`` as it stands, by points counted as they
    are taken (rules with ``live``), as :meth:`Match.play` decides it after each move: the
    round's scores before it plus the items taken so far, without the last capture's
    leftovers. None when nothing is decided so (or the rules do not count live)."""
    if not round_.rules.live:
        return None
    return _winner(round_.rules, round_.live_totals(leftovers=False))


def _winner(rules: Rules, totals: Sequence[int]) -> int | None:
    """The side that has won with these totals: the highest once a side reached the target,
    or where points are penalties (Krypkasino) the single lowest once a side reached the
    limit; ``None`` when no side has, or the best total is shared."""
    if not rules.lowest_wins:
        return _leader(totals, rules.target)
    if max(totals) < rules.target:
        return None
    low = min(totals)
    lowest = [side for side, total in enumerate(totals) if total == low]
    return lowest[0] if len(lowest) == 1 else None


def _leader(totals: Sequence[int], target: int, spades: Sequence[int] | None = None) -> int | None:
    """The single side with the highest total once any side reached ``target``.

    With ``spades``, a tie at the top goes to the tied side with most spades.
    """
    best = max(totals)
    if best < target:
        return None
    tied = [side for side, total in enumerate(totals) if total == best]
    if len(tied) == 1:
        return tied[0]
    if spades is not None:
        most = max(spades[side] for side in tied)
        top = [side for side in tied if spades[side] == most]
        if len(top) == 1:
            return top[0]
    return None
