"""Text and embeds: cards with suit symbols, the lobby, the table, hands, summaries."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import discord

from bot.engine import Build, Card, Move, Round, Rules, rules_for
from bot.models import SWITCH_NAMES, VARIANT_NAMES, Game, GameOptions, Status
from bot.moves import Choice, deal_progress
from bot.turns import item_text, move_sentence

# Red suits as emoji (drawn red on every theme). Black suits in text presentation: ♠ and ♣
# followed by U+FE0E, the text variation selector. Discord's ♠️ ♣️ emoji are near-black
# pictures, invisible on the dark theme, and a bare ♠ is still drawn as that emoji wherever
# the only font with the character is the emoji font (the preview's screenshots show it);
# with U+FE0E the browser draws a text glyph in the theme's text colour.
TEXT = "\ufe0e"
SUIT_SHOWN = {"S": "♠" + TEXT, "H": "♥️", "D": "♦️", "C": "♣" + TEXT}
SUIT_PLAIN = {"S": "♠" + TEXT, "H": "♥", "D": "♦", "C": "♣" + TEXT}
TABLE_COLOUR = discord.Colour.dark_green()
ITEM_NAMES = {
    "spades": "Spades",
    "cards": "Cards",
    "aces": "Aces",
    "storan": "Storan (10♦)",
    "lillan": "Lillan (2♠\ufe0e)",
    "sistan": "Sistan",
    "tabbe": "Tabbar",
    "mulle": "Mulle",
}
# The Anglo-American names in the games with builds.
BUILDING_ITEM_NAMES = {
    **ITEM_NAMES,
    "storan": "Big casino (10♦)",
    "lillan": "Little casino (2♠\ufe0e)",
    "sistan": "Last capture",
    "tabbe": "Sweeps",
}
HAND_TITLE = "Your hand"
HINTED_MARK = "💡"


def card(c: Card) -> str:
    """A card for a message: ``A♥️`` (red emoji), ``A♠`` (text: readable on both themes)."""
    return f"{c.rank_name}{SUIT_SHOWN[c.suit]}"


# A card written as text by :func:`card` or :func:`plain` (in a stored last move, say).
CARD_TEXT = re.compile(r"(?<![\w#])(10|[2-9AJQK])([♠♥♦♣])[\ufe0e\ufe0f]?")
SUIT_LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
RANK_NUMBERS = {"A": 1, "J": 11, "Q": 12, "K": 13}


class CardInk:
    """How cards are written: as text (:func:`card`), or as the bot's card-face emojis once
    they are uploaded (see :mod:`bot.card_emojis`). Every card a message, an embed or a menu
    shows is written through one of these, so faces and the text fallback live here only.
    """

    def __init__(self, faces: Mapping[Card, discord.PartialEmoji] | None = None) -> None:
        self._faces: dict[Card, discord.PartialEmoji] = dict(faces or {})

    def use(self, faces: Mapping[Card, discord.PartialEmoji]) -> None:
        """Write cards with these faces from now on (all 52, or text for all)."""
        self._faces = dict(faces) if len(faces) == FACES else {}

    @property
    def faces(self) -> dict[Card, discord.PartialEmoji]:
        """The faces in use (empty: cards are text)."""
        return dict(self._faces)

    def card(self, c: Card) -> str:
        """A card in a message or embed: its face ``<:kc_AS_…:id>``, else :func:`card`."""
        face = self._faces.get(c)
        return str(face) if face is not None else card(c)

    def cards(self, cs: Iterable[Card], *, empty: str = "(none)") -> str:
        """Cards separated by spaces, or ``empty``."""
        return cards(cs, empty=empty, fmt=self.card)

    def emoji(self, c: Card) -> discord.PartialEmoji | None:
        """The card's face for a menu option's ``emoji`` (``None``: text only)."""
        return self._faces.get(c)

    def line(self, text: str) -> str:
        """``text`` with the cards it names as text (``A♥``, ``2♠︎``) shown as faces: a last
        move or a note is made once, as text, and shown wherever it goes."""
        if not self._faces or not text:
            return text
        return CARD_TEXT.sub(self._face_of, text)

    def _face_of(self, found: re.Match[str]) -> str:
        rank_text, symbol = found.group(1), found.group(2)
        rank = RANK_NUMBERS.get(rank_text) or int(rank_text)
        return self.card(Card(rank, SUIT_LETTERS[symbol]))


FACES = 52
TEXT_INK = CardInk()  # never given faces: cards as text


def sorted_cards(cs: Iterable[Card]) -> list[Card]:
    """Cards in the order a player holds them: by rank (ace first), then suit."""
    return sorted(cs, key=lambda c: (c.rank, "SHDC".index(c.suit)))


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 point``, ``2 points``."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def plain(c: Card) -> str:
    """A card for a label where emoji are not drawn in colour: ``A♥``."""
    return f"{c.rank_name}{SUIT_PLAIN[c.suit]}"


def cards(cs: Iterable[Card], *, empty: str = "(none)", fmt: Any = card) -> str:
    """Cards separated by spaces, or ``empty``."""
    text = " ".join(fmt(c) for c in cs)
    return text or empty


def table_text(game: Game, fmt: Any = card) -> str:
    """The table's cards and builds (``[8 = 5♥+3♣ | 8♠] Anna's``), and where captured
    cards lie face up (Swazi, Sotho, South African) the top card of each pile."""
    rnd = game.match.round
    shown = []
    for item in rnd.table:
        text = item_text(item, fmt)
        if isinstance(item, Build):
            text += f" {game.seats[item.owner].name}'s"
        shown.append(text)
    text = " · ".join(shown) if any(isinstance(i, Build) for i in rnd.table) else " ".join(shown)
    text = text or "empty"
    if rnd.rules.pile_order != "card-first":  # piles lie face up: their tops are in play
        tops = [
            f"{_pile_name(game, index)} {fmt(pile[-1])}"
            for index, pile in enumerate(rnd.piles)
            if pile
        ]
        if tops:
            text += "\n**Pile tops:** " + " · ".join(tops)
    return text


def _pile_name(game: Game, index: int) -> str:
    shared = game.match.rules.shared_piles and game.match.rules.teams
    return game.side_name(index) if shared else game.seats[index].name


def sweep_word(rules: Rules) -> str:
    """What a sweep is called in this variant."""
    if rules.builds:
        return "sweep"
    return "mökki" if rules.name == "finnish" else "tabbe"


def item_name(rules: Rules, key: str) -> str:
    """A score item as players of this variant call it."""
    names = BUILDING_ITEM_NAMES if rules.builds else ITEM_NAMES
    return names.get(key, key)


def value_note(rules: Rules, played: Card, values: Sequence[int]) -> str:
    """How the played card counts, when that is not just its rank: ``" as 14"``."""
    if not values or tuple(values) == (played.rank,):
        return ""
    return " as " + " or ".join(str(v) for v in values)


def describe_move(
    name: str,
    rules: Rules,
    move: Move,
    values: Sequence[int] = (),
    *,
    sweep: bool = False,
    mulle: bool = False,
    auto: bool = False,
    later: Round | None = None,
) -> str:
    """The last move in words: ``Anna played A♥ as 14 and took 4♣ 9♦ A♠: tabbe!``,
    ``Anna built 8: 3♣+5♥`` (``later``: the round after a build, for its groups)."""
    if move.kind == "capture" and not rules.builds:
        note = value_note(rules, move.card, values)
        text = f"{name} played {plain(move.card)}{note} and took {cards(move.taken, fmt=plain)}"
    else:
        text = move_sentence(name, move, plain, later)
    bonus = [word for word, flag in (("mulle", mulle), (sweep_word(rules), sweep)) if flag]
    text += (": " + " and ".join(bonus) + "!") if bonus else "."
    if auto:
        text += " (automatic move: time ran out)"
    return text


def choice_label(rules: Rules, played: Card, choice: Choice) -> str:
    """A capture option: ``Take 4♣ 9♦ A♠ (A♥ as 14)``."""
    label = f"Take {cards(choice.taken, fmt=plain)}"
    note = value_note(rules, played, choice.values)
    if note:
        label += f" ({plain(played)}{note})"
    return label[:100]


def choice_description(rules: Rules, choice: Choice) -> str:
    """Why an option ranks where it does: cards, points, sweep, mulle."""
    parts = [plural(choice.cards, "card"), plural(choice.points, "point")]
    if choice.sweep:
        parts.append(sweep_word(rules) + "!")
    if choice.mulle:
        parts.append("mulle!")
    return " · ".join(parts)[:100]


def rules_line(options: GameOptions) -> str:
    """``Swedish Kasino to 16, teams, 5 min turns``."""
    parts = [f"{options.variant_name} to {options.target}"]
    if options.teams:
        parts.append("teams (seats 1+3 against 2+4)")
    parts += [SWITCH_NAMES[name].lower().removeprefix("the ") for name in options.switches]
    minutes = options.turn_seconds / 60
    parts.append(f"{minutes:g} min turns")
    return ", ".join(parts)


def lobby_embed(game: Game) -> discord.Embed:
    """The public lobby: rules and seats."""
    embed = discord.Embed(title=f"Kasino: {game.options.variant_name}", colour=TABLE_COLOUR)
    embed.add_field(name="Rules", value=rules_line(game.options), inline=False)
    lines = []
    for index, seat in enumerate(game.seats):
        host = " (host)" if seat.user_id == game.host_id else ""
        team = f" · team {'AB'[index % 2]}" if game.options.teams else ""
        lines.append(f"{index + 1}. **{seat.name}**{host}{team}")
    embed.add_field(name=f"Seats ({len(game.seats)}/4)", value="\n".join(lines), inline=False)
    embed.add_field(name="Hints", value=hints_line(game), inline=False)
    if game.status is Status.CANCELLED:
        embed.description = "This lobby was cancelled."
    elif game.status is not Status.LOBBY:
        embed.description = "The game has started: the table is posted below at every turn."
    else:
        need = "4 players" if game.options.teams else players_needed(game.options.rules())
        embed.description = (
            f"Press **Join** to take a seat ({need}). The host may add computer players"
            " (🤖 easy, normal or hard) and presses **Start**."
        )
    embed.set_footer(text=f"Game #{game.id}")
    return embed


def players_needed(rules: Rules) -> str:
    """``2 to 4 players``; ``2 or 3 players, or 4 in partnerships``; ``2 or 4 players``."""
    counts = rules.player_counts
    if counts == (2, 4):
        return "2 players, or 4 in partnerships" if rules.four_in_teams else "2 or 4 players"
    if rules.four_in_teams:
        return "2 or 3 players, or 4 in partnerships"
    return "2 to 4 players"


def hints_line(game: Game) -> str:
    """Whether hints are on, and what that means for the leaderboard."""
    if not game.hints:
        return "Off"
    if game.has_computers:
        return "On: the hand view has a **Hint** button"
    return "On: the hand view has a **Hint** button; the result is marked on the leaderboard"


def _side_field(game: Game, side: int) -> tuple[str, str]:
    match = game.match
    rnd = match.round
    seats = [i for i in range(len(game.seats)) if game.side_of(i) == side]
    captured = sum(len(rnd.piles[i]) for i in seats)
    value = f"Score **{match.scores[side]}** / {match.rules.target}\nCaptured {captured} cards"
    if match.rules.sweeps:  # a count of sweeps that score nothing would only mislead
        sweeps = sum(rnd.sweeps[i] for i in seats)
        value += f" · {sweep_word(match.rules)} {sweeps}"
    return game.side_name(side), value


def deal_line(game: Game) -> str:
    """``Round 2 · deal 3 of 6``, with the sistan warning on the last deal."""
    match = game.match
    k, n = deal_progress(match.round)
    line = f"Round {match.rounds_played + 1} · deal {k} of {n}"
    if match.round.is_last_deal:
        line += " · ⚠️ **last deal!**" if match.rules.builds else " · ⚠️ **sistan: last deal!**"
    return line


def score_line(game: Game) -> str:
    """``Anna **3** · Bjorn **5** (to 16)``."""
    match = game.match
    scores = " · ".join(
        f"{game.side_name(side)} **{match.scores[side]}**" for side in range(game.sides)
    )
    return f"{scores} (to {match.rules.target})"


def due(game: Game) -> str:
    """`` (time runs out in 5 minutes)`` as a Discord relative timestamp, or nothing."""
    if not game.deadline or game.extra.get("paused"):
        return ""
    seat = game.seats[game.match.round.to_move]
    if seat.is_computer:
        return " (thinking…)"
    return f" (time runs out <t:{int(game.deadline)}:R>)"


def table_embed(game: Game, *, paused: bool = False, ink: CardInk = TEXT_INK) -> discord.Embed:
    """The public table: table cards, whose turn, deal k of n, sides, last move. Players
    are named by name (a mention in an embed shows as a number where not cached)."""
    match = game.match
    rnd = match.round
    paused = paused or bool(game.extra.get("paused"))
    embed = discord.Embed(title=f"Kasino: {rules_line(game.options)}", colour=TABLE_COLOUR)
    lines = [f"**Table ({len(rnd.table)}):** {table_text(game, ink.card)}"]
    if game.status is Status.PLAYING:
        lines.append(deal_line(game))
        if paused:
            lines.append(f"Round {match.rounds_played} is over; round {match.rounds_played + 1}"
                         " is dealt in a moment.")  # fmt: skip
        else:
            seat = game.seats[rnd.to_move]
            lines.append(f"**To move:** {seat.name}{due(game)}")
    elif game.status is Status.FINISHED:
        lines.append(f"🏆 **{winner_text(game)}**")
    else:
        lines.append(f"Game over ({game.status}). No result recorded.")
    if game.last_move:
        lines.append(f"**Last move:** {ink.line(game.last_move)}")
    embed.description = "\n".join(lines)
    for side in range(game.sides):
        name, value = _side_field(game, side)
        embed.add_field(name=name, value=value, inline=True)
    footer = f"Game #{game.id}"
    if game.status is Status.PLAYING:
        footer += " · press “Your hand” to see your cards and play"
    embed.set_footer(text=footer)
    return embed


def winner_text(game: Game) -> str:
    """``Anna wins 17 to 12``."""
    match = game.match
    winner = match.winner
    if winner is None:
        return "No winner"
    others = ", ".join(str(s) for i, s in enumerate(match.scores) if i != winner)
    return f"{game.side_name(winner)} wins {match.scores[winner]} to {others}"


def final_line(game: Game) -> str:
    """The one message at the end of a match: ``🏆 Game over: Anna wins 17 to 12.``"""
    return f"🏆 Game over: **{winner_text(game)}**."


def round_summary(
    game: Game,
    finished: Any,
    scores: Sequence[Any] | None,
    round_number: int,
    last_move: str = "",
    *,
    ink: CardInk = TEXT_INK,
) -> discord.Embed:
    """The public summary of a finished round: each side's items and the match totals."""
    match = game.match
    embed = discord.Embed(title=f"Round {round_number} is over", colour=TABLE_COLOUR)
    piles = finished.side_piles()
    for side in range(game.sides):
        pile = piles[side]
        spades = sum(c.suit == "S" for c in pile)
        lines = [f"{plural(spades, 'spade')} · {plural(len(pile), 'card')}"]
        if scores is not None:
            items = scores[side].items
            lines += [f"{ink.line(item_name(match.rules, k))}: {v}" for k, v in items.items() if v]
            lines.append(f"Round: **{scores[side].total}**")
        lines.append(f"Match: **{match.scores[side]}** / {match.rules.target}")
        embed.add_field(name=game.side_name(side), value="\n".join(lines), inline=True)
    last = f"**Last move:** {ink.line(last_move)}\n" if last_move else ""
    if match.is_over:
        embed.description = f"{last}🏆 {winner_text(game)}!"
    elif game.extra.get("paused"):
        embed.description = f"{last}Round {round_number + 1} is dealt in a moment."
    else:
        embed.description = f"{last}Round {round_number + 1} is dealt."
    return embed


STEP_PROMPTS = {
    "card": "**Your turn**{due}: choose a card to play.",
    "take": "**Your turn**{due}: choose what it takes.",
    "pick": "**Your turn**{due}: choose the table cards it takes.",
}
BUILDING_STEP_PROMPTS = STEP_PROMPTS | {
    "take": "**Your turn**{due}: choose what it does.",
    "pick": "**Your turn**{due}: choose the table items it uses.",
}


def hand_content(
    game: Game, seat: int, note: str = "", step: str = "card", *, ink: CardInk = TEXT_INK
) -> str:
    """The ephemeral hand view's text for one seat (never sent publicly): the sorted hand,
    the table, deal k of N with the sistan warning, the score, the last move and whose
    turn it is, with the time left as a Discord relative timestamp."""
    match = game.match
    rnd = match.round
    lines = [ink.line(note)] if note else []
    lines.append(f"**{HAND_TITLE}** · {game.options.variant_name}, game #{game.id}")
    lines.append(ink.cards(sorted_cards(rnd.hands[seat]), empty="(empty)"))
    lines.append(f"**Table:** {table_text(game, ink.card)}")
    if game.status is Status.PLAYING:
        lines.append(deal_line(game))
    lines.append(f"**Score:** {score_line(game)}")
    if game.last_move:
        lines.append(f"**Last move:** {ink.line(game.last_move)}")
    if game.status is not Status.PLAYING:
        lines.append(f"The game is over. {winner_text(game)}." if match.winner is not None
                     else "The game is over.")  # fmt: skip
    elif game.extra.get("paused"):
        lines.append(
            f"Round {match.rounds_played} is over. These are your cards for round"
            f" {match.rounds_played + 1}; play starts <t:{int(game.deadline or 0)}:R>."
        )
    elif rnd.to_move == seat:
        prompts = BUILDING_STEP_PROMPTS if match.rules.builds else STEP_PROMPTS
        lines.append(prompts.get(step, STEP_PROMPTS["card"]).format(due=due(game)))
    else:
        lines.append(f"Waiting for {game.seats[rnd.to_move].name} to play{due(game)}.")
    return "\n".join(lines)


def standings(game: Game) -> str:
    """A running match's scores, one side a line."""
    match = game.match
    return "\n".join(
        f"{game.side_name(side)}: **{match.scores[side]}** / {match.rules.target}"
        for side in range(game.sides)
    )


RULES_TEXT = {
    "swedish": (
        "**Swedish Kasino** (2–4 players, one deck). Play one card a turn: capture table cards"
        " whose values add up to it, in one or more groups (J 11, Q 12, K 13, an ace 1 or 14),"
        " or trail it onto the table. Emptying the table is a **tabbe** (1 point). After the"
        " last card the last capturer takes what is left (**sistan**, 1 point).\n"
        "Round scoring: most spades 2, most cards 1, each ace 1, storan (10♦) 2,"
        " lillan (2♠\ufe0e) 1, sistan 1, each tabbe 1. {target}"
    ),
    "overspader": (
        "**Överspader**: Swedish Kasino, but instead of 2 points for most spades every side"
        " scores 1 point for each spade beyond six. {target}"
    ),
    "finnish": (
        "**Finnish Kasino**: cards count differently in hand: an ace is 14 (1 on the table),"
        " 2♠\ufe0e is 15 and 10♦ is 16 from hand. Points count as you go (aces, 2♠\ufe0e 1,"
        " 10♦ 2, each **mökki** 1), so the match can end mid-round; most spades 2 and most"
        " cards 1 come at the end of the round. Mökki do not count in the last deal or once"
        " anyone has 10 points, and equal mökki cancel. No sistan point. {target}"
    ),
    "mulle": (
        "**Mulle**: two decks, five cards each and five to the table, dealt one at a time."
        " Captures as in Swedish Kasino. Taking exactly the identical card (same rank and"
        " suit) with nothing else is a **mulle**: 5 points. Scoring: most spades 1, aces 1,"
        " each storan 2, each lillan 1, sistan 1, tabbe 1, mulle 5. {target}"
    ),
    "casino": (
        "**Casino** (2 or 3 players, or 4 in partnerships; one deck; A 1, 2–10 their number,"
        " pictures no number). Play one card a turn: **capture** table cards of its value"
        " or sets adding up to it (a picture takes one card of its rank), **build**: put it"
        " on table cards and declare their sum (3 on a 5 is *building 8*), keeping an 8 in"
        " hand to take it later; **raise** a simple build with a card (a 5-build and a 3"
        " make 8); **add** a group of the build's value to any build; or **trail**, which"
        " you may not do while you own a build. A build is taken whole, only by a card of"
        " its value.\nRound scoring: most cards 3, most spades 1, each ace 1, big casino"
        " (10♦) 2, little casino (2♠\ufe0e) 1. {target}"
    ),
    "royal": (
        "**Royal Casino**: Casino, but J counts 11, Q 12, K 13 and an ace 1 or 14, so"
        " pictures and aces capture sums and are built like any card. {target}"
    ),
    "mulle-glimne": (
        "**Glimne's Mulle** (2 players or 4 in partnerships, two decks). Builds as in"
        " Casino; in hand an ace is 14, 2♠\ufe0e 15 and 10♦ 16. Taking a card's identical"
        " twin is a **mulle**, worth the card's hand value. Scoring: each 10♦ 3, each"
        " 2♠\ufe0e 2, each ace 2, every other spade 1, each sweep 1, the mulles. {target}"
    ),
    "swazi": (
        "**Swazi Casino** (2 or 3 players, or 4 in partnerships; J 11, Q 12, K 13, ace 1 or"
        " 14). Play goes to the right; captured cards lie face up in piles, and the top"
        " cards of the opponents' piles can join your builds. Capture, build, change an"
        " opponent's simple build's value, augment your side's builds, or trail (and make a"
        " build from table cards as you trail). Never two builds of one value on the"
        " table. Round scoring: most cards 2, most spades 2, 2♠\ufe0e 1, 10♦ 2, each ace 1."
        " {target}"
    ),
    "sotho": (
        "**Sotho Casino**: Swazi Casino, but pictures have no number (a picture takes"
        " pictures of its rank), an ace is 1, and partners keep separate piles. {target}"
    ),
    "south-african": (
        "**South African Casino** (2–4 players, 40 cards without pictures, the ace 1)."
        " Casino's captures and builds; the top card of every other player's pile can be"
        " captured as if on the table. You may not trail (drift) while you own a build,"
        " except in a two-player game's second deal. Round scoring: most cards 2, more than"
        " five spades 1, 2♠\ufe0e 1, 10♦ 2, each ace 1. {target}"
    ),
}


def default_target(variant: str) -> str:
    """The sentence on a variant's usual match length, which ``/kasino new`` can change."""
    target = rules_for(variant).target
    return f"A match is to {target} points unless the lobby sets another target."


def rules_embed(variant: str | None) -> discord.Embed:
    """A readable rules summary for one variant, or all ten, one field each (an embed's
    description holds at most 4,096 characters, its fields 1,024 each)."""
    embed = discord.Embed(title="Kasino rules", colour=TABLE_COLOUR)
    if variant:
        embed.description = RULES_TEXT[variant].format(target=default_target(variant))
    else:
        for key, text in RULES_TEXT.items():
            value = text.format(target=default_target(key))
            embed.add_field(name=VARIANT_NAMES[key], value=value, inline=False)
    embed.set_footer(text="Start a game with /kasino new; see your cards with /kasino hand.")
    return embed


def scores_embed(
    rows: Sequence[Any],
    variant: str | None,
    target: int | None,
    page: int,
    pages: int,
    offset: int,
    *,
    computers: bool = False,
    names: dict[int, str] | None = None,
) -> discord.Embed:
    """One page of a leaderboard (rows are ``storage.BoardRow``): matches between people,
    or with ``computers`` the matches played against computer players."""
    board = GameOptions(variant=variant).variant_name if variant else "All variants"
    board += f", to {target}" if target else ", all targets"
    title = "Kasino vs computers" if computers else "Kasino leaderboard"
    embed = discord.Embed(title=f"{title}: {board}", colour=TABLE_COLOUR)
    names = names or {}
    lines = [
        f"**{offset + n + 1}.** {names.get(row.user_id) or f'<@{row.user_id}>'}"
        f"{HINTED_MARK if row.hinted else ''}:"
        f" {plural(row.wins, 'win')} in {plural(row.matches, 'match', 'matches')}"
        f" ({row.win_rate:.0%}) · {plural(row.points, 'point')}"
        f" · {row.tabbar} {'tabbe' if row.tabbar == 1 else 'tabbar'}"
        for n, row in enumerate(rows)
    ]
    embed.description = "\n".join(lines) or "No finished matches on this board yet."
    footer = f"Page {page} of {pages}"
    if any(row.hinted for row in rows):
        footer += f" · {HINTED_MARK} some matches played with hints"
    embed.set_footer(text=footer)
    return embed
