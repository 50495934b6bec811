"""The PostgreSQL side of the cluster benchmark (:mod:`bench.clusters`): what the
server did during a window, read from the server itself.

* **CPU**: the server's processes' CPU time, the kernel's threads' and interrupts'
  (where the disk's flushes are worked), and the whole machine's (``/proc``).
* **WAL flushes**: ``pg_stat_wal`` (the server runs with ``track_wal_io_timing``):
  flushes and the time spent in them, server-wide (one database is loaded at a time).
* **Where each connection's time goes**: ``pg_stat_activity`` sampled every
  :data:`SAMPLE_EVERY` seconds for the loaded database's connections: running,
  waiting for the WAL flush, waiting on a lock, waiting inside a transaction for the
  bot's next statement, or idle in the pool. Its counts are also how many connections
  the service holds.

The benchmark's own connection reads these from the ``postgres`` database, so it is
never among the connections it counts.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import Counter
from dataclasses import dataclass, field

import asyncpg

SAMPLE_EVERY = 0.02
RAW_TABLE = "bench_raw_choices"
RAW_INSERT = (f"INSERT INTO {RAW_TABLE} (match_id, seq, seat, choice, created_at)"
              " VALUES ($1, $2, $3, $4, $5)")
"""The raw ceiling's statement: one row of the shape of a logged choice."""
RAW_SCHEMA = (f"CREATE TABLE IF NOT EXISTS {RAW_TABLE} (match_id BIGINT NOT NULL,"
              " seq INTEGER NOT NULL, seat INTEGER NOT NULL, choice TEXT NOT NULL,"
              " created_at TEXT NOT NULL, PRIMARY KEY (match_id, seq))")

KINDS = ("running", "WAL flush", "lock wait", "in transaction, waiting for the bot",
         "idle in the pool", "other wait")


def kind_of(state: str | None, wait_type: str | None, wait_event: str | None) -> str:
    """What a sampled connection is doing, in the benchmark's words.

    >>> kind_of("active", "IO", "WALSync"), kind_of("active", "Lock", "transactionid")
    ('WAL flush', 'lock wait')
    >>> kind_of("idle in transaction", "Client", "ClientRead"), kind_of("active", None, None)
    ('in transaction, waiting for the bot', 'running')
    """
    if state == "idle":
        return "idle in the pool"
    if state is not None and state.startswith("idle in transaction"):
        return "in transaction, waiting for the bot"
    if wait_type is None:
        return "running"
    if wait_type == "Lock":
        return "lock wait"
    if wait_event is not None and wait_event.startswith("WAL"):
        return "WAL flush"  # WALSync, WALWrite (the IO and the LWLock of the flush)
    if wait_type == "Client":
        return "running"  # reading the next message of a statement under way
    return "other wait"


KTHREADD = 2
"""The kernel's thread starter: its children are the kernel's threads (among them the
ones that write and flush the disk)."""


def process_cpu(postmaster: int) -> tuple[float, float]:
    """CPU seconds so far of the server (the postmaster and every process it started)
    and of the kernel's threads. A server process that has ended is no longer counted:
    read both ends of a window while its connections stay open."""
    ticks = os.sysconf("SC_CLK_TCK")
    server = kernel = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, parent, spent = int(entry.name), int(fields[1]), int(fields[11]) + int(fields[12])
        if pid == postmaster or parent == postmaster:
            server += spent
        elif pid == KTHREADD or parent == KTHREADD:
            kernel += spent
    return server / ticks, kernel / ticks


def machine_cpu() -> tuple[float, float]:
    """CPU seconds so far that the machine spent busy on every core (time stolen by the
    hypervisor left out), and of those, in interrupts."""
    with open("/proc/stat", encoding="ascii") as stat:
        user, nice, system, _idle, _iowait, irq, softirq = (
            int(n) for n in stat.readline().split()[1:8])
    ticks = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / ticks, (irq + softirq) / ticks


@dataclass
class Profile:
    """What the server did during one window."""

    seconds: float = 0.0
    cpu: float = 0.0
    """Server CPU seconds."""
    machine: float = 0.0
    """CPU seconds of the whole machine (the bots, the server, and anything else)."""
    kernel: float = 0.0
    """CPU seconds of the kernel's threads and interrupts (the disk's flushes among them)."""
    flushes: int = 0
    flush_ms: float = 0.0
    """Time spent in WAL flushes (``fsync``), milliseconds."""
    kinds: Counter[str] = field(default_factory=Counter)
    """Connection samples by :func:`kind_of`."""
    samples: int = 0
    most_connections: int = 0

    def add(self, other: Profile) -> None:
        """Add ``other``'s window to this one."""
        self.seconds += other.seconds
        self.cpu += other.cpu
        self.machine += other.machine
        self.kernel += other.kernel
        self.flushes += other.flushes
        self.flush_ms += other.flush_ms
        self.kinds.update(other.kinds)
        self.samples += other.samples
        self.most_connections = max(self.most_connections, other.most_connections)

    def share(self, kind: str) -> float:
        """The share of the connections' sampled time spent as ``kind``, counting
        only the connections in use (idle in the pool left out)."""
        busy = sum(n for k, n in self.kinds.items() if k != "idle in the pool")
        return self.kinds[kind] / busy if busy else 0.0

    def busy_connections(self) -> float:
        """Connections in use (not idle in the pool), on average."""
        busy = sum(n for k, n in self.kinds.items() if k != "idle in the pool")
        return busy / self.samples if self.samples else 0.0


class Watcher:
    """Samples one database's connections on the server while a window runs."""

    def __init__(self, conn: asyncpg.Connection, postmaster: int) -> None:
        self.conn = conn
        self.postmaster = postmaster

    async def _wal(self) -> tuple[int, float]:
        """The server's WAL flushes so far, and the milliseconds spent in them."""
        await self.conn.execute("SELECT pg_stat_clear_snapshot()")
        row = await self.conn.fetchrow("SELECT wal_sync, wal_sync_time FROM pg_stat_wal")
        assert row is not None
        return int(row[0]), float(row[1])

    async def watch(self, database: str, start_at: float, stop_at: float) -> Profile:
        """Sample ``database``'s connections from ``start_at`` to ``stop_at`` (of
        :func:`time.monotonic`, the workers' clock); the profile."""
        got = Profile()
        delay = start_at - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        flushes, flush_ms = await self._wal()
        (cpu, kernel), (machine, interrupts) = process_cpu(self.postmaster), machine_cpu()
        started = time.monotonic()
        while (now := time.monotonic()) < stop_at:
            rows = await self.conn.fetch(
                "SELECT state, wait_event_type, wait_event FROM pg_stat_activity"
                " WHERE datname = $1 AND backend_type = 'client backend'", database)
            got.samples += 1
            got.most_connections = max(got.most_connections, len(rows))
            got.kinds.update(kind_of(*row) for row in rows)
            await asyncio.sleep(min(SAMPLE_EVERY, max(0.0, stop_at - now)))
        (after_cpu, after_kernel), (after_machine, after_interrupts) = (
            process_cpu(self.postmaster), machine_cpu())
        got.cpu = after_cpu - cpu
        got.machine = after_machine - machine
        got.kernel = after_kernel - kernel + after_interrupts - interrupts
        after_flushes, after_ms = await self._wal()
        got.seconds = time.monotonic() - started
        got.flushes, got.flush_ms = after_flushes - flushes, after_ms - flush_ms
        return got
