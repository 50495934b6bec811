"""End to end: where a tournament's tables play, within Discord's caps — through the real
discord.py client and the fake Discord, which refuses as Discord does.

- A channel per match (``use_threads:false``): a category holds 50 channels and a
  server 500, so finished rounds give their channels back, a table of computer players
  only gets none (nobody watches it), and an event that cannot fit is refused at
  ``/tournament start`` in words.
- A thread per match: a server holds 1,000 active threads, so a finished match's
  thread is archived once its result is posted; an event that cannot fit is refused
  at the start, and a round that meets the cap anyway plays in the tournament's
  channel in turn, the organiser told why in words.
- Discord archives a thread after its ``auto_archive_duration`` without a message (the
  bot asks for the longest, a week) while a turn may last seven days: the table is
  edited there all the same.
- Whatever Discord answers, nobody is shown its raw HTTP text.
"""

from __future__ import annotations

from typing import Any

from bot.discord_side.client import CroupierBot
from bot.tournaments.model import Member
from tests.e2e import make_bot
from tests.fakediscord import Fault
from tests.fakediscord.model import FakeChannel, FakeGuild
from tests.fakediscord.model.constants import (
    DEFAULT_BOT_PERMISSIONS,
    MANAGE_CHANNELS,
    MANAGE_GUILD,
)

LONG = 30.0
DAY = 24 * 3600.0
RAW = ("Bad Request", "error code", "Service Unavailable", "Forbidden", "HTTP")
"""What a raw HTTP error's text looks like: never shown to anyone."""


class Server:
    """A server with an organiser, players and a tournament channel (in a category
    holding ``fillers`` other channels, when asked)."""

    def __init__(self, fake: Any, players: int, *, category_fillers: int | None = None,
                 threads: int = 0, manage_channels: bool = False) -> None:
        self.fake = fake
        permissions = DEFAULT_BOT_PERMISSIONS | (MANAGE_CHANNELS if manage_channels else 0)
        self.guild: FakeGuild = fake.add_guild("Casino", bot_permissions=permissions)
        self.category = None
        if category_fillers is not None:
            self.category = self.guild.add_category("Events")
            for n in range(category_fillers):
                self.guild.add_text_channel(f"filler-{n}", category=self.category)
        self.channel = self.guild.add_text_channel("tournaments", category=self.category)
        if threads:
            chatter = self.guild.add_text_channel("chatter")
            for n in range(threads):
                chatter.add_thread(f"chat {n}")
        self.boss = self.guild.add_user("Boss", roles=(self.guild.add_role("Managers",
                                                                           MANAGE_GUILD),))
        self.players = [self.guild.add_user(f"Pl{n}") for n in range(1, players + 1)]
        self.users = {u.id: u for u in (self.boss, *self.players)}

    @property
    def organiser(self) -> Member:
        return Member(self.boss.id, "Boss", manages_server=True, guild_id=self.guild.id)

    async def open(self, bot: CroupierBot, *, computers: int = 0, **options: Any) -> int:
        """The organiser creates and opens a tournament of Flank (a 4-cell board), and
        enters every player (and ``computers`` computer players)."""
        made = await self.fake.slash(self.boss, self.channel, "tournament create",
                                     game="flank", options="board=4", seeding="random",
                                     **options)
        assert not made.ephemeral, made.content
        tid = (await bot.tournaments.latest(self.organiser, self.channel.id)).id
        await bot.tournaments.open(self.organiser, tid)
        for player in self.players:
            await bot.tournaments.add(self.organiser, tid, player.id, player.name)
        if computers:
            await bot.tournaments.add_computers(self.organiser, tid, computers)
        return tid

    async def start(self, bot: CroupierBot) -> str:
        """``/tournament start``; what the organiser is told."""
        started = await self.fake.slash(self.boss, self.channel, "tournament start")
        said = (await started.final(timeout=LONG)).content
        await bot.tournaments.settle()
        return said

    async def forfeit_round(self, bot: CroupierBot, tid: int,
                            tables: set[int] | None = None) -> None:
        """Every game of the current round (of ``tables``, if given) ends: in each, the
        person with the highest id types /forfeit where it is played (a game of
        computers ends by itself)."""
        row = await bot.store.tournaments.get(tid)
        for pairing in await bot.store.tournaments.pairings(tid, row.round):
            if not pairing.in_play or (tables is not None and pairing.table not in tables):
                continue
            people = [u for u in pairing.seats if u > 0]
            place = self.fake.channels[bot.service.get(pairing.match_id).row.channel_id]
            done = await self.fake.slash(self.users[max(people)], place, "forfeit")
            assert done.acked
            await bot.tournaments.settle()

    def said_in_public(self) -> str:
        """Everything the bot posted in the server's channels and threads."""
        places = [*self.guild.channels, *self.guild.threads]
        return "\n".join(m.text for place in places for m in place.messages)


def no_raw_errors(server: Server) -> None:
    posted = server.said_in_public()
    for raw in RAW:
        assert raw not in posted, posted


async def test_finished_rounds_give_their_channels_back(fake_discord, tmp_path):
    """A category with room for three more channels holds a four-player event of two
    rounds, two tables a round: round 1's channels are deleted once round 1 is over,
    so round 2 fits; at the end every match channel is gone, and the history still
    lists every table with its result (no link to a deleted channel)."""
    server = Server(fake_discord, 4, category_fillers=46, manage_channels=True)
    assert len(server.guild.in_category(server.category)) == 47
    bot = make_bot(tmp_path / "channels.sqlite3")
    async with fake_discord.running(bot):
        tid = await server.open(bot, use_threads=False, rounds=2)
        assert "round 1" in await server.start(bot)
        assert len(server.guild.in_category(server.category)) == 49
        round_one = {p.thread_id for p in await bot.store.tournaments.pairings(tid, 1)}
        await server.forfeit_round(bot, tid)
        row = await bot.store.tournaments.get(tid)
        assert row.round == 2
        await fake_discord.wait_for(lambda: not round_one & set(fake_discord.channels))
        assert len(server.guild.in_category(server.category)) == 49
        await server.forfeit_round(bot, tid)
        assert (await bot.store.tournaments.get(tid)).status == "finished"
        await fake_discord.wait_for(
            lambda: len(server.guild.in_category(server.category)) == 47)
        assert fake_discord.rejections == []
        pairings = await bot.store.tournaments.pairings(tid)
        assert len(pairings) == 4 and all(p.done and p.place_retired for p in pairings)
        history = await (await fake_discord.slash(server.boss, server.channel,
                                                  "tournament matches")).final()
        assert history.content.count(" wins ") == 4, history.content
        assert "<#" not in history.content
    no_raw_errors(server)


async def test_an_event_the_category_cannot_hold_is_refused_at_the_start(fake_discord,
                                                                         tmp_path):
    """A category with room for one more channel cannot hold two tables at once: the
    start is refused, saying so and what to do, and nothing starts."""
    server = Server(fake_discord, 4, category_fillers=48, manage_channels=True)
    bot = make_bot(tmp_path / "full.sqlite3")
    async with fake_discord.running(bot):
        tid = await server.open(bot, use_threads=False)
        said = await server.start(bot)
        assert "2 channels" in said and "room for 1" in said and "Events" in said, said
        assert "50" in said
        row = await bot.store.tournaments.get(tid)
        assert row.status == "open" and row.round == 0
        assert len(server.guild.in_category(server.category)) == 49
        assert fake_discord.rejections == []
    no_raw_errors(server)


async def test_a_table_of_computers_only_gets_no_channel(fake_discord, tmp_path):
    """Two people and two computer players, round robin: every round has two tables,
    and the one where the computers meet is played where nobody watches — no channel is
    made for it; its result counts like any."""
    server = Server(fake_discord, 2, category_fillers=0, manage_channels=True)
    bot = make_bot(tmp_path / "computers.sqlite3")
    async with fake_discord.running(bot):
        tid = await server.open(bot, computers=2, use_threads=False, format="round_robin")
        before = set(server.guild.channels)
        await server.start(bot)
        made: set[FakeChannel] = set()
        for _ in range(3):
            made |= set(server.guild.channels) - before
            await server.forfeit_round(bot, tid)
        assert (await bot.store.tournaments.get(tid)).status == "finished"
        pairings = await bot.store.tournaments.pairings(tid)
        unseen = [p for p in pairings if all(u < 0 for u in p.seats)]
        seen = [p for p in pairings if any(u > 0 for u in p.seats)]
        assert len(unseen) == 1 and len(seen) == 5
        assert len(made) == 5  # one channel per table with a person in it
        assert unseen[0].done and unseen[0].thread_id not in fake_discord.channels
        games = {g.table: g for g in await bot.store.tournaments.games(tid)
                 if g.round == unseen[0].round}
        assert games[unseen[0].table].outcome == "counted"
        history = await (await fake_discord.slash(server.boss, server.channel,
                                                  "tournament matches")).final()
        assert "played unseen" in history.content, history.content
    no_raw_errors(server)


async def test_a_thread_discord_archived_is_unarchived_to_show_the_table(fake_discord,
                                                                         tmp_path):
    """The bot makes each match's thread with the longest archive duration (a week). A
    week and a day without a message and Discord archives it all the same; the
    organiser then reports the table's result, which closes the game: its table is
    edited in the thread (unarchived for it), and the thread is archived again once
    its match is over."""
    server = Server(fake_discord, 2)
    bot = make_bot(tmp_path / "archived.sqlite3")
    async with fake_discord.running(bot):
        tid = await server.open(bot, rounds=1)
        await server.start(bot)
        pairing = (await bot.store.tournaments.pairings(tid, 1))[0]
        thread = fake_discord.channels[pairing.thread_id]
        assert thread.is_thread and thread.auto_archive_duration == 10080
        table = next(m for m in thread.messages if m.embeds)
        versions = len(table.history)
        fake_discord.advance(8 * DAY)
        assert thread.archived
        reported = await fake_discord.slash(server.boss, server.channel, "tournament report",
                                            table=1, result="win", player=server.players[0])
        assert "result recorded" in (await reported.final(timeout=LONG)).content
        await bot.tournaments.settle()
        assert (await bot.store.tournaments.get(tid)).status == "finished"
        assert len(table.history) > versions  # the table was edited: the game closed
        assert "cancelled" in table.text
        await fake_discord.wait_for(lambda: thread.archived)
        assert not [r for r in fake_discord.rejections if r.code != 50083]
    no_raw_errors(server)


async def test_finished_threads_are_archived_so_a_busy_server_keeps_room(fake_discord,
                                                                         tmp_path):
    """A server with 997 active threads holds a four-player event of two rounds: each
    match's thread is archived once its result is posted, so round 2's threads fit."""
    server = Server(fake_discord, 4, threads=997)
    bot = make_bot(tmp_path / "busy.sqlite3")
    async with fake_discord.running(bot):
        tid = await server.open(bot, rounds=2)
        await server.start(bot)
        assert len(server.guild.active_threads) == 999
        for _ in range(2):
            await server.forfeit_round(bot, tid)
        assert (await bot.store.tournaments.get(tid)).status == "finished"
        await fake_discord.wait_for(lambda: len(server.guild.active_threads) == 997)
        places = [fake_discord.channels[p.thread_id]
                  for p in await bot.store.tournaments.pairings(tid)]
        assert len(places) == 4 and all(t.archived for t in places)
        # Archived, not deleted: each game's table and result are still there.
        assert all(any("is over" in m.text for m in t.messages) for t in places)
        assert fake_discord.rejections == []
    no_raw_errors(server)


async def test_an_event_the_server_s_threads_cannot_hold_is_refused_at_the_start(
        fake_discord, tmp_path):
    """999 active threads leave room for one: two tables at once do not fit, and the
    start is refused in words."""
    server = Server(fake_discord, 4, threads=999)
    bot = make_bot(tmp_path / "threads.sqlite3")
    async with fake_discord.running(bot):
        tid = await server.open(bot)
        said = await server.start(bot)
        assert "2 threads" in said and "room for 1" in said and "1,000" in said, said
        assert (await bot.store.tournaments.get(tid)).status == "open"
        assert fake_discord.rejections == []
    no_raw_errors(server)


async def test_a_round_that_meets_the_thread_cap_plays_in_the_channel(fake_discord,
                                                                      tmp_path):
    """The start fits, but others fill the server's threads meanwhile: round 2's second
    thread is refused (160006). That table plays in the tournament's channel instead,
    the organiser told why in words; the event ends as usual."""
    server = Server(fake_discord, 4, threads=996)
    bot = make_bot(tmp_path / "cap.sqlite3")
    async with fake_discord.running(bot):
        tid = await server.open(bot, rounds=2)
        await server.start(bot)
        await server.forfeit_round(bot, tid, {1})  # its thread archived: 997 active
        await fake_discord.wait_for(lambda: len(server.guild.active_threads) == 997)
        chatter = server.guild.channel("chatter")
        for n in range(3):
            chatter.add_thread(f"more chat {n}")  # the cap: 1,000
        await server.forfeit_round(bot, tid, {2})
        assert (await bot.store.tournaments.get(tid)).round == 2
        told = [m for m in server.channel.messages if "no room" in m.content]
        assert len(told) == 1 and server.boss.id in told[0].mentions, [
            m.content for m in server.channel.messages]
        assert "1,000" in told[0].content
        for _ in range(3):
            if (await bot.store.tournaments.get(tid)).status == "finished":
                break
            await server.forfeit_round(bot, tid)
        assert (await bot.store.tournaments.get(tid)).status == "finished"
        assert {(r.status, r.code) for r in fake_discord.rejections} == {(400, 160006)}
    no_raw_errors(server)


async def test_discord_failing_to_make_a_thread_is_told_in_words(fake_discord, tmp_path):
    """Discord answers 503 when the first table's thread is made: the organiser is told
    the game could not be started, in words, and replays it; nobody sees the HTTP
    error's text."""
    server = Server(fake_discord, 2)
    bot = make_bot(tmp_path / "failing.sqlite3")
    async with fake_discord.running(bot):
        tid = await server.open(bot, rounds=1)
        fake_discord.faults.add(Fault("status", status=503, method="POST",
                                      route=r"/channels/\d+/threads", times=1))
        await server.start(bot)
        failed = [m for m in server.channel.messages if "could not be started" in m.content]
        assert len(failed) == 1, [m.content for m in server.channel.messages]
        assert "Discord" in failed[0].content
        replayed = await fake_discord.slash(server.boss, server.channel, "tournament replay",
                                            table=1)
        await replayed.final(timeout=LONG)
        await bot.tournaments.settle()
        assert (await bot.store.tournaments.pairings(tid, 1))[0].in_play
    no_raw_errors(server)


async def test_a_cancelled_tournament_gives_its_channels_back(fake_discord, tmp_path):
    """Round 1 is over and waits for the organiser (auto-next off), its channels kept
    meanwhile; the organiser cancels: every match channel is deleted."""
    server = Server(fake_discord, 4, category_fillers=0, manage_channels=True)
    bot = make_bot(tmp_path / "cancel.sqlite3")
    async with fake_discord.running(bot):
        tid = await server.open(bot, use_threads=False, auto_next=False)
        await server.start(bot)
        await server.forfeit_round(bot, tid)
        row = await bot.store.tournaments.get(tid)
        assert (row.status, row.round) == ("running", 1)
        assert len(server.guild.in_category(server.category)) == 3
        cancelled = await fake_discord.slash(server.boss, server.channel,
                                             "tournament cancel")
        await cancelled.final(timeout=LONG)
        await bot.tournaments.settle()
        assert (await bot.store.tournaments.get(tid)).status == "cancelled"
        assert server.guild.in_category(server.category) == [server.channel]
        assert fake_discord.rejections == []
    no_raw_errors(server)
