"""End to end: the /tournament commands' Discord side through the real discord.py client
and the fake Discord — the tournament message's words, every page of long pairings and
standings, /tournament matches and replay, which tournament a command without a number
means, a channel per match instead of a thread, and computer entrants (named, never
pinged).
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.discord_side.client import CroupierBot
from bot.discord_side.tournament_posts import channel_name
from bot.tournaments.model import Member
from rules.registry import get_game
from tests.e2e import make_bot
from tests.fakediscord.model import FakeChannel, FakeMessage
from tests.fakediscord.model.constants import (
    DEFAULT_BOT_PERMISSIONS,
    GUILD_CATEGORY,
    MANAGE_CHANNELS,
    MANAGE_GUILD,
)

LONG = 60.0
"""Seconds to wait for a command that opens a round of many games."""


class World:
    """A server with an organiser and players, and a tournament channel (in a category
    when asked)."""

    def __init__(self, fake: Any, players: int, *, bot_permissions: int =
                 DEFAULT_BOT_PERMISSIONS, category: bool = False) -> None:
        self.fake = fake
        self.guild = fake.add_guild("Casino", bot_permissions=bot_permissions)
        self.category = self.guild.add_category("Events") if category else None
        self.channel = self.guild.add_text_channel("tournaments", category=self.category)
        self.boss = self.guild.add_user("Boss", roles=(self.guild.add_role("Managers",
                                                                           MANAGE_GUILD),))
        self.players = [self.guild.add_user(f"Pl{n:02}") for n in range(1, players + 1)]
        self.users = {u.id: u for u in (self.boss, *self.players)}

    @property
    def organiser(self) -> Member:
        """The organiser as the tournament service sees them."""
        return Member(self.boss.id, "Boss", manages_server=True, guild_id=self.guild.id)

    async def create(self, bot: CroupierBot, channel: FakeChannel | None = None,
                     **options: Any) -> int:
        """The organiser creates a tournament in ``channel``; its id."""
        where = channel or self.channel
        made = await self.fake.slash(self.boss, where, "tournament create", **options)
        assert not made.ephemeral, made.content
        tid = int((await bot.tournaments.latest(self.organiser, where.id)).id)
        for _ in range(200):  # the command ends once it remembered its message
            if (await bot.tournaments.get(self.organiser, tid)).message_id is not None:
                return tid
            await asyncio.sleep(0.025)
        raise AssertionError(f"tournament {tid}'s message was never remembered")

    async def enter_all(self, bot: CroupierBot, tid: int) -> None:
        """Every player entered by the service directly (quicker than 70 clicks)."""
        for player in self.players:
            await bot.tournaments.add(self.organiser, tid, player.id, player.name)

    def message(self, channel: FakeChannel | None = None) -> FakeMessage:
        """The newest tournament message in ``channel``."""
        return [m for m in (channel or self.channel).messages
                if m.content.startswith("🏆")][-1]


async def answers(fake: Any, result: Any) -> list[FakeMessage]:
    """Every message a deferred command answered with, once the bot is done."""
    await result.final(timeout=LONG)
    await fake.wait_until_idle(quiet=0.3, timeout=LONG)
    return result.all_messages()


def check_limits(messages: list[FakeMessage]) -> None:
    """What Discord takes: at most 2,000 characters and 10 files a message."""
    for message in messages:
        assert len(message.content) <= 2000 and len(message.attachments) <= 10


async def test_the_message_names_the_game_by_its_title_and_the_format_in_words(
        fake_discord, tmp_path):
    world = World(fake_discord, 0)
    bot = make_bot(tmp_path / "words.sqlite3")
    async with fake_discord.running(bot):
        for fmt, words in (("single", "single elimination"), ("double", "double elimination"),
                           ("round_robin", "round robin"), ("swiss", "Swiss")):
            await world.create(bot, game="flank", format=fmt)
            content = world.message().content
            assert f"— {words} of {get_game('flank').title}\n" in content, content
        await world.create(bot, game="eclipse", format="pods")
        assert f"— pods of {get_game('eclipse').title}\n" in world.message().content
        # The new options reach the tournament's settings; left out, the defaults.
        tid = await world.create(bot, game="flank", use_threads=False, turn_seconds=90)
        settings = (await bot.tournaments.get(world.organiser, tid)).settings
        assert settings["use_threads"] is False and settings["turn_seconds"] == 90
        tid = await world.create(bot, game="flank")
        settings = (await bot.tournaments.get(world.organiser, tid)).settings
        assert settings["use_threads"] is True and settings["turn_seconds"] is None


async def test_seventy_entrants_every_page_of_pairings_standings_and_matches(fake_discord,
                                                                           tmp_path):
    world = World(fake_discord, 70)
    names = {p.name for p in world.players}
    people = {p.id for p in world.players}
    stranger = world.players[0]
    bot = make_bot(tmp_path / "long.sqlite3")
    async with fake_discord.running(bot):
        tid = await world.create(bot, game="flank", format="swiss", seeding="random",
                                 options="board=4")
        await fake_discord.slash(world.boss, world.channel, "tournament open")
        await world.enter_all(bot, tid)
        before = len(world.channel.messages)
        started = await fake_discord.slash(world.boss, world.channel, "tournament start")
        assert "round 1" in (await started.final(timeout=LONG)).content
        await bot.tournaments.settle()

        # The round's notice: every pairings page, every name, every person pinged.
        posted = world.channel.messages[before:]
        check_limits(posted)
        files = [a.filename for m in posted for a in m.attachments]
        assert files == ["pairings-1.png", "pairings-1-2.png"]
        text = "\n".join(m.content for m in posted)
        assert all(name in text for name in names)
        assert {u for m in posted for u in m.mentions} == people
        assert len(world.guild.threads) == 35

        # /tournament standings, by a player, without a number: 70 lines in 3 pictures.
        shown = await answers(fake_discord, await fake_discord.slash(
            stranger, world.channel, "tournament standings"))
        check_limits(shown)
        assert all(m.ephemeral for m in shown)
        assert [a.filename for m in shown for a in m.attachments] == [
            "standings.png", "standings-2.png", "standings-3.png"]
        text = "\n".join(m.content for m in shown)
        assert all(name in text for name in names) and "(page 2 of" in text
        assert all(a.data.startswith(b"\x89PNG") for m in shown for a in m.attachments)

        # /tournament pairings: both picture pages and every text page.
        shown = await answers(fake_discord, await fake_discord.slash(
            stranger, world.channel, "tournament pairings"))
        check_limits(shown)
        assert [a.filename for m in shown for a in m.attachments] == [
            "pairings-1.png", "pairings-1-2.png"]
        assert all(name in "\n".join(m.content for m in shown) for name in names)

        # /tournament matches, a page at a time; a page past the end is refused.
        first = await (await fake_discord.slash(stranger, world.channel,
                                                "tournament matches")).final()
        assert first.ephemeral and f"(#{tid}) — matches · page 1 of " in first.content
        pages = int(first.content.split("page 1 of ", 1)[1].split()[0])
        assert pages >= 2
        texts = [first.content]
        for page in range(2, pages + 1):
            shown_page = await (await fake_discord.slash(
                stranger, world.channel, "tournament matches", page=page)).final()
            assert f"page {page} of {pages}" in shown_page.content
            texts.append(shown_page.content)
        history = "\n".join(texts)
        check_limits([first])
        assert all(len(t) <= 2000 for t in texts)
        assert all(name in history for name in names)
        assert all(f"<#{t.id}>" in history for t in world.guild.threads)
        assert "— playing" in history and ", in play" in history
        past = await (await fake_discord.slash(stranger, world.channel, "tournament matches",
                                               page=pages + 1)).final()
        assert past.ephemeral and f"only {pages} pages" in past.content

        # /tournament replay: refused for a table being played; after its game is
        # cancelled in its thread, a new game is played there.
        refused = await (await fake_discord.slash(world.boss, world.channel,
                                                  "tournament replay", table=1)).final()
        assert refused.ephemeral and "already has its result or a game" in refused.content
        refused = await (await fake_discord.slash(stranger, world.channel,
                                                  "tournament replay", table=1)).final()
        assert "organisers" in refused.content
        table_one = (await bot.store.tournaments.pairing(tid, 1, 1))
        thread = next(t for t in world.guild.threads if t.id == table_one.thread_id)
        await fake_discord.slash(world.boss, thread, "cancel")
        await bot.tournaments.settle()
        assert (await bot.store.tournaments.pairing(tid, 1, 1)).waiting
        replayed = await (await fake_discord.slash(world.boss, world.channel,
                                                   "tournament replay", table=1)).final()
        assert replayed.ephemeral
        assert replayed.content == "Table 1: a new game is being played."
        again = await bot.store.tournaments.pairing(tid, 1, 1)
        assert again.in_play and again.match_id != table_one.match_id
        again_history = "\n".join(
            [(await (await fake_discord.slash(stranger, world.channel, "tournament matches",
                                              page=n)).final()).content
             for n in range(1, pages + 1)])
        assert (f"game 1: match #{table_one.match_id}, cancelled" in again_history
                and f"game 2: match #{again.match_id}, in play" in again_history)

        # Cancelled: its notice carries every standings page; reading commands still
        # find it without a number, actions do not.
        before = len(world.channel.messages)
        cancelled = await fake_discord.slash(world.boss, world.channel, "tournament cancel")
        assert "Cancelled" in (await cancelled.final(timeout=LONG)).content
        posted = world.channel.messages[before:]
        check_limits(posted)
        assert [a.filename for m in posted for a in m.attachments] == [
            "standings.png", "standings-2.png", "standings-3.png"]
        assert all(name in "\n".join(m.content for m in posted) for name in names)
        shown = await answers(fake_discord, await fake_discord.slash(
            stranger, world.channel, "tournament standings"))
        assert len([a for m in shown for a in m.attachments]) == 3
        matches = await (await fake_discord.slash(stranger, world.channel,
                                                  "tournament matches")).final()
        assert f"(#{tid})" in matches.content
        join = await (await fake_discord.slash(stranger, world.channel,
                                               "tournament join")).final()
        assert join.ephemeral and "no tournament under way" in join.content


async def test_reading_commands_find_the_newest_here_live_ones_first(fake_discord, tmp_path):
    world = World(fake_discord, 0)
    other = world.guild.add_text_channel("elsewhere")
    empty = world.guild.add_text_channel("quiet")
    bot = make_bot(tmp_path / "pick.sqlite3")

    async def meant(channel: FakeChannel) -> str:
        shown = await (await fake_discord.slash(world.boss, channel,
                                                "tournament matches")).final()
        return shown.content

    async def cancel(channel: FakeChannel, tid: int) -> None:
        done = await fake_discord.slash(world.boss, channel, "tournament cancel",
                                        tournament=tid)
        assert "Cancelled" in (await done.final()).content

    async with fake_discord.running(bot):
        none = await (await fake_discord.slash(world.boss, world.channel,
                                               "tournament standings")).final()
        assert none.ephemeral and "no tournament on this server" in none.content
        here = await world.create(bot, game="flank")
        await cancel(world.channel, here)
        there = await world.create(bot, other, game="flank")
        await cancel(other, there)
        # Nothing live: the newest here, else the newest on the server.
        assert f"(#{here})" in await meant(world.channel)
        assert f"(#{there})" in await meant(empty)
        # A live one on the server comes before a finished one here.
        live = await world.create(bot, other, game="flank")
        assert f"(#{live})" in await meant(world.channel)
        assert f"(#{live})" in await meant(empty)
        # And a live one here before that.
        newest = await world.create(bot, game="flank")
        assert f"(#{newest})" in await meant(world.channel)
        # An action without a number never lands on one that is over.
        await cancel(world.channel, newest)
        await cancel(other, live)
        opened = await (await fake_discord.slash(world.boss, world.channel,
                                                 "tournament open")).final()
        assert "no tournament under way" in opened.content
        assert f"(#{newest})" in await meant(world.channel)


async def test_a_channel_per_match_with_computer_entrants_named_never_pinged(fake_discord,
                                                                           tmp_path):
    world = World(fake_discord, 2, bot_permissions=DEFAULT_BOT_PERMISSIONS | MANAGE_CHANNELS,
                  category=True)
    people = {p.id for p in world.players}
    bot = make_bot(tmp_path / "channels.sqlite3")
    async with fake_discord.running(bot):
        tid = await world.create(bot, game="flank", format="round_robin", seeding="random",
                                 options="board=4", use_threads=False, turn_seconds=120)
        await fake_discord.slash(world.boss, world.channel, "tournament open")
        # /tournament add: exactly one of a user and a number of computers.
        for options in ({}, {"user": world.players[0], "computers": 2}):
            refused = await fake_discord.slash(world.boss, world.channel, "tournament add",
                                               **options)
            assert refused.ephemeral and "one of the two" in refused.content
        assert await bot.store.tournaments.entrants(tid) == []
        for player in world.players:
            added = await fake_discord.slash(world.boss, world.channel, "tournament add",
                                             user=player)
            assert f"{player.name} is in." == added.content
        added = await fake_discord.slash(world.boss, world.channel, "tournament add",
                                         computers=2)
        assert added.content == "2 computer players are in (normal)."
        one = await fake_discord.slash(world.boss, world.channel, "tournament add",
                                       computers=1)
        assert one.content == "1 computer player is in (normal)."
        await bot.tournaments.settle()  # the message shows it just after the answer
        message = world.message().content
        assert "Entrants (5)" in message and "Computer 1" in message
        assert "— round robin of Flank" in message

        channels_before = set(world.guild.channels)
        started = await fake_discord.slash(world.boss, world.channel, "tournament start")
        assert "round 1" in (await started.final(timeout=LONG)).content
        await bot.tournaments.settle()
        made = [c for c in world.guild.channels if c not in channels_before]
        pairings = [p for p in await bot.store.tournaments.pairings(tid, 1) if not p.is_bye]
        # A table of computers only gets no channel: nobody needs to watch it.
        seen = [p for p in pairings if set(p.seats) & people]
        assert len(pairings) == 2 and len(made) == len(seen) and not world.guild.threads
        entrants = {e.user_id: e.name for e in await bot.store.tournaments.entrants(tid)}
        for pairing in seen:
            place = next(c for c in made if c.id == pairing.thread_id)
            assert place.parent is world.category and place.type != GUILD_CATEGORY
            assert place.name == channel_name(place.name) and len(place.name) <= 100
            assert place.name.startswith("r1-")
            notice = place.messages[0]
            seated = set(pairing.seats)
            assert set(notice.mentions) == seated & people
            assert "<@-" not in notice.content and "<@0>" not in notice.content
            for user in seated:
                shown = f"<@{user}>" if user > 0 else entrants[user]
                assert shown in notice.content
        # The round's notice pings the people only; computers are named.
        for posted in world.channel.messages:
            assert "<@-" not in posted.content and set(posted.mentions) <= people
        assert "Computer" in "\n".join(m.content for m in world.channel.messages)
        # The tournament's own seconds per decision reach its games.
        settings = (await bot.tournaments.get(world.organiser, tid)).settings
        assert settings["turn_seconds"] == 120 and settings["use_threads"] is False
        # A computer player is dropped (or removed, or disqualified) by its number; a
        # player may not drop one, and naming nobody or both is refused.
        refused = await (await fake_discord.slash(world.players[0], world.channel,
                                                  "tournament drop", computer=2)).final()
        assert refused.ephemeral and "organisers" in refused.content
        for options in ({}, {"user": world.players[0], "computer": 2}):
            refused = await fake_discord.slash(world.boss, world.channel,
                                               "tournament remove", **options)
            assert refused.ephemeral and "one of the two" in refused.content
        assert not any(e.dropped for e in await bot.store.tournaments.entrants(tid))
        dropped = await fake_discord.slash(world.boss, world.channel, "tournament drop",
                                           computer=1)
        # Deferred (a drop may wait for the round), confirmed privately, said publicly.
        done, said = await dropped.followups(2)
        assert done.ephemeral and done.content == "Done: Computer 1 is dropped."
        assert said.content == "Computer 1 is dropped." and not said.ephemeral
        await bot.tournaments.settle()
        gone = {e.user_id for e in await bot.store.tournaments.entrants(tid) if e.dropped}
        assert gone == {-1}
        missing = await (await fake_discord.slash(world.boss, world.channel,
                                                  "tournament disqualify", computer=9)).final()
        assert missing.ephemeral and "not in this tournament" in missing.content, missing.content


async def test_without_manage_channels_the_match_is_played_in_the_tournament_channel(
        fake_discord, tmp_path):
    world = World(fake_discord, 2)  # the bot's usual permissions: no Manage Channels
    bot = make_bot(tmp_path / "refused.sqlite3")
    async with fake_discord.running(bot):
        tid = await world.create(bot, game="flank", seeding="random", options="board=4",
                                 use_threads=False)
        await fake_discord.slash(world.boss, world.channel, "tournament open")
        await world.enter_all(bot, tid)
        channels = list(world.guild.channels)
        started = await fake_discord.slash(world.boss, world.channel, "tournament start")
        assert "round 1" in (await started.final(timeout=LONG)).content
        await bot.tournaments.settle()
        assert world.guild.channels == channels and not world.guild.threads
        assert [(r.status, r.code) for r in fake_discord.rejections] == [(403, 50013)]
        # The organiser is told why; the match is played here, its players pinged.
        told = [m for m in world.channel.messages if "Manage Channels" in m.content]
        assert len(told) == 1 and world.boss.id in told[0].mentions
        assert not [m for m in world.channel.messages if "could not be started" in m.content]
        pairing = (await bot.store.tournaments.pairings(tid, 1))[0]
        assert pairing.in_play and pairing.thread_id is None
        assert bot.service.get(pairing.match_id).row.channel_id == world.channel.id
        here = [m for m in world.channel.messages if "table 1, is here" in m.content][-1]
        assert set(here.mentions) == {p.id for p in world.players}
        history = await (await fake_discord.slash(world.players[0], world.channel,
                                                  "tournament matches")).final()
        assert "Table 1: Pl0" in history.content and "— playing" in history.content

