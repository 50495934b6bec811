"""DM clicks that land on another process than the one that moved the match last
(:mod:`bench.clusters`, figure 4 of issue 31 part 4).

Discord sends every DM click to shard 0, so a player's click often reaches a process
that did not make the match's last move: it must catch up before it can apply the
click. Here two processes share the matches. Each chain follows one match, a click
every :data:`CLICK_EVERY` seconds, sent in turn to its home process twice, then to
the other twice: so half the clicks land on the process that made the last move
(*same*) and half on the other (*cross*), interleaved, on the same matches, in the
same window. Each click is the one a person would make on the DM the last move
showed: chosen from the state of the process that made it, carrying its step.
The first :data:`WARM_CLICKS` of a chain are not counted (the other process catches
up on the whole load before them).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from bench.clusters_procs import Process

CHAINS = 50
CLICK_EVERY = 0.2
"""Seconds between a chain's clicks (a person reads the DM before clicking again)."""
WARM_CLICKS = 4
ROUTE = (0, 0, 1, 1)
"""Home, home, away, away: which process each click of a chain goes to, in turn."""


@dataclass
class Clicks:
    """Click latencies in milliseconds by where they landed, and the refusals."""

    same: list[float] = field(default_factory=list)
    cross: list[float] = field(default_factory=list)
    refused_same: list[str] = field(default_factory=list)
    refused_cross: list[str] = field(default_factory=list)
    matches: int = 0
    others: float = 0.0
    """Cores used meanwhile by neither the processes, the server nor the kernel."""


async def click_chains(workers: list[Process], owned: list[list[int]],
                       seconds: float) -> Clicks:
    """:data:`CHAINS` chains over the matches ``owned[i]`` by ``workers[i]`` (two of
    each), for ``seconds``."""
    assert len(workers) == len(owned) == 2
    # Candidates alternate between the two processes' matches.
    candidates = [(home, ids[k]) for k in range(max(map(len, owned)))
                  for home, ids in enumerate(owned) if k < len(ids)]
    got = Clicks()
    stop_at = time.monotonic() + seconds
    await asyncio.gather(*(_chain(workers, candidates[c::CHAINS], got, stop_at, c)
                           for c in range(CHAINS)))
    return got


async def _chain(workers: list[Process], candidates: list[tuple[int, int]], got: Clicks,
                 stop_at: float, chain: int) -> None:
    made = 0
    for home, match_id in candidates:
        if time.monotonic() >= stop_at:
            return
        route = [(home + offset) % 2 for offset in ROUTE]
        last = home
        offered: Any = (await workers[home].call("pick", match_id=match_id,
                                                 seed=f"{chain}:{match_id}"))["pick"]
        if offered is not None:
            got.matches += 1
        clicks = 0
        while offered is not None and time.monotonic() < stop_at:
            target = route[clicks % len(route)]
            user_id, choice, step = offered
            made += 1
            answer = await workers[target].call(
                "click", match_id=match_id, user_id=user_id, choice=choice, step=step,
                interaction_id=f"dm-{chain}-{made}")
            counted = clicks >= WARM_CLICKS
            cross = target != last
            if answer["ms"] is None:
                if counted:
                    (got.refused_cross if cross else got.refused_same).append(answer["refused"])
                # The person clicks again on what the process that moved last shows.
                offered = (await workers[last].call("pick", match_id=match_id,
                                                    seed=f"again-{chain}-{made}"))["pick"]
            else:
                if counted:
                    (got.cross if cross else got.same).append(answer["ms"])
                last = target
                offered = answer["pick"]
            clicks += 1
            await asyncio.sleep(CLICK_EVERY)
