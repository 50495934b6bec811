"""The thinker: slow computer decisions in worker processes, the event loop free
meanwhile, nothing left running after close().

The players here are module-level functions, so that a worker process (a fresh
interpreter) can import them by name; the test game is Flank's rules with these
players as its levels.
"""

from __future__ import annotations

import asyncio
import ctypes
import dataclasses
import functools
import itertools
import multiprocessing
import os
import pickle
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.matches.thinker import LEAST_SHARE, Thinker, ThinkingFailed, gauge_share
from rules import thinking
from rules.core import BotPlayer, GameInfo, GameState, thinking_rng
from rules.registry import get_game, shipped_games
from rules.thinking import clock, counting_clock

TICK = 0.02
"""Seconds the counting clock moves on each reading (as the honest-play test's)."""


def _pid(state: GameState, seat: int, rng: random.Random) -> str:
    """Answers with the process it thought in."""
    return str(os.getpid())


def _scheduled(state: GameState, seat: int, rng: random.Random) -> str:
    """Answers with the scheduling policy it thought under."""
    return str(os.sched_getscheduler(0))


def _clocked(state: GameState, seat: int, rng: random.Random) -> str:
    """A stand-in search: thinks until half a second of the thinking clock is
    spent; its answer shows how many readings that took, and its random numbers."""
    started = clock()
    readings = 0
    while clock() - started < 0.5:
        readings += 1
    return f"{readings}:{rng.random()}"


def _holds_the_interpreter(state: GameState, seat: int, rng: random.Random) -> str:
    """A decision that holds the interpreter lock for 0.4 s, as a long stretch
    of pure-Python search does between its switches (``PyDLL`` keeps the lock
    through the call)."""
    ctypes.PyDLL(None).usleep(400_000)
    return "held"


def _burns(state: GameState, seat: int, rng: random.Random) -> str:
    """A ``normal`` player slower than expected: 80 ms of CPU."""
    started = time.thread_time()
    while time.thread_time() - started < 0.08:
        pass
    return str(os.getpid())


def _dies(parent: int, mark: str, always: bool, state: GameState, seat: int,
          rng: random.Random) -> str:
    """Kills its worker process the first time, or every time if ``always``
    (given its first three arguments by :func:`functools.partial`)."""
    if os.getpid() == parent:
        raise RuntimeError("it thought in the bot's own process")
    if Path(mark).exists() and not always:
        return "survived"
    Path(mark).touch()
    os._exit(1)


def _thinking_clock(state: GameState, seat: int, rng: random.Random) -> str:
    """Answers with the kind of clock it thinks by."""
    return type(thinking._CLOCK.get()).__name__


def _sleeps(state: GameState, seat: int, rng: random.Random) -> str:
    """A decision that takes far too long."""
    time.sleep(30)
    return "slept"


def _game(name: str = "thinker-test", normal: BotPlayer | None = None,
          **levels: BotPlayer) -> GameInfo:
    """Flank's rules with these players as its levels (a game the workers do not
    know by name: its players travel pickled)."""
    flank = get_game("flank")
    return dataclasses.replace(flank, name=name, bot=normal or flank.bot, levels=levels)


def _position() -> tuple[GameState, int]:
    state = get_game("flank").new({}, 2, 7)
    return state, state.pending()[0].seat


@pytest.fixture(scope="module")
def thinker() -> Iterator[Thinker]:
    """One thinker for the module's tests (a worker starts in some 0.3 s), thinking
    by a counting clock; the tests that close theirs make their own. Its workers
    think at the test's priority: idle ones would wait for the other busy tests
    (the policy is tested on its own)."""
    made = Thinker(processes=1, clock=functools.partial(counting_clock, TICK), idle=False)
    try:
        yield made
    finally:
        made.close()


async def test_hard_thinks_in_another_process_easy_in_a_thread(thinker: Thinker) -> None:
    info = _game(hard=_pid, easy=_pid)
    state, seat = _position()
    here = str(os.getpid())
    assert await thinker.choose(info, "hard", state, seat, random.Random(1)) != here
    assert await thinker.choose(info, "easy", state, seat, random.Random(1)) == here


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="no idle scheduling here")
async def test_workers_think_on_what_the_rest_leaves_of_the_cores(thinker: Thinker) -> None:
    state, seat = _position()
    idle = Thinker(processes=1)
    try:
        policy = await idle.choose(_game(hard=_scheduled), "hard", state, seat, random.Random(1))
    finally:
        idle.close()
    assert int(policy) == os.SCHED_IDLE
    # the tests' own thinker works at their priority
    assert int(await thinker.choose(_game(hard=_scheduled), "hard", state, seat,
                                    random.Random(1))) != os.SCHED_IDLE


async def test_idle_workers_think_by_a_paced_clock_the_tests_by_theirs(
        thinker: Thinker) -> None:
    state, seat = _position()
    idle = Thinker(processes=1)
    try:
        paced = await idle.choose(_game(hard=_thinking_clock), "hard", state, seat,
                                  random.Random(1))
    finally:
        idle.close()
    assert paced == "Pacing"
    assert await thinker.choose(_game(hard=_thinking_clock), "hard", state, seat,
                                random.Random(1)) == "function"  # the counting clock


def _burn(seconds: float) -> None:
    started = time.thread_time()
    while time.thread_time() - started < seconds:
        pass


async def test_the_workers_share_falls_while_the_bot_is_busy_and_comes_back() -> None:
    share = multiprocessing.get_context("spawn").Value("d", 1.0, lock=False)
    gauge = asyncio.create_task(gauge_share(share))
    try:
        await asyncio.to_thread(_burn, 0.35)  # the bot's own CPU, in a thread of it
        busy = share.value
        await asyncio.sleep(0.35)
        rested = share.value
    finally:
        gauge.cancel()
    assert LEAST_SHARE <= busy < 0.9
    assert rested > 0.9


async def test_a_pooled_decision_equals_the_same_decision_made_here(thinker: Thinker) -> None:
    """The worker thinks by the clock it is given (a counting one: repeatable)
    with the same state and random numbers as this process would."""
    state, seat = _position()
    pooled = await thinker.choose(_game(hard=_clocked), "hard", state, seat, random.Random(5))
    with counting_clock(TICK):
        here = _clocked(state.copy(), seat, random.Random(5))
    assert pooled == here
    readings, drawn = pooled.split(":")
    assert int(readings) < 30, "the worker thought by the real clock"
    assert float(drawn) == random.Random(5).random()


def _hard_games() -> list[str]:
    return sorted(name for name, info in shipped_games().items() if "hard" in info.levels)


@pytest.mark.parametrize("name", _hard_games() or [pytest.param("none", marks=pytest.mark.skip(
    reason="no game has its hard level yet"))])
async def test_every_games_hard_decision_is_the_same_in_the_pool(
        thinker: Thinker, name: str) -> None:
    info = shipped_games()[name]
    decks = info.decks
    setup = [{"deck": decks[seat % len(decks)]} for seat in range(2)] if decks else None
    state = info.new({}, 2, 3, setup)
    chooser = random.Random(3)
    made = 0
    while made < 6 or not (open_ := [d for d in state.pending()
                                     if d.forced is None and len(d.options) > 1]):
        for decision in state.pending():  # a few choices in, to a real choice
            state.apply(decision.seat, decision.forced or chooser.choice(decision.options))
            made += 1
    seat = open_[0].seat
    rng = thinking_rng(3, state.step, seat)
    pooled = await thinker.choose(info, "hard", state, seat, pickle.loads(pickle.dumps(rng)))
    with counting_clock(TICK):
        assert pooled == info.computer("hard")(state.copy(), seat, rng)


async def test_the_event_loop_keeps_ticking_while_a_slow_decision_runs(
        thinker: Thinker) -> None:
    info = _game(hard=_holds_the_interpreter)
    state, seat = _position()
    await thinker.choose(_game(hard=_pid), "hard", state, seat, random.Random(1))  # pool up
    ticks: list[float] = []

    async def ticker() -> None:
        while True:
            ticks.append(time.perf_counter())
            await asyncio.sleep(0.01)

    ticking = asyncio.create_task(ticker())
    started = time.perf_counter()
    try:
        assert await thinker.choose(info, "hard", state, seat, random.Random(1)) == "held"
    finally:
        ticking.cancel()
    assert time.perf_counter() - started >= 0.4
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    assert len(ticks) > 10 and max(gaps) < 0.2, f"the loop stood still {max(gaps):.2f} s"


async def test_a_game_seen_to_think_slowly_in_a_thread_moves_to_the_pool(
        thinker: Thinker) -> None:
    info = _game("thinker-slow", normal=_burns)
    state, seat = _position()
    here = str(os.getpid())
    assert await thinker.choose(info, "normal", state, seat, random.Random(1)) == here
    assert await thinker.choose(info, "normal", state, seat, random.Random(1)) != here


async def test_a_decision_whose_worker_dies_is_made_again(thinker: Thinker,
                                                          tmp_path: Path) -> None:
    mark = tmp_path / "died"
    info = _game(hard=functools.partial(_dies, os.getpid(), str(mark), False))
    state, seat = _position()
    got = await asyncio.wait_for(thinker.choose(info, "hard", state, seat, random.Random(1)), 30)
    assert got == "survived" and mark.exists()


async def test_a_level_whose_worker_keeps_dying_gets_normals_choice_rather_than_hang(
        thinker: Thinker, tmp_path: Path) -> None:
    info = _game(normal=_pid, hard=functools.partial(_dies, os.getpid(),
                                                     str(tmp_path / "died"), True))
    state, seat = _position()
    got = await asyncio.wait_for(thinker.choose(info, "hard", state, seat, random.Random(1)), 30)
    assert got == str(os.getpid()) and (tmp_path / "died").exists()  # normal, in a thread
    # and the thinker goes on: the next decision gets a new pool
    assert await thinker.choose(_game(hard=_pid), "hard", state, seat,
                                random.Random(1)) != str(os.getpid())


async def test_normal_whose_worker_keeps_dying_fails_clearly_rather_than_hang(
        thinker: Thinker, tmp_path: Path) -> None:
    died = functools.partial(_dies, os.getpid(), str(tmp_path / "died"), True)
    pooled = Thinker(processes=1, pool_levels=frozenset({"normal"}), idle=False)
    try:
        with pytest.raises(ThinkingFailed) as failed:
            await asyncio.wait_for(pooled.choose(_game(normal=died), "normal", *_position(),
                                                 random.Random(1)), 30)
    finally:
        pooled.close()
    assert "moderators" in str(failed.value) and "died" in failed.value.why


async def test_close_leaves_no_process_and_refuses_more() -> None:
    closing = Thinker(processes=2, idle=False)
    info = _game(hard=_pid)
    state, seat = _position()
    pids = set(map(int, await asyncio.gather(*(
        closing.choose(info, "hard", state, seat, random.Random(n)) for n in range(2)))))
    assert pids <= {child.pid for child in multiprocessing.active_children()}
    closing.close()
    assert not {child.pid for child in multiprocessing.active_children()} & pids
    with pytest.raises(ThinkingFailed):
        await closing.choose(info, "hard", state, seat, random.Random(1))


async def test_close_ends_the_decisions_running_and_waiting_at_once() -> None:
    closing = Thinker(processes=1, idle=False)
    info = _game(hard=_sleeps)
    state, seat = _position()
    await closing.choose(_game(hard=_pid), "hard", state, seat, random.Random(1))  # pool up
    asked = [asyncio.create_task(closing.choose(info, "hard", state, seat, random.Random(n)))
             for n in range(2)]  # one running, one waiting for the only worker
    await asyncio.sleep(0.1)
    started = time.perf_counter()
    closing.close()
    for task in asked:
        with pytest.raises(ThinkingFailed):
            await asyncio.wait_for(task, 10)
    assert time.perf_counter() - started < 5


@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_every_games_state_and_thinking_rng_pickle(name: str) -> None:
    """What a worker is sent: the state (at several points of a game) and the
    computer's random numbers come back the same, and the computer chooses alike."""
    info = shipped_games()[name]
    decks = info.decks
    setup = [{"deck": decks[seat % len(decks)]} for seat in range(2)] if decks else None
    state = info.new({}, 2, 11, setup)
    chooser = random.Random(11)
    checked = 0
    while state.outcome() is None and checked < 40:
        decisions = state.pending()
        back = pickle.loads(pickle.dumps(state))
        assert back.notation() == state.notation()
        open_ = [d for d in decisions if d.forced is None]
        if open_ and checked % 8 == 0:
            seat, rng = open_[0].seat, thinking_rng(11, state.step, open_[0].seat)
            assert info.bot(back, seat, pickle.loads(pickle.dumps(rng))) == info.bot(
                state.copy(), seat, rng)
        for decision in decisions:
            state.apply(decision.seat, decision.forced or chooser.choice(decision.options))
        checked += 1
