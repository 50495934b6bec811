"""Eclipse's computer levels: ``hard`` against ``normal`` at two seats and alone
against two of them at three, ``easy`` against ``normal``, and how long every
level takes a decision.

* **Two seats**: :data:`GAMES` games, :data:`GAMES` // 2 seeds each played twice
  with the seats swapped (:func:`rules.arena.seats_swapped`). ``hard`` must
  score at least 60 % (a win 1; Eclipse has no draws), ``easy`` at most 35 %
  (it loses at least 65 %).
* **Three seats**: :data:`TABLES` seeds, each played three times with ``hard``
  in each seat in turn and ``normal`` in the other two. A fair share is one
  game in three; ``hard`` must win at least 45 %.

Every decision a computer makes in these games is timed; the 99th percentile
per level is reported against the issue's 0.2 s (not gating: absolute times move
with the machine's load). The games are spread over every core
(:func:`bench.ladder.spread`). Run it alone with ``python -m bench levels_eclipse``.
"""

from __future__ import annotations

import random
import time

from bench.figures import Figure, percentile, run_alone
from bench.ladder import spread, workers
from rules.arena import Score, play, seats_swapped
from rules.core import BotPlayer, GameState
from rules.registry import get_game

GROUP = "levels"
SEED = 34_500
GAMES = 400
"""Games of each two-seat ladder (200 seeds, seats swapped)."""
TABLES = 100
"""Seeds of the three-seat ladder (300 games: ``hard`` in each seat)."""
HARD_AT_LEAST = 0.60
HARD_ALONE_AT_LEAST = 0.45
EASY_AT_MOST = 0.35
P99_LIMIT = 0.2
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
    """Seed ``k`` of the two-seat ``level`` ladder: ``level``'s score over its two
    games against ``normal``, and the seconds each side's decisions took."""
    info = get_game("eclipse")
    tested, normal = Timed(info.computer(level)), Timed(info.computer("normal"))
    score = seats_swapped(info, {}, SEED + k, tested, normal)
    return score, tested.seconds, normal.seconds


def play_table(k: int) -> tuple[Score, list[float], list[float]]:
    """Seed ``k`` of the three-seat ladder: ``hard``'s wins over three games, alone
    against two ``normal`` in each seat in turn, and both levels' decision times."""
    info = get_game("eclipse")
    hard, normal = Timed(info.computer("hard")), Timed(info.computer("normal"))
    points = 0.0
    for seat in range(3):
        players: list[BotPlayer] = [normal, normal, normal]
        players[seat] = hard
        points += play(info, {}, SEED + 10_000 + k, players).score(seat)
    return Score(points, 3), hard.seconds, normal.seconds


def _summed(rounds: list[tuple[Score, list[float], list[float]]]
            ) -> tuple[Score, list[float], list[float]]:
    score = sum((s for s, _, _ in rounds), Score(0.0, 0))
    return (score, [t for _, times, _ in rounds for t in times],
            [t for _, _, times in rounds for t in times])


def timing(level: str, seconds: list[float]) -> Figure:
    """The 99th percentile of ``level``'s decision times, in seconds."""
    p99 = percentile(seconds, 99)
    note = (f"p50 {1000 * percentile(seconds, 50):.2f} ms, max {1000 * max(seconds):.0f} ms, "
            f"{len(seconds)} decisions on {workers()} busy cores")
    return Figure(GROUP, f"eclipse {level}: decision time p99", p99, "s", "<=", P99_LIMIT, note,
                  gates=False)


def run(games: int = GAMES, tables: int = TABLES) -> list[Figure]:
    """The three ladders and the three levels' decision times."""
    figures: list[Figure] = []
    times: dict[str, list[float]] = {"easy": [], "normal": [], "hard": []}
    goals = {"hard": (">=", HARD_AT_LEAST), "easy": ("<=", EASY_AT_MOST)}
    for level, (compare, target) in goals.items():
        started = time.perf_counter()
        score, tested, normal = _summed(spread(play_pair, range(games // 2), level))
        times[level] += tested
        times["normal"] += normal
        figures.append(Figure(
            GROUP, f"eclipse: {level} vs normal, 2 seats (seats swapped)", score.share,
            "share", compare, target,
            f"{score.shown}; {time.perf_counter() - started:.0f} s"))
    started = time.perf_counter()
    score, hard, normal = _summed(spread(play_table, range(tables)))
    times["hard"] += hard
    times["normal"] += normal
    figures.append(Figure(
        GROUP, "eclipse: hard alone vs two normal, 3 seats (each seat)", score.share,
        "share", ">=", HARD_ALONE_AT_LEAST,
        f"{score.shown}; a fair share is 33 %; {time.perf_counter() - started:.0f} s"))
    figures += [timing(level, times[level]) for level in ("easy", "normal", "hard")]
    return figures


if __name__ == "__main__":
    raise SystemExit(run_alone(run))
