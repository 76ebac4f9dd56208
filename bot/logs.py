"""Warnings discord.py gives about features a card game never uses, kept out of the log.

At every start discord.py warns that voice is not supported (PyNaCl and davey are not
installed: a game bot has no voice), and SimCord's check of discord.py makes a client with
no intents, which warns that the guilds intent is off (the bot's own client has it on).
Those exact messages are logged at DEBUG instead, shown only with ``LOG_LEVEL=DEBUG``;
every other record of those loggers passes unchanged.
"""

from __future__ import annotations

import logging

UNUSED: dict[str, frozenset[str]] = {
    "discord.client": frozenset(
        {
            "PyNaCl is not installed, voice will NOT be supported",
            "davey is not installed, voice will NOT be supported",
        }
    ),
    "discord.state": frozenset(
        {"Guilds intent seems to be disabled. This may cause state related issues."}
    ),
}


class _Unused(logging.Filter):
    """Turns the listed messages of one logger into DEBUG records."""

    def __init__(self, messages: frozenset[str]) -> None:
        super().__init__()
        self.messages = messages

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg not in self.messages:
            return True
        record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def quiet_unused_features() -> None:
    """Install the filters (once: calling again changes nothing)."""
    for name, messages in UNUSED.items():
        logger = logging.getLogger(name)
        if not any(isinstance(f, _Unused) for f in logger.filters):
            logger.addFilter(_Unused(messages))
