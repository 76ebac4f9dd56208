"""Deals no one can steer (issue 39 §3) through SimCord: the seed's commitment (32 hex
digits) is sent privately to the host and to each person who joins and stays on the lobby
after Start; seated people may cut the deck once before Start, the lobby shows who did,
and every round is shuffled with their cuts (no click id, no user id); verify with the
final head and the commitment each player was sent proves the match and says the bot could
not choose the deals."""

from __future__ import annotations

import io
import json
import tempfile

from bot.models import Status
from bot.records.cli import OK, verify_file
from bot.records.deals import round_commitment, seed_commitment, short
from bot.records.record import load_record
from bot.records.seal import live_final
from tests.bot.kasino_harness import Harness, button, cid, hand_now, how_to_check
from tests.bot.test_bot_match import play_match


async def test_the_players_cut_the_deck_and_each_is_sent_the_commitment(
    harness: Harness,
) -> None:
    anna, bjorn, carl = harness.members[:3]
    opened = await harness.slash(anna, "kasino new", target=11)
    lobby = opened.response.message
    game = await harness.game()
    assert game is not None
    committed = seed_commitment(game.extra["seed"], game.id)[:32]
    # the host is sent it privately, with the lobby
    (sent,) = opened.followups
    assert sent.flags.ephemeral and committed in sent.content
    joined = await harness.click(bjorn, lobby, custom_id=button(lobby, "join"))
    (sent,) = joined.followups
    assert sent.flags.ephemeral and f"--seed {committed}" in sent.content
    # a person not seated cannot cut; a seated one cuts once
    lobby = harness.current(lobby)
    refused = await harness.select(carl, lobby, ["5"], custom_id=cid(lobby, "k:cut:"))
    assert refused.ephemeral and "Only a seated player" in refused.response.content
    cut = await harness.select(anna, lobby, ["7"], custom_id=cid(lobby, "k:cut:"))
    (told,) = cut.followups
    assert told.flags.ephemeral and "**7**" in told.content and committed in told.content
    lobby = harness.current(lobby)
    seats = lobby.embeds[0].fields[1].value
    assert "anna** (host) ✂️" in seats and "bjorn** ✂️" not in seats  # who, not the number
    again = await harness.select(anna, lobby, ["9"], custom_id=cid(lobby, "k:cut:"))
    assert again.ephemeral and "already cut the deck (at 7)" in again.response.content
    await harness.select(bjorn, lobby, ["19"], custom_id=cid(lobby, "k:cut:"))
    lobby = harness.current(lobby)
    assert f"Seed commitment: `{committed}`" in await how_to_check(harness, carl, lobby)
    await harness.click(anna, harness.current(lobby), custom_id=button(lobby, "start"))
    game = await harness.game()
    assert game is not None and game.status is Status.PLAYING
    # every round cut by the players' cuts, by seat: no click id, no user id
    assert game.extra["cuts"] == ["players;0=7;1=19"] and "lobby_cuts" not in game.extra
    assert str(anna.id) not in json.dumps(game.extra["cuts"])
    # the lobby and the table stay quiet: "How to check" gives the commitment, who cut
    # and the deal's commitment to anyone who asks
    assert committed not in harness.current(lobby).embeds[0].footer.text
    table = harness.table_message(game)
    answer = await how_to_check(harness, carl, table)
    assert "Cut by: anna (7) and bjorn (19)" in answer and "Cut" not in table.embeds[0].description
    assert "Nobody cut" not in answer
    deal = short(round_commitment(game.match.seed, game.id, 1, "players;0=7;1=19"))
    assert f"Round 1's shuffle: `{deal}`" in answer and deal not in table.embeds[0].footer.text
    views = record_hand_views(harness)
    await play_match(harness, game)
    final = live_final(game) or ""
    # each player reads the final head in their hand view's last update
    for member in (anna, bjorn):
        assert f"Match sealed: `{final[:32]}`" in hand_now(harness, views[member.id]).content
    record, _ = await load_record(harness.cog.games.storage, game.id)
    assert record.rounds >= 2 and record.round_cut(2) == "players;0=7;1=19"
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        file.write(record.to_json())
    out = io.StringIO()
    assert verify_file(file.name, out, head=final[:32], seed=committed) == OK, out.getvalue()
    assert "the cuts of seat 0 (7) and seat 1 (19): the bot could not choose" in out.getvalue()
    # another commitment than the one sent: the seed was not the one committed to
    out = io.StringIO()
    assert verify_file(file.name, out, head=final[:32], seed="0" * 32) == 1
    assert "not the one committed to" in out.getvalue()


async def test_a_cut_after_start_or_out_of_range_changes_nothing(harness: Harness) -> None:
    anna, bjorn = harness.members[:2]
    lobby = await harness.open_lobby(anna)
    await harness.click(bjorn, lobby, custom_id=button(lobby, "join"))
    lobby = harness.current(lobby)
    select = cid(lobby, "k:cut:")
    forged = await harness.forge(anna, lobby, select, ["26"])
    assert forged.ephemeral
    game = await harness.game()
    assert game is not None and "lobby_cuts" not in game.extra
    await harness.click(anna, lobby, custom_id=button(lobby, "start"))
    late = await harness.forge(bjorn, lobby, select, ["3"])
    assert late.ephemeral
    game = await harness.game()
    assert game is not None and game.extra["cuts"][0].startswith("start:")


async def test_a_stopped_game_reveals_its_seed_and_verifies(harness: Harness) -> None:
    """A game stopped mid-match was refused a record before (its seed never revealed): now
    its last table shows the final head, and its export (the moves played, no result)
    verifies against it; a game in play is still refused."""
    game = await harness.start_game(2, target=21)
    for _ in range(5):
        await harness.play_move(game)
    playing = await harness.slash(harness.members[0], "kasino export", game=game.id)
    assert playing.ephemeral and not playing.response.attachments
    await harness.slash(harness.members[0], "kasino stop")
    assert game.status is Status.STOPPED
    final = live_final(game) or ""
    said = [m.content for m in harness.public_messages() if "Match sealed" in (m.content or "")]
    assert final and said and f"Match sealed: `{final[:32]}`" in said[-1]
    exported = await harness.slash(harness.members[0], "kasino export", game=game.id)
    (attachment,) = exported.response.attachments
    data = json.loads(await attachment.read())
    assert data["result"]["ended"] == "stopped" and data["result"]["winner"] is None
    assert len(data["moves"]) == 5 and data["seed"] == game.match.seed
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        file.write(json.dumps(data))
    out = io.StringIO()
    committed = seed_commitment(game.match.seed, game.id)[:32]
    assert verify_file(file.name, out, head=final[:32], seed=committed) == OK, out.getvalue()
    assert "stopped before its end: no winner" in out.getvalue()
    # passing it off as won (or another ending) fails against the head
    forged = {**data, "result": {**data["result"], "ended": "deadline"}}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        file.write(json.dumps(forged))
    assert verify_file(file.name, io.StringIO(), head=final[:32]) == 1


async def test_a_tournament_commits_to_its_seed_and_each_table_is_derived(
    harness: Harness,
) -> None:
    """A tournament's deal seed is committed to when its sign-up opens (sent to each
    entrant on Join; its How to check gives it, the channel shows no hex value); entrants
    may cut; each table's seed is derived from it, the round and the table (no thread id),
    cut by its players' cuts. A table's record reveals the tournament's seed only once the
    tournament is over; verify then checks the
    derivation against the commitment each entrant was sent."""
    from bot.records.deals import table_seed, tournament_commitment
    from bot.tournaments.deals import deal_seed
    from bot.tournaments.model import Phase
    from tests.bot.test_bot_tournaments import admin, stored, tour_id

    organiser = admin(harness)
    opened = await harness.slash(
        organiser, "kasino tournament new", title="Fair", format="round-robin",
        round_minutes=30, cap=4, target=21,
    )  # fmt: skip
    signup = opened.response.message
    tid = tour_id(signup)
    row = await stored(harness, tid)
    seed = deal_seed(row.extra)
    assert seed is not None
    committed = tournament_commitment(tid, seed)
    assert committed[:32] not in signup.embeds[0].footer.text  # How to check has it
    for member in harness.members:
        joined = await harness.click(member, signup, custom_id=f"k:tour:{tid}:join")
        (sent,) = joined.followups
        assert sent.flags.ephemeral and f"--seed {committed[:32]}" in sent.content
    anna, bjorn = harness.members[:2]
    signup = harness.current(signup)
    await harness.select(anna, signup, ["7"], custom_id=cid(signup, "k:tcut:"))
    signup = harness.current(signup)
    again = await harness.select(anna, signup, ["8"], custom_id=cid(signup, "k:tcut:"))
    assert again.ephemeral and "already cut the deck (at 7)" in again.response.content
    outsider = await harness.select(organiser, signup, ["3"], custom_id=cid(signup, "k:tcut:"))
    assert outsider.ephemeral and "Only a player signed up" in outsider.response.content
    await harness.select(bjorn, signup, ["19"], custom_id=cid(signup, "k:tcut:"))
    assert "✂️" in harness.current(signup).embeds[0].fields[-1].value
    await harness.slash(organiser, "kasino tournament start")
    row = await stored(harness, tid)
    assert row.phase is Phase.RUNNING
    cuts = {anna.id: 7, bjorn.id: 19}
    games = []
    for tr in row.tables:
        game = await harness.cog.games.storage.get_game(tr.game_id)
        games.append(game)
        assert game.match.seed == table_seed(seed, tr.table.round, tr.table.number)
        made = {i: cuts[p] for i, p in enumerate(tr.table.players) if p in cuts}
        expected = "players;" + ";".join(f"{i}={n}" for i, n in sorted(made.items()))
        assert game.extra["cuts"] == [expected if made else "table:-"]
        assert str(tr.thread_id) not in json.dumps(game.extra["cuts"])
    # the round's deadline stops the tables: their records say so; the tournament's seed
    # is not revealed while it runs
    await harness.env.advance_time(30 * 60 + 1)
    game = await harness.cog.games.storage.get_game(games[0].id)
    assert game.status is Status.STOPPED and game.extra["ended"] == "deadline"
    record, _ = await load_record(harness.cog.games.storage, game.id)
    assert record.ended == "deadline" and record.tournament["seed"] is None
    assert seed not in record.to_json()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        file.write(record.to_json())
    out = io.StringIO()
    assert verify_file(file.name, out, head=record.final(), seed=committed[:32]) == 2
    assert "revealed when the tournament is over" in out.getvalue()
    # once it is over, the export reveals it and verify checks the derivation
    await harness.slash(organiser, "kasino tournament end")
    exported = await harness.slash(anna, "kasino export", game=game.id)
    (attachment,) = exported.response.attachments
    data = json.loads(await attachment.read())
    assert data["tournament"]["seed"] == seed and data["result"]["ended"] == "deadline"
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        file.write(json.dumps(data))
    out = io.StringIO()
    code = verify_file(file.name, out, head=record.final(), seed=committed[:32])
    assert code == OK, out.getvalue()
    assert "derived from the tournament's, committed to when its sign-up opened" in out.getvalue()
    # a table seed not derived from the committed tournament seed fails
    forged = {**data, "tournament": {**data["tournament"], "table": 9}}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        file.write(json.dumps(forged))
    out = io.StringIO()
    assert verify_file(file.name, out) == 1
    assert "not derived from the tournament's" in out.getvalue()


async def test_the_players_may_cut_a_rematch_on_the_end_message(harness: Harness) -> None:
    """The rematch's seed is committed to before its click (How to check, Cut the
    rematch); its players may cut the deck from the end message (once, privately: the end
    message is not edited), and the rematch is dealt with their cuts instead of the
    Rematch click, which only the bot sees."""
    anna, bjorn, carl = harness.members[:3]
    game = await harness.start_game(2, target=5)
    await play_match(harness, game)
    end = harness.table_message(game)
    committed = seed_commitment(game.extra["next_seed"], game.id)[:32]
    offered = await harness.click(bjorn, end, custom_id=cid(end, "k:cutfor:"))
    assert offered.ephemeral and committed in offered.response.content
    menu = offered.response
    cut = await harness.select(bjorn, menu, ["4"], custom_id=cid(menu, "k:rcut:"))
    assert cut.ephemeral and "**4**" in cut.response.content and committed in cut.response.content
    again = await harness.click(bjorn, end, custom_id=cid(end, "k:cutfor:"))
    assert again.ephemeral and "already cut the deck (at 4)" in again.response.content
    stranger = await harness.click(carl, end, custom_id=cid(end, "k:cutfor:"))
    assert stranger.ephemeral and "Only the players" in stranger.response.content
    assert harness.current(end).content == end.content  # not edited
    await harness.click(anna, end, custom_id=cid(end, "k:rematch:"))
    rematch = await harness.game()
    assert rematch is not None and rematch.extra["cuts"] == ["players;1=4"]
    assert not [c for c in cid_list(harness.current(end)) if c.startswith("k:cutfor:")]
    # the private menu, used after the rematch is dealt, changes nothing
    late = await harness.select(bjorn, menu, ["9"], custom_id=cid(menu, "k:rcut:"))
    assert late.ephemeral and "already dealt" in late.response.content
    await play_match(harness, rematch)
    record, _ = await load_record(harness.cog.games.storage, rematch.id)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        file.write(record.to_json())
    out = io.StringIO()
    final = live_final(rematch) or ""
    assert verify_file(file.name, out, head=final[:32], seed=committed) == OK, out.getvalue()
    assert "the cuts of seat 1 (4): the bot could not choose" in out.getvalue()


def record_hand_views(harness: Harness) -> dict[int, object]:
    """Keep each member's latest hand view as the harness opens them (by member id)."""
    views: dict[int, object] = {}
    opened = harness.open_hand

    async def recording(member: object, game: object) -> object:
        result = await opened(member, game)
        views[member.id] = result.response  # type: ignore[attr-defined]
        return result

    harness.open_hand = recording  # type: ignore[method-assign]
    return views


def cid_list(message: object) -> list[str]:
    from tests.bot.kasino_harness import custom_ids

    return custom_ids(message)


async def test_a_forgotten_player_leaves_the_seal_whole(harness: Harness) -> None:
    """Forget-me removes a person's id from the seats of their games: each seat's tag was
    kept from the first move on, so the export (the tag alone, no id, no salt) still
    verifies against the final head the players saw."""
    bjorn = harness.members[1]
    game = await harness.start_game(2, target=5)
    await play_match(harness, game)
    final = live_final(game) or ""
    assert set(game.extra["seat_tags"]) == {"0", "1"}
    await harness.cog.games.storage.forget_user(bjorn.id, 0.0)
    harness.cog.games._games.pop(game.id, None)
    stored = await harness.cog.games.storage.get_game(game.id)
    assert stored is not None and "1" not in stored.extra.get("salts", {})  # the salt is gone
    record, _ = await load_record(harness.cog.games.storage, game.id)
    data = json.loads(record.to_json())
    assert data["seats"][1]["user_id"] is None and "salt" not in data["seats"][1]
    assert data["seats"][1]["tag"] and str(bjorn.id) not in json.dumps(data)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        file.write(json.dumps(data))
    out = io.StringIO()
    assert verify_file(file.name, out, head=final[:32]) == OK, out.getvalue()
