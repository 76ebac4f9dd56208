"""The answer to "How to check" (lobby, table, end message, replay): what the 🔒 mark
means, this game's values shown so far, and the commands that check them.

The public messages carry only the one plain mark (:data:`bot.render.FAIR_MARK`); the
values a player must have seen at the time go to them privately (the seed's commitment on
Join, the final head in their hand view at the end), and the whole record is in the export
(docs/record.md). Nothing here reveals what a game in progress hides: its seed and round
seeds only once the match is over, as the export and the replay do.
"""

from __future__ import annotations

from bot.i18n import EN, Lang
from bot.models import Game, Status
from bot.records.deals import round_commitment, seed_commitment, short
from bot.records.seal import cuts_in, live_final, live_head, round_cut, shown, version
from bot.render import cut_line, lobby_commitment
from bot.translator import command_name, option_name

# An ephemeral answer holds 2000 characters: a long match's round seeds are left to the
# export beyond this many rounds
ROUNDS_SHOWN = 6


def check_text(game: Game, t: Lang = EN) -> str:
    """The private "How to check" answer for a game, at any point of its life."""
    lines = [t("🔒 **How to check game #{id}**", id=game.id)]
    lines.append(
        t(
            "**Fair deal:** the bot drew the seed before anyone cut the deck and committed to"
            " it; every deal comes from that seed and the players' cuts, so nobody (not even"
            " whoever runs the bot, once someone cut) could choose the cards."
        )
    )
    lines.append(
        t(
            "**Sealed moves:** every move is chained into one hash with the seats, rules and"
            " result; the match's final head changes if anything in its record is changed."
        )
    )
    lines.extend(_values(game, t))
    lines.append(
        t(
            "After the game: `{export} {game}:{id}`, then"
            " `python -m bot verify kasino-{id}.json --head HEAD --seed SEED`, with the final"
            " head from your hand view and the seed commitment you were sent on Join."
            " How it works: docs/record.md.",
            id=game.id,
            export=command_name(t, "export"),
            game=option_name(t, "game"),
        )
    )
    return "\n".join(lines)


def _values(game: Game, t: Lang) -> list[str]:
    """This game's values, as far as they were shown (never a seed before the end)."""
    lines = []
    committed = lobby_commitment(game)
    if committed is not None:
        lines.append(t("· Seed commitment: `{value}`", value=committed))
    match = game.match
    if match is None:
        return lines
    cut = cut_line(game, t)
    if cut:
        lines.append(f"· {cut}")
    if _nobody_cut(game):
        lines.append(
            t(
                "· Nobody cut this game's deck: its deals depend on the seed and a click's id"
                " that only the bot sees, so whoever runs the bot could have chosen them. Cut"
                " the deck in the lobby to rule that out."
            )
        )
    if game.status is Status.PLAYING:
        number = match.rounds_played + 1
        deal = short(round_commitment(match.seed, game.id, number, round_cut(game, number)))
        lines.append(t("· Round {number}'s shuffle: `{value}`", number=number, value=deal))
        head = live_head(game)
        if head is not None:
            lines.append(t("· Moves so far: `{value}`", value=short(head)))
        return lines
    lines.extend(_ended(game, t))
    return lines


def _nobody_cut(game: Game) -> bool:
    """Whether a dealt game of the whole-match seal was cut by a click alone (Start or
    Rematch): then the "Fair deal" above does not hold for it, and the answer says so (a
    tournament's table, dealt from the tournament's committed seed, is not such a game)."""
    cut = round_cut(game, 1)
    return (
        version(game) == 2
        and cut is not None
        and cut.startswith(("start:", "rematch:"))
        and not cuts_in(cut)
    )


def _ended(game: Game, t: Lang) -> list[str]:
    """A match over: its final head, its seed and rounds, a rematch's commitment."""
    lines = []
    final = live_final(game)
    if final is not None:
        lines.append(t("· Final head: `{value}`", value=shown(final)))
    elif live_head(game) is not None:
        lines.append(t("· Last head: `{value}`", value=short(live_head(game) or "")))
    match = game.match
    lines.append(t("· Seed: `{value}`", value=str(match.seed)[:80]))
    played = match.rounds_played + (0 if match.round.is_over else 1)
    for number in range(1, min(played, ROUNDS_SHOWN) + 1):
        deal = round_commitment(match.seed, game.id, number, round_cut(game, number))
        lines.append(t("· Round {number}'s shuffle: `{value}`", number=number, value=short(deal)))
    if played > ROUNDS_SHOWN:
        lines.append(t("· The other rounds' shuffles are in the export."))
    following = game.extra.get("next_seed")
    if following is not None and game.status is Status.FINISHED:
        value = shown(seed_commitment(following, game.id))
        lines.append(t("· A rematch's seed commitment: `{value}`", value=value))
    return lines


def tournament_check_text(
    tournament_id: int, commitment: str, seed: str | None, t: Lang = EN
) -> str:
    """The private "How to check" answer for a tournament (its sign-up and podium): how
    its deals are made, the commitment to its deal seed (the 32 hex digits each entrant
    was sent on Join) and, once the tournament is over (``seed`` given), that seed."""
    lines = [
        t("🔒 **How to check tournament #{id}**", id=tournament_id),
        t(
            "**Fair deal:** the bot drew the tournament's seed when the sign-up opened and"
            " committed to it at once; each table's seed comes from it, the round and the"
            " table's number, and the table is cut by its players' cuts from the sign-up."
        ),
        t("· Seed commitment: `{value}`", value=commitment[:32]),
    ]
    if seed is not None:
        lines.append(t("· Tournament seed (revealed now it is over): `{value}`", value=seed))
    else:
        lines.append(t("· The tournament's seed is revealed once the tournament is over."))
    lines.append(
        t(
            "After a table's game: `{export} {game}:GAME`, then"
            " `python -m bot verify kasino-GAME.json --head HEAD --seed {commitment}`, with the"
            " final head from your hand view. How it works: docs/record.md.",
            export=command_name(t, "export"),
            game=option_name(t, "game"),
            commitment=commitment[:32],
        )
    )
    return "\n".join(lines)
