"""Several cluster processes of the real bot on loopback, for the multi-process tests
(``tests/test_clusters_*.py``; issue 31, part 3).

The fake Discord runs in the test's process and shards its gateway as Discord does
(guild events to ``(guild_id >> 22) % S``, DMs to shard 0); the throwaway PostgreSQL
server (:mod:`tests.pgserver`) holds the test module's migrated database
(:mod:`tests.pgstore`); each cluster is ``croupier run --cluster I --clusters N --shards
S`` in a process of its own (:mod:`tests.clusterchild`). :class:`Clusters` starts them,
waits until their shards are ready, kills one (``kill -9``), restarts it, freezes and
thaws it (``SIGSTOP``/``SIGCONT``), cuts its database connections
(``pg_terminate_backend``), reads what each wrote to stderr, and always leaves no
process behind. A log record of ERROR (or any traceback) that the test did not
:meth:`~Clusters.expect` fails the test: at once in any wait, else at teardown. A
cluster is ready once each of its shards holds a gateway connection and it logged
``on_ready`` (``bot.discord_side.client``'s "connected as")::

    async with clusters_running(fake_discord, request) as clusters:
        guild = clusters.guild_of(1, "Casino")   # a guild cluster 1 hears
        await clusters.start()                    # every cluster, all shards ready
        ...
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import re
import resource
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pytest

from storage import Store
from tests import clusterchild
from tests.fakediscord import FakeDiscord, FakeGuild, WaitTimeout

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")

READY_SECONDS = 20.0
"""Longest a cluster may take from its start to all its shards ready (a loaded 2-core
machine starting three at once)."""
STOP_SECONDS = 5.0
LINE_LIMIT = 1 << 24
"""Longest line read from a cluster's stderr (asyncio's default, 64 KiB, would end the
reading at a long one, and then the cluster would block on a full pipe)."""
_RECORD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (?P<level>[A-Z]+) (?P<logger>\S+): ")
"""The start of a log record as ``croupier``'s ``logging.basicConfig`` formats it."""
_READY = re.compile(r" INFO bot\.discord_side\.client: connected as ")
_FAILED = ("ERROR", "CRITICAL")


class Stalled(AssertionError):
    """What was waited for did not happen in time (and no cluster failed meanwhile)."""


@dataclass
class Record:
    """One log record a cluster wrote (continuation lines, such as a traceback, included),
    or a run of lines that are not a record (a crash's traceback)."""

    cluster: int
    lines: list[str]
    level: str | None
    expected: bool = False

    @property
    def text(self) -> str:
        """The whole record."""
        return "\n".join(self.lines)

    @property
    def failure(self) -> bool:
        """Whether the record is an error: ERROR, CRITICAL, or with a traceback."""
        return self.level in _FAILED or self.level is None or "Traceback" in self.text


@dataclass
class Cluster:
    """One cluster process, and what it wrote."""

    index: int
    shards: list[int]
    process: asyncio.subprocess.Process | None = None
    records: list[Record] = field(default_factory=list)
    starts: int = 0
    ready_seen: int = 0
    """Ready records seen since the latest start."""
    _reader: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int:
        """The process id of the running process."""
        assert self.process is not None, f"cluster {self.index} is not running"
        return self.process.pid

    @property
    def running(self) -> bool:
        """Whether the process is alive (frozen counts as alive)."""
        return self.process is not None and self.process.returncode is None

    async def read(self, stream: asyncio.StreamReader) -> None:
        """Gather the records of ``stream`` until it ends."""
        while line := await stream.readline():
            text = line.decode(errors="replace").rstrip("\n")
            found = _RECORD.match(text)
            if found:
                self.records.append(Record(self.index, [text], found["level"]))
                if _READY.search(text):
                    self.ready_seen += 1
            elif self.records:  # a traceback, or more of a message
                self.records[-1].lines.append(text)
            else:
                self.records.append(Record(self.index, [text], None))

    def tail(self, lines: int = 30) -> str:
        """The last lines it wrote."""
        every = [line for record in self.records for line in record.lines]
        return "\n".join(every[-lines:])


class Clusters:
    """``count`` cluster processes sharing ``shards`` shards and the database at ``url``."""

    def __init__(self, fake: FakeDiscord, url: str, folder: Path, *, count: int = 3,
                 shards: int | None = None, seed: int | None = None,
                 env: dict[str, str] | None = None) -> None:
        """``folder``: the clusters' working directory (no ``.env`` of anyone's there)."""
        self.fake = fake
        self.url = url
        self.folder = folder
        self.count = count
        self.shard_count = shards or count
        self.seed = seed
        self.extra_env = dict(env or {})
        self.clusters = [Cluster(i, list(range(i, self.shard_count, count)))
                         for i in range(count)]
        self.store: Store
        """The test's own store on the database (set by :func:`clusters_running`)."""

    # -- the world -------------------------------------------------------------------
    def shard_of_cluster(self, index: int, nth: int = 0) -> int:
        """The ``nth`` shard cluster ``index`` holds."""
        return self.clusters[index].shards[nth]

    def guild_of(self, index: int, name: str, *, nth: int = 0,
                 channels: tuple[str, ...] = ()) -> FakeGuild:
        """A new guild whose events and interactions reach cluster ``index`` (on its
        ``nth`` shard)."""
        return self.fake.add_guild(name, channels=channels,
                                   shard=(self.shard_of_cluster(index, nth), self.shard_count))

    def cluster_of(self, guild: FakeGuild) -> int:
        """The cluster that hears ``guild``."""
        return ((guild.id >> 22) % self.shard_count) % self.count

    # -- processes -------------------------------------------------------------------
    def _env(self) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items()
               if not key.startswith(("CROUPIER_", "CLUSTER_", "PG")) and key != "DISCORD_TOKEN"}
        env.update({
            "PYTHONPATH": str(ROOT),
            "CROUPIER_DISCORD_TOKEN": self.fake.token,
            "CROUPIER_DATABASE": self.url,
            "CROUPIER_LOG_LEVEL": "INFO",
            clusterchild.API: self.fake.api_base,
            clusterchild.GATEWAY: self.fake.gateway_url,
            clusterchild.TIME_SCALE: str(self.fake.time_scale),
            clusterchild.PARENT: str(os.getpid()),
        })
        if self.seed is not None:
            env[clusterchild.SEED] = str(self.seed)
        env.update(self.extra_env)
        return env

    async def spawn(self, index: int) -> Cluster:
        """Start cluster ``index``'s process (not waiting for it to be ready)."""
        cluster = self.clusters[index]
        assert not cluster.running, f"cluster {index} is already running"
        # A session of its own: the cluster is its process group (with any worker
        # processes of its thinker), so that stopping it stops them all.
        cluster.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.clusterchild", str(index), str(self.count),
            str(self.shard_count), cwd=self.folder, env=self._env(),
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE, start_new_session=True, limit=LINE_LIMIT)
        _groups.add(cluster.process.pid)
        cluster.starts += 1
        cluster.ready_seen = 0
        assert cluster.process.stderr is not None
        cluster._reader = asyncio.create_task(cluster.read(cluster.process.stderr),
                                              name=f"cluster-{index}-stderr")
        return cluster

    async def start(self, *indices: int, timeout: float = READY_SECONDS) -> None:
        """Start the clusters named (default: every one) and wait until each has all its
        shards identified and has said it is ready."""
        chosen = indices or tuple(range(self.count))
        for index in chosen:
            await self.spawn(index)
        await self.ready(*chosen, timeout=timeout)

    async def ready(self, *indices: int, timeout: float = READY_SECONDS) -> None:
        """Wait until the clusters named (default: every running one) are ready: every
        shard of theirs identified on the fake, and ``on_ready`` logged since their start."""
        chosen = [self.clusters[i] for i in indices] if indices else \
            [c for c in self.clusters if c.running]

        def done() -> bool:
            return all(c.ready_seen and len(self._sessions_of(c)) >= len(c.shards)
                       for c in chosen)

        await self.until(done, timeout, f"clusters {[c.index for c in chosen]} ready")

    async def until(self, predicate: Callable[[], T], timeout: float, what: str) -> T:
        """Wait until ``predicate()`` is truthy (re-checked on every change the fake sees
        and every 20 ms); fail at once if a cluster died or logged an unexpected error."""
        def checked() -> T:
            self.check()
            return predicate()

        try:
            return await self.fake.wait_for(checked, timeout, description=what,
                                            fail_on_bot_error=False)
        except WaitTimeout as late:
            raise Stalled(f"{late}\n{self.report()}") from None

    async def kill(self, index: int) -> None:
        """``kill -9`` cluster ``index`` (its whole process group) and wait until it is
        gone and the fake saw its gateway sessions close."""
        cluster = self.clusters[index]
        process = cluster.process
        assert process is not None and process.returncode is None
        _kill_group(process.pid)
        await process.wait()
        if cluster._reader is not None:
            await cluster._reader
        await self.until(lambda: not self._sessions_of(cluster), STOP_SECONDS,
                         f"cluster {index}'s gateway sessions to close")

    def _sessions_of(self, cluster: Cluster) -> list[str]:
        """The connected gateway sessions of ``cluster``'s shards (a session outlives
        its connection on the fake, as on Discord, for a RESUME)."""
        return [session.id for session in self.fake.sessions.values()
                if session.conn is not None and session.shard.num_shards == self.shard_count
                and session.shard.shard_id in cluster.shards]

    async def restart(self, index: int, *, timeout: float = READY_SECONDS) -> None:
        """A new process for cluster ``index`` (killed first if it still runs), ready."""
        if self.clusters[index].running:
            await self.kill(index)
        await self.start(index, timeout=timeout)

    def freeze(self, index: int) -> None:
        """``SIGSTOP`` cluster ``index``: it keeps its sockets and connections, and does
        nothing at all until :meth:`thaw`."""
        os.killpg(self.clusters[index].pid, signal.SIGSTOP)

    def thaw(self, index: int) -> None:
        """``SIGCONT`` cluster ``index``."""
        os.killpg(self.clusters[index].pid, signal.SIGCONT)

    async def cut_connections(self, index: int) -> int:
        """``pg_terminate_backend`` every database connection cluster ``index`` holds
        (each process names its connections ``croupier-<pid>``); how many were ended."""
        conn = await asyncpg.connect(self.url)
        try:
            rows = await conn.fetch(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = $1", f"croupier-{self.clusters[index].pid}")
        finally:
            await conn.close()
        return sum(1 for row in rows if row[0])

    async def close(self) -> None:
        """Stop every process (their groups, ``SIGKILL``: nothing of theirs is worth a
        clean stop here), a frozen one included, and wait for them."""
        for cluster in self.clusters:
            process = cluster.process
            if process is None:
                continue
            _kill_group(process.pid)  # a worker of its own may outlive it: the group
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), STOP_SECONDS)
            if cluster._reader is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(cluster._reader, STOP_SECONDS)

    # -- what they wrote ---------------------------------------------------------------
    def expect(self, pattern: str, *, cluster: int | None = None) -> int:
        """Mark the error records matching ``pattern`` (of ``cluster``, or any) as
        expected; how many there were."""
        found = re.compile(pattern)
        marked = 0
        for record in self.records(cluster):
            if record.failure and not record.expected and found.search(record.text):
                record.expected = True
                marked += 1
        return marked

    def records(self, cluster: int | None = None) -> list[Record]:
        """Every record, of one cluster or all."""
        chosen = self.clusters if cluster is None else [self.clusters[cluster]]
        return [record for c in chosen for record in c.records]

    def problems(self) -> list[Record]:
        """The error records nobody expected."""
        return [r for r in self.records() if r.failure and not r.expected]

    def check(self) -> None:
        """Fail if a cluster logged an unexpected error, or died without being killed."""
        problems = self.problems()
        if problems:
            for record in problems:  # failed for once: not again at teardown
                record.expected = True
            raise AssertionError("a cluster logged an error:\n" + "\n".join(
                f"[cluster {r.cluster}] {r.text}" for r in problems[:5]))
        for cluster in self.clusters:
            process = cluster.process
            if process is not None and process.returncode not in (None, -signal.SIGKILL):
                raise AssertionError(f"cluster {cluster.index} ended with "
                                     f"{process.returncode}:\n{cluster.tail()}")

    def report(self) -> str:
        """Each cluster's last lines, for a failure's message."""
        return "\n".join(f"-- cluster {c.index} (pid "
                         f"{c.process.pid if c.process else '-'}):\n{c.tail(12)}"
                         for c in self.clusters)


_groups: set[int] = set()
"""Every cluster's process group this process started and has not stopped yet."""


def _kill_group(pid: int) -> None:
    """``SIGKILL`` to the process group ``pid`` leads (a stopped one dies too)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
    _groups.discard(pid)


@atexit.register
def _kill_all() -> None:
    # A test process ended without its teardown (interrupted): no cluster outlives it.
    for pid in list(_groups):
        _kill_group(pid)


def clusters_fixture(**how: Any) -> Any:
    """A test module's ``clusters`` fixture: :func:`clusters_running` with ``how``
    (``count``, ``seed``, ``env``…) around each test.

    ``clusters = clusters_fixture(count=2, seed=SEED)`` at a module's top level."""

    @pytest.fixture
    async def clusters(fake_discord: FakeDiscord,
                       request: pytest.FixtureRequest) -> AsyncIterator[Clusters]:
        async with clusters_running(fake_discord, request, **how) as running:
            yield running

    return clusters


@asynccontextmanager
async def clusters_running(fake: FakeDiscord, request: pytest.FixtureRequest, *,
                           count: int = 3, shards: int | None = None, seed: int | None = None,
                           env: dict[str, str] | None = None) -> AsyncIterator[Clusters]:
    """:class:`Clusters` over the test module's PostgreSQL database (skipped with the
    install hint without PostgreSQL), with a store of the test's own on it
    (``clusters.store``: what the clusters wrote, read back), not started yet (build
    the world first, then :meth:`Clusters.start`); every process stopped afterwards,
    and the test failed if one logged an error it did not expect."""
    from tests.pgstore import module_database

    url = await module_database(request)
    clusters = Clusters(fake, url, request.getfixturevalue("tmp_path"), count=count,
                        shards=shards, seed=seed, env=env)
    clusters.store = await Store.open(url)
    before = _cpu()
    try:
        yield clusters
    finally:
        await clusters.close()
        await clusters.store.close()
        request.node.user_properties.append(
            ("cluster_cpu", tuple(b - a for a, b in zip(before, _cpu(), strict=True))))
    clusters.check()


def _cpu() -> tuple[float, float, float]:
    """Wall seconds, this process's CPU seconds, and its reaped children's (the clusters')."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (time.monotonic(), own.ru_utime + own.ru_stime,
            children.ru_utime + children.ru_stime)
