"""Swiss tournaments at 500 players: pairing a round and recomputing the standings.

Issue 18 asks ``make bench`` to time pairing a 500-player Swiss round and recomputing
the standings. A seeded tournament of :data:`PLAYERS` entrants is played with random
results (wins by 2–0 or 2–1, a draw one match in :data:`DRAW_ONE_IN`, a drop now and
then between rounds) through :class:`~rules.tournament.swiss.SwissFormat`, and three
figures are measured:

* **Pairing round 4**: ``next_round`` after three rounds of results (the standings
  computed, the field ranked, the maximum-weight matching with the big score groups'
  middles paired first), the median of :data:`RUNS` runs.
* **Slowest round**: the slowest single round of the whole tournament played to
  :data:`ROUNDS` rounds (later rounds have more, smaller score groups, and more
  players who have met).
* **Standings**: ``swiss_standings`` over all :data:`ROUNDS` rounds' results, the
  median of :data:`RUNS` runs.

Targets: pairing ≤ :data:`PAIRING_TARGET_MS` and standings ≤
:data:`STANDINGS_TARGET_MS`, more than ten times what this machine measures, so they
still hold on a slow hour (the machine swings 2–3×) and gate ``make bench``. A pairing
with a rematch while one was avoidable would be a bug, not a slowness: each measured
round's rematches are counted too, and must be 0 (with 500 players and at most 10
rounds a pairing without rematch always exists).

Run it with ``python -m bench.tournament`` or ``python -m bench tournament``, or with
every other benchmark, ``make bench``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from bench.figures import Figure, median_of, run_alone
from rules.tournament.model import Entrant, Pairing, Result
from rules.tournament.standings import swiss_standings
from rules.tournament.swiss import Field, SwissFormat

GROUP = "tournament"
SEED = 20_240_601
PLAYERS = 500
PAIRED_ROUND = 4
ROUNDS = 9
RUNS = 5
DRAW_ONE_IN = 30
DROP_ONE_IN = 100
"""Each active player drops after a round with this chance (one in …)."""
PAIRING_TARGET_MS = 2_000.0
STANDINGS_TARGET_MS = 500.0


@dataclass
class Measured:
    """What one run of the benchmark measured (milliseconds)."""

    players: int
    paired_round: int
    rounds: int
    pairing_ms: float
    standings_ms: float
    round_ms: list[float] = field(default_factory=list)
    """Each round's ``next_round`` in the full playout, round 1 first."""
    rematches: int = 0
    """Rematches in every round measured (the paired round and the playout)."""


def outcome(rng: random.Random, round_no: int, pairing: Pairing) -> Result:
    """A random result: the bye 2–0, else a draw now and then, else 2–0 or 2–1."""
    if len(pairing) == 1:
        return Result(round_no, pairing, (1,), (2,))
    if rng.randrange(DRAW_ONE_IN) == 0:
        return Result(round_no, pairing, (1, 1), (1, 1))
    places = rng.choice([(1, 2), (2, 1)])
    loser = rng.choice([0, 1])
    return Result(round_no, pairing, places, (2, loser) if places == (1, 2) else (loser, 2))


def rematches_in(entrants: list[Entrant], results: list[Result], pairings: tuple[Pairing, ...],
                 round_no: int, seed: int) -> int:
    """How many of ``pairings`` are rematches."""
    return Field.build(entrants, results, seed, round_no).cost(pairings)[0]


def playout(players: int, rounds: int, seed: int = SEED, *,
            stop_before: int | None = None) -> tuple[list[Entrant], list[Result], list[float], int]:
    """A seeded tournament played to ``rounds`` rounds (or up to, not including,
    round ``stop_before``): entrants, results, each round's pairing time in ms, and the
    rematches paired."""
    rng = random.Random(seed)
    entrants = [Entrant(p, p) for p in range(1, players + 1)]
    swiss = SwissFormat(rounds)
    results: list[Result] = []
    times: list[float] = []
    rematches = 0
    while True:
        started = time.perf_counter()
        plan = swiss.next_round(entrants, results, seed)
        elapsed = (time.perf_counter() - started) * 1000.0
        if plan is None or (stop_before is not None and plan.round >= stop_before):
            break
        times.append(elapsed)
        if plan.round > 1:
            rematches += rematches_in(entrants, results, plan.pairings, plan.round, seed)
        results += [outcome(rng, plan.round, p) for p in plan.pairings]
        entrants = [Entrant(e.id, e.seed, plan.round)
                    if e.dropped_after is None and rng.randrange(DROP_ONE_IN) == 0 else e
                    for e in entrants]
    return entrants, results, times, rematches


def measure(players: int = PLAYERS, paired_round: int = PAIRED_ROUND, rounds: int = ROUNDS,
            runs: int = RUNS, seed: int = SEED) -> Measured:
    """Time pairing ``paired_round`` and the standings after ``rounds`` rounds."""
    entrants, results, _, _ = playout(players, rounds, seed, stop_before=paired_round)
    swiss = SwissFormat(rounds)
    pairing_runs = []
    rematches = 0
    for _ in range(runs):
        started = time.perf_counter()
        plan = swiss.next_round(entrants, results, seed)
        pairing_runs.append((time.perf_counter() - started) * 1000.0)
        assert plan is not None and plan.round == paired_round
    rematches += rematches_in(entrants, results, plan.pairings, paired_round, seed)

    entrants, results, round_ms, more = playout(players, rounds, seed)
    standings_runs = []
    for _ in range(runs):
        started = time.perf_counter()
        lines = swiss_standings(entrants, results, seed)
        standings_runs.append((time.perf_counter() - started) * 1000.0)
        assert len(lines) == players
    return Measured(players, paired_round, rounds, median_of(pairing_runs),
                    median_of(standings_runs), round_ms, rematches + more)


def figures(got: Measured) -> list[Figure]:
    """The benchmark's figures with their targets."""
    size = f"{got.players:,} players"
    slowest = max(got.round_ms[1:], default=0.0)
    slowest_round = got.round_ms.index(slowest) + 1 if got.round_ms[1:] else 0
    return [
        Figure(GROUP, f"pairing round {got.paired_round}, {size}", got.pairing_ms, "ms", "<=",
               PAIRING_TARGET_MS, note=f"median of {RUNS} runs of next_round"),
        Figure(GROUP, f"slowest round of {got.rounds}, {size}", slowest, "ms", "<=",
               PAIRING_TARGET_MS, note=f"round {slowest_round}; rounds 2-{got.rounds}: "
               + ", ".join(f"{ms:.0f}" for ms in got.round_ms[1:])),
        Figure(GROUP, f"standings after {got.rounds} rounds, {size}", got.standings_ms, "ms",
               "<=", STANDINGS_TARGET_MS, note=f"median of {RUNS} runs of swiss_standings"),
        Figure(GROUP, "rematches paired (avoidable)", float(got.rematches), "pairings", "<=", 0,
               note="every measured round"),
    ]


def run() -> list[Figure]:
    return figures(measure())


if __name__ == "__main__":
    raise SystemExit(run_alone(run))
