"""Discord's cap on edits to messages older than an hour, which SimCord lacks.

Discord's error codes (``developers/topics/opcodes-and-status-codes.mdx``) list **30046**
"Maximum number of edits to messages older than 1 hour reached. Try again later", answered
with 429 (as seen in discord.py's traceback, aikaterna/aikaterna-cogs#302). The number is
not documented ("We dont put rate limit details in our documentation",
discord/discord-api-docs#4413). A correspondence game runs for days, so its messages are
old: the bot must never depend on editing them. The harness takes the strictest reading,
every edit of one of the bot's channel messages older than an hour is refused
(``allowed`` 0; a test may allow some), and records each refusal (:attr:`refused`), so a
test can show that a game still plays to its end and that nothing waited on such an edit.

Only Edit Message on a channel (``PATCH /channels/{c}/messages/{m}``) is capped; an
interaction's token edits its own ephemeral messages for 15 minutes, well inside the hour.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from simcord.backend.errors import BackendError
from simcord.http import router as sim_router

EDIT_ROUTE = ["channels", "{channel_id}", "messages", "{message_id}"]
OLD = 3600.0  # seconds: "messages older than 1 hour"


def edits_capped() -> BackendError:
    """Discord's answer to an edit over the cap on hour-old messages."""
    return BackendError(
        429, 30046, "Maximum number of edits to messages older than 1 hour reached. Try again later"
    )


@dataclass
class OldEdits:
    """The cap (see the module): ``allowed`` edits of hour-old messages pass; the others
    are refused and recorded in ``refused`` as (channel id, message id)."""

    allowed: int = 0
    refused: list[tuple[int, int]] = field(default_factory=list)
    passed: int = 0

    def wrap(self, handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """Edit Message as Discord answers it, around SimCord's own handler."""

        def edit(ctx: Any) -> Any:
            channel, message = int(ctx.args["channel_id"]), int(ctx.args["message_id"])
            kept = ctx.backend.messages.get(channel, {}).get(message)
            if kept is not None and kept.timestamp:
                made = datetime.fromisoformat(kept.timestamp)
                age = (ctx.backend.clock.now() - made).total_seconds()
                if age > OLD:
                    if self.passed >= self.allowed:
                        self.refused.append((channel, message))
                        raise edits_capped()
                    self.passed += 1
            return handler(ctx)

        return edit

    def install(self, monkeypatch: Any) -> None:
        """Cap SimCord's Edit Message until the test ends."""
        routes = sim_router._ROUTES  # SimCord's route table (private; pinned version)
        monkeypatch.setitem(
            routes,
            "PATCH",
            [(t, self.wrap(h) if t == EDIT_ROUTE else h) for t, h in routes["PATCH"]],
        )
