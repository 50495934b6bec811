"""Quick sums the stronger computer players of Hammer & Nails make many times over.

What a placement is worth does not depend on its turn or even much on its tile:
all four zones of the tile laid show, wherever it goes, so a tile's own nails
just move from hand to stack and the other colours' nails it shows count
against their owners; only the zones it covers depend on where it goes. So
:func:`best_reply` scores each spot of the stack's frontier once and each tile
once, and tries turns only to see whether one fits and what it fires.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.nails.stack import Placement, Spot
from rules.nails.state import NailsState
from rules.nails.tiles import Tile

MECHANIC_VALUE = {"again": 1.5, "search": 0.6, "remove": 0.4, "opp-discard": 0.3,
                  "discard": 0.5, "draw2": 0.3, "cover-red": 0.4, "cover-green": 0.4,
                  "cover-blue": 0.4, "cover-yellow": 0.4, "null": 0.0}
"""Roughly what firing each mechanic is worth, in nails (a look-ahead sees more)."""


def sign(state: NailsState) -> int:
    """+1 when the fewest nails win (one's own nails are bad), −1 when the most win."""
    return -1 if state.most_wins else 1


def standing(state: NailsState, seat: int) -> float:
    """How far ``seat`` is ahead, in nails, counting every hand as it is in
    ``state`` (call it on a copy whose hidden hands were dealt again): the other
    colours' mean count less its own, turned round when the most nails win."""
    totals = state.totals()
    mine = state.colour_of[seat]
    # Each colour once: teammates share a count.
    per_colour = {state.colour_of[s]: totals[s] for s in range(state.seats)
                  if state.colour_of[s] != mine}
    others = list(per_colour.values())
    return sign(state) * (sum(others) / len(others) - totals[seat])


def cover_gain(spot: Spot, mine: str) -> int:
    """What covering the spot's showing zones does for the colour ``mine``
    (fewest wins): +1 for each of its nails hidden, −1 for each other nail."""
    gain = 0
    for under in spot.unders:
        if under is not None and under.kind == "nail":
            gain += 1 if under.colour == mine else -1
    return gain


def fired(spot: Spot, tile: Tile, rotation: int) -> list[str]:
    """The mechanics ``tile`` turned by ``rotation`` fires at ``spot`` (nail ones first)."""
    turn = rotation // 90
    nails: list[str] = []
    hammers: list[str] = []
    for i, under in enumerate(spot.unders):
        if under is None or under.kind != "nail":
            continue
        over = tile.zones[(i - turn) % 4]
        if over.kind != "hammer":
            continue
        if under.mechanic and under.mechanic != "null":
            nails.append(under.mechanic)
        if over.mechanic and over.mechanic != "null":
            hammers.append(over.mechanic)
    return nails + hammers


def best_reply(state: NailsState, seat: int, tiles: Sequence[int],
               colour: str | None = None) -> tuple[float, Placement | None]:
    """``seat``'s best placement of one of ``tiles`` by its immediate worth (nails it
    gains, mechanics it fires), and that worth; ``colour``: only placements covering
    a nail of that colour count. ``(0.0, None)`` when none is legal."""
    mine = state.colour_of[seat]
    s = sign(state)
    hand = [state.tiles[n] for n in tiles]
    laid = [s * sum(t.nails(c) for c in set(state.colour_of) if c != mine) for t in hand]
    best, where = -1e9, None
    for spot in state.stack.frontier():
        if colour is not None and not any(u is not None and u.kind == "nail"
                                          and u.colour == colour for u in spot.unders):
            continue
        base = s * cover_gain(spot, mine)
        for tile, extra in zip(hand, laid, strict=True):
            for rotation, _ in spot.turns(tile.kinds):
                worth = base + extra + sum(MECHANIC_VALUE.get(m, 0.0)
                                           for m in fired(spot, tile, rotation))
                if worth > best:
                    best = worth
                    where = Placement(tile.number, spot.anchor[0], spot.anchor[1], rotation)
    return (best, where) if where is not None else (0.0, None)


def keep_value(state: NailsState, seat: int, tile: Tile) -> float:
    """How good ``tile`` is to hold, in nails: its own nails count at the end unless
    laid, the other colours' nails it shows gain when laid, hammers and blanks are
    what covers."""
    mine = state.colour_of[seat]
    s = sign(state)
    own = tile.nails(mine)
    theirs = sum(tile.nails(c) for c in set(state.colour_of) if c != mine)
    hammers = sum(zone.kind == "hammer" for zone in tile.zones)
    return -s * 0.8 * own + s * 0.6 * theirs + 0.4 * hammers + 0.25 * tile.blanks
