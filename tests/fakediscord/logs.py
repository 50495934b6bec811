"""Log capture for tests: ERROR records from discord.py, asyncio and the bot's own
packages are collected so a test fails when a handler crashed, since discord.py only logs
exceptions from commands, views and events."""

from __future__ import annotations

import gc
import logging
import re
from collections.abc import Sequence
from typing import Self

import pytest


class LogCapture(logging.Handler):
    """Collects ERROR records from the given loggers (default ``discord`` and ``asyncio``).

    ``asyncio`` is included because "Unclosed client session", "Task was destroyed but it
    is pending" and "Task exception was never retrieved" are reported there.
    """

    def __init__(
        self, loggers: Sequence[str] = ("discord", "asyncio"), level: int = logging.ERROR
    ) -> None:
        super().__init__(level)
        self.logger_names = tuple(loggers)
        self.records: list[logging.LogRecord] = []
        self._saved_levels: dict[str, int] = {}

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def install(self) -> None:
        """Attach to the loggers (making sure ERROR records are not filtered out)."""
        for name in self.logger_names:
            logger = logging.getLogger(name)
            self._saved_levels[name] = logger.level
            if logger.getEffectiveLevel() > self.level:
                logger.setLevel(self.level)
            logger.addHandler(self)

    def uninstall(self) -> None:
        """Detach and restore logger levels."""
        for name in self.logger_names:
            logger = logging.getLogger(name)
            logger.removeHandler(self)
            logger.setLevel(self._saved_levels.get(name, logging.NOTSET))

    def __enter__(self) -> Self:
        self.install()
        return self

    def __exit__(self, *exc: object) -> None:
        self.uninstall()

    def expect(
        self, pattern: str | None = None, *, logger: str | None = None
    ) -> list[logging.LogRecord]:
        """Remove and return the records matching ``pattern`` (regex searched in the message
        and traceback) and ``logger`` (prefix); fail if there are none."""
        matched, kept = [], []
        for record in self.records:
            text = self._text(record)
            ok = (pattern is None or re.search(pattern, text)) and (
                logger is None or record.name.startswith(logger)
            )
            (matched if ok else kept).append(record)
        if not matched:
            raise AssertionError(
                f"no ERROR log matching {pattern!r} (logger {logger!r}); got:\n{self.format()}"
            )
        self.records = kept
        return matched

    def clear(self) -> None:
        """Forget every record."""
        self.records.clear()

    @staticmethod
    def _text(record: logging.LogRecord) -> str:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += "\n" + "".join(logging.Formatter().formatException(record.exc_info))
        return text

    def format(self, record: logging.LogRecord | None = None) -> str:  # type: ignore[override]
        """All records (or one), with tracebacks."""
        if record is not None:
            return self._text(record)
        return "\n\n".join(self._text(r) for r in self.records) or "(none)"

    def assert_clean(self, *, collect_garbage: bool = True) -> None:
        """``pytest.fail`` if any record is left. ``collect_garbage`` first runs the GC so
        unclosed sessions and destroyed tasks are reported now, not in a later test."""
        if collect_garbage:
            gc.collect()
            # What outlived the collection outlives the test (module and session fixtures,
            # caches): frozen, no later collection walks it again. A test process's heap
            # is large, and walking it made these collections a third of an e2e test's CPU.
            gc.freeze()
        if self.records:
            count = len(self.records)
            pytest.fail(
                f"{count} ERROR log record(s) during the test:\n{self.format()}", pytrace=False
            )
