"""Flank's computer levels: ``hard`` up three ladders, ``easy`` against ``normal``,
and how long every level takes a decision.

Each ladder plays :data:`GAMES` games in pairs: one seed, the tested player
first in seat 1 then in seat 2 (:func:`rules.arena.seats_swapped`; the first
player is drawn from the seed, so each side moves first as often as second).
The scores (a win 1, a draw ½) gate against the issue's goals:

* ``hard`` against ``normal`` on 8×8 Othello (``board=8 stoppers=0``): at least 80 %;
* ``hard`` against :func:`depth4`, a plain depth-4 alpha-beta that counts
  mobility and corners, written here from outside the engine, on 8×8 Othello:
  at least 80 %;
* ``hard`` against ``normal`` on the default table: at least 65 %;
* ``easy`` against ``normal`` on the default table: at most 35 %.

``hard`` thinks by the clock; in the ladders its clock is the process's CPU
time (:func:`time.process_time`, through :func:`rules.thinking.use_clock`), so
that a machine busy with other work does not weaken it and the scores measure
the player, not the load. Every decision a computer makes in these games is
timed on the wall clock; the 99th percentile per level is reported against the
issue's 1 s (not gating: absolute times move with the machine's load).

Run it alone with ``python -m bench levels_flank``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from bench.figures import Figure, percentile, run_alone
from bench.ladder import spread, workers
from rules.arena import Score, seats_swapped
from rules.cells import parse_cell
from rules.core import BotPlayer, GameState
from rules.flank.grid import bits, legal_cells, outflanked
from rules.flank.state import FlankState
from rules.registry import get_game
from rules.thinking import use_clock

GROUP = "levels"
SEED = 34_100
GAMES = 100
"""Games per ladder (50 seeds, seats swapped): the issue's 100."""
OTHELLO: Mapping[str, Any] = {"board": 8, "stoppers": 0}
TABLE: Mapping[str, Any] = {}
P99_LIMIT = 1.0
"""Seconds a decision may take at the 99th percentile (the issue's limit)."""
LADDERS: tuple[tuple[str, str, Mapping[str, Any], str, float], ...] = (
    ("hard", "normal", OTHELLO, ">=", 0.80),
    ("hard", "depth4", OTHELLO, ">=", 0.80),
    ("hard", "normal", TABLE, ">=", 0.65),
    ("easy", "normal", TABLE, "<=", 0.35),
)
"""``(tested, opponent, options, compare, target)`` for each ladder."""


# -- the outside baseline ---------------------------------------------------------
CORNER = 10
"""Worth of a corner against one legal placement, to :func:`depth4`."""
DEPTH = 4
WON = 10_000


def _worth(state: FlankState, mine: int, theirs: int, corners: int) -> int:
    """Mobility and corners for the owner of ``mine``."""
    grid = state.grid
    mobility = (legal_cells(grid, mine, theirs, 0, 0).bit_count()
                - legal_cells(grid, theirs, mine, 0, 0).bit_count())
    return mobility + CORNER * ((mine & corners).bit_count() - (theirs & corners).bit_count())


def _alphabeta(state: FlankState, mine: int, theirs: int, depth: int, alpha: int, beta: int,
               passed: bool, corners: int) -> int:
    grid = state.grid
    if depth == 0:
        return _worth(state, mine, theirs, corners)
    moves = legal_cells(grid, mine, theirs, 0, 0)
    if not moves:
        if passed:
            diff = mine.bit_count() - theirs.bit_count()
            return (WON if diff > 0 else -WON if diff < 0 else 0) + diff
        return -_alphabeta(state, theirs, mine, depth - 1, -beta, -alpha, True, corners)
    best = -WON * 2
    for cell in bits(moves):
        flips = outflanked(grid, cell, mine, theirs, 0)
        value = -_alphabeta(state, theirs & ~flips, mine | flips | (1 << cell), depth - 1,
                            -beta, -alpha, False, corners)
        if value > best:
            best = value
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    return best


def depth4(state: GameState, seat: int, rng: random.Random) -> str:
    """A plain depth-4 alpha-beta of mobility and corners (Othello only: a bounded
    board without stoppers); equal options are told apart by ``rng``."""
    assert isinstance(state, FlankState) and state.grid.bounded
    (decision,) = state.pending()
    if len(decision.options) == 1:
        return decision.options[0]
    grid = state.grid
    last = grid.w - 1
    corners = sum(1 << grid.index(x, y) for x in (0, last) for y in (0, last))
    mine, theirs = state.discs[seat], state.discs[1 - seat]
    options = list(decision.options)
    rng.shuffle(options)
    best, chosen = -WON * 3, options[0]
    for option in options:
        x_y = grid.index(*parse_cell(option))
        flips = outflanked(grid, x_y, mine, theirs, 0)
        value = -_alphabeta(state, theirs & ~flips, mine | flips | (1 << x_y), DEPTH - 1,
                            -WON * 3, -best, False, corners)
        if value > best:
            best, chosen = value, option
    return chosen


# -- the ladders -------------------------------------------------------------------
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


def player(level: str) -> BotPlayer:
    """A level of Flank's computer, or the outside baseline ``depth4``."""
    return depth4 if level == "depth4" else get_game("flank").computer(level)


def play_pair(k: int, tested: str, opponent: str,
              options: Mapping[str, Any]) -> tuple[Score, list[float], list[float]]:
    """Seed ``k`` of a ladder: ``tested``'s score over its two games against
    ``opponent``, and the seconds each side's decisions took."""
    a, b = Timed(player(tested)), Timed(player(opponent))
    with use_clock(time.process_time):
        score = seats_swapped(get_game("flank"), options, SEED + k, a, b)
    return score, a.seconds, b.seconds


def ladder(tested: str, opponent: str, options: Mapping[str, Any],
           games: int = GAMES) -> tuple[Score, list[float], list[float], float]:
    """``tested`` against ``opponent`` over ``games`` games: the score, both sides'
    decision times and the seconds the ladder took."""
    started = time.perf_counter()
    pairs = spread(play_pair, range(games // 2), tested, opponent, dict(options))
    score = sum((s for s, _, _ in pairs), Score(0.0, 0))
    mine = [t for _, times, _ in pairs for t in times]
    theirs = [t for _, _, times in pairs for t in times]
    return score, mine, theirs, time.perf_counter() - started


def timing(level: str, seconds: list[float]) -> Figure:
    """The 99th percentile of ``level``'s decision times, in seconds."""
    p99 = percentile(seconds, 99)
    note = (f"p50 {1000 * percentile(seconds, 50):.1f} ms, max {1000 * max(seconds):.0f} ms, "
            f"{len(seconds)} decisions on {workers()} busy cores")
    return Figure(GROUP, f"flank {level}: decision time p99", p99, "s", "<=", P99_LIMIT, note,
                  gates=False)


def run(games: int = GAMES) -> list[Figure]:
    """The four ladders and the three levels' decision times."""
    figures: list[Figure] = []
    times: dict[str, list[float]] = {"easy": [], "normal": [], "hard": []}
    for tested, opponent, options, compare, target in LADDERS:
        score, mine, theirs, seconds = ladder(tested, opponent, options, games)
        times[tested] += mine
        if opponent in times:
            times[opponent] += theirs
        table = "8×8 Othello" if options else "the default table"
        figures.append(Figure(
            GROUP, f"flank: {tested} vs {opponent} on {table} (seats swapped)", score.share,
            "share", compare, target, f"{score.shown}; {seconds:.0f} s"))
    for level in ("easy", "normal", "hard"):
        figures.append(timing(level, times[level]))
    return figures


if __name__ == "__main__":
    raise SystemExit(run_alone(run))
