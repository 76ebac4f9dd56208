"""What ``KASINO_DB`` names: an SQLite file (a path, or ``sqlite:///path``) or a PostgreSQL
database (``postgresql://user:password@host:port/name``)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

Kind = Literal["sqlite", "postgresql"]
POSTGRES_SCHEMES = ("postgresql", "postgres")


class BadTarget(ValueError):
    """``KASINO_DB`` is neither a file path nor a usable database URL."""


def parse_target(target: str | Path) -> tuple[Kind, str]:
    """``("sqlite", path)`` or ``("postgresql", url)``; :class:`BadTarget` otherwise."""
    if isinstance(target, Path):
        return "sqlite", str(target)
    text = target.strip()
    if text.startswith("sqlite:///"):
        path = text.removeprefix("sqlite:///")
        if not path:
            raise BadTarget("sqlite:/// needs a file after it, e.g. sqlite:///data/kasino.db")
        return "sqlite", path
    if "://" not in text:
        if not text:
            raise BadTarget("the database is empty: give a file path or a postgresql:// URL")
        return "sqlite", text
    parts = urlsplit(text)
    if parts.scheme not in POSTGRES_SCHEMES:
        raise BadTarget(
            f"{parts.scheme}:// is not a database Kasino knows: use a file path,"
            " sqlite:///path or postgresql://user:password@host/name"
        )
    try:
        parts.port  # noqa: B018 (raises on a port that is not a number)
    except ValueError:
        raise BadTarget(f"the port in {redact(text)} is not a number") from None
    if not parts.hostname and "host=" not in parts.query:
        raise BadTarget(f"{redact(text)} names no host (postgresql://user:password@host/name)")
    return "postgresql", text


def is_postgres(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL database (a malformed one counts as not)."""
    try:
        return parse_target(target)[0] == "postgresql"
    except BadTarget:
        return False


def redact(target: str | Path) -> str:
    """``target`` fit for a log line or an error: a URL's password is replaced by ``***``."""
    text = str(target)
    if "://" not in text:
        return text
    parts = urlsplit(text)
    if parts.password is None:
        return text
    user = parts.username or ""
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
