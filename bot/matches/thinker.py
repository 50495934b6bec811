"""Where computer players think: off the event loop, so a search never stalls the bot.

The match service asks :meth:`Thinker.choose` for a computer seat's choice. The
choice is worked out on a copy of the state, away from the event loop, with the
computer's own random numbers, so the game it thinks about is never the one in
play.

*Where* depends on how long the decision takes. A thread of this process would
do for a quick one, but a pure-Python search holds the interpreter lock while
it runs: every other match's choices wait behind it, and the event loop's tail
latency grows with each searching computer. So:

* ``hard`` decisions (:data:`POOL_LEVELS`), and those of any game and level
  already seen to take longer than :data:`SLOW_SECONDS` of CPU in a thread, run
  in a pool of worker processes. The pool starts at the first such decision (a
  bot whose tables never meet ``hard`` never starts one), in *spawn* mode: a
  fresh interpreter, never a fork of this process and its threads, event loop
  and open database. Its workers run only on what everything else leaves of the
  cores (:data:`IDLE`): when the cores are short, a search thinking by the
  clock (:mod:`rules.thinking`) sees fewer positions, rather than the other
  matches waiting. Idle priority alone is not enough where the cores are
  shared with other machines (a virtual machine's): a worker that never stops
  still slowed the other matches' slowest answers 1.4–1.8×, at any priority.
  So a worker also *rests*: while the bot's own process is busy, its searches
  think only a share of the time (:func:`share_left`, :class:`Pacing`), in
  bursts of :data:`BURST_SECONDS`, and see fewer positions for it.
* ``easy`` and ``normal`` decisions (a few milliseconds) run in a thread.

A worker that dies (killed, out of memory) breaks the pool: the decisions in
it are tried once more on a new pool; then the game's ``normal`` computer makes
the decision in a thread instead, so that the match goes on rather than hang
(``normal`` itself, or a closed thinker, fails with :class:`ThinkingFailed`,
a value the service can show).
:meth:`Thinker.close` stops the pool and leaves no process behind.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager, nullcontext, suppress
from typing import Any

from bot.errors import CroupierError
from bot.i18n import Text
from rules.core import DEFAULT_LEVEL, BotPlayer, GameInfo, GameState
from rules.registry import get_game, shipped_games
from rules.thinking import use_clock

log = logging.getLogger(__name__)

POOL_LEVELS = frozenset({"hard"})
"""Levels that always think in the process pool: they search by the clock."""
SLOW_SECONDS = 0.05
"""CPU seconds past which a decision made in a thread sends its game and level
to the pool from then on. The slowest ``normal`` decisions (a board game's
search) take about 25 ms; a thread costs other matches little below this."""
MAX_WORKERS = 4
"""At most this many worker processes, however many cores there are."""
IDLE = getattr(os, "SCHED_IDLE", None)
"""The workers' scheduling policy where there is one (Linux): they run only on
what everything else leaves of the cores, so a search never slows a match (a
search by the clock sees fewer positions instead)."""
NICE = 19
"""Where there is no such policy, the lowest priority instead."""
RETRIES = 1
"""New pools a decision is tried on after its worker died, before it fails."""
KILL_AFTER = 2.0
"""Seconds a worker has to stop when told to, before it is killed."""
BURST_SECONDS = 0.001
"""The longest a worker thinks before it rests, while the bot is busy."""
LEAST_SHARE = 0.05
"""The least share of its time a worker thinks however busy the bot is: a
decision still ends by its clock, having seen a twentieth of the positions."""
GIVE_WAY = 4.0
"""How much of its time a worker gives up for each share of a core the bot's
process uses: from a quarter of a core the workers think the least share.
Measured beside 1,000 paced matches (docs/performance.md): workers thinking a
fifth of the time or more still raised their p99 by a fifth or more; a
twentieth, by a tenth (1.11), and a fiftieth not at all (0.89)."""
GAUGE_SECONDS = 0.1
"""How often the bot's own CPU use is read to set the workers' share."""

ClockSetter = Callable[[], AbstractContextManager[object]]
"""What a decision thinks under, ``with`` around each decision wherever it runs:
e.g. ``functools.partial(rules.thinking.counting_clock, 0.02)`` makes a search
repeatable. Must pickle, to reach the worker processes."""


class ThinkingFailed(CroupierError):
    """A computer player's decision could not be made (its worker process kept
    dying, or the thinker is closed); ``why`` says which, for the log."""

    def __init__(self, why: str) -> None:
        super().__init__(Text("error.thinking_failed"))
        self.why = why


def workers() -> int:
    """Worker processes for the pool: one a core this process may use, at most
    :data:`MAX_WORKERS`. Where workers run idle (:data:`IDLE`) they take no core
    from the event loop; elsewhere one core is left to it."""
    cores = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
             else os.cpu_count() or 1)
    return max(1, min(MAX_WORKERS, cores if IDLE is not None else cores - 1))


def share_left(cpu_seconds: float, wall_seconds: float) -> float:
    """The share of its time a worker may think, when the bot's process used
    ``cpu_seconds`` of CPU (all its threads) over ``wall_seconds``: all of it when
    the bot is idle, less by :data:`GIVE_WAY` for each share of a core the bot
    uses, at least :data:`LEAST_SHARE`.

    >>> share_left(0.0, 0.1), share_left(0.0125, 0.1), share_left(0.3, 0.1)
    (1.0, 0.5, 0.05)
    """
    if wall_seconds <= 0:
        return 1.0
    used = cpu_seconds / wall_seconds
    return min(1.0, max(LEAST_SHARE, 1.0 - GIVE_WAY * used))


class Pacing:
    """A thinking clock (:data:`rules.thinking.Clock`) for a worker: the real
    time, read as usual, except that after each burst of :data:`BURST_SECONDS` of
    thinking it rests long enough that thinking takes only ``share()`` of the
    time. A search stops by the real time all the same: it sees fewer positions.

    >>> now = [0.0]
    >>> rests = []
    >>> def rest(seconds):
    ...     rests.append(seconds)
    ...     now[0] += seconds
    >>> paced = Pacing(lambda: 0.25, now=lambda: now[0], rest=rest)
    >>> now[0] = 0.0005; paced()     # within the burst: no rest
    0.0005
    >>> now[0] = 0.003; paced()      # 3 ms of thinking, then 9 ms of rest
    0.012
    >>> [round(r, 6) for r in rests]
    [0.009]
    """

    def __init__(self, share: Callable[[], float], *,
                 now: Callable[[], float] = time.perf_counter,
                 rest: Callable[[float], None] = time.sleep) -> None:
        self._share = share
        self._now = now
        self._rest = rest
        self._since = now()

    def __call__(self) -> float:
        now = self._now()
        thought = now - self._since
        if thought >= BURST_SECONDS:
            share = self._share()
            if share < 1.0:
                self._rest(thought * (1.0 - share) / share)
                now = self._now()
            self._since = now
        return now


_SHARE: Any = None
"""In a worker: the share of its time it may think, set by the bot
(a :class:`multiprocessing.Value` of a double), or ``None``."""


def _worker_starts(share: Any = None) -> None:
    """Each worker process's start: it yields the cores to everything else,
    and thinks only the ``share`` of the time that the bot sets."""
    global _SHARE
    _SHARE = share
    if IDLE is not None:
        with suppress(OSError):  # not allowed here: the lowest priority instead
            os.sched_setscheduler(0, IDLE, os.sched_param(0))
            return
    with suppress(OSError):  # not allowed either: think at the bot's priority
        os.nice(NICE)


def _decide_pickled(job: bytes) -> str:
    """A decision in a worker process: ``job`` is :meth:`Thinker._job`'s pickle.
    A shipped game's player is looked up by name here (any player the game has,
    a closure too); another game's player came pickled."""
    game, level, player, state, seat, rng, clock = pickle.loads(job)
    if player is None:
        player = get_game(game).computer(level)
    if clock is not None:
        thinking: AbstractContextManager[object] = clock()
    elif _SHARE is not None:
        share = _SHARE
        thinking = use_clock(Pacing(lambda: share.value))
    else:
        thinking = nullcontext()
    with thinking:
        return player(state, seat, rng)


def _decide_timed(player: BotPlayer, state: GameState, seat: int, rng: random.Random,
                  clock: ClockSetter | None) -> tuple[str, float]:
    """A decision in a thread, and the CPU seconds it took that thread."""
    started = time.thread_time()
    with clock() if clock is not None else nullcontext():
        choice = player(state, seat, rng)
    return choice, time.thread_time() - started


class Thinker:
    """Runs computer players' decisions off the event loop: in a thread, or in a
    pool of worker processes for slow ones (see the module's description)."""

    def __init__(self, *, processes: int | None = None,
                 pool_levels: frozenset[str] = POOL_LEVELS,
                 clock: ClockSetter | None = None, idle: bool = True) -> None:
        """``processes``: the pool's size (default :func:`workers`); ``pool_levels``:
        the levels that always think in the pool; ``clock``: what every decision
        thinks under (tests: a counting clock), in a thread and in a worker alike;
        ``idle``: the workers yield the cores to everything else (``False``: they
        think at the bot's priority, as tests beside other busy tests need to)."""
        self._idle = idle
        self._processes = processes or workers()
        self._pool_levels = pool_levels
        self._clock = clock
        self._pool: ProcessPoolExecutor | None = None
        self._share: Any = None
        self._gauge: asyncio.Task[None] | None = None
        self._slow: set[tuple[str, str]] = set()
        self._closed = False

    async def choose(self, info: GameInfo, level: str, state: GameState, seat: int,
                     rng: random.Random) -> str:
        """The ``level`` computer's choice for ``seat`` in ``state`` (left untouched).

        A level whose worker processes keep dying gets ``normal``'s choice instead.
        Raises :class:`~rules.errors.BadOptions` for an unknown level and
        :class:`ThinkingFailed` when the decision cannot be made; a player's own
        error is raised as it is."""
        player = info.computer(level)
        if self._closed:
            raise ThinkingFailed("the thinker is closed")
        key = (info.name, level)
        if level in self._pool_levels or key in self._slow:
            job = self._job(info, level, player, state, seat, rng)
            if job is not None:
                try:
                    return await self._in_pool(job)
                except ThinkingFailed as failed:
                    if self._closed or level == DEFAULT_LEVEL:
                        raise
                    # The match goes on with a weaker move rather than wait on a
                    # pool that keeps dying (out of memory, say).
                    log.warning("%s %s: %s; its %s computer chooses instead, in a thread",
                                info.name, level, failed.why, DEFAULT_LEVEL)
                    player, key = info.computer(DEFAULT_LEVEL), (info.name, DEFAULT_LEVEL)
        choice, spent = await asyncio.to_thread(_decide_timed, player, state.copy(), seat,
                                                rng, self._clock)
        if spent > SLOW_SECONDS and key not in self._slow:
            log.info("%s %s took %.0f ms in a thread: it thinks in the process pool from now",
                     info.name, level, spent * 1000)
            self._slow.add(key)
        return choice

    def _job(self, info: GameInfo, level: str, player: BotPlayer, state: GameState,
             seat: int, rng: random.Random) -> bytes | None:
        """The decision as the pool takes it, pickled now, on the caller's thread:
        the live state may change as soon as the caller awaits. ``None`` if it
        does not pickle (a test's game, say): it thinks in a thread instead."""
        shipped = shipped_games().get(info.name) is info
        try:
            return pickle.dumps((info.name, level, None if shipped else player, state, seat,
                                 rng, self._clock), pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            log.warning("%s %s cannot think in the process pool (%s): a thread instead",
                        info.name, level, exc)
            return None

    async def _in_pool(self, job: bytes) -> str:
        """``job``'s choice from the pool, tried on a new pool if a worker died."""
        for attempt in range(RETRIES + 1):
            pool = self._pool_now()
            try:
                return await asyncio.wrap_future(pool.submit(_decide_pickled, job))
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if self._closed and task is not None and not task.cancelling():
                    # close() cancelled the decision, not our caller
                    raise ThinkingFailed("the thinker is closed") from None
                raise
            except BrokenProcessPool:
                log.warning("a thinking process died (attempt %d of %d)", attempt + 1,
                            RETRIES + 1)
                self._drop(pool)
            except RuntimeError:
                if self._closed:  # closed while this decision waited to be sent
                    raise ThinkingFailed("the thinker is closed") from None
                raise
        raise ThinkingFailed(f"its thinking process died {RETRIES + 1} times")

    def _pool_now(self) -> ProcessPoolExecutor:
        """The pool, started now if there is none (the first slow decision)."""
        if self._closed:
            raise ThinkingFailed("the thinker is closed")
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            if self._idle and self._share is None:
                self._share = context.Value("d", 1.0, lock=False)
                self._gauge = asyncio.get_running_loop().create_task(
                    gauge_share(self._share), name="thinker-gauge")
            self._pool = ProcessPoolExecutor(
                max_workers=self._processes, mp_context=context,
                initializer=_worker_starts if self._idle else None,
                initargs=(self._share,) if self._idle else ())
        return self._pool

    def _drop(self, pool: ProcessPoolExecutor) -> None:
        """Forget a broken pool (once, however many of its decisions failed)."""
        if self._pool is pool:
            self._pool = None
            _stop(pool)

    def close(self) -> None:
        """Stop thinking: nothing is left running after this. The workers are
        stopped at once; the decisions they were making or had waiting fail with
        :class:`ThinkingFailed`, and so do any asked for later."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            _stop(pool)
        task, self._gauge = self._gauge, None
        if task is not None:
            with suppress(RuntimeError):  # its loop is closed already: it is gone with it
                task.cancel()


async def gauge_share(share: Any) -> None:
    """Set the workers' ``share`` (:func:`share_left`) from this process's CPU use,
    every :data:`GAUGE_SECONDS`, until cancelled."""
    cpu, wall = time.process_time(), time.perf_counter()
    while True:
        await asyncio.sleep(GAUGE_SECONDS)
        cpu_now, wall_now = time.process_time(), time.perf_counter()
        share.value = share_left(cpu_now - cpu, wall_now - wall)
        cpu, wall = cpu_now, wall_now


def _stop(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down now and make sure none of its processes outlives this call."""
    # The executor's own list of its processes (CPython's; there is no public way
    # before 3.14's terminate_workers): a worker asked politely would finish its
    # decision first, and a stuck one would never go.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(KILL_AFTER)
        if process.is_alive():
            process.kill()
            process.join()
    # The executor's own thread joins the same processes: if it reaped one first,
    # our join saw no exit status and the process is still counted among this
    # process's children until that thread is done (dead, but not yet forgotten).
    if manager is not None:
        manager.join(KILL_AFTER)
