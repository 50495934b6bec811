"""Flank's computer player: an alpha-beta look-ahead with a positional evaluation.

The bot looks two plies ahead (its option, the opponent's best reply), then
four or six when the position is small enough for a fixed budget of evaluated
positions, always ending on the opponent's reply. The budget counts
positions, not seconds, so a seed always gives the same move. The evaluation
weighs, from the bot's side:

* mobility (legal placements of each side), which matters most early;
* cards showing, which matter more and more as the supplies run out;
* on a bounded board, corners (good), the cells next to an empty corner (bad)
  and edges (good);
* stoppered cards, which can never be flipped, against stoppers still in
  hand, whose worth fades as the game nears its end, so the bot spends them
  where they protect something or late in the game.

Finished games count as won or lost outright; a draw counts a little below an
even position, because against the weaker players it meets, playing on wins
more often. The search runs on the raw bitboards of :mod:`rules.flank.grid`:
a move typically takes 5–15 ms and at most about 0.1 s.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from rules.core import GameState
from rules.errors import NotYourTurn
from rules.flank.grid import Grid, bits, legal_cells, move_cells, needs_room, outflanked, regrow
from rules.flank.state import FlankState

WIN = 100_000
"""Worth of a finished game won, well above any evaluation of a game in progress."""


class Side(NamedTuple):
    """One colour's share of a position."""

    cards: int
    """Bits of its cards showing."""
    supply: int
    stoppers: int


class Weights(NamedTuple):
    """Square masks of a bounded board for the positional term."""

    corners: int
    edges: int
    near: tuple[tuple[int, int], ...]
    """``(corner bit, cells next to it)`` pairs: bad to hold while the corner is empty."""


_WEIGHTS: dict[int, Weights] = {}


def _weights(grid: Grid) -> Weights | None:
    if not grid.bounded:
        return None
    found = _WEIGHTS.get(grid.w)
    if found is None:
        n = grid.w
        last = n - 1
        corners = 0
        near = []
        for cx, cy in ((0, 0), (last, 0), (0, last), (last, last)):
            corner = 1 << grid.index(cx, cy)
            corners |= corner
            dx = 1 if cx == 0 else -1
            dy = 1 if cy == 0 else -1
            around = 0
            for x, y in ((cx + dx, cy), (cx, cy + dy), (cx + dx, cy + dy)):
                around |= 1 << grid.index(x, y)
            near.append((corner, around))
        rim = 0
        for k in range(n):
            for x, y in ((k, 0), (k, last), (0, k), (last, k)):
                rim |= 1 << grid.index(x, y)
        all_near = 0
        for _, around in near:
            all_near |= around
        found = _WEIGHTS[n] = Weights(corners, rim & ~corners & ~all_near, tuple(near))
    return found


def evaluate(grid: Grid, me: Side, them: Side, stops: int, total: int) -> float:
    """How good a position in progress is for ``me`` (no side to move assumed)."""
    left = (me.supply + them.supply) / total if total else 0.0
    mine_mob = legal_cells(grid, me.cards, them.cards, stops).bit_count() if me.supply else 0
    their_mob = legal_cells(grid, them.cards, me.cards, stops).bit_count() if them.supply else 0
    mobility = (mine_mob - their_mob) * (1.0 + 2.0 * left)
    count = (me.cards.bit_count() - them.cards.bit_count()) * (0.3 + 3.0 * (1.0 - left))
    stable = ((me.cards & stops).bit_count() - (them.cards & stops).bit_count()) * 3.0
    reserve = (me.stoppers - them.stoppers) * 4.0 * left
    score = mobility + count + stable + reserve
    weights = _weights(grid)
    if weights is not None:
        a, b = me.cards, them.cards
        score += 30.0 * ((a & weights.corners).bit_count() - (b & weights.corners).bit_count())
        score += 2.0 * ((a & weights.edges).bit_count() - (b & weights.edges).bit_count())
        empty = ~(a | b)
        for corner, around in weights.near:
            if corner & empty:
                score -= 8.0 * ((a & around).bit_count() - (b & around).bit_count())
    return score


CONTEMPT = 30.0
"""How much the bot dislikes a draw: against a weaker player, playing on wins more."""


def _final(me: Side, them: Side, contempt: float = 0.0) -> float:
    """A finished game's worth to ``me``; ``contempt`` is what a draw costs ``me``."""
    diff = me.cards.bit_count() - them.cards.bit_count()
    return (WIN if diff > 0 else -WIN if diff < 0 else -contempt) + diff


class _Child(NamedTuple):
    grid: Grid
    mover: Side
    other: Side
    stops: int


def _lay(grid: Grid, cell: int, stopper: bool, mover: Side, other: Side, stops: int) -> _Child:
    """The position after ``mover`` lays a card on bit ``cell`` (with a stopper or not)."""
    flips = outflanked(grid, cell, mover.cards, other.cards, stops)
    mine = mover.cards | (1 << cell) | flips
    theirs = other.cards & ~flips
    if stopper:
        stops |= 1 << cell
    if needs_room(grid, cell):
        bigger = regrow(grid, cell)
        mine, theirs, stops = (move_cells(grid, bigger, b) for b in (mine, theirs, stops))
        grid = bigger
    return _Child(
        grid,
        Side(mine, mover.supply - 1, mover.stoppers - stopper),
        Side(theirs, other.supply, other.stoppers),
        stops,
    )


def _moves(grid: Grid, mover: Side, other: Side, stops: int) -> list[tuple[int, bool]]:
    if not mover.supply:
        return []
    legal = legal_cells(grid, mover.cards, other.cards, stops)
    flags = (False, True) if mover.stoppers else (False,)
    return [(cell, flag) for cell in bits(legal) for flag in flags]


class _OutOfBudget(Exception):
    """A deeper search ran past its budget; the shallower answer stands."""


class _Budget:
    """Counts evaluated positions, so that how deep the bot looks depends on the
    position and never on the machine's speed (the bot stays reproducible)."""

    __slots__ = ("limit", "nodes")

    def __init__(self, limit: int | None = None) -> None:
        self.nodes = 0
        self.limit = limit

    def spend(self) -> None:
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise _OutOfBudget


def _search(grid: Grid, me: Side, them: Side, stops: int, passes: int, depth: int,
            alpha: float, beta: float, total: int, budget: _Budget, contempt: float) -> float:
    """Negamax with alpha-beta: the value of the position for ``me``, who moves.

    ``contempt`` is what a draw costs ``me``: positive on the bot's turns,
    negative on its opponent's.
    """
    if me.supply == 0 and them.supply == 0:
        return _final(me, them, contempt)
    if depth == 0:
        budget.spend()
        return evaluate(grid, me, them, stops, total)
    moves = _moves(grid, me, them, stops)
    if not moves:
        if passes:
            return _final(me, them, contempt)
        return -_search(grid, them, me, stops, 1, depth - 1, -beta, -alpha, total, budget,
                        -contempt)
    best = -float("inf")
    for cell, flag in moves:
        child = _lay(grid, cell, flag, me, them, stops)
        value = -_search(child.grid, child.other, child.mover, child.stops, 0, depth - 1,
                         -beta, -alpha, total, budget, -contempt)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


MAX_DEPTH = 7
"""Most plies the bot looks ahead, its own option included."""
BUDGET = 2_500
"""Leaf evaluations a look-ahead may spend, roughly, before the bot stops deepening."""
HARD_LIMIT = 2 * BUDGET
"""Leaf evaluations after which a deeper look-ahead is abandoned for the shallower answer."""


def choose(state: GameState, seat: int, rng: random.Random) -> str:
    """The bot's choice for ``seat`` (an option of its pending decision).

    >>> s = FlankState({"board": 8, "stoppers": 0})
    >>> choose(s, 0, random.Random(1)) in s.pending()[0].options
    True
    """
    decision = state.decision_for(seat)
    if decision is None:
        raise NotYourTurn("the bot has no decision to make")
    if len(decision.options) == 1 or not isinstance(state, FlankState):
        return rng.choice(decision.options)
    grid, stops = state.grid, state.stops
    me = Side(state.discs[seat], state.supply[seat], state.stoppers[seat])
    them = Side(state.discs[1 - seat], state.supply[1 - seat], state.stoppers[1 - seat])
    total = 2 * max(1, state.options.cards - 2)
    children = [(cell, flag, _lay(grid, cell, flag, me, them, stops))
                for cell, flag in _moves(grid, me, them, stops)]
    # Trying the statically best options first makes alpha-beta cut more.
    children.sort(key=lambda c: evaluate(c[2].grid, c[2].other, c[2].mover, c[2].stops, total))
    top: list[tuple[int, bool]] = []
    # Looking an even number of plies ahead ends every line on the opponent's
    # reply, so no option is judged before the answer to it is seen.
    depth = 1
    while True:
        budget = _Budget(HARD_LIMIT if top else None)
        best = -float("inf")
        scored = []
        try:
            for cell, flag, child in children:
                # A window just below the best so far keeps exact values for ties.
                value = -_search(child.grid, child.other, child.mover, child.stops, 0, depth,
                                 -float("inf"), -(best - 1e-6), total, budget, -CONTEMPT)
                scored.append((value, cell, flag, child))
                best = max(best, value)
        except _OutOfBudget:
            break
        top = [(cell, flag) for value, cell, flag, _ in scored if value >= best - 1e-9]
        if (abs(best) >= WIN / 2 or depth + 3 > MAX_DEPTH
                or budget.nodes * len(children) > BUDGET):
            break
        # The next, deeper search looks at the best options first.
        children = [(c, f, ch) for _, c, f, ch in sorted(scored, key=lambda t: -t[0])]
        depth += 2
    cell, flag = top[0] if len(top) == 1 else rng.choice(top)
    choice = grid.name(cell) + ("*" if flag else "")
    return choice if choice in decision.options else rng.choice(decision.options)
