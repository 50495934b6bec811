"""How the fake says no: Discord's JSON errors, the record of each refusal, and the
assertion errors a waiting test gets."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any


class DiscordAPIError(Exception):
    """Raised inside a handler to answer with Discord's JSON error body."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors


@dataclass
class Rejection:
    """A request the fake refused with an error, as Discord would."""

    method: str
    path: str
    status: int
    code: int
    message: str
    errors: dict[str, Any] | None = None


class BotError(AssertionError):
    """The bot logged an ERROR (on a ``discord.*`` logger) while the test was waiting."""

    def __init__(self, records: list[logging.LogRecord]) -> None:
        formatter = logging.Formatter("%(name)s: %(message)s")
        parts = []
        for record in records:
            text = formatter.format(record)
            parts.append(text)
        super().__init__("the bot logged errors:\n" + "\n".join(parts))
        self.records = records


class WaitTimeout(AssertionError):
    """A condition awaited with :meth:`FakeDiscordServer.wait_for` did not come true in time."""
