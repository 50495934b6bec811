"""Deadlines: the warning before each decision's deadline, the computer choosing
for a late player (with a strike, or the decision's own default without one),
and the background task that wakes the service when one is due."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Sequence

from bot.errors import MovedOn, NoMatchHere
from bot.i18n import Phrase, Seat
from bot.matches.commit import MatchCore, Move
from bot.matches.live import LiveMatch
from rules.core import RESIGN, Event
from storage.models import SeatRow

log = logging.getLogger(__name__)

MAX_STRIKES = 3
OVERDUE = 5.0
"""Seconds past its deadline after which a match is taken up by any process sharing
the store (the one that moved it last has died or is frozen): before that, the
processes that have it cached expire it."""
SCAN_EVERY = 5.0
"""Seconds between two looks at the store for overdue matches (shared store only)."""
ADOPT_AT_ONCE = 50
"""Most overdue matches one look takes up."""


class Deadlines(MatchCore):
    """Warnings and expiries of pending decisions."""

    def next_due(self) -> float | None:
        """When :meth:`tick` next has something to do (a warning or a deadline)."""
        return min((due for m in self._live.values() if (due := self._due(m)) is not None),
                   default=None)

    async def tick(self) -> None:
        """Warn and expire whatever is due at the clock's current time."""
        now = self.clock.now()
        for match in list(self._live.values()):
            deadline = match.row.deadline_at
            if not match.playing or deadline is None:
                continue
            try:
                if now >= deadline:
                    await self._expire(match)
                elif not match.row.warned and now >= deadline - self._warn_lead(match):
                    await self._warn(match)
            except MovedOn:
                # Another process moved it first (and so expired or warned it, or
                # moved it on): caught up, it is due again only on its new deadline.
                continue

    async def adopt_overdue(self) -> int:
        """Where processes share the store: take up the matches whose deadline
        passed :data:`OVERDUE` seconds ago, their process having died or frozen
        (read from the store, or caught up), so that :meth:`tick` expires them.
        Exactly one process's expiry is stored: each is a write that moves the
        match (:meth:`moving`). Returns how many were taken up."""
        if not self.shared:
            return 0
        taken = 0
        for match_id in await self.store.matches.overdue(self.clock.now() - OVERDUE,
                                                          ADOPT_AT_ONCE):
            try:
                await self.current(match_id)
            except NoMatchHere:  # ended meanwhile
                continue
            taken += 1
        return taken

    async def _warn(self, match: LiveMatch) -> None:
        async with match.lock:
            if match.row.warned or not match.playing:
                return
            await self.moving(match, lambda version: self.store.matches.set_deadline(
                match.id, match.row.deadline_at, True, version=version))
            match.row.warned = True
            late = match.humans_pending()
        if late:
            left = max(0, round((match.row.deadline_at or 0) - self.clock.now()))
            await self.transport.notify(
                match, Event("deadline", Phrase("notice.deadline", count=left,
                                                who=_listed([s.seat for s in late]))),
                mentions=[s.user_id for s in late if s.user_id is not None],
            )

    async def _expire(self, match: LiveMatch) -> None:
        """The deadline passed: for each late seat the decision's default is
        taken, or the computer chooses; a strike is recorded where the decision
        counts one, and the third strike forfeits the seat.

        Each choice is worked out on the state as it is when it is made, and the
        forfeits come last: a forfeit moves the game on (a three-seat hand goes
        on without the seat), and a choice worked out before it could be one the
        game no longer asks for."""
        notes: list[Event] = []
        async with match.lock:
            deadline = match.row.deadline_at
            if not match.playing or deadline is None or self.clock.now() < deadline:
                return
            assert match.state is not None
            late = match.humans_pending()
            if not late:
                # Only computer seats are pending: their driver is on it. Push the
                # deadline on so the deadline task does not wake for it again.
                deadline = self._deadline(match, self.clock.now())
                await self.moving(match, lambda version: self.store.matches.set_deadline(
                    match.id, deadline, False, version=version))
                match.row.deadline_at = deadline
                self._schedule(match)
                return
            seats = _seat_copies(match)
            step = match.state.step
            forfeits = [s.seat for s in late if self._forfeits(match, seats[s.seat])]
            for seat in (s.seat for s in late if s.seat not in forfeits):
                # Every late seat's choice is held within one step; a step that
                # moved on asks new decisions, each with a deadline of its own.
                if match.finished or match.state.step != step:
                    break
                decision = match.state.decision_for(seat)
                if decision is None:
                    continue
                if decision.strike:
                    seats[seat].strikes += 1
                choice = (decision.default if decision.default is not None
                          else await self._think(match, seat))
                await self._commit(match, [Move(seat, choice, "auto")], seats=seats)
                seats = _seat_copies(match)
                if decision.strike:
                    notes.append(Event("timeout", Phrase(
                        "notice.timeout.strike", who=Seat(seat), strikes=seats[seat].strikes,
                        most=MAX_STRIKES)))
                else:
                    notes.append(Event("timeout", Phrase("notice.timeout.usual",
                                                         who=Seat(seat))))
            for seat in forfeits:
                if match.finished:
                    break
                seats[seat].strikes += 1
                seats[seat].state = "forfeited"
                await self._commit(match, [Move(seat, RESIGN, "resign")], seats=seats)
                seats = _seat_copies(match)
                notes.append(Event("timeout", Phrase("notice.timeout.forfeit",
                                                     who=Seat(seat))))
        for note in notes:
            await self.transport.notify(match, note)
        self._schedule(match)

    @staticmethod
    def _forfeits(match: LiveMatch, seat: SeatRow) -> bool:
        """Whether running out of time now is ``seat``'s third strike."""
        assert match.state is not None
        decision = match.state.decision_for(seat.seat)
        return (decision is not None and decision.strike
                and seat.strikes + 1 >= MAX_STRIKES)


def _listed(seats: Sequence[int]) -> Phrase | Seat:
    """Seats named one after another, with commas between, as one phrase's argument."""
    if len(seats) == 1:
        return Seat(seats[0])
    return Phrase("options.list", first=Seat(seats[0]), rest=_listed(seats[1:]))


def _seat_copies(match: LiveMatch) -> list[SeatRow]:
    """The match's seats as copies to change: the live ones change only once stored."""
    return [SeatRow(**vars(s)) for s in match.seats]


async def run_deadlines(service: Deadlines) -> None:
    """Sleep until the next due time (or until deadlines change), then tick. Runs forever.
    Where processes share the store, it also looks for overdue matches every
    :data:`SCAN_EVERY` seconds."""
    looked = -math.inf
    while True:
        if service.shared and service.clock.now() - looked >= SCAN_EVERY:
            looked = service.clock.now()
            try:
                await service.adopt_overdue()
            except Exception:
                log.exception("looking for overdue matches failed")
        service.deadlines_changed.clear()
        due = service.next_due()
        if service.shared:
            due = min(due if due is not None else math.inf, looked + SCAN_EVERY)
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
