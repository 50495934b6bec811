"""The slash commands in every language (docs/i18n-commands.md): the payload the bot syncs
is read once, offline, as discord.py builds it with our translator, and checked as Discord
would check it; the catalogs are checked against the commands (none missing, none unused,
English equal to the code). Through the fake Discord: the published commands carry pt-BR,
the fake refuses what Discord refuses, and ``/config language`` sets the server's language."""

from __future__ import annotations

import asyncio
import re
import unicodedata
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord import Locale, app_commands

from bot.discord_side.command_catalog import with_tree
from bot.discord_side.translator import DOMAIN, CommandTranslator, texts
from bot.i18n import DEFAULT, LOCALES, catalog
from tests.e2e import make_bot
from tests.fakediscord import CommandNotAvailable
from tests.fakediscord.model.constants import MANAGE_GUILD
from tests.test_fakediscord_limits import Rest

OTHERS = [locale for locale in LOCALES if locale != DEFAULT]
DISCORD = {locale: locale.replace("_", "-") for locale in OTHERS}
"""Each catalog locale as Discord names it (``pt_BR`` → ``pt-BR``)."""


@cache
def published() -> tuple[tuple[dict[str, Any], ...], dict[str, str]]:
    """What the bot syncs (each top-level command's payload, translated as ``tree.sync``
    translates it) and every (key, English text) of its commands; built once."""
    async def read(bot: Any) -> tuple[tuple[dict[str, Any], ...], dict[str, str]]:
        translator = bot.tree.translator
        assert isinstance(translator, CommandTranslator)
        payloads = tuple([await command.get_translated_payload(bot.tree, translator)
                          for command in bot.tree.get_commands()])
        return payloads, dict(texts(bot.tree.walk_commands()))
    return asyncio.run(with_tree(read))


def entries(locale: str) -> dict[str, str]:
    """A ``commands`` catalog's entries, the header left out."""
    return {str(m.id): str(m.string) for m in catalog(DOMAIN, locale) if m.id}


def nodes(payloads: tuple[dict[str, Any], ...]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command, group and option of the payloads, with its path (``play flank``)."""
    def walk(node: dict[str, Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
        yield path, node
        for option in node.get("options") or []:
            yield from walk(option, f"{path} {option['name']}")
    for payload in payloads:
        yield from walk(payload, payload["name"])


def choices(payloads: tuple[dict[str, Any], ...]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every choice of every option, with its option's path."""
    for path, node in nodes(payloads):
        for choice in node.get("choices") or []:
            yield path, choice


def valid_name(name: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, and lowercase where
    the characters have case."""
    def allowed(char: str) -> bool:
        return (char in "-_" or unicodedata.category(char)[0] in "LN"
                or unicodedata.name(char, "").startswith(("DEVANAGARI", "THAI")))
    return 1 <= len(name) <= 32 and all(map(allowed, name)) and name == name.lower()


def test_valid_name_is_discords_rule() -> None:
    assert all(map(valid_name, ("play", "computer_level", "jogar", "começar", "x-1")))
    assert not any(map(valid_name, ("Play", "top cut", "", "a" * 33, "a.b", "?")))


def test_every_name_is_valid_and_unique_in_its_parent_in_every_locale() -> None:
    payloads, _ = published()
    found = list(nodes(payloads))
    bad = [f"{path}: {name!r}" for path, node in found
           for name in [node["name"], *(node.get("name_localizations") or {}).values()]
           if not valid_name(name)]
    assert bad == []
    siblings = [list(payloads)] + [node.get("options") or [] for _, node in found]
    for locale in ("", *(code.value for code in Locale)):
        for group in siblings:
            names = [(node.get("name_localizations") or {}).get(locale, node["name"])
                     for node in group]
            assert len(names) == len(set(names)), (locale, names)


def test_descriptions_and_choice_names_fit_in_every_locale() -> None:
    payloads, _ = published()
    long = [f"{path}: {text!r}" for path, node in nodes(payloads)
            for text in [node["description"],
                         *(node.get("description_localizations") or {}).values()]
            if not 1 <= len(text) <= 100]
    long += [f"{path}: {text!r}" for path, choice in choices(payloads)
             for text in [choice["name"], *(choice.get("name_localizations") or {}).values()]
             if not 1 <= len(text) <= 100]
    assert long == []


@pytest.mark.parametrize("locale", OTHERS)
def test_every_description_and_choice_is_published_in_each_locale(locale: str) -> None:
    payloads, _ = published()
    code = DISCORD[locale]
    bare = [path for path, node in nodes(payloads)
            if code not in (node.get("description_localizations") or {})]
    bare += [f"{path} = {choice['value']}" for path, choice in choices(payloads)
             if code not in (choice.get("name_localizations") or {})]
    assert bare == []


def test_english_is_the_default_and_names_stay_english() -> None:
    """The decision of docs/i18n-commands.md: no command or option name is localized, and
    nothing is published for English, whose text is the default."""
    payloads, _ = published()
    named = [path for path, node in nodes(payloads) if node.get("name_localizations")]
    assert named == []
    english = {code.value for code in Locale if code.value.startswith("en")}
    said = [path for path, node in nodes(payloads)
            if english & set(node.get("description_localizations") or {})]
    assert said == []
    pt = next(payload for payload in payloads if payload["name"] == "play")
    assert pt["description"] == "Open a game in this channel."
    assert pt["description_localizations"] == {"pt-BR": "Abre um jogo neste canal."}


def test_the_english_catalog_is_the_commands_own_words() -> None:
    """``python -m bot.discord_side.command_catalog`` rewrites it when this fails."""
    _, found = published()
    assert entries(DEFAULT) == found


@pytest.mark.parametrize("locale", OTHERS)
def test_each_catalog_has_every_key_and_no_other(locale: str) -> None:
    english, other = entries(DEFAULT), entries(locale)
    assert sorted(english.keys() - {k for k, v in other.items() if v}) == [], "missing"
    assert sorted(other.keys() - english.keys()) == [], "unused"


@pytest.mark.parametrize("locale", OTHERS)
def test_each_translation_keeps_the_numbers_of_the_english(locale: str) -> None:
    """A bound or a default written into a description (``1–10``, ``default 2``) changed
    in the code shows here until every language has the new number."""
    other = entries(locale)
    stale = [f"{key}: {text!r} / {other[key]!r}" for key, text in entries(DEFAULT).items()
             if sorted(re.findall(r"\d+", text)) != sorted(re.findall(r"\d+", other[key]))]
    assert stale == []


async def test_the_translator_keeps_the_default_where_it_has_nothing() -> None:
    tree: Any = app_commands.CommandTree.__new__(app_commands.CommandTree)
    translator = CommandTranslator(tree)
    tree.walk_commands = lambda: iter(())
    stray = app_commands.Choice(name="stray", value="stray")
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.choice_name,
                                              stray)
    text = app_commands.locale_str("stray")
    assert await translator.translate(text, Locale.brazil_portuguese, context) is None
    other = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await translator.translate(text, Locale.brazil_portuguese, other) is None
    for locale in (Locale.american_english, Locale.japanese):
        assert await translator.translate(text, locale, context) is None


async def test_a_choice_is_keyed_by_its_own_option_and_a_shared_one_by_none() -> None:
    """discord.py does not say whose a choice is: the translator finds it in the tree.
    A choice object two options share has no one key, so it is left untranslated (and
    ``test_every_description_and_choice_is_published_in_each_locale`` names it)."""
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none()))
    shared = app_commands.Choice(name="shared", value="s")
    own = app_commands.Choice(name="own", value="o")

    @app_commands.command(name="alpha", description="a")
    @app_commands.choices(x=[own, shared])
    async def alpha(interaction: discord.Interaction, x: str) -> None: ...

    @app_commands.command(name="beta", description="b")
    @app_commands.choices(y=[shared])
    async def beta(interaction: discord.Interaction, y: str) -> None: ...

    tree.add_command(alpha)
    tree.add_command(beta)
    translator = CommandTranslator(tree)

    def key(choice: app_commands.Choice[str]) -> str | None:
        return translator.key_of(app_commands.TranslationContext(
            app_commands.TranslationContextLocation.choice_name, choice))
    assert key(own) == "command.alpha.x.choice.o"
    assert key(shared) is None


# -- through the fake Discord --------------------------------------------------------------
@pytest.mark.parametrize("where", ["everywhere", "dev guild"])
async def test_the_commands_reach_discord_in_portuguese(fake_discord, discord_errors,
                                                        tmp_path: Path, where: str) -> None:
    """Synced globally, and to one server while developing (``CROUPIER_DEV_GUILD_ID``: the
    global commands copied to it, their choices found by the translator all the same)."""
    guild = fake_discord.add_guild("Cassino")
    bot = make_bot(tmp_path / "c.sqlite3")
    if where == "dev guild":
        bot.settings.dev_guild_id = guild.id
    async with fake_discord.running(bot):
        synced = {command.name: command.raw for command in fake_discord.commands(
            guild=guild if where == "dev guild" else None)}
        assert bool(fake_discord.global_commands) == (where == "everywhere")
    tournament = synced["tournament"]
    assert tournament["description_localizations"] == {"pt-BR": "Torneios neste servidor."}
    create = next(o for o in tournament["options"] if o["name"] == "create")
    assert create["description_localizations"]["pt-BR"] == "Cria um torneio (organização)."
    formats = next(o for o in create["options"] if o["name"] == "format")
    swiss = next(c for c in formats["choices"] if c["value"] == "swiss")
    assert (swiss["name"], swiss["name_localizations"]) == ("Swiss", {"pt-BR": "suíço"})


async def test_the_fake_refuses_localizations_discord_refuses(fake_discord) -> None:
    route = f"/applications/{fake_discord.application_id}/commands"

    def command(**fields: Any) -> dict[str, Any]:
        option = {"type": 3, "name": "game", "description": "d",
                  "choices": [{"name": "Flank", "value": "flank"}]}
        option.update(fields.pop("option", {}))
        return {"name": "deal", "description": "d", "options": [option], **fields}

    wrong = {
        "name_localizations.pt-BR": command(name_localizations={"pt-BR": "Jogar"}),
        "name_localizations.xx": command(name_localizations={"xx": "deal"}),
        "description_localizations.pt-BR": command(
            description_localizations={"pt-BR": "d" * 101}),
        "options.0.name_localizations.pt-BR": command(
            option={"name_localizations": {"pt-BR": "dois nomes"}}),
        "options.0.choices.0.name_localizations.pt-BR": command(
            option={"choices": [{"name": "Flank", "value": "flank",
                                 "name_localizations": {"pt-BR": ""}}]}),
    }
    async with aiohttp.ClientSession() as session:
        rest = Rest(fake_discord, session)
        for path, body in wrong.items():
            refused = await rest.call("PUT", route, [body])
            assert (refused.status, refused.code) == (400, 50035), path
            assert refused.errors_at(f"0.{path}"), (path, refused.body)
        twice = command()
        twice["options"].append({"type": 3, "name": "seat", "description": "d",
                                 "name_localizations": {"pt-BR": "game"}})
        refused = await rest.call("PUT", route, [twice])
        assert refused.errors_at("0.options.1.name_localizations.pt-BR"), refused.body
        clash = [command(), {"name": "play", "description": "d",
                             "name_localizations": {"pt-BR": "deal"}}]
        assert (await rest.call("PUT", route, clash)).status == 400
        good = command(name_localizations={"pt-BR": "dar"},
                       description_localizations={"pt-BR": "Distribui."},
                       option={"name_localizations": {"pt-BR": "jogo"},
                               "choices": [{"name": "Flank", "value": "flank",
                                            "name_localizations": {"pt-BR": "Flanco"}}]})
        assert (await rest.call("PUT", route, [good])).status == 200


async def test_config_language_sets_the_servers_language(fake_discord, discord_errors,
                                                         tmp_path: Path) -> None:
    guild = fake_discord.add_guild("Cassino")
    guild.preferred_locale = "pt-BR"
    channel = guild.add_text_channel("mesa")
    boss = guild.add_user("Chefe", roles=(guild.add_role("Gerência", MANAGE_GUILD),))
    ada = guild.add_user("Ada")
    bot = make_bot(tmp_path / "l.sqlite3")
    async with fake_discord.running(bot):
        shown = await fake_discord.slash(boss, channel, "config language", locale="pt-BR")
        assert shown.ephemeral and shown.content == (
            "Os canais deste servidor veem o Croupier em Português (Brasil). "
            "Use `/config language` para mudar.")
        chosen = await fake_discord.slash(boss, channel, "config language", language="en")
        assert chosen.content == ("This server's language is now English: its channels see "
                                  "Croupier in it.")
        assert (await bot.store.settings.get(guild.id)).language == "en"
        back = await fake_discord.slash(boss, channel, "config language",
                                        language="preferred", locale="pt-BR")
        assert "Português (Brasil)" in back.content and back.content.startswith("Este servidor")
        assert (await bot.store.settings.get(guild.id)).language is None
        with pytest.raises(CommandNotAvailable):  # Discord offers /config to managers alone
            await fake_discord.slash(ada, channel, "config language", language="en")
        assert (await bot.store.settings.get(guild.id)).language is None
