"""The bot in Swedish, Finnish and English, through SimCord: private messages in the
reader's client language, public ones in the server's (or the language an admin chose),
and the slash commands localized for each client."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest
import simcord
from simcord import interactions as sim_interactions

from bot.i18n import lang
from bot.models import Status
from bot.moves import auto_move
from bot.translator import valid_name
from tests.bot.kasino_harness import Harness, button, components

# Each test member's Discord client language (by user id); anyone else uses en-US.
CLIENT_LOCALES: dict[int, str] = {}


@pytest.fixture(autouse=True)
def client_locales(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, str]]:
    """SimCord sends every interaction as from an en-US client in an en-US server: send
    each member's own client language, and the server's ``preferred_locale`` as
    ``guild_locale``, as Discord does."""
    original = sim_interactions.base_payload

    def with_locales(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **kwargs)
        payload["locale"] = CLIENT_LOCALES.get(kwargs["user_id"], "en-US")
        if kwargs.get("guild_id") is not None:
            guild = backend.get_guild(kwargs["guild_id"])
            payload["guild_locale"] = guild.preferred_locale
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", with_locales)
    CLIENT_LOCALES.clear()
    yield CLIENT_LOCALES
    CLIENT_LOCALES.clear()


class Posted:
    """A message the bot posted to a channel, from SimCord's log of its requests (tables
    are deleted once the next is posted; this still sees them)."""

    def __init__(self, body: dict[str, Any]) -> None:
        self.content = body.get("content") or ""
        self.embeds = body.get("embeds") or []
        self.components = body.get("components") or []


def channel_posts(env: simcord.Env) -> list[Posted]:
    """Every message the bot posted to a channel (never ephemeral: those are answers)."""
    return [
        Posted(r.json or {})
        for r in env.http_requests
        if r.method == "POST" and re.fullmatch(r"/channels/\d+/messages", r.path)
    ]


def text_of(message: Any) -> str:
    """Everything a message says: content, embeds, and its components' words."""
    parts = [message.content or ""]
    for embed in message.embeds:
        data = embed if isinstance(embed, dict) else embed.to_dict()
        parts += [data.get("title", ""), data.get("description", "")]
        parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in data.get("fields", [])]
        parts.append(data.get("footer", {}).get("text", ""))
    if isinstance(message, Posted):
        found = [c for row in message.components for c in row.get("components", [])]
    else:
        found = components(message)
    for component in found:
        parts += [component.get("label") or "", component.get("placeholder") or ""]
        for option in component.get("options", []):
            parts += [option.get("label") or "", option.get("description") or ""]
    return "\n".join(parts)


# Words only one language's messages use (checked as whole words).
ENGLISH = [
    "Your hand",
    "Round",
    "Table",
    "Game #",
    "your turn",
    "played",
    "trailed",
    "Score",
    "Seats",
    "Join",
    "Rules",
    "wins",
    "is thinking",
    "Last move",
    "Hint",
]
SWEDISH = [
    "Din hand",
    "Omgång",
    "Bordet",
    "Parti #",
    "din tur",
    "spelade",
    "lade ut",
    "Poäng",
    "Platser",
    "Gå med",
    "Regler",
    "vinner",
    "Senaste drag",
    "Tips",
]
FINNISH = [
    "Kätesi",
    "Kierros",
    "Pöytä",
    "Peli #",
    "sinun vuorosi",
    "pelasi",
    "laittoi",
    "Pisteet",
    "Paikat",
    "Liity",
    "Säännöt",
    "voittaa",
    "Edellinen siirto",
    "Vihje",
]
WORDS = {"en": ENGLISH, "sv": SWEDISH, "fi": FINNISH}


def words_of(text: str, code: str) -> list[str]:
    return [w for w in WORDS[code] if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]


def assert_in(message: Any, code: str, *, marked: bool = True) -> None:
    """The message speaks ``code``: it uses no other language's words, and (``marked``)
    some of that language's."""
    text = text_of(message)
    assert words_of(text, code) or not marked, (code, text)
    for other in WORDS:
        if other != code:
            assert not words_of(text, other), (code, other, words_of(text, other), text)


def private_messages(harness: Harness, member: Any) -> list[Any]:
    return [m for m in harness.channel.history(viewer=member) if m.flags.ephemeral]


async def test_a_match_in_a_finnish_server_with_a_swede_and_a_finn(
    simcord_env: simcord.Env,
) -> None:
    harness = Harness(simcord_env, locale="fi")
    try:
        anna, bjorn = harness.members[:2]
        CLIENT_LOCALES.update({anna.id: "sv-SE", bjorn.id: "fi"})
        lobby = await harness.open_lobby(anna, target=5)
        assert_in(lobby, "fi")
        # a refusal is private, in the clicker's language
        joined = await harness.click(bjorn, lobby, custom_id=button(lobby, "join"))
        assert_in(joined.response, "fi")
        lobby = harness.current(lobby)
        refused = await harness.click(bjorn, lobby, custom_id=button(lobby, "start"))
        assert refused.ephemeral and "Vain isäntä" in refused.response.content
        await harness.click(anna, lobby, custom_id=button(lobby, "hints"))
        await harness.click(anna, lobby, custom_id=button(lobby, "start"))
        game = await harness.game()
        assert game is not None and game.status is Status.PLAYING
        # the rules summary, privately in each reader's language
        rules = await harness.slash(anna, "kasino rules")
        assert rules.ephemeral and rules.response.embeds[0].title == "Kasinoregler"
        rules = await harness.slash(bjorn, "kasino rules")
        assert rules.ephemeral and rules.response.embeds[0].title == "Kasinon säännöt"
        hints = {anna.id: "💡 Tips: ", bjorn.id: "💡 Vihje: "}
        out_of_turn = 0
        while game.status.active:
            rnd = game.match.round
            mover = harness.member(int(game.seats[rnd.to_move].user_id))
            other = bjorn if mover is anna else anna
            if out_of_turn < 2:  # the one waiting tries to open the move menu
                hand = (await harness.open_hand(other, game)).response
                assert not any(
                    c.get("custom_id", "").startswith("k:card:") for c in components(hand)
                )
                out_of_turn += 1
            if hints.get(mover.id):
                hand = (await harness.open_hand(mover, game)).response
                await harness.click(mover, hand, custom_id=hint_id(hand))
                await harness.env.advance_time(1)
                said = [m.content for m in private_messages(harness, mover)]
                prefix = hints.pop(mover.id)
                assert any(s.startswith(prefix) for s in said), said
            await harness.play_move(game, auto_move(rnd))
        assert game.status is Status.FINISHED
        # every public message in Finnish: lobby, tables, turn notices, summaries, the end
        public = harness.public_messages() + channel_posts(harness.env)
        assert len(public) > 10
        for message in public:
            assert_in(message, "fi")
        end = [m for m in harness.public_messages() if m.content.startswith("🏆 Peli päättyi:")]
        assert len(end) == 1
        assert any("Kierros 1 päättyi" in text_of(m) for m in public)
        # every private message in its reader's language, and hands never public
        for member, code in ((anna, "sv"), (bjorn, "fi")):
            mine = private_messages(harness, member)
            assert any(lang(code)("Your hand") in m.content for m in mine)
            for message in mine:
                assert_in(message, code, marked=lang(code)("Your hand") in message.content)
        for message in public:
            assert "Din hand" not in text_of(message) and "Kätesi" not in message.content
        # the leaderboard is public: Finnish, whoever asks
        board = await harness.slash(anna, "kasino scores")
        assert not board.ephemeral
        assert board.response.embeds[0].title.startswith("Kasinon tulostaulu")
    finally:
        await simcord_env.bot.close_storage()


def hint_id(message: Any) -> str:
    found = [
        c["custom_id"] for c in components(message) if c.get("custom_id", "").startswith("k:hint:")
    ]
    assert len(found) == 1, found
    return found[0]


async def test_the_server_language_and_the_admin_setting(harness: Harness) -> None:
    anna, bjorn = harness.members[:2]
    CLIENT_LOCALES.update({anna.id: "fi", bjorn.id: "sv-SE"})
    # an English server: public messages in English, private ones in the reader's
    lobby = await harness.open_lobby(anna)
    assert_in(lobby, "en")
    refused = await harness.slash(bjorn, "kasino language", language="sv")
    assert refused.ephemeral and "Hantera server" in refused.response.content
    admins = harness.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = harness.guild.add_member(harness.env.create_user("admin"), roles=[admins])
    CLIENT_LOCALES[admin.id] = "en-GB"
    chosen = await harness.slash(admin, "kasino language", language="sv")
    # said in the newly chosen language, which names itself in lower case mid-sentence
    assert not chosen.ephemeral and chosen.response.content.endswith(" nu på svenska.")
    assert await harness.cog.games.storage.guild_language(harness.guild.id) == "sv"
    # the lobby now answers in Swedish; the joining Finn's refusal is Finnish
    joined = await harness.click(bjorn, lobby, custom_id=button(lobby, "join"))
    assert_in(joined.response, "sv")
    again = await harness.click(bjorn, lobby, custom_id=button(lobby, "join"))
    assert again.ephemeral and again.response.content == "Du har redan en plats i det här partiet."
    again = await harness.click(anna, lobby, custom_id=button(lobby, "join"))
    assert again.response.content == "Sinulla on jo paikka tässä pelissä."
    # kept across a restart, and undone with "the server's language"
    await harness.restart(type(harness.env.bot)(harness.env.bot.config))
    board = await harness.slash(anna, "kasino scores")
    assert board.response.embeds[0].title.startswith("Kasinos topplista")
    finnish = await harness.slash(admin, "kasino language", language="fi")
    assert finnish.response.content.endswith(" on nyt suomi.")
    english = await harness.slash(admin, "kasino language", language="en")
    assert english.response.content.endswith(" are now in English.")
    await harness.slash(admin, "kasino language", language="server")
    assert await harness.cog.games.storage.guild_language(harness.guild.id) is None
    board = await harness.slash(anna, "kasino scores")
    assert board.response.embeds[0].title.startswith("Kasino leaderboard")


async def test_a_swedish_server_speaks_swedish_without_a_setting(simcord_env: simcord.Env) -> None:
    harness = Harness(simcord_env, locale="sv-SE")
    try:
        anna = harness.members[0]
        lobby = await harness.open_lobby(anna, variant="finnish")
        assert_in(lobby, "sv")
        assert lobby.embeds[0].title == "Kasino: Finskt kasino"
        await harness.click(harness.members[1], lobby, custom_id=button(lobby, "join"))
        await harness.click(anna, lobby, custom_id=button(lobby, "start"))
        game = await harness.game()
        table = harness.table_message(game)
        assert_in(table, "sv")
    finally:
        await simcord_env.bot.close_storage()


async def test_command_localizations_are_registered(harness: Harness) -> None:
    registered = harness.env.backend.commands[None]
    kasino = next(c for (name, _), c in registered.items() if name == "kasino")
    for locale in ("sv-SE", "fi"):
        assert kasino["description_localizations"][locale]
    subcommands = {o["name"]: o for o in kasino["options"]}
    assert set(subcommands) == {
        "new", "hand", "scores", "rules", "stop", "language", "deck", "forget-me", "profile",
        "versus", "history", "export", "help", "puzzle", "learn",
        "tournaments", "tournament", "queue", "block", "ladder", "settings", "vacation", "games",
    }  # fmt: skip
    expected = {"new": ("ny", "uusi"), "rules": ("regler", "säännöt"), "hand": ("hand", "käsi")}
    for name, (swedish, finnish) in expected.items():
        localized = subcommands[name].get("name_localizations") or {}
        assert localized.get("fi") == finnish
        assert localized.get("sv-SE", name) == swedish
    checked = 0
    for sub in subcommands.values():
        for locale in ("sv-SE", "fi"):
            assert sub["description_localizations"][locale] != sub["description"]
        for option in sub.get("options", []):
            for locale in ("sv-SE", "fi"):
                assert option["description_localizations"][locale]
                name = option.get("name_localizations", {}).get(locale, option["name"])
                assert valid_name(name), name
                checked += 1
            for choice in option.get("choices", []):
                localized = choice.get("name_localizations") or {}
                for locale, code in (("sv-SE", "sv"), ("fi", "fi")):
                    # a name that is the same in the language (Mulle, Casino) needs none
                    said = lang(code)(choice["name"])
                    assert localized.get(locale, choice["name"]) == said, (locale, choice)
    assert checked > 20
    # the tournament group's commands: every option described in each language
    for command in subcommands["tournament"]["options"]:
        for option in command.get("options", []):
            for locale in ("sv-SE", "fi"):
                assert option["description_localizations"][locale], (command["name"], option)
    opened = next(c for c in subcommands["tournament"]["options"] if c["name"] == "new")
    assert {"teams", "team_size"} <= {o["name"] for o in opened["options"]}
    new = subcommands["new"]
    variant = next(o for o in new["options"] if o["name"] == "variant")
    swedish = next(c for c in variant["choices"] if c["value"] == "swedish")
    assert swedish["name_localizations"] == {"sv-SE": "Svenskt kasino", "fi": "Ruotsalainen kasino"}
    # a Finnish client can use the command by its own name: Discord sends the English one
    CLIENT_LOCALES[harness.members[0].id] = "fi"
    result = await harness.slash(harness.members[0], "kasino rules", variant="finnish")
    assert result.response.embeds[0].description.startswith("**Suomalainen kasino**")


def test_discords_naming_rule() -> None:
    assert valid_name("viimeisen_oton_piste") and valid_name("säännöt") and valid_name("mål")
    assert not valid_name("Regler") and not valid_name("two words") and not valid_name("x" * 33)


async def test_a_refusal_names_the_command_as_the_readers_client_lists_it(
    harness: Harness,
    client_locales: dict[int, str],
) -> None:
    """ "Start one with /kasino new" in Swedish and Finnish names the command by the name
    the client's command list shows (the tree's registered localization), not in English."""
    registered = harness.env.backend.commands[None]
    kasino = next(c for (name, _), c in registered.items() if name == "kasino")
    new = next(o for o in kasino["options"] if o["name"] == "new")["name_localizations"]
    anna, bjorn = harness.members[:2]
    client_locales.update({anna.id: "sv-SE", bjorn.id: "fi"})
    for member, locale in ((anna, "sv-SE"), (bjorn, "fi")):
        said = str((await harness.slash(member, "kasino hand")).response.content)
        assert f"/kasino {new[locale]}." in said, said
        assert "/kasino new" not in said
