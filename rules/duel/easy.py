"""The ``easy`` computer player of Arcane Duel: the ``normal`` one with a
beginner's habits.

It plays legal, sensible-looking moves, but as a beginner does: it casts the
cheapest spell it can first (so bigger ones wait and mana goes unused), fires
its instants in its own main phase instead of holding mana for the opponent's
turn, forgets blocks it should make (unless the attack would be lethal), sends
creatures into attacks a blocker wins now and then, and uses removal on whatever
catches its eye first. Its slips come from its own random numbers, so a game
replays alike.
"""

from __future__ import annotations

import random

from rules.core import Decision, GameState
from rules.duel import bot as normal
from rules.duel.state import DuelState

MISSED_BLOCK = 0.6
"""How often it leaves out a block it would have made (a lethal attack aside)."""
RASH_ATTACK = 0.35
"""How often a creature that would wait attacks anyway."""


def choose(state: GameState, seat: int, rng: random.Random) -> str:
    """The ``easy`` computer's choice for ``seat``."""
    assert isinstance(state, DuelState)
    decision = state.decision_for(seat)
    assert decision is not None
    if decision.forced is not None:
        return decision.forced
    match decision.kind:
        case "main":
            return _main(state, seat, decision, rng)
        case "priority":
            return _priority(state, seat, decision, rng)
        case "attack":
            return _attackers(state, seat, decision, rng)
        case "block":
            return _blocks(state, seat, decision, rng)
        case "target":
            return _target(state, seat, decision, rng)
    return normal.choose(state, seat, rng)


def _main(state: DuelState, seat: int, decision: Decision, rng: random.Random) -> str:
    lands = [o for o in decision.options if o.startswith("land ")]
    if lands:
        return lands[0]  # the first land in hand, whatever colours the hand needs
    spells = [o for o in decision.options if o.startswith("cast ")
              and normal.worth_casting(state, seat, normal.card_of(o))]
    if spells:  # the cheapest first: a beginner plays what they can afford at once
        return min(spells, key=lambda o: normal.card_of(o).cost_parts.mana_value)
    return normal.choose(state, seat, rng)


def _priority(state: DuelState, seat: int, decision: Decision, rng: random.Random) -> str:
    if state.active != seat and state.phase == "end" and not state.stack:
        return "pass"  # it never thinks of the opponent's end of turn
    return normal.choose(state, seat, rng)


def _attackers(state: DuelState, seat: int, decision: Decision, rng: random.Random) -> str:
    chosen = normal.choose(state, seat, rng).split(",")
    rash = [o for o in decision.options if o not in chosen and rng.random() < RASH_ATTACK]
    return ",".join(o for o in decision.options if o in chosen or o in rash)


def _blocks(state: DuelState, seat: int, decision: Decision, rng: random.Random) -> str:
    planned = normal.choose(state, seat, rng)
    if planned == "none":
        return planned
    combat = state.combat
    assert combat is not None
    table = state.table
    incoming = sum(table.power(a) for a in combat.attackers)
    if incoming >= state.players[seat].life:
        return planned  # even a beginner sees a lethal attack
    kept = [p for p in planned.split(",") if rng.random() >= MISSED_BLOCK]
    return ",".join(kept) or "none"


def _target(state: DuelState, seat: int, decision: Decision, rng: random.Random) -> str:
    planned = normal.choose(state, seat, rng)
    if rng.random() < 0.5:
        return planned
    casting = state.casting
    assert casting is not None
    _, _, effect = state.casting_parts(casting)
    if effect is None or effect.do not in normal.HARMFUL:
        return planned
    theirs = [o for o in decision.options if o.isdigit() and int(o) in state.battlefield
              and state.battlefield[int(o)].controller != seat
              and state.battlefield[int(o)].card.is_creature]
    return theirs[0] if theirs else planned
