"""Forget-me across sharded processes on one PostgreSQL database: a person forgotten
through one process is named by no export, replay or history page of another process
that had already cached the match, and their deck goes from its memory too.

Two bot processes, as in :mod:`tests.bot.test_shards` (threads with an event loop and a
SimCord Discord each): shard 0 has the match, shard 1 the person's ``/kasino forget-me``.
In Discord a person has one id in every shard, so shard 1's Discord gets a member with
the id and name the person has in shard 0's.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any

import pytest
import simcord
from simcord.backend.models.user import User
from simcord.builders import UserHandle

from bot.client import make_bot
from tests.bot.kasino_harness import Harness, own_ids
from tests.bot.test_forget import confirm_forget, held_in_memory, played_match, what_is_shown
from tests.bot.test_shards import run_in_thread, shard_config


@pytest.fixture
def backend() -> str:
    """Several processes need one shared database: PostgreSQL."""
    return "postgresql"


async def bot_process(
    url: str, shard: int, startup: threading.Lock, job: Callable[[Harness], Any]
) -> Any:
    """One bot process of shard ``shard``: starts (one process at a time), runs ``job``."""
    with startup:
        bot = make_bot(shard_config(url, shard), seed=shard)
        running = simcord.run(bot, settle_timeout=60, strict_sync=False)
        env = await running.__aenter__()
        own_ids(env, shard)
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_exit(running.__aexit__)
        harness = Harness(env, shard_id=shard)
        result = await job(harness)
        await env.settle()
        await env.bot.close_storage()
    return result


def same_person(harness: Harness, user_id: int, name: str) -> Any:
    """A member of this process's guild who is the person of another process's Discord."""
    user = User(id=user_id, name=name)
    harness.env.backend.users[user_id] = user
    return harness.guild.add_member(UserHandle(harness.env, user))


def test_a_person_forgotten_by_one_shard_is_named_by_no_other(postgres_url: str) -> None:
    barrier, startup = threading.Barrier(2, timeout=300), threading.Lock()
    person: dict[str, Any] = {}

    async def with_the_match(harness: Harness) -> tuple[str, str, list[str]]:
        anna, bjorn = harness.members[:2]
        game = await played_match(harness)
        await harness.slash(anna, "kasino deck", style="four")
        before = await what_is_shown(harness, game, bjorn)  # the record is cached now
        person.update(id=anna.id, name=anna.name)
        barrier.wait()  # shard 1 forgets her now
        barrier.wait()
        after = await what_is_shown(harness, game, bjorn)
        return before, after, held_in_memory(harness, anna.id)

    async def where_she_forgets(harness: Harness) -> None:
        barrier.wait()
        anna = same_person(harness, person["id"], person["name"])
        await confirm_forget(harness, anna)
        barrier.wait()

    jobs = [with_the_match, where_she_forgets]
    processes = [
        run_in_thread(
            lambda shard=shard: asyncio.run(bot_process(postgres_url, shard, startup, jobs[shard])),
            barrier,
        )
        for shard in range(2)
    ]
    results = [get() for get in processes]
    errors = [r for r in results if isinstance(r, BaseException)]
    errors.sort(key=lambda e: isinstance(e, threading.BrokenBarrierError))  # the cause first
    if errors:
        raise errors[0]
    before, after, held = results[0]
    assert person["name"] in before and str(person["id"]) in before
    assert person["name"] not in after and str(person["id"]) not in after
    assert "bjorn" in after
    assert held == []  # nor her record, her seat in a menu's snapshot, or her deck
