"""The fake Discord's channels and threads held to Discord's own limits, through the real
discord.py client: channels per category and per server, thread names and archive
durations, active threads per server, and a thread's life (archived after its
inactivity on Discord's clock, nothing edited while archived, unarchived by a message
or by the bot, with the rights Discord asks).

Each test names the page of Discord's documentation it follows (discord/discord-api-docs,
``developers/``): ``resources/channel.mdx``, ``topics/threads.mdx`` and
``topics/opcodes-and-status-codes.mdx``.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.model import FakeChannel, FakeGuild
from tests.fakediscord.model.constants import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    MANAGE_CHANNELS,
    MANAGE_THREADS,
)

HOUR = 3600.0
WEEK = 7 * 24 * HOUR


class Bare(discord.Client):
    """A bot with nothing of its own: the tests make its REST calls themselves."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())


def refusal(fake: FakeDiscord) -> tuple[int, int]:
    """The status and code of the fake's latest refusal."""
    last = fake.rejections[-1]
    return last.status, last.code


async def text_channel(bot: discord.Client, channel: FakeChannel) -> discord.TextChannel:
    found = bot.get_channel(channel.id)
    assert isinstance(found, discord.TextChannel)
    return found


async def test_a_category_holds_fifty_channels(fake_discord: FakeDiscord) -> None:
    """resources/channel.mdx: a category "contains up to 50 channels" (``parent_id``: "each
    parent category can contain up to 50 channels"). The 51st is refused as Discord
    refuses it: 400, 50035 Invalid Form Body, the error on ``parent_id``
    (CHANNEL_PARENT_MAX_CHANNELS). Elsewhere the server still has room; and the harness
    refuses to build a 51st there too."""
    guild = fake_discord.add_guild("Full", bot_permissions=DEFAULT_BOT_PERMISSIONS
                                   | MANAGE_CHANNELS)
    events = guild.add_category("Events")
    for n in range(49):
        guild.add_text_channel(f"filler-{n}", category=events)
    async with fake_discord.running(Bare()) as bot:
        where = bot.get_channel(events.id)
        assert isinstance(where, discord.CategoryChannel)
        made = await where.guild.create_text_channel("fiftieth", category=where)
        assert made.category_id == events.id and len(guild.in_category(events)) == 50
        with pytest.raises(discord.HTTPException) as refused:
            await where.guild.create_text_channel("fifty-first", category=where)
        assert (refused.value.status, refused.value.code) == (400, 50035)
        assert "In parent_id: Maximum number of channels in category reached (50)" in str(
            refused.value)
        assert refusal(fake_discord) == (400, 50035)
        assert fake_discord.rejections[-1].errors is not None
        assert set(fake_discord.rejections[-1].errors) == {"parent_id"}
        outside = await where.guild.create_text_channel("outside")
        assert outside.category is None
    assert len(guild.in_category(events)) == 50
    with pytest.raises(ValueError, match="no room"):
        guild.add_text_channel("by-hand", category=events)


async def test_a_server_holds_five_hundred_channels(fake_discord: FakeDiscord) -> None:
    """topics/opcodes-and-status-codes.mdx: 30013 "Maximum number of guild channels reached
    (500)" — categories count, threads do not (resources/channel.mdx: "Threads do not
    count against the per-guild channel limit")."""
    guild = fake_discord.add_guild("Crowded", bot_permissions=DEFAULT_BOT_PERMISSIONS
                                   | MANAGE_CHANNELS)
    lobby = guild.add_text_channel("lobby")
    for n in range(498):
        guild.add_text_channel(f"filler-{n}")
    async with fake_discord.running(Bare()) as bot:
        channel = await text_channel(bot, lobby)
        await channel.guild.create_text_channel("five-hundredth")
        assert len(guild.channels) == 500
        with pytest.raises(discord.HTTPException) as refused:
            await channel.guild.create_category("one-more")
        assert (refused.value.status, refused.value.code) == (400, 30013)
        assert "Maximum number of guild channels reached (500)" in str(refused.value)
        # A thread is no channel: it still fits.
        thread = await channel.create_thread(name="still fits",
                                             type=discord.ChannelType.public_thread)
        assert thread.id in {t.id for t in guild.threads}


async def test_thread_names_and_archive_durations_are_discords(fake_discord: FakeDiscord) -> None:
    """resources/channel.mdx, Start Thread without Message: ``name`` "1-100 character
    channel name"; ``auto_archive_duration`` "can be set to: 60, 1440, 4320, 10080";
    anything else is 400, 50035 with the error on that field. A thread made without a
    duration gets the channel's ``default_auto_archive_duration`` (discord.py sends it),
    and Modify Channel holds a thread's new name and duration to the same rules."""
    guild = fake_discord.add_guild("Casino")
    table = guild.add_text_channel("table")
    async with fake_discord.running(Bare()) as bot:
        channel = await text_channel(bot, table)
        public = discord.ChannelType.public_thread
        for bad in ("", "x" * 101):
            with pytest.raises(discord.HTTPException) as refused:
                await channel.create_thread(name=bad, type=public)
            assert refused.value.code == 50035 and "In name:" in str(refused.value)
        for minutes in (30, 2880, 20160):
            with pytest.raises(discord.HTTPException) as refused:
                await channel.create_thread(name="bad duration", type=public,
                                            auto_archive_duration=minutes)  # type: ignore[arg-type]
            assert refused.value.code == 50035
            assert "In auto_archive_duration:" in str(refused.value)
        assert guild.threads == []
        made = {}
        for minutes in (60, 1440, 4320, 10080):
            thread = await channel.create_thread(name=f"{minutes} minutes", type=public,
                                                 auto_archive_duration=minutes)  # type: ignore[arg-type]
            assert thread.auto_archive_duration == minutes
            made[minutes] = thread
        plain = await channel.create_thread(name="x" * 100, type=public)
        assert plain.auto_archive_duration == 1440
        assert fake_discord.channels[plain.id].auto_archive_duration == 1440
        with pytest.raises(discord.HTTPException) as refused:
            await made[60].edit(auto_archive_duration=45)  # type: ignore[arg-type]
        assert refused.value.code == 50035
        with pytest.raises(discord.HTTPException) as refused:
            await made[60].edit(name="")
        assert refused.value.code == 50035
        edited = await made[60].edit(name="renamed", auto_archive_duration=10080)
        assert (edited.name, edited.auto_archive_duration) == ("renamed", 10080)


async def test_a_server_holds_a_thousand_active_threads(fake_discord: FakeDiscord) -> None:
    """resources/channel.mdx: "Guilds have limits on the number of active threads ...
    Once these are reached additional threads cannot be created or unarchived"; the
    number is 1,000 (Discord's Threads FAQ); topics/opcodes-and-status-codes.mdx: 160006
    "Maximum number of active threads reached". Archived threads do not count."""
    guild = fake_discord.add_guild("Busy")
    table = guild.add_text_channel("table")
    for n in range(999):
        table.add_thread(f"filler {n}")
    old = guild.threads[0]
    async with fake_discord.running(Bare()) as bot:
        channel = await text_channel(bot, table)
        public = discord.ChannelType.public_thread
        last = await channel.create_thread(name="the thousandth", type=public)
        assert len(guild.active_threads) == 1000
        with pytest.raises(discord.HTTPException) as refused:
            await channel.create_thread(name="one too many", type=public)
        assert (refused.value.status, refused.value.code) == (400, 160006)
        assert "Maximum number of active threads reached" in str(refused.value)
        sent = await channel.send("start here")
        with pytest.raises(discord.HTTPException) as refused:
            await sent.create_thread(name="from a message")
        assert refused.value.code == 160006
        # Archiving one makes room; unarchiving another while full is refused.
        await last.edit(archived=True)
        await channel.create_thread(name="in its place", type=public)
        fake_discord.archive(old)
        await channel.create_thread(name="full again", type=public)
        partial = bot.get_partial_messageable(old.id, guild_id=guild.id)
        with pytest.raises(discord.HTTPException) as refused:
            await partial.send("wake up")
        assert refused.value.code == 160006 and not old.messages and old.archived
    with pytest.raises(ValueError, match="active threads"):
        table.add_thread("by hand")


async def test_a_thread_archives_itself_after_its_inactivity(fake_discord: FakeDiscord) -> None:
    """topics/threads.mdx, Active & Archived Threads: "Threads automatically archive
    after a period of inactivity"; "Activity" is a message sent, unarchiving, or a new
    auto-archive time. Discord's clock moves with ``fake.advance`` (no real wait); the
    bot hears THREAD_UPDATE and drops the thread from its active ones, as discord.py
    does."""
    guild = fake_discord.add_guild("Casino")
    table = guild.add_text_channel("table")
    async with fake_discord.running(Bare()) as bot:
        channel = await text_channel(bot, table)
        hour = await channel.create_thread(name="an hour", auto_archive_duration=60,
                                           type=discord.ChannelType.public_thread)
        week = await channel.create_thread(name="a week", auto_archive_duration=10080,
                                           type=discord.ChannelType.public_thread)
        fake_hour, fake_week = fake_discord.channels[hour.id], fake_discord.channels[week.id]
        fake_discord.advance(HOUR - 60)
        assert not fake_hour.archived
        await hour.send("still here")  # activity: another full hour from now
        fake_discord.advance(HOUR - 60)
        assert not fake_hour.archived
        fake_discord.advance(60)
        assert fake_hour.archived and not fake_week.archived
        await fake_discord.wait_for(lambda: bot.get_guild(guild.id).get_thread(hour.id) is None)
        fake_discord.advance(WEEK - 2 * HOUR + 60)
        assert fake_week.archived and guild.active_threads == []


async def test_an_archived_thread_refuses_edits_and_a_message_unarchives_it(
        fake_discord: FakeDiscord) -> None:
    """topics/threads.mdx: "Users cannot edit messages ... in archived threads" —
    topics/opcodes-and-status-codes.mdx: 50083 "Tried to perform an operation on an
    archived thread, such as editing a message or adding a user to the thread" — and
    "Sending a message will automatically unarchive the thread, unless the thread has
    been locked by a moderator" (resources/channel.mdx: "The API will helpfully
    automatically unarchive a thread when sending a message in that thread")."""
    guild = fake_discord.add_guild("Casino")
    table = guild.add_text_channel("table")
    ada = guild.add_user("Ada")
    async with fake_discord.running(Bare()) as bot:
        channel = await text_channel(bot, table)
        thread = await channel.create_thread(name="game", auto_archive_duration=1440,
                                             type=discord.ChannelType.public_thread)
        board = await thread.send("the board, v1")
        stored = fake_discord.channels[thread.id]
        fake_discord.advance(24 * HOUR)
        assert stored.archived
        with pytest.raises(discord.HTTPException) as refused:
            await board.edit(content="the board, v2")
        assert (refused.value.status, refused.value.code) == (400, 50083)
        assert fake_discord.messages[board.id].content == "the board, v1"
        with pytest.raises(discord.HTTPException) as refused:
            await thread.add_user(discord.Object(ada.id))
        assert refused.value.code == 50083
        # A message unarchives it; then the edit goes through.
        await thread.send("still playing")
        assert not stored.archived
        await fake_discord.wait_for(
            lambda: bot.get_guild(guild.id).get_thread(thread.id) is not None)
        await board.edit(content="the board, v2")
        assert fake_discord.messages[board.id].content == "the board, v2"
        # A locked thread stays archived: the send is refused.
        stored.locked = True
        fake_discord.archive(stored)
        with pytest.raises(discord.HTTPException) as refused:
            await thread.send("let me in")
        assert refused.value.code == 50083 and stored.archived


async def test_the_bot_archives_and_unarchives_with_the_rights_discord_asks(
        fake_discord: FakeDiscord) -> None:
    """resources/channel.mdx, Modify Channel (thread): "When setting ``archived`` to
    ``false``, when ``locked`` is also ``false``, only the SEND_MESSAGES permission is
    required. Otherwise, requires the MANAGE_THREADS permission ... Requires the thread
    to have ``archived`` set to ``false`` or be set to ``false`` in the request";
    topics/threads.mdx: changing ``archived`` needs MANAGE_THREADS "or that the current
    user is the thread creator". Deleting needs Manage Channels (Manage Threads for a
    thread)."""
    plain = fake_discord.add_guild("Plain", bot_permissions=DEFAULT_EVERYONE_PERMISSIONS)
    table = plain.add_text_channel("table")
    theirs = table.add_thread("someone else's")  # started by a user
    async with fake_discord.running(Bare()) as bot:
        channel = await text_channel(bot, table)
        mine = await channel.create_thread(name="mine", type=discord.ChannelType.public_thread)
        archived = await mine.edit(archived=True)  # its creator may
        assert archived.archived and fake_discord.channels[mine.id].archived
        with pytest.raises(discord.HTTPException) as refused:
            await archived.edit(name="renamed while archived")
        assert (refused.value.status, refused.value.code) == (400, 50083)
        back = await archived.edit(archived=False)
        assert not back.archived and not fake_discord.channels[mine.id].archived
        other = await bot.fetch_channel(theirs.id)
        assert isinstance(other, discord.Thread)
        with pytest.raises(discord.Forbidden):
            await other.edit(archived=True)  # not its creator, no Manage Threads
        with pytest.raises(discord.Forbidden):
            await other.edit(locked=True)
        fake_discord.archive(theirs)
        await other.edit(archived=False)  # unarchiving needs only to be able to send
        assert not theirs.archived
        theirs.locked = True
        fake_discord.archive(theirs)
        with pytest.raises(discord.Forbidden):
            await other.edit(archived=False)  # a locked one: Manage Threads
        with pytest.raises(discord.Forbidden):
            await channel.delete()
        with pytest.raises(discord.Forbidden):
            await mine.delete()
        assert table.id in fake_discord.channels and mine.id in fake_discord.channels


async def test_manage_threads_archives_anyones_thread(fake_discord: FakeDiscord) -> None:
    """topics/threads.mdx: with MANAGE_THREADS the bot archives, locks and unarchives a
    thread it did not create (the default bot's role has it)."""
    guild: FakeGuild = fake_discord.add_guild("Moderated")
    assert guild.bot_permissions & MANAGE_THREADS
    theirs = guild.add_text_channel("table").add_thread("a user's")
    async with fake_discord.running(Bare()) as bot:
        thread: Any = await bot.fetch_channel(theirs.id)
        await thread.edit(archived=True, locked=True)
        assert theirs.archived and theirs.locked
        await thread.edit(archived=False)
        assert not theirs.archived
