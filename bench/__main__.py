"""Run every benchmark in :mod:`bench`, print one table, write ``bench/results.json``.

A benchmark module is any module of this package with ``run() -> list[Figure]``
(see :mod:`bench.figures`). ``python -m bench name …`` runs only those modules.
The exit status is 1 if any gating target is missed or any benchmark fails
(see :attr:`bench.figures.Figure.gates`).
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
import traceback
from collections.abc import Callable

import bench
from bench.figures import Figure, missed, table, write_results


def benchmarks(only: set[str] | None = None) -> list[tuple[str, Callable[[], list[Figure]]]]:
    """The ``(name, run)`` of every benchmark module, sorted by name."""
    found = []
    for info in sorted(pkgutil.iter_modules(bench.__path__), key=lambda i: i.name):
        if info.name.startswith("_") or info.name == "figures":
            continue
        if only and info.name not in only:
            continue
        module = importlib.import_module(f"bench.{info.name}")
        entry = getattr(module, "run", None)
        if callable(entry):
            found.append((info.name, entry))
    return found


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks; 0 only if each ran and met its targets."""
    only = set(argv if argv is not None else sys.argv[1:]) or None
    figures: list[Figure] = []
    failed = []
    for name, entry in benchmarks(only):
        print(f"=== bench.{name} ===", flush=True)
        started = time.perf_counter()
        try:
            got = entry()
        except Exception:
            traceback.print_exc()
            failed.append(name)
            continue
        figures += got
        print(table(got), flush=True)
        print(f"({time.perf_counter() - started:.1f} s)\n", flush=True)
    print("=== all figures ===")
    print(table(figures))
    if only is None:
        write_results(figures)
        print("\nwritten to bench/results.json")
    short = missed(figures)
    reported = [f for f in figures if f.met is False and not f.gates]
    if failed:
        print(f"FAILED: {', '.join(failed)}", file=sys.stderr)
    if reported:
        print("missed, reported only (absolute speeds): "
              + ", ".join(f"{f.group}: {f.name}" for f in reported), file=sys.stderr)
    if short:
        print("MISSED: " + ", ".join(f"{f.group}: {f.name}" for f in short), file=sys.stderr)
    return 1 if failed or short else 0


if __name__ == "__main__":
    raise SystemExit(main())
