"""Issue 33's "done when", through SimCord: an organiser runs a 16-player Swiss evening of
Swedish Kasino and a 6-player Krypkasino round robin from ``/kasino tournament new`` to the
podium, touching nothing after Start, and every table's match is played to its real end
by its players (no deadline, abandonment or forfeit decides any table).

Each match opens with its players' clicks (the hand view's card and take menus, as
:meth:`Harness.play_move` plays), and each deal's last cards, the match's last move among
them, are clicked too; the other moves go through the bot's own move path
(:meth:`GameService.play` and the table's follow-up, what the hand view's menus call after
parsing a click): every move clicked, the evening took a minute on a loaded machine.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import discord
import pytest

from bot.models import Game, Status
from bot.moves import auto_move, round_choices
from bot.storage.tournaments import TournamentRow
from bot.tournaments.model import Decided, Phase
from bot.tournaments.pairing import final_standings
from bot.tournaments.standings import draw_key
from bot.tournaments.tables import results_of, round_tables
from tests.bot.kasino_harness import Harness, cid, components, custom_ids, stored
from tests.dbrows import query

SIXTEEN = tuple(f"player{n:02d}" for n in range(5, 17))  # with the harness's four
SIX = ("erik", "frida")
CLICKED = 4  # each match's first moves, played through its players' clicks


def by_click(moves: int, game: Game) -> bool:
    """Whether a match's next move is clicked: its first :data:`CLICKED` moves, and each
    player's last card of every round, so every match is ended by a click."""
    rnd = game.match.round
    return moves < CLICKED or (not rnd.deck and sum(map(len, rnd.hands)) <= len(rnd.hands))


def admin(harness: Harness) -> Any:
    """A member with Manage Server: the organiser (who plays in no table)."""
    role = harness.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return harness.guild.add_member(harness.env.create_user("organiser"), roles=[role])


def tour_id(message: Any) -> int:
    """The tournament id on a sign-up message's buttons."""
    found = {int(c.split(":")[2]) for c in custom_ids(message) if c.startswith("k:tour:")}
    assert len(found) == 1, custom_ids(message)
    return found.pop()


async def sign_up(harness: Harness, organiser: Any, **options: Any) -> int:
    """``/kasino tournament new``, every member presses Join, the organiser Start."""
    result = await harness.slash(organiser, "kasino tournament new", **options)
    assert result.response is not None and not result.ephemeral, result
    signup = result.response.message
    tid = tour_id(signup)
    for member in harness.members:
        joined = await harness.click(member, signup, custom_id=f"k:tour:{tid}:join")
        assert not joined.ephemeral, joined.response.content
    signup = harness.current(signup)
    started = await harness.click(organiser, signup, custom_id=f"k:tour:{tid}:start")
    assert not started.ephemeral, started.response.content
    await harness.env.settle()
    return tid


def thread_of(harness: Harness, thread_id: int) -> Any:
    return next(t for t in harness.channel.threads if t.id == thread_id)


async def click_move(harness: Harness, game: Game, thread: Any) -> None:
    """The player to move plays the safe move through their hand view in the table's
    thread: "Your hand" on the table, the card, then what it takes."""
    rnd = game.match.round
    seat = rnd.to_move
    member = harness.member(int(game.seats[seat].user_id))
    move = auto_move(rnd)
    table = harness.table_message(game, thread)
    hand = await harness.click(member, table, custom_id=cid(table, "k:hand:"))
    assert hand.ephemeral, hand
    message = hand.response
    before = game.version
    index = rnd.hands[seat].index(move.card)
    choices = round_choices(rnd, move.card, 23)  # none: the card is played at once
    step = await harness.select(member, message, [str(index)], custom_id=cid(message, "k:card:"))
    if choices:
        value = "trail"
        if not move.is_trail:
            ranked = (n for n, c in enumerate(choices) if sorted(c.taken) == sorted(move.taken))
            value = f"c{next(ranked, 0)}"  # else the menu's first capture
        message = step.response
        await harness.select(member, message, [value], custom_id=cid(message, "k:take:"))
    assert game.version > before


async def direct_move(harness: Harness, game: Game) -> None:
    """The player to move plays the safe move through the bot's own move path, as the
    hand view's menus do once a click is parsed: the move committed, then the table's
    follow-up (its timer, the hand views)."""
    cog = harness.cog
    async with cog.games.session(game.id) as live:
        assert live is game and game.status is Status.PLAYING
        seat = game.match.round.to_move
        outcome = await cog.games.play(game, seat, auto_move(game.match.round))
        cog.table.after_move(outcome, mover=int(game.seats[seat].user_id))


async def seated(harness: Harness, tid: int) -> TournamentRow:
    """The row once every table of the round has its thread and game (the threads are
    made at the pace Discord's rate limits allow: a few virtual seconds)."""
    for _ in range(120):
        row = await stored(harness, tid)
        if all(tr.game_id and tr.thread_id for tr in round_tables(row) if not tr.table.bye):
            return row
        await harness.env.advance_time(1)
    raise AssertionError(f"round {row.round}'s tables were not all opened: {round_tables(row)}")


async def play_round(harness: Harness, tid: int) -> TournamentRow:
    """Play every table of the current round to its end, one move at a table in turn
    (the tables play side by side, as in a real evening); returns the row after."""
    row = await seated(harness, tid)
    number = row.round
    tables = [tr for tr in round_tables(row) if not tr.table.bye]
    games = []
    for tr in tables:
        game = await harness.cog.games.active(tr.thread_id)
        assert game is not None and game.id == tr.game_id and game.status is Status.PLAYING
        assert not game.hints and not game.has_computers
        games.append((game, thread_of(harness, tr.thread_id)))
    for moves in itertools.count():
        playing = [(g, t) for g, t in games if g.status is Status.PLAYING]
        if not playing:
            break
        for game, thread in playing:
            if by_click(moves, game):
                await click_move(harness, game, thread)
            else:
                await direct_move(harness, game)
        await harness.env.advance_time(1)
    # the results are recorded as the games end; the standings' edits go out at the
    # channel's rate limit (virtual seconds)
    for _ in range(60):
        row = await stored(harness, tid)
        if row.round > number or row.phase is not Phase.RUNNING:
            break
        await harness.env.advance_time(1)
    done = [tr for tr in row.tables if tr.table.round == number]
    assert all(tr.result is not None for tr in done), done
    return row


async def check_played(harness: Harness, row: TournamentRow) -> None:
    """Every table was played to its end and its result is its match's, winner first."""
    for tr in row.tables:
        result = tr.result
        assert result is not None
        if tr.table.bye:
            assert result.decided is Decided.BYE
            continue
        assert result.decided is Decided.PLAYED, tr
        game = await harness.cog.games.storage.get_game(tr.game_id)
        assert game.status is Status.FINISHED and game.match.is_over
        winner = tr.table.players.index(int(game.seats[game.match.winner].user_id))
        assert result.places[winner] == 0 and sorted(result.places) == [0, 1]
        assert list(result.points) == list(game.match.scores)
        # by its players: no automatic move (a timed-out turn) was played for anyone
        sql = "SELECT COUNT(*) AS n FROM moves WHERE game_id = ? AND auto <> 0"
        assert query(harness.env.bot.config.db_path, sql, (game.id,))[0]["n"] == 0


def check_hands_off(harness: Harness, organiser: Any, row: TournamentRow, before: set[int]) -> None:
    """After Start the organiser touched nothing, and at every table both of its players
    clicked in its thread (the interactions SimCord received since ``before``)."""
    since = [r for i, r in harness.env.backend.interactions.items() if i not in before]
    assert not [r for r in since if r.user_id == organiser.id]
    for tr in row.tables:
        clickers = {r.user_id for r in since if r.channel_id == tr.thread_id}
        assert clickers == set(tr.table.players), tr


def standings_posts(harness: Harness) -> dict[int, Any]:
    """The standings messages by round."""
    found = {}
    for message in harness.public_messages():
        title = message.embeds[0].title if message.embeds else ""
        if title and "standings after round" in title:
            found[int(title.rsplit("round ", 1)[1].split()[0])] = message
    return found


def check_standings(
    harness: Harness, row: TournamentRow, number: int, *, lowest_wins: bool
) -> None:
    """Round ``number``'s standings message: posted once, every table counted, its players
    in the order the documented tiebreaks give after that round."""
    shown = standings_posts(harness)
    assert sorted(shown) == list(range(1, number + 1)), shown
    tables = sum(tr.table.round == number for tr in row.tables)
    embed = shown[number].embeds[0]
    assert f"Tables finished: {tables} of {tables}." in embed.description
    names = {e.user_id: e.name for e in row.entrants}
    order = expected_order(row, lowest_wins=lowest_wins, upto=number)
    assert listed_names(shown[number]) == [names[u] for u in order]


def expected_order(row: TournamentRow, *, lowest_wins: bool, upto: int = 99) -> list[int]:
    """The standings' order worked out here from the stored results of the rounds up to
    ``upto``, by the documented tiebreaks (2-player tables, no byes): match points (a win
    1), the opponents' average match-win share (each at least 1/3), the points difference
    (reversed where the lowest wins), then the seeded draw."""
    wins: dict[int, int] = {e.user_id: 0 for e in row.entrants}
    played = dict.fromkeys(wins, 0)
    difference = dict.fromkeys(wins, Fraction(0))
    met: dict[int, list[int]] = {user: [] for user in wins}
    for tr in row.tables:
        if tr.table.round > upto:
            continue
        result = tr.result
        assert result is not None and len(tr.table.players) == 2
        for seat, user in enumerate(tr.table.people):
            other = tr.table.people[1 - seat]
            wins[user] += result.places[seat] == 0
            played[user] += 1
            gained = result.points[seat] - result.points[1 - seat]
            difference[user] += -gained if lowest_wins else gained
            met[user].append(other)
    share = {user: max(Fraction(1, 3), Fraction(wins[user], played[user])) for user in wins}
    opponents = {user: sum(share[o] for o in met[user]) / len(met[user]) for user in wins}
    return sorted(
        wins,
        key=lambda u: (-wins[u], -opponents[u], -difference[u], draw_key(row.seed, u)),
    )


def listed_names(message: Any) -> list[str]:
    """The names in a standings or podium message's standings, in order."""
    embed = message.embeds[0]
    lines = [line for field in embed.fields for line in str(field.value).splitlines()]
    return [line.split("**")[1] for line in lines if "**" in line]


async def check_podium(harness: Harness, row: TournamentRow, *, lowest_wins: bool) -> list[int]:
    """The podium follows the standings' documented order; returns it (user ids)."""
    order = expected_order(row, lowest_wins=lowest_wins)
    final = final_standings(row.settings, row.entrants, results_of(row), seed=row.seed)
    assert [s.user_id for s in final] == order
    assert [s.rank for s in final] == list(range(1, len(order) + 1))
    podium = next(m for m in harness.public_messages() if m.id == row.extra["podium_id"])
    names = {e.user_id: e.name for e in row.entrants}
    assert listed_names(podium) == [names[u] for u in order]
    top = podium.embeds[0].description.splitlines()[:3]
    assert top == [f"{medal} **{names[u]}**" for medal, u in zip("🥇🥈🥉", order, strict=False)]
    # a Replay button per game, by round and table, as many as a message holds beside the
    # tournament's How to check (24: the latest), each labelled with its round and table
    buttons = [c for c in components(podium) if str(c.get("custom_id")).startswith("k:replay:")]
    played = sorted(row.tables, key=lambda tr: (tr.table.round, tr.table.number))[-24:]
    assert components(podium)[-1]["custom_id"] == f"k:tour:{row.id}:check"
    assert [int(c["custom_id"].split(":")[2]) for c in buttons] == [tr.game_id for tr in played]
    assert [c["label"] for c in buttons] == [
        f"Round {tr.table.round} · #{tr.table.number}" for tr in played
    ]
    assert f"{len(row.tables)} games were played" in podium.embeds[0].description
    return order


@pytest.mark.parametrize("backend", ["sqlite"])
@pytest.mark.usefixtures("virtual_waits")
async def test_a_sixteen_player_swiss_evening_of_swedish_kasino(harness: Harness) -> None:
    harness.add_members(SIXTEEN)
    people = [m.id for m in harness.members]
    assert len(people) == 16
    organiser = admin(harness)
    tid = await sign_up(harness, organiser, title="Kasino evening", target=5)
    before = set(harness.env.backend.interactions)
    row = await stored(harness, tid)
    assert row.phase is Phase.RUNNING and row.extra["rounds"] == 4
    for number in range(1, 5):
        assert row.round == number and row.phase is Phase.RUNNING
        assert len(round_tables(row)) == 8
        row = await play_round(harness, tid)
        check_standings(harness, row, number, lowest_wins=False)
    assert row.phase is Phase.FINISHED and row.round == 4
    await check_played(harness, row)
    check_hands_off(harness, organiser, row, before)
    # no pairing repeats
    pairs = [frozenset(tr.table.players) for tr in row.tables]
    assert len(pairs) == 32 == len(set(pairs))
    order = await check_podium(harness, row, lowest_wins=False)
    # tournament games count on the ratings like any game: four rated matches each, those
    # with the most wins above those with the fewest (Swiss pairing may float a 0-3 player
    # up to a 1-2 one in the last round, so nobody need lose all four)
    storage = harness.cog.games.storage
    guild = harness.guild.id
    mu = {}
    for user in people:
        rating, _, total = await storage.rating(guild, "swedish", user)
        assert rating is not None and rating.matches == 4 and total == 16
        history = await storage.rating_history(guild, "swedish", user)
        assert len(history) == 4 and all(new != old for old, _, new, _ in history)
        mu[user] = rating.mu
    standing = {s.user_id: s for s in final_standings(row.settings, row.entrants,
                                                      results_of(row), seed=row.seed)}  # fmt: skip
    wins = {u: standing[u].wins for u in people}
    best = [u for u in people if wins[u] == max(wins.values())]
    worst = [u for u in people if wins[u] == min(wins.values())]
    # 32 wins among 16: the extremes are two wins apart unless all sixteen won two each
    assert max(wins.values()) - min(wins.values()) >= 2, wins
    assert min(mu[u] for u in best) > max(mu[u] for u in worst), (wins, mu)
    # each player's profile lists the evening with their place
    for user in people:
        profile = await harness.slash(harness.member(user), "kasino profile", variant="swedish")
        fields = {f.name: f.value for f in profile.response.embeds[0].fields}
        place = order.index(user) + 1
        assert f"place {place} of 16 · **Kasino evening**" in fields["Tournaments"], fields
    # and each one's history names the evening and the round of each match
    someone = harness.member(people[0])
    history = await someone.slash(harness.channel, "kasino history", member=someone)
    lines = str(history.response.embeds[0].description).splitlines()
    assert sum("· Kasino evening, round" in line for line in lines) == 4, lines
    # and the server's tournaments board: the winner first
    board = await harness.slash(harness.members[1], "kasino tournaments")
    embed = board.response.embeds[0]
    first = str(embed.description).splitlines()[0]
    assert row.entrant(order[0]).name in first and "1 win · 1 podium" in first, first
    assert "Page 1 of 2" in embed.footer.text


@pytest.mark.usefixtures("virtual_waits")
async def test_a_six_player_krypkasino_round_robin(harness: Harness) -> None:
    harness.add_members(SIX)
    people = [m.id for m in harness.members]
    organiser = admin(harness)
    tid = await sign_up(
        harness, organiser, title="Kryp night", variant="krypkasino", format="round-robin", target=5
    )
    before = set(harness.env.backend.interactions)
    row = await stored(harness, tid)
    assert row.phase is Phase.RUNNING and row.extra["rounds"] == 5
    for number in range(1, 6):
        assert row.round == number and row.phase is Phase.RUNNING
        assert len(round_tables(row)) == 3 and not any(tr.table.bye for tr in round_tables(row))
        row = await play_round(harness, tid)
        check_standings(harness, row, number, lowest_wins=True)
    assert row.phase is Phase.FINISHED and row.round == 5
    await check_played(harness, row)
    check_hands_off(harness, organiser, row, before)
    # everyone met everyone once
    pairs = {frozenset(tr.table.players) for tr in row.tables}
    assert len(row.tables) == len(pairs) == 15 and set().union(*pairs) == set(people)
    # the lowest penalty wins each match: its winner holds the least points
    for tr in row.tables:
        winner = tr.result.places.index(0)
        assert tr.result.points[winner] == min(tr.result.points) < max(tr.result.points)
    order = await check_podium(harness, row, lowest_wins=True)
    for user in people:
        rating, _, _ = await harness.cog.games.storage.rating(harness.guild.id, "krypkasino", user)
        assert rating is not None and rating.matches == 5
    board, total = await harness.cog.games.storage.tournament_board(harness.guild.id)
    assert total == 6 and board[0].user_id == order[0] and board[0].wins == 1
