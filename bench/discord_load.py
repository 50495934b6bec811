"""Interaction latency under load, through the real discord.py client.

The real :class:`~bot.discord_side.client.CroupierBot` runs against the fake Discord of the test
suite (REST and gateway on 127.0.0.1, see ``tests/fakediscord``). Each of 100 channels
gets a Flank match against the computer (``/play flank vs_bot:true``); then users
fire ``/rules game:flank`` and ``/hand`` (both answered ephemerally, neither posts a
table) at a fixed 200 per second, spread round-robin over the 100 channels, for 30
seconds: 6,000 interactions. Sends follow the schedule, never waiting for replies.

Each interaction's latency runs from the fake dispatching INTERACTION_CREATE on the
gateway (:attr:`FakeInteraction.created_at`, when the frame is queued for the socket) to
the fake receiving the bot's interaction callback,
``POST /interactions/{id}/{token}/callback`` (:attr:`FakeInteraction.callback_at`).
Discord drops interactions not acknowledged within 3 s, and so does the fake. ``/hand``
answers with the seat's select menus, so every other reply carries a view.

As in the end-to-end tests, the run counts as clean only without ERROR logs from
discord.py, asyncio or Croupier, without requests the fake refused or does not know, and
with every reply being what the command should answer.

Note that the fake, the load generator and the bot share one process and one event loop
here, so the fake's own work (building payloads, parsing the bot's requests) is part of
every measured latency: the figures are an upper bound for the bot alone. So are its
garbage-collection pauses, which grow with everything alive in the process; the fake keeps
every interaction and message for tests to inspect, so here it forgets each one once
answered and checked (:meth:`FakeDiscord.forget_interaction`), as Discord's state lives
elsewhere. What the *bot* keeps alive still counts, as it should.

Run it with ``python -m bench discord_load`` (or ``python -m bench.discord_load``).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import tempfile
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import pytest

from bench.figures import Figure, percentile, run_alone
from tests.e2e import ERROR_LOGGERS, make_bot
from tests.fakediscord import (
    CHANNEL_MESSAGE_WITH_SOURCE,
    FakeChannel,
    FakeDiscord,
    FakeInteraction,
    FakeUser,
    InteractionResult,
    LogCapture,
    NetworkGuard,
    WaitTimeout,
)

GROUP = "discord_load"
CHANNELS = 100
RATE = 200.0
"""Interactions per second."""
SECONDS = 30.0
WARMUP_SECONDS = 1.0
"""A short run at the same rate first, not measured (first calls, caches)."""
ACK_DEADLINE = 3.0
"""Discord's limit for the initial response to an interaction."""
DRAIN_SECONDS = ACK_DEADLINE + 2.0
"""How long after the last send to wait for answers before counting the rest unanswered."""
P99_TARGET_MS = 50.0


@dataclass(frozen=True)
class Send:
    """One scheduled interaction."""

    user: FakeUser
    channel: FakeChannel
    command: str
    options: dict[str, str] = field(default_factory=dict)


@dataclass
class Outcome:
    """What one timed run produced (kept compact: the fake forgets answered interactions)."""

    sent: int = 0
    first_dispatch: float = float("inf")
    last_dispatch: float = float("-inf")
    latencies_ms: list[float] = field(default_factory=list)
    """Dispatch to callback of every answered interaction."""
    answered_in_time: int = 0
    """Acknowledged (callback accepted) within :data:`ACK_DEADLINE`."""
    lag_ms: list[float] = field(default_factory=list)
    """How late each send was against its schedule."""
    wrong: list[str] = field(default_factory=list)
    """Replies that are not what the command answers, and sends that failed."""

    @property
    def answered(self) -> int:
        return len(self.latencies_ms)

    @property
    def send_rate(self) -> float:
        span = self.last_dispatch - self.first_dispatch
        return (self.sent - 1) / span if self.sent > 1 and span > 0 else float("nan")

    def record(self, send: Send, inter: FakeInteraction) -> None:
        """Count one interaction, answered or not."""
        if inter.callback_at is not None:
            latency = inter.callback_at - inter.created_at
            self.latencies_ms.append(latency * 1000.0)
            if inter.acked and latency <= ACK_DEADLINE:
                self.answered_in_time += 1
        if (problem := check_reply(send, inter)) is not None:
            self.wrong.append(problem)


def plan(players: list[tuple[FakeUser, FakeChannel]], count: int) -> list[Send]:
    """``count`` sends round-robin over the channels, alternating ``/rules`` and ``/hand``
    (with 100 channels, each channel sees both commands in turn)."""
    sends = []
    for n in range(count):
        user, channel = players[n % len(players)]
        if (n // len(players)) % 2 == 0:
            sends.append(Send(user, channel, "rules", {"game": "flank"}))
        else:
            sends.append(Send(user, channel, "hand"))
    return sends


def check_reply(send: Send, inter: FakeInteraction) -> str | None:
    """Why the answer to ``send`` is wrong, or ``None``."""
    if inter.response_type is None:
        return None  # unanswered: counted separately
    message = inter.original
    if inter.response_type != CHANNEL_MESSAGE_WITH_SOURCE or message is None:
        return f"/{send.command} in #{send.channel.name}: callback type {inter.response_type}"
    if not message.ephemeral:
        return f"/{send.command} in #{send.channel.name}: reply is not ephemeral"
    title = message.embeds[0].get("title", "") if message.embeds else ""
    expected = "How to play Flank" if send.command == "rules" else "your view"
    if expected not in title:
        return f"/{send.command} in #{send.channel.name}: unexpected reply {message.text[:80]!r}"
    return None


async def fire(fake: FakeDiscord, sends: list[Send], rate: float) -> Outcome:
    """Send on a fixed schedule, each send its own task so none waits for a reply, and
    count the answers as they come: answered interactions are checked, counted, then
    forgotten by the fake (see the module docstring)."""
    loop = asyncio.get_running_loop()
    outcome = Outcome()
    in_flight: dict[FakeInteraction, Send] = {}
    tasks: set[asyncio.Task[InteractionResult]] = set()

    def sent(send: Send, due: float, task: asyncio.Task[InteractionResult]) -> None:
        tasks.discard(task)
        if task.cancelled() or task.exception() is not None:
            outcome.wrong.append(f"/{send.command} in #{send.channel.name} was not sent: "
                                 f"{task.exception()!r}")
            return
        inter = task.result().interaction
        in_flight[inter] = send
        outcome.sent += 1
        outcome.first_dispatch = min(outcome.first_dispatch, inter.created_at)
        outcome.last_dispatch = max(outcome.last_dispatch, inter.created_at)
        outcome.lag_ms.append((inter.created_at - due) * 1000.0)

    def harvest(final: bool = False) -> None:
        now = loop.time()
        for inter, send in list(in_flight.items()):
            # A callback the fake refused (too late) never sets acked: give it a moment.
            done = inter.acked or (inter.callback_at is not None and now - inter.callback_at > 1)
            if done or final:
                outcome.record(send, inter)
                del in_flight[inter]
                fake.forget_interaction(inter)
        fake.requests.clear()

    async def harvester() -> None:
        while True:
            await asyncio.sleep(0.2)
            harvest()

    collecting = asyncio.create_task(harvester())
    try:
        start = loop.time() + 0.05
        for n, send in enumerate(sends):
            due = start + n / rate
            delay = due - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            task = asyncio.create_task(fake.slash(send.user, send.channel, send.command,
                                                  wait=False, **send.options))
            task.add_done_callback(partial(sent, send, due))
            tasks.add(task)
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(WaitTimeout):
            await fake.wait_for(lambda: not in_flight, DRAIN_SECONDS,
                                description="answers to every interaction",
                                fail_on_bot_error=False)
    finally:
        collecting.cancel()
        await asyncio.gather(collecting, return_exceptions=True)
    harvest(final=True)
    return outcome


async def measure(database: Path) -> tuple[Outcome, list[str], dict[str, float]]:
    """Set up the fake and the bot, open the matches, run the load; returns the outcome,
    the problems seen (error logs, refused or unknown requests) and setup timings."""
    capture = LogCapture(loggers=ERROR_LOGGERS)
    capture.install()
    fake = FakeDiscord()
    await fake.start()
    timings: dict[str, float] = {}
    try:
        with fake.patched():
            guild = fake.add_guild("Load", channels=[f"table-{n:03d}" for n in range(CHANNELS)])
            channels = [fake.channel(f"table-{n:03d}") for n in range(CHANNELS)]
            players = [(fake.add_user(f"Player {n:03d}", guild=guild), channel)
                       for n, channel in enumerate(channels)]
            bot = make_bot(database)
            async with fake.running(bot, timeout=30.0):
                started = time.perf_counter()
                for user, channel in players:
                    opened = await fake.slash(user, channel, "play flank", vs_bot=True,
                                              timeout=10.0)
                    if "against the computer" not in opened.content:
                        raise RuntimeError(f"/play in #{channel.name}: {opened.content!r}")
                await bot.service.settle()
                for _, channel in players:
                    bot.service.match_in(channel.id)  # raises if there is none
                timings["setup_s"] = time.perf_counter() - started

                await fire(fake, plan(players, int(RATE * WARMUP_SECONDS)), RATE)
                outcome = await fire(fake, plan(players, int(RATE * SECONDS)), RATE)
                await bot.service.settle()
    finally:
        await fake.stop()
        capture.uninstall()
    problems = [capture.format(r) for r in capture.records]
    problems += [f"fake Discord refused: {r}" for r in fake.rejections]
    problems += [f"unknown route: {u}" for u in fake.unhandled]
    problems += [f"fake Discord crashed: {e}" for e in fake.server_errors]
    return outcome, problems, timings


def run() -> list[Figure]:
    """The benchmark's figures."""
    with tempfile.TemporaryDirectory(prefix="croupier-bench-") as tmp, \
            pytest.MonkeyPatch.context() as monkeypatch:
        NetworkGuard().install(monkeypatch)  # only 127.0.0.1, as in the tests
        outcome, problems, timings = asyncio.run(measure(Path(tmp) / "load.sqlite3"))
    for problem in [*problems, *outcome.wrong][:20]:
        print(f"PROBLEM: {problem}", file=sys.stderr)
    total = int(RATE * SECONDS)
    latencies = outcome.latencies_ms
    planned = f"{RATE:g}/s over {CHANNELS} channels for {SECONDS:g} s"
    print(f"{outcome.sent:,} of {total:,} interactions sent ({planned}) after "
          f"{timings['setup_s']:.1f} s setup ({CHANNELS} Flank matches opened)")
    return [
        Figure(GROUP, "interactions sent", outcome.sent, "count", note=planned),
        Figure(GROUP, "send rate achieved", outcome.send_rate, "/s", ">=", 0.98 * RATE,
               note=f"{RATE:g}/s planned"),
        Figure(GROUP, "send lag behind schedule, max", max(outcome.lag_ms, default=0.0), "ms"),
        Figure(GROUP, "dispatch→callback p50", percentile(latencies, 50), "ms"),
        Figure(GROUP, "dispatch→callback p99", percentile(latencies, 99), "ms",
               "<=", P99_TARGET_MS),
        Figure(GROUP, "dispatch→callback max", max(latencies, default=float("nan")), "ms"),
        Figure(GROUP, "answered at all", outcome.answered / total, "fraction"),
        Figure(GROUP, "answered within 3 s", outcome.answered_in_time / total, "fraction",
               ">=", 1.0),
        Figure(GROUP, "unanswered", total - outcome.answered, "count", "<=", 0),
        Figure(GROUP, "errors (logs, refusals, wrong replies)",
               len(problems) + len(outcome.wrong), "count", "<=", 0),
    ]


if __name__ == "__main__":
    raise SystemExit(run_alone(run))
