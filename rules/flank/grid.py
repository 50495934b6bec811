"""The table as bitboards: one Python int per set of cells.

A :class:`Grid` is a rectangular window of the table. Cell ``(x, y)`` is bit
``(y - y0) * stride + (x - x0)``; the stride is one wider than the window so
every row ends in an always-empty guard bit. A shift that runs off the east or
west side of a row lands on a guard bit, and one that runs off the top or the
bottom leaves the window, so the eight direction shifts need no masks of their
own: the guard bits are never cards, never empty cells, so runs stop there.

A bounded board is one fixed window. The unbounded table is a window around
the cards that is regrown (see :func:`regrow`) whenever a card is laid within
:data:`EDGE` of its border, so every empty cell next to a card stays inside it.
Grids never change once made, so copies of a state share them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from rules.cells import cell_name

EDGE = 1
"""How close to the window border a card may lie before the window regrows."""
GROW = 3
"""How many empty cells a regrown window keeps beyond the card that caused it."""


class Grid:
    """A window of the table: where it is and which bits are cells."""

    __slots__ = ("bounded", "h", "mask", "names", "stride", "w", "x0", "y0")

    def __init__(self, x0: int, y0: int, w: int, h: int, bounded: bool) -> None:
        self.x0, self.y0, self.w, self.h = x0, y0, w, h
        self.bounded = bounded
        self.stride = w + 1
        row = (1 << w) - 1
        mask = 0
        for r in range(h):
            mask |= row << (r * self.stride)
        self.mask = mask
        self.names: dict[int, str] = {}

    def __repr__(self) -> str:
        return f"Grid(x0={self.x0}, y0={self.y0}, w={self.w}, h={self.h}, bounded={self.bounded})"

    def index(self, x: int, y: int) -> int:
        """The bit index of ``(x, y)``, or -1 when it lies outside the window.

        >>> g = board_grid(8)
        >>> g.index(0, 0), g.index(7, 7), g.index(8, 0), g.index(-1, 3)
        (0, 70, -1, -1)
        """
        cx, cy = x - self.x0, y - self.y0
        if 0 <= cx < self.w and 0 <= cy < self.h:
            return cy * self.stride + cx
        return -1

    def xy(self, i: int) -> tuple[int, int]:
        """The cell of bit index ``i``.

        >>> board_grid(8).xy(70)
        (7, 7)
        """
        r, c = divmod(i, self.stride)
        return self.x0 + c, self.y0 + r

    def name(self, i: int) -> str:
        """The cell name of bit index ``i`` (cached: the grid never changes)."""
        found = self.names.get(i)
        if found is None:
            found = self.names[i] = cell_name(*self.xy(i))
        return found

    def around(self, cells: int) -> int:
        """``cells`` and the 8 cells around each of them, inside the window.

        >>> g = board_grid(4)
        >>> sorted(g.xy(i) for i in bits(g.around(1 << g.index(0, 0))))
        [(0, 0), (0, 1), (1, 0), (1, 1)]
        """
        s = self.stride
        row = cells | (cells << 1) | (cells >> 1)
        return (row | (row << s) | (row >> s)) & self.mask

    def beside(self, cells: int) -> int:
        """``cells`` and the 4 cells beside each of them (N, S, E, W), inside the window.

        >>> g = board_grid(4)
        >>> sorted(g.name(i) for i in bits(g.beside(1 << g.index(1, 1))))
        ['A2', 'B1', 'B2', 'B3', 'C2']
        """
        s = self.stride
        return (cells | (cells << 1) | (cells >> 1) | (cells << s) | (cells >> s)) & self.mask


def bits(cells: int) -> Iterator[int]:
    """The bit indexes set in ``cells``, lowest first (row by row, west to east).

    >>> list(bits(0b10110))
    [1, 2, 4]
    """
    while cells:
        low = cells & -cells
        yield low.bit_length() - 1
        cells ^= low


_BOARDS: dict[int, Grid] = {}


def board_grid(n: int) -> Grid:
    """The shared grid of the bounded ``n``×``n`` board."""
    grid = _BOARDS.get(n)
    if grid is None:
        grid = _BOARDS[n] = Grid(0, 0, n, n, bounded=True)
    return grid


def table_grid(x0: int, y0: int, x1: int, y1: int) -> Grid:
    """A window of the unbounded table holding ``x0..x1`` × ``y0..y1`` with room to grow."""
    return Grid(x0 - GROW, y0 - GROW, x1 - x0 + 1 + 2 * GROW, y1 - y0 + 1 + 2 * GROW, False)


def barred_cells(grid: Grid, stops: int, zone: str) -> int:
    """The cells where no card may be laid because of the stoppered cards ``stops``.

    ``zone`` is the ``stopper_zone`` option: ``none`` bars nothing,
    ``orthogonal`` the 4 cells beside each stoppered card, ``ring`` the 8
    around it (the stoppered cells themselves are in the mask too; they are
    taken anyway).

    >>> g = board_grid(4)
    >>> stop = 1 << g.index(0, 0)
    >>> [len(list(bits(barred_cells(g, stop, z)))) for z in ("none", "orthogonal", "ring")]
    [0, 3, 4]
    """
    if not stops or zone == "none":
        return 0
    return grid.around(stops) if zone == "ring" else grid.beside(stops)


def legal_cells(grid: Grid, mine: int, theirs: int, stops: int, barred: int) -> int:
    """The empty cells where the owner of ``mine`` may lay a card.

    A cell is legal when, in some direction, a run of one or more of the
    opponent's unstoppered cards leads from it to one of ``mine``, and it is
    not in ``barred`` (see :func:`barred_cells`). The run is traced
    backwards, from ``mine`` through flippable cards to the empty cell, with a
    fill that stops as soon as the run stops growing.

    >>> g = board_grid(8)
    >>> black = (1 << g.index(3, 3)) | (1 << g.index(4, 4))
    >>> white = (1 << g.index(4, 3)) | (1 << g.index(3, 4))
    >>> sorted(g.name(i) for i in bits(legal_cells(g, black, white, 0, 0)))
    ['C5', 'D6', 'E3', 'F4']
    """
    s = grid.stride
    flippable = theirs & ~stops
    empty = grid.mask & ~(mine | theirs | barred)
    moves = 0
    for d in (1, s, s + 1, s - 1):
        run = (mine << d) & flippable
        if run:
            while True:
                longer = run | ((run << d) & flippable)
                if longer == run:
                    break
                run = longer
            moves |= (run << d) & empty
        run = (mine >> d) & flippable
        if run:
            while True:
                longer = run | ((run >> d) & flippable)
                if longer == run:
                    break
                run = longer
            moves |= (run >> d) & empty
    return moves


def outflanked(grid: Grid, cell: int, mine: int, theirs: int, stops: int) -> int:
    """Every card a card laid on bit ``cell`` by the owner of ``mine`` flips.

    >>> g = board_grid(8)
    >>> black = (1 << g.index(3, 3)) | (1 << g.index(4, 4))
    >>> white = (1 << g.index(4, 3)) | (1 << g.index(3, 4))
    >>> [g.name(i) for i in bits(outflanked(g, g.index(5, 3), black, white, 0))]
    ['E4']
    """
    s = grid.stride
    flippable = theirs & ~stops
    start = 1 << cell
    flips = 0
    for d in (1, s, s + 1, s - 1):
        probe = start << d
        run = 0
        while probe & flippable:
            run |= probe
            probe <<= d
        if probe & mine:
            flips |= run
        probe = start >> d
        run = 0
        while probe & flippable:
            run |= probe
            probe >>= d
        if probe & mine:
            flips |= run
    return flips


class Laid(NamedTuple):
    """The table after a card is laid: every bitboard in terms of ``grid``."""

    grid: Grid
    """The window, regrown if the card came near its border."""
    mine: int
    """The mover's cards, the new one and the flipped ones included."""
    theirs: int
    stops: int
    cell: int
    """The bit of the new card in ``grid``."""
    flips: int
    """The flipped cards, as bits of the window *before* the card was laid."""


def lay(grid: Grid, cell: int, mine: int, theirs: int, stops: int, stopper: bool) -> Laid:
    """The owner of ``mine`` lays a card on bit ``cell`` (and a stopper on it if ``stopper``).

    >>> g = board_grid(8)
    >>> black = (1 << g.index(3, 3)) | (1 << g.index(4, 4))
    >>> white = (1 << g.index(4, 3)) | (1 << g.index(3, 4))
    >>> after = lay(g, g.index(5, 3), black, white, 0, True)
    >>> after.mine.bit_count(), after.theirs.bit_count(), after.stops == 1 << g.index(5, 3)
    (4, 1, True)
    """
    flips = outflanked(grid, cell, mine, theirs, stops)
    low = 1 << cell
    mine = mine | low | flips
    theirs = theirs & ~flips
    if stopper:
        stops |= low
    if needs_room(grid, cell):
        bigger = regrow(grid, cell)
        mine, theirs, stops = (move_cells(grid, bigger, b) for b in (mine, theirs, stops))
        cell = bigger.index(*grid.xy(cell))
        grid = bigger
    return Laid(grid, mine, theirs, stops, cell, flips)


def stranding_refused(zone: str, their_cards: int) -> bool:
    """Whether a stopper that would leave the opponent with no legal placement is
    refused: only under ``stopper_zone=none``, and only while the opponent still
    holds cards (:func:`strands` says whether a stopper would).

    >>> stranding_refused("none", 3), stranding_refused("none", 0), stranding_refused("ring", 3)
    (True, False, False)
    """
    return zone == "none" and their_cards > 0


def strands(after: Laid) -> bool:
    """Whether a stopper on the card just laid (``after``, laid without one) would
    leave the opponent with no legal placement, as the default ``stopper_zone``
    (``none``) forbids. Whether the opponent still holds cards is the caller's
    question.

    >>> g = board_grid(8)
    >>> black = (1 << g.index(3, 3)) | (1 << g.index(4, 4))
    >>> white = (1 << g.index(4, 3)) | (1 << g.index(3, 4))
    >>> strands(lay(g, g.index(5, 3), black, white, 0, False))  # F4: white still answers
    False
    >>> row = board_grid(4)  # X O . . on row 1: C1 turns white's only card
    >>> strands(lay(row, row.index(2, 0), 1 << row.index(0, 0), 1 << row.index(1, 0), 0, False))
    True
    """
    stops = after.stops | (1 << after.cell)
    return not legal_cells(after.grid, after.theirs, after.mine, stops, 0)


def needs_room(grid: Grid, cell: int) -> bool:
    """True when a card on bit ``cell`` of the unbounded table is too near the window's border."""
    if grid.bounded:
        return False
    r, c = divmod(cell, grid.stride)
    return c < EDGE or r < EDGE or c >= grid.w - EDGE or r >= grid.h - EDGE


def regrow(grid: Grid, cell: int) -> Grid:
    """A bigger window: ``grid`` plus room around bit ``cell``."""
    x, y = grid.xy(cell)
    x0 = min(grid.x0, x - GROW)
    y0 = min(grid.y0, y - GROW)
    x1 = max(grid.x0 + grid.w - 1, x + GROW)
    y1 = max(grid.y0 + grid.h - 1, y + GROW)
    return Grid(x0, y0, x1 - x0 + 1, y1 - y0 + 1, bounded=False)


def move_cells(old: Grid, new: Grid, cells: int) -> int:
    """``cells`` of window ``old`` as bits of window ``new`` (which must contain them).

    >>> old = Grid(0, 0, 3, 3, bounded=False)
    >>> new = Grid(-2, -1, 6, 5, bounded=False)
    >>> new.xy(next(bits(move_cells(old, new, 1 << old.index(1, 2)))))
    (1, 2)
    """
    row = (1 << old.w) - 1
    shift0 = (old.y0 - new.y0) * new.stride + (old.x0 - new.x0)
    out = 0
    for r in range(old.h):
        line = (cells >> (r * old.stride)) & row
        if line:
            out |= line << (shift0 + r * new.stride)
    return out
