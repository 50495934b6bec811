"""The benchmark's end of its worker processes (:mod:`bench.clusters_worker`): start
them, ask them things over their standard input and output, stop them."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CALL_TIMEOUT = 300.0
"""Seconds a request may take before the benchmark gives up on its worker."""


class WorkerFailed(RuntimeError):
    """A worker answered a request with an error, or stopped."""


class Process:
    """One worker process and the requests in flight to it."""

    def __init__(self, proc: asyncio.subprocess.Process, name: str) -> None:
        self.proc = proc
        self.name = name
        self._ids = itertools.count()
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, name: str, log: Path) -> Process:
        """Start a worker; what it writes to standard error goes to ``log``."""
        with log.open("ab") as errors:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bench.clusters_worker", cwd=ROOT,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=errors,
                limit=1 << 26)
        return cls(proc, name)

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            reply = json.loads(line)
            future = self._waiting.pop(reply["id"], None)
            if future is None or future.done():
                continue
            if reply["ok"]:
                future.set_result(reply["result"])
            else:
                future.set_exception(WorkerFailed(f"{self.name}: {reply['error']}"))
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(WorkerFailed(f"{self.name} stopped"))
        self._waiting.clear()

    async def call(self, op: str, **arguments: Any) -> dict[str, Any]:
        """Ask the worker to run ``op`` with ``arguments``; its answer."""
        assert self.proc.stdin is not None
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        self.proc.stdin.write((json.dumps({"id": ident, "op": op, **arguments}) + "\n")
                              .encode())
        await self.proc.stdin.drain()
        return await asyncio.wait_for(future, CALL_TIMEOUT)

    async def stop(self) -> None:
        """Close the worker's service and wait for it to end (killed if it does not)."""
        if self.proc.returncode is None:
            with contextlib.suppress(WorkerFailed, TimeoutError, ConnectionError):
                await asyncio.wait_for(self.call("close"), 30)
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        await self._reader


@contextlib.asynccontextmanager
async def processes(names: list[str], logs: Path) -> AsyncIterator[list[Process]]:
    """Workers named ``names`` for the block, stopped afterwards whatever happens."""
    started: list[Process] = []
    try:
        for name in names:
            started.append(await Process.start(name, logs / f"{name}.log"))
        yield started
    finally:
        await asyncio.gather(*(p.stop() for p in started), return_exceptions=True)
