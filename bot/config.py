"""Settings for the bot, read from environment variables and an optional ``.env`` file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.shell import preview_command
from bot.storage.base import Shards
from bot.storage.target import BadTarget, parse_target, redact

# Every setting the bot reads, with its default as written in a .env file (``None``: none,
# or required). The one source of truth: load_config reads no other name (``_raw``), and
# tests/bot/test_settings.py holds .env.example and docs/admin.md's table to these defaults.
SETTINGS: dict[str, str | None] = {
    "DISCORD_TOKEN": None,
    "KASINO_DB": "data/kasino.db",
    "SHARD_COUNT": None,
    "SHARD_IDS": None,
    "HEALTH_FILE": None,
    "DEV_GUILD_ID": None,
    "TURN_SECONDS": "300",
    "ROUND_PAUSE": "5",
    "MAX_AUTO_MOVES": "3",
    "COMPUTER_PAUSE": "1.5",
    "HARD_BUDGET_MS": "75",  # the hard player's own default (bot.ai.hard.DEFAULT_BUDGET_MS)
    "LOG_LEVEL": "INFO",
    "CARD_FACES": "on",
    "ANALYSIS_WORKERS": "1",
}

DEFAULT_DB_PATH = Path(SETTINGS["KASINO_DB"])
DEFAULT_TURN_SECONDS = int(SETTINGS["TURN_SECONDS"])
DEFAULT_ROUND_PAUSE = float(SETTINGS["ROUND_PAUSE"])
MAX_AUTO_MOVES = int(SETTINGS["MAX_AUTO_MOVES"])
DEFAULT_COMPUTER_PAUSE = float(SETTINGS["COMPUTER_PAUSE"])
DEFAULT_ANALYSIS_WORKERS = int(SETTINGS["ANALYSIS_WORKERS"])


class ConfigError(RuntimeError):
    """A setting is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the bot needs to run.

    ``turn_seconds`` is the default turn limit for new games (a game may choose its own),
    ``round_pause`` the pause between a round's summary and the next deal, and
    ``max_auto_moves`` how many automatic moves in a row for one seat abandon a game.
    ``db_path`` is an SQLite file, or a ``postgresql://`` URL (a string).
    ``computer_pause`` is how long a computer player seems to think before its move, and
    ``hard_budget_ms`` bounds the thinking of the ``hard`` player and of hints (``None``:
    the player's own default). ``card_faces`` makes the bot upload its card pictures as
    application emojis and show cards with them (off: cards are text). ``shard_count``
    and ``shard_ids`` run the bot sharded (``None``: one unsharded process); the bot
    touches ``health_file`` while it is healthy (:mod:`bot.health`).
    ``analysis_workers`` is how many processes analyse finished games' moves, shared by
    every game of the process (:mod:`bot.analysis.pool`).
    """

    token: str | None
    db_path: Path | str = DEFAULT_DB_PATH
    dev_guild_id: int | None = None
    turn_seconds: int = DEFAULT_TURN_SECONDS
    round_pause: float = DEFAULT_ROUND_PAUSE
    max_auto_moves: int = MAX_AUTO_MOVES
    log_level: str = "INFO"
    computer_pause: float = DEFAULT_COMPUTER_PAUSE
    hard_budget_ms: float | None = None
    card_faces: bool = True
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    health_file: Path | None = None
    analysis_workers: int = DEFAULT_ANALYSIS_WORKERS

    @property
    def shards(self) -> Shards | None:
        """The shards this process runs (``None``: unsharded, every guild is ours)."""
        if self.shard_count is None:
            return None
        ids = self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))
        return Shards(self.shard_count, ids)

    def __repr__(self) -> str:  # never show the token
        token = "set" if self.token else "missing"
        return (
            f"Config(token={token}, db_path={redact(self.db_path)!r},"
            f" dev_guild_id={self.dev_guild_id}, turn_seconds={self.turn_seconds},"
            f" round_pause={self.round_pause})"
        )


def _raw(env: Mapping[str, str], name: str) -> str:
    """The setting ``name`` as written (stripped; empty when unset): only names in
    :data:`SETTINGS` are read, so a new setting is documented with its default."""
    if name not in SETTINGS:
        raise KeyError(f"{name} is not in bot.config.SETTINGS")
    return env.get(name, "").strip()


def _int(env: Mapping[str, str], name: str, default: int | None, low: int = 0) -> int | None:
    raw = _raw(env, name)
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}") from None
    if value < low:
        raise ConfigError(f"{name} must be at least {low}, not {value}")
    return value


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = _raw(env, name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, not {raw!r}") from None
    if value < 0:
        raise ConfigError(f"{name} must not be negative")
    return value


def load_config(
    env: Mapping[str, str] | None = None, *, require_token: bool = True, dotenv: bool = True
) -> Config:
    """Build a :class:`Config` from ``env`` (default: ``os.environ`` plus a ``.env`` file
    found from the working directory upwards; real environment variables win).

    Raises :class:`ConfigError` with a readable message when ``DISCORD_TOKEN`` is missing
    (and ``require_token`` is true) or a value is malformed.
    """
    if env is None:
        if dotenv:
            from dotenv import find_dotenv, load_dotenv

            load_dotenv(find_dotenv(usecwd=True), override=False)
        env = os.environ
    token = _raw(env, "DISCORD_TOKEN") or None
    if require_token and token is None:
        raise ConfigError(
            "DISCORD_TOKEN is not set. Put your bot token in the environment or in a .env file"
            " (copy .env.example to .env). Get it from the Discord Developer Portal: your"
            " application > Bot > Reset Token. To try the bot without a token, run"
            f" `{preview_command()}`."
        )
    db_raw = _raw(env, "KASINO_DB")
    level = _raw(env, "LOG_LEVEL").upper() or SETTINGS["LOG_LEVEL"]
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
    shard_count, shard_ids = _shards(env)
    db_path = _database(db_raw)
    if shard_ids is not None and len(shard_ids) < (shard_count or 0) and isinstance(db_path, Path):
        raise ConfigError(
            "SHARD_IDS runs only some shards here, so other processes run the rest: they need"
            " one shared database, a PostgreSQL KASINO_DB (postgresql://user:password@host/name)"
        )
    return Config(
        token=token,
        db_path=db_path,
        shard_count=shard_count,
        shard_ids=shard_ids,
        health_file=Path(env["HEALTH_FILE"]) if _raw(env, "HEALTH_FILE") else None,
        dev_guild_id=_int(env, "DEV_GUILD_ID", None, low=1),
        turn_seconds=_int(env, "TURN_SECONDS", DEFAULT_TURN_SECONDS, low=10)
        or DEFAULT_TURN_SECONDS,
        round_pause=_float(env, "ROUND_PAUSE", DEFAULT_ROUND_PAUSE),
        max_auto_moves=_int(env, "MAX_AUTO_MOVES", MAX_AUTO_MOVES, low=1) or MAX_AUTO_MOVES,
        log_level=level,
        computer_pause=_float(env, "COMPUTER_PAUSE", DEFAULT_COMPUTER_PAUSE),
        hard_budget_ms=_int(env, "HARD_BUDGET_MS", None, low=1),
        card_faces=_switch(env, "CARD_FACES", SETTINGS["CARD_FACES"] == "on"),
        analysis_workers=_int(env, "ANALYSIS_WORKERS", DEFAULT_ANALYSIS_WORKERS, low=1)
        or DEFAULT_ANALYSIS_WORKERS,
    )


def _switch(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = _raw(env, name).lower()
    if not raw:
        return default
    if raw in {"1", "on", "yes", "true"}:
        return True
    if raw in {"0", "off", "no", "false"}:
        return False
    raise ConfigError(f"{name} must be on or off, not {raw!r}")


def _database(raw: str) -> Path | str:
    """``KASINO_DB``: a path for SQLite, the URL itself for PostgreSQL."""
    if not raw:
        return DEFAULT_DB_PATH
    try:
        kind, where = parse_target(raw)
    except BadTarget as error:
        raise ConfigError(f"KASINO_DB: {error}") from None
    return Path(where) if kind == "sqlite" else where


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` and ``SHARD_IDS`` (e.g. ``0,1``; all shards when left out)."""
    count = _int(env, "SHARD_COUNT", None, low=1)
    raw = _raw(env, "SHARD_IDS")
    if not raw:
        return count, None
    if count is None:
        raise ConfigError("SHARD_IDS needs SHARD_COUNT too (how many shards there are in all)")
    try:
        ids = tuple(int(part) for part in raw.split(","))
    except ValueError:
        raise ConfigError(f"SHARD_IDS must be shard numbers like 0,1, not {raw!r}") from None
    if len(set(ids)) != len(ids) or any(not 0 <= i < count for i in ids):
        raise ConfigError(
            f"SHARD_IDS must be different numbers from 0 to {count - 1} (SHARD_COUNT={count}),"
            f" not {raw!r}"
        )
    return count, ids
