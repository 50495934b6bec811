"""Several processes on one PostgreSQL database: the scaling figures of issue 31.

Everything runs on a throwaway PostgreSQL server started by the benchmark
(:func:`tests.pgserver.throwaway_server`) with **durable commits** (``fsync`` and
``synchronous_commit`` on, PostgreSQL's defaults; ``track_wal_io_timing`` on for the
profile). Each process is a :mod:`bench.clusters_worker`: a
:class:`~bot.matches.service.MatchService` on the same database
(``Store.open(postgresql://…)``), with :class:`~bot.matches.transport.NullTransport`.

* **The matches** — 1,000 of the rules-heavy mix (Hammer & Nails and Arcane Duel in
  turn, default options, every seat a person), each in a guild of its own, built and
  aged once (:data:`~bench.clusters_play.AGE`) by three processes into a template
  database, then copied for each cluster size. A process of a cluster of ``N`` opens
  its copy as a bot does (``restore()``) and plays the matches of its shard: those
  whose guild Discord routes to shard ``I`` of ``N`` (:func:`~bench.clusters_play.shard_of`).
  Each choice is submitted as a DM button sends it, with the step it was made for.
* **Saturated** — every match's player submits again as soon as it is acknowledged,
  in every process of the cluster at once, for :data:`SATURATED_SECONDS`; the
  committed choices per second of the whole cluster. Clusters of 1, 2 and 3 processes
  (each process always running, idle while another cluster is measured) take their
  windows in turn, :data:`ROUNDS` times: medians. **2 processes ÷ 1 gates (≥ 1.6)**;
  3 ÷ 1 is reported. One process on a SQLite file holding the same matches takes its
  windows in the same turns: context for when to move, not a target.
* **Profile** of each window, from the processes and the server
  (:mod:`bench.clusters_server`): the bots' CPU, the server's CPU, the WAL flushes, and
  where the server's connections spend their time (running, waiting for the WAL
  flush, waiting on a lock, waiting inside a transaction for the bot).
* **Raw PostgreSQL** — single-row ``INSERT`` + ``COMMIT`` loops on the same server,
  from the same two processes, on as many connections as the two-process service held
  in its windows (counted on the server); windows in turn with the cluster of two's.
  **Service ÷ raw gates (≥ 0.8).**
* **Paced** — the cluster of two, offered :data:`PACED_SHARE` of its own saturated
  rate, each match on its own schedule: **p99 of ``service.submit`` gates (≤ 25 ms)**.
* **DM clicks on another process** (:mod:`bench.clusters_clicks`): the p99 of clicks
  that land on the process that did not make the last move, less the p99 of those that
  land on the one that did, same window: **gates (≤ 10 ms)**, and no such click may be
  refused.

Run it alone with ``python -m bench clusters`` (about 2.5 minutes).
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import asyncpg

from bench.clusters_clicks import Clicks, click_chains
from bench.clusters_figures import (
    GROUP,
    MATCHES,
    PACED_SHARE,
    PAIR,
    Cluster,
    Paced,
    Run,
    Window,
    figures,
)
from bench.clusters_procs import Process, processes
from bench.clusters_server import RAW_SCHEMA, Profile, Watcher
from bench.figures import Figure, run_alone
from storage import Store

if TYPE_CHECKING:
    from tests.pgserver import PgServer

SIZES = (1, 2, 3)
"""Processes per cluster."""
BUILDERS = 3
ROUNDS = 5
SATURATED_SECONDS = 2.0
WARM_SECONDS = 1.0
RAW_SECONDS = 1.5
PACED_RUNS = 2
PACED_SECONDS = 4.0
CLICK_SECONDS = 12.0
LEAD = 0.3
"""Seconds between asking the processes for a window and its start: every process
starts it at the same moment."""
SERVER_SETTINGS = {"track_wal_io_timing": "on"}
MAX_CONNECTIONS = 200
TEMPLATE = "clusters_template"


def _start_at() -> float:
    """When the next window starts (:func:`time.monotonic`, every process's clock)."""
    return time.monotonic() + LEAD


async def saturated(cluster: Cluster, watcher: Watcher, tag: str,
                    seconds: float = SATURATED_SECONDS) -> Window:
    """A saturated window of every process of ``cluster`` at once, profiled (on
    PostgreSQL)."""
    start_at = _start_at()
    answers, profile = await asyncio.gather(
        asyncio.gather(*(w.call("saturate", start_at=start_at, seconds=seconds, tag=tag)
                         for w in cluster.workers)),
        watcher.watch(cluster.database, start_at, start_at + seconds) if cluster.database
        else asyncio.sleep(0, None))
    return Window(rate=sum(a["count"] for a in answers) / seconds,
                  cpu=sum(a["cpu"] for a in answers), seconds=seconds,
                  refused=sum(a["refused"] for a in answers),
                  finished=sum(a["finished"] for a in answers), profile=profile)


async def raw(cluster: Cluster, connections: int, key: int) -> Window:
    """Raw ``INSERT`` + ``COMMIT`` loops from ``cluster``'s processes, ``connections``
    over them all."""
    start_at = _start_at() + 0.2  # connecting first
    size = len(cluster.workers)
    shares = [connections // size + (i < connections % size) for i in range(size)]
    answers = await asyncio.gather(*(
        w.call("raw", url=cluster.url, start_at=start_at, seconds=RAW_SECONDS,
               connections=n, key=(key * size + i) * 1_000)
        for i, (w, n) in enumerate(zip(cluster.workers, shares, strict=True)) if n))
    return Window(rate=sum(a["count"] for a in answers) / RAW_SECONDS,
                  cpu=sum(a["cpu"] for a in answers), seconds=RAW_SECONDS)


def _others(profile: Profile, bots: float) -> float:
    """Cores that neither the cluster, nor the server, nor the kernel used during a window:
    the benchmark's monitor and whatever else ran on the machine."""
    return max(0.0, (profile.machine - profile.cpu - profile.kernel - bots) / profile.seconds)


async def paced(cluster: Cluster, watcher: Watcher, rate: float, tag: str) -> Paced:
    """The cluster offered ``rate`` choices per second, split as its matches are."""
    start_at = _start_at()
    total = sum(len(ids) for ids in cluster.owned)
    assert cluster.database is not None
    answers, profile = await asyncio.gather(
        asyncio.gather(*(w.call("pace", start_at=start_at, seconds=PACED_SECONDS,
                                rate=rate * len(ids) / total, tag=tag)
                         for w, ids in zip(cluster.workers, cluster.owned, strict=True))),
        watcher.watch(cluster.database, start_at, start_at + PACED_SECONDS))
    return Paced(offered=rate, committed=sum(a["count"] for a in answers) / PACED_SECONDS,
                 ms=[ms for a in answers for ms in a["ms"]],
                 refused=sum(a["refused"] for a in answers), seconds=PACED_SECONDS,
                 others=_others(profile, sum(a["cpu"] for a in answers)))


async def clicks(cluster: Cluster, watcher: Watcher) -> Clicks:
    """The DM clicks (:mod:`bench.clusters_clicks`) on the cluster of two."""
    assert cluster.database is not None
    before = await asyncio.gather(*(w.call("cpu") for w in cluster.workers))
    start_at = time.monotonic()
    got, profile = await asyncio.gather(
        click_chains(cluster.workers, cluster.owned, CLICK_SECONDS),
        watcher.watch(cluster.database, start_at, start_at + CLICK_SECONDS))
    after = await asyncio.gather(*(w.call("cpu") for w in cluster.workers))
    got.others = _others(profile, sum(a["cpu"] - b["cpu"] for a, b in zip(after, before,
                                                                         strict=True)))
    return got


async def build_template(server: PgServer, logs: Path) -> tuple[str, int]:
    """The template database with the matches built and aged; its name and the
    ageing choices made."""
    url = await server.database(TEMPLATE)
    store = await Store.open(url)  # the schema, once, before the builders
    await store.close()
    async with processes([f"build{i}" for i in range(BUILDERS)], logs) as builders:
        built = await asyncio.gather(*(
            b.call("build", url=url, start=i, stop=MATCHES, step=BUILDERS,
                   base=(i + 1) * 100_000_000)
            for i, b in enumerate(builders)))
    if sum(b["built"] for b in built) != MATCHES or any(b["refused"] for b in built):
        raise RuntimeError(f"building the matches went wrong: {built}")
    return TEMPLATE, sum(b["aged"] for b in built)


async def build_sqlite(path: Path, logs: Path) -> None:
    """The same matches, built and aged alike by one process, in a SQLite file."""
    async with processes(["sqlite-build"], logs) as (builder,):
        built = await builder.call("build", url=str(path), start=0, stop=MATCHES, step=1,
                                   base=100_000_000)
    if built["built"] != MATCHES or built["refused"]:
        raise RuntimeError(f"building the SQLite matches went wrong: {built}")


async def measure(server: PgServer, scratch: Path) -> Run:
    """Every window of the benchmark on ``server`` (a started
    :class:`tests.pgserver.PgServer`); files, and the workers' logs, in ``scratch``."""
    template, aged = await build_template(server, scratch)
    urls = {size: await server.database(f"clusters_{size}", template=template)
            for size in SIZES}
    sqlite = scratch / "clusters.sqlite3"
    await build_sqlite(sqlite, scratch)
    names = [f"c{size}p{i}" for size in SIZES for i in range(size)] + ["sqlite"]
    monitor = await asyncpg.connect(server.dsn())
    async with processes(names, scratch) as started:
        try:
            return await _measure(server, urls, sqlite, started, monitor, aged)
        finally:
            await monitor.close()


async def _measure(server: PgServer, urls: dict[int, str], sqlite: Path,
                   started: list[Process], monitor: asyncpg.Connection, aged: int) -> Run:
    watcher = Watcher(monitor, server.postmaster_pid() or 0)
    clusters: dict[int, Cluster] = {}
    workers = iter(started)
    for size in SIZES:
        clusters[size] = Cluster(size, f"clusters_{size}", urls[size],
                                 [next(workers) for _ in range(size)])
    alone = Cluster(1, None, str(sqlite), [next(workers)])
    everyone = [*clusters.values(), alone]
    opened = await asyncio.gather(*(
        w.call("open", url=c.url, index=i, processes=c.size, base=(10 + i) * 100_000_000)
        for c in everyone for i, w in enumerate(c.workers)))
    answers = iter(opened)
    for cluster in everyone:
        cluster.owned = [next(answers)["ids"] for _ in cluster.workers]
    pair = clusters[PAIR]
    raw_conn = await asyncpg.connect(pair.url)
    try:
        await raw_conn.execute(RAW_SCHEMA)
    finally:
        await raw_conn.close()
    for cluster in everyone:
        await saturated(cluster, watcher, "warm", WARM_SECONDS)
    raw_windows: list[Window] = []
    connections = 0
    for r in range(ROUNDS):
        for cluster in everyone:
            cluster.saturated.append(await saturated(cluster, watcher, f"sat{r}"))
        connections = pair.profile().most_connections
        raw_windows.append(await raw(pair, connections, r))
    paced_windows = [await paced(pair, watcher, PACED_SHARE * pair.rate, f"paced{i}")
                     for i in range(PACED_RUNS)]
    return Run(clusters, raw_windows, connections, paced_windows,
               await clicks(pair, watcher), aged, alone)


def run() -> list[Figure]:
    """Every figure of the cluster benchmark."""
    from tests.pgserver import throwaway_server  # the benchmark's own server

    scratch = Path(tempfile.mkdtemp(prefix="croupier-clusters-"))
    try:
        with throwaway_server(durable=True, max_connections=MAX_CONNECTIONS,
                              settings=SERVER_SETTINGS) as server:
            got = asyncio.run(measure(server, scratch))
        found = figures(got)
    except BaseException:
        _show_logs(scratch)
        raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return [*found, Figure(GROUP, "ageing choices before the windows", got.aged, "choices",
                           note=f"matches built and aged by {BUILDERS} processes")]


def _show_logs(logs: Path) -> None:
    """The workers' standard error, when the benchmark fails."""
    for log in sorted(logs.glob("*.log")):
        text = log.read_text(errors="replace").strip()
        if text:
            print(f"--- {log.stem} ---\n{text[-3000:]}")


if __name__ == "__main__":
    raise SystemExit(run_alone(run))
