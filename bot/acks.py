"""Interactions another process already answered (Discord's error 40060).

During a rolling restart two processes of one shard are briefly both connected, and
Discord sends each interaction to both: the one that answers second gets HTTP 400 with
code 40060, "Interaction has already been acknowledged". That is expected, not a bug:
every place an answer can fail that way (the slash commands' tree, every button and
select, the cog's ``on_interaction`` listener) asks :func:`already_acknowledged` and, when
it says yes, calls :func:`note_already_acknowledged`: one INFO line and a count on the bot
(``bot.already_acknowledged``, summed up in the log at close), never a traceback. Any
other error keeps its traceback.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

import discord

log = logging.getLogger(__name__)

ALREADY_ACKNOWLEDGED = 40060  # Discord's JSON error code
SUMMARY_EVERY = 100  # a summary line after this many (and at close)


def already_acknowledged(error: BaseException | None) -> bool:
    """Whether ``error``, or an error it wraps (an app command's ``CommandInvokeError``,
    an exception's cause), is Discord's "Interaction has already been acknowledged"."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, discord.HTTPException):
            return error.code == ALREADY_ACKNOWLEDGED
        error = getattr(error, "original", None) or error.__cause__
    return False


def note_already_acknowledged(interaction: discord.Interaction, where: str) -> int:
    """Log one INFO line for an interaction another process answered first and count it
    on the bot; returns the count so far."""
    client: Any = interaction.client
    count = int(getattr(client, "already_acknowledged", 0)) + 1
    with contextlib.suppress(AttributeError):
        client.already_acknowledged = count
    log.info(
        "interaction %s (%s) was already answered by another process (a rolling restart?);"
        " not answered here", interaction.id, where,
    )  # fmt: skip
    if count % SUMMARY_EVERY == 0:
        log_summary(count)
    return count


def log_summary(count: int) -> None:
    """The summary line: how many interactions another process answered first."""
    log.info("%d interactions were already answered by another process since start", count)


def where(interaction: discord.Interaction) -> str:
    """What the interaction was, for the log line: a command's name or a component's kind
    (never its values: they name cards of a hand)."""
    command = interaction.command
    if command is not None:
        return f"/{command.qualified_name}"
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    return ":".join(custom_id.split(":")[:2]) or interaction.type.name


@contextlib.contextmanager
def unless_answered_elsewhere(interaction: discord.Interaction) -> Iterator[None]:
    """Run an interaction's handler; an answer that fails because another process answered
    first is noted (:func:`note_already_acknowledged`) instead of raised."""
    try:
        yield
    except Exception as error:
        if not already_acknowledged(error):
            raise
        note_already_acknowledged(interaction, where(interaction))
