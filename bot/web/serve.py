"""Serving the web companion: its own read-only store, an aiohttp runner, a port."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp import web

from bot.clock import Clock
from bot.web.app import SERVER_OPTIONS, build_app
from storage import Store


@asynccontextmanager
async def serving(database: str | os.PathLike[str], host: str, port: int, *,
                  clock: Clock | None = None) -> AsyncIterator[web.AppRunner]:
    """The pages served at ``host:port`` over ``database`` opened read-only, until the
    block ends. Raises :class:`~storage.errors.ReadOnlyStore` for a database the bot has
    not made (or migrated) yet, :class:`OSError` for a port that cannot be had."""
    store = await Store.open(database, read_only=True)
    runner = web.AppRunner(build_app(store, clock=clock), **SERVER_OPTIONS)
    try:
        await runner.setup()
        await web.TCPSite(runner, host, port).start()
        yield runner
    finally:
        await runner.cleanup()
        await store.close()


async def serve_forever(database: str | os.PathLike[str], host: str, port: int,
                        started: asyncio.Event | None = None) -> None:
    """Serve the pages until cancelled (Ctrl-C); ``started`` is set once listening."""
    async with serving(database, host, port):
        if started is not None:
            started.set()
        await asyncio.Event().wait()
