"""Checks for values read from outside (saved games): ``ValueError`` with a readable message."""

from __future__ import annotations

from collections.abc import Callable, Sequence


def brief(value: object) -> str:
    """A short, safe description of any value for an error message (no huge reprs)."""
    if value is None or isinstance(value, bool | float):
        return repr(value)
    if isinstance(value, int):
        return repr(value) if abs(value) < 10**12 else "a huge number"
    if isinstance(value, str):
        return repr(value[:24])
    return f"a {type(value).__name__}"


def fields_of(data: object, what: str) -> Callable[[str], object]:
    """A reader of ``data``'s fields that names a missing one (``ValueError``)."""
    if not isinstance(data, dict):
        raise ValueError(f"a saved {what} is a mapping, not a {type(data).__name__}")

    def field(key: str) -> object:
        if key not in data:
            raise ValueError(f"the saved {what} has no {key}")
        return data[key]

    return field


def per_seat(values: Sequence, count: int, name: str) -> Sequence:
    """``values`` if it has ``count`` entries (one per seat or side)."""
    if len(values) != count:
        raise ValueError(f"{name} needs {count} entries, not {len(values)}")
    return values


def as_seat(value: object, players: int, name: str) -> int:
    """``value`` if it is a seat (a whole number from 0 to ``players - 1``)."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise ValueError(f"{name} is a seat from 0 to {players - 1}, not {brief(value)}")
    return value


def as_count(value: object, name: str) -> int:
    """``value`` if it is a whole number from 0 up."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{name}: a whole number from 0 up, not {brief(value)}")
    return value


def as_flag(value: object, name: str) -> bool:
    """``value`` if it is true or false (not a number or text that reads as one)."""
    if not isinstance(value, bool):
        raise ValueError(f"{name} is true or false, not {brief(value)}")
    return value


def as_list(value: object, name: str) -> list:
    """``value`` if it is a list."""
    if not isinstance(value, list):
        raise ValueError(f"{name}: a list, not {brief(value)}")
    return value


def saved_version(value: object, readable: Sequence[int], what: str) -> int:
    """A saved form's format version, if this engine reads it; else ``ValueError``."""
    if type(value) is not int or value not in readable:
        raise ValueError(f"unknown saved {what} version {brief(value)}")
    return value


def as_score(value: object, name: str, negative: bool) -> int:
    """``value`` if it is a whole number, from 0 up unless ``negative`` scores are allowed
    (a game of penalties, whose rewards take totals below zero)."""
    if not negative:
        return as_count(value, name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name}: a whole number, not {brief(value)}")
    return value
