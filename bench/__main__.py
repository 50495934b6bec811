"""Run every benchmark module in :mod:`bench`, in name order.

A benchmark module is any module in this package with a ``main() -> int``;
the run's exit status is 1 if any of them returned non-zero.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Callable

import bench


def benchmarks() -> list[tuple[str, Callable[[], int]]]:
    """The ``(name, main)`` of every benchmark module in the package, sorted by name."""
    found = []
    for info in sorted(pkgutil.iter_modules(bench.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"bench.{info.name}")
        entry = getattr(module, "main", None)
        if callable(entry):
            found.append((info.name, entry))
    return found


def main() -> int:
    """Run each benchmark; 0 only if every one of them passed."""
    failed = []
    for name, entry in benchmarks():
        print(f"=== bench.{name} ===", flush=True)
        if entry() != 0:
            failed.append(name)
        print(flush=True)
    if failed:
        print(f"FAILED: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
