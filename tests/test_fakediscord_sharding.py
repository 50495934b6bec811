"""The fake Discord shards its gateway as Discord does (discord.com/developers/docs/events/
gateway, *Sharding*), tested with discord.py's own ``AutoShardedClient``: two clients
holding different shards of one bot, as two cluster processes would, each see only their
guilds' events and interactions; DMs go to shard 0 alone; an invalid ``shard`` is closed
with 4010; IDENTIFYs are limited per ``max_concurrency`` bucket when asked."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.e2e import served
from tests.fakediscord import FakeDiscord
from tests.fakediscord.server.sharding import INVALID_SHARD

SCALE = 0.05
"""Discord's seconds at the speed the other fake tests run them (conftest's)."""


class Cluster(discord.AutoShardedClient):
    """A tiny sharded bot that records what reaches it and answers ``/where``."""

    def __init__(self, name: str, **sharding: Any) -> None:
        super().__init__(intents=discord.Intents.default(), **sharding)
        self.name = name
        self.tree = app_commands.CommandTree(self)
        self.seen: list[tuple[str, int | None]] = []
        """(event, guild id) of every guild or DM event the bot heard."""

        @self.tree.command(name="where", description="Which cluster answers")
        async def where(interaction: discord.Interaction) -> None:
            shard = interaction.guild.shard_id if interaction.guild else "dm"
            await interaction.response.send_message(f"{self.name} shard {shard}")

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.seen.append(("interaction", interaction.guild_id))

    async def on_message(self, message: discord.Message) -> None:
        if message.author != self.user:
            self.seen.append(("message", message.guild.id if message.guild else None))

    async def on_guild_channel_create(self, channel: discord.abc.GuildChannel) -> None:
        self.seen.append(("channel", channel.guild.id))

    async def on_guild_role_create(self, role: discord.Role) -> None:
        self.seen.append(("role", role.guild.id))


async def test_guild_ids_land_on_the_shard_asked(fake_discord: FakeDiscord) -> None:
    for shard_id, count in ((0, 2), (1, 2), (2, 3), (0, 3), (5, 7)):
        guild = fake_discord.add_guild(shard=(shard_id, count))
        assert (guild.id >> 22) % count == shard_id


async def test_two_clusters_each_see_only_their_shards_guilds(fake_discord: FakeDiscord) -> None:
    """Shard 0 and shard 1 of 2 in two clients: READY, GUILD_CREATE, messages, channels,
    roles and interactions of a guild reach only the client holding its shard."""
    home = fake_discord.add_guild("Zero", channels=["table"], shard=(0, 2))
    away = fake_discord.add_guild("One", channels=["table"], shard=(1, 2))
    ada = fake_discord.add_user("Ada")
    first = Cluster("first", shard_ids=[0], shard_count=2)
    second = Cluster("second", shard_ids=[1], shard_count=2)
    async with fake_discord.running(first), fake_discord.running(second):
        assert sorted(fake_discord.identified_shards()) == [[0, 2], [1, 2]]
        assert [g.id for g in first.guilds] == [home.id]
        assert [g.id for g in second.guilds] == [away.id]

        for guild, cluster in ((home, "first"), (away, "second")):
            answer = await fake_discord.slash(ada, guild.channel("table"), "where")
            assert answer.content == f"{cluster} shard {0 if guild is home else 1}"
        await fake_discord.send_message(ada, away.channel("table"), "hello")
        away.add_text_channel("new")
        home.add_role("dealer")
        await fake_discord.wait_for(lambda: len(second.seen) >= 3 and len(first.seen) >= 2)
        await fake_discord.wait_until_idle(quiet=0.1)

    assert sorted(first.seen) == [("interaction", home.id), ("role", home.id)]
    assert sorted(second.seen) == [("channel", away.id), ("interaction", away.id),
                                   ("message", away.id)]


async def test_a_dm_interaction_reaches_only_shard_zero(fake_discord: FakeDiscord) -> None:
    """Events without a guild go to shard 0: the DM's ``/where`` is the first
    cluster's to answer, and the second never hears of it."""
    fake_discord.add_guild("One", shard=(1, 2))
    ada = fake_discord.add_user("Ada")
    first = Cluster("first", shard_ids=[0], shard_count=2)
    second = Cluster("second", shard_ids=[1], shard_count=2)
    async with fake_discord.running(second), fake_discord.running(first):
        answer = await fake_discord.slash(ada, fake_discord.dm_channel(ada), "where")
        assert answer.content == "first shard dm"
        await fake_discord.wait_until_idle(quiet=0.1)
    assert first.seen == [("interaction", None)]
    assert second.seen == []


async def test_one_client_with_every_shard_hears_everything(fake_discord: FakeDiscord) -> None:
    """Without a shard count discord.py asks ``GET /gateway/bot``: the fake's
    recommended ``shards`` are all connected, each guild to its own."""
    fake_discord.recommended_shards = 3
    guilds = [fake_discord.add_guild(f"G{n}", shard=(n, 3)) for n in range(3)]
    bot = Cluster("all")
    async with fake_discord.running(bot):
        assert sorted(fake_discord.identified_shards()) == [[0, 3], [1, 3], [2, 3]]
        assert {g.id: g.shard_id for g in bot.guilds} == {g.id: n for n, g in enumerate(guilds)}


async def identify(fake: FakeDiscord, shard: object) -> int | None:
    """IDENTIFY on a raw websocket with ``shard`` (as sent, however wrong); the close
    code the fake answers with, or ``None`` if it answered READY."""
    async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        data: dict[str, Any] = {"token": fake.token, "intents": 0, "properties": {}}
        if shard is not None:
            data["shard"] = shard
        await ws.send_str(json.dumps({"op": 2, "d": data}))
        first = await ws.receive(timeout=5)
        if first.type == aiohttp.WSMsgType.TEXT:
            assert json.loads(first.data)["t"] == "READY"
            return None
        return ws.close_code


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [1, 0], [0], [0, 1, 2],
                                   ["0", "2"], [0.0, 2], [True, 2], {"id": 0}, 0])
async def test_an_invalid_shard_is_closed_with_4010(fake_discord: FakeDiscord,
                                                     shard: object) -> None:
    assert await identify(fake_discord, shard) == INVALID_SHARD
    assert fake_discord.shard_refused == 1 and fake_discord.identified_shards() == []


@pytest.mark.parametrize("shard", [None, [0, 1], [1, 2], [6, 7]])
async def test_a_valid_shard_is_identified(fake_discord: FakeDiscord, shard: object) -> None:
    assert await identify(fake_discord, shard) is None
    assert fake_discord.shard_refused == 0


async def test_discord_py_gets_the_4010(fake_discord: FakeDiscord) -> None:
    """A shard id past the count: discord.py's ``connect`` ends with the close code."""
    bot = Cluster("wrong", shard_ids=[2], shard_count=2)
    with pytest.raises(discord.ConnectionClosed) as closed:
        await fake_discord.start_bot(bot)
    assert closed.value.code == INVALID_SHARD


@pytest.fixture
async def limited() -> AsyncIterator[FakeDiscord]:
    """A fake that holds IDENTIFYs to one per 5 s per bucket of ``max_concurrency`` 1."""
    async with served(FakeDiscord(time_scale=SCALE, identify_limit=True, shards=2)) as fake:
        yield fake


async def test_an_identify_too_soon_in_its_bucket_is_invalid_session(
        limited: FakeDiscord) -> None:
    """Two clusters starting at once share bucket 0 (``shard_id % 1``): the second
    IDENTIFY is answered op 9, and discord.py identifies again 5 s later, and gets in."""
    first = Cluster("first", shard_ids=[0], shard_count=2)
    second = Cluster("second", shard_ids=[1], shard_count=2)
    async with limited.running(first), limited.running(second):
        assert limited.identify_refused == 1
        assert sorted(limited.identified_shards()) == [[0, 2], [1, 2]]


async def test_one_client_paces_its_own_shards(limited: FakeDiscord) -> None:
    """discord.py waits 5 s before each shard after the first: none is refused."""
    bot = Cluster("all")
    async with limited.running(bot):
        assert limited.identify_refused == 0
        assert sorted(limited.identified_shards()) == [[0, 2], [1, 2]]


async def test_separate_buckets_identify_at_once() -> None:
    """With ``max_concurrency`` 2, shards 0 and 1 are in different buckets."""
    fake = FakeDiscord(time_scale=SCALE, identify_limit=True, max_concurrency=2)
    async with served(fake):
        first = Cluster("first", shard_ids=[0], shard_count=2)
        second = Cluster("second", shard_ids=[1], shard_count=2)
        async with fake.running(first), fake.running(second):
            assert fake.identify_refused == 0
        async with aiohttp.ClientSession() as session, session.get(
                fake.api_base + "/gateway/bot",
                headers={"Authorization": f"Bot {fake.token}"}) as answer:
            limits = (await answer.json())["session_start_limit"]
        assert limits["max_concurrency"] == 2


async def test_events_made_while_no_shard_holds_the_guild_reach_nobody(
        fake_discord: FakeDiscord) -> None:
    """Only shard 0 of 2 connected: a guild of shard 1 is unheard of, its events lost."""
    fake_discord.add_guild("One", channels=["table"], shard=(1, 2))
    first = Cluster("first", shard_ids=[0], shard_count=2)
    async with fake_discord.running(first):
        late = fake_discord.add_guild("Late", shard=(1, 2))
        late.add_text_channel("new")
        await fake_discord.wait_until_idle(quiet=0.1)
        assert list(first.guilds) == [] and first.seen == []
