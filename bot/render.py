"""Text and embeds: cards with suit symbols, the lobby, the table, hands, summaries.

Every text is said in a language (:class:`bot.i18n.Lang`, the ``t`` argument; English when
none is given): public messages in the server's, private ones in the reader's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import discord

from bot.engine import Build, Card, Move, Round, Rules, capture_targets
from bot.i18n import EN, MINUS, N_, Lang
from bot.models import PACE_NAMES, VARIANT_NAMES, Game, GameOptions, Status, lowest_wins, seat_limit
from bot.moves import Choice, deal_progress, penalty_points
from bot.records.deals import seed_commitment, short
from bot.records.seal import (
    cuts_in,
    live_final,
    live_head,
    round_cut,
    seed_shown_in,
    shown,
    version,
)
from bot.stages import SILENT_TURNS, by_interaction
from bot.turns import item_text, move_sentence

# Red suits as emoji (drawn red on every theme). Black suits in text presentation: ♠ and ♣
# followed by U+FE0E, the text variation selector. Discord's ♠️ ♣️ emoji are near-black
# pictures, invisible on the dark theme, and a bare ♠ is still drawn as that emoji wherever
# the only font with the character is the emoji font (the preview's screenshots show it);
# with U+FE0E the browser draws a text glyph in the theme's text colour.
TEXT = "\ufe0e"
SUIT_SHOWN = {"S": "♠" + TEXT, "H": "♥️", "D": "♦️", "C": "♣" + TEXT}
SUIT_PLAIN = {"S": "♠" + TEXT, "H": "♥", "D": "♦", "C": "♣" + TEXT}
# Every suit in text presentation, in the theme's text colour: a menu's label beside a
# card's face (its colours are the face's, in either deck; see CardInk.label).
SUIT_NEUTRAL = {suit: symbol + TEXT for suit, symbol in zip("SHDC", "♠♥♦♣", strict=True)}
TABLE_COLOUR = discord.Colour.dark_green()
# The score items as the Nordic games call them (translated where shown).
ITEM_NAMES = {
    "spades": N_("Spades"),
    "cards": N_("Cards"),
    "aces": N_("Aces"),
    "storan": N_("Storan (10♦)"),
    "lillan": N_("Lillan (2♠\ufe0e)"),
    "sistan": N_("Sistan"),
    "tabbe": N_("Tabbar"),
    "mulle": N_("Mulle"),
}
# The games with builds score the last capture without calling it sistan. Their names of
# storan, lillan and tabbar come from the game's terms catalogue (Lang.for_game: English
# Casino says big casino, little casino, sweeps).
BUILDING_ITEM_NAMES = {**ITEM_NAMES, "sistan": N_("Last capture")}
# Krypkasino's items: penalties (each card's points said, as they differ from Swedish
# Kasino's), a tabbe's reward, and the majorities of its option. Storan and lillan are
# named as in Swedish Kasino (the card in brackets), in the reader's words for them.
KRYP_SWEDISH = {"storan": ITEM_NAMES["storan"], "lillan": ITEM_NAMES["lillan"]}
KRYP_ITEM_NAMES = {
    "aces": N_("Aces"),
    "spades": N_("Spades"),
    "tabbe": N_("Tabbe"),
    "reward": N_("Reward"),
    "cards": N_("Most cards"),
    "most_spades": N_("Most spades"),
}
# Why a game ended without a winner, as the table says it.
ENDINGS = {
    Status.STOPPED: N_("Game over (stopped). No result recorded."),
    Status.CANCELLED: N_("Game over (cancelled). No result recorded."),
    Status.ABANDONED: N_("Game over (abandoned). No result recorded."),
    Status.BROKEN: N_("Game over (broken). No result recorded."),
}
# The building games' switches as a lobby's rules line lists them.
SWITCH_WORDS = {
    "sweeps": N_("sweeps"),
    "permissive": N_("permissive building"),
    "last_capture_point": N_("last-capture point"),
}
HAND_TITLE = N_("Your hand")
HINTED_MARK = "💡"
TEAM_LETTERS = "ABC"  # up to three teams (Krypkasino's six players in teams of two)


def hinted_mark(hinted: object) -> str:
    """What follows a name on a board whose rated matches were played with hints: the
    mark, apart from the name (``Anna 💡``); nothing otherwise."""
    return f" {HINTED_MARK}" if hinted else ""


def mention_or_name(user_id: int, names: Mapping[int, str]) -> str:
    """A player's name where it is known, else their Discord mention (made here, not in
    the ``t(…)`` call, so the catalogue's extraction meets no f-string)."""
    return names.get(user_id) or f"<@{user_id}>"


def short_date(timestamp: float) -> str:
    """Discord's date markup (``28/11/2026``, as the reader's client writes dates)."""
    return f"<t:{int(timestamp)}:d>"


def relative_time(timestamp: float) -> str:
    """Discord's relative-time markup (``in 5 minutes``, in the reader's client language)."""
    return f"<t:{int(timestamp)}:R>"


def full_time(timestamp: float) -> str:
    """Discord's date-and-time markup (``29 November 2026 20:15``, the reader's own zone)."""
    return f"<t:{int(timestamp)}:f>"


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
        self.version = 0  # counts the changes of faces (a menu built before is stale)

    def use(self, faces: Mapping[Card, discord.PartialEmoji]) -> None:
        """Write cards with these faces from now on (all 52, or text for all)."""
        faces = dict(faces) if len(faces) == FACES else {}
        if faces != self._faces:
            self._faces = faces
            self.version += 1

    @property
    def faces(self) -> dict[Card, discord.PartialEmoji]:
        """The faces in use (empty: cards are text)."""
        return dict(self._faces)

    def card(self, c: Card) -> str:
        """A card in a message or embed: its face ``<:ace_of_spades_…:id>``, else :func:`card`."""
        face = self._faces.get(c)
        return str(face) if face is not None else card(c)

    def cards(self, cs: Iterable[Card], *, empty: str | None = None) -> str:
        """Cards separated by spaces, or ``empty``."""
        return cards(cs, empty=empty, fmt=self.card)

    def emoji(self, c: Card) -> discord.PartialEmoji | None:
        """The card's face for a menu option's ``emoji`` (``None``: text only)."""
        return self._faces.get(c)

    def label(self, c: Card) -> str:
        """A card in a menu's label, placeholder or description, or a private note: with
        the faces, every suit as text in the theme's colour (``Q♦︎``), so that beside the
        face (a menu option's emoji, the hand above the note) no red or black suit emoji
        says other colours than the reader's deck (four colours: ♦ blue, ♣ green); as
        text alone, :func:`plain` (``Q♦``, red)."""
        if not self._faces:
            return plain(c)
        return f"{c.rank_name}{SUIT_NEUTRAL[c.suit]}"

    def line(self, text: str) -> str:
        """``text`` with the cards it names as text (``A♥``, ``2♠︎``) shown as faces: a last
        move or a note is made once, as text, and shown wherever it goes."""
        if not self._faces or not text:
            return text
        return CARD_TEXT.sub(lambda found: self.card(_card_of(found)), text)


def _card_of(found: re.Match[str]) -> Card:
    """The card a :data:`CARD_TEXT` match names."""
    rank_text, symbol = found.group(1), found.group(2)
    rank = RANK_NUMBERS.get(rank_text) or int(rank_text)
    return Card(rank, SUIT_LETTERS[symbol])


FACES = 52
TEXT_INK = CardInk()  # never given faces: cards as text


def sorted_cards(cs: Iterable[Card]) -> list[Card]:
    """Cards in the order a player holds them: by rank (ace first), then suit."""
    return sorted(cs, key=lambda c: (c.rank, "SHDC".index(c.suit)))


def plain(c: Card) -> str:
    """A card for a label where emoji are not drawn in colour: ``A♥``."""
    return f"{c.rank_name}{SUIT_PLAIN[c.suit]}"


def cards(cs: Iterable[Card], *, empty: str | None = None, fmt: Any = card) -> str:
    """Cards separated by spaces, or ``empty`` (English "(none)" if not given)."""
    text = " ".join(fmt(c) for c in cs)
    return text or (EN("(none)") if empty is None else empty)


def variant_name(variant: str, t: Lang = EN) -> str:
    """A variant as people call it in this language (``Svenskt kasino``)."""
    name = VARIANT_NAMES.get(variant)
    return t(name) if name else variant


def table_text(game: Game, fmt: Any = card, t: Lang = EN) -> str:
    """The table's cards and builds (``[8 = 5♥+3♣ | 8♠] Anna's``), and where captured
    cards lie face up (Swazi, Sotho, South African) the top card of each pile."""
    rnd = game.match.round
    shown = []
    for item in rnd.table:
        text = item_text(item, fmt)
        if isinstance(item, Build):
            text = t("{build} {name}'s", build=text, name=seat_name(game.seats[item.owner], t))
        shown.append(text)
    text = " · ".join(shown) if any(isinstance(i, Build) for i in rnd.table) else " ".join(shown)
    text = text or t("empty")
    if rnd.rules.pile_order != "card-first":  # piles lie face up: their tops are in play
        tops = [
            f"{_pile_name(game, index)} {fmt(pile[-1])}"
            for index, pile in enumerate(rnd.piles)
            if pile
        ]
        if tops:
            text += "\n" + t("**Pile tops:** {tops}", tops=" · ".join(tops))
    return text


def _pile_name(game: Game, index: int) -> str:
    shared = game.match.rules.shared_piles and game.match.rules.teams
    return side_name(game, index) if shared else seat_name(game.seats[index])


def sweep_scores(rules: Rules) -> bool:
    """Whether clearing the table scores in these rules: always in the Nordic games (a
    tabbe, a mökki), in the games with builds only with the ``sweeps`` option. A sweep that
    scores nothing goes unsaid, as a cry of "sweep!" would promise a point."""
    return rules.sweeps


def sweep_word(rules: Rules, t: Lang = EN) -> str:
    """What a sweep is called in this variant and language (tabbe, sweep, mökki)."""
    t = t.for_game(rules.name)
    if rules.name == "finnish":
        return t.pgettext("sweep", "mökki")  # its own word in English too, as its rules say
    return t.pgettext("sweep", "tabbe")


def item_name(rules: Rules, key: str, t: Lang = EN) -> str:
    """A score item as players of this variant call it, in the reader's language."""
    t = t.for_game(rules.name)
    names = BUILDING_ITEM_NAMES if rules.builds else ITEM_NAMES
    if rules.lowest_wins:
        names = {**KRYP_ITEM_NAMES, **KRYP_SWEDISH}
    return t(names[key]) if key in names else key


def or_values(values: Sequence[int], t: Lang = EN) -> str:
    """``1 or 14``."""
    return f" {t.pgettext('list', 'or')} ".join(map(str, values))


def value_note(rules: Rules, played: Card, values: Sequence[int], t: Lang = EN) -> str:
    """How the played card counts, when that is not just its rank: ``" as 14"``."""
    if not values or tuple(values) == (played.rank,):
        return ""
    return t(" as {values}", values=or_values(values, t))


def played_words(
    seat: Any,
    rules: Rules,
    play: Any,
    later: Round | None,
    *,
    auto: bool = False,
    rewarded: Any = None,
    t: Lang = EN,
) -> str:
    """A played move (the engine's ``Play``) in words as the table says it: the seat's name,
    what the card counted as in the Nordic games, a sweep or a mulle; ``later``, the round
    after a build, says how builds were grouped; ``rewarded``: in Krypkasino the seat
    before the mover, named in a tabbe's reward."""
    move = play.move
    values = () if rules.builds else capture_targets(rules, move.card, move.taken)
    return describe_move(
        seat_name(seat, t),
        rules,
        move,
        values,
        sweep=play.sweep,
        mulle=play.mulle,
        auto=auto,
        later=later,
        rewarded=seat_name(rewarded, t) if rewarded is not None else "",
        t=t,
    )


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
    rewarded: str = "",
    t: Lang = EN,
) -> str:
    """The last move in words: ``Anna played A♥ as 14 and took 4♣ 9♦ A♠: tabbe!``,
    ``Anna built 8: 3♣+5♥`` (``later``: the round after a build, for its groups). In
    Krypkasino a trail is a krypa and a tabbe says its penalty and who is ``rewarded``."""
    if rules.forced_capture and move.is_trail:
        text = t("{name} played {card} as a krypa", name=name, card=plain(move.card))
    elif move.kind == "capture" and not rules.builds:
        taken = cards(move.taken, fmt=plain)
        if value_note(rules, move.card, values):
            text = t(
                "{name} played {card} as {values} and took {cards}",
                name=name,
                card=plain(move.card),
                values=or_values(values, t),
                cards=taken,
            )
        else:
            text = t(
                "{name} played {card} and took {cards}",
                name=name,
                card=plain(move.card),
                cards=taken,
            )
    else:
        text = move_sentence(name, move, plain, later, t)
    sweep = sweep and sweep_scores(rules)
    bonus = [
        word
        for word, flag in ((t.pgettext("sweep", "mulle"), mulle), (sweep_word(rules, t), sweep))
        if flag
    ]
    if sweep and rules.reward_points and rewarded:
        text = t(
            "{move}: tabbe! +{penalty} for {name}, −{reward} for {rewarded}.",
            move=text,
            penalty=rules.tabbe_points,
            name=name,
            reward=rules.reward_points,
            rewarded=rewarded,
        )
    elif sweep and rules.reward_points:  # no name at hand: say whose seat it is
        text = t(
            "{move}: tabbe! +{penalty} for {name}, −{reward} for the player who played"
            " before them.",
            move=text,
            penalty=rules.tabbe_points,
            name=name,
            reward=rules.reward_points,
        )
    elif bonus:
        text = t("{move}: {bonus}!", move=text, bonus=t.listing(bonus))
    else:
        text = t("{move}.", move=text)
    if auto:
        text = t("{move} (automatic move: time ran out)", move=text)
    return text


def choice_label(rules: Rules, played: Card, choice: Choice, t: Lang = EN, fmt: Any = plain) -> str:
    """A capture option: ``Take 4♣ 9♦ A♠ (A♥ as 14)`` (cards written by ``fmt``)."""
    taken = cards(choice.taken, fmt=fmt)
    if value_note(rules, played, choice.values):
        label = t(
            "Take {cards} ({card} as {values})",
            cards=taken,
            card=fmt(played),
            values=or_values(choice.values, t),
        )
    else:
        label = t("Take {cards}", cards=taken)
    return label[:100]


def choice_description(rules: Rules, choice: Choice, t: Lang = EN) -> str:
    """Why an option ranks where it does: cards, points, sweep, mulle. In Krypkasino the
    points are penalties and say so (a tabbe's included)."""
    cards_taken = t.ngettext("{n} card", "{n} cards", choice.cards)
    if rules.lowest_wins:
        parts = [
            cards_taken,
            t.ngettext("{n} penalty point", "{n} penalty points", choice.points),
        ]
        if choice.sweep:
            parts.append(t("{points} of them for the tabbe", points=rules.tabbe_points))
        return " · ".join(parts)[:100]
    parts = [cards_taken, t.ngettext("{n} point", "{n} points", choice.points)]
    if choice.sweep and sweep_scores(rules):
        parts.append(sweep_word(rules, t) + "!")
    if choice.mulle:
        parts.append(t.pgettext("sweep", "mulle") + "!")
    return " · ".join(parts)[:100]


def rules_line(options: GameOptions, t: Lang = EN, *, silent: bool = False) -> str:
    """``Swedish Kasino to 16, teams, 5 min turns``; ``Krypkasino, limit 50 (lowest
    wins), …``. ``silent``: a game reached only through clicks, whose turn has no reminder
    and the reminder's time too (:data:`bot.stages.SILENT_TURNS`): its whole limit."""
    variant = variant_name(options.variant, t)
    if lowest_wins(options.variant):
        parts = [
            t("{variant}, limit {target} (lowest wins)", variant=variant, target=options.target)
        ]
        parts += kryp_words(options, t)
    else:
        parts = [t("{variant} to {target}", variant=variant, target=options.target)]
        if options.teams:
            parts.append(t("teams (seats 1+3 against 2+4)"))
    parts += [t(SWITCH_WORDS[name]) for name in options.switches]
    if options.correspondence:
        parts.append(t(PACE_NAMES[options.pace]))
    else:
        parts.append(turn_limit(options.turn_seconds * (SILENT_TURNS if silent else 1), t))
    return ", ".join(parts)


def kryp_words(options: GameOptions, t: Lang = EN) -> list[str]:
    """Krypkasino's options as the rules line says them (the defaults unsaid)."""
    words = []
    if options.teams and options.team_size == 3:
        words.append(t("two teams of three (seats 1+3+5 against 2+4+6)"))
    elif options.teams:
        words.append(t("teams of two, partners opposite"))
    if not options.take_all:
        words.append(t("any capture will do (not only the whole ones)"))
    if options.majorities:
        words.append(t("majorities (most cards 1, most spades 2)"))
    return words


def turn_limit(seconds: int, t: Lang = EN) -> str:
    """``5 min turns``, ``10 s turns``, ``1 min 30 s turns``: whole units, never a fraction."""
    minutes, rest = divmod(int(seconds), 60)
    if not minutes:
        return t("{seconds} s turns", seconds=rest)
    if not rest:
        return t("{minutes} min turns", minutes=minutes)
    return t("{minutes} min {seconds} s turns", minutes=minutes, seconds=rest)


def lobby_embed(game: Game, t: Lang = EN) -> discord.Embed:
    """The public lobby: rules and seats."""
    title = t("Kasino: {variant}", variant=variant_name(game.options.variant, t))
    embed = discord.Embed(title=title, colour=TABLE_COLOUR)
    rules = rules_line(game.options, t, silent=by_interaction(game.extra))
    embed.add_field(name=t("Rules"), value=rules, inline=False)
    lines = []
    for index, seat in enumerate(game.seats):
        host = t(" (host)") if seat.user_id == game.host_id else ""
        team = (
            t(" · team {letter}", letter=TEAM_LETTERS[game.side_of(index)])
            if game.options.teams
            else ""
        )
        cut = " ✂️" if has_cut(game, seat) else ""  # who has cut the deck (not the number)
        lines.append(f"{index + 1}. **{seat_name(seat, t)}**{host}{team}{cut}")
    seats = t(
        "Seats ({count}/{limit})", count=len(game.seats), limit=seat_limit(game.options.variant)
    )
    embed.add_field(name=seats, value="\n".join(lines), inline=False)
    embed.add_field(name=t("Hints"), value=hints_line(game, t), inline=False)
    if game.status is Status.CANCELLED:
        embed.description = t("This lobby was cancelled.")
    elif game.status is Status.FINISHED and game.match is not None:
        embed.description = final_line(game, t)
    elif not game.status.active:
        embed.description = ended_text(game.status, t)
    elif game.status is not Status.LOBBY:
        embed.description = t("The game has started: the table is posted below at every turn.")
    else:
        need = team_need(game.options, t) or players_needed(game.options.rules(), t)
        embed.description = t(
            "Press **Join** to take a seat ({need}). The host may add computer players"
            " (🤖 easy, normal or hard) and presses **Start**.",
            need=need,
        )
    footer = t("Game #{id}", id=game.id)
    if game.status is Status.LOBBY and lobby_commitment(game) is not None:
        # the seed's commitment goes to each person privately (on Join, to the host with
        # /kasino new); the lobby only says the deal can be checked, and "How to check"
        # gives the values to whoever asks
        footer += "\n" + t(FAIR_MARK)
    embed.set_footer(text=footer)
    return embed


def has_cut(game: Game, seat: Any) -> bool:
    """Whether a seated person has cut the deck in the lobby (``GameService.cut_deck``)."""
    cuts = game.extra.get("lobby_cuts")
    return isinstance(cuts, dict) and seat.user_id is not None and str(seat.user_id) in cuts


def lobby_commitment(game: Game) -> str | None:
    """The commitment to the match seed a lobby shows (32 hex digits, 128 bits): from the
    seed drawn when it opened, or once dealt from the match's (``None``: none)."""
    if game.status is Status.LOBBY and game.extra.get("seed") is not None:
        return shown(seed_commitment(game.extra["seed"], game.id))
    if game.match is not None and seed_shown_in(game) == game.id and version(game) == 2:
        return shown(seed_commitment(game.match.seed, game.id))
    return None


def seat_name(seat: Any, t: Lang = EN) -> str:
    """A seat's name; a computer's in this language (``🤖 Normal bot``); a person who had
    the bot forget them (``/kasino forget-me``) is a "former player"."""
    if not seat.is_computer:
        return seat.name or t("former player")
    number = seat.name.rsplit(" ", 1)[-1]
    level = t(LEVEL_NAMES.get(seat.level or "", seat.level or ""))
    if number.isdigit():
        return t("🤖 {level} bot {number}", level=level, number=number)
    return t("🤖 {level} bot", level=level)


LEVEL_NAMES = {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard")}


def side_name(game: Game, side: int, t: Lang = EN) -> str:
    """A readable name for a side: the player, or both partners."""
    if not game.options.teams:
        return seat_name(game.seats[side], t)
    return " & ".join(seat_name(s, t) for i, s in enumerate(game.seats) if game.side_of(i) == side)


def team_need(options: GameOptions, t: Lang = EN) -> str:
    """How many players a team game needs (``""``: not a team game)."""
    if not options.teams:
        return ""
    if options.variant != "krypkasino":
        return t("4 players")
    if options.team_size == 3:
        return t("6 players: two teams of three")
    return t("4 or 6 players: teams of two")


def players_needed(rules: Rules, t: Lang = EN) -> str:
    """``2 to 4 players``; ``2 or 3 players, or 4 in partnerships``; ``2 or 4 players``;
    ``2 to 6 players``."""
    counts = rules.player_counts
    if max(counts) == 6:
        return t("2 to 6 players")
    if counts == (2, 4):
        if rules.four_in_teams:
            return t("2 players, or 4 in partnerships")
        return t("2 or 4 players")
    if rules.four_in_teams:
        return t("2 or 3 players, or 4 in partnerships")
    return t("2 to 4 players")


def hints_line(game: Game, t: Lang = EN) -> str:
    """Whether hints are on, and what that means for the leaderboard."""
    if not game.hints:
        return t("Off")
    if game.has_computers:
        return t("On: the hand view has a **Hint** button")
    return t("On: the hand view has a **Hint** button; the result is marked on the leaderboard")


def _side_field(game: Game, side: int, t: Lang) -> tuple[str, str]:
    match = game.match
    rnd = match.round
    seats = [i for i in range(len(game.seats)) if game.side_of(i) == side]
    captured = sum(len(rnd.piles[i]) for i in seats)
    if match.rules.lowest_wins:
        value = t(
            "Score **{score}** (limit {target})",
            score=total(match.scores[side]),
            target=match.rules.target,
        )
        if game.status is Status.PLAYING:
            # nothing counts before the round ends: what the side has taken so far
            value += "\n" + t("This round: {points}", points=signed(taken_so_far(rnd, side)))
    else:
        value = t(
            "Score **{score}** / {target}",
            score=total(match.scores[side]),
            target=match.rules.target,
        )
    value += "\n" + t.ngettext("Captured {n} card", "Captured {n} cards", captured)
    if match.rules.sweeps:  # a count of sweeps that score nothing would only mislead
        sweeps = sum(rnd.sweeps[i] for i in seats)
        value += f" · {sweep_word(match.rules, t)} {sweeps}"
    return side_name(game, side, t), value


def taken_so_far(rnd: Round, side: int) -> int:
    """Krypkasino: the penalty points a side has taken this round (its cards, tabbar and
    rewards; the leftovers and any majorities come at the end)."""
    items = rnd.live_items()[side]
    cards = penalty_points(rnd.rules, rnd.side_piles()[side])
    return cards + items["tabbe"] + items["reward"]


def total(points: int) -> str:
    """A score as players read it: ``12``, and below zero (Krypkasino's rewards) ``−2``
    with a minus sign, as :func:`signed` writes it."""
    return str(points).replace("-", MINUS)


def signed(points: int) -> str:
    """Penalty points as they add up: ``+3``, ``−5`` (a minus sign, not a hyphen)."""
    return f"{points:+d}".replace("-", MINUS)


def deal_line(game: Game, t: Lang = EN) -> str:
    """``Round 2 · deal 3 of 6``, with the sistan warning on the last deal."""
    match = game.match
    k, n = deal_progress(match.round)
    line = t("Round {round} · deal {k} of {n}", round=match.rounds_played + 1, k=k, n=n)
    if match.round.is_last_deal:
        if match.rules.builds:
            line += t(" · ⚠️ **last deal!**")
        else:
            line += t(" · ⚠️ **sistan: last deal!**")
    return line


def cut_line(game: Game, t: Lang = EN) -> str:
    """Who cut the round in play (bot.records.seal): ``Cut: Anna's click on Start``, or
    ``Cut: the moves of round 1``; ``""`` for a game dealt before cuts."""
    match = game.match
    number = match.rounds_played + 1
    cut = round_cut(game, number)
    if cut is None:
        return ""
    made = cuts_in(cut) if version(game) == 2 else {}
    if made:
        # every round of the match is cut by the players who cut the deck in the lobby
        names = [
            f"{seat_name(game.seats[seat], t)} ({value})"
            for seat, value in made.items()
            if 0 <= seat < len(game.seats)
        ]
        return t("Cut by: {names}", names=t.listing(names, "and"))
    if number > 1 and version(game) != 2:
        return t("Cut: the moves of round {number}", number=number - 1)
    if cut == "table:-":  # a tournament's table, its seed derived from the tournament's
        return t("Dealt from the tournament's committed seed; no player cut the deck")
    cut_by = game.extra.get("cut_by")
    cut_by = cut_by if isinstance(cut_by, dict) else {}
    by = cut_by.get("seat")
    if isinstance(by, int) and 0 <= by < len(game.seats):
        name = seat_name(game.seats[by], t)
    else:
        name = t("the host")
    if cut_by.get("how") == "rematch":
        return t("Shuffled with the id of {name}'s click on Rematch", name=name)
    if cut_by.get("how") == "table":  # a tournament's table (GameService.open_table)
        return t("Cut: the number Discord gave this table's thread")
    return t("Shuffled with the id of {name}'s click on Start", name=name)


def score_line(game: Game, t: Lang = EN) -> str:
    """``Anna **3** · Bjorn **5** (to 16)``; where the lowest wins, lowest first:
    ``Bjorn **12** · Anna **30** (lowest wins, limit 50)``."""
    match = game.match
    scores = " · ".join(
        f"{side_name(game, side, t)} **{total(match.scores[side])}**" for side in side_order(game)
    )
    if match.rules.lowest_wins:
        return t("{scores} (lowest wins, limit {target})", scores=scores, target=match.rules.target)
    return t("{scores} (to {target})", scores=scores, target=match.rules.target)


def side_order(game: Game) -> list[int]:
    """The sides in the order scores are shown: seat order, or where the lowest total wins
    (Krypkasino) lowest first."""
    sides = list(range(game.sides))
    if game.match is not None and game.match.rules.lowest_wins:
        scores = game.match.scores
        sides.sort(key=lambda side: (scores[side], side))
    return sides


def due(game: Game, t: Lang = EN) -> str:
    """`` (time runs out in 5 minutes)`` as a Discord relative timestamp, or nothing."""
    if not game.deadline or game.extra.get("paused"):
        return ""
    seat = game.seats[game.match.round.to_move]
    if seat.is_computer:
        return t(" (thinking…)")
    clock = game.extra.get("clock")
    if game.options.correspondence and isinstance(clock, dict) and "ends" in clock:
        return correspondence_due(clock, t)
    if by_interaction(game.extra):
        # nothing can be posted there when it runs out (bot.stages): the players are told
        return t(
            " (time runs out {when}; the next click at the table applies it)",
            when=relative_time(game.deadline),
        )
    return t(" (time runs out {when})", when=relative_time(game.deadline))


def correspondence_due(clock: dict[str, Any], t: Lang = EN) -> str:
    """`` (time runs out in 23 hours, 29 November 2026 20:15)``: a correspondence turn's
    end as Discord timestamps, each reader's own time zone; a mover away on vacation
    says until when."""
    ends = int(clock["ends"])
    when, date = relative_time(ends), full_time(ends)
    away = clock.get("away")
    if isinstance(away, (int, float)):
        until = full_time(away)
        return t(
            " (on vacation until {until}; time runs out {when}, {date})",
            until=until,
            when=when,
            date=date,
        )
    return t(" (time runs out {when}, {date})", when=when, date=date)


def last_move(game: Game, t: Lang = EN) -> str:
    """The game's last move in words, in this language (a game saved before the bot spoke
    several languages has it in English only)."""
    said = game.extra.get("last_move", {})
    return str(said.get(t.code) or game.last_move) if game.last_move else ""


def table_embed(
    game: Game,
    *,
    paused: bool = False,
    ink: CardInk = TEXT_INK,
    t: Lang = EN,
    final_shown: bool = False,
) -> discord.Embed:
    """The public table: table cards, whose turn, deal k of n, sides, last move. Players
    are named by name (a mention in an embed shows as a number where not cached).
    ``final_shown``: a finished match's end message, where some person has no private
    place for the final head (:func:`sealed_footer`)."""
    t = t.for_game(game.options.variant)  # the game's card words (big casino, storan, mökki)
    match = game.match
    rnd = match.round
    paused = paused or bool(game.extra.get("paused"))
    rules = rules_line(game.options, t, silent=by_interaction(game.extra))
    embed = discord.Embed(title=t("Kasino: {rules}", rules=rules), colour=TABLE_COLOUR)
    table = table_text(game, ink.card, t)
    lines = [t("**Table ({count}):** {table}", count=len(rnd.table), table=table)]
    if game.status is Status.PLAYING:
        lines.append(deal_line(game, t))
        if paused:
            lines.append(
                t(
                    "Round {done} is over; round {next} is dealt in a moment.",
                    done=match.rounds_played,
                    next=match.rounds_played + 1,
                )
            )
        else:
            seat = game.seats[rnd.to_move]
            lines.append(t("**To move:** {name}{due}", name=seat_name(seat, t), due=due(game, t)))
    elif game.status is Status.FINISHED:
        lines.append(f"🏆 **{winner_text(game, t)}**")
    else:
        lines.append(t(ENDINGS.get(game.status, ENDINGS[Status.STOPPED])))
    if game.last_move:
        lines.append(moves_text(run_moves(game, t), ink, t))
    embed.description = "\n".join(lines)
    for side in side_order(game):
        name, value = _side_field(game, side, t)
        embed.add_field(name=name, value=value, inline=True)
    footer = t("Game #{id}", id=game.id)
    if game.status is Status.PLAYING:
        footer += t(" · press “Your hand” to see your cards and play")
    footer += sealed_footer(game, t, final_shown=final_shown)
    if live_head(game) is not None and game.status in (Status.PLAYING, Status.FINISHED):
        # one plain mark, where the How to check button is (a table in play, the end): the
        # values (deal commitments, the sealed log's heads) are behind it, sent privately,
        # and in the export (docs/record.md)
        footer += "\n" + t(FAIR_MARK)
    embed.set_footer(text=footer)
    return embed


def winner_text(game: Game, t: Lang = EN) -> str:
    """``Anna wins 17 to 12``; where the lowest wins ``Anna wins with the lowest total, 12
    against 48, 57``."""
    match = game.match
    winner = match.winner
    if winner is None:
        return t("No winner")
    others = ", ".join(total(match.scores[i]) for i in side_order(game) if i != winner)
    if match.rules.lowest_wins:
        return t(
            "{name} wins with the lowest total, {score} against {others}",
            name=side_name(game, winner, t),
            score=total(match.scores[winner]),
            others=others,
        )
    return t(
        "{name} wins {score} to {others}",
        name=side_name(game, winner, t),
        score=total(match.scores[winner]),
        others=others,
    )


def ended_text(status: Status, t: Lang = EN) -> str:
    """How a game that ended without a winner ended, in a sentence (``The game is over.``
    for a finished one)."""
    message = ENDINGS.get(status)
    return t(message) if message else t("The game is over.")


# The one plain line that says a game can be checked ("How to check" gives the values)
FAIR_MARK = N_("🔒 Fair deal · sealed moves: press “How to check”")


def sealed_footer(game: Game, t: Lang = EN, *, final_shown: bool = False) -> str:
    """What of the seal a table's footer still carries, in small text: with
    ``final_shown``, a finished match's final head (a person who gets no private hand view
    at the end, or a table of computers only, sees it here); a game that ended without a
    result its final head. Nothing while the game is played. A rematch's seed commitment
    is not here: a player sees it before the rematch is cut, privately, under How to check
    or when cutting the rematch (docs/record.md: what a player checks is what they saw)."""
    final = live_final(game)
    footer = ""
    if game.status is Status.FINISHED:
        if final is not None and final_shown:
            footer += t(" · match sealed: {head}", head=shown(final))
        elif final is None and live_head(game) is not None and final_shown:
            footer += t(" · moves sealed: {head}", head=short(live_head(game) or ""))
    elif final is not None and game.status in (Status.STOPPED, Status.ABANDONED):
        # a game that ended without a result is sealed too: its record can be exported
        footer += t(" · match sealed: {head}", head=shown(final))
    return footer


def final_line(game: Game, t: Lang = EN) -> str:
    """The one message at the end of a match: ``🏆 Game over: Anna wins 17 to 12.`` (the
    seal's values are in the table's footer where needed, :func:`sealed_footer`, and in
    each player's hand view, :func:`final_head_line`)."""
    return t("🏆 Game over: **{winner}**.", winner=winner_text(game, t))


FINAL_HEAD = N_(
    "🔒 Match sealed: `{head}`. Note it: with the game's export,"
    " `python -m bot verify --head` proves this is the match played."
)


def final_head_line(game: Game, t: Lang = EN) -> str:
    """A player's private note of the match's final head (``""``: none), in their hand
    view's last update: what `python -m bot verify --head` proves the whole match with."""
    final = live_final(game)
    if final is not None:
        return t(FINAL_HEAD, head=shown(final))
    head = live_head(game)
    if head is not None:  # an older chain: its last head is what its end showed
        return t("🔒 Moves sealed: `{head}`.", head=short(head))
    return ""


def private_heads(game: Game, is_open: Any) -> bool:
    """Whether every person seated gets the final head privately: each has a hand view
    ``is_open(user id)`` can still edit at the end (a table of computers only has none)."""
    people = [seat for seat in game.seats if seat.is_human]
    return bool(people) and all(is_open(int(seat.user_id or 0)) for seat in people)


# The most characters the table and a summary give the moves of a run (as drawn, card
# faces included; a description may hold 4096): the oldest are left out beyond it
MOVES_CHARS = 1500


def run_moves(game: Game, t: Lang = EN) -> list[str]:
    """The moves the table shows, oldest first, in this language: the moves since a
    person last moved (a computers' run), or the last move alone."""
    run = game.extra.get("run")
    if not game.last_move or not isinstance(run, list) or not run:
        return [last_move(game, t)] if game.last_move else []
    return [
        str(said.get(t.code) or said.get(EN.code, "")) for said in run if isinstance(said, dict)
    ]


def moves_text(moves: Sequence[str], ink: CardInk = TEXT_INK, t: Lang = EN) -> str:
    """``**Last move:** …``, or for a run ``**Last moves:**`` and one line each, oldest
    first; the oldest are left out (``…``) beyond :data:`MOVES_CHARS`."""
    drawn = [ink.line(move) for move in moves if move]
    if not drawn:
        return ""
    if len(drawn) == 1:
        return t("**Last move:** {move}", move=drawn[0])
    kept = [drawn[-1]]
    for move in reversed(drawn[:-1]):
        if sum(len(line) + 3 for line in kept) + len(move) > MOVES_CHARS:
            kept.insert(0, "…")
            break
        kept.insert(0, move)
    return t("**Last moves:**") + "".join(f"\n· {line}" for line in kept)


def round_summary(
    game: Game,
    finished: Any,
    scores: Sequence[Any] | None,
    round_number: int,
    last_move: str | Sequence[str] = "",
    *,
    ink: CardInk = TEXT_INK,
    t: Lang = EN,
) -> discord.Embed:
    """The public summary of a finished round: each side's items and the match totals."""
    t = t.for_game(game.options.variant)
    match = game.match
    title = t("Round {round} is over", round=round_number)
    embed = discord.Embed(title=title, colour=TABLE_COLOUR)
    piles = finished.side_piles()
    low = match.rules.lowest_wins
    for side in side_order(game):
        pile = piles[side]
        spades = sum(c.suit == "S" for c in pile)
        lines = [
            t.ngettext("{n} spade", "{n} spades", spades)
            + " · "
            + t.ngettext("{n} card", "{n} cards", len(pile))
        ]
        if scores is not None:
            items = scores[side].items
            lines += [
                # one form in every game: "Storan (10♦): 6" (a minus sign when it is less)
                f"{ink.line(item_name(match.rules, k, t))}: {total(v)}"
                for k, v in items.items()
                if v
            ]
            lines.append(t("Round: **{total}**", total=total(scores[side].total)))
        if low:
            match_line = t(
                "Match: **{score}** (limit {target})",
                score=total(match.scores[side]),
                target=match.rules.target,
            )
        else:
            match_line = t(
                "Match: **{score}** / {target}",
                score=total(match.scores[side]),
                target=match.rules.target,
            )
        lines.append(match_line)
        embed.add_field(name=side_name(game, side, t), value="\n".join(lines), inline=True)
    moves = [last_move] if isinstance(last_move, str) else list(last_move)
    last = moves_text(moves, ink, t)
    last += "\n" if last else ""
    if low:
        last += t("Points are penalties: the lowest total wins.") + "\n"
    if match.is_over:
        embed.description = f"{last}🏆 {winner_text(game, t)}!"
    elif game.extra.get("paused"):
        embed.description = last + t("Round {round} is dealt in a moment.", round=round_number + 1)
    else:
        embed.description = last + t("Round {round} is dealt.", round=round_number + 1)
    return embed


STEP_PROMPTS = {
    "card": N_("**Your turn**{due}: choose a card to play."),
    "take": N_("**Your turn**{due}: choose what it takes."),
    "pick": N_("**Your turn**{due}: choose the table cards it takes."),
}
BUILDING_STEP_PROMPTS = STEP_PROMPTS | {
    "take": N_("**Your turn**{due}: choose what it does."),
    "pick": N_("**Your turn**{due}: choose the table items it uses."),
}


def hand_content(
    game: Game,
    seat: int,
    note: str = "",
    step: str = "card",
    *,
    ink: CardInk = TEXT_INK,
    t: Lang = EN,
) -> str:
    """The ephemeral hand view's text for one seat (never sent publicly): the sorted hand,
    the table, deal k of N with the sistan warning, the score, the last move and whose
    turn it is, with the time left as a Discord relative timestamp."""
    t = t.for_game(game.options.variant)
    match = game.match
    rnd = match.round
    lines = [ink.line(note)] if note else []
    lines.append(
        t(
            "**{title}** · {variant}, game #{id}",
            title=t(HAND_TITLE),
            variant=variant_name(game.options.variant, t),
            id=game.id,
        )
    )
    lines.append(ink.cards(sorted_cards(rnd.hands[seat]), empty=t("(empty)")))
    lines.append(t("**Table:** {table}", table=table_text(game, ink.card, t)))
    if game.status is Status.PLAYING:
        lines.append(deal_line(game, t))
    lines.append(t("**Score:** {score}", score=score_line(game, t)))
    if game.last_move:
        lines.append(t("**Last move:** {move}", move=ink.line(last_move(game, t))))
    if game.status is not Status.PLAYING:
        if match.winner is not None:
            lines.append(t("The game is over. {winner}.", winner=winner_text(game, t)))
        else:
            lines.append(ended_text(game.status, t))
        sealed = final_head_line(game, t)
        if sealed:
            lines.append(sealed)
    elif game.extra.get("paused"):
        lines.append(
            t(
                "Round {done} is over. These are your cards for round {next}; play starts {when}.",
                done=match.rounds_played,
                next=match.rounds_played + 1,
                when=relative_time(game.deadline or 0),
            )
        )
    elif rnd.to_move == seat:
        prompts = BUILDING_STEP_PROMPTS if match.rules.builds else STEP_PROMPTS
        lines.append(t(prompts.get(step, STEP_PROMPTS["card"]), due=due(game, t)))
    else:
        name = seat_name(game.seats[rnd.to_move], t)
        lines.append(t("Waiting for {name} to play{due}.", name=name, due=due(game, t)))
    return "\n".join(lines)


def standings(game: Game, t: Lang = EN) -> str:
    """A running match's scores, one side a line (where the lowest wins, lowest first and
    said so)."""
    match = game.match
    if match.rules.lowest_wins:
        lines = [
            f"{side_name(game, side, t)}: **{total(match.scores[side])}**"
            for side in side_order(game)
        ]
        lines.append(
            t(
                "Lowest wins; the match ends when a side reaches {target}.",
                target=match.rules.target,
            )
        )
        return "\n".join(lines)
    return "\n".join(
        f"{side_name(game, side, t)}: **{total(match.scores[side])}** / {match.rules.target}"
        for side in range(game.sides)
    )


def board_sweeps(variant: str | None, count: int, t: Lang = EN) -> str:
    """A leaderboard row's count of cleared tables, in the words of its board's game
    (English Casino's sweeps, Swedish tabbar, Finnish mökit); the board of all games
    (``variant`` None) says tabbar in English."""
    return t.for_game(variant).ngettext("{n} tabbe", "{n} tabbar", count)


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
    t: Lang = EN,
) -> discord.Embed:
    """One page of a leaderboard (rows are ``storage.BoardRow``): matches between people,
    or with ``computers`` the matches played against computer players."""
    t = t.for_game(variant)  # a board of one game counts its sweeps in its words
    board = variant_name(variant, t) if variant else t("All variants")
    low = bool(variant) and lowest_wins(variant or "")
    if low:
        board += t(", limit {target}", target=target) if target else t(", all limits")
        board += t(" (lowest wins)")
    else:
        board += t(", to {target}", target=target) if target else t(", all targets")
    title = t("Kasino vs computers") if computers else t("Kasino leaderboard")
    embed = discord.Embed(title=f"{title}: {board}", colour=TABLE_COLOUR)
    names = names or {}
    lines = [
        t(
            "**{rank}.** {name}{mark}: {wins} in {matches} ({rate}) · {points} · {tabbar}",
            rank=offset + n + 1,
            name=mention_or_name(row.user_id, names),
            mark=hinted_mark(row.hinted),
            wins=t.ngettext("{n} win", "{n} wins", row.wins),
            matches=t.ngettext("{n} match", "{n} matches", row.matches),
            rate=t.percent(row.win_rate),
            points=t.ngettext("{n} penalty point", "{n} penalty points", row.points)
            if low
            else t.ngettext("{n} point", "{n} points", row.points),
            tabbar=board_sweeps(variant, row.tabbar, t),
        )
        for n, row in enumerate(rows)
    ]
    embed.description = "\n".join(lines) or t("No finished matches on this board yet.")
    footer = t("Page {page} of {pages}", page=page, pages=pages)
    if any(row.hinted for row in rows):
        footer += t(" · {mark} some matches played with hints", mark=HINTED_MARK)
    embed.set_footer(text=footer)
    return embed
