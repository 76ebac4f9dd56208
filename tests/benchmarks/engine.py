"""Engine speed: run as a script, ``python tests/benchmarks/engine.py``; prints medians.

``python tests/benchmarks/engine.py building`` runs only the building games' part (with
the hand view's menus), ``nordic`` only the Nordic part, ``krypkasino`` only Krypkasino's
(random 6-player rounds and ``legal_moves`` on the busiest tables crawling players reach),
``menus`` only the hand view's menus on 16-item building tables, ``rounds`` only random
rounds per second of every variant, beside issue 23's figures and targets (the default
runs all).

Searches are timed cold (the engine's caches of positions are cleared before each timed
call), so the figures are what a new position costs. Times are this process's CPU time
(``time.process_time``): the machines are shared, and CPU time is what other work on them
disturbs least. A played card that is on the table is swapped for another of its rank (a
deck holds each card once); with none left, that rank is not played.

The last two parts time what the bot and the computer players do on the worst tables
play reaches, when everyone trails (``tests/engine/worst.py``): the capture menu's
search, each level's move, the hint and its explanation.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.ai import choose_move, hint
from bot.ai.explain import explain_move
from bot.ai.fastcap import clear_caches as clear_ai_caches
from bot.engine import Build, Card, Move, Round, Rules, capture_options, parse_cards, rules_for
from bot.engine.building import holds
from bot.engine.captures import EFFORT
from bot.engine.captures import clear_caches as clear_capture_caches
from bot.engine.cards import SUITS, full_deck
from bot.engine.families import clear_caches as clear_building_caches
from tests.engine.worst import low_table, trailed_all_round, worst_positions

SWEDISH = rules_for("swedish")
MULLE = rules_for("mulle")
FIXED = {
    "8-card table": "3H 5C 7D 9S JH KD 2C 6S",
    "12-card table": "AS 3H 5C 7D 9S JH KD 2C 6S 8H 10C QD",
    "12-card low table": "AS 2H 3D 5C 6S 8H 4D 9C AH 7S 10C 2D",
    "20-card table A-10 of spades and hearts": (
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S AH 2H 3H 4H 5H 6H 7H 8H 9H 10H"
    ),
}
NASTY = {
    "A-6 of every suit": (
        SWEDISH,
        "AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 5S 5H 5D 5C 6S 6H 6D 6C",
    ),
    "A-5 x4, 6-8 x2": (
        SWEDISH,
        "AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 5S 5H 5D 5C 6S 6H 7D 8C",
    ),
    "mulle: 8 aces, 8 twos, 8 threes": (
        MULLE,
        "AS AH AD AC AS AH AD AC 2S 2H 2D 2C 2S 2H 2D 2C 3S 3H 3D 3C 3S 3H 3D 3C",
    ),
    "A-Q, two of each": (
        SWEDISH,
        "AS AH 2D 2C 3S 3H 4D 4C 5S 5H 6D 6C 7S 7H 8D 8C 9S 9H 10D 10C JS JH QD QC",
    ),
}
PLAYED = parse_cards("AC KC QC JC 10S 9D 8D 7C 6H 5D 4H 3C 2C")


def playable(rules: Rules, card: Card, table: list[Card]) -> Card | None:
    """``card``, or one of its rank that can be played to ``table`` (a deck holds each card
    once, or twice in Mulle); ``None`` if every one of that rank is on the table."""
    for suit in (card.suit, *SUITS):
        twin = Card(card.rank, suit)
        if table.count(twin) < rules.decks:
            return twin
    return None


def clear_caches() -> None:
    clear_capture_caches()
    clear_building_caches()


def timed(call: Callable[[], object]) -> float:
    """Milliseconds one cold call takes."""
    clear_caches()
    clear_ai_caches()
    start = time.process_time()
    call()
    return (time.process_time() - start) * 1000


def report(label: str, samples: list[float]) -> None:
    print(f"  {label:<48} median {statistics.median(samples):8.3f} ms   max {max(samples):8.2f} ms")


def fixed_tables() -> None:
    print("capture_options, fixed tables (every played rank, full list):")
    for label, text in FIXED.items():
        table = parse_cards(text)
        played = [p for c in PLAYED * 5 if (p := playable(SWEDISH, c, table))]
        samples = [timed(lambda c=c, t=table: capture_options(SWEDISH, c, t)) for c in played]
        report(label, samples)


def random_tables(rng: random.Random, count: int) -> list[float]:
    print(f"capture_options, random tables ({count} each, full list; 24 with limit=24):")
    worst: tuple[float, str] = (0.0, "")
    for size in (8, 12, 20, 24):
        samples = []
        for _ in range(count):
            cards = rng.sample(full_deck(), size + 1)
            limit = 24 if size == 24 else None
            ms = timed(lambda c=cards, k=limit: capture_options(SWEDISH, c[0], c[1:], limit=k))
            samples.append(ms)
            worst = max(worst, (ms, f"{cards[0]} on {' '.join(map(str, cards[1:]))}"))
        report(f"random {size}-card tables", samples)
    print(f"  worst random case: {worst[0]:.2f} ms, {worst[1]}")
    return [worst[0]]


def the_a_to_ten_table() -> None:
    print("capture_options, full list on A-10 of spades and hearts (20 cards):")
    table = parse_cards(FIXED["20-card table A-10 of spades and hearts"])
    for name in ("KC", "AC", "10C"):
        played = Card.parse(name)
        samples = [timed(lambda p=played: capture_options(SWEDISH, p, table)) for _ in range(15)]
        count = len(capture_options(SWEDISH, played, table))
        report(f"{name}: {count} maximal captures", samples)


def limited_nasty(rng: random.Random) -> None:
    print("capture_options with limit=24 on nasty tables (every played rank):")
    worst: tuple[float, str] = (0.0, "")
    for label, (rules, text) in NASTY.items():
        table = parse_cards(text)
        samples = []
        for played in filter(None, (playable(rules, c, table) for c in PLAYED)):
            ms = timed(lambda p=played, r=rules, t=table: capture_options(r, p, t, limit=24))
            samples.append(ms)
            worst = max(worst, (ms, f"{played} on {label}"))
        report(label, samples)
    for _ in range(300):
        size = rng.randint(13, 24)
        low = [c for c in full_deck() if c.rank <= 7]
        cards = [*rng.sample(low, size), rng.choice(full_deck())]
        cards[-1] = playable(SWEDISH, cards[-1], cards[:-1]) or Card(13, "C")
        ms = timed(lambda c=cards: capture_options(SWEDISH, c[-1], c[:-1], limit=24))
        worst = max(worst, (ms, f"{cards[-1]} on {' '.join(map(str, cards[:-1]))}"))
    print(f"  worst (incl. 300 random low-card tables of 13-24): {worst[0]:.2f} ms, {worst[1]}")


def legal_moves_12(rng: random.Random) -> None:
    samples = []
    for _ in range(300):
        cards = rng.sample(full_deck(), 16)
        round_ = Round.from_position(SWEDISH, [cards[:4], []], cards[4:])
        samples.append(timed(round_.legal_moves))
    print("legal_moves(), 4-card hand against a 12-card table:")
    report("random positions", samples)


def random_move(round_: Round, rng: random.Random, lazy: bool = False) -> Move:
    """A legal move chosen uniformly: from ``legal_moves()``, or (``lazy``) by number from
    the lazy view (``count()``, then ``pick(i)``): the same move for the same ``rng``
    (``choice`` and ``randrange`` draw the number alike, and the view keeps the order)."""
    if lazy:
        moves = round_.moves
        return moves.pick(rng.randrange(moves.count()))
    return rng.choice(round_.legal_moves())


def random_rounds(
    name: str = "swedish",
    seconds: float = 1.0,
    batches: int = 5,
    players: int = 2,
    lazy: bool = False,
    quiet: bool = False,
) -> float:
    """Random rounds per second (the median of ``batches``), printed unless ``quiet``."""
    rules = rules_for(name)
    rng = random.Random(7)
    rates = []
    seed = 0
    for _ in range(batches):
        clear_caches()
        done, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            round_ = Round.deal(rules, players, seed=seed)
            while not round_.is_over:
                round_.play(random_move(round_, rng, lazy))
            round_.score()
            done += 1
            seed += 1
        rates.append(done / (time.process_time() - start))
    rate = statistics.median(rates)
    if not quiet:
        title = {"swedish": "Swedish", "casino": "Casino", "royal": "Royal Casino"}.get(name, name)
        how = "the lazy view's count() and pick(i)" if lazy else "legal_moves()"
        print(f"random {players}-player {title} rounds (uniform over {how}):")
        print(f"  median {rate:8.0f} rounds/s   (batches: {', '.join(f'{r:.0f}' for r in rates)})")
    return rate


def worst_tables() -> None:
    """The paths the bot and the computer players take, on the worst tables play reaches."""
    print(
        f"worst reachable tables: capture_options(limit=24), every rank played (effort {EFFORT}):"
    )
    worst: tuple[float, str] = (0.0, "")
    for label, round_ in worst_positions().items():
        table = round_.table
        cards = [playable(round_.rules, Card(rank, "C"), table) for rank in range(1, 14)]
        samples = []
        for card in filter(None, cards):
            ms = timed(lambda c=card, r=round_: capture_options(r.rules, c, r.table, limit=24))
            samples.append(ms)
            worst = max(worst, (ms, f"{card} on {label}"))
        report(f"{label} ({len(table)})", samples)
    print(f"  worst: {worst[0]:.2f} ms, {worst[1]}")


def trailing_positions() -> dict[str, list[Round]]:
    """Positions from rounds in which everyone trails: tables from 28 (56) cards to all."""
    chosen = {}
    for variant, low in (("swedish", 28), ("mulle", 56)):
        positions = [r.copy() for r in trailed_all_round(variant, 2) if len(r.table) >= low]
        step = max(1, len(positions) // 8)
        chosen[variant] = [low_table(variant, 2), *positions[::step], positions[-1]]
    return chosen


def worst_players() -> None:
    """choose_move at each level, the hint and its explanation, on trailed tables."""
    print("worst reachable tables: the computer players and hints (CPU ms, default budget):")
    families = trailing_positions()
    for variant, positions in families.items():
        sizes = f"{len(positions[0].table)}-{len(positions[-1].table)}"
        for level in ("easy", "normal", "hard"):
            samples = [
                timed(lambda r=r, lv=level: choose_move(r, r.to_move, lv, seed=1))
                for r in positions
            ]
            report(f"{variant} 2p, tables of {sizes}: {level}", samples)
        samples = [timed(lambda r=r: hint(r, r.to_move, seed=1)) for r in positions]
        report(f"{variant} 2p, tables of {sizes}: hint", samples)
        samples = []
        for r in positions:
            for card in dict.fromkeys(r.hands[r.to_move]):
                moves = [
                    Move(card),
                    *(Move(card, t) for t in capture_options(r.rules, card, r.table, limit=3)),
                ]
                samples.extend(timed(lambda m=m, r=r: explain_move(r, r.to_move, m)) for m in moves)
        report(f"{variant} 2p, tables of {sizes}: explain_move", samples)


# -- the building games ----------------------------------------------------------------------

BUILDING = ["casino", "royal", "mulle-glimne", "south-african", "swazi", "sotho"]


def _random_build(rules, rng: random.Random, deck: list[Card], owner: int) -> Build | None:
    """A build of random cards taken from ``deck``: one to three groups of one value."""
    top = 16 if rules.finnish_values else 14
    for _ in range(20):
        value = rng.randint(2, top)
        groups = []
        for _ in range(rng.choice((1, 1, 2, 3))):
            for _ in range(20):
                cards = rng.sample(deck, rng.randint(1, 3))
                totals = {0}
                for card in cards:
                    totals = {t + v for t in totals for v in rules.table_values[card.rank]}
                if value in totals:
                    groups.append(cards)
                    for card in cards:
                        deck.remove(card)
                    break
        if sum(map(len, groups)) >= 2:
            return Build(groups, value, owner)
        for group in groups:
            deck.extend(group)
    return None


def building_position(name: str, rng: random.Random, items: int, hand: int = 4) -> Round:
    """A valid random position: ``items`` table items (a few of them builds), 2 players."""
    rules = rules_for(name)
    deck = rules.deck()
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(hand)], [deck.pop() for _ in range(hand)]]
    table: list = []
    for _ in range(rng.randint(0, 3)):
        owner = rng.randrange(2)
        build = _random_build(rules, rng, deck, owner)
        if build is None or (rules.builds == "swazi" and build.value in [b.value for b in table]):
            continue
        owned = {b.value for b in table if b.owner == owner} | {build.value}
        if holds(rules, owned, hands[owner]):
            table.append(build)
    while len(table) < items:
        table.append(deck.pop())
    piles = [[deck.pop() for _ in range(rng.randint(0, 2))] for _ in range(2)]
    return Round.from_position(rules, hands, table, piles=piles, to_move=0)


def building_legal_moves(rng: random.Random, count: int = 300) -> None:
    """Random positions: up to three builds, the rest loose cards, a few pile cards.

    Swazi and Sotho list far more moves (table builds, pile cards), so they get fewer
    samples on 16-item tables.
    """
    print("legal_moves() in the building games, 2 players, 4-card hand (cold):")
    for name in BUILDING:
        samples = []
        for _ in range(count):
            position = building_position(name, rng, 8)
            samples.append(timed(position.legal_moves))
        report(f"{name}: random 8-item tables", samples)
    print("legal_moves() on random 16-item tables, 4-card hand (cold; the worst found):")
    for name in BUILDING:
        samples = []
        worst: tuple[float, str] = (0.0, "")
        tries = count if rules_for(name).builds != "swazi" else count // 15
        for _ in range(tries):
            position = building_position(name, rng, 16)
            ms = timed(position.legal_moves)
            samples.append(ms)
            if ms > worst[0]:
                moves = len(position.legal_moves())
                shown = " ".join(map(str, position.table))
                hand = " ".join(map(str, position.hands[0]))
                worst = (ms, f"{moves} moves; hand {hand}; table {shown}")
        report(f"{name}: {tries} random 16-item tables", samples)
        print(f"    worst: {worst[0]:.1f} ms, {worst[1]}")


# The issue's figures (issue 23, before the lazy view), printed beside today's.
OLD_ROUNDS = {
    "swedish": 1050,
    "casino": 820,
    "royal": 615,
    "mulle-glimne": 280,
    "south-african": 245,
    "swazi": 56,
    "sotho": 72,
}
ROUND_TARGETS = {
    "swedish": 1500,
    "casino": 1200,
    "royal": 800,
    "mulle-glimne": 800,
    "south-african": 800,
    "swazi": 300,
    "sotho": 300,
}
MENU_TARGET = 50.0  # ms: the hand view's first menu on any 16-item table


def first_menu(rnd: Round) -> list:
    """What ``cogs.play.views.hand_view`` computes for the player to move in a game with builds:
    one option per hand card (``_building_card_option`` on the engine's lazy view; the
    discord ``View`` around the options is not built)."""
    from cogs.play.views import _building_card_option

    by_card = rnd.moves.by_card()
    hand = rnd.hands[rnd.to_move]
    return [_building_card_option(rnd, card, i, by_card[card]) for i, card in enumerate(hand)]


def old_first_menu(rnd: Round) -> list:
    """The same options as :func:`first_menu` made the old way: every move listed and
    ranked (``tests.engine.busy.moves_by_card``)."""
    from tests.bot.test_lazy_menus import old_card_option
    from tests.engine.busy import moves_by_card

    by_card = moves_by_card(rnd)
    hand = rnd.hands[rnd.to_move]
    return [old_card_option(rnd, card, i, by_card.get(card, [])) for i, card in enumerate(hand)]


def menu_positions(name: str, rng: random.Random, count: int) -> list[Round]:
    """Random 16-item tables of a variant (the benchmark's), the busiest known ones first."""
    from tests.engine.busy import busy_positions

    known = [r for label, r in busy_positions().items() if label.split(":")[0] == name]
    return known + [building_position(name, rng, 16) for _ in range(count)]


def hand_menus(count: int = 60, runs: int = 3) -> None:
    """The hand view's menus on 16-item tables of every building variant (cold caches,
    CPU ms): the first menu (every card's option: can it take, build, trail?), and each
    card's take menu (``ranked_moves``, the best 25 moves; and with its labels,
    ``_move_options``, which plays each move on a copy to word it). Each position is
    timed ``runs`` times; its median counts."""
    from cogs.play.views import _move_options, ranked_moves

    print(
        f"hand view menus on random 16-item tables ({count} each + the busy ones; "
        f"cold; median of {runs} runs per position; first menu without the discord View):"
    )
    rng = random.Random(2028)
    first_menu(building_position("casino", rng, 4))  # imports the bot's views untimed
    for name in BUILDING:
        firsts, olds, takes, labelled = [], [], [], []
        worst: tuple[float, str] = (0.0, "")
        for rnd in menu_positions(name, rng, count if rules_for(name).builds != "swazi" else 20):
            ms = statistics.median(timed(lambda r=rnd: first_menu(r.copy())) for _ in range(runs))
            firsts.append(ms)
            if ms > worst[0]:
                worst = (ms, f"hand {' '.join(map(str, rnd.hands[0]))}")
            olds.append(timed(lambda r=rnd: old_first_menu(r.copy())))
            for card in dict.fromkeys(rnd.hands[rnd.to_move]):
                takes.append(timed(lambda r=rnd, c=card: ranked_moves(r.copy(), c)))
                labelled.append(
                    timed(lambda r=rnd, c=card: _move_options(r, ranked_moves(r.copy(), c)))
                )
        met = "met" if max(firsts) < MENU_TARGET else "NOT met"
        report(f"{name}: first menu (target < {MENU_TARGET:.0f} ms: {met})", firsts)
        print(f"    worst first menu: {worst[0]:.1f} ms, {worst[1]}")
        report(f"{name}: first menu the old way (moves_by_card)", olds)
        report(f"{name}: take menu, ranked_moves (per card)", takes)
        report(f"{name}: take menu with labels (_move_options)", labelled)
    print("  the busy tables (tests/engine/busy.py), first menu / old first menu / take menus:")
    from tests.engine.busy import busy_positions

    for label, rnd in busy_positions().items():
        first = statistics.median(timed(lambda r=rnd: first_menu(r.copy())) for _ in range(runs))
        old = statistics.median(timed(lambda r=rnd: old_first_menu(r.copy())) for _ in range(runs))
        take = [
            timed(lambda r=rnd, c=card: ranked_moves(r.copy(), c))
            for card in dict.fromkeys(rnd.hands[rnd.to_move])
        ]
        print(
            f"    {label:<18} {rnd.moves.count():>6} moves: first menu {first:6.2f} ms "
            f"(old {old:7.1f} ms); take menus {statistics.median(take):6.1f} ms median, "
            f"{max(take):6.1f} max"
        )


def random_rounds_all() -> None:
    """Random 2-player rounds per second of every variant (uniform over the legal moves,
    listed whole and through the lazy view), beside issue 23's figures and targets."""
    print("random 2-player rounds per second (median of batches of 1 s CPU):")
    print(f"  {'variant':<15}{'legal_moves()':>14}{'lazy view':>11}{'issue 23':>10}{'target':>8}")
    for name in ("swedish", "casino", "royal", "mulle-glimne", "south-african", "swazi", "sotho"):
        batches = 5 if name in ("swedish", "casino", "royal") else 3
        listed = random_rounds(name, batches=batches, quiet=True)
        lazy = random_rounds(name, batches=batches, lazy=True, quiet=True)
        target = ROUND_TARGETS[name]
        best = max(listed, lazy)
        verdict = "met" if best >= target else f"NOT met: {target / best:.1f}x short"
        print(
            f"  {name:<15}{listed:>14.0f}{lazy:>11.0f}{OLD_ROUNDS[name]:>10}{target:>8}   {verdict}"
        )


def crawling_rounds(options: dict, players: int, seed: int) -> list[Round]:
    """Every position of a Krypkasino round whose players krypa whenever they can (and
    else take the fewest cards): the tables stay as full as play lets them."""
    rules = rules_for("krypkasino", **options)
    rng = random.Random(seed)
    rnd = Round.deal(rules, players, seed=seed)
    seen = []
    while not rnd.is_over:
        seen.append(rnd.copy())
        moves = rnd.legal_moves()
        krypa = [m for m in moves if m.is_trail]
        fewest = min(len(m.taken) for m in moves)
        rnd.play(rng.choice(krypa or [m for m in moves if len(m.taken) == fewest]))
    return seen


def busiest_krypkasino(count: int = 24) -> dict[str, list[Round]]:
    """The busiest tables reached (most cards, then most legal moves), per rule set."""
    found = {}
    for label, options in (("take_all", {}), ("take_all off", {"take_all": False})):
        positions = [
            rnd for seed in range(120) for rnd in crawling_rounds(options, 2 + seed % 5, seed)
        ]
        positions.sort(key=lambda r: (len(r.table), len(r.legal_moves())), reverse=True)
        found[label] = positions[:count]
    return found


def krypkasino() -> None:
    """Random 6-player Krypkasino rounds per second, and ``legal_moves`` (and the lazy
    view's count) on the busiest tables crawling players reach, cold."""
    for lazy in (False, True):
        random_rounds("krypkasino", players=6, lazy=lazy, batches=3)
    print("krypkasino legal_moves() on the busiest reachable tables (cold, 24 per rule set):")
    for label, positions in busiest_krypkasino().items():
        listed, counted = [], []
        for rnd in positions:
            clear_caches()
            listed.append(timed(rnd.copy().legal_moves))
            clear_caches()
            counted.append(timed(rnd.copy().moves.count))
        sizes = f"{len(positions[-1].table)}-{len(positions[0].table)} cards"
        most = max(len(r.legal_moves()) for r in positions)
        report(f"{label}, tables of {sizes}: legal_moves", listed)
        report(f"{label}, up to {most} moves: moves.count", counted)


def main() -> None:
    parts = set(sys.argv[1:]) or {"nordic", "building", "krypkasino", "rounds"}
    rng = random.Random(2026)
    assert Move  # the public API is what is timed
    if "nordic" in parts:
        fixed_tables()
        random_tables(rng, 200)
        the_a_to_ten_table()
        limited_nasty(rng)
        legal_moves_12(rng)
        worst_tables()
        worst_players()
    if "building" in parts:
        building_legal_moves(random.Random(2027))
    if "krypkasino" in parts:
        krypkasino()
    if "building" in parts or "menus" in parts:
        hand_menus()
    if "rounds" in parts:
        random_rounds_all()


if __name__ == "__main__":
    main()
