"""Hammer & Nails' ``hard`` computer player: it looks at the reply.

For a placement it takes the most promising placements by what they gain at once
(:func:`rules.nails.bot.placement_value`), then plays each out in several worlds
— copies of the game with what its seat cannot see dealt again
(:func:`rules.nails.unseen.unseen`): its own turn to the end (mechanics, play
again, the draw), then the next player's best placement with the hand that world
gave them, then what its own best placement would gain after that. It keeps the
placement that leaves it furthest ahead on average, every candidate meeting the
same worlds so that luck cancels out between them. It thinks until its time is up
(:func:`rules.thinking.clock`), a few worlds at least.

Its other choices weigh what it knows: tiles by what they are worth to hold
(:func:`rules.nails.reckon.keep_value`), a challenge by how often the worlds give
the declarer a covering placement.
"""

from __future__ import annotations

import random

from rules.core import GameState
from rules.nails import bot as normal
from rules.nails.reckon import best_reply, keep_value, sign, standing
from rules.nails.stack import Placement
from rules.nails.state import ACCEPT, CANNOT, CHALLENGE, KEEP, NO, YES, NailsState
from rules.nails.unseen import unseen
from rules.thinking import clock

BUDGET = 0.12
"""Seconds of thought for one placement (the p99 limit is 0.5 s on a loaded machine)."""
WORLDS = (3, 24)
"""The fewest and the most worlds a placement is weighed in."""
CANDIDATES = 12
"""Placements looked at beyond their immediate worth."""
PER_TILE = 2
"""Of which, at least this many of each tile's best (when the hand has few tiles)."""
LIARS = 0.25
"""How often a player who could cover is taken to declare they cannot."""
NEXT = 1.0
"""How much of its own best placement after the reply counts (measured: 0.5 and 1.0
both help; 1.0 a little more)."""
TURN_STEPS = 40
"""Choices of one turn played out at most (a turn has a handful)."""


def choose(state: GameState, seat: int, rng: random.Random) -> str:
    """The ``hard`` computer's choice for ``seat``."""
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
        return _placement(state, seat, rng, placements)
    if kind == "challenge":
        return _challenge(state, seat, rng)
    if kind in ("again", "draw2", "discard", "trim", "stuck", "search"):
        return _quick(state, seat, kind, options, rng)
    return normal.choose(state, seat, rng)


def _placement(state: NailsState, seat: int, rng: random.Random, options: list[str]) -> str:
    candidates = _candidates(state, seat, options)
    if len(candidates) == 1:
        return candidates[0]
    totals = dict.fromkeys(candidates, 0.0)
    start = clock()
    fewest, most = WORLDS
    for worlds in range(1, most + 1):
        world = unseen(state, seat, rng)
        luck = rng.getrandbits(32)
        for option in candidates:
            totals[option] += _outlook(world, seat, option, luck)
        spent = clock() - start
        # Stop before a world that would likely end past the budget.
        if worlds >= fewest and spent + spent / worlds > BUDGET:
            break
    return max(candidates, key=totals.__getitem__)


def _candidates(state: NailsState, seat: int, options: list[str]) -> list[str]:
    """The placements worth playing out: each tile's best few by what they gain at
    once (shedding a tile may be right even when another gains more), then the best
    of the rest."""
    worth = {o: normal.placement_value(state, seat, Placement.parse(o)) for o in options}
    ranked = sorted(options, key=lambda o: -worth[o])
    chosen: list[str] = []
    per_tile: dict[str, int] = {}
    for option in ranked:
        tile = option.split("@", 1)[0]
        if per_tile.get(tile, 0) < PER_TILE:
            per_tile[tile] = per_tile.get(tile, 0) + 1
            chosen.append(option)
    chosen = chosen[:CANDIDATES]
    taken = set(chosen)
    chosen += [o for o in ranked if o not in taken][:CANDIDATES - len(chosen)]
    return sorted(chosen, key=lambda o: -worth[o])


def _outlook(world: NailsState, seat: int, option: str, luck: int) -> float:
    """How far ahead ``seat`` is after placing ``option`` in ``world``, finishing its
    turn and meeting the next player's best placement, with what its own best
    placement would then gain."""
    game = world.copy()
    game.apply(seat, option, checked=True)
    rng = random.Random(luck)
    for _ in range(TURN_STEPS):
        pending = game.pending()
        if not pending or pending[0].seat != seat:
            break
        decision = pending[0]
        choice = decision.forced or _follow_up(game, seat, decision.kind, decision.options, rng)
        game.apply(seat, choice, checked=True)
    ahead = standing(game, seat)
    pending = game.pending()
    if not pending:
        outcome = game.outcome()
        return ahead + (5.0 if outcome is not None and seat in outcome.winners else -5.0)
    other = pending[0].seat
    last = game.final_round and other == game.last_seat
    if game.colour_of[other] != game.colour_of[seat]:
        ahead -= _reply(game, other, pending[0].kind, len(pending[0].options))
    if last:
        return ahead
    mine, _ = best_reply(game, seat, game.hands[seat])
    return ahead + NEXT * mine


def _reply(game: NailsState, other: int, kind: str, options: int) -> float:
    """What the next player's best placement gains them, laid in ``game`` when the
    decision in front of them is that placement."""
    if kind not in ("place", "cover"):
        return 0.0
    tiles = [game.must_play] if game.must_play is not None else game.hands[other]
    colour = None
    if kind == "cover" and options > 1:
        assert game.obligation is not None
        colour = game.obligation[0]
    worth, where = best_reply(game, other, tiles, colour)
    # Declaring "cannot" comes first: the placement after it is only counted.
    if where is not None and not (kind == "cover" and colour is None):
        game.apply(other, where.notation, checked=True)
    return worth


def _follow_up(state: NailsState, seat: int, kind: str, options: tuple[str, ...],
               rng: random.Random) -> str:
    """A quick choice inside a played-out turn."""
    if kind in ("place", "cover"):
        placements = [o for o in options if o != CANNOT]
        if not placements:
            return CANNOT
        tiles = sorted({Placement.parse(o).tile for o in placements})
        colour = state.obligation[0] if kind == "cover" and state.obligation else None
        _, where = best_reply(state, seat, tiles, colour)
        if where is not None and where.notation in placements:
            return where.notation
        return placements[0]
    if kind in ("again", "draw2", "discard", "trim", "stuck", "search"):
        return _quick(state, seat, kind, options, rng)
    return normal.choose(state, seat, rng)


def _quick(state: NailsState, seat: int, kind: str, options: tuple[str, ...],
           rng: random.Random) -> str:
    """Choices made by what a tile is worth to hold."""
    if kind == "again":
        worth, _ = best_reply(state, seat, state.hands[seat])
        return YES if worth > -0.5 else NO
    if kind == "draw2":
        return YES
    if kind == "search":
        return max(options, key=lambda o: keep_value(state, seat, state.tiles[int(o)]))
    tiles = [o for o in options if o != KEEP]
    worst = min(tiles, key=lambda o: keep_value(state, seat, state.tiles[int(o)]))
    if kind == "discard" and keep_value(state, seat, state.tiles[int(worst)]) > -0.3 * sign(state):
        return KEEP
    return worst


def _challenge(state: NailsState, seat: int, rng: random.Random) -> str:
    """Challenge when, allowing for the declarer telling the truth, it more likely
    lies: the worlds say how often a hand of that size could cover."""
    assert state.obligation is not None
    colour = state.obligation[0]
    worlds = 16
    could = 0
    for _ in range(worlds):
        world = unseen(state, seat, rng)
        could += bool(world._covering(world.turn, colour))
    p = could / worlds
    lying = p * LIARS / (p * LIARS + (1 - p)) if p < 1 else 1.0
    return CHALLENGE if lying > 0.6 else ACCEPT
