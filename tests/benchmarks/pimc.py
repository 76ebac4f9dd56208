"""An independent baseline player: determinized search ("perfect-information Monte Carlo").

For the Nordic games without building (Swedish, Finnish; 2 players, or 4 in teams). It
shares no code with ``bot/ai``: only :mod:`bot.engine` is used. ``choose(round, seat, rng,
worlds)`` reads from the round only what the seat can know (its hand, the table, every
capture pile, sweeps, scores, hand sizes, deck size), deals the unseen cards at random
into the other hands and the deck ``worlds`` times, and plays each candidate move in each
world followed by a greedy rollout to the end of the current deal. A position is valued
as the side's points so far this round minus the opponents', plus the expected value of
the majorities (most cards, most spades). Once the deck is empty a 2-player round is
solved exactly with alpha-beta (the unseen cards are then the opponent's hand); with 4
players each sampled world is solved exactly when at most 8 cards are left in hands.

``python tests/benchmarks/pimc.py --selftest`` checks the lean simulator against the
engine on random games.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.engine import Card, Move, Round, Rules, capture_masks, capture_options, rules_for
from bot.engine.cards import LILLAN, STORAN
from bot.engine.match import _leader  # the engine's own rule for who has won

DEFAULT_WORLDS = 1070  # calibrated: median ms per decision about hard's (Swedish, 2 players)
TEAMS_WORLDS = 250  # 4 players in teams: exact endgames per world cost more (hard's median)
CANDIDATES = 8  # the best captures and trails kept for the search, plus the best trail
EXACT_CARDS = 8  # 4 players, empty deck: solve a world exactly from this many cards in hands
WIN = 50.0  # a won match, in round points
CARD_WORTH = 0.07  # rough worth of one captured card towards most cards
SPADE_WORTH = 0.2  # and of one spade towards most spades
SPREAD = 1.6  # variance of the majorities' final margin per remaining card


class Ctx:
    """What the simulator needs from the rules, looked up once."""

    def __init__(self, rules: Rules, players: int) -> None:
        if rules.builds:
            raise ValueError("the baseline plays the Nordic games without building")
        self.rules = rules
        self.players = players
        self.sides = rules.sides(players)
        self.side = [rules.side_of(seat) for seat in range(players)]
        self.points = {
            card: (card.rank == 1) * rules.ace_points
            + (card == STORAN) * rules.storan_points
            + (card == LILLAN) * rules.lillan_points
            for card in rules.deck()
        }
        self.total_cards = rules.cards_in_deck
        self.total_spades = sum(c.suit == "S" for c in rules.deck())


def _masks(ctx: Ctx, card: Card, table: list[Card]) -> tuple[int, ...]:
    """Capture masks over ``table`` positions (maximal ones only on tables over 12 cards)."""
    if not table:
        return ()
    if len(table) <= 12:
        return capture_masks(ctx.rules, card, table)
    masks = []
    for taken in capture_options(ctx.rules, card, table, limit=4, effort=2000):
        mask, used = 0, Counter(taken)
        for i, c in enumerate(table):
            if used[c]:
                used[c] -= 1
                mask |= 1 << i
        masks.append(mask)
    return tuple(masks)


class Sim:
    """A lean Nordic round: lists of cards, per-side counts, a cheap clone."""

    __slots__ = (
        "ctx",
        "dealer",
        "deck",
        "hands",
        "last",
        "last_deal",
        "mulle",
        "ncards",
        "nspades",
        "over",
        "pts",
        "scores",
        "sweeps",
        "table",
        "to_move",
        "winner",
    )

    def clone(self) -> Sim:
        twin = Sim.__new__(Sim)
        twin.ctx = self.ctx
        twin.dealer = self.dealer
        twin.deck = self.deck
        twin.hands = [list(h) for h in self.hands]
        twin.table = list(self.table)
        twin.ncards = list(self.ncards)
        twin.nspades = list(self.nspades)
        twin.pts = list(self.pts)
        twin.sweeps = list(self.sweeps)
        twin.mulle = list(self.mulle)
        twin.scores = self.scores
        twin.last = self.last
        twin.last_deal = self.last_deal
        twin.over = self.over
        twin.winner = self.winner
        twin.to_move = self.to_move
        return twin

    @classmethod
    def from_view(cls, round: Round, hands: list[list[Card]], deck: list[Card]) -> Sim:
        """The round's public state with these hands and deck (a sampled world)."""
        ctx = _ctx(round.rules, round.players)
        self = cls.__new__(cls)
        self.ctx = ctx
        self.dealer = round.dealer
        self.hands = [list(h) for h in hands]
        self.deck = list(deck)
        self.table = list(round.table)
        n = ctx.sides
        self.ncards, self.nspades, self.pts = [0] * n, [0] * n, [0] * n
        self.sweeps, self.mulle = [0] * n, [0] * n
        for seat in range(round.players):
            side = ctx.side[seat]
            pile = round.piles[seat]
            self.ncards[side] += len(pile)
            self.nspades[side] += sum(c.suit == "S" for c in pile)
            self.pts[side] += sum(ctx.points[c] for c in pile)
            self.sweeps[side] += round.sweeps[seat] - round.void_sweeps[seat]
            self.mulle[side] += round.mulle_points[seat]
        self.scores = list(round.scores)
        self.last = round.last_capturer
        self.last_deal = round.is_last_deal
        self.over = round.is_over
        self.winner = None
        self.to_move = round.to_move
        return self

    # -- rules ------------------------------------------------------------------------

    def live_totals(self) -> list[int]:
        rules = self.ctx.rules
        low = min(self.sweeps) if rules.sweep_limits else 0
        sweeps = rules.sweeps
        return [
            s + p + m + ((w - low) if sweeps else 0)
            for s, p, m, w in zip(self.scores, self.pts, self.mulle, self.sweeps, strict=True)
        ]

    def moves(self) -> list[tuple[Card, int]]:
        """The player to move's moves: ``(card, mask)``, mask 0 a trail."""
        out = []
        table = self.table
        for card in dict.fromkeys(self.hands[self.to_move]):
            out.append((card, 0))
            for mask in _masks(self.ctx, card, table):
                out.append((card, mask))
        return out

    def play(self, card: Card, mask: int, deal: bool = True) -> None:
        """Play a move; with ``deal`` off, stop at empty hands instead of dealing."""
        ctx = self.ctx
        rules = ctx.rules
        seat = self.to_move
        self.hands[seat].remove(card)
        if not mask:
            self.table.append(card)
        else:
            table = self.table
            side = ctx.side[seat]
            taken = [c for i, c in enumerate(table) if mask >> i & 1]
            sweep = len(taken) == len(table)
            if sweep:
                void = rules.sweep_limits and (self.last_deal or max(self.live_totals()) >= 10)
                if not void:
                    self.sweeps[side] += 1
                self.table = []
            else:
                self.table = [c for i, c in enumerate(table) if not mask >> i & 1]
            points = ctx.points
            self.ncards[side] += 1 + len(taken)
            self.nspades[side] += (card.suit == "S") + sum(c.suit == "S" for c in taken)
            self.pts[side] += points[card] + sum(points[c] for c in taken)
            if rules.mulle_points and len(taken) == 1 and taken[0] == card:
                self.mulle[side] += rules.mulle_points
            self.last = seat
            if rules.live:
                self.winner = _leader(self.live_totals(), rules.target)
                if self.winner is not None:
                    self.over = True
                    return
        self.to_move = (seat + 1) % ctx.players
        self._settle(deal)

    def _settle(self, deal: bool) -> None:
        hands = self.hands
        if not any(hands):
            if self.deck:
                if not deal:
                    return
                self._deal()
            else:
                self._finish()
                return
        players = self.ctx.players
        for step in range(players):
            seat = (self.to_move + step) % players
            if hands[seat]:
                self.to_move = seat
                return

    def _deal(self) -> None:
        """A later deal, in pairs (or singly) from the dealer's left (the selftest's)."""
        rules = self.ctx.rules
        hand = rules.sizes_for(self.ctx.players)[0]
        packet = 2 if rules.deal == "pairs" else 1
        order = [(self.dealer + 1 + i) % self.ctx.players for i in range(self.ctx.players)]
        for _ in range(hand // packet):
            for seat in order:
                self.hands[seat].extend(self.deck[:packet])
                self.deck = self.deck[packet:]
        self.last_deal = not self.deck

    def _finish(self) -> None:
        self.over = True
        if self.last is not None and self.table:
            side = self.ctx.side[self.last]
            points = self.ctx.points
            self.ncards[side] += len(self.table)
            self.nspades[side] += sum(c.suit == "S" for c in self.table)
            self.pts[side] += sum(points[c] for c in self.table)
            self.table = []
        if self.winner is None:
            self.winner = self._round_winner()

    def end_items(self) -> list[list[int]]:
        """Per side ``[spades, cards, sistan]`` once the round is over."""
        rules = self.ctx.rules
        spades = _spade_points(rules, self.nspades)
        cards = _most(self.ncards, rules.cards_points)
        sistan = None if self.last is None else self.ctx.side[self.last]
        return [
            [spades[s], cards[s], rules.sistan_points if s == sistan else 0]
            for s in range(self.ctx.sides)
        ]

    def round_points(self) -> list[int]:
        """Per side, the round's points (the round over)."""
        live = self.live_totals()
        return [
            lv - s + sum(e) for lv, s, e in zip(live, self.scores, self.end_items(), strict=True)
        ]

    def _round_winner(self) -> int | None:
        """The match's winner when the round ends, as :class:`Match` decides it."""
        rules = self.ctx.rules
        end = self.end_items()
        if rules.live:
            banked = self.live_totals()
            winner = _leader(banked, rules.target)
            for item in range(3):
                if winner is not None:
                    return winner
                banked = [b + e[item] for b, e in zip(banked, end, strict=True)]
                winner = _leader(banked, rules.target)
        else:
            banked = [s + p for s, p in zip(self.scores, self.round_points(), strict=True)]
            winner = _leader(banked, rules.target)
        if winner is None and rules.tiebreak == "spades":
            winner = _leader(banked, rules.target, self.nspades)
        return winner

    # -- values -----------------------------------------------------------------------

    def value(self, me: int) -> float:
        """The position for side ``me``: round points won minus the opponents', majorities
        expected, a decided match a large constant."""
        ctx = self.ctx
        if self.winner is not None:
            diff = self._diff(me, self.round_points())
            return (WIN if self.winner == me else -WIN) + 0.01 * diff
        if self.over:
            return self._diff(me, self.round_points())
        live = [t - s for t, s in zip(self.live_totals(), self.scores, strict=True)]
        value = self._diff(me, live)
        rules = ctx.rules
        if ctx.sides == 2:
            other = 1 - me
            left = ctx.total_cards - sum(self.ncards)
            value += rules.cards_points * _edge(self.ncards[me] - self.ncards[other], left)
            if rules.spades in ("most", "most-split"):
                left = ctx.total_spades - sum(self.nspades)
                margin = self.nspades[me] - self.nspades[other]
                value += rules.spades_points * _edge(margin, left)
        return value

    def _diff(self, me: int, per_side: list[int]) -> float:
        mine = per_side[me]
        if len(per_side) == 2:
            return mine - per_side[1 - me]
        others = [p for s, p in enumerate(per_side) if s != me]
        return mine - sum(others) / len(others)


_CTX: dict[tuple[Rules, int], Ctx] = {}


def _ctx(rules: Rules, players: int) -> Ctx:
    ctx = _CTX.get((rules, players))
    if ctx is None:
        ctx = _CTX[rules, players] = Ctx(rules, players)
    return ctx


def _edge(margin: int, left: int) -> float:
    """P(win) - P(lose) of a majority with this margin when ``left`` items are still free."""
    if left <= 0:
        return float((margin > 0) - (margin < 0))
    sd = math.sqrt(SPREAD * left)
    win = 0.5 * math.erfc(-(margin - 0.5) / (sd * math.sqrt(2)))
    lose = 0.5 * math.erfc((margin + 0.5) / (sd * math.sqrt(2)))
    return win - lose


def _most(counts: list[int], points: int) -> list[int]:
    best = max(counts)
    winners = [i for i, c in enumerate(counts) if c == best]
    return [points if winners == [i] else 0 for i in range(len(counts))]


def _spade_points(rules: Rules, spades: list[int]) -> list[int]:
    if rules.spades == "over-six":
        return [max(0, n - 6) * rules.spades_points for n in spades]
    if rules.spades == "most-split" and len(spades) >= 3:
        best = max(spades)
        tied = [i for i, n in enumerate(spades) if n == best]
        if len(tied) == 2:
            return [rules.spades_points // 2 if i in tied else 0 for i in range(len(spades))]
    if rules.spades not in ("most", "most-split"):
        raise ValueError(f"the baseline does not score spades {rules.spades!r}")
    return _most(spades, rules.spades_points)


# -- greedy ---------------------------------------------------------------------------


def _gain(sim: Sim, card: Card, mask: int) -> float:
    """What a move takes at once: points, a sweep, a little for cards and spades."""
    if not mask:
        return -0.3 * sim.ctx.points[card] - 0.05 * (card.suit == "S")
    points = sim.ctx.points
    taken = [c for i, c in enumerate(sim.table) if mask >> i & 1]
    taken.append(card)
    gain = sum(points[c] for c in taken) + CARD_WORTH * len(taken)
    gain += SPADE_WORTH * sum(c.suit == "S" for c in taken)
    if len(taken) == len(sim.table) + 1:
        gain += 1.0
    return gain


def _table_worth(ctx: Ctx, table: list[Card]) -> float:
    points = ctx.points
    return sum(points[c] + CARD_WORTH + SPADE_WORTH * (c.suit == "S") for c in table)


def _sweepable(ctx: Ctx, cards: list[Card], table: list[Card]) -> bool:
    """Whether one of ``cards`` takes the whole ``table``."""
    full = (1 << len(table)) - 1
    for card in cards:
        masks = _masks(ctx, card, table)
        if masks and masks[0] == full:
            return True
    return False


def _after(table: list[Card], card: Card, mask: int) -> list[Card]:
    if not mask:
        return [*table, card]
    return [c for i, c in enumerate(table) if not mask >> i & 1]


def _next_opponent(sim: Sim, seat: int) -> int | None:
    """The next seat to play after ``seat`` if it is an opponent, else ``None``."""
    ctx = sim.ctx
    for step in range(1, ctx.players):
        other = (seat + step) % ctx.players
        if sim.hands[other]:
            return other if ctx.side[other] != ctx.side[seat] else None
    return None


def _greedy_scores(sim: Sim, moves: list[tuple[Card, int]]) -> list[float]:
    """Each move's quick score in a world the mover sees whole."""
    ctx = sim.ctx
    seat = sim.to_move
    opponent = _next_opponent(sim, seat)
    if opponent is None:
        # Nobody else to play this deal (or the partner is next): a one-ply gain.
        return [_gain(sim, card, mask) for card, mask in moves]
    hand = sim.hands[opponent]
    scores = []
    for card, mask in moves:
        score = _gain(sim, card, mask)
        rest = _after(sim.table, card, mask)
        if rest and _sweepable(ctx, hand, rest):
            score -= 1.0 + _table_worth(ctx, rest)
        scores.append(score)
    return scores


def _greedy_move(sim: Sim) -> tuple[Card, int]:
    moves = sim.moves()
    if len(moves) == 1:
        return moves[0]
    scores = _greedy_scores(sim, moves)
    best = max(range(len(moves)), key=scores.__getitem__)
    return moves[best]


def rollout(sim: Sim) -> None:
    """Every seat greedy until the deal's hands are empty (or the round is over)."""
    while not sim.over and sim.hands[sim.to_move]:
        card, mask = _greedy_move(sim)
        sim.play(card, mask, deal=False)


# -- exact endgame --------------------------------------------------------------------


class Solver:
    """Alpha-beta over a world with every card known, to the end of the round."""

    def __init__(self, me: int) -> None:
        self.me = me
        self.table: dict[tuple, tuple[int, float]] = {}

    def key(self, sim: Sim) -> tuple:
        return (
            tuple(tuple(sorted(h)) for h in sim.hands),
            tuple(sorted(sim.table)),
            sim.to_move,
            None if sim.last is None else sim.ctx.side[sim.last],
            tuple(sim.ncards),
            tuple(sim.nspades),
            tuple(sim.pts),
            tuple(sim.sweeps),
        )

    def ordered(self, sim: Sim) -> list[tuple[Card, int]]:
        moves = sim.moves()
        if len(moves) > 1:
            scores = _greedy_scores(sim, moves)
            order = sorted(range(len(moves)), key=lambda i: -scores[i])
            moves = [moves[i] for i in order]
        return moves

    def search(self, sim: Sim, alpha: float, beta: float) -> float:
        if sim.over:
            return sim.value(self.me)
        key = self.key(sim)
        hit = self.table.get(key)
        if hit is not None:
            flag, value = hit
            if flag == 0 or (flag > 0 and value >= beta) or (flag < 0 and value <= alpha):
                return value
        start = alpha
        maximizing = sim.ctx.side[sim.to_move] == self.me
        best = -math.inf if maximizing else math.inf
        for card, mask in self.ordered(sim):
            child = sim.clone()
            child.play(card, mask)
            value = self.search(child, alpha, beta)
            if maximizing:
                if value > best:
                    best = value
                alpha = max(alpha, best)
            else:
                if value < best:
                    best = value
                beta = min(beta, best)
            if alpha >= beta:
                break
        if best <= start:
            flag = -1  # an upper bound
        elif best >= beta:
            flag = 1  # a lower bound
        else:
            flag = 0
        self.table[key] = (flag, best)
        return best

    def root(self, sim: Sim, moves: list[tuple[Card, int]]) -> list[float]:
        """Exact values of the root moves (each searched with a full window)."""
        values = []
        for card, mask in moves:
            child = sim.clone()
            child.play(card, mask)
            values.append(self.search(child, -math.inf, math.inf))
        return values


# -- choosing -------------------------------------------------------------------------


def hidden_cards(round: Round, seat: int) -> list[Card]:
    """The cards ``seat`` cannot see: the deck minus its hand, the table and every pile."""
    seen = Counter(round.hands[seat])
    seen.update(round.table)
    for pile in round.piles:
        seen.update(pile)
    hidden = Counter(round.rules.deck()) - seen
    return sorted(hidden.elements())


def _world(round: Round, seat: int, hidden: list[Card], rng: random.Random) -> Sim:
    cards = list(hidden)
    rng.shuffle(cards)
    hands = []
    at = 0
    for other in range(round.players):
        if other == seat:
            hands.append(list(round.hands[seat]))
        else:
            size = len(round.hands[other])
            hands.append(cards[at : at + size])
            at += size
    deck = cards[at:]
    if len(deck) != len(round.deck):
        raise AssertionError("the hidden cards do not fill the other hands and the deck")
    return Sim.from_view(round, hands, deck)


def _root_scores(round: Round, seat: int, moves: list[tuple[Card, int]], hidden: list[Card]):
    """Quick scores at the root, sweep risk judged on the unseen cards."""
    ctx = _ctx(round.rules, round.players)
    sim = Sim.from_view(round, [[] for _ in range(round.players)], [])
    nxt = (seat + 1) % round.players
    size = len(round.hands[nxt])
    pool = sorted(set(hidden))
    scores = []
    for card, mask in moves:
        score = _gain(sim, card, mask)
        rest = _after(sim.table, card, mask)
        if rest and size and pool and ctx.side[nxt] != ctx.side[seat]:
            sweepers = sum(_sweepable(ctx, [c], rest) for c in pool)
            if sweepers:
                chance = 1 - (1 - sweepers / len(pool)) ** size
                score -= chance * (1.0 + _table_worth(ctx, rest))
        scores.append(score)
    return scores


def _to_move(round: Round, card: Card, mask: int) -> Move:
    if not mask:
        return Move(card)
    return Move(card, [c for i, c in enumerate(round.table) if mask >> i & 1])


def choose(round: Round, seat: int, rng: random.Random, worlds: int = DEFAULT_WORLDS) -> Move:
    """The baseline's move for ``seat`` (to move), from what that seat can see."""
    if round.is_over or seat != round.to_move:
        raise ValueError("the seat is not to move")
    ctx = _ctx(round.rules, round.players)
    me = ctx.side[seat]
    hand = round.hands[seat]
    moves = [(card, 0) for card in dict.fromkeys(hand)]
    moves += [(card, m) for card in dict.fromkeys(hand) for m in _masks(ctx, card, round.table)]
    if len(moves) == 1:
        return _to_move(round, *moves[0])
    hidden = hidden_cards(round, seat)
    scores = _root_scores(round, seat, moves, hidden)
    order = sorted(range(len(moves)), key=lambda i: (-scores[i], str(moves[i][0]), moves[i][1]))
    moves = [moves[i] for i in order]
    if not round.deck and round.players == 2:
        # The unseen cards are exactly the opponent's hand: solve the rest exactly.
        sim = _world(round, seat, hidden, rng)
        values = Solver(me).root(sim, moves)
        best = max(range(len(moves)), key=lambda i: (values[i], -i))
        return _to_move(round, *moves[best])
    candidates = moves[:CANDIDATES]
    trails = [m for m in moves if not m[1]]
    if trails and trails[0] not in candidates:
        candidates.append(trails[0])
    totals = [0.0] * len(candidates)
    exact = not round.deck and sum(len(h) for h in round.hands) <= EXACT_CARDS
    for _ in range(max(1, worlds)):
        world = _world(round, seat, hidden, rng)
        if exact:
            for i, value in enumerate(Solver(me).root(world, candidates)):
                totals[i] += value
            continue
        for i, (card, mask) in enumerate(candidates):
            sim = world.clone()
            sim.play(card, mask, deal=False)
            rollout(sim)
            totals[i] += sim.value(me)
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return _to_move(round, *candidates[best])


# -- self-test ------------------------------------------------------------------------


def _engine_winner(round: Round, totals: list[int]) -> int | None:
    """Who wins the match at this round's end, from the engine's figures (as Match does)."""
    rules = round.rules
    if rules.live:
        banked = round.live_totals()
        winner = _leader(banked, rules.target)
        end = round.end_items()
        for item in ("spades", "cards", "sistan"):
            if winner is not None:
                return winner
            banked = [b + e[item] for b, e in zip(banked, end, strict=True)]
            winner = _leader(banked, rules.target)
    else:
        banked = [s + p for s, p in zip(round.scores, totals, strict=True)]
        winner = _leader(banked, rules.target)
    if winner is None and rules.tiebreak == "spades":
        winner = _leader(banked, rules.target, round.spades_taken())
    return winner


def selftest(rounds: int = 300, seed: int = 1) -> None:
    """Random moves in the engine and the simulator side by side: same state and scores."""
    rng = random.Random(seed)
    settings = [
        (rules_for("swedish"), 2),
        (rules_for("finnish"), 2),
        (rules_for("swedish", teams=True), 4),
        (rules_for("finnish", teams=True), 4),
        (rules_for("swedish", live=True), 2),
        (rules_for("swedish"), 3),
    ]
    checked = 0
    for number in range(rounds):
        rules, players = settings[number % len(settings)]
        scores = [rng.choice((0, 5, 9, 12, 14)) for _ in range(rules.sides(players))]
        round = Round.deal(rules, players, dealer=number % players, seed=number, scores=scores)
        sim = Sim.from_view(round, round.hands, round.deck)
        while not round.is_over:
            assert sim.to_move == round.to_move and sim.hands == round.hands
            assert sorted(sim.table) == sorted(round.table)
            engine_moves = {(m.card, tuple(sorted(m.taken))) for m in round.legal_moves()}
            mine = {
                (c, tuple(sorted(x for i, x in enumerate(sim.table) if mask >> i & 1)))
                for c, mask in sim.moves()
            }
            assert engine_moves == mine, (engine_moves ^ mine, round.table)
            card, mask = rng.choice(sim.moves())
            if rng.random() < 0.6:  # prefer captures so sweeps and scores happen
                captures = [m for m in sim.moves() if m[1]]
                if captures:
                    card, mask = rng.choice(captures)
            move = Move(card, [x for i, x in enumerate(sim.table) if mask >> i & 1])
            round.play(move)
            sim.play(card, mask)
            checked += 1
            if rules.live:
                # Counting as you go: a side reaching the target wins at once.
                mid = _leader(round.live_totals(leftovers=False), rules.target)
                if mid is not None:
                    assert sim.over and sim.winner == mid
                    break
            assert sim.over == round.is_over
            if not round.is_over:
                assert sim.live_totals() == round.live_totals()
        else:
            engine = [s.total for s in round.score()]
            assert sim.round_points() == engine, (sim.round_points(), engine)
            assert sim.ncards == [len(p) for p in round.side_piles()]
            assert sim.winner == _engine_winner(round, engine)
    print(f"selftest: {rounds} rounds, {checked} moves agree with the engine")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--selftest", action="store_true", help="check the simulator")
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    if args.selftest:
        selftest(args.rounds)
        check_no_peeking()
    else:
        parser.print_help()


def check_no_peeking(positions: int = 40) -> None:
    """The move is the same when the cards the seat cannot see are dealt differently."""
    rng = random.Random(7)
    for number in range(positions):
        rules, players = (
            (rules_for("swedish"), 2),
            (rules_for("finnish"), 2),
            (rules_for("swedish", teams=True), 4),
        )[number % 3]
        round = Round.deal(rules, players, seed=f"peek/{number}")
        for _ in range(rng.randrange(0, 30)):
            if round.is_over:
                break
            round.play(rng.choice(round.legal_moves()))
        if round.is_over:
            continue
        seat = round.to_move
        first = choose(round, seat, random.Random(number), worlds=4)
        # Deal the unseen cards again: other hands and deck shuffled together.
        twin = round.copy()
        unseen = [c for s in range(players) if s != seat for c in twin.hands[s]] + twin.deck
        rng.shuffle(unseen)
        at = 0
        for s in range(players):
            if s != seat:
                size = len(twin.hands[s])
                twin.hands[s] = unseen[at : at + size]
                at += size
        twin.deck = unseen[at:]
        second = choose(twin, seat, random.Random(number), worlds=4)
        assert first == second, (first, second)
    print(f"no peeking: {positions} positions give the same move with the unseen cards re-dealt")


if __name__ == "__main__":
    main()
