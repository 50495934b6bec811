"""The match service under load, against the SQLite ceiling of the same machine.

Everything runs on real SQLite files in a temporary directory, with
:class:`~bot.matches.transport.NullTransport` (nothing is shown, everyone is reached):

* **Ceilings, in the same run** — this machine's speed swings 2–3× from one
  hour to the next, so the service is measured against two ceilings taken in
  the same run, and those ratios gate ``make bench``:

  - *raw SQLite*: the stdlib :mod:`sqlite3` in a loop, one single-row
    ``INSERT`` and ``COMMIT`` per iteration, with the file settings of
    :mod:`storage.connection` (WAL, :data:`~storage.connection.SYNCHRONOUS`).
    The service's saturated rate at 1,000 matches must reach it (≥ 1.0).
  - *the rules core alone, same mix*: every choice the service committed in a
    saturated window, played again in the same order on copies of the same
    states by the rules core alone (:func:`rules_move`: check, copy, apply, the
    forced choices after it, outcome, next decisions), without the service,
    storage or asyncio. Its time over the window's is the share of the
    service's time that is the game itself (≥ 0.6). The replay ends on every
    live match's state as the service has it, or the benchmark fails.

  Context beside them: :meth:`MatchRepository.record` alone with 1,000
  concurrent writers (the service's persistence path without the service),
  and each game's rules core over whole seeded random games.
* **Load** — 1,000 (then 10,000) concurrent matches in one process, an even mix
  of Flank, Eclipse and Hammer & Nails with their default options, every seat a
  simulated person (distinct users open a lobby, join and start). The process
  runs as the bot's does: the deadline task alongside, and
  :func:`bot.matches.service.tune_gc` once the matches exist. Each Nails match first
  plays a seeded number of choices, so the load meets Nails at every stage of
  its games and not only openings (it grows dearer as its stack grows). Then
  one player task per match submits a seeded legal choice for a pending seat
  with a fresh interaction id, awaiting ``service.submit``. A match that ends
  is replaced by a new one in a new channel.

  *Saturated*: each task submits again as soon as the service acknowledges, for
  a fixed wall time: the most the service commits per second. With every match
  always waiting on the service, latency there is queueing (Little's law: about
  matches ÷ rate), so it is shown without a target.

  *Paced*: the same matches, but offered a steady rate spread over the
  matches, each match on its own schedule: the committed rate and the latency
  of ``service.submit``, from the call to the acknowledgement. First at 110 %
  of the spec's rate (2,750 choices/s; absolute, reported), then at shares
  of the saturated rate of the same run (:data:`PACED_SHARES`, highest first):
  the highest share committed in full within the latency target gates.
* **Beside a hard computer** — the same 1,000 matches, paced at
  :data:`BESIDE_SHARE` of the saturated rate, in windows taken in turn without
  and with a game of Flank's ``hard`` computer against itself thinking alongside
  through :class:`~bot.matches.thinker.Thinker`, one decision after another, as the bot
  would think it. The ratio of the two p99 latencies (with ÷ without, medians of
  :data:`BESIDE_PAIRS` windows each) gates: a search must not slow the other
  matches.
* **Recovery** — 1,000 unfinished matches with a few choices each: from opening
  a new :class:`~storage.Store` and :class:`~bot.matches.service.MatchService` until
  ``restore()`` has rebuilt all of them and one choice on each is acknowledged.
* **Memory** — resident set growth per active match, one game at a time, each in
  a fresh subprocess.

Run it alone with ``python -m bench service``.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bench.figures import Figure, median_of, percentile, run_alone
from bot.matches.deadlines import run_deadlines
from bot.matches.live import LiveMatch, Player
from bot.matches.service import MatchService, tune_gc
from bot.matches.thinker import Thinker
from bot.matches.transport import NullTransport
from rules.core import Decision, GameInfo, GameState, thinking_rng
from rules.registry import get_game
from storage import Store
from storage.connection import SYNCHRONOUS
from storage.models import ChoiceRow, SeatRow

GROUP = "service"
SEED = 20_240_601
GUILD = 1
GAMES: tuple[str, ...] = ("flank", "eclipse", "nails")
"""The mix, each game with its default options and seat count."""
AGE = {"flank": 0, "eclipse": 0, "nails": 48}
"""Before the load, each match plays a seeded number of choices below this.
Nails' choices grow dearer as its stack grows over its ~48 choices; Eclipse's
cost hardly moves over a game, and Flank's games end within seconds anyway."""
MEMORY_GAMES: tuple[str, ...] = (*GAMES, "duel")
"""The games whose memory per active match is measured: the mix, and Arcane Duel
(not in the load mix, whose figures the hardening issue set)."""

RAW_RUNS = 5
RAW_SECONDS = 1.0
RECORD_WRITERS = 1_000
RECORD_SECONDS = 2.0
RULES_SECONDS = 1.5
LOAD_SMALL = 1_000
LOAD_LARGE = 10_000
SATURATED_RUNS = 9
SATURATED_SECONDS = 1.5
"""Saturated windows at 1,000 matches: short and many, each followed by the
rules core alone on its choices, so that the machine's speed, which drifts
over seconds here, is nearly the same for both halves of each pair."""
PACED_RUNS = 2
LARGE_RUNS = 2
WINDOW_SECONDS = 5.0
PACED_RATE = 2_750
"""Offered choices per second in the absolute paced runs: 110 % of the spec's
rate."""
PACED_SHARES = (0.8, 0.65, 0.5)
"""Paced load offered as shares of the same run's saturated rate, highest first,
for the highest the service carries in full within the latency target
(1,000 matches only)."""
CARRIED = 0.98
"""A paced window carries its load when it commits this share of what it offered."""
BESIDE_PAIRS = 6
"""Paced windows without, then with a hard computer game alongside, this many
times each, in turn: many short windows, so that the medians hold when the
machine's speed drifts (it hits both kinds alike)."""
BESIDE_SECONDS = 2.5
BESIDE_SHARE = 0.5
"""The paced load beside the hard game, as a share of the same run's saturated
rate: the load the service must carry within the latency target."""
RECOVERY_MATCHES = 1_000
RECOVERY_CHOICES = 8
"""Choices made on each match before the restart."""
RECOVERY_RUNS = 3
MEMORY_MATCHES = 1_000
MEMORY_WARMUP = 50

TARGET_RAW_RATIO = 1.0
"""Saturated service ÷ raw SQLite, same run."""
TARGET_RULES_RATIO = 0.6
"""Rules core alone ÷ service on the same choices (service rate ÷ rules rate), same run."""
TARGET_SHARE = 0.5
"""The paced load carried within the latency target, as a share of the same run's
saturated rate."""
TARGET_RATE = 2_500
TARGET_P99_MS = 25
TARGET_RECOVERY_S = 3
TARGET_MEMORY_KB = 100
TARGET_BESIDE_RATIO = 1.2
"""Paced p99 with a hard computer game thinking alongside ÷ without, same run."""


@contextmanager
def scratch() -> Iterator[Path]:
    """A temporary directory, removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix="croupier-bench-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


# -- ceilings ------------------------------------------------------------------------
def raw_commits_per_second(path: Path, seconds: float = RAW_SECONDS) -> float:
    """Single-row ``INSERT`` + ``COMMIT`` per second with the store's file settings."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
        conn.execute("CREATE TABLE IF NOT EXISTS choices (match_id INTEGER NOT NULL,"
                     " seq INTEGER NOT NULL, seat INTEGER NOT NULL, choice TEXT NOT NULL,"
                     " created_at TEXT NOT NULL, PRIMARY KEY (match_id, seq))")
        seq = conn.execute("SELECT COUNT(*) FROM choices").fetchone()[0]
        done = 0
        started = time.perf_counter()
        while True:
            for _ in range(100):
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("INSERT INTO choices VALUES (?, ?, ?, ?, ?)",
                             (seq % 1000, seq, seq % 2, "C4", "2024-06-01T12:00:00+00:00"))
                conn.execute("COMMIT")
                seq += 1
            done += 100
            elapsed = time.perf_counter() - started
            if elapsed >= seconds:
                return done / elapsed
    finally:
        conn.close()


async def records_per_second(path: Path, writers: int = RECORD_WRITERS,
                             seconds: float = RECORD_SECONDS) -> float:
    """:meth:`MatchRepository.record` of one choice per call, ``writers`` matches
    at once, each awaiting its commit before the next: committed calls per second."""
    store = await Store.open(path)
    try:
        ids = []
        for n in range(writers):
            seats = [SeatRow(0, 2 * n + 1, "a"), SeatRow(1, 2 * n + 2, "b")]
            match_id = await store.matches.create_lobby(
                game="flank", options={}, seed=n, guild_id=GUILD, channel_id=n, host_id=2 * n + 1,
                max_seats=2, seats=seats[:1])
            await store.matches.start(match_id, seats, time.time() + 300)
            ids.append(match_id)
        done = 0
        stop_at = time.perf_counter() + seconds

        async def writer(match_id: int) -> None:
            nonlocal done
            seq = 0
            while time.perf_counter() < stop_at:
                row = ChoiceRow(seq, seq % 2, "C4", "player", seq, f"w{match_id}-{seq}")
                await store.matches.record(match_id, [row], deadline_at=time.time() + 300)
                seq += 1
                done += 1

        started = time.perf_counter()
        await asyncio.gather(*(writer(match_id) for match_id in ids))
        return done / (time.perf_counter() - started)
    finally:
        await store.close()


def settle(state: GameState) -> GameState:
    """Make the forced choices of ``state`` (:attr:`Decision.forced`, as the
    service makes them), in place."""
    while not state.over:
        forced = [(d.seat, choice) for d in state.pending() if (choice := d.forced) is not None]
        if not forced:
            break
        for seat, choice in forced:
            state.apply(seat, choice, checked=True)
    return state


def left_to_people(state: GameState) -> list[Decision]:
    """The pending decisions someone must make (not the forced ones)."""
    return [d for d in state.pending() if d.forced is None]


def rules_move(state: GameState, seat: int, choice: str) -> GameState:
    """What the rules core does for one person's choice, without the service:
    check it, apply it to a copy, make the forced choices after it, and work out
    the outcome and the next decisions. Returns the new state."""
    canonical = state.canonical(seat, choice)
    after = state.copy()
    after.apply(seat, canonical, checked=True)
    settle(after)
    after.outcome()
    after.pending()
    return after


def rules_per_second(game: str, seconds: float = RULES_SECONDS) -> float:
    """The rules core alone (:func:`rules_move`), over whole seeded random games
    of ``game`` (context: each game's own speed)."""
    info = get_game(game)
    rng = random.Random(SEED)
    made, spent, deal = 0, 0.0, 0
    clock = time.perf_counter
    while spent < seconds:
        state = settle(info.new({}, info.default_seats, SEED + deal))
        deal += 1
        while not state.over:
            decision = rng.choice(left_to_people(state))
            choice = rng.choice(decision.options)
            started = clock()
            state = rules_move(state, decision.seat, choice)
            spent += clock() - started
            made += 1
    return made / spent


@dataclass
class Replay:
    """The choices the service committed in one window, to be played again by the
    rules core alone: each match's state when the window began (or when it was
    dealt), then every acknowledged choice in order."""

    starts: dict[int, GameState] = field(default_factory=dict)
    choices: list[tuple[int, int, str]] = field(default_factory=list)

    def watch(self, match: LiveMatch) -> None:
        """Start from ``match``'s state now (a copy: the service's is never changed)."""
        if match.state is not None:
            self.starts[match.id] = match.state.copy()

    def seconds(self, matches: Sequence[LiveMatch]) -> float:
        """The time the rules core alone takes for the same choices. Raises unless
        it ends where the service did, on each of ``matches`` still in play."""
        clock = time.perf_counter
        started = clock()
        # A new deal's forced choices come first (the service made them too).
        states = {match_id: settle(state) for match_id, state in self.starts.items()}
        spent = clock() - started
        for match_id, seat, choice in self.choices:
            started = clock()
            states[match_id] = rules_move(states[match_id], seat, choice)
            spent += clock() - started
        for match in matches:
            if match.playing and match.id in states:
                assert match.state is not None
                if states[match.id].notation() != match.state.notation():
                    raise RuntimeError(f"the rules core alone did not end where the service "
                                       f"did on match {match.id}")
        return spent


# -- building matches -----------------------------------------------------------------
@dataclass
class Users:
    """Hands out distinct user and channel ids."""

    next_user: int = 10_000
    next_channel: int = 1_000_000

    def player(self) -> Player:
        self.next_user += 1
        return Player(self.next_user, f"p{self.next_user}")

    def channel(self) -> int:
        self.next_channel += 1
        return self.next_channel


def game_of(n: int) -> str:
    """The game of the ``n``-th match of the mix."""
    return GAMES[n % len(GAMES)]


async def new_match(service: MatchService, users: Users, n: int,
                    game: str | None = None) -> LiveMatch:
    """An active match of the ``n``-th game of the mix (or of ``game``), every seat a
    person."""
    game = game or game_of(n)
    info = get_game(game)
    host = users.player()
    channel = users.channel()
    await service.open_lobby(host, guild_id=GUILD, channel_id=channel, game=game,
                             seed=SEED + n)
    for _ in range(info.default_seats - 1):
        await service.join(users.player(), channel)
    return await service.start(host, channel)


async def new_matches(service: MatchService, users: Users, numbers: range,
                      width: int = 100, game: str | None = None) -> list[LiveMatch]:
    """Active matches numbered ``numbers``, built ``width`` at a time."""
    made: list[LiveMatch] = []
    for start in range(numbers.start, numbers.stop, width * numbers.step):
        batch = range(start, min(start + width * numbers.step, numbers.stop), numbers.step)
        made += await asyncio.gather(*(new_match(service, users, n, game) for n in batch))
    await service.settle()
    return made


# -- simulated players ----------------------------------------------------------------
@dataclass
class Tally:
    """What the player tasks did during one measured window."""

    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    finished: int = 0


@dataclass
class Slot:
    """One concurrent match and its simulated people."""

    number: int
    match: LiveMatch
    rng: random.Random
    made: int = 0


def _pick(match: LiveMatch, rng: random.Random) -> tuple[int, str] | None:
    """A seeded legal choice for a pending seat the service leaves to a person:
    ``(user_id, choice)``, or ``None`` if only forced choices are pending."""
    state = match.state
    if state is None or not match.playing:
        return None
    open_ = left_to_people(state)
    if not open_:
        return None
    # ``random()`` rather than ``choice()``: the simulated people should cost
    # the benchmark little beside the service they load.
    decision = open_[int(rng.random() * len(open_))] if len(open_) > 1 else open_[0]
    user_id = match.seats[decision.seat].user_id
    assert user_id is not None
    options = decision.options
    return user_id, options[int(rng.random() * len(options))]


async def _idle(service: MatchService, match: LiveMatch) -> None:
    """Wait for the match's driver (forced choices) to finish."""
    task = service._tasks.get(match.id)
    if task is not None and not task.done():
        await asyncio.wait([task])
    else:
        await asyncio.sleep(0)


async def turn(service: MatchService, users: Users, slot: Slot, tag: str,
               tally: Tally, replay: Replay | None = None) -> bool:
    """One person's choice on the slot's match; ``False`` if there was none to make
    (a forced choice pending, or the match ended and was replaced). A ``replay``
    is told of each new deal and each acknowledged choice."""
    match = slot.match
    if match.finished or match.row.status != "active":
        tally.finished += 1
        slot.number += LOAD_LARGE * len(GAMES)  # same game, a new deal
        slot.match = await new_match(service, users, slot.number)
        if replay is not None:
            replay.watch(slot.match)
        return False
    picked = _pick(match, slot.rng)
    if picked is None:
        await _idle(service, match)
        return False
    user_id, choice = picked
    slot.made += 1
    started = time.perf_counter()
    try:
        ack = await service.submit(user_id, match.id, choice,
                                   interaction_id=f"{tag}-{slot.number}-{slot.made}")
    except Exception:
        tally.refused += 1
        return False
    tally.latencies.append(time.perf_counter() - started)
    if replay is not None:
        replay.choices.append((match.id, ack.seat, choice))
    return True


async def saturate(service: MatchService, users: Users, slot: Slot, tag: str,
                   stop_at: float, tally: Tally, *, limit: int | None = None,
                   replay: Replay | None = None) -> None:
    """Choices on the slot's match, each as soon as the last is acknowledged, until
    ``stop_at`` (or ``limit`` choices)."""
    made = 0
    while time.perf_counter() < stop_at and (limit is None or made < limit):
        made += await turn(service, users, slot, tag, tally, replay)


async def pace(service: MatchService, users: Users, slot: Slot, tag: str, first: float,
               interval: float, stop_at: float, tally: Tally) -> None:
    """Choices on the slot's match every ``interval`` seconds from ``first`` (at
    once when late), until ``stop_at``."""
    due = first
    while due < stop_at:
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        if await turn(service, users, slot, tag, tally):
            due += interval


@dataclass(frozen=True)
class Window:
    """One measured window of the load run."""

    rate: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    refused: int
    finished: int
    seconds: float
    rules_seconds: float | None = None
    """The rules core alone on the same choices (saturated windows)."""
    offered: float | None = None
    """Choices per second offered (paced windows)."""

    @property
    def rules_share(self) -> float:
        """The share of the window's time that the rules core alone needs for its
        choices: the service's rate over the rules core's on the same choices."""
        assert self.rules_seconds is not None
        return self.rules_seconds / self.seconds

    @property
    def carried(self) -> bool:
        """Whether a paced window committed what it was offered."""
        assert self.offered is not None
        return self.rate >= CARRIED * self.offered


def _window(tally: Tally, elapsed: float, **more: float | None) -> Window:
    ms = [s * 1000 for s in tally.latencies]
    return Window(rate=len(ms) / elapsed, p50_ms=percentile(ms, 50), p95_ms=percentile(ms, 95),
                  p99_ms=percentile(ms, 99), refused=tally.refused, finished=tally.finished,
                  seconds=elapsed, **more)


async def saturated(service: MatchService, users: Users, slots: list[Slot], tag: str,
                    seconds: float, *, replay: bool = False) -> Window:
    """Every slot's player as fast as the service accepts, for ``seconds``; with
    ``replay``, then the rules core alone on the same choices."""
    tally = Tally()
    again = Replay() if replay else None
    if again is not None:
        for slot in slots:
            again.watch(slot.match)
    started = time.perf_counter()
    stop_at = started + seconds
    await asyncio.gather(*(saturate(service, users, slot, tag, stop_at, tally, replay=again)
                           for slot in slots))
    elapsed = time.perf_counter() - started
    await service.settle()
    rules = None if again is None else again.seconds([slot.match for slot in slots])
    return _window(tally, elapsed, rules_seconds=rules)


async def paced(service: MatchService, users: Users, slots: list[Slot], tag: str,
                seconds: float, rate: float) -> Window:
    """``rate`` choices per second offered over all slots for ``seconds``."""
    tally = Tally()
    interval = len(slots) / rate
    phases = random.Random(f"{SEED}:{tag}")
    started = time.perf_counter()
    stop_at = started + seconds
    await asyncio.gather(*(pace(service, users, slot, tag, started + phases.random() * interval,
                                interval, stop_at, tally) for slot in slots))
    elapsed = max(time.perf_counter(), stop_at) - started
    await service.settle()
    return _window(tally, elapsed, offered=rate)


@dataclass
class Load:
    """The windows measured over one set of concurrent matches."""

    saturated: list[Window]
    paced: list[Window]
    aged: int
    shares: list[tuple[float, Window]] = field(default_factory=list)
    """The paced windows at shares of the saturated rate, highest share first."""
    beside: Beside | None = None
    """The paced windows without and with a hard computer game alongside."""

    @property
    def saturated_rate(self) -> float:
        """The median saturated rate."""
        return median_of([w.rate for w in self.saturated])

    @property
    def carried_share(self) -> tuple[float, Window] | None:
        """The highest share of the saturated rate carried within the latency target."""
        for share, window in self.shares:
            if window.carried and window.p99_ms <= TARGET_P99_MS:
                return share, window
        return None


async def load(directory: Path, matches: int, saturated_runs: int, paced_runs: int,
               seconds: float, shares: tuple[float, ...] = (), *,
               replay: bool = False, saturated_seconds: float | None = None,
               beside: int = 0) -> Load:
    """Saturated, then paced windows of ``seconds`` over ``matches`` concurrent
    matches; with ``replay``, each saturated window is played again by the rules
    core alone; with ``shares``, paced windows at those shares of the saturated
    rate follow, until one is carried within the latency target; with
    ``beside``, that many pairs of paced windows of :data:`BESIDE_SECONDS`
    without and with a hard computer game alongside (:func:`beside_hard`)."""
    store = await Store.open(directory / f"load-{matches}.sqlite3")
    deadlines: asyncio.Task[None] | None = None
    try:
        service = MatchService(store, NullTransport())
        deadlines = asyncio.create_task(run_deadlines(service))  # as the bot runs it
        users = Users()
        built = await new_matches(service, users, range(matches))
        slots = [Slot(n, match, random.Random(SEED * 7 + n)) for n, match in enumerate(built)]
        aging = Tally()
        await asyncio.gather(*(
            saturate(service, users, slot, "age", float("inf"), aging,
                     limit=slot.rng.randrange(AGE[game_of(slot.number)] or 1))
            for slot in slots))
        await service.settle()
        tune_gc()  # as the bot does once its matches are restored
        await saturated(service, users, slots, "warm", 1.0)
        hot = [await saturated(service, users, slots, f"sat{i}", saturated_seconds or seconds,
                               replay=replay)
               for i in range(saturated_runs)]
        steady = [await paced(service, users, slots, f"paced{i}", seconds, PACED_RATE)
                  for i in range(paced_runs)]
        got = Load(hot, steady, len(aging.latencies))
        for share in shares:
            window = await paced(service, users, slots, f"share{share:g}", seconds,
                                 share * got.saturated_rate)
            got.shares.append((share, window))
            if got.carried_share is not None:
                break
        if beside:
            got.beside = await beside_hard(service, users, slots, beside, BESIDE_SECONDS,
                                           BESIDE_SHARE * got.saturated_rate)
        return got
    finally:
        if deadlines is not None:
            deadlines.cancel()
        await store.close()


# -- beside a hard computer -------------------------------------------------------------
@dataclass
class Beside:
    """Paced windows without (``quiet``) and with (``busy``) a hard computer game
    alongside, and that game's decisions: seconds each, from the ask to the answer."""

    player: str
    quiet: list[Window] = field(default_factory=list)
    busy: list[Window] = field(default_factory=list)
    decisions: list[float] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        """The median p99 with the hard game over the median p99 without."""
        return (median_of([w.p99_ms for w in self.busy])
                / median_of([w.p99_ms for w in self.quiet]))


async def think_alongside(thinker: Thinker, info: GameInfo, stop: asyncio.Event,
                          decisions: list[float]) -> None:
    """Games of ``info``'s ``hard`` computer against itself, one decision after
    another through ``thinker``, until ``stop`` is set (the decision under way
    is finished)."""
    seed = SEED
    while not stop.is_set():
        state = info.new({}, 2, seed)
        while state.outcome() is None and not stop.is_set():
            for decision in state.pending():
                choice = decision.forced
                if choice is None:
                    started = time.perf_counter()
                    choice = await thinker.choose(info, "hard", state, decision.seat,
                                                  thinking_rng(seed, state.step, decision.seat))
                    decisions.append(time.perf_counter() - started)
                state.apply(decision.seat, choice)
        seed += 1


async def beside_hard(service: MatchService, users: Users, slots: list[Slot], pairs: int,
                      seconds: float, rate: float) -> Beside:
    """``pairs`` paced windows of ``rate`` without, then with a hard Flank game
    thinking alongside, in turn."""
    info = get_game("flank")
    got = Beside("Flank's hard computer")
    thinker = Thinker()
    try:
        opening = info.new({}, 2, SEED)  # the pool starts before the windows
        await thinker.choose(info, "hard", opening, opening.pending()[0].seat,
                             random.Random(SEED))
        for i in range(pairs):
            got.quiet.append(await paced(service, users, slots, f"quiet{i}", seconds, rate))
            stop = asyncio.Event()
            game = asyncio.create_task(think_alongside(thinker, info, stop, got.decisions))
            got.busy.append(await paced(service, users, slots, f"busy{i}", seconds, rate))
            stop.set()
            await game
        return got
    finally:
        thinker.close()


def _beside_figures(got: Beside) -> list[Figure]:
    """The paced p99 without and with a hard computer game alongside, and their ratio."""
    quiet = median_of([w.p99_ms for w in got.quiet])
    busy = median_of([w.p99_ms for w in got.busy])
    offered = got.quiet[0].offered or 0.0
    thought = sorted(got.decisions)
    return [
        Figure(GROUP, "1,000 matches, paced: submit p99, nothing else thinking", quiet, "ms",
               note=f"{offered:,.0f}/s offered ({BESIDE_SHARE:g} of saturated); median of "
                    f"{len(got.quiet)} × {got.quiet[0].seconds:.1f} s"),
        Figure(GROUP, "1,000 matches, paced: submit p99, a hard Flank game alongside", busy,
               "ms", note=f"{got.player}; {len(thought)} decisions in the windows, "
                          f"p50 {1000 * percentile(thought, 50):.0f} ms, "
                          f"max {1000 * max(thought, default=0.0):.0f} ms"),
        Figure(GROUP, "paced p99 beside a hard Flank game ÷ without (same run)", got.ratio,
               "ratio", "<=", TARGET_BESIDE_RATIO,
               f"{busy:.1f} ÷ {quiet:.1f} ms; windows in turn, without then with"),
    ]


# -- recovery -------------------------------------------------------------------------
async def prepare_recovery(path: Path) -> int:
    """A store with ``RECOVERY_MATCHES`` unfinished matches, a few choices each."""
    store = await Store.open(path)
    try:
        service = MatchService(store, NullTransport())
        users = Users()
        built = await new_matches(service, users, range(RECOVERY_MATCHES))
        slots = [Slot(n, match, random.Random(SEED * 11 + n)) for n, match in enumerate(built)]
        tally = Tally()
        await asyncio.gather(*(saturate(service, users, slot, "pre", float("inf"), tally,
                                        limit=RECOVERY_CHOICES) for slot in slots))
        for slot in slots:  # a game that ended is dealt again: all of them unfinished
            while slot.match.finished:
                slot.number += LOAD_LARGE * len(GAMES)
                slot.match = await new_match(service, users, slot.number)
        await service.settle()
        return sum(1 for m in service.live_matches() if m.playing)
    finally:
        await store.close()


async def recover(path: Path) -> tuple[float, int]:
    """Seconds from opening the store to one acknowledged choice on every restored
    match, and how many were restored."""
    started = time.perf_counter()
    store = await Store.open(path)
    try:
        service = MatchService(store, NullTransport())
        restored = await service.restore()
        tune_gc()
        rngs = {m.id: random.Random(SEED * 13 + m.id) for m in restored}

        async def one(match: LiveMatch) -> None:
            while True:
                picked = _pick(match, rngs[match.id])
                if picked is None:
                    await _idle(service, match)
                    continue
                await service.submit(picked[0], match.id, picked[1],
                                     interaction_id=f"after-{match.id}")
                return

        await asyncio.gather(*(one(m) for m in restored))
        elapsed = time.perf_counter() - started
        await service.settle()
        return elapsed, len(restored)
    finally:
        await store.close()


# -- memory ---------------------------------------------------------------------------
def rss_bytes() -> int:
    """The process's resident set size now."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def _memory(game: str, directory: Path) -> dict[str, float]:
    store = await Store.open(directory / f"memory-{game}.sqlite3")
    try:
        service = MatchService(store, NullTransport())
        users = Users()
        # Imports, caches and SQLite's page cache warm first.
        await new_matches(service, users, range(MEMORY_WARMUP), game=game)
        gc.collect()
        before = rss_bytes()
        await new_matches(service, users, range(MEMORY_WARMUP, MEMORY_WARMUP + MEMORY_MATCHES),
                          game=game)
        gc.collect()
        after = rss_bytes()
        playing = sum(1 for m in service.live_matches() if m.playing and m.info.name == game)
        return {"per_match": (after - before) / MEMORY_MATCHES, "playing": playing}
    finally:
        await store.close()


def memory_child(game: str) -> None:
    """Entry point of the memory subprocess: prints its figures as JSON."""
    with scratch() as directory:
        print(json.dumps(asyncio.run(_memory(game, directory))))


def memory_per_match(game: str) -> dict[str, float]:
    """Resident bytes per active match of ``game``, measured in a fresh interpreter."""
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(
        [sys.executable, "-c", f"from bench.service import memory_child; memory_child({game!r})"],
        cwd=root, check=True, capture_output=True, text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


# -- the run --------------------------------------------------------------------------
def _load_figures(label: str, got: Load, *, targets: bool = True) -> list[Figure]:
    """The load run's figures; the spec's targets are for 1,000 matches only, and
    reported there without gating (absolute speeds)."""
    hot, steady = got.saturated, got.paced
    rate_target = (">=", TARGET_RATE) if targets else (None, None)
    p99_target = ("<=", TARGET_P99_MS) if targets else (None, None)
    refused = sum(w.refused for w in hot + steady)
    replaced = sum(w.finished for w in hot + steady)
    return [
        Figure(GROUP, f"{label}, saturated: committed choices/s", got.saturated_rate,
               "choices/s", *rate_target,
               f"median of {len(hot)} × {hot[0].seconds:.1f} s after {got.aged:,} ageing "
               f"choices; {refused} refused, {replaced} ended matches replaced", gates=False),
        Figure(GROUP, f"{label}, saturated: submit p50", median_of([w.p50_ms for w in hot]),
               "ms", note="queueing: every match always waits on the service"),
        Figure(GROUP, f"{label}, saturated: submit p99", median_of([w.p99_ms for w in hot]),
               "ms"),
        Figure(GROUP, f"{label}, paced: committed choices/s",
               median_of([w.rate for w in steady]), "choices/s", *rate_target,
               f"{PACED_RATE:,}/s offered; median of {len(steady)} × {WINDOW_SECONDS:g} s",
               gates=False),
        Figure(GROUP, f"{label}, paced: submit p50", median_of([w.p50_ms for w in steady]),
               "ms"),
        Figure(GROUP, f"{label}, paced: submit p95", median_of([w.p95_ms for w in steady]),
               "ms"),
        Figure(GROUP, f"{label}, paced: submit p99", median_of([w.p99_ms for w in steady]),
               "ms", *p99_target, gates=False),
    ]


def _ratio_figures(got: Load, raw: float) -> list[Figure]:
    """The same-run ratios that gate: the service against raw SQLite, against the
    rules core alone, and the paced load it carries as a share of its saturated rate."""
    hot = got.saturated
    shares = [w.rules_share for w in hot]
    replayed = sum(round(w.rate * w.seconds) for w in hot)
    rules_time = sum(w.rules_seconds or 0.0 for w in hot)
    carried = got.carried_share
    tried = ", ".join(f"{share:g} → p99 {w.p99_ms:.1f} ms, {w.rate / w.offered:.0%} committed"
                      for share, w in got.shares if w.offered)
    if carried is None:
        share_note = f"none carried within p99 {TARGET_P99_MS} ms: {tried}"
    else:
        window = carried[1]
        share_note = (f"{window.offered:,.0f}/s offered, {window.rate:,.0f}/s committed, "
                      f"p50 {window.p50_ms:.1f} ms, p99 {window.p99_ms:.1f} ms (tried {tried})")
    return [
        Figure(GROUP, "service ÷ raw SQLite (1,000 matches, saturated)",
               got.saturated_rate / raw, "ratio", ">=", TARGET_RAW_RATIO,
               f"{got.saturated_rate:,.0f} ÷ {raw:,.0f} per second, same run"),
        Figure(GROUP, "service ÷ rules core alone (same choices)", median_of(shares), "ratio",
               ">=", TARGET_RULES_RATIO,
               f"median of {len(hot)} windows; the rules core alone replayed their "
               f"{replayed:,} choices at {replayed / rules_time:,.0f}/s"),
        Figure(GROUP, f"paced within p99 {TARGET_P99_MS} ms, share of saturated",
               0.0 if carried is None else carried[0], "ratio", ">=", TARGET_SHARE, share_note),
    ]


def run() -> list[Figure]:
    """Every figure of the service benchmark."""
    thresholds = gc.get_threshold()
    try:
        return _run()
    finally:
        gc.set_threshold(*thresholds)  # other benchmarks of the run keep Python's own


def _run() -> list[Figure]:
    figures: list[Figure] = []
    with scratch() as directory:
        raw = median_of([raw_commits_per_second(directory / f"raw-{i}.sqlite3")
                         for i in range(RAW_RUNS)])
        recorded = asyncio.run(records_per_second(directory / "record.sqlite3"))
        rules = {game: rules_per_second(game) for game in GAMES}
        small = asyncio.run(load(directory, LOAD_SMALL, SATURATED_RUNS, PACED_RUNS,
                                 WINDOW_SECONDS, PACED_SHARES, replay=True,
                                 saturated_seconds=SATURATED_SECONDS, beside=BESIDE_PAIRS))
        figures += _ratio_figures(small, raw)
        figures += [
            Figure(GROUP, "raw SQLite INSERT+COMMIT/s", raw, "commits/s",
                   note=f"WAL, synchronous={SYNCHRONOUS}; "
                        f"median of {RAW_RUNS} × {RAW_SECONDS:g} s"),
            Figure(GROUP, "record() alone, 1,000 concurrent matches", recorded, "commits/s",
                   note=f"{recorded / raw:.2f} × raw: the service's persistence path"),
            *(Figure(GROUP, f"rules core alone, whole {game} games", rate, "choices/s",
                     note="seeded random games from the first choice")
              for game, rate in rules.items()),
        ]
        figures += _load_figures("1,000 matches", small)
        assert small.beside is not None
        figures += _beside_figures(small.beside)
        large = asyncio.run(load(directory, LOAD_LARGE, LARGE_RUNS, LARGE_RUNS,
                                 WINDOW_SECONDS))
        figures += _load_figures("10,000 matches", large, targets=False)

        template = directory / "recovery.sqlite3"
        playing = asyncio.run(prepare_recovery(template))
        times, counts = [], []
        for i in range(RECOVERY_RUNS):
            copy = directory / f"recovery-{i}.sqlite3"
            shutil.copyfile(template, copy)
            elapsed, restored = asyncio.run(recover(copy))
            times.append(elapsed)
            counts.append(restored)
        if min(counts) != playing:
            raise RuntimeError(f"restored {counts} matches, expected {playing}")
        figures.append(Figure(
            GROUP, f"recovery of {playing:,} matches", median_of(times), "s", "<=",
            TARGET_RECOVERY_S, f"{RECOVERY_CHOICES} choices each; open + restore() + one "
            f"choice on each; median of {RECOVERY_RUNS}"))

    for game in MEMORY_GAMES:
        got = memory_per_match(game)
        figures.append(Figure(GROUP, f"memory per active {game} match", got["per_match"] / 1024,
                              "KB", "<=", TARGET_MEMORY_KB,
                              f"RSS growth over {MEMORY_MATCHES:,} matches in a fresh process"))
    return figures


if __name__ == "__main__":
    raise SystemExit(run_alone(run))
