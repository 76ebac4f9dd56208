"""What one seat may know about a round, and sampled worlds consistent with it.

A :class:`SeatView` holds only public facts (the table with its builds and their owners,
every captured pile, sweeps, scores, hand sizes, the size of the deck, Swazi partners'
known values) and the seat's own hand. The computer players read nothing else, so they
cannot cheat: the cards they cannot see (other hands and the undealt deck) are only known
as a pool, and the search fills them in by sampling. In the building games a sampled
world gives each build's owner a card of the build's value, as the rules guarantee.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from bot.engine import Build, Card, Round, Rules


@dataclass(frozen=True)
class SeatView:
    """One seat's knowledge of a round in progress (see the module docstring)."""

    rules: Rules
    players: int
    seat: int
    hand: tuple[Card, ...]
    table: tuple[Card | Build, ...]
    piles: tuple[tuple[Card, ...], ...]
    sweeps: tuple[int, ...]
    void_sweeps: tuple[int, ...]
    mulles: tuple[int, ...]
    mulle_points: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]
    last_capturer: int | None
    scores: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    dealer: int
    to_move: int
    is_last_deal: bool
    deal_plays: tuple[tuple[int, Card, tuple[Card, ...]], ...] = ()
    rewards: tuple[int, ...] = ()  # Krypkasino: per seat, tabbar made by the seat after it

    @classmethod
    def of(cls, round_: Round, seat: int) -> SeatView:
        """The view ``seat`` has of ``round_``."""
        if not isinstance(seat, int) or not 0 <= seat < round_.players:
            raise ValueError(f"seat must be 0..{round_.players - 1}, not {seat!r}")
        return cls(
            rules=round_.rules,
            players=round_.players,
            seat=seat,
            hand=tuple(round_.hands[seat]),
            table=tuple(round_.table),
            piles=tuple(tuple(p) for p in round_.piles),
            sweeps=tuple(round_.sweeps),
            void_sweeps=tuple(round_.void_sweeps),
            mulles=tuple(round_.mulles),
            mulle_points=tuple(round_.mulle_points),
            known=tuple(tuple(k) for k in round_.known),
            last_capturer=round_.last_capturer,
            scores=tuple(round_.scores),
            hand_sizes=tuple(len(h) for h in round_.hands),
            deck_size=len(round_.deck),
            dealer=round_.dealer,
            to_move=round_.to_move,
            is_last_deal=round_.is_last_deal,
            deal_plays=_deal_plays(round_),
            rewards=tuple(round_.rewards),
        )

    @property
    def side(self) -> int:
        """The side (team or player) this seat scores for."""
        return self.rules.side_of(self.seat, self.players)

    @property
    def sides(self) -> int:
        """How many sides score."""
        return self.rules.sides(self.players)

    def side_of(self, seat: int) -> int:
        """The side ``seat`` scores for (Krypkasino's teams depend on the players)."""
        return self.rules.side_of(seat, self.players)

    @property
    def table_cards(self) -> list[Card]:
        """Every card on the table, builds' cards included."""
        return [c for item in self.table for c in cards_of(item)]

    @property
    def builds(self) -> list[Build]:
        """The builds on the table."""
        return [item for item in self.table if isinstance(item, Build)]

    def hidden(self) -> list[Card]:
        """The cards this seat cannot see (other hands and the deck), in card order."""
        pool = Counter(self.rules.deck())
        pool.subtract(self.hand)
        pool.subtract(self.table_cards)
        for pile in self.piles:
            pool.subtract(pile)
        return sorted(pool.elements())

    def unseen_count(self, card: Card) -> int:
        """How many copies of ``card`` are hidden from this seat."""
        seen = self.hand.count(card) + self.table_cards.count(card)
        seen += sum(pile.count(card) for pile in self.piles)
        return self.rules.decks - seen

    def needed(self, seat: int) -> list[int]:
        """Values ``seat`` is known to hold a card of: its builds' values, its known values."""
        owned = {b.value for b in self.builds if b.owner == seat}
        return sorted(owned.union(self.known[seat]) if self.known else owned)

    def position(self) -> Round:
        """One fixed world consistent with this view, for listing this seat's moves.

        The moves of the seat to move depend on its own hand and public facts only (but
        for a Swazi partner's hand, see :func:`bot.ai.choose_move`), so any world will do;
        a fixed one keeps the choice a function of the view.
        """
        return self.sample(random.Random(0))

    def sample(self, rng: random.Random, hidden: list[Card] | None = None) -> Round:
        """A full round consistent with this view, the hidden cards dealt at random."""
        pool = list(self.hidden() if hidden is None else hidden)
        rng.shuffle(pool)
        hands: list[list[Card]] = [[] for _ in self.hand_sizes]
        hands[self.seat] = list(self.hand)
        others = [s for s in range(self.players) if s != self.seat]
        if self.builds:  # owners' cards first, before anyone's random cards
            for seat in others:
                hands[seat] = _guards(self.rules, self.needed(seat)[: self.hand_sizes[seat]], pool)
        for seat in others:
            rest = self.hand_sizes[seat] - len(hands[seat])
            hands[seat] += pool[:rest]
            del pool[:rest]
        # Every world of one view differs only in the hidden cards: when the seat moves
        # (its own hand decides whether it can play, dealing nothing), the first world is
        # checked by the engine and the others are its copies with other hidden cards.
        alike = self.seat == self.to_move and bool(self.hand)
        template = self.__dict__.get("_template") if alike else None
        if template is not None:
            world = template.copy()
            world.hands = hands
            world.deck = pool
            return world
        world = Round.from_position(
            self.rules,
            hands,
            self.table,
            pool,
            dealer=self.dealer,
            to_move=self.to_move,
            piles=self.piles,
            sweeps=self.sweeps,
            last_capturer=self.last_capturer,
            scores=self.scores,
            last_deal=self.is_last_deal,
            known=self.known or None,
            rewards=self.rewards or None,
        )
        world.void_sweeps = list(self.void_sweeps)
        world.mulles = list(self.mulles)
        world.mulle_points = list(self.mulle_points)
        if alike:
            self.__dict__["_template"] = world.copy()  # a frozen view: its cache, beside it
        return world


def _deal_plays(round_: Round) -> tuple[tuple[int, Card, tuple[Card, ...]], ...]:
    """The public plays since the last deal, as (seat, card, cards taken): in the games
    without builds every hand is dealt the same number of cards."""
    if round_.rules.builds:
        return ()
    count = sum(round_.rules.hand_size - len(hand) for hand in round_.hands)
    plays = round_.plays[-count:] if 0 < count <= len(round_.plays) else []
    return tuple((p.seat, p.move.card, tuple(p.move.taken)) for p in plays)


def cards_of(item: Card | Build) -> tuple[Card, ...]:
    """The cards a table item is made of."""
    return item.cards if isinstance(item, Build) else (item,)


def _guards(rules: Rules, values: list[int], pool: list[Card]) -> list[Card]:
    """Take from ``pool`` (shuffled) one card for each of ``values``, first fit first.

    An owner must hold a card of each build value it owns, so every sampled world lets
    the owner play on (a greedy matching: an ace needed for two values is rare enough).
    """
    picked: list[Card] = []
    for value in values:
        for i, card in enumerate(pool):
            if value in rules.hand_values[card]:
                picked.append(pool.pop(i))
                break
    return picked
