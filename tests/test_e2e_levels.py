"""End to end, the computer's level through Discord: ``/play … computer_level:`` for the
seats ``vs_bot`` fills and those ``/start bots:true`` fills (``/start`` may name its
own), ``/tournament add computers:N level:``; the table names each computer with its
level, the level is kept over a restart and is the level the computer plays at; a
forged level is refused privately and changes nothing. The game is tests/levelgame.py's,
whose levels pick recognisably (easy 1, normal 2, hard 3)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from rules.core import GameInfo
from tests.e2e import make_bot, table_message
from tests.fakediscord.model.constants import MANAGE_GUILD
from tests.levelgame import NAME, levels_picked, registered


@pytest.fixture(autouse=True)
def picks() -> Iterator[GameInfo]:
    yield from registered()  # before the bot starts: /play has a subcommand for it


def sub(name: str, *options: dict) -> list[dict]:
    """A subcommand's raw option payload."""
    return [{"name": name, "type": 1, "options": list(options)}]


def level(value: object, name: str = "computer_level") -> dict:
    return {"name": name, "type": 3, "value": value}


async def picked(bot, match_id: int, seat: int) -> set[str]:
    choices = await bot.store.matches.choices(match_id)
    return levels_picked([(c.seat, c.choice) for c in choices], seat)


async def test_play_and_start_choose_the_computers_level_kept_over_a_restart(
        fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    vs, lobby, own = (guild.add_text_channel(n) for n in ("vs", "lobby", "own"))
    ada = guild.add_user("Ada")
    path = tmp_path / "levels.sqlite3"
    bot = make_bot(path)
    async with fake_discord.running(bot):
        started = await fake_discord.slash(ada, vs, f"play {NAME}", vs_bot=True, seats=3,
                                           computer_level="hard")
        assert started.content == "Picks started against the computer (hard)."
        await bot.service.settle()
        match = bot.service.match_in(vs.id)
        players = table_message(vs).embeds[0]["fields"][0]["value"].split("\n")
        assert players == ["Ada", "Croupier Bot (hard) 🤖", "Dealer Bot (hard) 🤖"]
        assert await picked(bot, match.id, 1) == await picked(bot, match.id, 2) == {"hard"}

        # /play's level is the lobby's: /start bots:true fills at it, or at its own.
        await fake_discord.slash(ada, lobby, f"play {NAME}", computer_level="easy")
        begun = await fake_discord.slash(ada, lobby, "start", bots=True)
        assert begun.content == "Picks begins: Ada, Croupier Bot (easy)."
        await fake_discord.slash(ada, own, f"play {NAME}")
        begun = await fake_discord.slash(ada, own, "start", bots=True, computer_level="hard")
        assert begun.content == "Picks begins: Ada, Croupier Bot (hard)."
        await bot.service.settle()
        assert await picked(bot, bot.service.match_in(lobby.id).id, 1) == {"easy"}
        assert await picked(bot, bot.service.match_in(own.id).id, 1) == {"hard"}

    again = make_bot(path)
    async with fake_discord.running(again):
        match = again.service.match_in(vs.id)
        assert [s.level for s in match.seats] == ["normal", "hard", "hard"]
        chosen = await fake_discord.slash(ada, vs, "choose", choice="1")
        assert chosen.ephemeral and "1" in chosen.content
        await again.service.settle()
        assert len(await again.store.matches.choices(match.id)) == 5
        assert await picked(again, match.id, 1) == await picked(again, match.id, 2) == {"hard"}


async def test_a_forged_level_is_refused_privately_and_changes_nothing(fake_discord,
                                                                       tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    ada = guild.add_user("Ada")
    bot = make_bot(tmp_path / "forged.sqlite3")
    async with fake_discord.running(bot):
        for forged in ("expert", "HARD", 3):
            answer = await fake_discord.forged_slash(ada, channel, "play", sub(
                NAME, {"name": "vs_bot", "type": 5, "value": True}, level(forged)))
            assert answer.ephemeral and answer.content.startswith("⚠️"), answer.content
            assert "computer_level" in answer.content
        assert bot.service.live_matches() == [] and await bot.store.matches.unfinished() == []
        await fake_discord.slash(ada, channel, f"play {NAME}")
        lobby = bot.service.match_in(channel.id)
        answer = await fake_discord.forged_slash(
            ada, channel, "start", [{"name": "bots", "type": 5, "value": True},
                                    level("expert")])
        assert answer.ephemeral and "computer_level must be one of its choices" in answer.content
        assert lobby.row.status == "lobby" and len(lobby.seats) == 1


async def test_tournament_computers_enter_at_a_level_and_play_their_games_at_it(
        fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("cups")
    boss = guild.add_user("Boss", roles=(guild.add_role("Managers", MANAGE_GUILD),))
    ada = guild.add_user("Ada")
    bot = make_bot(tmp_path / "cup.sqlite3")
    async with fake_discord.running(bot):
        made = await fake_discord.slash(boss, channel, "tournament create", game=NAME,
                                        seeding="random", options="rounds=1")
        assert not made.ephemeral, made.content
        await fake_discord.slash(boss, channel, "tournament open")
        (tournament,) = await bot.store.tournaments.live_in_guild(guild.id)
        forged = await fake_discord.forged_slash(boss, channel, "tournament", sub(
            "add", {"name": "computers", "type": 4, "value": 1}, level("expert", "level")))
        assert forged.ephemeral and "level must be one of its choices" in forged.content
        with_user = await fake_discord.slash(boss, channel, "tournament add", user=ada,
                                             level="hard")
        assert with_user.ephemeral and "A level is for computer players" in with_user.content
        assert await bot.store.tournaments.entrants(tournament.id) == []
        added = await fake_discord.slash(boss, channel, "tournament add", computers=1,
                                         level="hard")
        assert added.content == "1 computer player is in (hard)."
        await fake_discord.slash(boss, channel, "tournament add", user=ada)
        assert [(e.name, e.level) for e in await bot.store.tournaments.entrants(
            tournament.id)] == [("Computer 1", "hard"), ("Ada", "normal")]
        started = await fake_discord.slash(boss, channel, "tournament start")
        await started.final(timeout=30)
        await bot.tournaments.settle()
        await bot.service.settle()
        (pairing,) = await bot.store.tournaments.pairings(tournament.id, 1)
        match = bot.service.get(pairing.match_id)
        computer = next(s for s in match.seats if s.is_bot)
        assert computer.level == "hard"
        thread = fake_discord.channels[pairing.thread_id]
        if match.state.decision_for(computer.seat) is None:  # Ada sits last: she opens
            await fake_discord.slash(ada, thread, "choose", choice="1")
            await bot.service.settle()
        assert await picked(bot, match.id, computer.seat) == {"hard"}
        assert "Computer 1 (hard) 🤖" in json.dumps(table_message(thread).embeds,
                                                   ensure_ascii=False)
