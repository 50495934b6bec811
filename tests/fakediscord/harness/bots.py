"""Running real discord.py clients against the fake: pointing discord.py at it, starting
a bot and waiting for ``on_ready``, and always closing it again."""

from __future__ import annotations

import asyncio
import types
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any, Self, TypeVar

import discord
import yarl
from discord import client as discord_client
from discord import gateway as discord_gateway
from discord import http as discord_http
from discord.webhook import async_ as discord_webhook

from ..server import WaitTimeout
from .world import WorldBuilding

ClientT = TypeVar("ClientT", bound=discord.Client)
PACED = (discord_client, discord_http, discord_webhook)
"""discord.py's modules whose sleeps wait on Discord's say: the client's reconnect
backoff and its pause before a new IDENTIFY; Retry-After and the retries of 5xx, of
the API and of interaction answers (webhooks). One sleep there is the bot's own: a
webhook message's ``delete(delay=...)``, which Croupier does not use."""


class PacedAsyncio(types.ModuleType):
    """``asyncio`` as a module of :data:`PACED` sees it against the fake: ``sleep``
    lasts ``scale`` of the seconds asked for, everything else is asyncio's own.

    >>> paced = PacedAsyncio(0.5)
    >>> asyncio.run(paced.sleep(0.01, "slept")), paced.Lock is asyncio.Lock
    ('slept', True)
    """

    def __init__(self, scale: float) -> None:
        super().__init__("asyncio")
        self.scale = scale

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        """``asyncio.sleep`` of ``scale`` × ``delay``."""
        return await asyncio.sleep(delay * self.scale, result)


@contextmanager
def pointed_at(api_base: str, gateway_url: str, time_scale: float = 1.0) -> Iterator[None]:
    """discord.py pointed at a fake Discord (``Route.BASE``, ``DEFAULT_GATEWAY``) and
    its waits on Discord's say (:data:`PACED`) at ``time_scale``; restored afterwards.
    :meth:`BotRunner.patched` uses it in the test's process, ``tests/clusterchild.py``
    in a cluster process of its own."""
    old_base = discord_http.Route.BASE
    old_gateway = discord_gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord_http.Route.BASE = api_base
    discord_gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url + "/")
    if time_scale != 1:
        for module in PACED:
            module.asyncio = PacedAsyncio(time_scale)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        discord_http.Route.BASE = old_base
        discord_gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway
        for module in PACED:
            module.asyncio = asyncio  # type: ignore[attr-defined]


def session_ids(bot: discord.Client) -> list[str]:
    """The gateway sessions ``bot`` holds: one, or one per shard of an
    ``AutoShardedClient`` (whose own ``ws`` stays ``None``; discord.py keeps each
    shard's websocket on the ``ShardInfo``'s private ``_parent``)."""
    if bot.ws is not None:
        return [bot.ws.session_id] if bot.ws.session_id else []
    if isinstance(bot, discord.AutoShardedClient):
        sockets = [info._parent.ws for info in bot.shards.values()]
        return [ws.session_id for ws in sockets if ws is not None and ws.session_id]
    return []


class BotRunner(WorldBuilding):
    """Starts and stops bots; :meth:`stop` closes any still running."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._bots: dict[int, tuple[discord.Client, asyncio.Task[None]]] = {}

    @contextmanager
    def patched(self) -> Iterator[Self]:
        """Point discord.py at this fake (``Route.BASE``, ``DEFAULT_GATEWAY``), and its
        waits on Discord's say (:data:`PACED`) at the fake's ``time_scale``; then restore."""
        with pointed_at(self.api_base, self.gateway_url, self.time_scale):
            yield self

    async def start_bot(
        self, bot: discord.Client, *, timeout: float = 10.0, fast_ready: bool = True,
        reconnect: bool = False,
    ) -> None:
        """``login`` + ``connect(reconnect=reconnect)`` in a task, then wait for ``on_ready``.
        With ``reconnect``, the bot keeps trying to connect after the gateway refused
        it, as a bot in production does (discord.py then logs each failed try as an
        ERROR, "Attempting a reconnect in …"); without it, that ends the bot.

        ``fast_ready`` lowers discord.py's ``guild_ready_timeout`` (2 s by default: the
        wait for more GUILD_CREATEs after the last one before firing ``on_ready``) to
        0.1 s, since the fake sends all guilds at once.
        """
        if self.api_base != discord_http.Route.BASE:
            raise RuntimeError(
                "discord.py is not pointed at this fake; use `with fake.patched():` "
                "or the fake_discord fixture"
            )
        if fast_ready:
            state = bot._connection
            state.guild_ready_timeout = min(state.guild_ready_timeout, 0.1)
        try:
            await bot.login(self.token)
        except BaseException:
            await bot.close()
            raise
        task = asyncio.create_task(bot.connect(reconnect=reconnect),
                                   name=f"fake-discord-bot-{id(bot)}")
        self._bots[id(bot)] = (bot, task)
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready in done:
            return
        ready.cancel()
        await asyncio.gather(ready, return_exceptions=True)
        await self.stop_bot(bot)
        raise WaitTimeout(f"bot did not become ready within {timeout}s")

    async def stop_bot(self, bot: discord.Client, *, timeout: float = 10.0) -> None:
        """Close the bot, wait for its connect task and for the fake to see it leave."""
        entry = self._bots.pop(id(bot), None)
        sessions = [self.sessions[s] for s in session_ids(bot) if s in self.sessions]
        await self.answers_delivered(timeout)
        await bot.close()
        if entry is not None:
            await asyncio.wait_for(entry[1], timeout)
        if sessions:
            await self.wait_for(
                lambda: all(session.conn is None for session in sessions),
                timeout,
                description="the gateway connections to close",
                fail_on_bot_error=False,
            )

    @asynccontextmanager
    async def running(self, bot: ClientT, *, timeout: float = 10.0,
                      reconnect: bool = False) -> AsyncIterator[ClientT]:
        """``async with fake.running(bot):`` starts the bot and always stops it."""
        await self.start_bot(bot, timeout=timeout, reconnect=reconnect)
        try:
            yield bot
        finally:
            await self.stop_bot(bot, timeout=timeout)

    async def stop(self) -> None:
        """Stop bots still running, then the server."""
        for bot, _task in list(self._bots.values()):
            await self.stop_bot(bot)
        await super().stop()
