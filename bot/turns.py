"""The turns a hand view offers in the games with builds: every legal move of one card,
ranked so the useful ones come first, and each described in words.

The Nordic games keep their capture menus (:mod:`bot.moves`); here a card may capture
(builds taken whole), build, raise a build, add to one, or trail, possibly with builds
made from table cards (Swazi), and the engine's ``legal_moves()`` is the one source.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence

from bot.engine import Build, Card, IllegalMove, Move, Round, card_points, is_mulle
from bot.engine.moves import Item
from bot.i18n import EN, N_, Lang

Fmt = Callable[[Card], str]


def building(round_: Round) -> bool:
    """Whether the round is one of the games with builds."""
    return bool(round_.rules.builds)


def cards_of(items: Iterable[Item]) -> list[Card]:
    """The cards of table items, builds opened up."""
    out: list[Card] = []
    for item in items:
        out.extend(item.cards if isinstance(item, Build) else (item,))
    return out


def moves_of(round_: Round, card: Card) -> list[Move]:
    """Every legal move of ``card`` for the player to move, best first (the card's moves
    alone are listed: :meth:`Round.moves`)."""
    return _ranked(round_, list(round_.moves.of(card)))


def best_moves(round_: Round, card: Card, count: int, *, plain: bool = True) -> list[Move]:
    """``moves_of(round_, card)[:count]`` (without the plain trail unless ``plain``),
    ranking only what can reach the first ``count``: :func:`_rank` puts every capture
    before every build and every build before every trail, so a kind is ranked only if
    the kinds before it leave room, and then only its best ``count`` are kept
    (``heapq.nsmallest`` is stable, as the sort is)."""
    found: list[Move] = []
    moves = round_.moves.of(card)
    for kind in ("capture", "build", "trail"):
        room = count - len(found)
        if room <= 0:
            break
        if not moves.has(kind):
            continue
        listed = [m for m in moves.moves(kind) if plain or m.table_builds or m.kind != "trail"]
        found += heapq.nsmallest(room, listed, key=lambda move: _rank(round_, move))
    return found


def _ranked(round_: Round, moves: list[Move]) -> list[Move]:
    """``moves`` best first. The sort is stable, so ties keep the engine's canonical
    order: no key built from the items' text (a busy Swazi table lists 30,000 turns)."""
    return sorted(moves, key=lambda move: _rank(round_, move))


def _rank(round_: Round, move: Move) -> tuple:
    """Captures first (most points, then most cards), then builds (the most cards put
    together first), then trails."""
    if move.kind == "capture":
        won = [move.card, *cards_of(move.taken)]
        spades = sum(c.suit == "S" for c in won)
        return (0, -capture_points(round_, move), -len(won), -spades)
    if move.kind == "build":
        return (1, -len(cards_of(move.using)), -(move.value or 0))
    return (2, -sum(len(cards_of(b.using)) for b in move.table_builds))


def sweeps(round_: Round, move: Move) -> bool:
    """Whether a capture takes everything on the table."""
    return move.kind == "capture" and len(move.taken) == len(round_.table)


def capture_points(round_: Round, move: Move) -> int:
    """About what a capture is worth by itself: its aces and casinos, a sweep (when sweeps
    score), a mulle."""
    won = [move.card, *cards_of(move.taken)]
    points = sum(map(card_points, won)) + int(round_.rules.sweeps and sweeps(round_, move))
    return points + round_.rules.mulle_points * is_mulle(round_.rules, move.card, move.taken)


def why_not(round_: Round, card: Card, t: Lang = EN, fmt: Fmt = str) -> str:
    """Why ``card`` has no legal move now (the engine's words for its trail)."""
    try:
        round_.copy().play(Move(card))
    except IllegalMove as error:
        return t.reason(error.reason, fmt)
    return t("it cannot be played now")


def why_unusable(
    round_: Round, card: Card, items: Sequence[Item], t: Lang = EN, fmt: Fmt = str
) -> str:
    """Why ``card`` can neither take nor build with exactly ``items`` (the engine's words
    for the capture; a build of the sum is suggested when there is none of that)."""
    try:
        round_.copy().play(Move(card, items))
    except IllegalMove as error:
        return t.reason(error.reason, fmt)
    return t("that is not a move of this game")


def group_text(cards: Sequence[Card], fmt: Fmt) -> str:
    """``5♥+3♣``."""
    return "+".join(fmt(c) for c in cards)


def item_text(item: Item, fmt: Fmt) -> str:
    """A card, or a build as ``[8 = 5♥+3♣ | 8♠]``."""
    if isinstance(item, Card):
        return fmt(item)
    groups = " | ".join(group_text(group, fmt) for group in item.groups)
    return f"[{item.value} = {groups}]"


def items_text(items: Iterable[Item], fmt: Fmt) -> str:
    """Table items separated by spaces."""
    return " ".join(item_text(item, fmt) for item in items)


Groups = tuple[tuple[Card, ...], ...]


def after(round_: Round, move: Move) -> Round:
    """A copy of the round with ``move`` played: the builds it leaves show how the variant
    grouped their cards. ``IllegalMove`` if it is not legal."""
    copy = round_.copy()
    copy.play(move)
    return copy


def groups_with(later: Round | None, card: Card, fallback: Sequence[Card]) -> Groups:
    """The groups of the build holding ``card`` in ``later`` (else one group)."""
    for item in later.table if later is not None else ():
        if isinstance(item, Build) and card in item.cards:
            return item.groups
    return (tuple(fallback),)


def groups_text(groups: Groups, fmt: Fmt) -> str:
    """``5♠+5♦ | 4♦+6♣``."""
    return " | ".join(group_text(g, fmt) for g in groups)


def _and(t: Lang) -> str:
    return f" {t.pgettext('list', 'and')} "


def build_words(move: Move, fmt: Fmt, later: Round | None, t: Lang = EN) -> tuple[str, dict]:
    """A build move as ``(kind, fields)``, given the round after it (``later``): ``"build"``
    (``value``, ``groups``: ``8``, ``3♣+5♥``), ``"raise"`` (``target``, ``value``,
    ``card``, and ``adding`` when groups join it) or ``"add"`` (``groups``, ``target``)."""
    groups = groups_with(later, move.card, [move.card, *cards_of(move.using)])
    builds = [item for item in move.using if isinstance(item, Build)]
    if not builds:
        return "build", {"value": move.value, "groups": groups_text(groups, fmt)}
    old = {group for build in builds for group in build.groups}
    new = [group for group in groups if group not in old]
    target = items_text(builds, fmt)
    if any(b.value != move.value for b in builds):
        extra = [g for g in new if move.card not in g]
        fields = {"target": target, "value": move.value, "card": fmt(move.card)}
        if extra:
            fields["adding"] = _and(t).join(group_text(g, fmt) for g in extra)
            return "raise-adding", fields
        return "raise", fields
    return "add", {"groups": _and(t).join(group_text(g, fmt) for g in new), "target": target}


# A build move as a menu option (imperative) and as the last move (past tense).
BUILD_LABELS = {
    "build": N_("Build {value}: {groups}"),
    "raise": N_("Raise {target} to {value} with {card}"),
    "raise-adding": N_("Raise {target} to {value} with {card}, adding {adding}"),
    "add": N_("Add {groups} to {target}"),
}
BUILD_SENTENCES = {
    "build": N_("{name} built {value}: {groups}"),
    "raise": N_("{name} raised {target} to {value} with {card}"),
    "raise-adding": N_("{name} raised {target} to {value} with {card}, adding {adding}"),
    "add": N_("{name} added {groups} to {target}"),
}


def table_builds_text(
    move: Move, fmt: Fmt, later: Round | None, t: Lang = EN, *, past: bool = False
) -> str:
    """``build 10: 5♠+5♦ | 4♦+6♣`` for each build a trail makes from table cards
    (``past``: ``built 10: …``)."""
    made = []
    for build in move.table_builds:
        cards = cards_of(build.using)
        groups = groups_text(groups_with(later, cards[0], cards), fmt)
        if past:
            made.append(t("built {value}: {groups}", value=build.value, groups=groups))
        else:
            made.append(t("build {value}: {groups}", value=build.value, groups=groups))
    return ", ".join(made)


def move_label(round_: Round, move: Move, fmt: Fmt, t: Lang = EN) -> str:
    """A menu option for one legal move, in the imperative (at most 100 characters)."""
    if move.kind == "capture":
        return t("Take {cards}", cards=items_text(move.taken, fmt))[:100]
    later = after(round_, move)
    if move.kind == "build":
        kind, fields = build_words(move, fmt, later, t)
        return t(BUILD_LABELS[kind], **fields)[:100]
    if move.table_builds:
        builds = table_builds_text(move, fmt, later, t)
        return t("Trail {card} and {builds}", card=fmt(move.card), builds=builds)[:100]
    return t("Trail {card}", card=fmt(move.card))


def mid_sentence(label: str) -> str:
    """A menu label written inside a sentence: its first word in lower case (``Take 6♦``
    → ``take 6♦``, ``Ta 6♦`` → ``ta 6♦``); a label that starts with a card (``Q♦``,
    ``10♠``) or a name is left as it is (a word of two letters or more starts lower case)."""
    head = label[:2]
    if len(head) == 2 and head.isalpha() and head[0].isupper() and head[1].islower():
        return label[0].lower() + label[1:]
    return label


def move_sentence(name: str, move: Move, fmt: Fmt, later: Round | None = None, t: Lang = EN) -> str:
    """The move in the past tense, given the round after it (for the groups of builds):
    ``Anna raised [5 = 5♥] to 8 with 3♣``."""
    if move.kind == "capture":
        taken = items_text(move.taken, fmt)
        return t(
            "{name} played {card} and took {cards}", name=name, card=fmt(move.card), cards=taken
        )
    if move.kind == "build":
        kind, fields = build_words(move, fmt, later, t)
        return t(BUILD_SENTENCES[kind], name=name, **fields)
    if move.table_builds:
        builds = table_builds_text(move, fmt, later, t, past=True)
        return t(
            "{name} trailed {card} and {builds}", name=name, card=fmt(move.card), builds=builds
        )
    return t("{name} trailed {card}", name=name, card=fmt(move.card))


def matching(round_: Round, card: Card, items: Sequence[Item]) -> list[Move]:
    """The legal moves of ``card`` that use exactly ``items`` of the table, best first."""
    chosen = sorted(map(str, items))
    found = [m for m in round_.moves.of(card) if sorted(map(str, _used(m))) == chosen]
    return _ranked(round_, found)  # stable: the order of the ranked list, filtered


def _used(move: Move) -> list[Item]:
    return [*move.taken, *move.using, *(i for b in move.table_builds for i in b.using)]
