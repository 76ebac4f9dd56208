"""A brute-force move generator for the building games, written from RULES.md section 7.

It shares no code with the engine's generator: it tries every subset of the usable items
with every declared value and keeps what the rules allow, so it is slow and obviously
right. ``tests/engine/test_building_brute.py`` compares it with ``Round.legal_moves()``.
"""

from __future__ import annotations

from itertools import combinations, permutations

from bot.engine import Build, Card, Move, Round

MAX_VALUE = 16


def values_in_hand(rules, card):
    """What a card counts when played (or held), per RULES.md."""
    if card.rank > 10 and not rules.face_numbers:
        return ()
    if rules.finnish_values:
        if card.rank == 1:
            return (14,)
        if (card.rank, card.suit) == (2, "S"):
            return (15,)
        if (card.rank, card.suit) == (10, "D"):
            return (16,)
        return (card.rank,)
    if card.rank == 1:
        return (1, 14) if rules.ace_high else (1,)
    return (card.rank,)


def values_on_table(rules, card):
    if card.rank > 10 and not rules.face_numbers:
        return ()
    if rules.finnish_values:
        return (card.rank,)
    if card.rank == 1:
        return (1, 14) if rules.ace_high else (1,)
    return (card.rank,)


def can_hold(rules, values, cards):
    """Each distinct value gets its own card (tried by brute force)."""
    values = sorted(set(values))
    if len(values) > len(cards):
        return False
    for chosen in permutations(range(len(cards)), len(values)):
        if all(v in values_in_hand(rules, cards[i]) for v, i in zip(values, chosen, strict=True)):
            return True
    return False


def splits(atoms, target):
    """Whether atoms split into groups each adding up to ``target``.

    An atom is (values, kind): kind "whole" must be a group by itself (and its one value
    must be the target); "hand" is the played card; "raise" (a strict simple build of
    another value) may only share a group with the played card, the two alone.
    """
    if not atoms:
        return True
    first, rest = atoms[0], atoms[1:]
    for size in range(len(rest) + 1):
        for chosen in combinations(range(len(rest)), size):
            group = [first] + [rest[i] for i in chosen]
            kinds = sorted(a[1] for a in group)
            if "whole" in kinds and len(group) > 1:
                continue
            if "raise" in kinds and kinds != ["hand", "raise"]:
                continue
            totals = {0}
            for values, _ in group:
                totals = {t + v for t in totals for v in values}
            if target not in totals:
                continue
            if splits([a for i, a in enumerate(rest) if i not in chosen], target):
                return True
    return False


def atom(rules, item, target, permissive):
    """An item as an atom for ``splits`` (``None``: it can never be in groups of target)."""
    if isinstance(item, Card):
        values = values_on_table(rules, item)
        return (values, "card") if values else None
    if item.value == target:
        return ((item.value,), "whole")
    if item.multiple:
        return None
    return ((item.value,), "card" if permissive else "raise")


def reference_moves(rnd: Round) -> set[Move]:
    rules = rnd.rules
    family = rules.builds
    seat = rnd.to_move
    hand = rnd.hands[seat]
    table = list(rnd.table)
    tops = []
    if family == "south-african":
        tops = [pile[-1] for index, pile in enumerate(rnd.piles) if pile and index != seat]
    items = table + tops
    n_table = len(table)
    owned_positions = [
        i for i, it in enumerate(table) if isinstance(it, Build) and it.owner == seat
    ]
    drift_free = family == "south-african" and rnd.players == 2 and rnd.deal_number >= 2
    permissive = rules.permissive
    out: set[Move] = set()

    def owned_after(gone):
        return {table[i].value for i in owned_positions if i not in gone}

    for card in set(hand):
        rest = list(hand)
        rest.remove(card)
        owning = bool(owned_positions)
        # Trail.
        if family == "south-african":
            trail_ok = not owning or drift_free
        else:
            trail_ok = permissive or not owning
        if trail_ok and can_hold(rules, owned_after(()), rest):
            out.add(Move(card))
        subsets = [
            chosen
            for size in range(1, len(items) + 1)
            for chosen in combinations(range(len(items)), size)
        ]
        # Captures.
        for chosen in subsets:
            taken = [items[i] for i in chosen]
            if not can_hold(rules, owned_after(set(chosen)), rest):
                continue
            hand_values = values_in_hand(rules, card)
            if not hand_values:
                pair = len(taken) == 1 and isinstance(taken[0], Card)
                if pair and taken[0].rank == card.rank and chosen[0] < n_table:
                    out.add(Move(card, taken))
                continue
            for value in hand_values:
                atoms = [atom(rules, it, value, permissive) for it in taken]
                if None in atoms:
                    continue
                if splits(atoms, value):
                    out.add(Move(card, taken))
                    break
        # Builds with the played card.
        if values_on_table(rules, card):
            for chosen in subsets:
                using = [items[i] for i in chosen]
                uses_pile = any(i >= n_table for i in chosen)
                adds_own = any(i in owned_positions for i in chosen)
                if family == "south-african":
                    if uses_pile and not adds_own:
                        continue
                    if owning and not adds_own and not drift_free:
                        continue
                elif uses_pile:
                    continue
                for value in range(1, MAX_VALUE + 1):
                    if not any(value in values_in_hand(rules, c) for c in rest):
                        continue
                    atoms = [atom(rules, it, value, permissive) for it in using]
                    if None in atoms:
                        continue
                    played = (values_on_table(rules, card), "hand")
                    if not splits([played, *atoms], value):
                        continue
                    if can_hold(rules, owned_after(set(chosen)) | {value}, rest):
                        out.add(Move.build(card, using, value))
        # Permissive: a build from table cards alone, then a trail.
        if permissive and trail_ok:
            for chosen in subsets:
                if len(chosen) < 2 or any(i >= n_table for i in chosen):
                    continue
                using = [items[i] for i in chosen]
                for value in range(1, MAX_VALUE + 1):
                    if not any(value in values_in_hand(rules, c) for c in rest):
                        continue
                    atoms = [atom(rules, it, value, True) for it in using]
                    if None in atoms or not splits(atoms, value):
                        continue
                    if can_hold(rules, owned_after(set(chosen)) | {value}, rest):
                        out.add(Move(card, table_builds=[(value, using)]))
    return out
