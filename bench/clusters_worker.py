"""One process of the cluster benchmark (:mod:`bench.clusters`): a
:class:`~bot.matches.service.MatchService` on the shared PostgreSQL database, told what
to do by the benchmark over its standard input and output.

Each request is one JSON line ``{"id": n, "op": name, ...arguments}``; each answer one
JSON line ``{"id": n, "ok": true, "result": {...}}`` (or ``"ok": false`` with the
error). Requests run side by side, each as a task, so that the benchmark can keep many
clicks in flight. Nothing else is written to standard output.

Run as ``python -m bench.clusters_worker`` from the repository's root.
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import sys
import time
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

from bench.clusters_play import (
    AGE,
    SEED,
    People,
    Slot,
    Tally,
    game_of,
    new_match,
    pace,
    pick,
    saturate,
    shard_of,
)
from bench.figures import percentile
from bot.matches.commit import Timing
from bot.matches.deadlines import run_deadlines
from bot.matches.service import MatchService, tune_gc
from bot.matches.transport import NullTransport
from storage import Store

TIMING = Timing(turn_seconds=3_600)
"""No deadline passes during a run: only the people move the matches."""
BUILD_WIDTH = 50
"""Matches built at once."""

Handler = Callable[..., Awaitable[dict[str, Any]]]


def cpu_seconds() -> float:
    """This process's CPU time so far, user and system."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def until(moment: float) -> None:
    """Sleep until ``moment`` of :func:`time.monotonic`."""
    delay = moment - time.monotonic()
    if delay > 0:
        await asyncio.sleep(delay)


class Worker:
    """The process's service, its share of the matches, and the requests it serves."""

    def __init__(self) -> None:
        self.store: Store | None = None
        self.service: MatchService | None = None
        self.deadlines: asyncio.Task[None] | None = None
        self.people = People(0)
        self.slots: list[Slot] = []

    def _service(self) -> MatchService:
        if self.service is None:
            raise RuntimeError("open first")
        return self.service

    async def build(self, url: str, start: int, stop: int, step: int,
                    base: int) -> dict[str, Any]:
        """Matches ``range(start, stop, step)``, each then aged by a seeded number of
        choices (:data:`~bench.clusters_play.AGE`); the store is closed afterwards."""
        store = await Store.open(url)
        try:
            service = MatchService(store, NullTransport(), timing=TIMING)
            people = People(base)
            numbers = range(start, stop, step)
            made = []
            for first in range(0, len(numbers), BUILD_WIDTH):
                made += await asyncio.gather(*(new_match(service, people, n)
                                               for n in numbers[first:first + BUILD_WIDTH]))
            await service.settle()
            tally = Tally(until=float("inf"))
            slots = [Slot(n, match, random.Random(SEED * 7 + n))
                     for n, match in zip(numbers, made, strict=True)]
            await asyncio.gather(*(
                saturate(service, people, slot, "age", tally,
                         limit=slot.rng.randrange(AGE[game_of(slot.number)]))
                for slot in slots))
            await service.settle()
            await service.wind_down()
            return {"built": len(made), "aged": len(tally.latencies),
                    "refused": tally.refused}
        finally:
            await store.close()

    async def open(self, url: str, index: int, processes: int, base: int) -> dict[str, Any]:
        """Open the store and restore the unfinished matches of this process's shard,
        as cluster ``index`` of ``processes`` does at start-up (one shard each); they
        are the ones it plays."""
        self.store = await Store.open(url)
        self.service = MatchService(self.store, NullTransport(), timing=TIMING)
        self.people = People(base)
        restored = await self.service.restore(
            lambda guild_id: shard_of(guild_id or 0, processes) == index)
        await self.service.settle()
        tune_gc()
        self.deadlines = asyncio.create_task(run_deadlines(self.service))
        mine = sorted((m for m in restored if m.playing), key=lambda m: m.id)
        # A match's number is its guild's (guild_of): one dealt again replaces it there.
        self.slots = [Slot((m.row.guild_id or 0) >> 22, m, random.Random(SEED * 11 + m.id))
                      for m in mine]
        return {"own": len(self.slots), "ids": [m.id for m in mine]}

    async def saturate(self, start_at: float, seconds: float, tag: str) -> dict[str, Any]:
        """Every match of this process as fast as the service acknowledges, from
        ``start_at`` for ``seconds``."""
        service = self._service()
        tally = Tally(until=start_at + seconds)
        await until(start_at)
        cpu = cpu_seconds()
        ended = asyncio.create_task(_cpu_at(tally.until))
        await asyncio.gather(*(saturate(service, self.people, slot, tag, tally)
                               for slot in self.slots))
        cpu = await ended - cpu
        await service.settle()
        ms = [s * 1000 for s in tally.latencies]
        return {"count": len(ms), "refused": tally.refused, "finished": tally.finished,
                "cpu": cpu, "p50": percentile(ms, 50), "p99": percentile(ms, 99)}

    async def pace(self, start_at: float, seconds: float, rate: float,
                   tag: str) -> dict[str, Any]:
        """``rate`` choices per second offered over this process's matches, each match
        on its own schedule, from ``start_at`` for ``seconds``; every latency."""
        service = self._service()
        tally = Tally(until=start_at + seconds)
        interval = len(self.slots) / rate
        phases = random.Random(f"{SEED}:{tag}")
        await until(start_at)
        cpu = cpu_seconds()
        ended = asyncio.create_task(_cpu_at(tally.until))
        await asyncio.gather(*(pace(service, self.people, slot, tag,
                                    start_at + phases.random() * interval, interval, tally)
                               for slot in self.slots))
        cpu = await ended - cpu
        await service.settle()
        return {"count": len(tally.latencies), "refused": tally.refused, "cpu": cpu,
                "ms": [round(s * 1000, 3) for s in tally.latencies]}

    async def raw(self, url: str, start_at: float, seconds: float, connections: int,
                  key: int) -> dict[str, Any]:
        """Single-row ``INSERT`` + ``COMMIT`` loops, one per connection, from
        ``start_at`` for ``seconds``, into the table the benchmark made
        (:data:`bench.clusters.RAW_TABLE`); rows keyed from ``key`` on."""
        import asyncpg

        from bench.clusters_server import RAW_INSERT

        conns = [await asyncpg.connect(url) for _ in range(connections)]
        stop_at = start_at + seconds
        done = 0

        async def loop(n: int, conn: asyncpg.Connection) -> None:
            nonlocal done
            seq = 0
            match_id = key + n
            while time.monotonic() < stop_at:
                await conn.execute(RAW_INSERT, match_id, seq, seq % 2, "C4",
                                   "2026-11-28T12:00:00+00:00")
                seq += 1
                if time.monotonic() <= stop_at:
                    done += 1

        try:
            await until(start_at)
            cpu = cpu_seconds()
            ended = asyncio.create_task(_cpu_at(stop_at))
            await asyncio.gather(*(loop(n, conn) for n, conn in enumerate(conns)))
            return {"count": done, "cpu": await ended - cpu}
        finally:
            for conn in conns:
                await conn.close()

    async def pick(self, match_id: int, seed: str) -> dict[str, Any]:
        """A click a person could make now on ``match_id``, from the match as the store
        has it (read, or caught up, if this process is behind)."""
        try:
            match = await self._service().current(match_id)
        except Exception:  # over, and forgotten
            return {"pick": None}
        got = pick(match, random.Random(seed))
        return {"pick": None if got is None else [got.user_id, got.choice, got.step]}

    async def click(self, match_id: int, user_id: int, choice: str, step: int,
                    interaction_id: str) -> dict[str, Any]:
        """One click, as a DM button sends it (with the step it was made for): its
        latency, or why it was refused; then the click a person could make next, from
        this process's copy."""
        service = self._service()
        started = time.monotonic()
        try:
            await service.submit(user_id, match_id, choice, interaction_id=interaction_id,
                                 step=step)
        except Exception as exc:
            return {"ms": None, "refused": f"{type(exc).__name__}: {exc}"}
        ms = (time.monotonic() - started) * 1000
        try:
            after = pick(service.get(match_id), random.Random(interaction_id))
        except Exception:  # over, and forgotten
            after = None
        return {"ms": ms, "pick": None if after is None else
                [after.user_id, after.choice, after.step]}

    async def cpu(self) -> dict[str, Any]:
        """This process's CPU seconds so far."""
        return {"cpu": cpu_seconds()}

    async def close(self) -> dict[str, Any]:
        """Stop the deadline task and the service, and close the store."""
        if self.deadlines is not None:
            self.deadlines.cancel()
        if self.service is not None:
            await self.service.settle()
            await self.service.wind_down()
        if self.store is not None:
            await self.store.close()
        return {}


async def _cpu_at(moment: float) -> float:
    """This process's CPU time at ``moment`` (the end of a window, whatever is still
    in flight then)."""
    await until(moment)
    return cpu_seconds()


async def serve() -> None:
    """Answer requests from standard input until ``close`` (or its end)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    worker = Worker()
    handlers: dict[str, Handler] = {
        "build": worker.build, "open": worker.open, "saturate": worker.saturate,
        "pace": worker.pace, "raw": worker.raw, "pick": worker.pick,
        "click": worker.click, "cpu": worker.cpu, "close": worker.close,
    }
    running: set[asyncio.Task[None]] = set()

    async def answer(request: dict[str, Any]) -> None:
        ident = request.pop("id")
        op = request.pop("op")
        try:
            reply = {"id": ident, "ok": True, "result": await handlers[op](**request)}
        except Exception:
            reply = {"id": ident, "ok": False, "error": traceback.format_exc()}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()

    while line := await reader.readline():
        request = json.loads(line)
        closing = request.get("op") == "close"
        task = asyncio.create_task(answer(request))
        running.add(task)
        task.add_done_callback(running.discard)
        if closing:
            await task
            return
    await worker.close()


if __name__ == "__main__":
    asyncio.run(serve())
