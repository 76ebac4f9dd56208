"""The ``hard`` search's quick policy and leaf values for the building games.

The search's worlds here are engine rounds (``Round.copy`` and ``Round.play``): the
building rules (owners, matchings, Swazi pile tops and partners) are too many to copy
into a lean simulator and keep equal, and the engine checks every move, so the search
plays exactly the game. The policy is greedy and cheap: each player takes the capture
worth most (a card's biggest captures of loose cards together with every build of its
value), or trails its least valuable card; a move the engine refuses (an owner must keep
its card) gives way to the next. Rollouts never build: the candidate moves the search
compares do, and the policy takes builds, its own first of all. In Glimne's Mulle the
policy counts the mulle as ``normal`` does (a capture holding the played card's twin
scores that card's hand value): it seeks one, and fears trailing a card whose twin an
opponent holds; without it the search's players left the game's biggest points lying.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Build, Card, IllegalMove, Move, Round

from . import fastcap
from .buildmoves import bounded_capture, building_moves
from .outcome import split
from .values import Marginals, card_worth, majority_points, mulle_worth, objective
from .view import SeatView

# Counted work, in microseconds of the reference machine (see hard.WORK_PER_MS).
COPY_WORK, PLAY_WORK, CARD_WORK, MASK_WORK, LEAF_WORK = 20.0, 60.0, 4.0, 0.3, 40.0
FALLBACK_WORK = 600.0  # listing moves with the engine when no greedy move is legal
BUILD_SHARE = 0.8  # of a build's cards, credited at a leaf to its owner's side
LEAF_SHARE = 0.6  # of the next capture, credited to the side to move
BUILD_GAIN = 0.7  # of a safe build's cards (and the card that will take it), in a rollout


class BuildRollout:
    """The quick greedy policy and the leaf values for one decision's worlds."""

    def __init__(self, view: SeatView, marginals: Marginals) -> None:
        self.rules = view.rules
        self.me = view.side
        self.marginals = marginals
        self.work = 0.0
        # What each card scores by itself, and whether it is a spade, looked up at every
        # leaf for whole capture piles (whole numbers: the sums are the same in any order).
        deck = view.rules.deck()
        self._worth = {card: card_worth(view.rules, card) for card in deck}
        self._spade = {card: int(card.suit == "S") for card in deck}

    # -- the search's world interface -----------------------------------------------------

    def world(self, sample: Round) -> Round:
        """The search's world for a sampled round: the round itself."""
        return sample

    def after(self, world: Round, move: Move) -> Round | None:
        """A copy of ``world`` with ``move`` played (``None`` if it is illegal there)."""
        twin = world.copy()
        self.work += COPY_WORK + PLAY_WORK
        try:
            twin.play(move)
        except IllegalMove:
            return None
        return twin

    def run(self, world: Round, plies: int) -> None:
        """Play ``plies`` greedy moves (fewer if the round ends)."""
        for _ in range(plies):
            if world.is_over:
                return
            self._play_greedy(world)

    # -- the policy -----------------------------------------------------------------------

    def _play_greedy(self, world: Round) -> None:
        for _, move in self.options(world):
            self.work += PLAY_WORK
            try:
                world.play(move)
            except IllegalMove:
                continue
            return
        self.work += FALLBACK_WORK
        world.play(building_moves(world)[0])

    def options(self, world: Round) -> list[tuple[float, Move]]:
        """The mover's captures and trails, best first by a quick count."""
        side = world.side_of(world.to_move)
        value, rules = self.marginals.value, self.rules
        loose, builds = split(world.table)
        numbered = [c for c in loose if rules.table_values[c.rank]]
        worths = [value(side, c) for c in numbered]
        found: list[tuple[float, Move]] = []
        hand = dict.fromkeys(world.hands[world.to_move])
        self.work += CARD_WORK * len(hand)
        threat = self._threat(world)
        twin = rules.mulle_twin
        for card in hand:
            own = value(side, card)
            # Glimne's Mulle: a capture holding the played card's twin scores its hand
            # value on top, so the policy seeks it and a trail fears it (normal does both).
            mulle = mulle_worth(rules, card) if twin else 0
            lost = own * (card.rank in threat) + (mulle + own) * (twin and card in threat)
            found.append((-0.5 * own - lost, Move.trail(card)))
            wanted = rules.hand_values[card]
            if not wanted:
                found.extend(
                    (own + value(side, c), Move(card, [c])) for c in loose if c.rank == card.rank
                )
                continue
            whole = [b for b in builds if b.value in wanted]
            extra = sum(self.build_worth(b, side) for b in whole)
            paired = bool(mulle) and any(card in b.cards for b in whole)
            if whole:
                found.append((own + extra + mulle * paired, Move(card, whole)))
            if numbered:
                masks = fastcap.masks(rules, card, numbered)
                self.work += MASK_WORK * len(masks)
                if masks:
                    seek = bool(mulle) and not paired and card in numbered
                    at = numbered.index(card) if seek else 0
                    bonus = mulle if seek else 0.0
                    mask = max(
                        masks, key=lambda m: _picked_worth(worths, m) + bonus * (m >> at & 1)
                    )
                    taken = [c for i, c in enumerate(numbered) if mask >> i & 1]
                    taken = bounded_capture(rules, card, taken)
                    gain = own + extra + sum(value(side, c) for c in taken)
                    if paired or (mulle and card in taken):
                        gain += mulle
                    found.append((gain, Move(card, [*taken, *whole])))
        found.extend(self._builds(world, side, loose, builds, threat))
        found.sort(key=lambda item: -item[0])
        return found

    def _threat(self, world: Round) -> dict[int | Card, bool]:
        """Ranks and values the mover's opponents hold (what they could take or pair), and
        in Glimne's Mulle the cards themselves."""
        side = world.side_of(world.to_move)
        twin = self.rules.mulle_twin
        held: dict[int | Card, bool] = {}
        for seat, hand in enumerate(world.hands):
            if world.side_of(seat) != side:
                for card in hand:
                    held[card.rank] = True
                    if twin:
                        held[card] = True  # the card itself: its twin on the table is a mulle
                    for v in self.rules.hand_values[card]:
                        held[-v] = True  # values as negative keys, ranks as positive
        return held

    def _builds(
        self,
        world: Round,
        side: int,
        loose: list[Card],
        builds: list[Build],
        threat: dict[int | Card, bool],
    ) -> list[tuple[float, Move]]:
        """Builds of one card on one loose card, for a value the mover keeps in hand; worth
        their cards if no opponent holds the value (the rollout sees every hand)."""
        rules, value = self.rules, self.marginals.value
        hand = world.hands[world.to_move]
        found = []
        for card in dict.fromkeys(hand):
            own = rules.table_values[card.rank]
            if not own:
                continue
            keep = {v: c for c in hand if c is not card for v in rules.hand_values[c]}
            for target in loose:
                numbers = rules.table_values[target.rank]
                if not numbers:
                    continue
                total = own[0] + numbers[0]
                catcher = keep.get(total)
                if catcher is None or -total in threat:
                    continue
                same = [b for b in builds if b.value == total]
                worth = value(side, card) + value(side, target) + value(side, catcher)
                worth += sum(self.build_worth(b, side) for b in same)
                move = Move.build(card, [target, *same], total)
                found.append((BUILD_GAIN * worth, move))
        return found

    def build_worth(self, build: Build, side: int) -> float:
        """What the cards of ``build`` are worth to ``side``."""
        return sum(self.marginals.value(side, c) for c in build.cards)

    # -- leaves ---------------------------------------------------------------------------

    def leaf(self, world: Round) -> float:
        """The position's value for the searching side, in expected points."""
        self.work += LEAF_WORK
        if world.is_over:
            return objective([s.total for s in world.score()], self.me)
        rules = self.rules
        piles = world.side_piles()
        worth, spade = self._worth.__getitem__, self._spade.__getitem__
        points = [sum(map(worth, pile)) for pile in piles]
        for seat, made in enumerate(world.mulle_points):
            points[world.side_of(seat)] += made
        if rules.sweeps:
            for seat, (swept, void) in enumerate(zip(world.sweeps, world.void_sweeps, strict=True)):
                points[world.side_of(seat)] += swept - void
        spades = [sum(map(spade, pile)) for pile in piles]
        cards = [len(pile) for pile in piles]
        majors = majority_points(rules, spades, cards)
        values = [p + m for p, m in zip(points, majors, strict=True)]
        for item in world.table:
            if isinstance(item, Build):
                side = world.side_of(item.owner)
                values[side] += BUILD_SHARE * self.build_worth(item, side)
        value = objective(values, self.me)
        best = self.options(world)[0]
        if best[1].taken:
            share = LEAF_SHARE if len(values) == 2 else LEAF_SHARE * 0.6
            mover = world.side_of(world.to_move)
            value += share * best[0] if mover == self.me else -share * best[0]
        return value


def _picked_worth(worths: Sequence[float], mask: int) -> float:
    return sum(w for i, w in enumerate(worths) if mask >> i & 1)
