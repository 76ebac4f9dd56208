"""Why a move is refused, as a sentence with a stable id: :class:`Reason`.

A reason is the English sentence itself (a ``str``: ``"9H is not in your hand"``), so
everything that prints or compares the engine's messages keeps working, and it also
carries its ``template`` (``"{card} is not in your hand"``, the message's id) and the
``params`` it was made from, so an interface can say it in another language. Params are
cards, builds, numbers and :class:`Joined` lists, written here as the engine always wrote
them (``str(card)``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


class Joined(tuple):
    """Items written one after another with ``sep`` (``" + "``, ``" "``, ``" or "``,
    ``" and "``); an interface may write the items and the word between them its own way."""

    sep: str

    def __new__(cls, items: Iterable[Any], sep: str = " ") -> Joined:
        joined = super().__new__(cls, tuple(items))
        joined.sep = sep
        return joined

    def __str__(self) -> str:
        return self.sep.join(map(str, self))


class Reason(str):
    """An English sentence for the player, with its template and params kept."""

    template: str
    params: Mapping[str, Any]

    def __new__(cls, template: str, **params: Any) -> Reason:
        text = template.format(**{key: str(value) for key, value in params.items()})
        made = super().__new__(cls, text)
        made.template = template
        made.params = dict(params)
        return made


def reason(template: str, **params: Any) -> Reason:
    """A :class:`Reason` (the name the message catalogue's extraction looks for)."""
    return Reason(template, **params)


def reason_of(message: object) -> Reason:
    """``message`` as a :class:`Reason` (a plain string becomes its own template)."""
    if isinstance(message, Reason):
        return message
    text = str(message)
    return Reason(text.replace("{", "{{").replace("}", "}}"))
