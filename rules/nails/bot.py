"""Hammer & Nails' computer player.

It counts what a placement changes: its own colour showing (and in hand, where
tiles count too) against the opponents' colour showing, plus a little for the
mechanics a placement fires. So it covers its own nails, leaves the others'
nails showing, plays again when it can, and sheds tiles heavy with its own
nails. It uses only what its seat may know: its hand, the stack, and the deck
only when a mechanic lets it look through it.
"""

from __future__ import annotations

import random

from rules.core import GameState
from rules.nails.stack import BuildStack, Placement
from rules.nails.state import (
    ACCEPT,
    CANNOT,
    CHALLENGE,
    KEEP,
    NO,
    YES,
    NailsState,
    fired_mechanics,
)
from rules.nails.tiles import Tile

MECHANIC_VALUE = {"again": 1.5, "search": 0.6, "remove": 0.4, "opp-discard": 0.5,
                  "discard": 0.3, "draw2": 0.1, "cover-red": 0.4, "cover-green": 0.4,
                  "cover-blue": 0.4, "cover-yellow": 0.4}


def choose(state: GameState, seat: int, rng: random.Random) -> str:
    """The computer's choice for ``seat`` (one of its pending decision's options)."""
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
        return max(placements, key=lambda o: (placement_value(state, seat, Placement.parse(o)),
                                              rng.random()))
    if kind == "challenge":
        return CHALLENGE if _likely_could_cover(state) else ACCEPT
    if kind == "again":
        return YES
    if kind == "draw2":
        return YES if state.most_wins else NO
    if kind in ("remove", "tiebreak"):
        return max(options, key=lambda o: (_removal_value(state, seat, int(o)), rng.random()))
    if kind == "search":
        return max(options, key=lambda o: (_keep_value(state, seat, state.tiles[int(o)]),
                                           rng.random()))
    if kind == "victim":
        return max(options, key=lambda o: (len(state.hands[int(o[1:]) - 1]), rng.random()))
    if kind in ("discard", "trim", "stuck"):
        tiles = [o for o in options if o != KEEP]
        worst = min(tiles, key=lambda o: (_keep_value(state, seat, state.tiles[int(o)]),
                                          rng.random()))
        if kind == "discard" and _keep_value(state, seat, state.tiles[int(worst)]) >= 0:
            return KEEP
        return worst
    return rng.choice(options)


def _sign(state: NailsState) -> int:
    """+1 when the fewest nails win (own nails are bad), −1 when the most win."""
    return -1 if state.most_wins else 1


def placement_value(state: NailsState, seat: int, placement: Placement) -> float:
    """How much better off ``seat`` is after this placement (higher is better)."""
    tile = state.tiles[placement.tile]
    covered = state.stack.check(tile, placement) or []
    mine = state.colour_of[seat]
    shown = [zone for _, zone in state.stack.zones_of(tile, placement)]
    hidden = [c.under for c in covered]

    def change(colour: str) -> int:
        added = sum(z.kind == "nail" and z.colour == colour for z in shown)
        lost = sum(z.kind == "nail" and z.colour == colour for z in hidden)
        return added - lost

    own = change(mine) - tile.nails(mine)             # the tile's nails leave the hand
    others = sum(change(colour) for colour in set(state.colour_of) if colour != mine)
    bonus = sum(MECHANIC_VALUE.get(m, 0.0) for m in fired_mechanics(covered))
    return _sign(state) * (others - own) + bonus


def _keep_value(state: NailsState, seat: int, tile: Tile) -> float:
    """How good a tile is to hold: few of one's own nails (fewest) and hammers to cover with."""
    mine = state.colour_of[seat]
    hammers = sum(zone.kind == "hammer" for zone in tile.zones)
    blanks = tile.blanks
    return -_sign(state) * 2 * tile.nails(mine) + 0.5 * hammers + 0.3 * blanks - 0.5


def _removal_value(state: NailsState, seat: int, number: int) -> float:
    stack = state.stack.copy()
    before = _showing(state, stack, seat)
    stack.remove(number)
    after = _showing(state, stack, seat)
    return _sign(state) * (before - after)


def _showing(state: NailsState, stack: BuildStack, seat: int) -> int:
    mine = state.colour_of[seat]
    own = stack.visible_nails(mine) + stack.cow_bonus(mine)
    others = sum(stack.visible_nails(c) + stack.cow_bonus(c)
                 for c in set(state.colour_of) if c != mine)
    return own - others


def _likely_could_cover(state: NailsState) -> bool:
    """Challenge when many nails of the colour show: a full hand likely covers one."""
    assert state.obligation is not None
    colour = state.obligation[0]
    showing = sum(1 for _, zone in state.stack.visible_zones().values()
                  if zone.kind == "nail" and zone.colour == colour)
    return showing >= 4 and len(state.hands[state.turn]) >= 3

