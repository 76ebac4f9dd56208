"""The component layouts of the bot's messages (lobby, table, hand, scores)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

import discord

from bot.ai import LEVELS
from bot.engine import Card, CardMoves, Move, Round, capture_options, capture_values
from bot.engine.moves import Item
from bot.i18n import EN, N_, Lang
from bot.models import VARIANT_NAMES, Game, Status, seat_limit, team_problem
from bot.moves import MAX_MENU_OPTIONS, more_captures, round_choices
from bot.records.seal import CUT_MAX
from bot.render import (
    LEVEL_NAMES,
    TEXT_INK,
    CardInk,
    choice_description,
    choice_label,
    or_values,
    sorted_cards,
    sweep_word,
    variant_name,
)
from bot.talk import LINE_EMOJI, LINES, MUTE, talk_offered
from bot.turns import (
    best_moves,
    building,
    capture_points,
    cards_of,
    item_text,
    move_label,
    sweeps,
    why_not,
)
from cogs.components import KasinoButton, KasinoSelect
from cogs.custom_ids import positions_mask

P = ParamSpec("P")
V = TypeVar("V", bound=discord.ui.View | None)

# Discord allows 25 options; two are "Trail" and "Choose the cards myself".
CAPTURE_CHOICES = MAX_MENU_OPTIONS - 2
# what a card can do, as its card-menu option says it
KIND_WORDS = {"capture": N_("take"), "build": N_("build"), "trail": N_("trail and build")}


@dataclass(frozen=True, slots=True)
class MenuIds:
    """The custom_id kinds of the move menus (and leading fields before the position's id
    and version): a real game's hand view (:data:`GAME_IDS`), or a practice position's
    (:mod:`cogs.learning.practice`), whose menus are the same with another namespace."""

    card: str = "card"
    take: str = "take"
    pick: str = "pick"
    which: str = "which"
    hand: str = "hand"
    head: tuple[str, ...] = ()

    def select(self, kind: str, game: Game, *more: object, **options: object) -> KasinoSelect:
        """A select of this namespace for the game at its version."""
        return KasinoSelect(kind, *self.head, game.id, game.version, *more, **options)  # type: ignore[arg-type]

    def back(self, game: Game, label: str, emoji: str | None = None) -> KasinoButton:
        """The hand button (Back, Refresh) of this namespace."""
        return KasinoButton(self.hand, *self.head, game.id, game.version, label=label, emoji=emoji)


GAME_IDS = MenuIds()


def _view() -> discord.ui.View:
    return discord.ui.View(timeout=None)


def _static(builder: Callable[P, V]) -> Callable[P, V]:
    """Stop the built view before it is sent.

    Every item is a ``DynamicItem`` dispatched by its custom_id, so discord.py need not
    keep the view: a stopped view is not stored and starts no timeout task (it would
    otherwise keep one per ephemeral hand message for 15 minutes).
    """

    @functools.wraps(builder)
    def build(*args: P.args, **kwargs: P.kwargs) -> V:
        view = builder(*args, **kwargs)
        if view is not None:
            view.stop()
        return view

    return build


@_static
def lobby_view(game: Game, t: Lang = EN) -> discord.ui.View | None:
    """Join, Leave, Start, Cancel (none once the lobby is closed)."""
    if game.status is not Status.LOBBY:
        return None
    view = _view()
    ready = len(game.seats) >= 2 and not team_problem(game.options, len(game.seats))
    view.add_item(
        KasinoButton("lobby", game.id, "join", label=t("Join"), style=discord.ButtonStyle.success)
    )
    view.add_item(KasinoButton("lobby", game.id, "leave", label=t("Leave")))
    view.add_item(
        KasinoButton(
            "lobby",
            game.id,
            "start",
            label=t("Start"),
            style=discord.ButtonStyle.primary,
            disabled=not ready,
        )
    )
    view.add_item(
        KasinoButton(
            "lobby", game.id, "cancel", label=t("Cancel"), style=discord.ButtonStyle.danger
        )
    )
    view.add_item(check_button(game.id, t))
    _add_host_controls(view, game, t)
    view.add_item(cut_select(game, t))
    return view


def hand_button(
    game: Game,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.primary,
    row: int | None = None,
) -> KasinoButton:
    """ "Your hand" of a game in play (``k:hand:<game>:<version>``): on its table, a DM
    notice, the digest and ``/kasino games``; it opens the clicker's hand wherever it is."""
    return KasinoButton("hand", game.id, game.version, label=label, emoji="🂠", style=style, row=row)


def check_button(game_id: int, t: Lang = EN, row: int | None = None) -> KasinoButton:
    """ "How to check": what the 🔒 mark means and this game's values, privately."""
    return KasinoButton("check", game_id, label=t("How to check"), emoji="🔒", row=row)


def cut_select(
    game: Game, t: Lang = EN, kind: str = "cut", placeholder: str | None = None
) -> KasinoSelect:
    """ "✂️ Cut the deck" (1..25) on the lobby's third row (``cut``: any seated person,
    once, before Start), or on a finished match's end message (``rcut``: its players, for
    the rematch): every round is shuffled with the players' cuts too (bot.records.seal)."""
    options = [discord.SelectOption(label=str(n), value=str(n)) for n in range(1, CUT_MAX + 1)]
    return KasinoSelect(
        kind,
        game.id,
        options=options,
        placeholder=placeholder or t("✂️ Cut the deck (optional): pick a number"),
        row=2 if kind == "cut" else 0,
    )


def _add_host_controls(view: discord.ui.View, game: Game, t: Lang) -> None:
    """The second row: add a computer of each level, remove one, hints on/off."""
    full = len(game.seats) >= seat_limit(game.options.variant)
    for level in LEVELS:
        view.add_item(
            KasinoButton(
                "lobby",
                game.id,
                f"add-{level}",
                label=t("Add {level} computer", level=t(LEVEL_NAMES[level]).lower()),
                emoji="🤖",
                disabled=full,
                row=1,
            )
        )
    view.add_item(
        KasinoButton(
            "lobby",
            game.id,
            "remove-computer",
            label=t("Remove computer"),
            disabled=not game.has_computers,
            row=1,
        )
    )
    view.add_item(
        KasinoButton(
            "lobby",
            game.id,
            "hints",
            label=t("Hints: on") if game.hints else t("Hints: off"),
            emoji="💡",
            row=1,
        )
    )


@_static
def table_view(game: Game, t: Lang = EN) -> discord.ui.View | None:
    """ "Your hand" while playing, "Rematch" and "Replay" after a finished match; a
    ladder match's table talk under them (:func:`add_talk`)."""
    view = _table_view(game, t)
    if view is not None and talk_offered(game):
        add_talk(view, game.id, t)
    return view


def add_talk(view: discord.ui.View, game_id: int, t: Lang = EN) -> None:
    """A ladder match's table talk (:mod:`bot.talk`): its five lines on a row of their
    own, and "Table talk on/off" (the clicker's own mute) at the end of the first row
    (there is room: at most four buttons there at a ladder match, which has no rematch)."""
    for key, line in LINES.items():
        view.add_item(
            KasinoButton("say", game_id, key, label=t(line), emoji=LINE_EMOJI[key], row=1)
        )
    view.add_item(
        KasinoButton("say", game_id, MUTE, label=t("Table talk on/off"), emoji="🔇", row=0)
    )


def _table_view(game: Game, t: Lang) -> discord.ui.View | None:
    view = _view()
    if game.status is Status.PLAYING:
        view.add_item(hand_button(game, t("Your hand")))
        view.add_item(check_button(game.id, t))
        return view
    if game.status is Status.FINISHED:
        # a tournament's table is its thread's only match; a ladder match's players queue
        # again to meet a fair opponent (their next pairing prefers someone new)
        if not game.in_tournament and not game.extra.get("ladder"):
            view.add_item(
                KasinoButton(
                    "rematch", game.id, label=t("Rematch"), style=discord.ButtonStyle.success
                )
            )
        view.add_item(replay_button(game.id, t))
        view.add_item(analyse_button(game.id, t))
        if game.extra.get("next_seed") is not None:
            # the rematch's seed is committed to on this message: its players may cut it
            # (the menu comes privately: the outbox, which posts this, keeps buttons only)
            view.add_item(KasinoButton("cutfor", game.id, label=t("Cut the rematch"), emoji="✂️"))
        view.add_item(check_button(game.id, t))  # the fifth button of the row at most
        return view
    return None


def replay_button(game_id: int, t: Lang = EN) -> KasinoButton:
    """Replay: a finished match, move by move, in a private view."""
    return KasinoButton("replay", game_id, 0, "open", label=t("Replay"), emoji="⏯️")


@_static
def rematch_cut_view(game: Game, t: Lang = EN) -> discord.ui.View:
    """The private menu a player of a finished match cuts its rematch's deck with."""
    view = _view()
    view.add_item(cut_select(game, t, "rcut", t("✂️ Cut the deck for a rematch")))
    return view


@_static
def replay_only_view(game_id: int, t: Lang = EN) -> discord.ui.View:
    """What a finished match's table keeps once a rematch is dealt: its Replay and Analyse
    my moves buttons."""
    view = _view()
    view.add_item(replay_button(game_id, t))
    view.add_item(analyse_button(game_id, t))
    view.add_item(check_button(game_id, t))
    return view


def analyse_button(game_id: int, t: Lang = EN, row: int | None = None) -> KasinoButton:
    """Analyse my moves: a finished match's player's own moves, analysed privately
    (:mod:`cogs.learning.analysis`)."""
    return KasinoButton("analyse", game_id, label=t("Analyse my moves"), emoji="🔍", row=row)


def _card_option(
    game: Game,
    index: int,
    seat: int,
    ink: CardInk,
    by_card: Mapping[Card, CardMoves],
    t: Lang = EN,
) -> discord.SelectOption:
    """A card of the hand: its face as the option's emoji when the faces are uploaded, and
    always a text label (``7♦``), so the option reads without the picture too. Never
    Discord's own suit emoji: its black suits are near-invisible on the dark theme, and
    beside a face its red ones would contradict the four-colour deck; the label's suits
    are text (U+FE0E, see :meth:`bot.render.CardInk.label`).
    In the games with builds ``by_card`` holds the legal moves of each card."""
    rnd = game.match.round
    rules = game.match.rules
    played = rnd.hands[seat][index]
    if building(rnd):
        option = _building_card_option(rnd, played, index, by_card[played], t, ink)
        option.emoji = ink.emoji(played)
        return option
    label = ink.label(played)
    values = capture_values(rules, played, True)
    if values != (played.rank,):
        label = t("{card} (counts {values})", card=label, values=or_values(values, t))
    can_take = bool(rnd.table) and bool(capture_options(rules, played, list(rnd.table), limit=1))
    if can_take and rules.forced_capture:
        description = t("can capture, so it must: choose what it takes")
    elif can_take:
        description = t("can capture: choose what it takes next")
    elif rules.forced_capture:
        label = t("{card}: krypa", card=label)
        description = t("takes nothing: a krypa, put on the table at once")
    else:
        label = t("{card}: trail", card=label)
        description = t("takes nothing: put on the table at once")
    return discord.SelectOption(
        label=label, value=str(index), description=description, emoji=ink.emoji(played)
    )


def _building_card_option(
    rnd: Round,
    played: Card,
    index: int,
    moves: CardMoves,
    t: Lang = EN,
    ink: CardInk = TEXT_INK,
) -> discord.SelectOption:
    """A card of the hand in a game with builds: what it can do (``moves``: its legal
    moves, as the engine's lazy view, asked only which kinds exist), in a few words: the
    kinds in menu order (takes, builds, trails making builds, the trail)."""
    label = ink.label(played)
    kinds = [kind for kind in ("capture", "build", "table-build") if moves.has(kind)]
    trail = moves.has("plain")
    if not kinds and not trail:
        label = t("{card}: cannot be played now", card=label)
        description = why_not(rnd, played, t, ink.label)
    elif not kinds:
        label = t("{card}: trail", card=label)
        description = t("takes and builds nothing: put on the table at once")
    else:
        words = dict.fromkeys(t(KIND_WORDS[KIND_OF[kind]]) for kind in kinds)
        if trail:
            words[t("trail")] = None
        description = t("can {actions}: choose the move next", actions=", ".join(words))
    return discord.SelectOption(label=label, value=str(index), description=description[:100])


KIND_OF = {"capture": "capture", "build": "build", "table-build": "trail"}  # lazy kinds' words


@_static
def hand_view(
    game: Game, seat: int, ink: CardInk = TEXT_INK, t: Lang = EN, *, ids: MenuIds = GAME_IDS
) -> discord.ui.View:
    """On your turn a select of the card to play, in the sorted order of the hand (its
    values stay hand positions), and Hint when hints are on; always a Refresh button
    (``ids``: the custom_id namespace, a practice position's or a real game's)."""
    view = _view()
    rnd = game.match.round
    my_turn = game.status is Status.PLAYING and not game.extra.get("paused") and rnd.to_move == seat
    hand = rnd.hands[seat]
    if my_turn and hand:
        order = sorted(range(len(hand)), key=lambda i: sorted_cards(hand).index(hand[i]))
        # the games with builds: each card's moves as the engine's lazy view (no listing)
        by_card = rnd.moves.by_card() if building(rnd) else {}
        options = [_card_option(game, i, seat, ink, by_card, t) for i in order]
        view.add_item(
            ids.select(
                ids.card,
                game,
                options=options[:MAX_MENU_OPTIONS],
                placeholder=t("Your turn: choose a card to play"),
            )
        )
    if my_turn and game.hints:
        view.add_item(KasinoButton("hint", game.id, game.version, label=t("Hint"), emoji="💡"))
    if game.status is Status.PLAYING:
        view.add_item(ids.back(game, t("Refresh"), "🔄"))
    return view


def ranked_moves(rnd: Round, played: Card) -> list[Move]:
    """The moves a take menu offers by number in a game with builds (the plain trail has
    its own option): the best :data:`CAPTURE_CHOICES`, as the card's whole ranked list
    would give them (only the kinds that can reach the menu are ranked)."""
    return best_moves(rnd, played, CAPTURE_CHOICES, plain=False)


@_static
def take_view(
    game: Game,
    seat: int,
    index: int,
    ink: CardInk = TEXT_INK,
    t: Lang = EN,
    *,
    ids: MenuIds = GAME_IDS,
) -> discord.ui.View:
    """What the chosen card takes: ranked captures, trail, or choosing the cards yourself."""
    rnd = game.match.round
    rules = game.match.rules
    played = rnd.hands[seat][index]
    if building(rnd):
        return _building_take_view(game, played, index, ink, t, ids=ids)
    choices = round_choices(rnd, played, CAPTURE_CHOICES)
    # a capture names several cards: its emoji is the face of the first it takes (each
    # option's own), the label names them all as text (see CardInk.label)
    options = [
        discord.SelectOption(
            label=choice_label(rules, played, choice, t, ink.label),
            value=f"c{n}",
            description=choice_description(rules, choice, t),
            emoji=ink.emoji(choice.taken[0]) if choice.taken else None,
        )
        for n, choice in enumerate(choices)
    ]
    if not (rules.forced_capture and choices):  # Krypkasino: a card that can capture must
        krypa = t("Krypa: take nothing") if rules.forced_capture else ""
        options.append(
            discord.SelectOption(
                label=krypa or t("Trail: take nothing"),
                value="trail",
                description=t("Put {card} on the table", card=ink.label(played)),
                emoji=ink.emoji(played),
            )
        )
    if more_captures(rnd, played, len(choices)):
        options.append(
            discord.SelectOption(
                label=t("Choose the cards myself"),
                value="pick",
                description=t("Another whole capture: pick its table cards")
                if rules.forced_capture and rules.take_all
                else t("Pick any table cards that add up"),
            )
        )
    view = _view()
    view.add_item(
        ids.select(
            ids.take,
            game,
            index,
            options=options,
            placeholder=t("What does {card} take?", card=ink.label(played)),
        )
    )
    view.add_item(ids.back(game, t("Back")))
    return view


def _building_take_view(
    game: Game, played: Card, index: int, ink: CardInk, t: Lang = EN, *, ids: MenuIds = GAME_IDS
) -> discord.ui.View:
    """The ranked moves of the card (captures, builds, raises, adds, Swazi trails with
    builds), then the plain trail when allowed, then "choose it myself"."""
    rnd = game.match.round
    options = _move_options(rnd, ranked_moves(rnd, played), t, ink)
    if rnd.is_legal(Move(played)):
        option = discord.SelectOption(
            label=t("Trail {card}", card=ink.label(played)),
            value="trail",
            description=t("Take and build nothing"),
            emoji=ink.emoji(played),
        )
    else:
        option = discord.SelectOption(
            label=t("Why can't I trail?"),
            value="trail",
            description=why_not(rnd, played, t, ink.label)[:100],
        )
    options.append(option)
    options.append(
        discord.SelectOption(
            label=t("Choose it myself"), value="pick", description=t("Pick the table items it uses")
        )
    )
    placeholder = t("What does {card} do?", card=ink.label(played))
    return _move_menu(game, ids.take, index, options, placeholder, t=t, ids=ids)


def _move_options(
    rnd: Round, moves: list[Move], t: Lang = EN, ink: CardInk = TEXT_INK
) -> list[discord.SelectOption]:
    """Moves as options ``c0``, ``c1``…, labelled in words with the cards as text (an
    option holds one emoji, and a move shows several cards): the emoji is the face of the
    first card a capture takes, else of the card played."""
    return [
        discord.SelectOption(
            label=move_label(rnd, move, ink.label, t),
            value=f"c{n}",
            description=_move_note(rnd, move, t),
            emoji=ink.emoji(_shown_card(move)),
        )
        for n, move in enumerate(moves[:MAX_MENU_OPTIONS])
    ]


def _shown_card(move: Move) -> Card:
    """The card a move's option shows as its face: the first one a capture takes (the
    played card is the menu's own), else the card played."""
    taken = cards_of(move.taken) if move.kind == "capture" else []
    return taken[0] if taken else move.card


def _move_note(rnd: Round, move: Move, t: Lang = EN) -> str:
    """Why a move is worth its place in the menu, in a few words."""
    if move.kind == "capture":
        won = 1 + len(cards_of(move.taken))
        points = capture_points(rnd, move)
        note = t.ngettext("{n} card", "{n} cards", won)
        note += " · " + t.ngettext("{n} point", "{n} points", points)
        swept = rnd.rules.sweeps and sweeps(rnd, move)  # said only when a sweep scores
        return note + (" · " + sweep_word(rnd.rules, t) + "!" if swept else "")
    if move.kind == "build":
        return t("take it later with the {value} you keep", value=move.value)
    return t("the builds are yours to take later")


def _move_menu(
    game: Game,
    kind: str,
    index: int,
    options: list[discord.SelectOption],
    placeholder: str,
    *extra: object,
    t: Lang = EN,
    ids: MenuIds = GAME_IDS,
) -> discord.ui.View:
    """A one-choice select of moves for the card at ``index``, and Back."""
    view = _view()
    view.add_item(ids.select(kind, game, index, *extra, options=options, placeholder=placeholder))
    view.add_item(ids.back(game, t("Back")))
    return view


def pick_items(rnd: Round, played: Card | None = None) -> list[Item]:
    """What "choose it myself" offers, by position: the table items, then (Swazi, Sotho,
    South African) the top card of every pile that lies face up, then the pile cards under
    a top that a move of ``played`` uses (docs/rules.md: once a pile's top is used, the card
    below may be used later in the same turn; without them such a move could not be made
    from the menus when it is not among the ranked ones)."""
    items: list[Item] = list(rnd.table)
    if building(rnd) and rnd.rules.pile_order != "card-first":
        piles = [pile for seat, pile in enumerate(rnd.piles) if pile and seat != rnd.to_move]
        items += [pile[-1] for pile in piles]
        if played is not None and any(len(pile) > 1 for pile in piles):
            items += _under_tops(rnd, played, piles)
    return items[:MAX_MENU_OPTIONS]


def _under_tops(rnd: Round, played: Card, piles: list[list[Card]]) -> list[Card]:
    """The cards under the piles' tops that some move of ``played`` uses, top down."""
    used = {
        item
        for move in rnd.moves.of(played)
        for item in (*move.using, *(i for b in move.table_builds for i in b.using))
    }
    return [card for pile in piles for card in reversed(pile[:-1]) if card in used]


@_static
def which_view(
    game: Game,
    index: int,
    picked: tuple[int, ...],
    moves: list[Move],
    t: Lang = EN,
    ink: CardInk = TEXT_INK,
    *,
    ids: MenuIds = GAME_IDS,
) -> discord.ui.View:
    """The moves of one card that use exactly the picked items (a capture or builds of
    several values)."""
    options = _move_options(game.match.round, moves, t, ink)
    mask = positions_mask(picked)
    return _move_menu(game, ids.which, index, options, t("Which move?"), mask, t=t, ids=ids)


@_static
def pick_view(
    game: Game, index: int, ink: CardInk = TEXT_INK, t: Lang = EN, *, ids: MenuIds = GAME_IDS
) -> discord.ui.View:
    """A multi-select of the table items (values are positions: cards may repeat), then
    the pile tops a game with builds lets you use."""
    rnd = game.match.round
    items = pick_items(rnd, rnd.hands[rnd.to_move][index])
    table = len(rnd.table)
    tops = len(pick_items(rnd)) - table
    options = [
        discord.SelectOption(
            label=item_text(item, ink.label)[:100],
            value=str(i),
            description=(
                None
                if i < table
                else t("the top card of a capture pile")
                if i < table + tops
                else t("under a pile's top: usable once the top is used")
            ),
            emoji=ink.emoji(item) if isinstance(item, Card) else None,
        )
        for i, item in enumerate(items)
    ]
    view = _view()
    view.add_item(
        ids.select(
            ids.pick,
            game,
            index,
            options=options,
            placeholder=t("Choose the table items it uses"),
            max_values=len(options),
        )
    )
    view.add_item(ids.back(game, t("Back")))
    return view


@_static
def forget_view(user_id: int, t: Lang = EN) -> discord.ui.View:
    """``/kasino forget-me``'s confirmation: Forget me, or Keep my data."""
    view = _view()
    view.add_item(
        KasinoButton(
            "forget", user_id, "yes", label=t("Forget me"), style=discord.ButtonStyle.danger
        )
    )
    view.add_item(KasinoButton("forget", user_id, "no", label=t("Keep my data")))
    return view


@_static
def scores_view(
    variant: str | None,
    target: int | None,
    page: int,
    pages: int,
    *,
    computers: bool = False,
    rating: bool = False,
    t: Lang = EN,
) -> discord.ui.View:
    """Previous / Next page buttons, a switch between the people / computers boards, and
    one between the order by rating and by wins."""
    view = _view()
    key, board = variant or "-", "c" if computers else "p"
    order = "r" if rating else "w"
    view.add_item(
        KasinoButton(
            "scores", key, target or 0, max(page - 1, 1), board, order,
            label=t("Previous"), disabled=page <= 1,
        )
    )  # fmt: skip
    view.add_item(
        KasinoButton(
            "scores", key, target or 0, page + 1, board, order,
            label=t("Next"), disabled=page >= pages,
        )
    )  # fmt: skip
    other = "p" if computers else "c"
    label = t("Against people") if computers else t("Against computers")
    view.add_item(
        KasinoButton("scores", key, target or 0, 1, other, order, label=label, emoji="🤖")
    )
    if rating:
        view.add_item(KasinoButton("scores", key, 0, 1, board, "w", label=t("By wins")))
    else:
        view.add_item(KasinoButton("scores", key, 0, 1, board, "r", label=t("By rating")))
    return view


@_static
def global_scores_view(
    variant: str, page: int, pages: int, *, computers: bool = False, t: Lang = EN
) -> discord.ui.View:
    """The global rating board's Previous / Next buttons and the switch between the
    people / computers boards (it is by rating only: results are counted per server)."""
    view = _view()
    board = "c" if computers else "p"
    view.add_item(
        KasinoButton("gscores", variant, max(page - 1, 1), board, label=t("Previous"),
                     disabled=page <= 1)
    )  # fmt: skip
    view.add_item(
        KasinoButton("gscores", variant, page + 1, board, label=t("Next"), disabled=page >= pages)
    )
    other = "p" if computers else "c"
    label = t("Against people") if computers else t("Against computers")
    view.add_item(KasinoButton("gscores", variant, 1, other, label=label, emoji="🤖"))
    return view


@_static
def tournament_board_view(page: int, pages: int, *, t: Lang = EN) -> discord.ui.View:
    """Previous / Next on the server's tournaments board."""
    view = _view()
    view.add_item(KasinoButton("tboard", max(page - 1, 1), label=t("Previous"), disabled=page <= 1))
    view.add_item(KasinoButton("tboard", page + 1, label=t("Next"), disabled=page >= pages))
    return view


@_static
def show_view(
    kind: str, viewer: int, subject: int, variant: str | None, t: Lang = EN
) -> discord.ui.View:
    """ "Show in channel" on a private profile or head-to-head (for the one who asked)."""
    view = _view()
    view.add_item(
        KasinoButton(
            "show", kind, viewer, subject, variant or "-", label=t("Show in channel"), emoji="📣"
        )
    )
    return view


@_static
def rules_view(shown: str, t: Lang = EN) -> discord.ui.View:
    """A menu of the other variants: choosing one shows its rules in place."""
    view = _view()
    options = [
        discord.SelectOption(label=variant_name(key, t), value=key)
        for key in VARIANT_NAMES
        if key != shown
    ]
    view.add_item(
        KasinoSelect("rules", shown, options=options, placeholder=t("Another game's rules…"))
    )
    return view


@_static
def history_view(
    member: int | None,
    variant: str | None,
    page: int,
    pages: int,
    options: list[tuple[int, str]],
    t: Lang = EN,
) -> discord.ui.View:
    """Previous / Next, and a menu of the page's matches to replay (``options``: game id
    and label)."""
    view = _view()
    who, key = member or 0, variant or "-"
    view.add_item(
        KasinoButton("history", who, key, max(page - 1, 1), label=t("Previous"), disabled=page <= 1)
    )
    view.add_item(
        KasinoButton("history", who, key, page + 1, label=t("Next"),
                     disabled=page >= pages)
    )  # fmt: skip
    if options:
        view.add_item(
            KasinoSelect(
                "histpick",
                who,
                key,
                page,
                options=[
                    discord.SelectOption(label=label, value=str(game_id), emoji="⏯️")
                    for game_id, label in options[:25]
                ],
                placeholder=t("Replay which match?"),
                row=1,
            )
        )
    return view


@_static
def replay_view(
    game_id: int, step: int, steps: int, index: list[tuple[int, int]], t: Lang = EN
) -> discord.ui.View:
    """First / Back / Forward / Last, and a menu of the steps each round (and, when they
    fit, each deal) starts at."""
    view = _view()
    buttons = (
        ("first", 0, t("First"), "⏮️", step <= 0),
        ("back", max(step - 1, 0), t("Back"), "◀️", step <= 0),
        ("next", min(step + 1, steps), t("Forward"), "▶️", step >= steps),
        ("last", steps, t("Last"), "⏭️", step >= steps),
    )
    for slot, target, label, emoji, disabled in buttons:
        view.add_item(
            KasinoButton("replay", game_id, target, slot, label=label, emoji=emoji,
                         disabled=disabled)
        )  # fmt: skip
    starts = jump_points(index)
    if len(starts) > MAX_MENU_OPTIONS:
        starts = [point for point in starts if point[2] == 1 or point[0] == 0]
    if len(starts) > MAX_MENU_OPTIONS:  # a window of round starts around this step
        later = [p for p in starts if p[0] > step]
        starts = (starts[: len(starts) - len(later)][-12:] + later)[:MAX_MENU_OPTIONS]
    options = [
        discord.SelectOption(
            label=t("Round {round}", round=rnd)
            if deal == 1
            else t("Round {round} · deal {deal}", round=rnd, deal=deal),
            value=str(at),
            description=t("step {step}", step=at),
        )
        for at, rnd, deal in starts
    ]
    view.add_item(
        KasinoSelect(
            "jump", game_id, options=options, placeholder=t("Jump to a round or deal…"), row=1
        )
    )
    view.add_item(analyse_button(game_id, t, row=2))
    view.add_item(check_button(game_id, t, row=2))  # the seeds and commitments, privately
    return view


def jump_points(index: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """``(step, round, deal)`` where each round and deal starts (a replay's ``index``)."""
    points = []
    for at, (rnd, deal) in enumerate(index):
        if at == 0 or index[at - 1] != (rnd, deal):
            points.append((at, rnd, deal))
    return points
