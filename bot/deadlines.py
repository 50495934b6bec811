"""The background task that wakes the service when a warning or deadline is due."""

from __future__ import annotations

import asyncio
import logging
import math

from bot.service import MatchService

log = logging.getLogger(__name__)


async def run_deadlines(service: MatchService) -> None:
    """Sleep until the next due time (or until deadlines change), then tick. Runs forever."""
    while True:
        service.deadlines_changed.clear()
        due = service.next_due()
        timeout = None if due is None else max(0.0, due - service.clock.now())
        service.next_wake = math.inf if due is None else due
        try:
            await asyncio.wait_for(service.deadlines_changed.wait(), timeout)
            continue
        except TimeoutError:
            pass
        finally:
            service.next_wake = None
        try:
            await service.tick()
        except Exception:
            log.exception("deadline tick failed")
            await asyncio.sleep(1)
