"""Time, behind a seam so tests can move it by hand instead of sleeping."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Where the service reads the time (seconds since the epoch)."""

    def now(self) -> float:
        """The current time."""
        ...


class SystemClock:
    """The real wall clock."""

    def now(self) -> float:
        """``time.time()``."""
        return time.time()


class FakeClock:
    """A clock that only moves when told.

    >>> clock = FakeClock(100.0)
    >>> clock.advance(5)
    105.0
    """

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        """The time as last set."""
        return self._now

    def advance(self, seconds: float) -> float:
        """Move forward and return the new time."""
        self._now += seconds
        return self._now
