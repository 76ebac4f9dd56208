"""The rules summaries of ``/kasino rules``, one per variant (translated where shown)."""

from __future__ import annotations

import discord

from bot.engine import rules_for
from bot.i18n import EN, N_, Lang
from bot.models import GameOptions
from bot.render import TABLE_COLOUR, rules_line
from bot.translator import command_name

RULES_TEXT = {
    "swedish": N_(
        "**Swedish Kasino** (2–4 players, one deck). Play one card a turn: capture table cards"
        " whose values add up to it, in one or more groups (J 11, Q 12, K 13, an ace 1 or 14),"
        " or trail it onto the table. Emptying the table is a **tabbe** (1 point). After the"
        " last card the last capturer takes what is left (**sistan**, 1 point).\n"
        "Round scoring: most spades 2, most cards 1, each ace 1, storan (10♦) 2,"
        " lillan (2♠\ufe0e) 1, sistan 1, each tabbe 1. {target}"
    ),
    "overspader": N_(
        "**Överspader**: Swedish Kasino, but instead of 2 points for most spades every side"
        " scores 1 point for each spade beyond six. {target}"
    ),
    "finnish": N_(
        "**Finnish Kasino**: cards count differently in hand: an ace is 14 (1 on the table),"
        " 2♠\ufe0e is 15 and 10♦ is 16 from hand. Points count as you go (aces, 2♠\ufe0e 1,"
        " 10♦ 2, each **mökki** 1), so the match can end mid-round; most spades 2 and most"
        " cards 1 come at the end of the round. Mökki do not count in the last deal or once"
        " anyone has 10 points, and equal mökki cancel. No sistan point. {target}"
    ),
    "mulle": N_(
        "**Mulle**: two decks, five cards each and five to the table, dealt one at a time."
        " Captures as in Swedish Kasino. Taking exactly the identical card (same rank and"
        " suit) with nothing else is a **mulle**: 5 points. Scoring: most spades 1, aces 1,"
        " each storan 2, each lillan 1, sistan 1, tabbe 1, mulle 5. {target}"
    ),
    "casino": N_(
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
    "royal": N_(
        "**Royal Casino**: Casino, but J counts 11, Q 12, K 13 and an ace 1 or 14, so"
        " pictures and aces capture sums and are built like any card. {target}"
    ),
    "mulle-glimne": N_(
        "**Glimne's Mulle** (2 players or 4 in partnerships, two decks). Builds as in"
        " Casino; in hand an ace is 14, 2♠\ufe0e 15 and 10♦ 16. Taking a card's identical"
        " twin is a **mulle**, worth the card's hand value. Scoring: each 10♦ 3, each"
        " 2♠\ufe0e 2, each ace 2, every other spade 1, each tabbe 1, the mulles. {target}"
    ),
    "swazi": N_(
        "**Swazi Casino** (2 or 3 players, or 4 in partnerships; J 11, Q 12, K 13, ace 1 or"
        " 14). Play goes to the right; captured cards lie face up in piles, and the top"
        " cards of the opponents' piles can join your builds. Capture, build, change an"
        " opponent's simple build's value, augment your side's builds, or trail (and make a"
        " build from table cards as you trail). Never two builds of one value on the"
        " table. Round scoring: most cards 2, most spades 2, 2♠\ufe0e 1, 10♦ 2, each ace 1."
        " {target}"
    ),
    "sotho": N_(
        "**Sotho Casino**: Swazi Casino, but pictures have no number (a picture takes"
        " pictures of its rank), an ace is 1, and partners keep separate piles. {target}"
    ),
    "south-african": N_(
        "**South African Casino** (2–4 players, 40 cards without pictures, the ace 1)."
        " Casino's captures and builds; the top card of every other player's pile can be"
        " captured as if on the table. You may not trail (drift) while you own a build,"
        " except in a two-player game's second deal. Round scoring: most cards 2, more than"
        " five spades 1, 2♠\ufe0e 1, 10♦ 2, each ace 1. {target}"
    ),
    "krypkasino": N_(
        "**Krypkasino** (2–6 players, two decks): the Swedish game where every point is a"
        " penalty, so you try **not** to take cards and the **lowest** total wins. Captures"
        " as in Swedish Kasino (J 11, Q 12, K 13), but an ace is 14 from the hand and 1 on"
        " the table. A card that can capture **must** capture, taking every group it can;"
        " only a card that takes nothing may **krypa** (crawl: be put on the table, taking"
        " nothing). Everyone gets four cards a deal; the first deal also lays eight cards"
        " face up on the table, or four when there are five players (so that the 104 cards"
        " come out even). Emptying the table is a **tabbe**: 5 penalty points for the taker"
        " and −5 for the player who played just before the taker (Anna plays a 3 as a krypa"
        " beside a lone 6, Bo takes both with a 9: Bo +5, Anna −5). After the last card the"
        " last capturer takes what is left.\n"
        "Penalties: each **storan** (10♦) 3, each **lillan** (2♠\ufe0e) 2, each ace 1 and each"
        " spade except lillan 1, so A♠\ufe0e costs 2 (an ace and a spade) and 7♠\ufe0e 1: 42"
        " in a round. Options: teams of two (4 or 6 players, partners"
        " opposite) or two teams of three (6 players, seats alternating); the whole capture"
        " (on: no group that adds up may be left); majorities (most cards 1, most spades 2)."
        " {target}"
    ),
}


def default_target(variant: str, t: Lang = EN) -> str:
    """The sentence on a variant's usual match length, which ``/kasino new`` can change."""
    rules = rules_for(variant)
    if rules.lowest_wins:
        return t(
            "The match ends after the round in which a side reaches the limit, {target} points"
            " unless the lobby sets another; the lowest total wins (a tie for lowest plays"
            " another round).",
            target=rules.target,
        )
    return t(
        "A match is to {target} points unless the lobby sets another target.", target=rules.target
    )


def rules_embed(variant: str, t: Lang = EN, game: GameOptions | None = None) -> discord.Embed:
    """The rules summary of one variant (an embed's description holds at most 4,096
    characters); with ``game``, the options of the channel's game of that variant too."""
    embed = discord.Embed(title=t("Kasino rules"), colour=TABLE_COLOUR)
    embed.description = t(RULES_TEXT[variant], target=default_target(variant, t))
    rules = rules_for(variant)
    if rules.builds and not rules.sweeps:  # Casino's option, off by default: say so
        embed.description += " " + t(
            "A sweep (clearing the table) scores nothing unless the lobby turns sweeps on."
        )
    if game is not None and game.variant == variant:
        embed.add_field(name=t("The game in this channel"), value=rules_line(game, t))
    embed.set_footer(
        text=t(
            "Start a game with {new}; see your cards with {hand}.",
            new=command_name(t, "new"),
            hand=command_name(t, "hand"),
        )
    )
    return embed
