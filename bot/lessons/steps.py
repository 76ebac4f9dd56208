"""A lesson's building blocks: a step is a small scripted position with what to do, which
moves are right, why a wrong one is wrong and what to say after the right one.

Pure data and code over the engine (no Discord): :meth:`Step.position` builds the engine
:class:`~bot.engine.Round` the learner plays (seat 0, to move), :meth:`Step.judge` says
whether a legal move is right and, if not, which catalogue message explains why.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.engine import Build, Card, Move, Round, rules_for
from bot.engine.builds import item_cards
from bot.engine.moves import Item

Check = Callable[[Move], bool]
# the opponent's cards when a step names none: the first two the position does not use
SPARE = "QC KC QD KD QS KS"
_ITEM = re.compile(r"\[[^\]]*\](?:@\d)?|\S+")


def cards(text: str) -> list[Card]:
    """``"5S KH"`` as cards."""
    return [Card.parse(c) for c in text.split()]


def items(text: str) -> list[Item]:
    """Table items: cards (``5S``) and builds (``[8: 5H 3D]@1``: value, groups split by
    ``|``, and the owner's seat after ``@``, 0 when left out)."""
    found: list[Item] = []
    for token in _ITEM.findall(text):
        if token.startswith("["):
            body, _, owner = token.partition("@")
            found.append(Build.parse(body, int(owner or 0)))
        else:
            found.append(Card.parse(token))
    return found


def taken_cards(move: Move) -> Counter[Card]:
    """Every card a move takes from the table (a build's cards too)."""
    return Counter(c for item in move.taken for c in item_cards(item))


def takes(card: str, taken: str) -> Check:
    """The move plays ``card`` and takes exactly the cards ``taken`` (a build's too)."""
    played, wanted = Card.parse(card), Counter(cards(taken))
    return lambda move: move.card == played and taken_cards(move) == wanted


def takes_any(*wanted: str) -> Check:
    """A capture that takes every one of these cards (and perhaps more)."""
    need = Counter(cards(" ".join(wanted)))
    return lambda move: move.kind == "capture" and not need - taken_cards(move)


def plays(card: str, kind: str | None = None) -> Check:
    """The move plays ``card`` (as a move of ``kind``, if given)."""
    played = Card.parse(card)
    return lambda move: move.card == played and (kind is None or move.kind == kind)


def builds(card: str, value: int, using: str = "") -> Check:
    """The move plays ``card`` into a build of ``value`` using table cards ``using``
    (a build on the table counts by its cards)."""
    played, wanted = Card.parse(card), Counter(cards(using))
    return lambda move: (
        move.card == played
        and move.kind == "build"
        and move.value == value
        and Counter(c for item in move.using for c in item_cards(item)) == wanted
    )


def trails(move: Move) -> bool:
    """The move takes and builds nothing."""
    return move.is_trail


def anything(move: Move) -> bool:
    """Any move."""
    return True


def not_(check: Check) -> Check:
    """The opposite of ``check``."""
    return lambda move: not check(move)


@dataclass(frozen=True, slots=True)
class Wrong:
    """A kind of wrong move (``check``) and the catalogue message that explains it;
    ``example`` is one such move's card and what it takes (for the tests: ``"KH"``, a
    trail; ``"7C: 5S 2D"``; ``"4H!"``, a move the engine itself refuses)."""

    check: Check
    why: str
    example: str = ""


@dataclass(frozen=True, slots=True)
class Step:
    """One position of a lesson.

    ``variant``: whose rules; ``hand``: the learner's cards (seat 0, to move); ``table``:
    its items (:func:`items`); ``others``: the other seats' hands (``None``: one opponent
    holding two picture cards the position does not use); ``deck``: cards still to be
    dealt (``None``: the rest of the deck, so it is not the last deal; ``""``: none,
    the last deal); ``last_capturer``. ``task`` says what to do; ``right`` which moves
    are right; ``wrongs`` explain kinds of wrong moves, ``miss`` any other; ``after`` is
    said after the right move. Texts are catalogue messages (:func:`bot.i18n.N_`).
    """

    variant: str
    hand: str
    table: str
    task: str
    right: Check
    after: str
    miss: str
    wrongs: tuple[Wrong, ...] = ()
    others: tuple[str, ...] | None = None
    deck: str | None = None
    last_capturer: int | None = None
    right_example: str = ""

    def position(self) -> Round:
        """The position as an engine round, the learner (seat 0) to move."""
        rules = rules_for(self.variant)
        table = items(self.table)
        mine = cards(self.hand)
        if self.others is None:
            seen = {*mine, *(c for item in table for c in item_cards(item))}
            others = [[c for c in cards(SPARE) if c not in seen][:2]]
        else:
            others = [cards(h) for h in self.others]
        hands = [mine, *others]
        if self.deck is None:
            used = Counter(c for h in hands for c in h)
            used.update(c for item in table for c in item_cards(item))
            deck = list((Counter(rules.deck()) - used).elements())
        else:
            deck = cards(self.deck)
        return Round.from_position(
            rules,
            hands,
            table,
            deck=deck,
            dealer=len(hands) - 1,
            to_move=0,
            last_capturer=self.last_capturer,
        )

    def judge(self, move: Move) -> tuple[bool, str]:
        """Whether a legal move is right, and what to say: :attr:`after`, or why not."""
        if self.right(move):
            return True, self.after
        for wrong in self.wrongs:
            if wrong.check(move):
                return False, wrong.why
        return False, self.miss


@dataclass(frozen=True, slots=True)
class Lesson:
    """A lesson: its key (the variant it teaches), title, an opening and a closing text
    (catalogue messages) and its steps."""

    key: str
    intro: str
    steps: tuple[Step, ...]
    outro: str
    notes: tuple[str, ...] = field(default=())
