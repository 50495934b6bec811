"""Flank's computer player: an alpha-beta look-ahead with a positional evaluation.

The bot looks two plies ahead (its option, the opponent's best reply), then
four or six when a fixed budget of evaluated positions allows, always ending
on the opponent's reply, and to the end of the game once few cards are left
and the budget allows. A forced pass costs no depth. The budget counts
positions, not seconds, so a seed always gives the same move. The
evaluation weighs, from the bot's side:

* mobility, which matters most early: the bot's own legal placements, and the
  opponent's. On a bounded board the opponent's count against the bot, as in
  Othello (squeeze the opponent and the corners come to you). On the
  unbounded table there are no corners to force, and squeezing the opponent
  to one placement a turn makes each exchange a forced pair of one-card flips
  that ends level, a race the second player (who lays last) wins. There the
  opponent's placements count slightly *for* the bot: against a random player
  that wins 94% of games instead of 76%, and head to head it wins a little
  more often than the squeezing bot (figures in docs/rules/flank.md);
* cards showing, which matter more and more as the supplies run out;
* on a bounded board, corners (good), the cells next to an empty corner (bad)
  and edges (good);
* stoppered cards, which can never be flipped, against stoppers still in
  hand, whose worth fades as the game nears its end, so the bot spends them
  where they protect something or late in the game.

Finished games count as won or lost outright; a draw counts a little below an
even position, because against the weaker players it meets, playing on wins
more often. Options valued within :data:`TIE` of the best are all as good to
the bot: the RNG the platform gives it, derived from the match's seed, picks
one, so two matches are not one game. The search runs on the raw bitboards of
:mod:`rules.flank.grid`, in a window wide enough that no line of it regrows.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import NamedTuple

from rules.core import GameState
from rules.errors import NotYourTurn
from rules.flank.grid import (
    Grid,
    barred_cells,
    bits,
    legal_cells,
    move_cells,
    outflanked,
    stranding_refused,
)
from rules.flank.state import FlankState
from rules.phrases import Phrase

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


MOBILITY = (1.0, 2.0)
"""Worth of one legal placement of the bot's: ``a + b × (share of cards left)``."""
SQUEEZE = (1.0, -0.5)
"""How many of the bot's placements one of the opponent's is worth against it, on a
bounded board and on the unbounded table (negative: it counts for the bot)."""
COUNT = (0.3, 3.0)
"""Worth of one card showing more: ``a + b × (share of cards laid)``."""
STABLE = 3.0
"""Worth of one stoppered card more (it can never be flipped)."""
RESERVE = 4.0
"""Worth of one stopper more in hand, times the share of cards left."""


def evaluate(grid: Grid, me: Side, them: Side, stops: int, total: int,
             zone: str = "none") -> float:
    """How good a position in progress is for ``me``, the bot (no side to move assumed)."""
    return _evaluate(grid, barred_cells(grid, stops, zone), me.cards, them.cards, me.supply,
                     them.supply, me.stoppers, them.stoppers, stops, total, True)


def _evaluate(grid: Grid, barred: int, mine: int, theirs: int, my_cards: int, their_cards: int,
              my_stoppers: int, their_stoppers: int, stops: int, total: int, bot: bool,
              my_legal: int | None = None) -> float:
    """:func:`evaluate` on raw bitboards for the owner of ``mine``, who is the bot when
    ``bot`` is true and its opponent otherwise (the worth is the bot's, negated);
    ``my_legal`` is the owner of ``mine``'s legal cells when the caller knows them."""
    left = (my_cards + their_cards) / total if total else 0.0
    if not my_cards:
        my_mobility = 0
    elif my_legal is None:
        my_mobility = legal_cells(grid, mine, theirs, stops, barred).bit_count()
    else:
        my_mobility = my_legal.bit_count()
    their_mobility = legal_cells(grid, theirs, mine, stops, barred).bit_count() \
        if their_cards else 0
    squeeze = SQUEEZE[0] if grid.bounded else SQUEEZE[1]
    if bot:
        mobility = my_mobility - squeeze * their_mobility
    else:
        mobility = squeeze * my_mobility - their_mobility
    score = mobility * (MOBILITY[0] + MOBILITY[1] * left)
    score += (mine.bit_count() - theirs.bit_count()) * (COUNT[0] + COUNT[1] * (1.0 - left))
    score += ((mine & stops).bit_count() - (theirs & stops).bit_count()) * STABLE
    score += (my_stoppers - their_stoppers) * RESERVE * left
    weights = _weights(grid)
    if weights is not None:
        a, b = mine, theirs
        score += 30.0 * ((a & weights.corners).bit_count() - (b & weights.corners).bit_count())
        score += 2.0 * ((a & weights.edges).bit_count() - (b & weights.edges).bit_count())
        empty = ~(a | b)
        for corner, around in weights.near:
            if corner & empty:
                score -= 8.0 * ((a & around).bit_count() - (b & around).bit_count())
    return score


CONTEMPT = 30.0
"""How much the bot dislikes a draw: against a weaker player, playing on wins more."""


def _final(mine: int, theirs: int, bot: bool) -> float:
    """A finished game's worth to the owner of ``mine`` (the bot when ``bot``)."""
    diff = mine.bit_count() - theirs.bit_count()
    if diff:
        return (WIN if diff > 0 else -WIN) + diff
    return -CONTEMPT if bot else CONTEMPT


class _OutOfBudget(Exception):
    """A deeper search ran past its budget; the shallower answer stands."""


class _Context:
    """What one look-ahead shares: the window, the rules' options and the budget.

    The budget counts evaluated positions, so that how deep the bot looks
    depends on the position and never on the machine's speed (the bot stays
    reproducible).
    """

    __slots__ = ("grid", "limit", "nodes", "total", "zone")

    def __init__(self, grid: Grid, zone: str, total: int) -> None:
        self.grid = grid
        self.zone = zone
        self.total = total
        self.nodes = 0
        self.limit: int | None = None

    def spend(self) -> None:
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise _OutOfBudget


Option = tuple[int, bool, int, int, int, int | None]
"""``(bit, stopper, mover's cards after, other's cards after, stoppers after, other's
legal cells after if known)``."""


def _options(ctx: _Context, legal: int, mine: int, theirs: int, their_cards: int,
             my_stoppers: int, my_cards: int, stops: int) -> Iterator[Option]:
    """The mover's options on ``legal`` cells, with the cards after each, made as
    they are asked for (a cut-off leaves the rest unmade).

    Under ``stopper_zone=none`` a stopper that would leave the opponent, who
    still holds cards, without a placement is no option, as in the rules (the
    check works out the opponent's legal cells, which come along). When the
    mover has at least as many stoppers as cards, a stopper on every card is
    never worse (it only takes options and flips from the opponent), so only
    the stoppered option is looked at.
    """
    grid = ctx.grid
    guarded = stranding_refused(ctx.zone, their_cards)
    spare = my_stoppers >= my_cards
    for cell in bits(legal):
        low = 1 << cell
        flips = outflanked(grid, cell, mine, theirs, stops)
        after_mine = mine | low | flips
        after_theirs = theirs & ~flips
        if not my_stoppers:
            yield cell, False, after_mine, after_theirs, stops, None
            continue
        starred = stops | low
        answers = legal_cells(grid, after_theirs, after_mine, starred, 0) if guarded else None
        if answers == 0:
            yield cell, False, after_mine, after_theirs, stops, None
            continue
        if not spare:
            yield cell, False, after_mine, after_theirs, stops, None
        yield cell, True, after_mine, after_theirs, starred, answers


def _search(ctx: _Context, mine: int, theirs: int, my_cards: int, their_cards: int,
            my_stoppers: int, their_stoppers: int, stops: int, passes: int, depth: int,
            alpha: float, beta: float, bot: bool, legal: int | None = None) -> float:
    """Negamax with alpha-beta: the value of the position for the owner of ``mine``,
    who moves (the bot when ``bot``). ``legal`` is the mover's legal cells when the
    caller knows them. A forced pass costs no depth: it is no choice."""
    if not my_cards and not their_cards:
        return _final(mine, theirs, bot)
    grid = ctx.grid
    barred = barred_cells(grid, stops, ctx.zone)
    if depth == 0:
        ctx.spend()
        return _evaluate(grid, barred, mine, theirs, my_cards, their_cards, my_stoppers,
                         their_stoppers, stops, ctx.total, bot, legal)
    if legal is None:
        legal = legal_cells(grid, mine, theirs, stops, barred) if my_cards else 0
    if not legal:
        if passes:
            return _final(mine, theirs, bot)
        return -_search(ctx, theirs, mine, their_cards, my_cards, their_stoppers, my_stoppers,
                        stops, 1, depth, -beta, -alpha, not bot)
    best = -float("inf")
    for _, flag, after_mine, after_theirs, after_stops, answers in _options(
            ctx, legal, mine, theirs, their_cards, my_stoppers, my_cards, stops):
        value = -_search(ctx, after_theirs, after_mine, their_cards, my_cards - 1,
                         their_stoppers, my_stoppers - flag, after_stops, 0, depth - 1,
                         -beta, -alpha, not bot, answers)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


MAX_DEPTH = 6
"""Most plies the bot looks ahead in the middle game, its own option included."""
ENDGAME = 10
"""Placements left (both players' cards, the bot's next one included) from which the bot
looks ahead to the end of the game, if its budget allows."""
BUDGET = 1_200
"""Leaf evaluations a look-ahead may spend, roughly, before the bot stops deepening."""
HARD_LIMIT = 2 * BUDGET
"""Leaf evaluations after which a deeper look-ahead is abandoned for the shallower answer."""
TIE = 1.0
"""Options valued this close to the best are as good to the bot, and its RNG picks one
(a third of a card showing late in the game, a third of a legal placement early)."""


def _window(state: FlankState, depth: int) -> tuple[Grid, int, int, int]:
    """A window of the table in which no line of a ``depth``-ply look-ahead reaches
    the border, and the seats' cards (seat 0's, seat 1's) and the stoppers in it."""
    grid = state.grid
    if grid.bounded:
        return grid, state.discs[0], state.discs[1], state.stops
    x0, y0, x1, y1 = state.extent()
    margin = depth + 2
    wide = Grid(x0 - margin, y0 - margin, x1 - x0 + 1 + 2 * margin, y1 - y0 + 1 + 2 * margin,
                bounded=False)
    return wide, *(move_cells(grid, wide, b) for b in (state.discs[0], state.discs[1],
                                                        state.stops))


def choose(state: GameState, seat: int, rng: random.Random) -> str:
    """The bot's choice for ``seat`` (an option of its pending decision).

    Options the look-ahead values alike (within :data:`TIE`) are told apart by
    ``rng``, which the platform derives from the match's seed.

    >>> s = FlankState({"board": 8, "stoppers": 0}, first=0)
    >>> choose(s, 0, random.Random(1)) in s.pending()[0].options
    True
    """
    decision = state.decision_for(seat)
    if decision is None:
        raise NotYourTurn(Phrase("flank.error.computer_idle"))
    if len(decision.options) == 1 or not isinstance(state, FlankState):
        return rng.choice(decision.options)
    my_cards, their_cards = state.supply[seat], state.supply[1 - seat]
    # Plies looked at after the bot's own option: odd, so that every line ends on
    # the opponent's reply, unless the look-ahead reaches the end of the game.
    deepest = MAX_DEPTH - 1
    if my_cards + their_cards <= ENDGAME:
        deepest = max(deepest, my_cards + their_cards - 1)
    grid, seat0, seat1, stops = _window(state, deepest + 1)
    mine, theirs = (seat0, seat1) if seat == 0 else (seat1, seat0)
    my_stoppers, their_stoppers = state.stoppers[seat], state.stoppers[1 - seat]
    ctx = _Context(grid, state.options.stopper_zone, 2 * max(1, state.options.cards - 2))
    barred = barred_cells(grid, stops, ctx.zone)
    legal = legal_cells(grid, mine, theirs, stops, barred)
    options = list(_options(ctx, legal, mine, theirs, their_cards, my_stoppers, my_cards,
                            stops))

    def static(option: Option) -> float:
        _, flag, after_mine, after_theirs, after_stops, answers = option
        return -_evaluate(grid, barred_cells(grid, after_stops, ctx.zone), after_theirs,
                          after_mine, their_cards, my_cards - 1, their_stoppers,
                          my_stoppers - flag, after_stops, ctx.total, False, answers)

    # Trying the statically best options first makes alpha-beta cut more.
    options.sort(key=static, reverse=True)
    top: list[tuple[int, bool]] = []
    depth = 1
    while True:
        ctx.nodes = 0
        ctx.limit = HARD_LIMIT if top else None
        best = -float("inf")
        scored = []
        try:
            for option in options:
                cell, flag, after_mine, after_theirs, after_stops, answers = option
                # A window just below the best so far, less the tie margin, keeps
                # exact values for every option that may tie.
                value = -_search(ctx, after_theirs, after_mine, their_cards, my_cards - 1,
                                 their_stoppers, my_stoppers - flag, after_stops, 0, depth,
                                 -float("inf"), -(best - TIE - 1e-6), False, answers)
                scored.append((value, option))
                best = max(best, value)
        except _OutOfBudget:
            break
        top = [(option[0], option[1]) for value, option in scored if value >= best - TIE - 1e-9]
        if abs(best) >= WIN / 2 or depth >= deepest or ctx.nodes * len(options) > BUDGET:
            break
        # The next, deeper search looks at the best options first.
        options = [option for _, option in sorted(scored, key=lambda t: -t[0])]
        depth = min(depth + 2, deepest)
    cell, flag = top[0] if len(top) == 1 else rng.choice(top)
    choice = grid.name(cell) + ("*" if flag else "")
    return choice if choice in decision.options else rng.choice(decision.options)
