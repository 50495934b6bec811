"""Many games at once on every core: the ladders and first-mover figures' runner.

A benchmark hands :func:`spread` a picklable function of one seed (a module's
own function, taking ``(seed, *arguments)``) and the seeds; each core plays its
share and the results come back in seed order. Games are independent, so two
cores play a ladder in half the time.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def workers() -> int:
    """Processes to play in: every core this process may use."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 1)


def spread(play_one: Callable[..., T], seeds: Iterable[int], *arguments: Any,
           processes: int | None = None) -> list[T]:
    """``[play_one(seed, *arguments) for seed in seeds]``, played on every core."""
    chosen: Sequence[int] = list(seeds)
    count = processes or workers()
    if count == 1 or len(chosen) < 2:
        return [play_one(seed, *arguments) for seed in chosen]
    with ProcessPoolExecutor(max_workers=count) as pool:
        futures = [pool.submit(play_one, seed, *arguments) for seed in chosen]
        return [future.result() for future in futures]
