"""Perft: count the move sequences of a given length, to check the move generator.

Every option of a pending decision is a move, so "C4" and "C4*" are two moves
(unless the stopper is refused because it would leave the opponent without a
move) and a forced pass is one. A finished game is a leaf at any depth. On the
8×8 board without stoppers the figures must equal classic Othello's: a new
game always starts from the standard position with black (X) to move,
whichever seat was drawn to play black.

The count runs on the raw bitboards with the same functions the state uses
(:mod:`rules.flank.grid`), not through :meth:`FlankState.apply`, so it is fast;
``tests/test_flank_perft.py`` checks it against the state's own API as well.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.flank.grid import Grid, barred_cells, lay, legal_cells, stranding_refused, strands
from rules.flank.state import FlankState


def perft(state: FlankState, depth: int, *, bulk: bool = True) -> int:
    """The number of move sequences of ``depth`` moves from ``state``.

    With ``bulk`` (the default) the last move is counted, not made, as perft
    programs usually do; ``bulk=False`` makes every move.

    >>> s = FlankState({"board": 8, "stoppers": 0})
    >>> [perft(s, d) for d in range(5)]
    [1, 4, 12, 56, 244]
    >>> perft(FlankState(), 2, bulk=False)
    48
    >>> perft(FlankState({"stopper_zone": "ring"}), 2, bulk=False)
    32
    """
    if depth <= 0 or state.over:
        return 1
    seat = state.to_move
    return _count(
        state.grid, state.discs[seat], state.discs[1 - seat], state.stops,
        state.supply[seat], state.supply[1 - seat],
        state.stoppers[seat], state.stoppers[1 - seat],
        state.passes, depth, bulk, state.options.stopper_zone,
    )


def _count(grid: Grid, mine: int, theirs: int, stops: int, cards: int, their_cards: int,
           stoppers: int, their_stoppers: int, passes: int, depth: int, bulk: bool,
           zone: str) -> int:
    """Perft below a position that is not over, seen from the seat to move."""
    legal = legal_cells(grid, mine, theirs, stops, barred_cells(grid, stops, zone)) \
        if cards else 0
    if not legal:
        if depth == 1 or passes >= 1:
            # A pass is one move; after a second pass in succession the game is over.
            return 1
        return _count(grid, theirs, mine, stops, their_cards, cards,
                      their_stoppers, stoppers, passes + 1, depth - 1, bulk, zone)
    choices = 2 if stoppers else 1
    # Under stopper_zone=none a stopper that leaves the opponent (holding cards)
    # without a placement is no move, so each stopper must be checked.
    guarded = stoppers and stranding_refused(zone, their_cards)
    if depth == 1 and bulk and not guarded:
        return legal.bit_count() * choices
    last_card = cards == 1 and their_cards == 0
    total = 0
    while legal:
        low = legal & -legal
        legal ^= low
        cell = low.bit_length() - 1
        if (depth == 1 or last_card) and not guarded:
            # A leaf: the last move asked for, or both supplies are now empty.
            if not bulk:
                lay(grid, cell, mine, theirs, stops, False)  # made, as asked, not only counted
            total += choices
            continue
        after = lay(grid, cell, mine, theirs, stops, False)
        star = stoppers and not (guarded and strands(after))
        if depth == 1 or last_card:
            total += 1 + star
            continue
        total += _count(after.grid, after.theirs, after.mine, after.stops, their_cards, cards - 1,
                        their_stoppers, stoppers, 0, depth - 1, bulk, zone)
        if star:
            total += _count(after.grid, after.theirs, after.mine, after.stops | (1 << after.cell),
                            their_cards, cards - 1, their_stoppers, stoppers - 1, 0, depth - 1,
                            bulk, zone)
    return total


def divide(state: FlankState, depth: int) -> dict[str, int]:
    """Perft split by first move, through the state's own API (for debugging)."""
    out: dict[str, int] = {}
    if state.over:
        return out
    for decision in state.pending():
        for choice in decision.options:
            child = state.copy()
            child.apply(decision.seat, choice)
            out[choice] = perft(child, depth - 1)
    return out


def main_perft(options: Mapping[str, Any], depth: int) -> int:
    """Perft of a new game with ``options`` (``croupier perft flank --board 8 --depth N``)."""
    return perft(FlankState.new(options), depth)
