"""Playing cards: an immutable :class:`Card`, parsing, and decks."""

from __future__ import annotations

import random
from collections.abc import Callable
from operator import attrgetter
from typing import ClassVar

SUITS = "SHDC"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}

_SYMBOL_TO_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
_SYMBOL_TO_SUIT.update({"♤": "S", "♡": "H", "♢": "D", "♧": "C"})
_NAME_TO_RANK = {name: rank for rank, name in RANK_NAMES.items()}


class Card:
    """A playing card: ``rank`` 1..13 (ace 1, jack 11, queen 12, king 13), ``suit`` S H D C.

    Cards are immutable values, and there is one object per card: ``Card(10, "D")`` always
    returns the same instance, so the two identical cards of a double deck compare equal
    and comparing or hashing a card is as cheap as it gets.
    """

    __slots__ = ("_key", "rank", "suit")
    _interned: ClassVar[dict[tuple[int, str], Card]] = {}
    rank: int
    suit: str

    def __new__(cls, rank: int, suit: str) -> Card:
        card = cls._interned.get((rank, suit))
        if card is not None:
            return card
        if not isinstance(rank, int) or isinstance(rank, bool) or not 1 <= rank <= 13:
            raise ValueError(f"a card's rank is 1..13, not {rank!r}")
        if not isinstance(suit, str) or len(suit) != 1 or suit not in SUITS:
            raise ValueError(f"a card's suit is one of S H D C, not {suit!r}")
        card = super().__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "_key", rank * 4 + SUITS.index(suit))
        cls._interned[rank, suit] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict) -> Card:
        return self

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key < other._key

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key <= other._key

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key > other._key

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key >= other._key

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``"10D"``, ``"as"``, ``"Q♥"`` and the like; raise ``ValueError`` otherwise.

        Only plain notation (ASCII letters and digits) and the suit symbols are read: no
        other scripts' digits or letters that merely look or upper-case alike.
        """
        if not isinstance(text, str):
            raise ValueError(f"cannot read a card from a {type(text).__name__}")
        cleaned = text.strip(" \t\r\n")
        if not 2 <= len(cleaned) <= 3:
            raise ValueError(f"{text[:12]!r} is not a card (try e.g. 10D, AS or Q♥)")
        rank_text, suit_text = cleaned[:-1], cleaned[-1]
        suit = _SYMBOL_TO_SUIT.get(suit_text) or (suit_text.upper() if suit_text.isascii() else "")
        if suit not in SUITS or not suit:
            raise ValueError(f"{text!r} is not a card: unknown suit {suit_text!r}")
        rank_text = rank_text.upper() if rank_text.isascii() else ""
        if rank_text in _NAME_TO_RANK:
            rank = _NAME_TO_RANK[rank_text]
        elif rank_text.isdigit() and rank_text[0] != "0" and 2 <= int(rank_text) <= 10:
            rank = int(rank_text)
        else:
            raise ValueError(f"{text!r} is not a card: unknown rank {cleaned[:-1]!r}")
        return cls(rank, suit)

    @property
    def rank_name(self) -> str:
        """``"A"``, ``"2"`` .. ``"10"``, ``"J"``, ``"Q"`` or ``"K"``."""
        return RANK_NAMES.get(self.rank, str(self.rank))

    @property
    def symbol(self) -> str:
        """The card with a suit symbol, for people: ``"10♦"``."""
        return self.rank_name + SUIT_SYMBOLS[self.suit]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds."""
        return self.suit in "HD"

    def __str__(self) -> str:
        return self.rank_name + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def card_order() -> Callable[[Card], int]:
    """A sort key putting cards in rank order, then S H D C (the order of ``sorted``)."""
    return attrgetter("_key")


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by spaces or commas: ``parse_cards("AS 10D KH")``."""
    return [Card.parse(part) for part in text.replace(",", " ").split()]


def full_deck(decks: int = 1, pictures: bool = True) -> list[Card]:
    """``decks`` ordered 52-card decks, one after the other (40 cards without pictures)."""
    key = (decks, pictures)
    deck = _DECKS.get(key)
    if deck is None:  # made once: every deal starts from one
        top = 14 if pictures else 11
        deck = tuple(
            Card(rank, suit) for _ in range(decks) for suit in SUITS for rank in range(1, top)
        )
        _DECKS[key] = deck
    return list(deck)


_DECKS: dict[tuple[int, bool], tuple[Card, ...]] = {}


def shuffled_deck(decks: int, seed: object = None, pictures: bool = True) -> list[Card]:
    """A shuffled deck; the same ``seed`` gives the same order."""
    cards = full_deck(decks, pictures)
    if not isinstance(seed, int | float | str | bytes | None):
        seed = repr(seed)  # any value works as a seed, e.g. a tuple
    random.Random(seed).shuffle(cards)
    return cards


STORAN = Card(10, "D")
LILLAN = Card(2, "S")
