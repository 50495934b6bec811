"""Delivery: after each change, a match's driver plays the computer's moves and
then shows the result — the public table, each seat's private view (DM first,
``/hand`` as the fallback) — in a background task per match, so that a slow
Discord never delays an acknowledgement and two edits of one table never race."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from bot.commit import MatchCore
from bot.live import LiveMatch
from rules.core import Decision, GameState

log = logging.getLogger(__name__)


@dataclass(slots=True, eq=False)
class _Driver:
    """One match's driver: a task that lives as long as the match, and sleeps
    between changes (starting a task per change cost more than the rest of
    showing a change that the transport shows at once)."""

    task: asyncio.Task[None] | None = None
    wake: asyncio.Future[None] | None = None
    """Set while it sleeps: resolving it wakes the driver."""
    again: bool = False
    """A change came while it ran: it runs once more before sleeping."""
    watchers: list[asyncio.Future[None]] = field(default_factory=list)
    """Waiting for it to sleep (:meth:`Delivery.settle` of this match)."""


class Delivery(MatchCore):
    """Each match's driver: computer moves, the table, the DMs."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._drivers: dict[int, _Driver] = {}
        self._busy = 0
        """Drivers running now (not asleep)."""
        self._all_asleep = asyncio.Event()

    def _schedule(self, match: LiveMatch) -> None:
        """Make sure the match's driver runs: computer moves, then the table and DMs."""
        driver = self._drivers.get(match.id)
        if driver is None:
            driver = self._drivers[match.id] = _Driver()
            self._woke()
            driver.task = asyncio.get_running_loop().create_task(
                self._drive(match, driver), name=f"croupier-match-{match.id}")
        elif driver.wake is not None:
            wake, driver.wake = driver.wake, None
            self._woke()
            wake.set_result(None)
        else:
            driver.again = True

    def _woke(self) -> None:
        self._busy += 1
        self._all_asleep.clear()

    def _asleep(self, driver: _Driver) -> None:
        self._busy -= 1
        if not self._busy:
            self._all_asleep.set()
        watchers, driver.watchers = driver.watchers, []
        for watcher in watchers:
            if not watcher.done():
                watcher.set_result(None)

    async def _drive(self, match: LiveMatch, driver: _Driver) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                driver.again = False
                try:
                    # All computer moves first, then one table edit: Discord rate-limits
                    # edits per channel, and the narration lists every move anyway.
                    # A look first, without the lock: most steps wait for people. A
                    # change being committed meanwhile schedules this driver again
                    # (every holder of the lock does once it lets go), so it shows
                    # what is committed now and does not wait for that change.
                    while self._computer_turn(match):
                        async with match.lock:
                            if not await self._computer_moves(match):
                                break
                    await self._show(match)
                except Exception:
                    log.exception("match %s: driving failed", match.id)
                if match.finished or match.row.status in ("cancelled", "abandoned"):
                    break
                if driver.again:
                    continue
                driver.wake = loop.create_future()
                self._asleep(driver)
                await driver.wake
        finally:
            if driver.wake is None:  # it stopped running, not sleeping
                self._asleep(driver)
            if self._drivers.get(match.id) is driver:
                del self._drivers[match.id]
        self._forget(match)

    def _forget(self, match: LiveMatch) -> None:
        super()._forget(match)
        driver = self._drivers.get(match.id)
        if driver is not None and driver.wake is not None and driver.task is not None:
            driver.task.cancel()  # asleep, and nothing is left to show

    async def _show(self, match: LiveMatch) -> None:
        async with match.showing:
            events, match.outbox = match.outbox, []
            message_id = await self.transport.publish(match, events)
            if message_id is not None and message_id != match.row.table_message_id:
                match.row.table_message_id = message_id
                await self.store.matches.set_table_message(match.id, message_id)
            if match.state is not None and match.info.has_secrets:
                await self._deliver_private(match)

    async def _deliver_private(self, match: LiveMatch) -> None:
        private, match.private_outbox = match.private_outbox, []
        decided: GameState | None = None
        decisions: dict[int, Decision] = {}
        for seat in match.seats:
            if seat.computer_plays or seat.user_id is None or seat.user_id in match.dm_failed:
                continue
            state = match.state
            assert state is not None
            if state is not decided:  # what LiveMatch.private_view gives, pending read once
                decided, decisions = state, {}
                for pending in state.pending():
                    decisions.setdefault(pending.seat, pending)
            decision = decisions.get(seat.seat)
            # A DM follows what is private: the hand, the seat's own decision and
            # whether it has chosen. Public changes are the table's business.
            key = (state.step if decision else None, state.has_chosen(seat.seat),
                   match.finished, state.private_part(seat.seat))
            if match.delivered.get(seat.seat) == key:
                continue
            view = match.view_of(state, seat.seat, decision, tuple(
                e for e in private if e.visible_to(seat.seat)) if private else ())
            if await self.transport.deliver_private(match, seat, view):
                match.delivered[seat.seat] = key
                continue
            match.dm_failed.add(seat.user_id)
            await self.store.closed_dms.mark_closed(seat.user_id, self.clock.now())
            await self.transport.notify(
                match,
                f"I can't send {seat.name} a direct message (their DMs are closed). "
                f"{seat.name}: use the **My hand** button on the table, or /hand.",
                mentions=[seat.user_id],
            )

    async def settle(self, match: LiveMatch | None = None) -> None:
        """Wait until every match's driver (or ``match``'s) has shown what changed
        and sleeps (tests, the local table, shutting down)."""
        if match is None:
            while self._busy:
                await self._all_asleep.wait()
            return
        driver = self._drivers.get(match.id)
        while driver is not None and driver.wake is None:
            watcher = asyncio.get_running_loop().create_future()
            driver.watchers.append(watcher)
            await watcher
            driver = self._drivers.get(match.id)

    async def close(self) -> None:
        """Stop every driver now, asleep or not (shutting down; :meth:`settle`
        first to let each show what changed). Whatever a driver had not
        committed yet is made again after a restart."""
        tasks = [driver.task for driver in self._drivers.values() if driver.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def repost(self, channel_id: int) -> LiveMatch:
        """Post the table again as a new message (``/table``)."""
        match = self.match_in(channel_id)
        async with match.lock:
            match.row.table_message_id = None
        self._schedule(match)
        return match
