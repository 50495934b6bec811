"""The match service: every lobby and match of the process.

Every change follows one path (:mod:`bot.matches.commit`): take the match's lock,
validate with the rules core on a copy of the state, commit the choices to
SQLite, swap the copy in, and only then acknowledge. The service is put
together from parts with one reason to change each:

* :mod:`bot.matches.lobby` — open, join, leave, start, cancel, kick;
* :mod:`bot.matches.submissions` — people's choices and forfeits;
* :mod:`bot.matches.deadlines` — warnings, expiries and strikes;
* :mod:`bot.matches.delivery` — computer moves, then the table and the DMs;

and here, recovery at start-up and the garbage collector's settings.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable
from functools import partial

from bot.matches.commit import Ack, Move, Timing
from bot.matches.deadlines import MAX_STRIKES, Deadlines
from bot.matches.delivery import Delivery
from bot.matches.live import RECENT, LiveMatch
from bot.matches.lobby import BOT_NAMES, Lobby
from bot.matches.submissions import Submissions
from rules.core import GameInfo
from rules.registry import get_game

__all__ = ["BOT_NAMES", "GC_THRESHOLDS", "MAX_STRIKES", "Ack", "MatchService", "Move",
           "Timing", "tune_gc"]

log = logging.getLogger(__name__)

GC_THRESHOLDS = (200, 1, 30_000)
"""Young collections small and frequent, each young survivor promoted after one
middle-generation collection, and a full collection only after 30,000 of those.
Measured at 2,750 moves/s over 1,000 matches: pauses of at most about 1 ms
(with (700, 3, 3000): 5–20 ms) and the least collector time of the settings
tried."""


def tune_gc() -> None:
    """Tune the garbage collector for many live matches. The bot calls this once
    at start-up, after :meth:`MatchService.restore`.

    Every move swaps a new copy of the match's state in, and the copy lives until
    the match's next move, so nearly every young object a collection looks at
    survives it (none were garbage in our measurements). Young collections are
    then pure pause, growing with how many survivors they meet: kept small and
    frequent, each about 1 ms. Under Python's default thresholds a full
    collection also came every second or so under load, walking every object of
    every live match (0.1 s for 1,000 matches, 1 s for 10,000) with the event
    loop stopped; with these it comes every few minutes under that load. Garbage
    is still freed at once by reference counting; only reference cycles that
    reach the oldest generation wait longer.

    The full collection that starts from a clean heap is made once a process: a bot
    started again in the same process (tests restart bots by the hundred, in a heap
    of everything they made) would walk every object for nothing.
    """
    global _COLLECTED
    if not _COLLECTED:
        gc.collect()
        _COLLECTED = True
    gc.set_threshold(*GC_THRESHOLDS)


_COLLECTED = False
"""Whether :func:`tune_gc` made its start-up collection in this process."""


class MatchService(Lobby, Submissions, Deadlines, Delivery):
    """Runs every lobby and match of the process."""

    async def wind_down(self) -> None:
        """The service stops: showings under way finish (see
        :meth:`Delivery.wind_down`), then its thinker stops, leaving nothing running."""
        try:
            await super().wind_down()
        finally:
            self.thinker.close()

    async def restore(self, owns: Callable[[int | None], bool] | None = None
                      ) -> list[LiveMatch]:
        """Rebuild every unfinished match from its log and re-arm its deadline; show
        the final tables and results that were not shown before the bot stopped.

        ``owns`` tells which servers' matches are this process's to restore (a
        cluster's, by its shards: docs/clusters.md); by default, every one. The
        others' processes restore theirs, and any process takes up an overdue one."""
        restored = []
        now = self.clock.now()
        for row in await self.store.matches.unfinished():
            if owns is not None and not owns(row.guild_id):
                continue
            try:
                info = get_game(row.game)
                match = LiveMatch(row=row, info=info)
                await self._load_guild_timing(match)
                if row.status == "active":
                    log_rows = await self._replay_log(match)
                    match.recent_interactions.extend(
                        c.interaction_id for c in log_rows[-RECENT:] if c.interaction_id)
                    if match.state.over:
                        raise RuntimeError("log ends in a finished game without a result")
                    grace = now + self.timing.restart_grace
                    if row.deadline_at is not None and row.deadline_at < grace:
                        await self.moving(match, partial(self.store.matches.set_deadline,
                                                         row.id, grace, False))
                        row.deadline_at = grace
                        row.warned = False
            except Exception:
                log.exception("match %s could not be restored; marking it abandoned", row.id)
                await self.store.matches.set_status(row.id, "abandoned")
                continue
            self._register(match)
            restored.append(match)
        self.deadlines_changed.set()
        for match in restored:
            if match.playing:
                self._schedule(match)
        for match in await self._results_to_show(owns):
            self._schedule(match)
        return restored

    async def _results_to_show(self, owns: Callable[[int | None], bool] | None
                               ) -> list[LiveMatch]:
        """Finished matches whose final table, result or final views were not all
        shown before the bot stopped: back in memory (not holding their channels)
        to show the rest, the table narrating the game's last events again."""
        queued = []
        for row in await self.store.matches.results_to_show():
            if owns is not None and not owns(row.guild_id):
                continue
            try:
                match = LiveMatch(row=row, info=get_game(row.game), finished=True)
                await self._replay_log(match)
                shown = await self.store.matches.final_showing(row.id)
                match.result_shown = shown.result_posted
                match.final_views = set(shown.views_sent)
            except Exception:
                log.exception("match %s: its result could not be rebuilt to be shown", row.id)
                await self.store.matches.result_shown(row.id)
                continue
            self._register(match, holds_channel=False)
            queued.append(match)
        return queued

    def game(self, name: str) -> GameInfo:
        """A game by name (for commands that show rules)."""
        return get_game(name)
