"""Computer against computer: whole games, scores and their 95 % intervals.

One piece for everything that pits players against each other — ``croupier
selfplay``, the benchmarks' ladders and first-mover figures, the tests that
hold a level above another. A game is played from ``(game, options, seed)``
with one :data:`~rules.core.BotPlayer` per seat; each thinks on a copy of the
state with its own random numbers (:func:`~rules.core.thinking_rng`), as at a
real table.

A *score* counts a win 1 and a draw ½ (a shared first place at a bigger table
is a draw between those who share it).

>>> from rules.registry import get_game
>>> flank = get_game("flank")
>>> game = play(flank, {"board": 4, "stoppers": 0}, 3, [flank.bot, flank.bot])
>>> game.outcome.places in ((1, 2), (2, 1), (1, 1)), game.first in (0, 1)
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.core import BotPlayer, GameInfo, GameState, Outcome, SeatSetup, thinking_rng
from rules.options import GameOptions

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


@dataclass(frozen=True, slots=True)
class Played:
    """One finished game: its outcome, who moved first and how many choices it took."""

    outcome: Outcome
    first: int | None
    """The seat that decided first (``None`` when the game opens with a secret
    choice of every seat at once: nobody moves first)."""
    choices: int

    def score(self, seat: int) -> float:
        """``seat``'s score in this game: 1 for a win alone, ½ shared by those
        in first place together, 0 otherwise.

        >>> Played(Outcome((1, 1), None, "draw"), 0, 9).score(1)
        0.5
        """
        winners = self.outcome.winners
        return 1 / len(winners) if seat in winners else 0.0


def first_mover(state: GameState) -> int | None:
    """The seat that decides first in ``state`` (a new game), or ``None`` when
    several seats decide at once."""
    pending = state.pending()
    seats = {decision.seat for decision in pending}
    return next(iter(seats)) if len(seats) == 1 else None


def play(info: GameInfo, options: Mapping[str, Any] | GameOptions | None, seed: int,
         players: Sequence[BotPlayer], setup: Sequence[SeatSetup] | None = None,
         *, limit: int = 100_000) -> Played:
    """Play one game of ``info`` seeded ``seed``, ``players[seat]`` choosing for
    each seat (forced choices are made at once); ``limit`` choices at most
    (a game longer than that is a bug: :class:`RuntimeError`)."""
    return play_from(info.new(options, len(players), seed, setup), seed, players, limit=limit)


def play_from(state: GameState, seed: int, players: Sequence[BotPlayer],
              *, limit: int = 100_000) -> Played:
    """Play ``state`` to its end as :func:`play` does; ``seed`` seeds the players'
    random numbers. For a start the options cannot make (a candidate rule measured
    before it is one).

    >>> from rules.flank import FlankState
    >>> from rules.registry import get_game
    >>> bot = get_game("flank").bot
    >>> start = FlankState.from_notation("board=4 rows=./.XO/.OX stoppers=0")
    >>> play_from(start, 5, [bot, bot]).first
    0
    """
    first = first_mover(state)
    choices = 0
    while (outcome := state.outcome()) is None:
        for decision in state.pending():
            choice = decision.forced
            if choice is None:
                rng = thinking_rng(seed, state.step, decision.seat)
                choice = players[decision.seat](state.copy(), decision.seat, rng)
            state.apply(decision.seat, choice)
            choices += 1
            if choices > limit:
                raise RuntimeError(f"{type(state).__name__} seed {seed}: "
                                   f"no end after {limit} choices")
    return Played(outcome, first, choices)


@dataclass(frozen=True, slots=True)
class Score:
    """A score over several games, with its Wilson 95 % interval.

    >>> s = Score(points=120.0, games=200)
    >>> round(s.share, 3), tuple(round(x, 3) for x in s.interval)
    (0.6, (0.531, 0.665))
    >>> s.shown
    '60.0 % (53.1–66.5 %, 200 games)'
    """

    points: float
    games: int

    @property
    def share(self) -> float:
        """Points per game (0 to 1)."""
        return self.points / self.games if self.games else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson's 95 % interval of :attr:`share` (a draw counts as half a win)."""
        n = self.games
        if not n:
            return (math.nan, math.nan)
        p = self.share
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    @property
    def shown(self) -> str:
        """The share and its interval in percent, for a report."""
        low, high = self.interval
        return (f"{100 * self.share:.1f} % ({100 * low:.1f}–{100 * high:.1f} %, "
                f"{self.games} games)")

    def __add__(self, other: Score) -> Score:
        return Score(self.points + other.points, self.games + other.games)


def first_mover_score(games: Sequence[Played]) -> Score:
    """The first mover's score over ``games`` (games without one are left out)."""
    counted = [g for g in games if g.first is not None]
    return Score(sum(g.score(g.first) for g in counted if g.first is not None), len(counted))


def seats_swapped(info: GameInfo, options: Mapping[str, Any] | GameOptions | None, seed: int,
                  a: BotPlayer, b: BotPlayer,
                  setup: Sequence[SeatSetup] | None = None) -> Score:
    """``a``'s score over two games of ``seed`` against ``b``: ``a`` in seat 1,
    then in seat 2. Each seat keeps its setup, so ``a`` plays both decks too.

    >>> from rules.registry import get_game
    >>> flank = get_game("flank")
    >>> seats_swapped(flank, {"board": 4, "stoppers": 0}, 1, flank.bot, flank.bot).games
    2
    """
    ahead = play(info, options, seed, [a, b], setup)
    behind = play(info, options, seed, [b, a], setup)
    return Score(ahead.score(0) + behind.score(1), 2)
