"""The clock a computer player thinks by.

A searching computer player (``hard``) stops when its time is up, not after a
fixed count of positions, so it uses what it is given on any machine. It reads
the time through :func:`clock` only, never :mod:`time` directly, so that a test
can put a counting clock in its place (:func:`counting_clock`) and a search
becomes exactly repeatable: the same position, the same choice.

>>> with counting_clock(0.001):
...     clock(), clock()
(0.001, 0.002)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Clock = Callable[[], float]
"""Seconds from some fixed point, never going back."""

_CLOCK: ContextVar[Clock] = ContextVar("thinking_clock", default=time.perf_counter)


def clock() -> float:
    """The thinking clock's time now, in seconds (the real one unless a test set its own)."""
    return _CLOCK.get()()


@contextmanager
def use_clock(new: Clock) -> Iterator[None]:
    """Think by ``new`` inside the ``with`` block (this thread and context only)."""
    token = _CLOCK.set(new)
    try:
        yield
    finally:
        _CLOCK.reset(token)


@contextmanager
def counting_clock(tick: float) -> Iterator[None]:
    """A clock that moves on ``tick`` seconds each time it is read: a search that
    reads it every so many positions stops after the same positions every time."""
    now = 0.0

    def counted() -> float:
        nonlocal now
        now += tick
        return now

    with use_clock(counted):
        yield
