"""End to end, as a stale or forged client: slash commands and custom ids carrying
what Discord's own client never would (an unknown subcommand, a page of -1, ids past
SQLite's largest integer, an option of the wrong type). Each is refused privately,
in words that name the bound; nothing runs and no ERROR is logged (the
``discord_errors`` fixture fails the test otherwise)."""

from __future__ import annotations

import json

import pytest
from discord import AppCommandOptionType, app_commands

from bot.discord_parts.bounds import LARGEST_ID
from tests.e2e import make_bot
from tests.fakediscord.model.constants import MANAGE_GUILD

TOO_BIG = str(LARGEST_ID + 1)
NINETEEN_NINES = "9" * 19


def sub(name: str, *options: dict) -> list[dict]:
    """A subcommand's raw option payload."""
    return [{"name": name, "type": 1, "options": list(options)}]


def integer(name: str, value) -> dict:
    return {"name": name, "type": 4, "value": value}


async def test_forged_slash_commands_are_refused_naming_the_bound(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    boss = guild.add_user("Boss", roles=(guild.add_role("M", MANAGE_GUILD),))
    bot = make_bot(tmp_path / "bounds.sqlite3")
    async with fake_discord.running(bot):
        await fake_discord.slash(boss, channel, "tournament create", game="flank",
                                 seeding="random", options="board=4")
        forged = {
            "an unknown subcommand": ("play", sub("chess"), "older list"),
            "an unknown option": ("play", sub("flank", integer("speed", 3)), "older list"),
            "an option of another type": ("play", sub("flank", {"name": "board", "type": 4,
                                                                 "value": 8}), "older list"),
            "page -1": ("tournament", sub("matches", integer("page", -1)),
                        "page must be from 1 to 1000, not -1"),
            "page 0": ("tournament", sub("matches", integer("page", 0)),
                       "page must be from 1 to 1000, not 0"),
            "a tournament past the largest id": (
                "tournament", sub("standings", integer("tournament", int(TOO_BIG))),
                "tournament must be from 1 to"),
            "a text for a number": ("tournament", sub("matches", integer("page", "2")),
                                    "page must be a whole number"),
            "a choice never offered": ("tournament", sub("create", {
                "name": "game", "type": 3, "value": "flank"}, integer("best_of", 5)),
                "best_of must be one of its choices, not 5"),
            "a required option left out": ("tournament", sub("replay"), "table is needed"),
            "a name too long": ("tournament", sub("create", {
                "name": "game", "type": 3, "value": "x" * 41}), "game must be 1 to 40"),
            "a user past the largest id": ("tournament", sub("add", {
                "name": "user", "type": 6, "value": TOO_BIG}), "user is not something"),
        }
        public = [m.id for m in channel.messages if not m.ephemeral]
        for what, (name, options, words) in forged.items():
            answer = await fake_discord.forged_slash(boss, channel, name, options)
            assert answer.ephemeral and answer.content.startswith("⚠️"), what
            assert words in answer.content, (what, answer.content)
        assert [m.id for m in channel.messages if not m.ephemeral] == public


async def test_custom_ids_past_the_largest_id_are_refused(fake_discord, tmp_path):
    """A component whose custom id carries a number past SQLite's largest integer is
    not ours: refused as unknown, never read into a query."""
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    boss = guild.add_user("Boss", roles=(guild.add_role("M", MANAGE_GUILD),))
    ada = guild.add_user("Ada")
    bot = make_bot(tmp_path / "ids.sqlite3")
    async with fake_discord.running(bot):
        await fake_discord.slash(boss, channel, "tournament create", game="flank",
                                 seeding="random", options="board=4")
        await fake_discord.slash(boss, channel, "tournament open")
        # The message gets its Join button by an edit after the answer: wait for it.
        await fake_discord.wait_for(lambda: any(
            ":join" in json.dumps(m.components) for m in channel.messages))
        message = next(m for m in channel.messages if ":join" in json.dumps(m.components))
        real = json.dumps(message.components)
        tournament = real.split("cr:tn:")[1].split(":")[0]
        for forged in (f"cr:tn:{NINETEEN_NINES}:join", f"cr:tn:{TOO_BIG}:join",
                       f"cr:tr:{NINETEEN_NINES}:accept", f"cr:lobby:join:{TOO_BIG}",
                       f"cr:hand:{TOO_BIG}"):
            # As if the message carried it: Discord hands the bot the message as stored.
            message.components = json.loads(real.replace(f"cr:tn:{tournament}:join", forged))
            answer = await fake_discord.click_custom(ada, message, forged)
            assert answer.ephemeral and "not one I can use" in answer.content, forged
        message.components = json.loads(real)


async def test_autocomplete_of_an_unknown_command_suggests_nothing(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    ada = guild.add_user("Ada")
    bot = make_bot(tmp_path / "auto.sqlite3")
    async with fake_discord.running(bot):
        suggestions = await fake_discord.autocomplete(ada, channel, "tournament create",
                                                      option="game", value="fl")
        assert suggestions
        bot.tree.remove_command("tournament")
        assert await fake_discord.autocomplete(ada, channel, "tournament create",
                                               option="game", value="fl") == []


def every_parameter(bot) -> list[tuple[str, app_commands.Parameter]]:
    found = []
    for command in bot.tree.walk_commands():
        if isinstance(command, app_commands.Command):
            found += [(command.qualified_name, p) for p in command.parameters]
    return found


@pytest.mark.parametrize("kind", [AppCommandOptionType.integer, AppCommandOptionType.string])
async def test_every_number_and_text_option_is_bounded(fake_discord, tmp_path, kind):
    """Every page, count and number any command takes declares both bounds, and every
    text a longest length: what :mod:`bot.discord_parts.bounds` holds a forged value to."""
    guild = fake_discord.add_guild("Casino")
    guild.add_text_channel("t")
    bot = make_bot(tmp_path / "declared.sqlite3")
    async with fake_discord.running(bot):
        parameters = [(name, p) for name, p in every_parameter(bot) if p.type is kind]
        assert len(parameters) > 10
        unbounded = [f"/{name} {p.display_name}" for name, p in parameters
                     if not p.choices and (p.max_value is None or (
                         kind is AppCommandOptionType.integer and p.min_value is None))]
        assert unbounded == []


async def test_a_page_past_the_last_is_refused_not_shown(fake_discord, tmp_path):
    """Paging by command: a page past the last is refused privately, naming how many
    there are, rather than showing another page under the number asked for."""
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    ada = guild.add_user("Ada")
    bot = make_bot(tmp_path / "pages.sqlite3")
    async with fake_discord.running(bot):
        shown = await fake_discord.slash(ada, channel, "leaderboard", game="flank")
        assert not shown.ephemeral and "Page 1 of 1" in shown.text
        past = await fake_discord.slash(ada, channel, "leaderboard", game="flank", page=2)
        assert past.ephemeral and past.content == (
            "⚠️ There is only 1 page of the Flank leaderboard; page 2 does not exist.")
