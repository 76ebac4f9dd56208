"""The preview (``python -m bot --preview``) shows what the bot does by itself: a round
ends and the next one is dealt on the page with nobody clicking or refreshing.

SimCord's Preview publishes a page only after the page's own action settled (or a
Refresh); the bot's timers (the pause between rounds, a computer's move) fire later, on
the wall clock. This runs the Preview as ``bot.preview`` does, plays a round to its end
through SimCord, then only waits (real time, as in the browser)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot import timers
from bot.client import KasinoBot
from bot.config import Config
from bot.preview import following
from bot.preview_places import open_preview
from bot.stages import by_interaction
from tests.bot.kasino_harness import Harness

DEALT = "Round 2 is dealt."  # what the channel is told when the pause is over
ROUND_PAUSE = 6.0  # beyond SimCord's settling (5 s): the deal comes after the click settled


def page_text(preview: Any) -> str:
    """What the Preview's page was last given (the snapshot the browser polls)."""
    return json.dumps(preview._python.snapshot)


async def test_the_next_round_comes_without_a_click(tmp_path: Path) -> None:
    config = Config(
        token=None,
        db_path=tmp_path / "kasino.db",
        turn_seconds=300,
        round_pause=ROUND_PAUSE,
        computer_pause=0.1,
        card_faces=False,
    )
    bot = KasinoBot(config, seed=20240607)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            harness = Harness(env)
            async with (
                env.preview(harness.channel, viewers=harness.members, layout="channel") as preview,
                following(env, preview),
            ):
                game = await harness.start_game(2)
                while game.match.rounds_played == 0:
                    await harness.play_move(game)  # 1.5 s of virtual time after each
                assert game.extra.get("paused")  # the pause is running
                assert DEALT not in page_text(preview)
                end = time.monotonic() + ROUND_PAUSE + 15
                while DEALT not in page_text(preview) and time.monotonic() < end:
                    await asyncio.sleep(0.2)  # the browser only polls
                assert DEALT in page_text(preview)
                assert not game.extra.get("paused")
    finally:
        await bot.close_storage()


class _Started(Exception):
    """What the stand-in for ``simcord.run`` raises: the preview got that far."""


def test_the_preview_draws_the_faces_before_simcord_starts(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """The faces are drawn before SimCord runs the bot: drawn by the bot's first start,
    they counted as its work, and the preview's set-up, which waits 5 s of wall clock for
    that to settle, failed on a busy machine ("bot did not settle")."""
    import bot.preview
    from bot.card_emojis import wanted_names

    seen: list[int] = []

    def run(*args: Any, **kwargs: Any) -> Any:
        seen.append(wanted_names.cache_info().currsize)
        raise _Started

    wanted_names.cache_clear()  # the session drew them for the tests (the pictures stay)
    monkeypatch.setattr(simcord, "run", run)
    config = Config(token=None, db_path=tmp_path / "kasino.db")
    try:
        asyncio.run(bot.preview.run_preview(config))
    except _Started:
        pass
    finally:
        wanted_names()
    assert seen == [1]


def test_a_bot_that_did_not_settle_is_not_blamed_on_the_port(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """A TimeoutError is an OSError in Python: "cannot start the preview on port …,
    choose another --port" was said for a bot that did not settle, which no port fixes."""
    import bot.__main__
    import bot.preview

    async def not_settled(*args: Any, **kwargs: Any) -> None:
        raise TimeoutError("bot did not settle (timeout=5s)")

    monkeypatch.setattr(bot.preview, "run_preview", not_settled)
    config = Config(token=None, db_path=tmp_path / "kasino.db")
    try:
        code = bot.__main__._preview(config, port=8123)
    except TimeoutError:
        return
    raise AssertionError(f"the port was blamed (exit code {code})")


def _action(preview: Any, page: Any, kind: str, **fields: Any) -> dict[str, Any]:
    """An action's envelope as the Preview's page sends it (protocol 3)."""
    return {
        "protocol_version": 3,
        "sequence": page.last_sequence + 1,
        "request_id": f"r{page.last_sequence + 1}",
        "generation": page.generation,
        "bot_generation": preview.env._generation,
        "published_revision": page.revision,
        "kind": kind,
        **fields,
    }


def _control_key(message: Any, custom_id_end: str) -> str:
    """The page's key for the button whose custom_id ends ``custom_id_end``."""
    from simcord.preview._action_plans import _component_key, _component_paths

    for index, root in enumerate(message.components):
        for path, component in _component_paths(root, str(index)):
            if str(component.get("custom_id", "")).endswith(custom_id_end):
                key = _component_key(component, path, message.id)
                assert key is not None
                return key
    raise AssertionError(f"no button …{custom_id_end}")


async def test_the_preview_plays_in_a_group_dm_where_the_bot_is_no_member(
    tmp_path: Path,
) -> None:
    """``--place group-dm``: the page shows the members' group DM; ``/kasino new`` typed
    there and a Join pressed by another member reach the bot as Discord sends them from a
    group DM (context 2, the user install as the owner), the lobby is the command's
    public answer, and the bot made no channel call (the tests' Discord refuses them).
    When the preview ends, SimCord is as it was."""
    import simcord.preview as sim_preview
    from simcord import interactions
    from simcord.backend import access
    from simcord.gateway import ShardRouter
    from simcord.http import router
    from simcord.preview import _action_plans

    from bot.preview import MEMBERS
    from bot.preview_places import place_for

    config = Config(token=None, db_path=tmp_path / "kasino.db", card_faces=False)
    bot = KasinoBot(config, seed=20240607)

    def simcord_as_it_is() -> tuple[Any, ...]:
        routes = {method: list(table) for method, table in router._ROUTES.items()}
        return (access.channel_accessible, _action_plans._slash_resolved, routes,
                interactions.base_payload, sim_preview.build_snapshot,
                ShardRouter.identify)  # fmt: skip

    untouched = simcord_as_it_is()
    try:
        async with simcord.run(bot, check_errors=False) as env:
            guild = env.create_guild("Kasino Preview")
            guild.create_text_channel("kasino")
            users = [env.create_user(name.lower(), global_name=name) for name in MEMBERS]
            members = [guild.add_member(user) for user in users]
            with place_for(env, "group-dm", members) as shown:
                assert shown is not None and shown.place is not None
                gdm = shown.place
                async with open_preview(env, shown, layout="channel") as preview:
                    page = preview._python
                    assert page.viewer.id == users[0].id
                    new = next(
                        entry
                        for entry in page.command_catalog["entries"]
                        if entry["invocation"] == "kasino new"
                    )
                    ran = await preview._action(page.id, _action(
                        preview, page, "run_command", command_id=new["commandId"],
                        path=new["path"], schema_fingerprint=new["schemaFingerprint"],
                        options={},
                    ))  # fmt: skip
                    assert not ran["rejected"] and ran["settlement"] == "settled", ran
                    lobby = gdm.public_messages()[-1]
                    assert lobby.embeds and "k:lobby:" in json.dumps(lobby.components)
                    bjorn = preview._open_page(viewer_id=users[1].id)
                    pressed = await preview._action(bjorn.id, _action(
                        preview, bjorn, "click", target_id=str(lobby.id),
                        control_key=_control_key(lobby, ":join"),
                    ))  # fmt: skip
                    assert not pressed["rejected"] and pressed["settlement"] == "settled"
                    game = await bot.get_cog("Kasino").games.active(gdm.channel_id)  # type: ignore[union-attr]
                    assert game is not None and by_interaction(game.extra)
                    assert [seat.user_id for seat in game.seats] == [users[0].id, users[1].id]
                    origins = list(shown.installs.origins.values())
                    assert len(origins) == 2 and all(o.place is gdm for o in origins)
                    assert str(lobby.id) in json.dumps(bjorn.snapshot)  # he sees the DM
                assert shown.installs.attempts == []
            assert simcord_as_it_is() == untouched
    finally:
        await bot.close_storage()


async def _command(preview: Any, page: Any, invocation: str) -> dict[str, Any]:
    """``invocation`` (no options) typed in ``page``'s composer."""
    entry = next(e for e in page.command_catalog["entries"] if e["invocation"] == invocation)
    return await preview._action(page.id, _action(
        preview, page, "run_command", command_id=entry["commandId"], path=entry["path"],
        schema_fingerprint=entry["schemaFingerprint"], options={},
    ))  # fmt: skip


async def test_the_preview_shows_a_ladder_match_at_both_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--place ladder``: Bjorn is in a second server; the page shows each viewer their
    own server's channel ("Viewing as" moves it there), so Anna and Bjorn each type
    ``/kasino queue`` where they are, are paired, and each page shows its own table. When
    the preview ends, SimCord is as it was."""
    from simcord.preview import Preview

    from bot.preview import MEMBERS
    from bot.preview_places import LADDER_SERVER_NAME, place_for

    config = Config(token=None, db_path=tmp_path / "kasino.db", card_faces=False)
    bot = KasinoBot(config, seed=20240607)
    untouched = (Preview._prepare_action, Preview._open_page)
    try:
        async with simcord.run(bot, check_errors=False) as env:

            async def pause(seconds: float) -> None:  # the pairing rounds: virtual time
                await env.external_wait(asyncio.sleep(seconds), reason="the bot's pause")

            monkeypatch.setattr(timers, "pause", pause)
            guild = env.create_guild("Kasino Preview")
            here = guild.create_text_channel("kasino")
            users = [env.create_user(name.lower(), global_name=name) for name in MEMBERS]
            members = [guild.add_member(user) for user in users]
            with place_for(env, "ladder", members, channel=here) as shown:
                assert shown is not None and shown.channels is not None
                there = shown.channels[users[1].id]
                assert there.guild.name == LADDER_SERVER_NAME and there.id != here.id
                assert users[1].id not in guild.member_ids()  # Bjorn's server is another
                async with open_preview(env, shown, layout="channel") as preview:
                    anna = preview._python
                    waiting = await _command(preview, anna, "kasino queue")
                    assert not waiting["rejected"] and waiting["settlement"] == "settled"
                    assert "Looking for an opponent" in json.dumps(anna.snapshot)
                    bjorn = preview._open_page(viewer_id=users[1].id)  # a second tab
                    assert bjorn.channel_id == there.id
                    queued = await _command(preview, bjorn, "kasino queue")
                    assert not queued["rejected"] and queued["settlement"] == "settled", queued
                    kasino = bot.get_cog("Kasino")
                    game = await kasino.games.active(here.id)  # type: ignore[union-attr]
                    assert game is not None and game.extra.get("ladder")
                    assert [m.channel_id for m in game.mirrors] == [there.id]
                    # the first tab looks as Bjorn: it moves to his channel
                    other = preview._open_page(viewer_id=users[0].id)
                    assert other.channel_id == here.id
                    switched = await preview._action(other.id, _action(
                        preview, other, "viewer", viewer_id=str(users[1].id)
                    ))  # fmt: skip
                    assert not switched["rejected"], switched
                    assert other.channel_id == there.id and other.viewer.id == users[1].id
                    assert str(there.id) in json.dumps(other.snapshot)
            assert (Preview._prepare_action, Preview._open_page) == untouched
    finally:
        await bot.close_storage()


async def test_the_preview_gives_anna_games_everywhere(tmp_path: Path) -> None:
    """``--place games``: Anna has a live match in ``#cards``, one of 3 days a move in
    another server and a lobby in her DM, which ``/kasino games`` lists; ``#kasino``
    stays free for one more."""
    from bot.preview import MEMBERS
    from bot.preview_places import LADDER_SERVER_NAME, place_for, seed_games

    config = Config(token=None, db_path=tmp_path / "kasino.db", card_faces=False)
    bot = KasinoBot(config, seed=20240607)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            guild = env.create_guild("Kasino Preview")
            here = guild.create_text_channel("kasino")
            users = [env.create_user(name.lower(), global_name=name) for name in MEMBERS]
            members = [guild.add_member(user) for user in users]
            await seed_games(bot, env, guild, members)
            with place_for(env, "games", members, channel=here) as shown:
                assert shown is None  # the page shows the server's channel
            games = await bot.storage.person_games(users[0].id)  # type: ignore[union-attr]
            assert [g.options.pace for g in games] == ["live", "3d", "live"]
            assert [g.status.value for g in games] == ["playing", "playing", "lobby"]
            assert games[1].guild_id != guild.id and games[2].guild_id == 0
            assert LADDER_SERVER_NAME in {g.name for g in env.bot.guilds}
            listing = await users[0].slash("kasino games")
            assert listing.ephemeral and listing.response.embeds[0].title == "Your games"
            assert await bot.get_cog("Kasino").games.active(here.id) is None  # type: ignore[union-attr]
    finally:
        await bot.close_storage()
