"""History, replays, verifiable deals and exports through SimCord (issue 22), on both
databases: finished matches replay exactly, their records verify, and every malformed,
forged or premature request is refused privately with nothing shown."""

from __future__ import annotations

import io
import json
import re
import tempfile
from pathlib import Path
from typing import Any

from bot.engine import Match
from bot.i18n import EN
from bot.models import Status
from bot.records.cli import replay_file, verify_file
from bot.records.deals import round_commitment, seed_commitment, short
from bot.records.record import GameRecord, load_record
from bot.records.seal import live_final, live_head
from bot.storage import is_postgres
from cogs.common import NOT_MINE
from cogs.records.history import NO_PAGE, NO_RECORD, NO_STEP
from tests.bot.kasino_harness import (
    Harness,
    button,
    cid,
    custom_ids,
    how_to_check,
    select_options,
)
from tests.bot.test_bot_match import play_match
from tests.dbrows import execute


async def finished_match(harness: Harness, players: int = 2, **options: Any) -> Any:
    game = await harness.start_game(players, **options)
    await play_match(harness, game)
    assert game.status is Status.FINISHED
    return game


async def test_every_finished_match_replays_to_its_stored_end(harness: Harness) -> None:
    games = [
        await finished_match(harness, 2, target=5),
        await finished_match(harness, 3, variant="finnish", target=5),
        await finished_match(harness, 4, variant="overspader", teams=True, target=5),
        await finished_match(harness, 2, variant="mulle", target=5),
    ]
    storage = harness.cog.games.storage
    for game in games:
        record, guild = await load_record(storage, game.id)
        assert guild == harness.guild.id
        match = record.replay()
        assert match.scores == game.match.scores and match.winner == game.match.winner
        assert record.verify([record.commitment(n) for n in range(1, record.rounds + 1)]) == []
        # the JSON form reads back to the same record, which replays the same
        again = GameRecord.from_dict(json.loads(record.to_json()))
        assert again.replay().scores == game.match.scores
        # every step is a position the engine reaches; the last one is the stored end
        last = record.state_at(len(record.moves))
        assert last.game.match.scores == game.match.scores
        assert last.game.match.winner == game.match.winner


async def test_the_table_commits_to_each_deal(harness: Harness) -> None:
    game = await harness.start_game(2, target=5)
    table = harness.table_message(game)
    footer = table.embeds[0].footer.text
    expected = short(round_commitment(game.match.seed, game.id, 1, game.extra["cuts"][0]))
    # the table itself is quiet: one mark; the deal's commitment is behind "How to check"
    assert expected not in footer and "🔒 Fair deal · sealed moves" in footer
    answer = await how_to_check(harness, harness.members[2], table)  # anyone may ask
    assert f"Round 1's shuffle: `{expected}`" in answer
    # the seed itself is never shown while the match is played
    assert str(game.match.seed) not in footer + (table.embeds[0].description or "") + answer


async def test_history_replay_and_export(harness: Harness) -> None:
    game = await finished_match(harness, 2, target=5)
    anna, bjorn, cecilia = harness.members[:3]
    result = await harness.slash(anna, "kasino history")
    assert result.ephemeral
    page = result.response
    assert f"#{game.id}" in page.embeds[0].description
    options = select_options(page, "k:histpick:")
    assert [o["value"] for o in options] == [str(game.id)]
    # someone's member filter: cecilia never played
    other = await anna.slash(harness.channel, "kasino history", member=cecilia)
    assert "No finished matches" in other.response.embeds[0].description
    # replay from the history menu: a new private view at the first deal
    replay = await harness.select(anna, page, [str(game.id)], custom_id=cid(page, "k:histpick:"))
    assert replay.ephemeral
    view = replay.response
    steps = await harness.cog.games.storage.move_count(game.id)
    assert f"Step 0 of {steps}" in view.embeds[0].description
    for n in range(1, 4):
        step = await harness.click(anna, view, custom_id=_slot(view, "next"))
        view = step.response
        assert f"Step {n} of {steps}" in view.embeds[0].description
        assert "**Move:**" in view.embeds[0].description
    fields = {f.name for f in view.embeds[0].fields}
    assert {"anna", "bjorn"} <= fields
    last = await harness.click(anna, view, custom_id=_slot(view, "last"))
    assert "wins" in last.response.embeds[0].description
    # the replay is about the cards: its seeds and commitments are behind "How to check"
    assert "Seed" not in str([f.value for f in last.response.embeds[0].fields])
    checked = await how_to_check(harness, anna, last.response)
    assert f"Seed: `{game.match.seed}`" in checked
    deal = short(round_commitment(game.match.seed, game.id, 1, game.extra["cuts"][0]))
    assert f"Round 1's shuffle: `{deal}`" in checked
    jump = select_options(last.response, "k:jump:")
    first = await harness.select(
        anna, last.response, [jump[0]["value"]], custom_id=cid(last.response, "k:jump:")
    )
    assert "Step 0 of" in first.response.embeds[0].description
    # someone else's replay page is refused
    forged = await harness.forge(bjorn, first.response, _slot(first.response, "next"))
    assert forged.ephemeral and forged.response.content == EN(NOT_MINE)
    # a step out of range, a page out of range
    out = await harness.forge(anna, first.response, f"k:replay:{game.id}:{steps + 1}:next")
    assert out.response.content == EN(NO_STEP, id=game.id, step=steps + 1, steps=steps)
    far = await harness.forge(anna, page, "k:history:0:-:7")
    assert far.response.content == EN(NO_PAGE, page=7, pages=1)
    # forged custom ids the parser refuses
    for bad in (f"k:replay:{game.id}:-1:next", f"k:replay:{game.id}:1:sideways",
                f"k:replay:0{game.id}:1:next", "k:history:x:-:1"):  # fmt: skip
        refused = await harness.forge(anna, first.response, bad)
        assert refused.response.content == EN(NOT_MINE), bad
    # the finished table's Replay button, beside Rematch
    table = harness.table_message(game)
    assert any(c.startswith("k:rematch:") for c in custom_ids(table))
    opened = await harness.click(bjorn, table, custom_id=f"k:replay:{game.id}:0:open")
    assert opened.ephemeral and "Step 0 of" in opened.response.embeds[0].description
    # export: a JSON record that verifies and replays
    exported = await harness.slash(anna, "kasino export", game=game.id)
    assert exported.ephemeral
    (attachment,) = exported.response.attachments
    data = await attachment.read()
    record = json.loads(data)
    assert record["format"] == "kasino-record" and record["game"] == game.id
    assert record["result"]["scores"] == game.match.scores
    assert record["cut"].startswith("start:") and record["rounds"][0]["cut_by"] == "start"
    assert record["rounds"][0]["seed"] == f"{game.match.seed}/0/{record['cut']}"
    out_text = io.StringIO()
    with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as file:
        file.write(data)
    assert verify_file(file.name, out_text) == 0, out_text.getvalue()
    assert replay_file(file.name, io.StringIO()) == 0
    # a changed seed or a changed card fails
    record["seed"] = "0" + str(record["seed"])
    with open(file.name, "w") as changed:
        json.dump(record, changed)
    assert verify_file(file.name, io.StringIO()) == 1


async def test_unfinished_and_foreign_games_are_refused(harness: Harness) -> None:
    game = await harness.start_game(2, target=5)
    await harness.play_move(game)
    anna = harness.members[0]
    hidden = [str(c) for hand in game.match.round.hands for c in hand]
    table = harness.table_message(game)
    answers = [
        await harness.slash(anna, "kasino export", game=game.id),
        await harness.forge(anna, table, f"k:replay:{game.id}:0:open"),
        await harness.forge(anna, table, f"k:replay:{game.id}:1:last"),
    ]
    for answer in answers:
        assert answer.ephemeral
        text = answer.response.content
        assert not answer.response.embeds and not answer.response.attachments
        assert text in (EN(NO_RECORD["unfinished"], id=game.id), EN(NOT_MINE)), text
        assert str(game.match.seed) not in text
        assert not any(card in text for card in hidden)
    missing = await harness.slash(anna, "kasino export", game=999_999)
    assert missing.response.content == EN(NO_RECORD["missing"], id=999_999)


async def test_another_servers_game_is_answered_as_a_missing_one(harness: Harness) -> None:
    """An outsider learns nothing of another server's game ids: its finished and its
    unfinished games get the very answer of a number no game has, by export, by the
    replay button and by the history's replay menu, before and after the record is
    cached by its own server."""
    done = await finished_match(harness, 2, target=5)
    playing = await harness.start_game(2, target=5)
    elsewhere = harness.env.create_guild("Other Club")
    channel = elsewhere.create_text_channel("kasino")
    stranger = elsewhere.add_member(harness.env.create_user("erik"))
    page = (await stranger.slash(channel, "kasino history")).response
    home = harness.guild
    for game_id in (done.id, playing.id, 999_999, done.id):
        answers = [await stranger.slash(channel, "kasino export", game=game_id)]
        harness.guild = elsewhere  # forge() sends from the harness's server
        try:
            for custom_id in (f"k:replay:{game_id}:0:open", "k:histpick:0:-:1:zz"):
                values = [str(game_id)] if custom_id.startswith("k:histpick:") else None
                answers.append(await harness.forge(stranger, page, custom_id, values))
        finally:
            harness.guild = home
        for answer in answers:
            assert answer.ephemeral
            assert answer.response.content == EN(NO_RECORD["missing"], id=game_id)
            assert not answer.response.embeds and not answer.response.attachments
        # its own server sees the finished match (and caches its record)
        own = await harness.slash(harness.members[0], "kasino export", game=done.id)
        assert own.response.attachments


async def test_another_servers_damaged_game_is_answered_as_a_missing_one(
    harness: Harness, db_path: Path | str
) -> None:
    """A game whose saved form cannot be read is "damaged" in its own server only."""
    done = await finished_match(harness, 2, target=5)
    damage = (
        "(state::jsonb #- '{round,hands}')::text"
        if is_postgres(db_path)
        else "json_remove(state, '$.round.hands')"
    )
    execute(db_path, f"UPDATE games SET state = {damage} WHERE id = ?", (done.id,))
    elsewhere = harness.env.create_guild("Other Club")
    channel = elsewhere.create_text_channel("kasino")
    stranger = elsewhere.add_member(harness.env.create_user("erik"))
    answer = await stranger.slash(channel, "kasino export", game=done.id)
    assert answer.response.content == EN(NO_RECORD["missing"], id=done.id)
    own = await harness.slash(harness.members[0], "kasino export", game=done.id)
    assert own.response.content == EN(NO_RECORD["damaged"], id=done.id)


def _slot(message: Any, slot: str) -> str:
    found = [c for c in custom_ids(message) if c.startswith("k:replay:") and c.endswith(slot)]
    assert len(found) == 1, custom_ids(message)
    return found[0]


async def test_the_moves_are_sealed_and_the_export_proves_them(harness: Harness) -> None:
    """The table's "How to check" gives the sealed log's head after every move, each
    player's hand view gives the final head at the end, and ``verify --head`` with it
    passes on the export (and fails with another head); every stored move carries its
    seal."""
    game = await harness.start_game(2, target=5)
    table = harness.table_message(game)
    answer = await how_to_check(harness, harness.members[0], table)
    assert f"Moves so far: `{short(live_head(game) or '')}`" in answer  # h_0, before any move
    await harness.play_move(game)
    head = live_head(game)
    assert head is not None and game.extra["seal"]["moves"] == 1
    answer = await how_to_check(harness, harness.members[0], harness.table_message(game))
    assert f"Moves so far: `{short(head)}`" in answer
    await play_match(harness, game)
    assert game.status is Status.FINISHED
    last = short(live_head(game) or "")
    final = live_final(game) or ""
    (end,) = [m for m in harness.public_messages() if "Game over" in (m.content or "")]
    answer = await how_to_check(harness, harness.members[0], end)
    assert f"Final head: `{final[:32]}`" in answer
    stored = await harness.cog.games.storage.game_moves(game.id)
    assert all(row.seal for row in stored) and stored[-1].seal.startswith(last)
    exported = await harness.slash(harness.members[0], "kasino export", game=game.id)
    assert f"--head {final[:32]}" not in exported.response.content  # not the bot's to say
    assert "--head" in exported.response.content  # the players are told to give theirs
    (attachment,) = exported.response.attachments
    data = await attachment.read()
    chain = json.loads(data)["chain"]
    assert chain["head"].startswith(last) and chain["final"] == final and chain["version"] == 2
    with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as file:
        file.write(data)
    out = io.StringIO()
    assert verify_file(file.name, out, head=final[:32]) == 0, out.getvalue()
    assert "the result are the ones played" in out.getvalue()
    # nobody cut the deck: verify says the operator could have chosen the deals (the
    # Start click's id, which only the bot sees), never that nobody could
    assert "No player cut the deck" in out.getvalue()
    assert "whoever runs the bot could have chosen them" in out.getvalue()
    assert "neither the host nor the bot" not in out.getvalue()
    assert verify_file(file.name, io.StringIO(), head="0" * 16) == 1
    # the last move's head proves the moves, not the whole match: exit code 2
    out = io.StringIO()
    assert verify_file(file.name, out, head=last) == 2
    assert "proves only the first" in out.getvalue()


async def test_a_game_dealt_before_the_seal_plays_on_and_exports_without_one(
    harness: Harness,
) -> None:
    """A game saved before moves were sealed and deals cut (no ``seal`` nor ``cuts`` in
    its state, no seal column values) resumes, keeps its old dealing to the end and
    exports; its record says it has no chain and no cut, and verifies as before."""
    game = await harness.start_game(2, target=21)
    for key in ("seal", "cuts", "cut_by"):  # as a game dealt by the bot before this change
        game.extra.pop(key)
    game.match = Match.start(game.match.rules, 2, seed=game.match.seed)  # no cut
    await harness.play_move(game)
    answer = await how_to_check(harness, harness.members[0], harness.table_message(game))
    assert "Cut:" not in answer and "Moves so far" not in answer
    await play_match(harness, game)
    stored = await harness.cog.games.storage.game_moves(game.id)
    assert all(row.seal is None for row in stored)
    record, _ = await load_record(harness.cog.games.storage, game.id)
    assert not record.sealed and json.loads(record.to_json())["chain"] is None
    assert record.cut is None and record.rounds >= 2
    assert [record.round_seed(n) for n in (1, 2)] == [
        f"{game.match.seed}/0",
        f"{game.match.seed}/1",
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        file.write(record.to_json())
    out = io.StringIO()
    assert verify_file(file.name, out) == 0 and "No sealed move log" in out.getvalue()
    assert "Dealt from the seed alone" in out.getvalue()


async def test_the_players_cut_every_deal(harness: Harness) -> None:
    """The seed is committed to on the lobby before Start; round 1 is cut by the Start
    click (its Discord id and the players'), round 2 by the moves of round 1; the table
    says who cut, and the export's cuts verify."""
    anna, bjorn = harness.members[:2]
    lobby = await harness.open_lobby(anna)
    await harness.click(bjorn, lobby, custom_id=button(lobby, "join"))
    opened = await harness.game()
    assert opened is not None
    seed = opened.extra["seed"]
    shown = seed_commitment(seed, opened.id)[:32]  # 128 bits
    # the lobby is quiet; "How to check" gives its seed's commitment (each person was sent
    # it privately on Join)
    assert shown not in harness.current(lobby).embeds[0].footer.text
    assert f"Seed commitment: `{shown}`" in await how_to_check(harness, bjorn, lobby)
    started = await harness.click(anna, harness.current(lobby), custom_id=button(lobby, "start"))
    game = await harness.game()
    assert game is not None and game.match.seed == seed and "seed" not in game.extra
    cut = game.extra["cuts"][0]
    click = re.fullmatch(r"start:(\d+)", cut)  # no person's id: forget-me must not stay
    assert click is not None and int(click[1]) == started._interaction.id  # Discord's id
    table = harness.table_message(game)
    answer = await how_to_check(harness, bjorn, table)
    assert "Shuffled with the id of anna's click on Start" in answer
    assert f"Seed commitment: `{shown}`" in answer
    assert "Cut" not in (table.embeds[0].description or "")
    while game.match.rounds_played == 0:
        await harness.play_move(game)
    # later rounds are no longer cut by the moves: the same cut, fixed at Start
    assert game.extra["cuts"] == [cut]
    answer = await how_to_check(harness, bjorn, harness.table_message(game))
    assert "Shuffled with the id of anna's click on Start" in answer
    deal = short(round_commitment(seed, game.id, 2, cut))
    assert f"Round 2's shuffle: `{deal}`" in answer
    await play_match(harness, game)
    record, _ = await load_record(harness.cog.games.storage, game.id)
    assert record.cut == cut and record.round_cut(2) == cut
    assert record.seed_commitment().startswith(shown)
    assert record.verify([record.commitment(n) for n in range(1, record.rounds + 1)]) == []
    # a rematch is dealt from a seed committed to before its click (How to check on the
    # end message says it), and cut by that click
    old_table = harness.table_message(game)
    following = seed_commitment(game.extra["next_seed"], game.id)[:32]
    assert f"rematch's seed commitment: `{following}`" in await how_to_check(
        harness, bjorn, old_table
    )
    (rematch,) = [c for c in custom_ids(old_table) if c.startswith("k:rematch:")]
    await harness.click(bjorn, old_table, custom_id=rematch)
    again = await harness.game()
    assert again is not None and again.extra["cuts"][0].startswith("rematch:")
    assert again.match.seed == game.extra["next_seed"] and again.extra["seed_game"] == game.id
    answer = await how_to_check(harness, bjorn, harness.table_message(again))
    assert "Shuffled with the id of bjorn's click on Rematch" in answer
    await play_match(harness, again)
    replayed, _ = await load_record(harness.cog.games.storage, again.id)
    assert replayed.seed_game == game.id and replayed.seed_commitment().startswith(following)
    assert replayed.verify([replayed.commitment(n) for n in range(1, replayed.rounds + 1)]) == []
    exported = json.loads(replayed.to_json())
    assert exported["seed_game"] == game.id
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        file.write(replayed.to_json())
    out = io.StringIO()
    head = live_final(again)  # as its end message showed it
    assert verify_file(file.name, out, head=head, seed=following) == 0, out.getvalue()
    assert "Rematch click's id, which only the bot sees" in out.getvalue()
