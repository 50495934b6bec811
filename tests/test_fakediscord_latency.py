"""The fake Discord at Discord's pace (``tests/fakediscord/server/latency.py``): REST
latency in real seconds, which the 3 s to acknowledge are measured against, and the
per-channel bucket message edits share, answered as Discord answers so that discord.py
holds back, waits and tries again. A tiny discord.py bot, not Croupier."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands

from tests.e2e import served
from tests.fakediscord import FakeChannel, FakeDiscord, LogCapture
from tests.fakediscord.server.latency import EditBucket

LATENCY = 0.25


class Pacer(commands.Bot):
    """``/busy sends``: that many channel messages before answering (the slow way);
    ``/edits count``: defers, then edits one message ``count`` times; the Bump button
    answers by updating its own message."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.edited_at: list[float] = []
        self.refused: list[int] = []
        """Discord's codes for the answers it refused."""

    async def setup_hook(self) -> None:
        @self.tree.command(description="Send, then answer")
        async def busy(interaction: discord.Interaction, sends: int) -> None:
            assert isinstance(interaction.channel, discord.abc.Messageable)
            for n in range(sends):
                await interaction.channel.send(f"working {n}")
            try:
                await interaction.response.send_message("done")
            except discord.NotFound as late:
                self.refused.append(late.code)

        @self.tree.command(description="Defer, then edit")
        async def edits(interaction: discord.Interaction, count: int) -> None:
            await interaction.response.defer(ephemeral=True)
            assert isinstance(interaction.channel, discord.abc.Messageable)
            message = await interaction.channel.send("edit 0", view=Bump())
            for n in range(1, count + 1):
                await message.edit(content=f"edit {n}")
                self.edited_at.append(time.monotonic())
            await interaction.followup.send("edited", ephemeral=True)

        await self.tree.sync()


class Bump(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Bump", custom_id="pacer:bump")
    async def bump(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content="bumped")


@pytest.fixture(params=[LATENCY])
async def paced(request: pytest.FixtureRequest,
                discord_errors: LogCapture) -> AsyncIterator[FakeDiscord]:
    """A fake with Discord's latency (the test's parameter) and edit bucket, its other
    waits at the tests' usual scale."""
    async with served(FakeDiscord(latency=request.param, time_scale=0.05, ack_deadline=1.0,
                                  edit_bucket=EditBucket(limit=5, per=5.0))) as fake:
        yield fake


async def _raw(fake: FakeDiscord, method: str, path: str, **kwargs: Any
               ) -> tuple[int, dict[str, str], Any]:
    """One REST request as a bot would send it, outside discord.py."""
    async with aiohttp.ClientSession() as session, session.request(
            method, fake.api_base + path, headers={"Authorization": f"Bot {fake.token}"},
            **kwargs) as response:
        return response.status, dict(response.headers), await response.json()


def _bot_message(fake: FakeDiscord, channel: FakeChannel) -> int:
    return fake.create_message(channel, fake.bot_user, {"content": "posted"}).id


async def test_every_rest_request_takes_the_latency_in_real_seconds(paced):
    """0.25 s a request, whatever the fake's time_scale (0.05 here): latency is what
    eats the 3 s to acknowledge, and those are real."""
    started = time.monotonic()
    status, _, me = await _raw(paced, "GET", "/users/@me")
    took = time.monotonic() - started
    assert status == 200 and me["id"] == str(paced.bot_user.id)
    assert LATENCY <= took < LATENCY + 0.5


async def test_slow_work_before_the_answer_is_refused_as_late(paced):
    """With latency, requests made before the acknowledgement add up: an answer at
    once is in time, one after five channel messages (5 × 0.25 s) is past the deadline
    (1 s here; Discord's is 3 s) and refused with 10062, as Discord refuses it."""
    guild = paced.add_guild("Casino")
    channel, ada = guild.add_text_channel("table"), guild.add_user("Ada")
    bot = Pacer()
    async with paced.running(bot):
        quick = await paced.slash(ada, channel, "busy", sends=0)
        assert quick.content == "done"
        assert quick.interaction.callback_at is not None
        assert LATENCY / 2 <= quick.interaction.callback_at - quick.interaction.created_at < 0.5
        slow = await paced.slash(ada, channel, "busy", sends=5, wait=False)
        await paced.wait_for(lambda: bot.refused, 5.0, description="the late answer")
        assert not slow.acked and slow.callback_attempts == 1 and bot.refused == [10062]
        assert [(r.status, r.code) for r in paced.rejections] == [(404, 10062)]


UNHURRIED = pytest.mark.parametrize("paced", [0.0], indirect=True)
"""The bucket alone: no latency to sit out."""


@UNHURRIED
async def test_edits_in_one_channel_share_a_bucket_that_discord_py_waits_on(paced):
    """Seven edits of one message: five go at once, and the fifth, told by the headers
    that it emptied the bucket, returns only once its window is over (discord.py sleeps
    on it: 5 Discord seconds, 0.25 s at this time_scale); nothing is refused. The
    button's own update (the interaction's answer) is not in the bucket."""
    guild = paced.add_guild("Casino")
    channel, ada = guild.add_text_channel("table"), guild.add_user("Ada")
    bot = Pacer()
    async with paced.running(bot):
        result = await paced.slash(ada, channel, "edits", count=7)
        assert (await result.final(timeout=10)).content == "edited"
        message = next(m for m in channel.messages if m.buttons)
        assert message.content == "edit 7" and len(message.history) == 7
        gaps = [b - a for a, b in zip(bot.edited_at, bot.edited_at[1:], strict=False)]
        assert gaps[3] >= 0.2 > max(gaps[:3] + gaps[4:])
        assert paced.edit_bucket is not None and paced.edit_bucket.limited == 0
        assert paced.rejections == []
        bumped = await paced.click(ada, message, label="Bump")
        assert bumped.content == "bumped" and paced.edit_bucket.limited == 0


@UNHURRIED
async def test_an_edit_past_the_bucket_gets_discords_429_and_discord_py_retries(paced):
    """Edits the bot did not count (another process of the same bot, say) empty the
    bucket: the next edit gets 429 with what discord.py needs to wait (Retry-After,
    Via, the X-RateLimit headers and the JSON body), and discord.py waits and tries
    again. Another channel's bucket is its own."""
    guild = paced.add_guild("Casino")
    channel, other = guild.add_text_channel("table"), guild.add_text_channel("other")
    ada = guild.add_user("Ada")
    target = _bot_message(paced, channel)
    path = f"/channels/{channel.id}/messages/{target}"
    paced.edit_bucket = EditBucket(limit=5, per=100.0)  # 5 s at this time_scale
    for n in range(5):
        status, headers, _ = await _raw(paced, "PATCH", path, json={"content": f"n{n}"})
        assert status == 200 and headers["X-RateLimit-Remaining"] == str(4 - n)
    status, headers, body = await _raw(paced, "PATCH", path, json={"content": "over"})
    assert status == 429 and body["global"] is False and 0 < body["retry_after"] <= 100
    assert headers["Via"] and headers["Retry-After"] and headers["X-RateLimit-Scope"] == "user"
    assert headers["X-RateLimit-Bucket"] and headers["X-RateLimit-Remaining"] == "0"
    elsewhere = _bot_message(paced, other)
    status, _, _ = await _raw(paced, "PATCH", f"/channels/{other.id}/messages/{elsewhere}",
                              json={"content": "fine"})
    assert status == 200
    # An edit the bot did not count meets an empty bucket: discord.py waits and retries.
    paced.edit_bucket = EditBucket(limit=1, per=10.0)  # 0.5 s at this time_scale
    bot = Pacer()
    async with paced.running(bot):
        await _raw(paced, "PATCH", path, json={"content": "elsewhere"})
        result = await paced.slash(ada, channel, "edits", count=1)
        assert (await result.final(timeout=10)).content == "edited"
    assert paced.edit_bucket.limited == 1
    assert [r.status for r in paced.rejections] == [429, 429]
    assert next(m for m in channel.messages if m.buttons).content == "edit 1"
