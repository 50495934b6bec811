"""The cluster benchmark's machinery (bench/clusters*.py, issue 31 part 4): its figures
gate what the issue asks, and its workers, two services over one PostgreSQL database,
split the matches by shard, play them, and count DM clicks by the process they land on."""

from __future__ import annotations

import asyncio
import gc
import time
from collections import Counter
from typing import Any

import pytest

from bench import clusters_clicks
from bench.clusters_clicks import Clicks, click_chains
from bench.clusters_figures import Cluster, Paced, Run, Window, figures
from bench.clusters_play import shard_of
from bench.clusters_server import Profile
from bench.clusters_worker import Worker
from bench.figures import missed
from tests.pgserver import PgServer


def _window(rate: float) -> Window:
    profile = Profile(seconds=2.0, cpu=0.5, flushes=1_000, flush_ms=150.0, samples=200,
                      kinds=Counter({"running": 100, "WAL flush": 60, "lock wait": 40,
                                     "idle in the pool": 1_400}), most_connections=8)
    return Window(rate=rate, cpu=1.2, seconds=2.0, profile=profile)


def _run(clicks: Clicks) -> Run:
    clusters = {size: Cluster(size, f"clusters_{size}", "postgresql://x", [],
                              saturated=[_window(rate), _window(rate + 10), _window(rate - 10)])
                for size, rate in ((1, 1_000.0), (2, 1_700.0), (3, 2_100.0))}
    paced = [Paced(offered=850.0, committed=850.0, ms=[float(ms) for ms in range(1, 101)],
                   refused=0, seconds=4.0)]
    sqlite = Cluster(1, None, "x.sqlite3", [], saturated=[_window(4_000.0)])
    return Run(clusters, raw=[_window(2_000.0)], raw_connections=16, paced=paced,
               clicks=clicks, aged=30_000, sqlite=sqlite)


def test_the_cluster_figures_gate_what_issue_31_asks() -> None:
    clicks = Clicks(same=[float(ms) for ms in range(1, 101)],
                    cross=[float(ms) + 4 for ms in range(1, 101)])
    got = {f.name: f for f in figures(_run(clicks))}

    scaling = got["2 processes ÷ 1 (saturated, same run)"]
    assert scaling.value == pytest.approx(1.7)
    assert (scaling.compare, scaling.target, scaling.gates) == (">=", 1.6, True)
    assert got["3 processes ÷ 1 (saturated, same run)"].value == pytest.approx(2.1)
    assert got["3 processes ÷ 1 (saturated, same run)"].target is None  # reported
    raw = got["service on PostgreSQL ÷ raw PostgreSQL (2 processes)"]
    assert raw.value == pytest.approx(0.85)
    assert (raw.compare, raw.target, raw.gates) == (">=", 0.8, True)
    paced = got["2 processes, paced at 0.5 of saturated: submit p99"]
    assert (paced.value, paced.compare, paced.target) == (99.0, "<=", 25.0)
    added = got["DM click on another process: p99 added latency"]
    assert (added.value, added.compare, added.target) == (pytest.approx(4.0), "<=", 10.0)
    sqlite = got["1 process on SQLite, same matches: committed choices/s"]
    assert sqlite.value == 4_000.0 and sqlite.target is None  # context
    assert "2: 0.42×" in sqlite.note
    lock = got["2 processes, saturated: connections waiting on a lock"]
    assert lock.value == pytest.approx(0.2)  # 40 of the 200 samples in use
    assert [f.name for f in missed(got.values())] == [paced.name]


def test_a_refused_click_on_another_process_fails_the_run() -> None:
    clicks = Clicks(same=[5.0], cross=[6.0], refused_cross=["StaleChoice: old"])
    got = {f.name: f for f in figures(_run(clicks))}
    refused = got["DM clicks on another process refused"]
    assert refused.value == 1 and refused in missed(got.values())
    assert "StaleChoice" in refused.note


class _Local:
    """A worker in this process, asked as the benchmark asks a worker process."""

    def __init__(self, worker: Worker) -> None:
        self.worker = worker

    async def call(self, op: str, **arguments: Any) -> dict[str, Any]:
        return await getattr(self.worker, op)(**arguments)


async def test_two_services_split_play_and_click_the_benchmarks_matches(
        pg_server: PgServer, monkeypatch: pytest.MonkeyPatch) -> None:
    thresholds = gc.get_threshold()
    url = await pg_server.database()
    built = await Worker().build(url, 0, 6, 1, 100_000_000)
    assert (built["built"], built["refused"]) == (6, 0) and built["aged"] > 0
    pair = [Worker(), Worker()]
    try:
        owned = [(await w.open(url, i, 2, (10 + i) * 100_000_000))["ids"]
                 for i, w in enumerate(pair)]
        assert sorted(owned[0] + owned[1]) == list(range(1, 7))
        for i, worker in enumerate(pair):  # each restored its own shard's matches only
            assert all(shard_of(s.match.row.guild_id or 0, 2) == i for s in worker.slots)

        start_at = time.monotonic() + 0.05
        played = await asyncio.gather(*(w.saturate(start_at, 0.3, "t") for w in pair))
        assert all(p["count"] > 0 and p["refused"] == 0 for p in played)

        monkeypatch.setattr(clusters_clicks, "CLICK_EVERY", 0.0)
        clicks = await click_chains([_Local(w) for w in pair],  # type: ignore[misc]
                                    owned, 0.5)
        assert clicks.same and clicks.cross
        assert not clicks.refused_same and not clicks.refused_cross
    finally:
        for worker in pair:
            await worker.close()
        gc.set_threshold(*thresholds)
