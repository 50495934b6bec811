"""The figures of the cluster benchmark (:mod:`bench.clusters`): what each window
measured, and the table's figures with the targets of issue 31 part 4."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.clusters_clicks import Clicks
from bench.clusters_procs import Process
from bench.clusters_server import KINDS, Profile
from bench.figures import Figure, median_of, percentile

GROUP = "clusters"
MATCHES = 1_000
"""Matches over all the processes of a cluster."""
PAIR = 2
"""The cluster the raw ceiling, the paced load and the DM clicks are measured on."""
PACED_SHARE = 0.5
"""The paced load, as a share of the same cluster's saturated rate."""
CARRIED = 0.98
"""A paced window carries its load when it commits this share of what it offered."""

TARGET_SCALING = 1.6
TARGET_RAW_RATIO = 0.8
TARGET_P99_MS = 25.0
TARGET_ADDED_MS = 10.0


@dataclass
class Window:
    """One window of a cluster (or of the raw loops)."""

    rate: float
    cpu: float
    """CPU seconds of the cluster's processes during the window."""
    seconds: float
    refused: int = 0
    finished: int = 0
    profile: Profile | None = None


@dataclass
class Cluster:
    """A cluster of processes on a database of its own, and its windows."""

    size: int
    database: str | None
    """The PostgreSQL database's name (``None``: a SQLite file, at :attr:`url`)."""
    url: str
    workers: list[Process]
    owned: list[list[int]] = field(default_factory=list)
    saturated: list[Window] = field(default_factory=list)

    @property
    def rate(self) -> float:
        """The median saturated rate."""
        return median_of([w.rate for w in self.saturated])

    def profile(self) -> Profile:
        """The saturated windows' profiles together."""
        total = Profile()
        for window in self.saturated:
            assert window.profile is not None
            total.add(window.profile)
        return total


@dataclass
class Paced:
    """One paced window of the cluster of two."""

    offered: float
    committed: float
    ms: list[float]
    refused: int
    seconds: float
    others: float = 0.0
    """Cores used meanwhile by neither the processes, the server nor the kernel."""


@dataclass
class Run:
    """Everything measured."""

    clusters: dict[int, Cluster]
    raw: list[Window]
    raw_connections: int
    paced: list[Paced]
    clicks: Clicks
    aged: int
    sqlite: Cluster | None = None
    """One process on SQLite, the same matches: context for when to move."""


def _plural(size: int) -> str:
    return f"{size} process" + ("es" if size > 1 else "")


def _cpu_per_choice(cluster: Cluster) -> float:
    """Microseconds of the cluster's processes' CPU per committed choice."""
    windows = cluster.saturated
    return 1e6 * sum(w.cpu for w in windows) / sum(w.rate * w.seconds for w in windows)


def _profile_figures(cluster: Cluster) -> list[Figure]:
    """Where a cluster's saturated time goes."""
    got = cluster.profile()
    label = _plural(cluster.size)
    seconds = sum(w.seconds for w in cluster.saturated)
    bots = sum(w.cpu for w in cluster.saturated) / seconds
    choices = sum(w.rate * w.seconds for w in cluster.saturated)
    flush_us = 1000 * got.flush_ms / got.flushes if got.flushes else 0.0
    others = (got.machine - got.cpu - got.kernel) / got.seconds - bots
    shares = ", ".join(f"{kind} {got.share(kind):.0%}" for kind in KINDS
                       if kind != "idle in the pool")
    return [
        Figure(GROUP, f"{label}, saturated: CPU of the bots", bots, "cores",
               note=f"{_cpu_per_choice(cluster):.0f} µs of bot CPU per choice"),
        Figure(GROUP, f"{label}, saturated: CPU of the server", got.cpu / got.seconds,
               "cores", note=f"{1e6 * got.cpu / choices:.0f} µs of server CPU per choice"),
        Figure(GROUP, f"{label}, saturated: CPU of the kernel", got.kernel / got.seconds,
               "cores", note="its threads and interrupts: the disk's writes and flushes"),
        Figure(GROUP, f"{label}, saturated: CPU of anything else", max(0.0, others), "cores",
               note="this benchmark's monitor, and whatever else ran on the machine"),
        Figure(GROUP, f"{label}, saturated: WAL flushes", got.flushes / got.seconds, "/s",
               note=f"{flush_us:.0f} µs each, the flusher busy "
                    f"{got.flush_ms / 1000 / got.seconds:.0%} of the time; "
                    f"{choices / got.flushes if got.flushes else 0:.2f} choices a flush"),
        Figure(GROUP, f"{label}, saturated: connections in use", got.busy_connections(),
               "connections", note=f"of {got.most_connections} open; their time: {shares}"),
        Figure(GROUP, f"{label}, saturated: connections waiting on a lock",
               got.share("lock wait"), "share",
               note="of the sampled time of the connections in use"),
    ]


def figures(run: Run) -> list[Figure]:
    """Every figure of the run."""
    clusters = run.clusters
    one, pair = clusters[1], clusters[PAIR]
    found: list[Figure] = []
    for cluster in clusters.values():
        refused = sum(w.refused for w in cluster.saturated)
        ended = sum(w.finished for w in cluster.saturated)
        windows = cluster.saturated
        found.append(Figure(
            GROUP, f"{_plural(cluster.size)}, saturated: committed choices/s", cluster.rate,
            "choices/s", note=f"{MATCHES:,} matches split by shard; median of "
                              f"{len(windows)} × {windows[0].seconds:g} s windows "
                              f"({spread([w.rate for w in windows])}), "
                              f"1, 2 and 3 processes in turn; {refused} refused, {ended} "
                              f"ended matches dealt again"))
    found.append(Figure(GROUP, "2 processes ÷ 1 (saturated, same run)", pair.rate / one.rate,
                        "ratio", ">=", TARGET_SCALING,
                        f"{pair.rate:,.0f} ÷ {one.rate:,.0f} choices/s"))
    if 3 in clusters:
        found.append(Figure(GROUP, "3 processes ÷ 1 (saturated, same run)",
                            clusters[3].rate / one.rate, "ratio",
                            note=f"{clusters[3].rate:,.0f} ÷ {one.rate:,.0f} choices/s"))
    if run.sqlite is not None:
        alone = run.sqlite
        found.append(Figure(
            GROUP, "1 process on SQLite, same matches: committed choices/s", alone.rate,
            "choices/s", note=f"context for when to move: the same {MATCHES:,} matches in a "
                              f"SQLite file, windows in turn with the clusters' "
                              f"({spread([w.rate for w in alone.saturated])}), "
                              f"{_cpu_per_choice(alone):.0f} µs of bot CPU a choice (its "
                              f"writer process left out); PostgreSQL's "
                              + ", ".join(f"{size}: {c.rate / alone.rate:.2f}×"
                                          for size, c in clusters.items())))
    for cluster in clusters.values():
        found += _profile_figures(cluster)
    found += _raw_figures(run, pair)
    found += _paced_figures(run, pair)
    found += _click_figures(run.clicks)
    return found


def _raw_figures(run: Run, pair: Cluster) -> list[Figure]:
    raw_rate = median_of([w.rate for w in run.raw])
    raw_cpu = sum(w.cpu for w in run.raw) / sum(w.seconds for w in run.raw)
    return [
        Figure(GROUP, "raw PostgreSQL INSERT+COMMIT/s (2 processes)", raw_rate, "commits/s",
               note=f"{run.raw_connections} connections over 2 processes (as many as the "
                    f"service held), durable commits; median of {len(run.raw)} × "
                    f"{run.raw[0].seconds:g} s, in turn with the service's windows; "
                    f"{raw_cpu:.2f} cores of client CPU"),
        Figure(GROUP, "service on PostgreSQL ÷ raw PostgreSQL (2 processes)",
               pair.rate / raw_rate, "ratio", ">=", TARGET_RAW_RATIO,
               f"{pair.rate:,.0f} ÷ {raw_rate:,.0f} per second, same run"),
    ]


def _paced_figures(run: Run, pair: Cluster) -> list[Figure]:
    windows = run.paced
    p99 = median_of([percentile(w.ms, 99) for w in windows])
    p50 = median_of([percentile(w.ms, 50) for w in windows])
    offered = median_of([w.offered for w in windows])
    committed = median_of([w.committed for w in windows])
    carried = all(w.committed >= CARRIED * w.offered for w in windows)
    return [
        Figure(GROUP, f"2 processes, paced at {PACED_SHARE:g} of saturated: submit p99", p99,
               "ms", "<=", TARGET_P99_MS,
               f"{offered:,.0f}/s offered, {committed:,.0f}/s committed"
               f"{'' if carried else ' (not carried)'}, p50 {p50:.1f} ms; median of "
               f"{len(windows)} × {windows[0].seconds:g} s; "
               f"{sum(w.refused for w in windows)} refused; anything else on the machine: "
               f"{spread_of([w.others for w in windows])} cores"),
    ]


def _click_figures(clicks: Clicks) -> list[Figure]:
    same = percentile(clicks.same, 99)
    cross = percentile(clicks.cross, 99)
    note = (f"{len(clicks.same)} clicks on the process that moved last, "
            f"{len(clicks.cross)} on the other, interleaved over {clicks.matches} matches; "
            f"anything else on the machine: {clicks.others:.2f} cores")
    reasons = sorted({reason.split(":")[0] for reason in clicks.refused_cross})
    added = cross - same if clicks.cross and clicks.same else float("inf")
    return [
        Figure(GROUP, "DM click, on the process that made the last move: p99", same, "ms",
               note=f"p50 {percentile(clicks.same, 50):.1f} ms; {note}"),
        Figure(GROUP, "DM click, on another process: p99", cross, "ms",
               note=f"p50 {percentile(clicks.cross, 50):.1f} ms"),
        Figure(GROUP, "DM click on another process: p99 added latency", added, "ms", "<=",
               TARGET_ADDED_MS, f"{cross:.1f} − {same:.1f} ms, same window"),
        Figure(GROUP, "DM clicks on another process refused", len(clicks.refused_cross),
               "clicks", "<=", 0,
               f"of {len(clicks.cross) + len(clicks.refused_cross)}"
               + (f": {', '.join(reasons)}" if reasons else "")
               + f"; {len(clicks.refused_same)} refused on the process that moved last"),
    ]


def spread(values: Sequence[float]) -> str:
    """The lowest and highest of ``values``, for notes."""
    return f"{min(values):,.0f}–{max(values):,.0f}" if values else "–"


def spread_of(values: Sequence[float]) -> str:
    """The lowest and highest of small ``values``, for notes."""
    return f"{min(values):.2f}–{max(values):.2f}" if values else "–"
