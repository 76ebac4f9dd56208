"""The nonces of the bot's own channel messages: one message, one nonce, never reused.

Discord's Create Message takes two fields for this (its JSON params):

- ``nonce``: "Can be used to verify a message was sent (up to 25 characters). Value will
  appear in the Message Create event."
- ``enforce_nonce``: "If true and nonce is present, it will be checked for uniqueness in
  the past few minutes. If another message was created by the same author with the same
  nonce, that message will be returned and no new message will be created."

(Its change log, February 12, 2024: "the message will be deduped for the same sender
within a few minutes".) discord.py sends ``enforce_nonce`` with every nonce. So a nonce
does two things: a post sent again after a kill (the process died between Discord making
the message and the bot noting it) makes no second message, *and* any other message the
bot sends with the same nonce within those minutes is silently not made (Discord answers
with the old one). The author is the bot's user, so that holds across channels, guilds
and shard processes.

Hence the one rule, kept by :func:`nonce` for every message the bot sends with one: a
nonce is a digest of a **random key stored with what the message belongs to** (an outbox
row, a tournament), and of what the message is within it (``"standings", 2``). A retry
reads the same key and sends the same nonce; anything else, even after a restart, a
database restored from a backup or a copy to PostgreSQL that hands out the same row ids
again, has another key. A row id or a counter alone is not enough: SQLite gives a new
row ``max(id) + 1``, so an outbox that has drained hands out its ids again at once.
"""

from __future__ import annotations

import base64
import hashlib
import secrets

MAX_LENGTH = 25  # Discord: a nonce is up to 25 characters
KEY_BYTES = 15  # 120 random bits: two keys never meet, however many messages are sent
_PREFIX = "k"  # 1 + 24 base32 characters = 25


def new_key() -> str:
    """A fresh random key, stored with what its messages belong to (24 characters)."""
    return _b32(secrets.token_bytes(KEY_BYTES))


def legacy_key(row_id: int, created_at: float) -> str:
    """The key of a row stored before keys were (an outbox row or tournament of an older
    version): made of what the row already holds, so every retry of it agrees. The time
    it was written (to the microsecond) tells apart two rows given the same id."""
    return f"legacy/{int(row_id)}/{float(created_at)!r}"


def nonce(key: str, *parts: str | int) -> str:
    """The nonce of one message: ``key`` (stored, random) and ``parts`` (which message of
    the thing it belongs to, e.g. ``"standings", 2``) in 25 characters. Equal arguments
    give the same nonce (a retry); a different key or different parts another one."""
    if not key:
        raise ValueError("a nonce needs its stored key")
    text = "/".join([key, *(str(part) for part in parts)])
    digest = hashlib.sha256(text.encode()).digest()
    made = _PREFIX + _b32(digest[:KEY_BYTES])
    assert len(made) <= MAX_LENGTH
    return made


def _b32(data: bytes) -> str:
    return base64.b32encode(data).decode("ascii").lower().rstrip("=")
