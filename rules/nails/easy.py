"""Hammer & Nails' ``easy`` computer player: today's player, as a beginner plays.

A beginner weighs only the tiles that catch the eye (three of a full hand) and
lays one where it does the most good; now and then they lay it anywhere it does
no harm. They hold on to tiles they could shed, never challenge, and play again
whenever offered, without weighing it. Every choice is legal and
looks sensible: their own nails get covered when a tile in view can do it.
"""

from __future__ import annotations

import random

from rules.core import GameState
from rules.nails import bot as normal
from rules.nails.stack import Placement
from rules.nails.state import ACCEPT, CANNOT, KEEP, YES, NailsState

CARELESS = 0.15
"""How often the tiles in view go anywhere they do no harm rather than where they do
the most good."""
IN_VIEW = 3
"""Tiles of the hand weighed for a placement."""


def choose(state: GameState, seat: int, rng: random.Random) -> str:
    """The ``easy`` computer's choice for ``seat``."""
    assert isinstance(state, NailsState)
    decision = state.decision_for(seat)
    assert decision is not None, "the computer was asked to move without a decision"
    options = decision.options
    if len(options) == 1:
        return options[0]
    kind = decision.kind
    if kind in ("place", "cover"):
        placements = [o for o in options if o != CANNOT]
        if not placements:
            return CANNOT
        tiles = sorted({Placement.parse(o).tile for o in placements})
        seen = set(rng.sample(tiles, min(IN_VIEW, len(tiles))))
        mine = [o for o in placements if Placement.parse(o).tile in seen]
        worth = {o: normal.placement_value(state, seat, Placement.parse(o)) for o in mine}
        if rng.random() < CARELESS:
            harmless = [o for o in mine if worth[o] >= 0]
            return rng.choice(harmless or mine)
        return max(mine, key=lambda o: (worth[o], rng.random()))
    if kind == "challenge":
        return ACCEPT
    if kind == "again":
        return YES
    if kind == "discard":
        return KEEP
    return normal.choose(state, seat, rng)
