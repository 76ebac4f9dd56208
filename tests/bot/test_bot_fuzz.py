"""A property test of the whole component surface: random and mutated interactions
(custom_ids, values, the message they arrive with, the user, the component type) go
through SimCord to the real bot. Every one must be answered in time (SimCord refuses an
answer after Discord's 3 seconds), and every stored game row must stay exactly as it was
unless the interaction was a legal move by the player to move: then the row's new state
must be the old one with that move applied by the engine."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from simcord.actors import _channel_id_of

from bot.engine import Card, Match, Move
from bot.moves import rank_choices
from tests.bot.kasino_harness import Harness, cid, components, custom_ids
from tests.dbrows import query

GARBAGE = ["²", "٣", "", "-1", "99", "c99", "c²", "trail", "pick", "0", "1" * 30, "k:", "🂠"]


def rows(db_path: Path | str) -> dict[int, dict[str, Any]]:
    """Every game row, and each game's last logged move (the truth on disk)."""
    games = {r["id"]: r for r in query(db_path, "SELECT * FROM games")}
    for gid, row in games.items():
        found = query(
            db_path,
            "SELECT seat, card, taken FROM moves WHERE game_id = ? ORDER BY id DESC LIMIT 1",
            (gid,),
        )
        row["last_logged"] = tuple(found[0].values()) if found else None
    return games


def check_change(before: dict[str, Any], after: dict[str, Any], user_id: int) -> None:
    """A changed row is a legal move of the player to move, applied exactly."""
    old = Match.from_dict(json.loads(before["state"]))
    seats = json.loads(before["seats"])
    assert seats[old.round.to_move]["user_id"] == user_id, "moved for someone else"
    assert after["version"] == before["version"] + 1
    seat, card, taken = after["last_logged"]
    assert seat == old.round.to_move
    move = Move(Card.parse(card), [Card.parse(c) for c in taken.split()])
    old.play(move)  # IllegalMove here would mean the bot accepted an illegal move
    assert old.to_dict() == json.loads(after["state"])


class Fuzzer:
    """Two games in two channels, a corpus of real messages, and random mutations."""

    def __init__(self, harness: Harness, rng: random.Random) -> None:
        self.harness = harness
        self.rng = rng
        self.channels = [harness.channel, harness.guild.create_text_channel("second")]
        self.games: list[Any] = []
        self.messages: list[Any] = []
        self.owners: dict[int, Any] = {}  # private hand views and who sees them

    async def start(self) -> None:
        h = self.harness
        self.games.append(await h.start_game(2))
        host, guest = h.members[2], h.members[3]
        lobby = (await host.slash(self.channels[1], "kasino new")).response.message
        await guest.click(lobby, label="Join")
        await host.click(lobby, label="Start")
        self.games.append(await h.cog.games.active(self.channels[1].id))

    def table(self, index: int) -> Any:
        """The game's latest table (it is posted fresh at every turn)."""
        return self.harness.table_message(self.games[index], self.channels[index])

    def add(self, message: Any, owner: Any) -> None:
        """A private hand view for the corpus, and the member it was shown to."""
        self.messages.append(message)
        self.owners[message.id] = owner

    def alive(self, message: Any) -> bool:
        """Whether a message still exists (old tables are deleted: nobody can click them)."""
        env = self.harness.env
        try:
            env.backend.get_message(_channel_id_of(message, env), message.id)
        except Exception:
            return False
        return True

    async def refresh(self) -> None:
        """Real messages to mutate: tables, each player's hand, the mover's take and pick
        views, a leaderboard."""
        h = self.harness
        self.messages = []
        for index, game in enumerate(self.games):
            if not game.status.active:
                continue
            table = self.table(index)
            self.messages.append(table)
            for seat in game.seats:
                member = h.member(seat.user_id)
                hand = (await member.click(table, label="Your hand")).response
                self.add(hand, member)
            rnd = game.match.round
            mover = h.member(game.seats[rnd.to_move].user_id)
            hand = (await mover.click(table, label="Your hand")).response
            self.add(hand, mover)
            # a card that can capture opens the take menu (one that cannot is played at once)
            capturing = [
                i
                for i, c in enumerate(rnd.hands[rnd.to_move])
                if rank_choices(game.match.rules, c, rnd.table, 1)
            ]
            if not capturing:
                continue
            pick = self.rng.choice(capturing)
            take = await mover.select(hand, [str(pick)], custom_id=cid(hand, "k:card:"))
            self.add(take.response, mover)
            if "pick" in str(components(take.response)):
                view = await mover.select(
                    take.response, ["pick"], custom_id=cid(take.response, "k:take:")
                )
                self.add(view.response, mover)
        scores = await h.slash(h.members[0], "kasino scores")
        self.messages.append(scores.response)

    def interaction(self) -> tuple[Any, Any, str, list[str] | None, bool, int | None]:
        """A random real component, mutated at random."""
        rng = self.rng
        self.messages = [m for m in self.messages if self.alive(m)]
        message = rng.choice(self.messages)
        found = [c for c in components(message) if c.get("custom_id")]
        component = rng.choice(found)
        custom_id = self.mutate_id(component["custom_id"])
        values = None
        if component.get("type") == 3:
            options = [o["value"] for o in component.get("options", [])]
            values = rng.sample(options, rng.randint(1, min(len(options), 3)))
            if rng.random() < 0.3:
                values = [*values[:-1], rng.choice(GARBAGE)]
            if rng.random() < 0.05:
                values = []
        elif rng.random() < 0.05:
            values = ["0"]
        if rng.random() < 0.25:
            message = rng.choice(self.messages)  # arrives with another message
        user = rng.choice(self.harness.members)
        if message.id in self.owners and rng.random() < 0.75:
            user = self.owners[message.id]  # most clicks on a private view are its owner's
        doctor = rng.random() < 0.5
        kind = rng.choice([None, None, None, 2, 3])
        return user, message, custom_id, values, doctor, kind

    def mutate_id(self, text: str) -> str:
        rng = self.rng
        parts = text.split(":")
        roll = rng.random()
        if roll < 0.4:
            return text
        if roll < 0.8 and len(parts) > 2:
            field = rng.randrange(2, len(parts))
            other = [str(g.id) for g in self.games]
            parts[field] = rng.choice(
                [*other, "0", "1" * 25, "²", "-1", str(int(parts[field]) + 1)]
                if parts[field].isdigit()
                else [*other, "x", "", "²"]
            )
            return ":".join(parts)
        if roll < 0.9:
            kinds = ["lobby", "hand", "hint", "card", "take", "pick", "rematch", "scores", "x"]
            parts[1] = rng.choice(kinds)
            return ":".join(parts)
        return rng.choice([
            text + ":1", ":".join(parts[:-1]), "k:" + "9" * 90, text[:-1] + "²",
            # the prefix itself (issue 39): each must be answered like the rest
            text.upper(), ":" + text, " " + text, "x" + text[1:], text[2:],
        ])  # fmt: skip


# the fuzzer needs real moves among its picks: seeds whose deals give some (3 no longer
# does since the first deal is cut by the Start click; 3, 4 and 8 of 1 to 8 do not)
@pytest.mark.parametrize("seed", [1, 2, 5])
async def test_random_and_mutated_interactions(harness: Harness, db_path: Path, seed: int) -> None:
    fuzz = Fuzzer(harness, random.Random(seed))
    await fuzz.start()
    moves = 0
    for step in range(240):
        if step % 20 == 0:
            await fuzz.refresh()
        before = rows(db_path)
        user, message, custom_id, values, doctor, kind = fuzz.interaction()
        result = await harness.forge(
            user, message, custom_id, values, doctor=doctor, component_type=kind
        )
        assert result.acknowledged, (custom_id, values, doctor, kind)
        after = rows(db_path)
        assert after.keys() == before.keys()
        for gid, row in after.items():
            if row != before[gid]:
                check_change(before[gid], row, user.id)
                moves += 1
        for game_message in harness.public_messages():  # no hand ever shows in public
            assert "Your hand" not in (game_message.content or "")
            assert not any(
                c.startswith(("k:card", "k:take", "k:pick")) for c in custom_ids(game_message)
            )
    assert moves > 0  # the mutations include real moves, and those were applied
