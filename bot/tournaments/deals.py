"""A tournament's deals no one can steer (docs/record.md, "Tournaments"): its own deal
seed, drawn when the sign-up opens and committed to at once (the sign-up message and each
entrant's Join show the commitment); each table's match seed derived from it, the round
and the table's number (:func:`bot.records.deals.table_seed`); the entrants' cuts, made at
sign-up, cut the tables they play at. Kept in the tournament's ``extra``:
``{"deals": {"seed": …}, "cuts": [[user id, cut], …]}`` (ids as values, not keys, so that
forget-me's replacement of a person's id reaches them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.records.deals import new_seed, tournament_commitment


def draw(extra: dict[str, Any]) -> None:
    """Draw a new tournament's deal seed (when its sign-up opens)."""
    extra["deals"] = {"seed": new_seed()}


def deal_seed(extra: dict[str, Any]) -> str | None:
    """The tournament's deal seed; ``None`` for one opened before tournaments had one."""
    deals = extra.get("deals")
    seed = deals.get("seed") if isinstance(deals, dict) else None
    return seed if isinstance(seed, str) and seed else None


def commitment(tournament_id: int, extra: dict[str, Any]) -> str | None:
    """The commitment to the deal seed (64 hex digits), or ``None``."""
    seed = deal_seed(extra)
    return None if seed is None else tournament_commitment(tournament_id, seed)


def _cuts(extra: dict[str, Any]) -> list[list[int]]:
    cuts = extra.get("cuts")
    if not isinstance(cuts, list):
        return []
    return [c for c in cuts if isinstance(c, list) and len(c) == 2 and isinstance(c[1], int)]


def cut_of(extra: dict[str, Any], user_id: int) -> int | None:
    """The entrant's cut, if they made one."""
    return next((n for uid, n in _cuts(extra) if uid == user_id), None)


def add_cut(extra: dict[str, Any], user_id: int, number: int) -> None:
    """Keep an entrant's cut (the caller checked they have none yet)."""
    extra["cuts"] = [*_cuts(extra), [int(user_id), int(number)]]


def drop_cut(extra: dict[str, Any], user_id: int) -> bool:
    """Forget the cut of an entrant who left; whether there was one."""
    kept = [c for c in _cuts(extra) if c[0] != user_id]
    changed = len(kept) != len(_cuts(extra))
    if changed:
        extra["cuts"] = kept
    return changed


def table_cuts(extra: dict[str, Any], players: Iterable[int | None]) -> dict[str, int]:
    """The cuts of a table's players, by user id as text (as a lobby keeps them, for
    :meth:`bot.games.GameService.open_table`)."""
    seated = {p for p in players if p is not None}
    return {str(uid): n for uid, n in _cuts(extra) if uid in seated}


def cut_by(extra: dict[str, Any]) -> set[int]:
    """Who has cut (the sign-up marks them)."""
    return {uid for uid, _ in _cuts(extra)}
