"""What every benchmark reports: figures with their targets, a table, and
``bench/results.json``.

A benchmark module has ``run() -> list[Figure]``. :mod:`bench.__main__` runs
them all, prints one table with each target beside its figure, and writes the
figures to ``bench/results.json``. Figures without a target are context (the
raw SQLite ceiling, say). A missed target makes ``make bench`` exit 1 when the
figure gates: ratios of figures measured in the same run, and what does not move
with the machine's speed (memory). Absolute speeds are reported beside their
targets without gating: this machine runs 2–3× slower in a slow hour.
"""

from __future__ import annotations

import json
import platform
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results.json"


@dataclass(frozen=True)
class Figure:
    """One measured figure.

    >>> Figure("rules", "Flank perft d6", 250_000.0, "moves/s", ">=", 200_000).met
    True
    >>> Figure("service", "p99", 30.0, "ms", "<=", 25).met
    False
    >>> seats = Figure("seats", "first mover", 0.56, "share", "between", 0.45, high=0.55)
    >>> seats.met, seats.target_shown
    (False, '0.45–0.55')

    A figure without a target is context (the raw SQLite ceiling, say).
    """

    group: str
    name: str
    value: float
    unit: str
    compare: str | None = None
    """``>=``, ``<=`` or ``between`` (:attr:`target` to :attr:`high`, both
    included) when the figure has a target."""
    target: float | None = None
    note: str = ""
    gates: bool = True
    """Whether missing the target fails ``make bench``."""
    high: float | None = None
    """The upper end of a ``between`` target."""

    @property
    def met(self) -> bool | None:
        """Whether the target is met (``None`` without a target)."""
        if self.compare is None or self.target is None:
            return None
        if self.compare == "between":
            return self.high is not None and self.target <= self.value <= self.high
        return self.value >= self.target if self.compare == ">=" else self.value <= self.target

    @property
    def target_shown(self) -> str:
        """The target for reading (``""`` without one)."""
        if self.compare is None or self.target is None:
            return ""
        if self.compare == "between":
            high = "?" if self.high is None else f"{self.high:,g}"
            return f"{self.target:,g}–{high}"
        return f"{self.compare} {self.target:,g}"

    @property
    def shown(self) -> str:
        """The value, rounded for reading."""
        value = self.value
        if abs(value) >= 1000:
            return f"{value:,.0f}"
        if abs(value) >= 10:
            return f"{value:.1f}"
        return f"{value:.3g}"


def median_of(runs: Sequence[float]) -> float:
    """The median of several runs (benchmarks report medians)."""
    return statistics.median(runs)


def percentile(samples: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (0–100) by the nearest-rank method.

    >>> percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)
    10
    """
    ordered = sorted(samples)
    if not ordered:
        return float("nan")
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def table(figures: Sequence[Figure]) -> str:
    """The figures as a plain-text table, target beside each."""
    rows = [("group", "figure", "value", "unit", "target", "")]
    for f in figures:
        target = f.target_shown
        verdict = {True: "ok", False: "MISSED" if f.gates else "missed (reported)",
                   None: ""}[f.met]
        rows.append((f.group, f.name, f.shown, f.unit, target, verdict))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        lines.append("  ".join(cell.rjust(widths[i]) if i == 2 else cell.ljust(widths[i])
                               for i, cell in enumerate(row)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def write_results(figures: Sequence[Figure], path: Path = RESULTS) -> None:
    """Save the figures, with the machine they were measured on."""
    machine = {"python": platform.python_version(), "machine": platform.machine(),
               "processor": platform.processor() or platform.machine(),
               "system": platform.platform()}
    try:
        import os

        machine["cpus"] = str(os.cpu_count())
    except Exception:  # pragma: no cover - informational only
        pass
    payload = {"machine": machine, "figures": [asdict(f) | {"met": f.met} for f in figures]}
    path.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")


def run_alone(run: Callable[[], list[Figure]]) -> int:
    """Run one benchmark module on its own (``python -m bench.rules``): print its
    table; 0 if every target is met, else 1."""
    figures = run()
    print(table(figures))
    return 0 if not missed(figures) else 1


def missed(figures: Sequence[Figure]) -> list[Figure]:
    """The gating figures that missed their target.

    >>> missed([Figure("g", "ratio", 0.4, "ratio", ">=", 0.6),
    ...         Figure("g", "rate", 900.0, "/s", ">=", 2_500, gates=False)])[0].name
    'ratio'
    """
    return [f for f in figures if f.met is False and f.gates]
