"""Flank's ``easy`` computer player: today's computer made fallible the way
beginners are.

It looks one placement ahead, no further, and likes what beginners like: it
weighs the cards an option flips above anything else, with a little of the
``normal`` player's sense of position (:func:`rules.flank.bot.evaluate`) and a
little randomness. Half the time it does not see what a corner is worth (a
corner then counts as any other cell), and it puts a stopper on a card now and
then, more often on a card that flipped many, as a beginner protects a big
catch, and always once it holds a stopper for every card left. Its choices are
always legal; its RNG is the one the platform gives it.
"""

from __future__ import annotations

import random

from rules.cells import parse_cell
from rules.core import GameState
from rules.errors import NotYourTurn
from rules.flank.bot import Side, evaluate
from rules.flank.grid import lay
from rules.flank.state import FlankState
from rules.phrases import Phrase

FLIP = 1.0
"""Worth of one card flipped."""
SENSE = 0.15
"""How much of the ``normal`` player's evaluation it heeds, per point."""
NOISE = 1.5
"""Spread of the randomness added to each option's worth."""
BLIND = 0.5
"""How often it does not see what a corner is worth."""
STOPPER = 0.15
"""How often it puts a stopper on a card it lays (more for a big catch)."""


def choose(state: GameState, seat: int, rng: random.Random) -> str:
    """The ``easy`` player's choice for ``seat``.

    >>> s = FlankState({"board": 8, "stoppers": 0}, first=0)
    >>> choose(s, 0, random.Random(1)) in s.pending()[0].options
    True
    """
    decision = state.decision_for(seat)
    if decision is None:
        raise NotYourTurn(Phrase("flank.error.computer_idle"))
    if len(decision.options) == 1 or not isinstance(state, FlankState):
        return rng.choice(decision.options)
    grid = state.grid
    mine, theirs = state.discs[seat], state.discs[1 - seat]
    me = state.supply[seat], state.stoppers[seat]
    them = state.supply[1 - seat], state.stoppers[1 - seat]
    total = 2 * max(1, state.options.card_count - 2)
    corners = _corners(state) if rng.random() < BLIND else 0
    best, chosen = -float("inf"), ""
    for option in decision.options:
        if option.endswith("*"):
            continue
        cell = grid.index(*parse_cell(option))
        after = lay(grid, cell, mine, theirs, state.stops, False)
        flips = after.flips.bit_count()
        mine_after, theirs_after = after.mine, after.theirs
        if corners >> cell & 1:
            # Blind to the corner: it weighs the position as if the card were elsewhere.
            mine_after &= ~(1 << after.cell)
            theirs_after &= ~(1 << after.cell)
        sense = evaluate(after.grid, Side(mine_after, me[0] - 1, me[1]),
                         Side(theirs_after, them[0], them[1]), after.stops, total,
                         state.options.stopper_zone)
        worth = FLIP * flips + SENSE * sense + rng.gauss(0.0, NOISE)
        if worth > best:
            best, chosen = worth, option
    starred = chosen + "*"
    if starred in decision.options:
        flipped = lay(grid, grid.index(*parse_cell(chosen)), mine, theirs, state.stops,
                      False).flips.bit_count()
        spare = state.stoppers[seat] >= state.supply[seat]
        if spare or rng.random() < STOPPER * (1 + flipped / 3):
            return starred
    return chosen


def _corners(state: FlankState) -> int:
    """The corners of a bounded board (none on the unbounded table)."""
    grid = state.grid
    if not grid.bounded:
        return 0
    last = grid.w - 1
    return sum(1 << grid.index(x, y) for x in (0, last) for y in (0, last))
