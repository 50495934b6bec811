"""Hammer & Nails' computer levels: ``hard`` and ``easy`` each against ``normal``,
and how long every level takes a decision.

Each ladder plays :data:`GAMES` games of the default table (two players, the
workshop deck, fewest nails win): :data:`GAMES` // 2 seeds, each played twice
with the seats swapped (:func:`rules.arena.seats_swapped`), spread over every
core (:func:`bench.ladder.spread`). The score (a win 1; a tie the removals do not
break is a draw, ½) gates against the issue's goals: ``hard`` at least 65 %,
``easy`` at most 35 % (it loses at least 65 %). Every decision a computer makes
in these games is timed; the 99th percentile per level is reported against the
issue's 0.5 s (not gating: absolute times move with the machine's load).

Run it alone with ``python -m bench levels_nails``.
"""

from __future__ import annotations

import random
import time

from bench.figures import Figure, percentile, run_alone
from bench.ladder import spread, workers
from rules.arena import Score, seats_swapped
from rules.core import LEVELS, BotPlayer, GameState
from rules.registry import get_game

GROUP = "levels"
SEED = 34_700
GAMES = 200
"""Games per ladder (100 seeds, seats swapped)."""
HARD_AT_LEAST = 0.65
EASY_AT_MOST = 0.35
P99_LIMIT = 0.5
"""Seconds a decision may take at the 99th percentile (the issue's limit)."""


class Timed:
    """A computer player that notes how long each of its decisions took."""

    def __init__(self, player: BotPlayer) -> None:
        self.player = player
        self.seconds: list[float] = []

    def __call__(self, state: GameState, seat: int, rng: random.Random) -> str:
        started = time.perf_counter()
        choice = self.player(state, seat, rng)
        self.seconds.append(time.perf_counter() - started)
        return choice


def play_pair(k: int, level: str) -> tuple[Score, list[float], list[float]]:
    """Seed ``k`` of the ``level`` ladder: ``level``'s score over its two games
    against ``normal``, and the seconds each side's decisions took."""
    info = get_game("nails")
    tested, normal = Timed(info.computer(level)), Timed(info.computer("normal"))
    score = seats_swapped(info, {}, SEED + k, tested, normal)
    return score, tested.seconds, normal.seconds


def ladder(level: str, games: int = GAMES) -> tuple[Score, list[float], list[float], float]:
    """``level`` against ``normal`` over ``games`` games: the score, both sides'
    decision times and the seconds the ladder took."""
    started = time.perf_counter()
    pairs = spread(play_pair, range(games // 2), level)
    score = sum((s for s, _, _ in pairs), Score(0.0, 0))
    tested = [t for _, times, _ in pairs for t in times]
    normal = [t for _, _, times in pairs for t in times]
    return score, tested, normal, time.perf_counter() - started


def timing(level: str, seconds: list[float]) -> Figure:
    """The 99th percentile of ``level``'s decision times, in seconds."""
    p99 = percentile(seconds, 99)
    note = (f"p50 {1000 * percentile(seconds, 50):.1f} ms, max {1000 * max(seconds):.0f} ms, "
            f"{len(seconds)} decisions on {workers()} busy cores")
    return Figure(GROUP, f"nails {level}: decision time p99", p99, "s", "<=", P99_LIMIT, note,
                  gates=False)


def run(games: int = GAMES) -> list[Figure]:
    """The two ladders and the three levels' decision times."""
    figures: list[Figure] = []
    times: dict[str, list[float]] = {"normal": []}
    goals = {"hard": (">=", HARD_AT_LEAST), "easy": ("<=", EASY_AT_MOST)}
    for level, (compare, target) in goals.items():
        score, tested, normal, seconds = ladder(level, games)
        times[level] = tested
        times["normal"] += normal
        figures.append(Figure(
            GROUP, f"nails: {level} vs normal (seats swapped)", score.share, "share",
            compare, target, f"{score.shown}; {seconds:.0f} s"))
    figures += [timing(level, times[level]) for level in LEVELS]
    return figures


if __name__ == "__main__":
    raise SystemExit(run_alone(run))
