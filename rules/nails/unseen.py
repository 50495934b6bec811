"""What one seat of Hammer & Nails cannot see, dealt again (``GAME.unseen``).

A seat sees the build stack, its own hand, every hand's size, the deck's and
the discard pile's sizes and the penalties. It does not see the other hands,
the deck's order or the discards others made face down. :func:`unseen` gathers
those tiles and deals them again at random into the same places, in the same
numbers, so the seat's observation is the same and only what it could not know
has moved. It keeps what the seat has seen:

- tiles taken off the stack, and the seat's own discards, stay in the discard pile;
- while the seat looks through the deck (its ``search`` decision lists it), the
  deck keeps its tiles (only their order changes);
- a hand shown to the seat after a failed challenge goes back to its owner first,
  as far as those tiles are not seen elsewhere since;
- a player the seat saw forced to cover (a successful challenge) still can, and a
  player to place still has a placement.

The state's random numbers are drawn afresh from ``rng``, so the future draws and
random discards of the copy are not those of the real game.
"""

from __future__ import annotations

import random

from rules.core import GameState
from rules.nails.state import NailsState

ATTEMPTS = 30
"""Deals tried before accepting one that leaves another seat's decision empty
(possible only in positions a seat never decides in)."""


def unseen(state: GameState, seat: int, rng: random.Random) -> NailsState:
    """A copy of ``state`` with what ``seat`` cannot see dealt again from ``rng``."""
    assert isinstance(state, NailsState)
    for _ in range(ATTEMPTS):
        dealt = _deal(state, seat, rng)
        if _consistent(dealt, seat):
            return dealt
    return dealt


def _deal(state: NailsState, seat: int, rng: random.Random) -> NailsState:
    new = state.copy()
    others = [s for s in range(new.seats) if s != seat]
    searching = new.phase == "search" and new.turn == seat
    secret_discards = [i for i, n in enumerate(new.discard)
                       if new.discarded_by.get(n, -1) not in (None, seat)]
    pool = [n for s in others for n in new.hands[s]]
    pool += [new.discard[i] for i in secret_discards]
    if not searching:
        pool += new.draw
    # Sorted first: the deal must not depend on where the hidden tiles were.
    pool.sort()
    rng.shuffle(pool)
    pool = _shown_first(new, seat, pool)
    sizes = {s: len(new.hands[s]) for s in others}
    for s in others:
        new.hands[s], pool = pool[:sizes[s]], pool[sizes[s]:]
    if searching:
        new.draw.sort()
        rng.shuffle(new.draw)
    else:
        new.draw, pool = pool[:len(new.draw)], pool[len(new.draw):]
    # The secret discards' slots keep whose they were; only the tiles in them change.
    owners = [state.discarded_by.get(state.discard[i]) for i in secret_discards]
    dropped = {state.discard[i] for i in secret_discards}
    new.discarded_by = {n: by for n, by in state.discarded_by.items() if n not in dropped}
    new.discard = list(state.discard)
    for i, owner, number in zip(secret_discards, owners, pool, strict=True):
        new.discard[i] = number
        if owner is not None:
            new.discarded_by[number] = owner
    new.rng = random.Random(rng.getrandbits(64))
    _rework_hidden(new, seat, rng)
    return new


def _shown_first(state: NailsState, seat: int, pool: list[int]) -> list[int]:
    """``pool`` with the tiles of a hand shown to ``seat`` (and not seen since) moved
    to where its owner's hand is dealt from."""
    owner = state.shown_by.get(seat)
    if owner is None or owner == seat or seat not in state.revealed:
        return pool
    shown = [n for n in state.revealed[seat] if n in pool][:len(state.hands[owner])]
    rest = [n for n in pool if n not in shown]
    start = sum(len(state.hands[s]) for s in range(state.seats) if s not in (seat,)
                and s < owner)
    return rest[:start] + shown + rest[start:]


def _rework_hidden(state: NailsState, seat: int, rng: random.Random) -> None:
    """Bring what the state worked out from hidden hands in line with the new deal."""
    state._decision_cache = None
    state._pending_cache = None
    turn = state.turn
    if turn == seat:
        return
    if state.obligation is not None and state.phase in ("cover", "challenge"):
        state.could_cover = bool(state._covering(turn, state.obligation[0]))
    if state.must_play is not None:
        playable = [n for n in state.hands[turn] if state._can_place(turn, [n])]
        state.must_play = rng.choice(sorted(playable)) if playable else None


def _consistent(state: NailsState, seat: int) -> bool:
    """Whether the deal agrees with what ``seat`` saw of the others' hands."""
    turn = state.turn
    if turn == seat or state.phase not in ("place", "forced-cover"):
        return True
    if state.phase == "forced-cover":
        assert state.obligation is not None
        return bool(state._covering(turn, state.obligation[0]))
    return state._can_place(turn)
