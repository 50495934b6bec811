"""End to end: hostile and unlucky input on the tournament side, through the real
discord.py client and the fake Discord — options the game's own declaration refuses,
bots named as entrants, the entrant cap on every way in, a bot stopped while it opens a
round, and a server that does not let the bot create threads.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.tournaments.model import MOST_PLAYERS, Member
from tests.e2e import make_bot
from tests.fakediscord.model.constants import (
    CREATE_PUBLIC_THREADS,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    MANAGE_GUILD,
)

LONG = 60.0
"""Seconds to wait for a command that opens a round of many games."""


class World:
    """A server with an organiser and players, and a tournament channel."""

    def __init__(self, fake: Any, players: int, **guild: Any) -> None:
        self.fake = fake
        self.guild = fake.add_guild("Casino", **guild)
        self.channel = self.guild.add_text_channel("tournaments")
        self.boss = self.guild.add_user("Boss", roles=(self.guild.add_role("Managers",
                                                                           MANAGE_GUILD),))
        self.players = [self.guild.add_user(f"Pl{n:02}") for n in range(1, players + 1)]

    @property
    def organiser(self) -> Member:
        """The organiser as the tournament service sees them."""
        return Member(self.boss.id, "Boss", manages_server=True, guild_id=self.guild.id)

    async def create(self, bot: Any, **options: Any) -> int:
        """The organiser creates a tournament here and opens it; its id."""
        made = await self.fake.slash(self.boss, self.channel, "tournament create", **options)
        assert not made.ephemeral, made.content
        tid = int((await bot.tournaments.latest(self.organiser, self.channel.id)).id)
        for _ in range(200):  # the command ends once it remembered its message
            if (await bot.tournaments.get(self.organiser, tid)).message_id is not None:
                break
            await asyncio.sleep(0.025)
        opened = await self.fake.slash(self.boss, self.channel, "tournament open")
        assert "open" in opened.content, opened.content
        return tid


async def test_tournament_options_are_read_by_the_games_own_options(fake_discord, tmp_path):
    world = World(fake_discord, 0)
    bot = make_bot(tmp_path / "options.sqlite3")
    # (game, options, what the game's own refusal names: the option and the input)
    refusals = [
        ("flank", "board=²", ("board is unbounded, 4×4", "'²'")),
        ("flank", "stoppers=²", ("stoppers", "'²'")),
        ("flank", "cards=４", ("cards", "'４'")),
        ("flank", "stoppers=-1", ("stoppers", "'-1'")),
        ("eclipse", "hand_cap=²", ("hand_cap", "'²'")),
        ("eclipse", "hand_cap=" + "9" * 390, ("hand_cap", "'999")),
        ("eclipse", "hand_cap=10001", ("hand_cap", "10000", "10001")),
        ("flank", "speed=3", ("has no option 'speed'",)),
    ]
    async with fake_discord.running(bot):
        for game, options, words in refusals:
            refused = await fake_discord.slash(world.boss, world.channel, "tournament create",
                                               game=game, options=options)
            assert refused.ephemeral, (options, refused.content)
            assert all(w in refused.content for w in words), (options, refused.content)
            assert len(refused.content) < 200 and "went wrong" not in refused.content
        assert await bot.tournaments.latest(world.organiser) is None
        # What the game's options read as text is accepted as text: the game decides.
        made = await fake_discord.slash(world.boss, world.channel, "tournament create",
                                        game="flank", options="BOARD=4")
        assert not made.ephemeral, made.content
        tournament = await bot.tournaments.latest(world.organiser)
        assert tournament.options["board"] == 4


async def test_a_bot_is_refused_as_an_entrant(fake_discord, tmp_path):
    world = World(fake_discord, 1)
    dice = world.guild.add_user("Dice")
    dice.bot = True  # another server's bot account
    bot = make_bot(tmp_path / "bots.sqlite3")
    async with fake_discord.running(bot):
        tid = await world.create(bot, game="flank", options="board=4")
        for robot in (fake_discord.bot_user, dice):
            refused = await fake_discord.slash(world.boss, world.channel, "tournament add",
                                               user=robot)
            assert refused.ephemeral, refused.content
            assert "bot" in refused.content and "people" in refused.content, refused.content
        assert await bot.store.tournaments.entrants(tid) == []
        # A person is still added as before.
        added = await fake_discord.slash(world.boss, world.channel, "tournament add",
                                         user=world.players[0])
        assert added.content == "Pl01 is in."
        assert [e.user_id for e in await bot.store.tournaments.entrants(tid)] == [
            world.players[0].id]


async def test_one_cap_on_entrants_for_every_way_in(fake_discord, tmp_path):
    world = World(fake_discord, 8)
    first, second, *late = world.players
    bot = make_bot(tmp_path / "cap.sqlite3")
    limit = f"A tournament takes at most {MOST_PLAYERS} players"
    async with fake_discord.running(bot):
        tid = await world.create(bot, game="flank", options="board=4")
        await bot.tournaments.add_computers(world.organiser, tid, MOST_PLAYERS - 2)
        added = await fake_discord.slash(world.boss, world.channel, "tournament add",
                                         user=first)
        assert added.content == "Pl01 is in."
        joined = await fake_discord.slash(second, world.channel, "tournament join")
        assert joined.content == "You are in."
        # Full: joining, adding a person and adding a computer are all refused alike.
        for refused in (
                await fake_discord.slash(late[0], world.channel, "tournament join"),
                await fake_discord.slash(world.boss, world.channel, "tournament add",
                                         user=late[0]),
                await fake_discord.slash(world.boss, world.channel, "tournament add",
                                         computers=1)):
            assert refused.ephemeral and limit in refused.content, refused.content
        entrants = await bot.store.tournaments.entrants(tid)
        assert len(entrants) == MOST_PLAYERS
        # Joins at the same moment cannot race past the cap: one place, one of them.
        removed = await fake_discord.slash(world.boss, world.channel, "tournament remove",
                                           user=first)
        assert (await removed.final()).content == "Pl01 is out."
        people = [Member(p.id, p.name, guild_id=world.guild.id) for p in late]
        outcomes = await asyncio.gather(*(bot.tournaments.join(p, tid) for p in people),
                                        return_exceptions=True)
        assert sum(not isinstance(o, Exception) for o in outcomes) == 1
        assert all(limit in str(o) for o in outcomes if isinstance(o, Exception))
        assert len(await bot.store.tournaments.entrants(tid)) == MOST_PLAYERS


async def test_stopping_the_bot_while_it_opens_a_round_winds_down_quietly(
        fake_discord, tmp_path):
    world = World(fake_discord, 40)
    path = tmp_path / "stop.sqlite3"
    bot = make_bot(path)
    await fake_discord.start_bot(bot)
    tid = await world.create(bot, game="flank", seeding="random", options="board=4")
    for player in world.players:
        await bot.tournaments.add(world.organiser, tid, player.id, player.name)
    started = await fake_discord.slash(world.boss, world.channel, "tournament start")
    await fake_discord.wait_for(lambda: len(world.guild.threads) >= 3, timeout=LONG)
    await fake_discord.stop_bot(bot)  # a clean stop (bot.close()) in the middle of it
    opened = len(world.guild.threads)
    assert opened < 20, "the round was opened whole before the stop: nothing was tested"
    assert not [m for m in world.channel.messages if "could not be started" in m.content]
    assert started.acked  # deferred; its answer is cut short with the round

    # A restart carries the round on: every table gets its game, each in one thread.
    again = make_bot(path)
    async with fake_discord.running(again):
        await again.tournaments.settle()
        pairings = await again.store.tournaments.pairings(tid, 1)
        assert len(pairings) == 20 and all(p.in_play for p in pairings)
        assert len({p.thread_id for p in pairings}) == 20
        assert {t.id for t in world.guild.threads} == {p.thread_id for p in pairings}
        assert not [m for m in world.channel.messages if "could not be started" in m.content]


async def test_without_create_public_threads_the_tables_play_in_the_channel_in_turn(
        fake_discord, tmp_path):
    no_threads = ~CREATE_PUBLIC_THREADS
    world = World(fake_discord, 4,
                  everyone_permissions=DEFAULT_EVERYONE_PERMISSIONS & no_threads,
                  bot_permissions=DEFAULT_BOT_PERMISSIONS & no_threads)
    users = {p.id: p for p in world.players}
    bot = make_bot(tmp_path / "nothreads.sqlite3")
    async with fake_discord.running(bot):
        tid = await world.create(bot, game="flank", seeding="random", options="board=4")
        for player in world.players:
            joined = await fake_discord.slash(player, world.channel, "tournament join")
            assert joined.content == "You are in."
        started = await fake_discord.slash(world.boss, world.channel, "tournament start")
        assert "round 1" in (await started.final(timeout=LONG)).content
        await bot.tournaments.settle()

        # The organiser is told why, pinged; the first table plays here, the other waits.
        told = [m for m in world.channel.messages if "Create Public Threads" in m.content]
        assert len(told) == 1 and world.boss.id in told[0].mentions, told
        assert "one at a time" in told[0].content
        assert not world.guild.threads
        games = 0
        while (tournament := await bot.store.tournaments.get(tid)).status == "running":
            pairings = await bot.store.tournaments.pairings(tid, tournament.round)
            playing = [p for p in pairings if p.in_play]
            assert len(playing) == 1, pairings  # one table at a time, in the channel
            table = playing[0]
            assert table.thread_id is None  # no place of its own: the channel's game
            assert bot.service.get(table.match_id).row.channel_id == world.channel.id
            here = [m for m in world.channel.messages
                    if f"round {tournament.round}, table {table.table}, is here" in m.content]
            assert len(here) == 1 and set(here[0].mentions) == set(table.seats), here
            forfeited = await fake_discord.slash(users[max(table.seats)], world.channel,
                                                 "forfeit")
            assert forfeited.acked
            await bot.tournaments.settle()
            games += 1
        assert tournament.status == "finished" and tournament.round == 3 and games == 6
        assert "is over. The winner" in "\n".join(m.content for m in world.channel.messages)
        assert not [m for m in world.channel.messages if "could not be started" in m.content]
        # Discord was asked for a thread once a round, not once a table.
        assert [(r.status, r.code) for r in fake_discord.rejections] == [(403, 50013)] * 3
        assert len([m for m in world.channel.messages
                    if "Create Public Threads" in m.content]) == 3


async def test_tables_in_the_channel_wait_for_a_game_already_there_and_for_each_other(
        fake_discord, tmp_path):
    no_threads = ~CREATE_PUBLIC_THREADS
    world = World(fake_discord, 4,
                  everyone_permissions=DEFAULT_EVERYONE_PERMISSIONS & no_threads,
                  bot_permissions=DEFAULT_BOT_PERMISSIONS & no_threads)
    bot = make_bot(tmp_path / "turns.sqlite3")
    async with fake_discord.running(bot):
        tid = await world.create(bot, game="flank", seeding="random", options="board=4")
        for player in world.players:
            await bot.tournaments.add(world.organiser, tid, player.id, player.name)
        # Someone's own game holds the channel: it is never closed for the tournament.
        mine = await fake_discord.slash(world.players[0], world.channel, "play flank")
        assert not mine.ephemeral, mine.content
        started = await fake_discord.slash(world.boss, world.channel, "tournament start")
        assert "round 1" in (await started.final(timeout=LONG)).content
        await bot.tournaments.settle()
        pairings = await bot.store.tournaments.pairings(tid, 1)
        assert not any(p.in_play for p in pairings)
        assert bot.service.match_in(world.channel.id).row.host_id == world.players[0].id
        # It ends: the first table takes the channel.
        await fake_discord.slash(world.players[0], world.channel, "cancel")
        await bot.tournaments.settle()
        first, second = await bot.store.tournaments.pairings(tid, 1)
        assert first.in_play and not second.in_play
        # Its game is cancelled: it waits for the organiser, and the next table plays.
        await fake_discord.slash(world.boss, world.channel, "cancel")
        await bot.tournaments.settle()
        first, second = await bot.store.tournaments.pairings(tid, 1)
        assert first.waiting and second.in_play
        # Replaying it while the channel is taken says when it will be played.
        refused = await (await fake_discord.slash(world.boss, world.channel,
                                                  "tournament replay", table=1)).final()
        assert refused.ephemeral and "starts when that one ends" in refused.content
        notices = "\n".join(m.content for m in world.channel.messages)
        assert "could not be started" not in notices
        assert "table 1, is here" in notices and "table 2, is here" in notices
