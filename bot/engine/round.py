"""One round: a pass through the deck, from the first deal to the scoring.

The table holds cards and, in the building games, :class:`Build` items; capture piles are
lists of cards with the top card last. The Nordic games take the original fast paths
below; a building game's moves go through its family (:mod:`bot.engine.families`; the
design is in :mod:`bot.engine.building`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import NamedTuple

from .building import holds, split_groups
from .builds import Build, Item, item_cards, item_from_data, item_to_data
from .captures import (
    SMALL_TABLE,
    TableIndex,
    capture_options,
    check_limit,
    checked_targets,
    hand_captures,
    whole_captures,
)
from .cards import Card, shuffled_deck
from .checks import (
    as_count,
    as_flag,
    as_list,
    as_score,
    as_seat,
    brief,
    fields_of,
    per_seat,
    saved_version,
)
from .families import family_of
from .legal import LegalMoves
from .moves import IllegalMove, Move
from .reasons import Joined, reason
from .rules import Rules, capture_values, rules_from_dict, rules_to_dict
from .scoring import Score, drop_zeros, end_items, is_mulle, live_items

FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)


class Play(NamedTuple):
    """What one move did, for telling people about it (a tuple: cheap to make)."""

    seat: int
    move: Move
    sweep: bool = False
    sweep_scores: bool = False
    mulle: bool = False


# The lists of a round copied whole by Round.copy (cards and plays are immutable).
_COPIED_LISTS = (
    "table",
    "deck",
    "sweeps",
    "void_sweeps",
    "mulles",
    "mulle_points",
    "rewards",
    "scores",
    "plays",
    "leftovers",
)
_new_round = object.__new__


class Round:
    """A round of play. Build one with :meth:`deal` or :meth:`from_position`."""

    def __init__(self, rules: Rules, players: int, dealer: int = 0) -> None:
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules (see rules_for), not a {type(rules).__name__}")
        rules.check_players(players)
        as_seat(dealer, players, "the dealer")
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.table: list[Item] = []  # cards, and builds in the building games
        self.deck: list[Card] = []
        self.piles: list[list[Card]] = [[] for _ in range(players)]
        self.sweeps = [0] * players
        self.void_sweeps = [0] * players
        self.mulles = [0] * players
        self.mulle_points = [0] * players
        self.rewards = [0] * players  # Krypkasino: tabbar made by the next seat
        self.last_capturer: int | None = None
        self.to_move = (dealer + rules.direction) % players
        self._family = family_of(rules)  # the building family's rules, None for Nordic games
        self.is_last_deal = False
        self.is_over = False
        self.deal_number = 0
        self.scores = [0] * rules.sides(players)
        self.plays: list[Play] = []
        self.leftovers: list[Card] = []
        self.known: list[list[int]] = [[] for _ in range(players)]  # Swazi partners' values
        self._context = None  # the building family's reading of this position

    # -- building ---------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: Rules,
        players: int,
        dealer: int = 0,
        seed: object = None,
        deck: Sequence[Card] | None = None,
        scores: Sequence[int] | None = None,
    ) -> Round:
        """Shuffle (reproducibly with ``seed``) or take ``deck`` (top card first) and deal."""
        self = cls(rules, players, dealer)
        if deck is None:
            cards = shuffled_deck(rules.decks, seed, rules.pictures)
        else:
            cards = list(deck)
            if Counter(cards) != Counter(rules.deck()):
                raise ValueError(f"the deck must hold exactly the {rules.cards_in_deck} cards")
        self.deck = cards
        self._set_scores(scores)
        if rules.layout == "cut":
            self._cut_layout()
        self._deal_hands(first=True)
        return self

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        hands: Sequence[Iterable[Card]],
        table: Iterable[Item],
        deck: Iterable[Card] = (),
        dealer: int = 0,
        to_move: int | None = None,
        piles: Sequence[Iterable[Card]] | None = None,
        sweeps: Sequence[int] | None = None,
        last_capturer: int | None = None,
        scores: Sequence[int] | None = None,
        last_deal: bool | None = None,
        known: Sequence[Iterable[int]] | None = None,
        rewards: Sequence[int] | None = None,
    ) -> Round:
        """Any position: hands per seat, the table, the undealt deck (top card first).

        In the building games the table may hold :class:`Build` items and ``piles`` are
        capture piles with the top card last; ``known`` gives, per seat, build values a
        Swazi partner is known to hold; ``rewards`` (Krypkasino) per seat, the tabbar it
        was rewarded for (made by the seat after it).

        Raises ``ValueError`` for a position no game can have: a seat out of range, a
        per-seat list of the wrong length, a negative count, a card more often than the
        decks hold, a known value that is no build value, a player to move who has no
        legal move (an owner holding no card for its build, in a game where it may not
        trail). The cards need not make a whole deck (positions for tests and the
        search's sampled worlds leave some out). Hands left empty are dealt or the round
        ends, as in play.
        """
        self = cls(rules, len(hands), dealer)
        self.hands = [list(h) for h in hands]
        self.table = list(table)
        self.deck = list(deck)
        if piles is not None:
            self.piles = [list(p) for p in per_seat(piles, self.players, "piles")]
        if sweeps is not None:
            self.sweeps = list(per_seat(sweeps, self.players, "sweeps"))
        if rewards is not None:
            self.rewards = list(per_seat(rewards, self.players, "rewards"))
        self.last_capturer = last_capturer
        if known is not None:
            self.known = [sorted(set(k)) for k in per_seat(known, self.players, "known")]
        self._set_scores(scores)
        self.is_last_deal = not self.deck if last_deal is None else bool(last_deal)
        self.deal_number = max(1, self.deals_total - self._deals_left())
        if to_move is not None:
            self.to_move = to_move
        self._check_position()
        self._check_known()
        self._settle()
        if not self.is_over and self.rules.builds:
            self._check_playable()
        return self

    def _set_scores(self, scores: Sequence[int] | None) -> None:
        if scores is not None:
            self.scores = list(per_seat(scores, self.rules.sides(self.players), "scores"))
            for score in self.scores:
                as_score(score, "a score", self.rules.lowest_wins)

    def _check_position(self) -> None:
        """Refuse (``ValueError``) what no position has: bad seats, counts, cards."""
        players = self.players
        as_seat(self.to_move, players, "to_move")
        if self.last_capturer is not None:
            as_seat(self.last_capturer, players, "last_capturer")
        for name in ("hands", "piles", "sweeps", "void_sweeps", "mulles", "rewards"):
            per_seat(getattr(self, name), players, name)
        per_seat(self.scores, self.rules.sides(players), "scores")
        for name in ("sweeps", "void_sweeps", "mulles", "rewards"):
            for value in getattr(self, name):
                as_count(value, name)
        for value in self.scores:
            as_score(value, "scores", self.rules.lowest_wins)
        if any(self.rewards) and not self.rules.reward_points:
            raise ValueError(f"{self.rules.name} has no rewards for the seat before a tabbe")
        for swept, void in zip(self.sweeps, self.void_sweeps, strict=True):
            if void > swept:
                raise ValueError("a seat has more sweeps that scored nothing than sweeps")
        if any(self.void_sweeps) and not self.rules.sweep_limits:
            raise ValueError(f"{self.rules.name} has no sweeps that score nothing")
        if any(self.mulles) and not (self.rules.mulle_points or self.rules.mulle_twin):
            raise ValueError(f"{self.rules.name} has no mulle")
        self._check_cards()

    def _everything(self) -> Counter:
        """Every card of the round, builds' cards included."""
        everything = Counter(self.deck)
        for item in self.table:
            if isinstance(item, Build):
                self._check_build(item)
                everything.update(item.cards)
            else:
                everything[item] += 1
        for cards in (*self.hands, *self.piles):
            everything.update(cards)
        return everything

    def _check_cards(self) -> None:
        for card, count in self._everything().items():
            if not isinstance(card, Card):
                raise ValueError(f"a {type(card).__name__} is not a Card")
            if count > self.rules.decks:
                raise ValueError(f"{card} appears {count} times in a {self.rules.decks}-deck game")
            if not self.rules.pictures and card.rank > 10:
                raise ValueError(f"{card} is not in a deck without pictures")

    def _check_build(self, build: Build) -> None:
        """A build on the table must be possible: its groups make its value, its owner a seat."""

        if not isinstance(build, Build):
            raise ValueError(f"a {type(build).__name__} is not a table item")
        if not self.rules.builds:
            raise ValueError("builds are only in the building games")
        if not 0 <= build.owner < self.players:
            raise ValueError(f"the owner of {build} is not a seat")
        for group in build.groups:
            if split_groups(self.rules, group, build.value, None, False) is None:
                raise ValueError(f"the cards of {build} do not make groups of {build.value}")

    def _check_owners(self) -> None:
        """A saved building game must be playable: each owner holds its own card for every
        value it owns, Swazi and Sotho never have two builds of one value."""

        builds = [b for b in self.table if isinstance(b, Build)]
        for seat in range(self.players):
            owned = {b.value for b in builds if b.owner == seat}
            if not holds(self.rules, owned, self.hands[seat]):
                raise ValueError(f"seat {seat} owns builds it holds no card for")
        values = [b.value for b in builds]
        if self.rules.builds == "swazi" and len(values) != len(set(values)):
            raise ValueError("two builds of one value on a Swazi table")
        self._check_known()

    def _check_known(self) -> None:
        """Known values (Swazi partners') are build values, 1 to 16."""
        for values_known in self.known:
            for value in as_list(values_known, "known values"):
                if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 16:
                    raise ValueError(f"known values are 1 to 16, not {brief(value)}")

    def _check_playable(self) -> None:
        """The player to move of a building game has a legal move (``ValueError`` if not).

        Cheap where play can reach: a seat that owns no build may trail (or, under
        demands, make a move that meets them), and an owner holding a card for each value
        it owns (as play always leaves it) may take its builds of one value whole with
        theirs. Only an owner without its cards is decided by listing its moves.
        """

        seat = self.to_move
        owned = {
            item.value for item in self.table if isinstance(item, Build) and item.owner == seat
        }
        if not owned or holds(self.rules, owned, self.hands[seat]):
            return
        saved = self._context
        try:
            if self.legal_moves():
                return
        finally:
            self._context = saved
        values = ", ".join(str(value) for value in sorted(owned))
        raise ValueError(
            f"seat {seat} is to move but has no legal move: it owns builds of {values}"
            " without a card of each of those values to take them"
        )

    def _check_saved(self) -> None:
        """Refuse (``ValueError``) a saved round that play cannot have reached.

        On top of :meth:`_check_position`: every card of the deck is somewhere, once; the
        deck holds what the deals so far leave; the round is settled (the player the deal
        and the turns taken give is to move, holding cards, or the round is over with
        nothing left to play); sweeps and leftovers agree with the cards.
        """
        self._check_all_cards()
        self._check_deals()
        hands = [len(hand) for hand in self.hands]
        if self.is_over:
            if any(hands):
                raise ValueError("the round is over but cards are left to play")
            if self.last_capturer is not None and self.table:
                raise ValueError("the round is over but the leftovers are still on the table")
        else:
            self._check_turn(hands)
        if not self.rules.builds:  # piles only grow (in the building games cards are taken)
            if (self.last_capturer is None) != (not any(self.piles)):
                raise ValueError("captured cards and the last capturer do not agree")
            for pile, swept, mulles in zip(self.piles, self.sweeps, self.mulles, strict=True):
                if 2 * max(swept, mulles) > len(pile):
                    raise ValueError("more sweeps or mulles than captures")
        elif self.last_capturer is None and any(self.piles):
            raise ValueError("captured cards and the last capturer do not agree")
        if self.rules.reward_points:
            self._check_rewards()
        if self.leftovers:
            last = self.last_capturer
            pile = [] if last is None else self.piles[self.pile_of(last)]
            if not self.is_over or pile[len(pile) - len(self.leftovers) :] != self.leftovers:
                raise ValueError("leftovers go to the last capturer when the round ends")
        for play in self.plays:
            as_seat(play.seat, self.players, "a play's seat")

    def _check_rewards(self) -> None:
        """Krypkasino: each seat is rewarded once for every tabbe made by the seat after it
        (:meth:`_capture` credits the seat just before the capturer), so ``rewards`` is
        ``sweeps`` moved one seat back; equal sums are not enough."""
        for seat, rewarded in enumerate(self.rewards):
            after = (seat + 1) % self.players
            made = self.sweeps[after]
            if rewarded != made:
                raise ValueError(
                    f"every tabbe rewards the seat before its capturer, once: seat {seat} is"
                    f" rewarded for {rewarded} but seat {after}, the seat after it, made {made}"
                )

    def _check_all_cards(self) -> None:
        everything = self._everything()
        deck = Counter(self.rules.deck())
        missing, extra = deck - everything, everything - deck
        if missing or extra:
            what = [f"{card} missing" for card in sorted(missing)]
            what += [f"{card} too often" for card in sorted(extra)]
            more = f" and {len(what) - 4} more" if len(what) > 4 else ""
            raise ValueError(f"the cards do not make the deck: {', '.join(what[:4])}{more}")

    def _check_deals(self) -> None:
        """The deck holds what ``deal_number`` deals leave; the last one empties it."""
        if not 1 <= self.deal_number <= self.deals_total:
            raise ValueError(f"deal {brief(self.deal_number)} of a round of {self.deals_total}")
        if self.rules.crazy:
            return  # crazy casino: cards are drawn one by one after each play
        hand, table = self.rules.sizes_for(self.players)
        left = self.rules.cards_in_deck - table - hand * self.players * self.deal_number
        if len(self.deck) != max(0, left):
            raise ValueError(f"{len(self.deck)} cards in the deck after deal {self.deal_number}")
        if self.is_last_deal != (not self.deck):
            raise ValueError("the last deal is the one that empties the deck")

    def _dealt(self) -> list[int]:
        """How many cards each seat got in the current deal (the last may run short)."""
        rules, players = self.rules, self.players
        hand, table = rules.sizes_for(players)
        dealt_so_far = table + hand * players * self.deal_number
        cards = hand * players - max(0, dealt_so_far - rules.cards_in_deck)
        dealt = [0] * players
        step = rules.direction
        for i in range(players):  # one card at a time from the dealer's left (Swazi: right)
            dealt[(self.dealer + step * (1 + i)) % players] = cards // players + (
                i < cards % players
            )
        return dealt

    def _check_turn(self, hands: list[int]) -> None:
        """The player to move is the one the deal and the turns taken give.

        Play goes clockwise from the dealer's left, one card a turn, so counted from there
        the cards each seat has played this deal read t+1 .. t+1, t .. t; the first with t
        is to move (seats with no cards left are passed over).
        """
        if not any(hands):
            raise ValueError("no one holds cards but the round is not over")
        if self.rules.crazy:  # hands are filled up after each play: sizes tell nothing
            if not hands[self.to_move]:
                raise ValueError(f"seat {self.to_move} is to move holding no cards")
            return
        step = self.rules.direction
        order = [(self.dealer + step * (1 + i)) % self.players for i in range(self.players)]
        dealt = self._dealt()
        played = [dealt[seat] - hands[seat] for seat in order]
        steps = all(later <= earlier for earlier, later in pairwise(played))
        if min(played) < 0 or not steps or played[0] - played[-1] > 1:
            raise ValueError("the hands' sizes do not fit the deal")
        ahead = played.count(played[0]) if played[0] != played[-1] else 0
        seat = next(s for s in order[ahead:] + order[:ahead] if hands[s])
        if self.to_move != seat:
            raise ValueError(f"seat {seat} is to move, not seat {self.to_move}")

    def copy(self) -> Round:
        """An independent copy (cards and plays are immutable, so lists are copied shallowly)."""
        # One copy of the attributes, then the lists the round changes (the hot path of
        # every search: a building game's worlds are rounds).
        state = self.__dict__.copy()
        state["hands"] = [h[:] for h in self.hands]
        state["piles"] = [p[:] for p in self.piles]
        for name in _COPIED_LISTS:
            state[name] = state[name][:]
        state["known"] = [k[:] for k in self.known]
        state["_context"] = None
        twin = _new_round(self.__class__)
        twin.__dict__ = state
        return twin

    # -- dealing ----------------------------------------------------------------------

    @property
    def deals_total(self) -> int:
        """How many deals the round has."""
        hand, table = self.rules.sizes_for(self.players)
        if self.rules.crazy:
            return 1
        first = table + hand * self.players
        later = hand * self.players
        return 1 + -(-(self.rules.cards_in_deck - first) // later)

    def _deals_left(self) -> int:
        if self.rules.crazy:
            return 0
        return -(-len(self.deck) // (self.rules.sizes_for(self.players)[0] * self.players))

    def _deal_hands(self, first: bool) -> None:
        """Deal one deal from the top of the deck, as RULES.md says."""
        hand, table = self.rules.sizes_for(self.players)
        if self.rules.layout == "cut":
            table = 0  # the layout was cut from the middle of the deck
        packet = 2 if self.rules.deal == "pairs" else 1
        step = self.rules.direction
        order = [(self.dealer + step * (1 + i)) % self.players for i in range(self.players)]
        # Table cards go out between the players' packets when they divide evenly (4 and 4,
        # 8 and 4), else after the players' cards (South African: 13 each, then 1).
        between = packet * table // hand if (packet * table) % hand == 0 else 0
        for _ in range(hand // packet):
            for seat in order:
                self.hands[seat].extend(self._draw(packet))
            if first and between:
                self.table.extend(self._draw(between))
        if first and table and not between:
            self.table.extend(self._draw(table))
        self.deal_number += 1
        self.is_last_deal = not self.deck
        self._context = None

    def _cut_layout(self) -> None:
        """Swazi and Sotho: four cards cut face up from the middle of the deck.

        With ``redeal`` a layout holding a scoring card (ace, 2♠, 10♦) or three pictures
        goes back under the deck and four more are cut (at most 20 times).
        """
        for _ in range(20):
            middle = len(self.deck) // 2 - 2
            layout = self.deck[middle : middle + 4]
            del self.deck[middle : middle + 4]
            if not self.rules.redeal or not _spoils_layout(layout):
                break
            self.deck.extend(layout)
        self.table = list(layout)

    def _draw(self, count: int) -> list[Card]:
        cards, self.deck = self.deck[:count], self.deck[count:]
        return cards

    # -- play -------------------------------------------------------------------------

    def side_of(self, seat: int) -> int:
        """The side (team or player) a seat scores for."""
        return self.rules.side_of(seat, self.players)

    def legal_moves(self, limit: int | None = None) -> list[Move]:
        """Every legal move of the player to move: each card's trail and each capture.

        Listing every capture is not bounded: when everyone trails, a table of 28 low cards
        gives a card over a million captures. With ``limit=k`` each card's captures are
        only its maximal ones, at most ``k`` and the largest among them, found with bounded
        work whatever the table (see :func:`capture_options`); use that on a live table.
        """
        if self.is_over:
            return []
        family = self._family
        if family is not None:
            # The building games list every move; ``limit`` does not bound them yet.
            if limit is not None:
                check_limit(limit)
            return family.legal_moves(self)
        if self.rules.forced_capture:
            if limit is not None:
                check_limit(limit)
            return self._forced_moves(limit)
        moves = []
        each = Move._each
        hand = dict.fromkeys(self.hands[self.to_move])
        if limit is not None:
            check_limit(limit)
            for card in hand:
                moves.append(Move.trail(card))
                if self.table:
                    moves += each(card, None, capture_options(self.rules, card, self.table, limit))
            return moves
        table = self.table
        trail = Move.trail
        if len(table) <= SMALL_TABLE:
            trails = _TRAILS
            for card, found in zip(hand, hand_captures(self.rules, table, hand), strict=True):
                moves.append(trails.get(card) or trails.setdefault(card, trail(card)))
                if found:
                    moves += each(card, None, found)
            return moves
        index = TableIndex(self.rules, table)
        for card in hand:
            moves.append(trail(card))
            found = index.captures(card)
            if found:
                moves += each(card, None, found)
        return moves

    def _forced_moves(self, limit: int | None) -> list[Move]:
        """Krypkasino's moves: each card's captures if it has any, else its krypa."""
        moves: list[Move] = []
        for card in dict.fromkeys(self.hands[self.to_move]):
            found = self.forced_captures(card, limit)
            if found:
                moves += Move._each(card, None, found)
            else:
                moves.append(Move.trail(card))
        return moves

    def forced_captures(self, card: Card, limit: int | None = None) -> Sequence[tuple[Card, ...]]:
        """In a game of forced captures (Krypkasino), the captures ``card`` may make from
        the table, in the order of :meth:`legal_moves`: with ``take_all`` only the whole
        (maximal) ones, else every capture. Empty: the card takes nothing, so it krypar.

        With ``limit=k`` at most ``k`` maximal ones, the largest among them (as
        :meth:`legal_moves` with a limit).
        """
        table = self.table
        if not table:
            return ()
        rules = self.rules
        if rules.take_all:
            found = whole_captures(rules, card, table)
            return found if limit is None else found[:limit]
        if limit is not None:
            return capture_options(rules, card, table, limit)
        return TableIndex(rules, table).captures(card)

    @property
    def moves(self) -> LegalMoves:
        """The legal moves as a lazy view (:class:`~bot.engine.legal.LegalMoves`): count,
        any, membership, one card's moves or one kind's, without listing the rest."""
        return LegalMoves(self)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` may be played now."""
        try:
            self._check(move)
        except IllegalMove:
            return False
        return True

    def _check(self, move: Move) -> None:
        if self.is_over:
            raise IllegalMove(reason("the round is over"))
        family = self._family
        if family is not None:
            family.check(self, move)
            return
        self._check_nordic(move)

    def _check_nordic(self, move: Move) -> int:
        """Refuse (:class:`IllegalMove`) a move a Nordic game does not allow now; else
        the played card's place in the hand."""
        if not isinstance(move, Move) or not isinstance(move.card, Card):
            raise IllegalMove(reason("that is not a move"))
        try:
            index = self.hands[self.to_move].index(move.card)
        except ValueError:
            raise IllegalMove(reason("{card} is not in your hand", card=move.card)) from None
        if move.value is not None or move.table_builds:
            raise IllegalMove(reason("{game} has no building", game=self.rules.name))
        taken = move.taken
        if not taken:
            if self.rules.forced_capture:
                self._check_krypa(move.card)
            return index
        if not _on_table(taken, self.table):
            missing = Counter(taken) - Counter(self.table)
            gone = Joined(missing.elements(), " ")
            raise IllegalMove(reason("{item} is not on the table", item=gone))
        rules = self.rules
        # Most captures are one group: cards adding up to a value of the played card
        # (each counted at its lowest value) need no search.
        if rules.face_numbers:  # every card has a value
            shifts = rules.table_shifts
            total = 0
            for card in taken:
                total += shifts[card.rank][0]
            if total in rules.hand_values[move.card]:
                if rules.take_all:
                    self._check_whole(move)
                return index
        if not checked_targets(rules, move.card, taken):
            values = Joined(capture_values(rules, move.card, True), " or ")
            taken = Joined(taken, " + ")
            raise IllegalMove(reason("{taken} do not make {values}", taken=taken, values=values))
        if rules.take_all:
            self._check_whole(move)
        return index

    def _check_krypa(self, card: Card) -> None:
        """Krypkasino: only a card that takes nothing may krypa (be put on the table)."""
        found = capture_options(self.rules, card, self.table, 3) if self.table else []
        if found:
            options = Joined((Joined(c, " + ") for c in found), " or ")
            raise IllegalMove(
                reason(
                    "{card} can take {taken}, so it must capture (only a card that takes"
                    " nothing may krypa)",
                    card=card,
                    taken=options,
                )
            )

    def _check_whole(self, move: Move) -> None:
        """``take_all``: a capture must take every group it can (be a maximal capture)."""
        whole = whole_captures(self.rules, move.card, self.table)
        taken = sorted(move.taken)
        if any(sorted(c) == taken for c in whole):
            return
        bigger = [c for c in whole if not Counter(move.taken) - Counter(c)]
        options = Joined((Joined(c, " + ") for c in bigger[:3]), " or ")
        raise IllegalMove(
            reason("{card} must take every group it can ({taken})", card=move.card, taken=options)
        )

    def play(self, move: Move) -> Play:
        """Play ``move`` for the player to move, or raise :class:`IllegalMove` changing nothing."""
        family = self._family
        if family is None:
            return self._play_nordic(move)
        self._check(move)
        seat = self.to_move
        play = Play(seat, move, *family.apply(self, move))
        self._context = None
        if self.rules.crazy and self.deck:
            self.hands[seat].extend(self._draw(1))
        self.plays.append(play)
        self.to_move = (seat + self.rules.direction) % self.players
        self._settle()
        return play

    def _play_nordic(self, move: Move) -> Play:
        """:meth:`play` in a Nordic game (the hot path of every simulation)."""
        if self.is_over:
            raise IllegalMove(reason("the round is over"))
        index = self._check_nordic(move)
        seat = self.to_move
        del self.hands[seat][index]
        if move.taken:
            play = self._capture(seat, move)
        else:
            self.table.append(move.card)
            play = _new_play(Play, (seat, move, False, False, False))
        self.plays.append(play)
        self.to_move = (seat + 1) % self.players
        self._settle()
        return play

    def _capture(self, seat: int, move: Move) -> Play:
        taken = move.taken
        table = self.table
        sweep = len(taken) == len(table)
        scores = sweep and not self._sweep_void()  # judged on the points held before
        if sweep:
            table.clear()
        else:
            _remove(table, taken)
        self.piles[seat].extend((move.card, *taken))
        self.last_capturer = seat
        rules = self.rules
        mulle = is_mulle(rules, move.card, taken)
        if sweep:
            self.sweeps[seat] += 1
            self.void_sweeps[seat] += not scores
        if mulle:
            self.mulles[seat] += 1
            self.mulle_points[seat] += rules.mulle_points
        if sweep and rules.reward_points:
            # The seat just before the capturer, even if it has not played yet this round.
            self.rewards[(seat - 1) % self.players] += 1
        return _new_play(Play, (seat, move, sweep, scores, mulle))

    def pile_of(self, seat: int) -> int:
        """The index in ``piles`` of the pile a seat's captures go to (Swazi partners share)."""
        if self.rules.shared_piles and self.rules.teams:
            return seat % 2
        return seat

    def add_to_pile(self, seat: int, card: Card, taken: Sequence[Item], cards: list[Card]) -> None:
        """Put a capture on the seat's pile in the variant's order (top card last)."""
        pile = self.piles[self.pile_of(seat)]
        order = self.rules.pile_order
        if order == "card-on-top":
            pile.extend(sorted(cards))
            pile.append(card)
        elif order == "built":
            built = [c for item in taken for c in _built_order(item)]
            pictures = [c for c in built if c.rank > 10]
            pile.extend([*pictures, *(c for c in built if c.rank <= 10), card])
        elif order == "lowest-on-top":
            pile.extend(sorted([card, *cards], key=lambda c: (-c.rank, c.suit)))
        else:
            pile.extend((card, *cards))

    def _sweep_void(self) -> bool:
        """Finnish limits: no mökki in the last deal or once any side has 10 points."""
        if not self.rules.sweep_limits:
            return False
        return self.is_last_deal or max(self.live_totals()) >= 10

    def _settle(self) -> None:
        """Deal when hands are empty, end the round when the deck is too, find who moves."""
        if self.hands[self.to_move]:
            return  # the seat whose turn it is holds cards: nothing to deal, no one to skip
        if not any(self.hands):
            if self.deck:
                self._deal_hands(first=False)
            else:
                self._finish()
                return
        direction = 1 if self._family is None else self.rules.direction
        for step in range(self.players):
            seat = (self.to_move + step * direction) % self.players
            if self.hands[seat]:
                self.to_move = seat
                return

    def _finish(self) -> None:
        self.is_over = True
        self._context = None
        if self.last_capturer is not None and self.table:
            cards = [card for item in self.table for card in item_cards(item)]
            self.leftovers, self.table = cards, []
            self.piles[self.pile_of(self.last_capturer)].extend(self.leftovers)

    # -- scoring ----------------------------------------------------------------------

    def side_piles(self, leftovers: bool = True) -> list[list[Card]]:
        """Captured cards per side; without the end-of-round leftovers if ``leftovers`` is off."""
        piles: list[list[Card]] = [[] for _ in range(self.rules.sides(self.players))]
        last = None if self.last_capturer is None else self.pile_of(self.last_capturer)
        for seat, pile in enumerate(self.piles):
            if not leftovers and seat == last and self.leftovers:
                pile = pile[: len(pile) - len(self.leftovers)]
            piles[self.side_of(seat)].extend(pile)
        return piles

    def _per_side(self, counts: Sequence[int]) -> list[int]:
        totals = [0] * self.rules.sides(self.players)
        for seat, count in enumerate(counts):
            totals[self.side_of(seat)] += count
        return totals

    def live_items(self, leftovers: bool = True) -> list[dict[str, int]]:
        """Per side, the points of items already taken (aces, storan, lillan, sweeps, mulle).

        With ``leftovers`` off, the cards the last capturer gets at the end are left out:
        the totals as they stood after the last card was played.
        """
        scoring = [s - v for s, v in zip(self.sweeps, self.void_sweeps, strict=True)]
        return live_items(
            self.rules,
            self.side_piles(leftovers),
            self._per_side(scoring),
            self._per_side(self.mulle_points),
            self._per_side(self.rewards),
        )

    def live_totals(self, leftovers: bool = True) -> list[int]:
        """Per side, match points before the round plus items already taken this round."""
        items = self.live_items(leftovers)
        return [s + sum(i.values()) for s, i in zip(self.scores, items, strict=True)]

    def end_items(self) -> list[dict[str, int]]:
        """Per side, the end-of-round items (spades, cards, sistan); the round must be over."""
        sistan = None if self.last_capturer is None else self.side_of(self.last_capturer)
        return end_items(self.rules, self.side_piles(), sistan)

    def score(self) -> list[Score]:
        """One :class:`Score` per side once the round is over."""
        if not self.is_over:
            raise IllegalMove(reason("the round is not over yet"))
        return [
            Score(drop_zeros(live | end))
            for live, end in zip(self.live_items(), self.end_items(), strict=True)
        ]

    def spades_taken(self) -> list[int]:
        """Spades captured per side so far."""
        return [sum(c.suit == "S" for c in pile) for pile in self.side_piles()]

    # -- storing ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """A plain, JSON-able form; :meth:`from_dict` plays on identically."""
        return {
            "version": FORMAT_VERSION,
            "rules": rules_to_dict(self.rules),
            "dealer": self.dealer,
            "hands": [_names(h) for h in self.hands],
            "table": [item_to_data(item) for item in self.table],
            "deck": _names(self.deck),
            "piles": [_names(p) for p in self.piles],
            "sweeps": list(self.sweeps),
            "void_sweeps": list(self.void_sweeps),
            "mulles": list(self.mulles),
            "mulle_points": list(self.mulle_points),
            "rewards": list(self.rewards),
            "known": [list(k) for k in self.known],
            "last_capturer": self.last_capturer,
            "to_move": self.to_move,
            "is_last_deal": self.is_last_deal,
            "is_over": self.is_over,
            "deal_number": self.deal_number,
            "scores": list(self.scores),
            "leftovers": _names(self.leftovers),
            "plays": [
                {
                    "seat": p.seat,
                    **p.move.to_dict(),
                    "sweep": p.sweep,
                    "sweep_scores": p.sweep_scores,
                    "mulle": p.mulle,
                }
                for p in self.plays
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Round:
        """Rebuild a round from :meth:`to_dict`; raise ``ValueError`` on a damaged form.

        A saved round is the game's truth, so only what play can reach is accepted: every
        card of the deck accounted for once, seats in range, counts whole and not
        negative, a player to move who holds cards (or a round over with nothing left).
        """
        try:
            return cls._from_dict(data)
        except (KeyError, TypeError, AttributeError, IndexError, RecursionError) as error:
            raise ValueError(f"not a saved round ({type(error).__name__})") from error

    @classmethod
    def _from_dict(cls, data: dict) -> Round:
        field = fields_of(data, "round")
        version = saved_version(field("version"), READABLE_VERSIONS, "round")
        rules = rules_from_dict(field("rules"))
        hands = [_cards(h, "a hand") for h in as_list(field("hands"), "hands")]
        self = cls(rules, len(hands), field("dealer"))
        self.hands = hands
        self.table = [item_from_data(item) for item in as_list(field("table"), "the table")]
        self.deck = _cards(field("deck"), "deck")
        self.piles = [_cards(p, "a pile") for p in as_list(field("piles"), "piles")]
        self.sweeps = as_list(field("sweeps"), "sweeps")
        self.void_sweeps = as_list(field("void_sweeps"), "void_sweeps")
        self.mulles = as_list(field("mulles"), "mulles")
        if version == 1:  # version 1 (Nordic only) kept mulle counts alone
            self.mulle_points = [
                rules.mulle_points * as_count(m, "mulles")
                for m in per_seat(self.mulles, self.players, "mulles")
            ]
        else:
            self.mulle_points = [
                as_count(p, "mulle_points")
                for p in per_seat(
                    as_list(field("mulle_points"), "mulle_points"), self.players, "mulle_points"
                )
            ]
            self.known = [
                sorted(set(as_list(k, "known values")))
                for k in per_seat(as_list(field("known"), "known"), self.players, "known")
            ]
        if "rewards" in data:  # saved before Krypkasino: no rewards
            rewards = per_seat(as_list(field("rewards"), "rewards"), self.players, "rewards")
            self.rewards = [as_count(r, "rewards") for r in rewards]
        self.last_capturer = field("last_capturer")
        self.to_move = field("to_move")
        self.is_last_deal = as_flag(field("is_last_deal"), "is_last_deal")
        self.is_over = as_flag(field("is_over"), "is_over")
        self.deal_number = as_count(field("deal_number"), "deal_number")
        self.scores = as_list(field("scores"), "scores")
        self.leftovers = _cards(field("leftovers"), "the leftovers")
        self.plays = [_play(p) for p in as_list(field("plays"), "plays")]
        self._check_position()
        self._check_saved()
        self._check_owners()
        return self


def _play(data: object) -> Play:
    """One entry of a saved round's plays."""
    field = fields_of(data, "play")
    flags = [as_flag(field(name), name) for name in ("sweep", "sweep_scores", "mulle")]
    return Play(field("seat"), Move.from_dict(data), *flags)


_TRAILS: dict[Card, Move] = {}  # Move.trail's shared moves, looked up without a call
_new_play = tuple.__new__  # a Play without NamedTuple's keyword handling (made every move)


def _on_table(taken: Sequence[Item], table: list[Item]) -> bool:
    """Whether every item of ``taken`` is on ``table``, as often as it is taken.

    Table items are compared by identity, as cards (one object each) compare equal: the
    ids are plain numbers, which lists compare far faster than cards (whose ordering
    methods send every ``==`` through Python's slow path).
    """
    rest = list(map(id, table))
    try:
        for item in taken:
            rest.remove(id(item))
    except ValueError:
        return False
    return True


def _remove(table: list[Item], taken: Sequence[Item]) -> None:
    """Take the items of ``taken`` (all on ``table``, see :func:`_on_table`) off ``table``."""
    ids = list(map(id, table))
    for item in taken:
        index = ids.index(id(item))
        del ids[index], table[index]


def _spoils_layout(layout: Sequence[Card]) -> bool:
    """A Swazi layout worth dealing again: a scoring card or three pictures."""
    scoring = any(c.rank == 1 or (c.rank, c.suit) in ((2, "S"), (10, "D")) for c in layout)
    return scoring or sum(c.rank > 10 for c in layout) >= 3


def _built_order(item: Item) -> list[Card]:
    """A taken item's cards in the order they were built (Sotho piles)."""
    if isinstance(item, Card):
        return [item]
    return [card for group in item.groups for card in group]


def _names(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _cards(names: object, what: str) -> list[Card]:
    """Cards from their names (``"10D"``); ``ValueError`` for anything else."""
    return [Card.parse(name) for name in as_list(names, what)]
