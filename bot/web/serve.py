"""Serving the web companion: its own read-only store, an aiohttp runner, a port."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from bot.clock import Clock
from bot.web.app import SERVER_OPTIONS, build_app
from storage import Store


class RefusedRequests(logging.Filter):
    """aiohttp logs a request it could not parse (raw bytes in its first line, say) as an
    ERROR with a traceback, though the client's mistake is answered with a plain 400:
    anyone could fill the log with them. Such a record is kept as one line at INFO."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError):
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg = f"{record.getMessage()}: refused ({type(error).__name__})"
            record.args, record.exc_info, record.exc_text = (), None, None
        return True


REFUSED_REQUESTS = RefusedRequests()


@asynccontextmanager
async def serving(database: str | os.PathLike[str], host: str, port: int, *,
                  clock: Clock | None = None) -> AsyncIterator[web.AppRunner]:
    """The pages served at ``host:port`` over ``database`` opened read-only, until the
    block ends. Raises :class:`~storage.errors.ReadOnlyStore` for a database the bot has
    not made (or migrated) yet, :class:`OSError` for a port that cannot be had."""
    logging.getLogger("aiohttp.server").addFilter(REFUSED_REQUESTS)  # once: a set
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
