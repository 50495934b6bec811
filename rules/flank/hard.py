"""Flank's ``hard`` computer player: a search on the thinking clock.

Iterative deepening principal-variation alpha-beta (negamax) with a
transposition table and move ordering (the table's move, made before any
other, then two killers per ply, a history of good moves and, far enough from
the leaves, the opponent's fewest replies first). Two evaluations:

* on a board, a classic Othello one: corners, the cells next to an empty corner,
  mobility and potential mobility (cards next to empty cells), each square's
  worth and the cards showing, each as a share between the sides, plus
  stoppered cards (stable) and stoppers in hand;
* on the unbounded table, where there are no corners: mobility (the opponent's
  counts slightly for it, as for ``normal``), the empty cells next to each
  side's cards, stoppered cards, stoppers in hand and, more and more as the
  supplies run out, the cards showing.

A forced pass costs no depth. Once the look-ahead reaches the last placement
every line ends in a finished game, so the search is exact; from
:data:`ENDGAME` placements left it gets a larger share of the clock for that.

It stops by :func:`rules.thinking.clock`, read every :data:`CHECK` positions,
never by :mod:`time`, so under a counting clock it stops after the same
positions every time. Its RNG only orders the options before the first
iteration, so among options the search cannot tell apart it picks one at
random (two games are not one game). Flank hides nothing, so it looks at the
whole state. The search runs on the raw bitboards of :mod:`rules.flank.grid`
in a window wide enough that no line it looks at reaches the border.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import NamedTuple

from rules.core import GameState
from rules.errors import NotYourTurn
from rules.flank.grid import Grid, bits, move_cells
from rules.flank.state import FlankState
from rules.phrases import Phrase
from rules.thinking import clock

TIME = 0.3
"""Seconds a decision aims to take in the middle game."""
ENDGAME_TIME = 0.45
"""Seconds a decision may take once an exact search of the rest is in sight."""
ENDGAME = 14
"""Placements left from which the exact search is in sight."""
CHECK = 256
"""Positions searched between two readings of the clock."""
MAX_DEPTH = 10
"""The deepest look-ahead before the endgame (it bounds the search window too)."""
SETTLE = 14
"""Cards left on a board from which, with no stoppers in hand, the player works out
which options win to the end of the game once its look-ahead is done."""
SORTED = 7
"""Cards left from which the exact search orders options and keeps positions in its
table; with fewer, sorting costs more than it saves."""
TABLE_NOISE = 2.0
"""How far the evaluation of a position on the table may be moved at random (half a
placement of mobility early): two games are not one game."""
BOARD_NOISE = 40.0
"""The same on a board (about 5 % of mobility; a corner is worth 2,000)."""
WIN = 100_000
"""Worth of a finished game won (plus the cards it was won by)."""


class _OutOfTime(Exception):
    """The clock ran out in the middle of an iteration."""


class Table(NamedTuple):
    """What each feature of a position on the unbounded table is worth (see
    :meth:`Search.table_worth`)."""

    mobility: float
    their_mobility: float
    frontier: float
    stable: float
    reserve: float
    count_early: float
    count_late: float


TABLE = Table(mobility=4.0, their_mobility=-1.0, frontier=1.0, stable=9.0, reserve=5.0,
              count_early=0.5, count_late=8.0)
"""On the unbounded table there are no corners to force, and squeezing the opponent
to one placement a turn hands the last, deciding exchanges to the second player
(see :mod:`rules.flank.bot`): the opponent's placements count slightly for it."""


class Board(NamedTuple):
    """What each feature of a position on a board is worth (see
    :meth:`Search.board_worth`): a classic Othello evaluation, each feature a
    share in percent between the two sides, plus the stoppers'."""

    count: float
    corners: float
    near_corner: float
    mobility: float
    frontier: float
    squares: float
    stable: float
    reserve: float


BOARD = Board(count=1.0, corners=2004.3, near_corner=477.5, mobility=7.89, frontier=7.44,
              squares=1.0, stable=150.0, reserve=100.0)
"""Corners above all, never a cell next to an empty corner, then mobility and few
cards next to empty cells; on a board this beat the table's weights by far."""


class Squares(NamedTuple):
    """A bounded board's special squares, as bit masks of its grid."""

    corners: int
    near: tuple[tuple[int, int, int], ...]
    """``(corner, x square, c squares)`` for each corner."""
    table: tuple[tuple[int, int], ...]
    """``(worth, cells)``: the worth of a card on each cell, cells of equal worth together."""


_SQUARES: dict[int, Squares] = {}


def _squares(grid: Grid) -> Squares:
    found = _SQUARES.get(grid.w)
    if found is not None:
        return found
    n = grid.w
    last = n - 1
    bit = grid.index
    corners = 0
    near = []
    for cx, cy in ((0, 0), (last, 0), (0, last), (last, last)):
        corner = 1 << bit(cx, cy)
        corners |= corner
        dx, dy = (1 if cx == 0 else -1), (1 if cy == 0 else -1)
        x_square = 1 << bit(cx + dx, cy + dy)
        c_squares = (1 << bit(cx + dx, cy)) | (1 << bit(cx, cy + dy))
        near.append((corner, x_square, c_squares))
    groups: dict[int, int] = {}
    for y in range(n):
        for x in range(n):
            value = _square_worth(min(x, last - x), min(y, last - y))
            groups[value] = groups.get(value, 0) | (1 << bit(x, y))
    table = tuple((v, cells) for v, cells in groups.items() if v)
    found = _SQUARES[n] = Squares(corners, tuple(near), table)
    return found


_EIGHT = ((20, -3, 11, 8), (-3, -7, -4, 1), (11, -4, 2, 2), (8, 1, 2, -3))
"""A card's worth on each square of a quarter of the 8×8 board (a classic table)."""


def _square_worth(dx: int, dy: int) -> int:
    """A card's worth on the square ``dx``, ``dy`` cells from the nearest edges of a
    board: the classic 8×8 table, its middle stretched on bigger boards."""
    return _EIGHT[min(dy, 3)][min(dx, 3)]


def _legal(mine: int, theirs: int, stops: int, empty: int, s: int) -> int:
    """The empty cells where the owner of ``mine`` may lay a card (``empty`` already
    leaves out barred cells); :func:`rules.flank.grid.legal_cells` on bare ints."""
    flippable = theirs & ~stops
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


def _flips(low: int, mine: int, theirs: int, stops: int, s: int) -> int:
    """The cards a card laid on the cell ``low`` (one bit) flips."""
    flippable = theirs & ~stops
    flips = 0
    for d in (1, s, s + 1, s - 1):
        probe = low << d
        run = 0
        while probe & flippable:
            run |= probe
            probe <<= d
        if probe & mine:
            flips |= run
        probe = low >> d
        run = 0
        while probe & flippable:
            run |= probe
            probe >>= d
        if probe & mine:
            flips |= run
    return flips


Move = tuple[int, bool]
"""``(cell bit, stopper)``."""
Child = tuple[int, bool, int, int, int, int]
"""``(cell bit, stopper, mover's cards after, other's cards after, stoppers on the
table after, the other's legal cells after or -1 if not worked out)``."""


class Search:
    """One decision's search: the window, the table of positions seen, the move
    ordering's memory and the clock."""

    def __init__(self, grid: Grid, zone: str, total: int, deadline: float,
                 salt: int = 0) -> None:
        self.s = grid.stride
        self.mask = grid.mask
        self.bounded = grid.bounded
        self.zone = zone
        self.total = max(1, total)
        self.squares = _squares(grid) if grid.bounded else None
        # The function, not a bound method: a method kept on self would tie the search
        # (and its table) in a reference cycle, freed only by a full collection.
        self.worth = Search.board_worth if grid.bounded else Search.table_worth
        self.salt = salt
        self.spread = (BOARD_NOISE if grid.bounded else TABLE_NOISE) / 1024
        self.deadline = deadline
        self.nodes = 0
        self.next_check = CHECK
        self.table: dict[tuple[int, ...], tuple[int, int, float, Move | None]] = {}
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(128)]
        self.history: dict[Move, int] = {}
        self.found: Move | None = None
        """An option proved better than the best so far in the current iteration."""

    # -- the rules on bare bitboards -------------------------------------------
    def barred(self, stops: int) -> int:
        """The cells the stopper zone bars (see :func:`rules.flank.grid.barred_cells`)."""
        if not stops or self.zone == "none":
            return 0
        s = self.s
        if self.zone == "ring":
            row = stops | (stops << 1) | (stops >> 1)
            return (row | (row << s) | (row >> s)) & self.mask
        return (stops | (stops << 1) | (stops >> 1) | (stops << s) | (stops >> s)) & self.mask

    def legal(self, mine: int, theirs: int, stops: int) -> int:
        """The mover's legal cells."""
        return _legal(mine, theirs, stops, self.mask & ~(mine | theirs | self.barred(stops)),
                      self.s)

    def children(self, legal: int, mine: int, theirs: int, stops: int, my_cards: int,
                 their_cards: int, my_stoppers: int) -> list[Child]:
        """Every option of the mover with the position after it."""
        s = self.s
        guarded = self.zone == "none" and their_cards > 0
        spare = my_stoppers >= my_cards
        out: list[Child] = []
        for cell in bits(legal):
            low = 1 << cell
            flips = _flips(low, mine, theirs, stops, s)
            after_mine = mine | low | flips
            after_theirs = theirs & ~flips
            if not my_stoppers:
                out.append((cell, False, after_mine, after_theirs, stops, -1))
                continue
            starred = stops | low
            answers = self.legal(after_theirs, after_mine, starred) if guarded else -1
            if answers == 0:
                # A stopper here would leave the opponent without a placement: refused.
                out.append((cell, False, after_mine, after_theirs, stops, -1))
                continue
            if not spare:
                # Holding a stopper for every card left, a stopper is never worse.
                out.append((cell, False, after_mine, after_theirs, stops, -1))
            out.append((cell, True, after_mine, after_theirs, starred, answers))
        return out

    # -- the evaluation -----------------------------------------------------------
    def final(self, mine: int, theirs: int) -> float:
        """A finished game's worth to the owner of ``mine``."""
        diff = mine.bit_count() - theirs.bit_count()
        if diff > 0:
            return WIN + diff
        if diff < 0:
            return -WIN + diff
        return 0.0

    def table_worth(self, mine: int, theirs: int, stops: int, my_cards: int,
                    their_cards: int, my_stoppers: int, their_stoppers: int,
                    my_legal: int) -> float:
        """A position in progress on the unbounded table, for the owner of ``mine``
        (who is to move): mobility and the frontier matter early, the cards showing
        late; stoppered cards never flip."""
        w = TABLE
        s = self.s
        left = (my_cards + their_cards) / self.total
        empty = self.mask & ~(mine | theirs)
        their_legal = self.legal(theirs, mine, stops) if their_cards else 0
        mobility = my_legal.bit_count() if my_cards else 0
        early = 0.5 + left
        score = (w.mobility * mobility - w.their_mobility * their_legal.bit_count()) * early
        # Empty cells next to a side's cards are where the other may answer later.
        row = mine | (mine << 1) | (mine >> 1)
        my_front = (row | (row << s) | (row >> s)) & empty
        row = theirs | (theirs << 1) | (theirs >> 1)
        their_front = (row | (row << s) | (row >> s)) & empty
        score += w.frontier * (their_front.bit_count() - my_front.bit_count()) * early
        score += w.stable * ((mine & stops).bit_count() - (theirs & stops).bit_count())
        score += w.reserve * (my_stoppers - their_stoppers) * left
        return score + (mine.bit_count() - theirs.bit_count()) * (
            w.count_early + (w.count_late - w.count_early) * (1.0 - left))

    def board_worth(self, mine: int, theirs: int, stops: int, my_cards: int,
                    their_cards: int, my_stoppers: int, their_stoppers: int,
                    my_legal: int) -> float:
        """A position in progress on a board, for the owner of ``mine`` (who is to
        move): corners, the cells next to empty corners, mobility, cards next to
        empty cells (the frontier), each square's worth and the cards showing."""
        w = BOARD
        squares = self.squares
        assert squares is not None
        s = self.s
        empty = self.mask & ~(mine | theirs)
        their_legal = self.legal(theirs, mine, stops) if their_cards else 0
        m1 = my_legal.bit_count() if my_cards else 0
        m2 = their_legal.bit_count()
        score = w.mobility * 100.0 * (m1 - m2) / (m1 + m2) if m1 + m2 else 0.0
        row = empty | (empty << 1) | (empty >> 1)
        near_empty = row | (row << s) | (row >> s)
        f1 = (mine & near_empty).bit_count()
        f2 = (theirs & near_empty).bit_count()
        if f1 + f2:
            score -= w.frontier * 100.0 * (f1 - f2) / (f1 + f2)
        d1, d2 = mine.bit_count(), theirs.bit_count()
        score += w.count * 100.0 * (d1 - d2) / (d1 + d2)
        corners = squares.corners
        score += w.corners * ((mine & corners).bit_count() - (theirs & corners).bit_count())
        for corner, x_square, c_squares in squares.near:
            if corner & empty:
                near = x_square | c_squares
                score -= w.near_corner * ((mine & near).bit_count() - (theirs & near).bit_count())
        for worth, cells in squares.table:
            score += w.squares * worth * ((mine & cells).bit_count() - (theirs & cells).bit_count())
        if stops or my_stoppers or their_stoppers:
            left = (my_cards + their_cards) / self.total
            score += w.stable * ((mine & stops).bit_count() - (theirs & stops).bit_count())
            score += w.reserve * (my_stoppers - their_stoppers) * left
        return score

    # -- the search ---------------------------------------------------------------
    def tick(self) -> None:
        """Count a position; read the clock every :data:`CHECK` of them."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.next_check += CHECK
            if clock() > self.deadline:
                raise _OutOfTime

    def order(self, options: list[Child], depth: int, ply: int,
              their_cards: int) -> list[Child]:
        """Options most likely to be best first (killers, history, and far from the
        leaves the fewest replies for the opponent)."""
        killers = self.killers[ply]
        history = self.history
        far = depth >= 3

        def key(child: Child) -> float:
            move = (child[0], child[1])
            value = -history.get(move, 0)
            if move == killers[0] or move == killers[1]:
                value -= 1e9
            if far:
                answers = child[5]
                if answers < 0:
                    answers = self.legal(child[3], child[2], child[4]) if their_cards else 0
                value += 1e6 * answers.bit_count()
                if self.squares is not None and self.squares.corners >> child[0] & 1:
                    value -= 5e6
            return value

        return sorted(options, key=key)

    def options(self, legal: int, mine: int, theirs: int, stops: int, my_cards: int,
                their_cards: int, my_stoppers: int, depth: int, ply: int,
                hint: Move | None) -> Iterator[Child]:
        """The mover's options in the order to search them: ``hint`` (the table's
        best move) alone first, made before any other, since it often cuts."""
        if hint is not None and legal >> hint[0] & 1:
            for child in self.children(1 << hint[0], mine, theirs, stops, my_cards,
                                       their_cards, my_stoppers):
                if child[1] == hint[1]:
                    yield child
                    break
            else:
                hint = None
        rest = self.children(legal, mine, theirs, stops, my_cards, their_cards, my_stoppers)
        if hint is not None:
            rest = [child for child in rest if (child[0], child[1]) != hint]
        yield from self.order(rest, depth, ply, their_cards)

    def search(self, mine: int, theirs: int, stops: int, my_cards: int, their_cards: int,
               my_stoppers: int, their_stoppers: int, passes: int, depth: int,
               alpha: float, beta: float, ply: int) -> float:
        """Negamax with principal-variation windows: the worth of the position for
        the owner of ``mine``, who moves."""
        self.tick()
        if not my_cards and not their_cards:
            return self.final(mine, theirs)
        key = (mine, theirs, stops, my_cards, their_cards, my_stoppers, their_stoppers, passes)
        entry = self.table.get(key)
        best_move: Move | None = None
        if entry is not None:
            stored_depth, bound, value, best_move = entry
            if stored_depth >= depth:
                if bound == 0:
                    return value
                if bound > 0 and value >= beta:
                    return value
                if bound < 0 and value <= alpha:
                    return value
        if depth >= my_cards + their_cards and self.bounded and not my_stoppers \
                and not their_stoppers:
            return self.solve(mine, theirs, stops, my_cards, their_cards, passes, alpha, beta)
        legal = self.legal(mine, theirs, stops) if my_cards else 0
        if not legal:
            if passes:
                return self.final(mine, theirs)
            return -self.search(theirs, mine, stops, their_cards, my_cards, their_stoppers,
                                my_stoppers, 1, depth, -beta, -alpha, ply + 1)
        if depth <= 0:
            # A little noise, the same for a position all through one decision, lets
            # the player's RNG choose among options the evaluation finds about equal.
            noise = ((hash(key) ^ self.salt) & 1023) * self.spread
            return noise + self.worth(self, mine, theirs, stops, my_cards, their_cards,
                                      my_stoppers, their_stoppers, legal)
        start_alpha = alpha
        best = -float("inf")
        hint, best_move = best_move, None
        first = True
        for cell, flag, after_mine, after_theirs, after_stops, _ in self.options(
                legal, mine, theirs, stops, my_cards, their_cards, my_stoppers, depth, ply,
                hint):
            args = (after_theirs, after_mine, after_stops, their_cards, my_cards - 1,
                    their_stoppers, my_stoppers - flag, 0, depth - 1)
            if first:
                value = -self.search(*args, -beta, -alpha, ply + 1)
                first = False
            else:
                value = -self.search(*args, -alpha - 1e-3, -alpha, ply + 1)
                if alpha < value < beta:
                    value = -self.search(*args, -beta, -value, ply + 1)
            if value > best:
                best = value
                best_move = (cell, flag)
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        killers = self.killers[ply]
                        if killers[0] != best_move:
                            killers[1] = killers[0]
                            killers[0] = best_move
                        self.history[best_move] = self.history.get(best_move, 0) + depth * depth
                        break
        bound = 1 if best >= beta else (-1 if best <= start_alpha else 0)
        self.table[key] = (depth, bound, best, best_move)
        return best


    def solve(self, mine: int, theirs: int, stops: int, my_cards: int, their_cards: int,
              passes: int, alpha: float, beta: float) -> float:
        """The exact worth of a position to the end of the game, when neither side
        holds a stopper (so an option is a cell): a leaner search than
        :meth:`search`, with no evaluation, that orders options by the opponent's
        fewest replies while many cards are left and takes them as they come near
        the end."""
        self.tick()
        left = my_cards + their_cards
        if not left:
            return self.final(mine, theirs)
        legal = self.legal(mine, theirs, stops) if my_cards else 0
        if not legal:
            if passes:
                return self.final(mine, theirs)
            return -self.solve(theirs, mine, stops, their_cards, my_cards, 1, -beta, -alpha)
        s = self.s
        flippable = theirs & ~stops
        if left < SORTED:
            best = -float("inf")
            while legal:
                low = legal & -legal
                legal ^= low
                flips = _flips(low, mine, flippable, 0, s)
                value = -self.solve(theirs & ~flips, mine | low | flips, stops, their_cards,
                                    my_cards - 1, 0, -beta, -alpha)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            return best
        key = (mine, theirs, stops, my_cards, their_cards, 0, 0, passes)
        entry = self.table.get(key)
        hint: Move | None = None
        if entry is not None:
            stored_depth, bound, value, hint = entry
            if stored_depth >= left and (bound == 0 or (bound > 0 and value >= beta)
                                         or (bound < 0 and value <= alpha)):
                return value
        children = []
        for cell in bits(legal):
            low = 1 << cell
            flips = _flips(low, mine, flippable, 0, s)
            after_mine, after_theirs = mine | low | flips, theirs & ~flips
            replies = self.legal(after_theirs, after_mine, stops).bit_count() if their_cards \
                else 0
            first = hint is not None and hint[0] == cell
            children.append((-1 if first else replies, cell, after_mine, after_theirs))
        children.sort()
        start_alpha = alpha
        best = -float("inf")
        best_move: Move | None = None
        for n, (_, cell, after_mine, after_theirs) in enumerate(children):
            if n == 0:
                value = -self.solve(after_theirs, after_mine, stops, their_cards, my_cards - 1,
                                    0, -beta, -alpha)
            else:
                value = -self.solve(after_theirs, after_mine, stops, their_cards, my_cards - 1,
                                    0, -alpha - 1e-3, -alpha)
                if alpha < value < beta:
                    value = -self.solve(after_theirs, after_mine, stops, their_cards,
                                        my_cards - 1, 0, -beta, -value)
            if value > best:
                best = value
                best_move = (cell, False)
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        bound = 1 if best >= beta else (-1 if best <= start_alpha else 0)
        self.table[key] = (left, bound, best, best_move)
        return best


def _window(state: FlankState, margin: int) -> tuple[Grid, int, int, int]:
    """A window of the table ``margin`` cells wider than the cards on every side (the
    board itself when bounded), and seat 0's cards, seat 1's and the stoppers in it."""
    grid = state.grid
    if grid.bounded:
        return grid, state.discs[0], state.discs[1], state.stops
    x0, y0, x1, y1 = state.extent()
    wide = Grid(x0 - margin, y0 - margin, x1 - x0 + 1 + 2 * margin, y1 - y0 + 1 + 2 * margin,
                bounded=False)
    return wide, *(move_cells(grid, wide, b) for b in (state.discs[0], state.discs[1],
                                                        state.stops))


class Thought(NamedTuple):
    """A decision and how far the search behind it went."""

    choice: str
    depth: int
    """The deepest iteration completed (0: the choice was forced or stopped early)."""
    nodes: int
    exact: bool
    """Whether that iteration looked to the end of the game on every line."""


def choose(state: GameState, seat: int, rng: random.Random) -> str:
    """The ``hard`` player's choice for ``seat``: the best option its clock allows.

    >>> from rules.thinking import counting_clock
    >>> s = FlankState({"board": 8, "stoppers": 0}, first=0)
    >>> with counting_clock(0.01):
    ...     choose(s, 0, random.Random(1)) in s.pending()[0].options
    True
    """
    return think(state, seat, rng).choice


def think(state: GameState, seat: int, rng: random.Random) -> Thought:
    """:func:`choose`, with how deep the search went."""
    decision = state.decision_for(seat)
    if decision is None:
        raise NotYourTurn(Phrase("flank.error.computer_idle"))
    if len(decision.options) == 1 or not isinstance(state, FlankState):
        return Thought(rng.choice(decision.options), 0, 0, False)
    started = clock()
    my_cards, their_cards = state.supply[seat], state.supply[1 - seat]
    left = my_cards + their_cards
    endgame = left <= ENDGAME
    most = left if endgame else min(left, MAX_DEPTH)
    grid, seat0, seat1, stops = _window(state, most + 2)
    mine, theirs = (seat0, seat1) if seat == 0 else (seat1, seat0)
    my_stoppers, their_stoppers = state.stoppers[seat], state.stoppers[1 - seat]
    budget = ENDGAME_TIME if endgame else TIME
    search = Search(grid, state.options.stopper_zone, 2 * (state.options.card_count - 2),
                    started + budget, rng.getrandbits(30))
    legal = search.legal(mine, theirs, stops)
    options = search.children(legal, mine, theirs, stops, my_cards, their_cards, my_stoppers)
    if not options:  # never so: the state offers only what the search sees
        return Thought(rng.choice(decision.options), 0, 0, False)
    rng.shuffle(options)
    best_move = (options[0][0], options[0][1])
    depth = 1
    done = 0
    try:
        while True:
            search.found = None
            scored = _root(search, options, their_cards, my_cards, their_stoppers,
                           my_stoppers, depth, best_move)
            done = depth
            options = [child for _, child in scored]
            best_move = (options[0][0], options[0][1])
            if depth >= left or abs(scored[0][0]) >= WIN / 2 or depth >= most:
                break
            # An iteration takes a few times the one before: start one only when it
            # can likely end in time.
            if clock() - started > budget * 0.4:
                break
            depth += 1
    except _OutOfTime:
        if search.found is not None:
            best_move = search.found
    exact = done >= left
    if not exact and grid.bounded and left <= SETTLE and not my_stoppers \
            and not their_stoppers:
        settled, exact = _settle(search, options, their_cards, my_cards)
        best_move = settled or best_move
    cell, flag = best_move
    choice = grid.name(cell) + ("*" if flag else "")
    if choice not in decision.options:
        choice = rng.choice(decision.options)
    return Thought(choice, done, search.nodes, exact)


def _settle(search: Search, options: list[Child], their_cards: int,
            my_cards: int) -> tuple[Move | None, bool]:
    """Win, draw or loss of each option to the end of the game (a narrow window is
    much quicker than the exact count), the best by the last iteration first: the
    first option that wins, else the first that draws (``None`` if all lose or
    the clock runs out first), and whether every option it needed was settled."""
    drawn: Move | None = None
    try:
        for cell, flag, after_mine, after_theirs, after_stops, _ in options:
            value = -search.solve(after_theirs, after_mine, after_stops, their_cards,
                                  my_cards - 1, 0, -1.0, 1.0)
            if value >= 1.0:
                return (cell, flag), True
            if value > -1.0 and drawn is None:
                drawn = (cell, flag)
    except _OutOfTime:
        return drawn, False
    return drawn, True


def _root(search: Search, options: list[Child], their_cards: int, my_cards: int,
          their_stoppers: int, my_stoppers: int, depth: int,
          best_move: Move) -> list[tuple[float, Child]]:
    """One iteration at the root: every option's worth at ``depth``, best first
    (options after the first only as far as they lose to the best). The best so
    far is searched first; an option proved better before the clock runs out is
    left in :attr:`Search.found`."""
    alpha = -float("inf")
    scored: list[tuple[float, Child]] = []
    ordered = sorted(options, key=lambda c: (c[0], c[1]) != best_move)
    for n, child in enumerate(ordered):
        cell, flag, after_mine, after_theirs, after_stops, _ = child
        args = (after_theirs, after_mine, after_stops, their_cards, my_cards - 1,
                their_stoppers, my_stoppers - flag, 0, depth - 1)
        if n == 0:
            value = -search.search(*args, -float("inf"), float("inf"), 1)
        else:
            value = -search.search(*args, -alpha - 1e-3, -alpha, 1)
            if value > alpha:
                value = -search.search(*args, -float("inf"), -value, 1)
                search.found = (cell, flag)
        scored.append((value, child))
        alpha = max(alpha, value)
    scored.sort(key=lambda t: -t[0])
    return scored
