"""Delivery: after each change, a match's driver plays the computer's moves and
then shows the result — the public table, each seat's private view (DM first,
``/hand`` as the fallback) — in a background task per match, so that a slow
Discord never delays an acknowledgement and two edits of one table never race."""

from __future__ import annotations

import asyncio
import logging
import time

from bot.errors import CannotPost, MovedOn
from bot.i18n import Phrase, Seat
from bot.matches.commit import MatchCore
from bot.matches.live import LiveMatch
from bot.matches.thinker import ThinkingFailed
from bot.matches.transport import ShowLater
from rules.core import Decision, Event, GameState

log = logging.getLogger(__name__)

FRESH_FOR = 1.0
"""Seconds a copy of a match is shown without asking the store whether another
process moved it (a copy is known current at each write and read of its own)."""
SHOW_AGAIN_AFTER: tuple[float, ...] = (1, 2, 4, 8, 15, 30, 60, 60)
"""Pauses before showing a match again after Discord failed for now (5xx, a rate
limit outlasting discord.py's waits, a timeout): about four minutes in all."""


class Delivery(MatchCore):
    """Each match's driver: computer moves, the table, the DMs."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._rerun: set[int] = set()
        self._closing = asyncio.Event()

    def _schedule(self, match: LiveMatch) -> None:
        """Make sure the match's driver runs: computer moves, then the table and DMs."""
        task = self._tasks.get(match.id)
        if task is not None and not task.done():
            self._rerun.add(match.id)
            return
        self._tasks[match.id] = asyncio.get_running_loop().create_task(
            self._drive(match), name=f"croupier-match-{match.id}")

    async def _drive(self, match: LiveMatch) -> None:
        failures = 0
        while True:
            self._rerun.discard(match.id)
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
                shown = await self._show(match)
            except MovedOn:
                # Another process moved the match first; it drives and shows it from
                # there (this process caught up, and drives it again on its next change).
                break
            except CannotPost as refused:
                # The channel is gone or closed to the bot: waiting will not help.
                log.warning("match %s: the table cannot be shown (%s)", match.id, refused)
                if match.finished and not match.last_shown:
                    await self._last_shown(match)
            except ThinkingFailed as failed:
                # Only a closing bot or a normal computer that cannot think: the
                # match waits for its next change or the restart's restore.
                log.warning("match %s: its computer player waits (%s)", match.id, failed.why)
            except Exception:
                log.exception("match %s: driving failed", match.id)
            else:
                # A finished match is shown again until its result and final views
                # are out (the store keeps it queued meanwhile, for a restart); any
                # other, for about four minutes, then with its next change.
                if not shown and (failures < len(SHOW_AGAIN_AFTER)
                                  or (match.finished and not match.last_shown)):
                    pause = SHOW_AGAIN_AFTER[min(failures, len(SHOW_AGAIN_AFTER) - 1)]
                    if await self._closing_within(pause):
                        break  # shown after the restart (see MatchService.restore)
                    failures += 1
                    continue
                if not shown:
                    log.warning("match %s: Discord kept failing; shown with the next change",
                                match.id)
                failures = 0
            if match.id not in self._rerun:
                break
        if self._tasks.get(match.id) is asyncio.current_task():
            del self._tasks[match.id]  # idle: the next change starts a new driver
        if match.finished or match.row.status in ("cancelled", "abandoned"):
            self._forget(match)

    async def _show(self, match: LiveMatch) -> bool:
        """Show what changed: the table, then the private views. ``False`` when
        Discord failed for now (:class:`ShowLater`) and it must be shown again.

        Where processes share the store, a copy this process has not known to be
        current for :data:`FRESH_FOR` (it was frozen, say) is checked first: if
        another process moved the match since, that one shows it, and nothing old
        is shown from here."""
        if (self.shared and time.monotonic() - match.known_at > FRESH_FOR
                and await self.store.matches.version_of(match.id) != match.row.version):
            return True
        async with match.showing:
            events, match.outbox = match.outbox, []
            shown = True
            try:
                message_id = await self.transport.publish(match, events)
            except ShowLater as failed:
                log.warning("match %s: the table is shown later (%s)", match.id, failed)
                shown = False
            else:
                if message_id is not None and message_id != match.row.table_message_id:
                    match.row.table_message_id = message_id
                    await self.store.matches.set_table_message(match.id, message_id)
                if match.finished and not match.result_shown:
                    await self._result_posted(match)
            if match.state is not None and match.info.has_secrets:
                shown = await self._deliver_private(match) and shown
            if shown and match.finished and not match.last_shown:
                await self._last_shown(match)
            return shown

    async def _dms_open(self, user_id: int) -> None:
        """A DM reached the player: a closed mark from an earlier match is stale."""
        if await self.store.closed_dms.closed_since(user_id) is not None:
            await self.store.closed_dms.mark_open(user_id)

    async def _result_posted(self, match: LiveMatch) -> None:
        """The final table and result are shown; final views by DM may be to come
        (the store remembers the result is out, so a restart does not post it again)."""
        match.result_shown = True
        if match.info.has_secrets:
            await self.store.matches.result_posted(match.id)

    async def _final_view_settled(self, match: LiveMatch, seat: int) -> None:
        """``seat``'s final view reached them, or cannot (closed DMs): the store
        remembers, so a restart does not send it again."""
        if seat not in match.final_views:
            match.final_views.add(seat)
            await self.store.matches.final_view_sent(match.id, seat)

    async def _last_shown(self, match: LiveMatch) -> None:
        """Everything of a finished match is out: it leaves the store's queue."""
        match.result_shown = match.last_shown = True
        await self.store.matches.result_shown(match.id)

    async def _deliver_private(self, match: LiveMatch) -> bool:
        """Each person's DM, where what is private to them changed; ``False`` if
        one failed for now (it is sent again on the next showing)."""
        private, match.private_outbox = match.private_outbox, []
        decided: GameState | None = None
        decisions: dict[int, Decision] = {}
        shown = True
        for seat in match.seats:
            if seat.computer_plays or seat.user_id is None or seat.seat in match.final_views:
                continue
            if seat.user_id in match.dm_failed:
                if match.finished:
                    await self._final_view_settled(match, seat.seat)
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
            try:
                reached = await self.transport.deliver_private(match, seat, view)
            except ShowLater as failed:
                log.warning("match %s: seat %s's DM is sent later (%s)", match.id, seat.seat,
                            failed)
                shown = False
                continue
            if reached:
                if seat.seat not in match.delivered:  # the seat's first DM of this match
                    await self._dms_open(seat.user_id)
                match.delivered[seat.seat] = key
                if match.finished:
                    await self._final_view_settled(match, seat.seat)
                continue
            match.dm_failed.add(seat.user_id)
            await self.store.closed_dms.mark_closed(seat.user_id, self.clock.now())
            if match.finished:
                await self._final_view_settled(match, seat.seat)
            try:
                await self.transport.notify(
                    match,
                    Event("dms-closed", Phrase("notice.dms_closed", who=Seat(seat.seat))),
                    mentions=[seat.user_id],
                )
            except ShowLater as failed:
                log.warning("match %s: the closed-DM notice was not posted (%s)", match.id,
                            failed)
        return shown

    async def _closing_within(self, seconds: float) -> bool:
        """Wait ``seconds``; ``True`` at once if the bot begins to close meanwhile."""
        try:
            await asyncio.wait_for(self._closing.wait(), seconds)
        except TimeoutError:
            return False
        return True

    async def wind_down(self) -> None:
        """The bot is closing: let showings under way finish, but wait for no pause
        before showing again (a finished match's result stays queued in the store)."""
        self._closing.set()
        await self.settle()

    async def settle(self) -> None:
        """Wait until every match's driver is idle (tests, the local table)."""
        while True:
            running = [t for t in self._tasks.values() if not t.done()]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)

    async def repost(self, channel_id: int) -> LiveMatch:
        """Post the table again as a new message (``/table``)."""
        match = self.match_in(channel_id)
        async with match.lock:
            match.row.table_message_id = None
        self._schedule(match)
        return match
