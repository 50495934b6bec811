"""Waiting for the bot: conditions re-checked on every change the fake sees, a quiet
period, and failing fast when the bot logs an ERROR instead of sitting out a timeout."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from .errors import BotError, WaitTimeout
from .state import FakeState

T = TypeVar("T")


class Waiting(FakeState):
    """``wait_for`` and ``wait_until_idle``, fed by the change signal and by the bot's
    ERROR records on ``discord.*``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._errors_reported = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread = 0
        self._log_handler: _BotErrorHandler | None = None

    def _start_watching(self) -> None:
        """Bind to the running loop and collect ERROR records from ``discord.*`` (any thread)."""
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._changed = asyncio.Event()
        self._log_handler = _BotErrorHandler(self)
        logging.getLogger("discord").addHandler(self._log_handler)

    def _stop_watching(self) -> None:
        if self._log_handler is not None:
            logging.getLogger("discord").removeHandler(self._log_handler)
            self._log_handler = None

    def _bump_threadsafe(self) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._loop_thread:
            self._bump()
        else:
            loop.call_soon_threadsafe(self._bump)

    def _on_bot_error(self, record: logging.LogRecord) -> None:
        self.bot_errors.append(record)
        self._bump_threadsafe()

    def _raise_new_bot_errors(self) -> None:
        if len(self.bot_errors) > self._errors_reported:
            new = self.bot_errors[self._errors_reported :]
            self._errors_reported = len(self.bot_errors)
            raise BotError(new)

    async def wait_for(
        self,
        predicate: Callable[[], T],
        timeout: float = 5.0,
        *,
        description: str | None = None,
        fail_on_bot_error: bool = True,
        recheck: float = 0.02,
    ) -> T:
        """Wait until ``predicate()`` returns something truthy and return it.

        The predicate is re-checked at once after every change the fake sees (REST call,
        gateway traffic, log record). State the fake cannot see change, such as the bot's
        own cache or a list your listener fills, is re-checked every ``recheck`` seconds.
        Raises :class:`WaitTimeout` after ``timeout`` seconds, and :class:`BotError` as soon
        as the bot logs an ERROR (unless ``fail_on_bot_error`` is false), so a crashing
        handler fails fast instead of running into the timeout.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if fail_on_bot_error:
                self._raise_new_bot_errors()
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise WaitTimeout(self._timeout_report(description or repr(predicate), timeout))
            event = self._changed
            # Timing out here just leads to another predicate check above.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, recheck))

    async def wait_until_idle(self, quiet: float = 0.2, timeout: float = 5.0) -> None:
        """Wait until nothing changed for ``quiet`` seconds: no REST request, no gateway
        traffic, no new message. This is how a test sees the bot *not* answer, e.g. stay
        silent on a redelivered interaction. Work the fake cannot see (a slow handler
        before its first request) is no activity, so ``quiet`` must outlast it. Raises
        :class:`BotError` as soon as the bot logs an ERROR and :class:`WaitTimeout` if it
        is still busy after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            self._raise_new_bot_errors()
            now = time.monotonic()
            calm_at = self._last_change + quiet
            if now >= calm_at:
                return
            if now >= deadline:
                raise WaitTimeout(self._timeout_report(f"{quiet:g}s without activity", timeout))
            await asyncio.sleep(min(calm_at, deadline) - now)

    def _timeout_report(self, what: str, timeout: float) -> str:
        lines = [f"timed out after {timeout:g}s waiting for: {what}"]
        recent = sorted(self.messages.values(), key=lambda m: m.id)[-6:]
        if recent:
            lines.append("latest messages:")
            lines.extend(f"  {m!r}" for m in recent)
        if self.rejections:
            lines.append(f"requests the fake refused: {self.rejections[-5:]}")
        if self.unhandled:
            lines.append(f"unhandled routes: {self.unhandled}")
        if not any(s.conn for s in self.sessions.values()):
            lines.append("no bot is connected to the gateway")
        return "\n".join(lines)


class _BotErrorHandler(logging.Handler):
    """Collects ERROR records from ``discord.*`` so waits can fail fast."""

    def __init__(self, fake: Waiting) -> None:
        super().__init__(logging.ERROR)
        self.fake = fake

    def emit(self, record: logging.LogRecord) -> None:
        self.fake._on_bot_error(record)
