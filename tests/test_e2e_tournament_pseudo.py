"""End to end in the pseudo-locale (issue 33): a small tournament through the real
discord.py client and the fake Discord, every client and the server speaking ``qps``.
The organiser creates it, opens it and adds four computer players (their tables play
unseen: no game's own table is shown), starts it and reads it; the tournament plays
to its end by itself. Everything the fake Discord was sent — the tournament message
and its buttons, every round's notice with its pictures and standings, the final
standings and bracket, the organiser's answers and a refusal — came from a catalog. And
a Portuguese server sees its tournament in Portuguese, each clicker answered in their
own language."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.tournaments.model import Member
from tests.e2e import make_bot
from tests.fakediscord.model.constants import MANAGE_GUILD
from tests.pseudo import assert_all_pseudo, pseudo_discord, server_speaks_pseudo

LONG = 60.0
"""Seconds to wait for a command that opens a round."""


async def test_a_tournament_of_computer_players_in_the_pseudo_locale(fake_discord: Any,
                                                                     tmp_path: Any) -> None:
    with pseudo_discord(fake_discord):
        guild = fake_discord.add_guild("Ĉáśíñó")
        channel = guild.add_text_channel("tournaments")
        boss = guild.add_user("Ƀó", roles=(guild.add_role("Managers", MANAGE_GUILD),))
        player = guild.add_user("Ƥĺ")
        organiser = Member(boss.id, "Ƀó", manages_server=True, guild_id=guild.id)
        bot = make_bot(tmp_path / "pseudo.sqlite3")
        async with fake_discord.running(bot):
            await server_speaks_pseudo(bot, guild.id)
            made = await fake_discord.slash(boss, channel, "tournament create", game="flank",
                                            format="single", seeding="random",
                                            options="board=4")
            assert not made.ephemeral, made.content
            tid = int((await bot.tournaments.latest(organiser, channel.id)).id)
            for _ in range(200):  # the command ends once it remembered its message
                if (await bot.tournaments.get(organiser, tid)).message_id is not None:
                    break
                await asyncio.sleep(0.025)
            await fake_discord.slash(boss, channel, "tournament open")
            await fake_discord.slash(boss, channel, "tournament add", computers=4)
            for window in ("open", "close"):  # said in the channel
                said = await fake_discord.slash(boss, channel, "tournament checkin",
                                                window=window)
                assert not said.ephemeral, said.content
            refused = await fake_discord.slash(player, channel, "tournament start")
            assert refused.ephemeral  # not an organiser: refused, in their language
            started = await fake_discord.slash(boss, channel, "tournament start")
            await started.final(timeout=LONG)
            for _ in range(400):  # computer players play every game, unseen
                await bot.tournaments.settle()
                if (await bot.tournaments.get(organiser, tid)).status == "finished":
                    break
                await asyncio.sleep(0.05)
            assert (await bot.tournaments.get(organiser, tid)).status == "finished"
            for command in ("tournament standings", "tournament pairings",
                            "tournament matches"):
                shown = await fake_discord.slash(player, channel, command)
                await shown.final(timeout=LONG)
            late = await fake_discord.slash(boss, channel, "tournament report", table=1,
                                            result="draw")
            assert (await late.final(timeout=LONG)).ephemeral  # over: refused
            await fake_discord.wait_until_idle(quiet=0.3, timeout=LONG)
            posted = [m for m in channel.messages if not m.ephemeral]
            assert any(a.filename == "bracket.png" for m in posted for a in m.attachments)
        assert_all_pseudo(fake_discord, allowed=["Flank", "board=4"])


async def test_a_portuguese_server_sees_its_tournament_in_portuguese(fake_discord: Any,
                                                                    tmp_path: Any) -> None:
    """The channel reads the server's language; each clicker's own answer, theirs."""
    guild = fake_discord.add_guild("Cassino")
    guild.preferred_locale = "pt-BR"
    channel = guild.add_text_channel("torneios")
    boss = guild.add_user("Bia", roles=(guild.add_role("Managers", MANAGE_GUILD),))
    ana, ada = guild.add_user("Ana"), guild.add_user("Ada")
    organiser = Member(boss.id, "Bia", manages_server=True, guild_id=guild.id)
    bot = make_bot(tmp_path / "pt.sqlite3")
    async with fake_discord.running(bot):
        # An English-speaking organiser: the channel still reads the server's language.
        made = await fake_discord.slash(boss, channel, "tournament create", game="flank",
                                        format="single", locale="en-US")
        assert not made.ephemeral and made.content.startswith("🏆 **Torneio de Flank**")
        assert "Flank, eliminação simples" in made.content
        tid = int((await bot.tournaments.latest(organiser, channel.id)).id)
        for _ in range(200):  # the command ends once it remembered its message
            if (await bot.tournaments.get(organiser, tid)).message_id is not None:
                break
            await asyncio.sleep(0.025)
        opened = await fake_discord.slash(boss, channel, "tournament open", locale="pt-BR")
        assert opened.content == "As inscrições estão abertas."
        await bot.tournaments.settle()
        message = next(m for m in channel.messages if m.content.startswith("🏆"))
        joined = await fake_discord.click(ana, message, label="Entrar", locale="pt-BR")
        assert (await joined.followups(1))[0].content == "Inscrição feita: você está no torneio."
        joined = await fake_discord.click(ada, message, label="Entrar", locale="en-US")
        assert (await joined.followups(1))[0].content == "You are in."
        assert "Inscritos (2): Ana, Ada" in message.content  # the channel's language
        assert {b.label for b in message.buttons} == {"Entrar", "Sair"}
        refused = await fake_discord.slash(ana, channel, "tournament start", locale="pt-BR")
        refused = await refused.final()
        assert refused.ephemeral and "Só organizadores de torneio" in refused.content
