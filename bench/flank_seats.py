"""Flank's first mover under each candidate remedy: the measurements behind
``extra_stoppers`` (docs/rules/flank.md, "Fair seats").

Not part of ``make bench`` (it has no ``run``: its games take most of an hour with
``hard``); ``make bench`` reports the chosen default's figure through
:mod:`bench.seats`. Run it alone::

    python -m bench.flank_seats [level] [games] [candidate …]

Every candidate plays ``games`` self-play games of the unbounded table (5 stoppers
each, 25 cards each, no stopper zone) seeded ``SEED + n``, the same computer in both
seats; the first player is drawn from the seed and plays black (X). The figure is
black's score (a win 1, a draw ½) with its Wilson 95 % interval. A candidate the
options cannot express yet is played from a start built from the seed's
(:func:`rules.arena.play_from`):

* ``seed``: the seed's rule, stoppers evenly divided (``extra_stoppers:0``);
* ``extra-N``: N stoppers more for black (``extra_stoppers:N``);
* ``card``: a card more for black (24 to lay against 23, so that black lays the last);
* ``parallel``: another opening, the four cards side by side (``XX/OO``) instead of
  crossed;
* ``pie-card`` and ``pie-stopper``: black's first card laid plainly, or with a stopper
  on it. Under the pie rule white may take black's side after black's first card, so
  black scores at best the better of ``min(s, 1 - s)`` over its openings: every plain
  first card is the same up to symmetry, and so is every stoppered one.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from bench.ladder import spread
from rules.arena import Score, play_from
from rules.flank import FlankState
from rules.registry import get_game

SEED = 34_001
Start = Callable[[int], FlankState]


def _table(extra: int) -> Start:
    def start(seed: int) -> FlankState:
        return FlankState({"extra_stoppers": extra}, 2, seed)
    return start


def _card(seed: int) -> FlankState:
    state = FlankState({"extra_stoppers": 0}, 2, seed)
    state.supply[state.first] += 1
    return state


def _parallel(seed: int) -> FlankState:
    drawn = FlankState({"extra_stoppers": 0}, 2, seed)
    return FlankState.from_notation(
        f"stoppers=5 extra_stoppers=0 first={drawn.first} at=D4 rows=XX/OO", seed)


def _opened(star: bool) -> Start:
    def start(seed: int) -> FlankState:
        state = FlankState({"extra_stoppers": 0}, 2, seed)
        (decision,) = state.pending()
        state.apply(decision.seat, next(o for o in decision.options if o.endswith("*") == star))
        return state
    return start


CANDIDATES: dict[str, Start] = {
    "seed": _table(0), "extra-1": _table(1), "extra-2": _table(2), "extra-3": _table(3),
    "card": _card, "parallel": _parallel,
    "pie-card": _opened(False), "pie-stopper": _opened(True),
}


def black_score(n: int, candidate: str, level: str) -> float:
    """Black's score in game ``n`` of ``candidate``."""
    bot = get_game("flank").computer(level)
    state = CANDIDATES[candidate](SEED + n)
    black = state.first
    return play_from(state, SEED + n, [bot, bot]).score(black)


def measure(candidate: str, level: str, games: int) -> Score:
    """Black's score over ``games`` games of ``candidate``."""
    return Score(sum(spread(black_score, range(games), candidate, level)), games)


def main(argv: list[str]) -> int:
    """Measure the candidates named (all by default) and print each figure."""
    level = argv[0] if argv else "normal"
    games = int(argv[1]) if len(argv) > 1 else 400
    for candidate in argv[2:] or list(CANDIDATES):
        print(f"{candidate:12} {level:7} {measure(candidate, level, games).shown}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
