"""A lazy view of the legal moves, in the spirit of python-chess's ``LegalMoveGenerator``.

``Round.legal_moves()`` lists every move; on a busy table that is tens of thousands of
building turns, or over a million Nordic captures. :class:`LegalMoves` (``Round.moves``)
answers what a menu, a hint or a random player asks without listing the rest:

- ``for move in rnd.moves`` yields the moves in the order of ``legal_moves()``;
- ``rnd.moves.count()``, ``rnd.moves.any()`` / ``bool(rnd.moves)``, ``move in rnd.moves``
  (the engine's check: no list is made), ``rnd.moves.pick(i)`` (the ``i``-th move);
- per hand card, :meth:`LegalMoves.of` gives a :class:`CardMoves`: its moves (optionally of
  one kind), their count, and :meth:`CardMoves.has` asking whether a kind exists
  (``"capture"``, ``"build"``, ``"trail"``: any trail, with table builds or not;
  ``"table-build"``: a trail making builds from table cards; ``"plain"``: the lone trail).

The view follows the round: a move played makes it read the new position. A building
game answers ``has`` by its family's own existence search (the first legal move found
ends it), and lists one card's moves at a time; a Nordic game counts and expands a big
table's captures from their rank vectors, one capture at a time.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice
from math import comb, prod
from typing import TYPE_CHECKING

from .captures import _SMALL_TABLE, TableIndex, _by_rank, _count, _expand, _legal_vectors, _vector
from .cards import Card
from .moves import Move

if TYPE_CHECKING:
    from .round import Round

KINDS = ("capture", "build", "trail", "table-build", "plain")


def of_kind(move: Move, kind: str | None) -> bool:
    """Whether ``move`` is of ``kind`` (see :data:`KINDS`; ``None``: any)."""
    if kind is None:
        return True
    if kind == "table-build":
        return bool(move.table_builds)
    if kind == "plain":
        return move.is_trail and not move.table_builds
    return move.kind == kind


def _check_kind(kind: str | None) -> None:
    if kind is not None and kind not in KINDS:
        raise ValueError(f"a kind of move is one of {', '.join(KINDS)}, not {kind!r}")


class CardMoves:
    """The legal moves of one hand card, listed only when iterated or counted."""

    def __init__(self, view: LegalMoves, card: Card) -> None:
        self._view = view
        self.card = card

    def __iter__(self) -> Iterator[Move]:
        return self._view._card_iter(self.card, None)

    def moves(self, kind: str | None = None) -> Iterator[Move]:
        """The card's moves of ``kind`` (``None``: all), in the order of ``legal_moves()``."""
        _check_kind(kind)
        return self._view._card_iter(self.card, kind)

    def has(self, kind: str | None = None) -> bool:
        """Whether the card has a legal move of ``kind`` (``None``: any)."""
        _check_kind(kind)
        return self._view._card_has(self.card, kind)

    def any(self) -> bool:
        """Whether the card can be played at all."""
        return self.has()

    def __bool__(self) -> bool:
        return self.has()

    def count(self, kind: str | None = None) -> int:
        """How many legal moves of ``kind`` (``None``: all) the card has."""
        _check_kind(kind)
        if kind is None:
            return self._view._card_count(self.card)
        return sum(1 for _ in self._view._card_iter(self.card, kind))

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and move.card == self.card and move in self._view

    def __repr__(self) -> str:
        return f"<CardMoves {self.card}>"


class LegalMoves:
    """The legal moves of the player to move, lazily (see the module's docstring)."""

    def __init__(self, rnd: Round) -> None:
        self._round = rnd
        self._stamp: tuple | None = None
        self._nordic: _NordicCaptures | None = None
        self._counts: list[tuple[Card, int]] | None = None  # per card, for count and pick
        self._listed: list[Move] | None = None  # a building game's moves, once counted
        self._forced: dict[Card, Sequence[tuple[Card, ...]]] = {}  # Krypkasino's, per card

    # -- keeping up with the round -----------------------------------------------------

    def _fresh(self) -> Round:
        """The round, with what was read of an older position forgotten."""
        rnd = self._round
        stamp = (len(rnd.plays), rnd.to_move, rnd.is_over, len(rnd.hands[rnd.to_move]))
        if stamp != self._stamp:
            self._stamp = stamp
            self._nordic = self._counts = self._listed = None
            self._forced = {}
        return rnd

    def cards(self) -> list[Card]:
        """The distinct cards of the hand to move, in hand order (as ``legal_moves()``)."""
        rnd = self._fresh()
        if rnd.is_over:
            return []
        return list(dict.fromkeys(rnd.hands[rnd.to_move]))

    # -- the whole view ----------------------------------------------------------------

    def __iter__(self) -> Iterator[Move]:
        for card in self.cards():
            yield from self._card_iter(card, None)

    def _counted(self) -> list[tuple[Card, int]]:
        """(card, how many moves it has) for each distinct card of a Nordic hand, in hand
        order (captures counted without making them). A building game lists its moves
        instead (kept for :meth:`pick`; their number never explodes) and has no counts."""
        rnd = self._fresh()
        found = self._counts
        if found is None:
            if rnd.is_over:
                found = []
            elif rnd._family is not None:
                found = rnd._family.counts(rnd)  # a plain position's, without moves
                if found is None:
                    self._listed = rnd._family.legal_moves(rnd)
                    found = []  # counted and picked from the list
            elif rnd.rules.forced_capture:
                hand = dict.fromkeys(rnd.hands[rnd.to_move])
                found = [(card, len(self._forced_of(card)) or 1) for card in hand]
            else:
                captures = self._captures()
                hand = dict.fromkeys(rnd.hands[rnd.to_move])
                found = [(card, 1 + captures.count(card)) for card in hand]
            self._counts = found
        return found

    def count(self) -> int:
        """``len(rnd.legal_moves())``, without the list where it can be avoided."""
        counts = self._counted()
        listed = self._listed
        return len(listed) if listed is not None else sum(n for _, n in counts)

    def __len__(self) -> int:
        return self.count()

    def any(self) -> bool:
        """Whether the player to move has any legal move."""
        return any(self._card_has(card, None) for card in self.cards())

    def __bool__(self) -> bool:
        return self.any()

    def __contains__(self, move: object) -> bool:
        """``rnd.is_legal(move)``: the move is checked on its own items."""
        return isinstance(move, Move) and self._round.is_legal(move)

    def of(self, card: Card) -> CardMoves:
        """The moves of one hand card (none for a card not in the hand)."""
        return CardMoves(self, card)

    def by_card(self) -> dict[Card, CardMoves]:
        """Each distinct card of the hand with its moves, in hand order."""
        return {card: CardMoves(self, card) for card in self.cards()}

    def pick(self, index: int) -> Move:
        """The ``index``-th move of ``legal_moves()`` (``IndexError`` past the end), made
        without making the others where the view can skip them (a Nordic capture is
        found from the counts of its card's rank vectors)."""
        if index < 0:
            raise IndexError("a move's index is not negative")
        counts = self._counted()
        if self._listed is not None:
            return self._listed[index]
        family = self._round._family
        for card, count in counts:
            if index < count:
                if family is not None:
                    return family.pick(self._round, card, index)
                if self._round.rules.forced_capture:
                    forced = self._forced_of(card)
                    return Move._ordered(card, forced[index]) if forced else Move.trail(card)
                if index == 0:
                    return Move.trail(card)
                return Move._ordered(card, self._captures().pick(card, index - 1))
            index -= count
        raise IndexError("no such legal move")

    def __repr__(self) -> str:
        return f"<LegalMoves of seat {self._round.to_move}>"

    # -- one card ----------------------------------------------------------------------

    def _in_hand(self, card: Card) -> bool:
        rnd = self._fresh()
        return not rnd.is_over and card in rnd.hands[rnd.to_move]

    def _card_iter(self, card: Card, kind: str | None) -> Iterator[Move]:
        if not self._in_hand(card):
            return iter(())
        rnd = self._round
        family = rnd._family
        if family is not None:
            return iter(family.card_moves(rnd, card, kind))
        return self._nordic_iter(card, kind)

    def _card_has(self, card: Card, kind: str | None) -> bool:
        if not self._in_hand(card):
            return False
        rnd = self._round
        family = rnd._family
        if family is not None:
            return family.has_moves(rnd, card, kind)
        if rnd.rules.forced_capture:
            if kind is None:
                return True  # a card captures if it can, else krypar
            if kind in ("trail", "plain", "capture"):
                return bool(self._forced_of(card)) == (kind == "capture")
            return False
        if kind in (None, "trail", "plain"):
            return True  # a Nordic card may always trail
        if kind == "capture":
            return self._captures().count(card) > 0
        return False

    def _card_count(self, card: Card) -> int:
        if not self._in_hand(card):
            return 0
        rnd = self._round
        family = rnd._family
        if family is not None:
            return len(family.card_moves(rnd, card))
        if rnd.rules.forced_capture:
            return len(self._forced_of(card)) or 1
        return 1 + self._captures().count(card)

    # -- Nordic ------------------------------------------------------------------------

    def _captures(self) -> _NordicCaptures:
        found = self._nordic
        if found is None:
            rnd = self._round
            found = self._nordic = _NordicCaptures(rnd.rules, rnd.table)
        return found

    def _forced_of(self, card: Card) -> Sequence[tuple[Card, ...]]:
        """Krypkasino: the card's captures (none: it krypar), asked of the round once."""
        found = self._forced.get(card)
        if found is None:
            found = self._forced[card] = self._round.forced_captures(card)
        return found

    def _nordic_iter(self, card: Card, kind: str | None) -> Iterator[Move]:
        if self._round.rules.forced_capture:
            forced = self._forced_of(card)
            if not forced and kind in (None, "trail", "plain"):
                yield Move.trail(card)
            if forced and kind in (None, "capture"):
                capture = Move._ordered
                for taken in forced:
                    yield capture(card, taken)
            return
        if kind in (None, "trail", "plain"):
            yield Move.trail(card)
        if kind in (None, "capture"):
            capture = Move._ordered
            for taken in self._captures().captures(card):
                yield capture(card, taken)


class _NordicCaptures:
    """A Nordic table's captures per played card: small tables listed by the engine's
    index, big ones (where the count explodes) as rank vectors, expanded one by one."""

    def __init__(self, rules, table: list[Card]) -> None:
        self.rules = rules
        self.table = list(table)
        self.index = TableIndex(rules, self.table)
        self.big = len(self.table) > _SMALL_TABLE
        self._vectors: dict[tuple[int, ...], list[tuple[int, int]]] = {}
        self._ranks: dict[int, list[Card]] | None = None

    def _targets(self, card: Card) -> tuple[int, ...]:
        sums = self.index.sums
        return tuple(t for t in self.rules.hand_values[card] if sums >> t & 1)

    def _counted(self, card: Card) -> list[tuple[int, int]]:
        """(vector, how many captures it expands to) of a big table, in the index's order."""
        targets = self._targets(card)
        found = self._vectors.get(targets)
        if found is None:
            if self._ranks is None:
                self._ranks = _by_rank(self.table)
            ranks = self._ranks
            vectors = (
                _legal_vectors(self.rules.table_values, _vector(self.table), targets)
                if targets
                else ()
            )
            found = self._vectors[targets] = [(v, _expansions(v, ranks)) for v in vectors]
        return found

    def count(self, card: Card) -> int:
        if not self.big:
            return len(self.index.captures(card))
        return sum(n for _, n in self._counted(card))

    def captures(self, card: Card) -> Iterator[tuple[Card, ...]]:
        if not self.big:
            yield from self.index.captures(card)
            return
        counted = self._counted(card)  # reads the table's ranks too
        ranks = self._ranks or {}
        for vector, _ in counted:
            yield from _expand(vector, ranks)

    def pick(self, card: Card, index: int) -> tuple[Card, ...]:
        if not self.big:
            return self.index.captures(card)[index]
        counted = self._counted(card)
        ranks = self._ranks or {}
        for vector, many in counted:
            if index < many:
                return next(islice(_expand(vector, ranks), index, None))
            index -= many
        raise IndexError("no such capture")


def _expansions(vector: int, ranks: dict[int, list[Card]]) -> int:
    """How many distinct captures a rank vector expands to (identical cards, as in
    Mulle's two decks, make one choice)."""
    counts = []
    for rank, cards in ranks.items():
        need = _count(vector, rank)
        if need:
            counts.append(_distinct_choices(cards, need))
    return prod(counts)


def _distinct_choices(cards: list[Card], need: int) -> int:
    """The number of distinct multisets of ``need`` cards from ``cards``."""
    if len(set(cards)) == len(cards):
        return comb(len(cards), need)
    ways = [1] + [0] * need  # polynomial product of (1 + x + ... + x^m) per distinct card
    for many in {card: cards.count(card) for card in cards}.values():
        grown = [0] * (need + 1)
        for total, count in enumerate(ways):
            if count:
                for extra in range(min(many, need - total) + 1):
                    grown[total + extra] += count
        ways = grown
    return ways[need]
