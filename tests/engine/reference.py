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


# -- Swazi and Sotho (7.4, 7.5) ---------------------------------------------------------------

PILE_DEPTH = 4


def partitions(elements):
    """Every set partition of ``elements`` (a list), as lists of blocks."""
    if not elements:
        yield []
        return
    first, rest = elements[0], elements[1:]
    for smaller in partitions(rest):
        yield [[first], *smaller]
        for i in range(len(smaller)):
            yield [*smaller[:i], [first, *smaller[i]], *smaller[i + 1 :]]


def adds_up(rules, cards, value):
    totals = {0}
    for c in cards:
        totals = {t + v for t in totals for v in values_on_table(rules, c)}
    return value in totals


def swazi_reference(rnd: Round) -> set[Move]:
    """Every legal Swazi or Sotho turn of the player to move, by brute force; with the
    ``demands`` option, the turns that meet the demands, or all turns if none does."""
    found = _swazi_reference(rnd, rnd.rules.demands)
    if not found and rnd.rules.demands:
        found = _swazi_reference(rnd, False)
    return found


def _swazi_reference(rnd: Round, demands: bool) -> set[Move]:
    rules = rnd.rules
    seat = rnd.to_move
    teams = rules.teams
    side = seat % 2 if teams else seat
    partner = (seat + 2) % 4 if teams else None
    hand = rnd.hands[seat]
    table = list(rnd.table)
    # Usable pile cards: (pile, depth, card).
    if rules.shared_piles and teams:
        piles = [i for i in (0, 1) if i != side]
    elif rules.shared_piles:
        piles = [i for i in range(rnd.players) if i != seat]
    else:
        piles = [i for i in range(rnd.players) if i != seat]
    pile_cards = []
    for index in piles:
        for depth, c in enumerate(reversed(rnd.piles[index][-PILE_DEPTH:])):
            pile_cards.append((index, depth, c))
    elements = [("t", i) for i in range(len(table))] + [("p", i) for i in range(len(pile_cards))]

    def item(e):
        return table[e[1]] if e[0] == "t" else pile_cards[e[1]][2]

    def is_build(e):
        return e[0] == "t" and isinstance(table[e[1]], Build)

    def side_of(owner):
        return owner % 2 if teams else owner

    restricted = rnd.players == 2 and not rules.crazy and rnd.deal_number < 2
    crazy_restricted = rules.crazy and bool(rnd.deck)

    def card_group_ok(block, value, with_played=None):
        """A block of cards (loose/pile, maybe the played card) adding up to value."""
        if any(is_build(e) for e in block):
            return False
        if sum(1 for e in block if e[0] == "p") > 1:
            return False
        cards_ = [item(e) for e in block] + ([with_played] if with_played else [])
        if any(not values_on_table(rules, c) for c in cards_):
            return False
        return adds_up(rules, cards_, value)

    def capture_ok(chosen, card):
        return bool(capture_values(chosen, card))

    def capture_values(chosen, card):
        """The values for which ``chosen`` is a legal capture of ``card`` ({None}: a
        Sotho picture pairing)."""
        values = values_in_hand(rules, card)
        if not values:  # a Sotho picture: loose cards of its rank
            if all(
                e[0] == "t" and isinstance(table[e[1]], Card) and table[e[1]].rank == card.rank
                for e in chosen
            ):
                return {None}
            return set()
        found = set()
        for value in values:
            for blocks in partitions(list(chosen)):
                ok = True
                base = False
                for block in blocks:
                    if len(block) == 1 and is_build(block[0]):
                        ok = ok and table[block[0][1]].value == value
                        base = True
                    elif card_group_ok(block, value):
                        base = base or all(e[0] == "t" for e in block)
                    else:
                        ok = False
                if ok and (base or not any(e[0] == "p" for e in chosen)):
                    found.add(value)
                    break
        return found

    def build_ok(chosen, value, card):
        """How ``chosen`` (with ``card`` unless None) becomes the build of ``value``:
        "kept" (grows the side's build of that value), "changed" (the card changes an
        opponent's simple build), "new", or None when the rules do not allow it."""
        kept = [
            ("t", i)
            for i, b in enumerate(table)
            if isinstance(b, Build) and b.value == value and side_of(b.owner) == side
        ]
        if any(k not in chosen for k in kept):
            return None  # new groups of that value must join the side's build
        others = [e for e in chosen if e not in kept]
        if card is None and not others:
            return None
        own_values = values_on_table(rules, card) if card is not None else ()
        if card is not None and not own_values:
            return None
        for blocks in partitions(others) if others else [[]]:
            for where in [None, *range(len(blocks))] if card is not None else [None]:
                changed = False
                base = False
                ok = True
                for i, block in enumerate(blocks):
                    with_card = card if where == i else None
                    if with_card is not None and len(block) == 1 and is_build(block[0]):
                        b = table[block[0][1]]
                        if (
                            side_of(b.owner) != side
                            and not b.multiple
                            and any(b.value + v == value for v in own_values)
                        ):
                            changed = True
                            continue
                        ok = False
                        break
                    if not card_group_ok(block, value, with_card):
                        ok = False
                        break
                    if all(e[0] == "t" for e in block):
                        base = True
                if not ok:
                    continue
                if card is not None and where is None and value not in own_values:
                    continue
                if changed:
                    return "changed"
                if kept:
                    return "kept"
                groups = len(blocks) + (1 if card is not None and where is None else 0)
                if groups == 1:
                    block = blocks[0] if blocks else []
                    size = len(block) + (1 if card is not None else 0)
                    if size >= 2 and not any(e[0] == "p" for e in block):
                        return "new"
                    continue
                if not any(e[0] == "p" for e in chosen) or base:
                    return "new"
        return None

    def prefix_ok(used):
        for index in piles:
            depths = sorted(
                pile_cards[e[1]][1] for e in used if e[0] == "p" and pile_cards[e[1]][0] == index
            )
            if depths != list(range(len(depths))):
                return False
        return True

    out: set[Move] = set()
    all_subsets = [
        list(c) for size in range(0, len(elements) + 1) for c in combinations(elements, size)
    ]
    candidate_values = sorted(
        {v for c in hand for v in values_in_hand(rules, c)}
        | (
            set(rnd.known[partner])
            | {v for c in rnd.hands[partner] for v in values_in_hand(rules, c)}
            if partner is not None
            else set()
        )
    )
    # Table builds (no hand card) are the same for every card.
    table_builds = []
    for chosen in all_subsets:
        if not chosen:
            continue
        for value in candidate_values:
            how = build_ok(chosen, value, None)
            if how is not None:
                table_builds.append((frozenset(chosen), value, how))
    for card in set(hand):
        rest = list(hand)
        rest.remove(card)
        hand_parts = [("trail", frozenset(), None, None)]
        captures = {
            frozenset(chosen): capture_values(chosen, card) for chosen in all_subsets if chosen
        }
        captures = {c: v for c, v in captures.items() if v}
        if demands:  # the opponents demand everything the card could take
            legal = {c: v for c, v in captures.items() if prefix_ok(c)}
            captures = {
                c: v
                for c, v in legal.items()
                if any(not any(c < o and value in w for o, w in legal.items()) for value in v)
            }
        for chosen in all_subsets:
            if chosen and frozenset(chosen) in captures:
                hand_parts.append(("capture", frozenset(chosen), None, None))
            if values_on_table(rules, card):
                for value in candidate_values:
                    how = build_ok(chosen, value, card)
                    if how is not None:
                        hand_parts.append(("build", frozenset(chosen), value, how))
        for kind, chosen, value, how in hand_parts:
            combos = [[]]
            if kind != "trail":  # builds without the hand card come with a trail only
                pass
            elif rules.table_builds >= 1:
                combos += [[t] for t in table_builds]
            if kind == "trail" and rules.table_builds >= 2:
                combos += [[t, u] for t in table_builds for u in table_builds if t[1] < u[1]]
            for extra in combos:
                sets = [chosen, *(t[0] for t in extra)]
                if sum(len(s) for s in sets) != len(frozenset().union(*sets)):
                    continue
                if kind == "build" and any(t[1] == value for t in extra):
                    continue
                used = frozenset().union(*sets)
                if not prefix_ok(used):
                    continue
                touched = ([(value, how, chosen, True)] if kind == "build" else []) + [
                    (t[1], t[2], t[0], False) for t in extra
                ]
                left = [
                    b for i, b in enumerate(table) if isinstance(b, Build) and ("t", i) not in used
                ]
                values = [b.value for b in left] + [t[0] for t in touched]
                if len(values) != len(set(values)):
                    continue
                if not _swazi_owners_ok(
                    rules, rnd, seat, partner, rest, left, touched, table, card
                ):
                    continue
                mine = sum(1 for b in left if b.owner == seat) + _mine_count(
                    rnd, seat, partner, rest, left, touched, table, rules, card
                )
                if kind == "trail" and mine and (restricted or crazy_restricted):
                    continue
                if restricted and mine > 1:
                    continue
                if demands and _fitting_left(
                    rules, table, pile_cards, piles, used, kind, card, left, touched, side_of, side
                ):
                    continue
                extra_builds = [(t[1], [item(e) for e in t[0]]) for t in extra]
                if kind == "trail":
                    out.add(Move(card, table_builds=extra_builds))
                elif kind == "capture":
                    out.add(Move(card, [item(e) for e in chosen], table_builds=extra_builds))
                else:
                    out.add(
                        Move.build(
                            card, [item(e) for e in chosen], value, table_builds=extra_builds
                        )
                    )
    return out


def _fitting_left(rules, table, pile_cards, piles, used, kind, card, left, touched, side_of, side):
    """Demands: a loose card or pile top (with loose cards, one pile card at most) left
    at the end of the turn that adds up to a build of the mover's side."""
    values = {b.value for b in left if side_of(b.owner) == side} | {t[0] for t in touched}
    loose = [c for i, c in enumerate(table) if isinstance(c, Card) and ("t", i) not in used]
    if kind == "trail":
        loose.append(card)
    loose = [c for c in loose if values_on_table(rules, c)]
    tops = []
    for index in piles:
        mine = [(d, e) for e, (p, d, c) in enumerate(pile_cards) if p == index]
        free = [c for d, e in sorted(mine) if ("p", e) not in used for c in [pile_cards[e][2]]]
        if free and values_on_table(rules, free[0]):
            tops.append(free[0])
    for size in range(1, len(loose) + 1):
        for group in combinations(loose, size):
            if any(adds_up(rules, group, v) for v in values):
                return True
    for top in tops:
        for size in range(len(loose) + 1):
            for group in combinations(loose, size):
                if any(adds_up(rules, [*group, top], v) for v in values):
                    return True
    return False


def _owner_options(seat, partner, rnd, touched, table, card, rules):
    """Per touched build, the owners it may have."""
    options = []
    for value, how, chosen, played in touched:
        if how == "kept":
            kept = [
                table[e[1]]
                for e in chosen
                if e[0] == "t" and isinstance(table[e[1]], Build) and table[e[1]].value == value
            ]
            owner = kept[0].owner
            alts = [owner]
            if partner is not None and owner == seat and played:
                alts.append(partner)
        else:
            alts = [seat]
            if partner is not None and value in rnd.known[partner]:
                alts.append(partner)
        options.append(alts)
    return options


def _assignments(seat, partner, rnd, touched, table, card, rules):
    from itertools import product

    return product(*_owner_options(seat, partner, rnd, touched, table, card, rules))


def _swazi_owners_ok(rules, rnd, seat, partner, rest, left, touched, table, card):
    for owners in _assignments(seat, partner, rnd, touched, table, card, rules):
        need = {seat: {b.value for b in left if b.owner == seat}}
        hands = {seat: rest}
        if partner is not None:
            need[partner] = {b.value for b in left if b.owner == partner}
            hands[partner] = rnd.hands[partner]
        for (value, *_), owner in zip(touched, owners, strict=True):
            need[owner].add(value)
        if all(can_hold(rules, need[s], hands[s]) for s in hands):
            return True
    return False


def _mine_count(rnd, seat, partner, rest, left, touched, table, rules, card):
    """Builds the mover owns among the touched ones, with the engine's preference: the
    mover keeps what it may (fewest handed to the partner)."""
    best = None
    for owners in _assignments(seat, partner, rnd, touched, table, card, rules):
        need = {seat: {b.value for b in left if b.owner == seat}}
        hands = {seat: rest}
        if partner is not None:
            need[partner] = {b.value for b in left if b.owner == partner}
            hands[partner] = rnd.hands[partner]
        for (value, *_), owner in zip(touched, owners, strict=True):
            need[owner].add(value)
        if all(can_hold(rules, need[s], hands[s]) for s in hands):
            count = sum(1 for o in owners if o == seat)
            if best is None or count > best:
                best = count
    return best or 0


def _kryp_groups(values, mask, target):
    """Whether the cards of ``mask`` (bits over ``values``) split into groups of ``target``."""
    if not mask:
        return True
    low = mask & -mask
    rest = mask ^ low
    sub = rest
    while True:  # every group holding the lowest card: it plus any subset of the rest
        group = sub | low
        total = sum(values[i] for i in range(len(values)) if group >> i & 1)
        if total == target and _kryp_groups(values, mask ^ group, target):
            return True
        if not sub:
            return False
        sub = (sub - 1) & rest


def krypkasino_reference(rnd: Round) -> set[Move]:
    """Krypkasino's legal moves from docs/rules.md section 10.4, by brute force: every
    subset of the table tried as a capture (an ace 14 from the hand, 1 on the table); a
    card with a capture must capture (with ``take_all`` only captures that no bigger one
    contains), a card with none krypar; identical cards give each multiset once."""
    rules, table = rnd.rules, list(rnd.table)
    values = [card.rank for card in table]
    moves: set[Move] = set()
    for card in set(rnd.hands[rnd.to_move]):
        target = 14 if card.rank == 1 else card.rank
        found = set()
        for mask in range(1, 1 << len(table)):
            if _kryp_groups(values, mask, target):
                found.add(tuple(sorted(table[i] for i in range(len(table)) if mask >> i & 1)))
        if rules.take_all:
            found = {c for c in found if not any(_contains(d, c) for d in found if d != c)}
        moves |= {Move(card, c) for c in found} if found else {Move(card)}
    return moves


def _contains(bigger, smaller):
    rest = list(bigger)
    for card in smaller:
        if card not in rest:
            return False
        rest.remove(card)
    return True
