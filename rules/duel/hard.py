"""The ``hard`` computer player of Arcane Duel: it tries its plays out.

For each decision that matters it lists a few *plans* (a play, or an attack with
a chosen set of creatures, or a set of blocks), then plays each plan out on
positions where what it cannot see is dealt again (:mod:`rules.duel.unseen`):
the rest of its turn and the opponent's next turn, both sides played by the
``normal`` computer (:mod:`rules.duel.bot`). The engine does the combat
arithmetic (first strike, trample, tricks in the windows, who dies), and
:mod:`rules.duel.judge` says how good the position is where the playout stops —
life, board, cards and the race between the two clocks. The plan worth most on
average is played. Every plan is tried on the same deals, so they are compared
on equal terms.

It thinks by :func:`rules.thinking.clock`, reading it after every playout, and
stops at :data:`BUDGET`: a new deal is begun only while time is left, and a deal
cut short counts only if no deal was finished.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from rules.core import Decision, GameState
from rules.duel import bot as normal
from rules.duel.characteristics import Table
from rules.duel.judge import worth
from rules.duel.state import DuelState
from rules.duel.unseen import unseen
from rules.errors import RulesError
from rules.thinking import clock

BUDGET = 0.04
"""Seconds of thought per decision (the issue's limit is 0.2 s at the 99th
percentile on a machine up to three times slower)."""
DEALS = 6
"""Most deals of the unseen tried per decision."""
PLAYOUT_LIMIT = 400
"""Most choices in one playout (a turn and the opponent's rarely take 60)."""
MOST_PLANS = 10
"""Most plans tried for one decision (the likeliest first)."""
ALL_SUBSETS = 4
"""Up to this many possible attackers, every set of them is a plan."""

Plan = tuple[str, ...]


def choose(state: GameState, seat: int, rng: random.Random) -> str:
    """The ``hard`` computer's choice for ``seat``."""
    assert isinstance(state, DuelState)
    decision = state.decision_for(seat)
    assert decision is not None
    if decision.forced is not None:
        return decision.forced
    plans = plans_for(state, seat, decision, rng)
    if len(plans) == 1:
        return plans[0][0]
    return search(state, seat, plans, rng)[0]


# -- what to try ------------------------------------------------------------------------
def plans_for(state: DuelState, seat: int, decision: Decision,
              rng: random.Random) -> list[Plan]:
    """The plans worth trying for ``decision``, the ``normal`` computer's first
    (a single plan: no need to search)."""
    guess = normal.choose(state, seat, rng)
    match decision.kind:
        case "main":
            found = _main_plans(state, seat, decision, guess)
        case "attack":
            found = [(s,) for s in attack_sets(state, seat, decision.options, guess)]
        case "block":
            found = [(s,) for s in block_sets(state, seat, guess)]
        case "priority":
            found = _priority_plans(state, seat, decision, guess)
        case "target":
            found = [(o,) for o in decision.options if o != "cancel"]
        case _:  # X, discard, damage splits, bands, defenders: the plain rules of thumb
            found = []
    plans = list(dict.fromkeys([(guess,), *found]))
    return plans[:MOST_PLANS]


def _main_plans(state: DuelState, seat: int, decision: Decision, guess: str) -> list[Plan]:
    if guess.startswith("land "):
        return []  # a land first, always: nothing is lost by it
    plans: list[Plan] = []
    for option in decision.options:
        verb = option.split(" ", 1)[0]
        if verb in {"cast", "use"}:
            plans.append((option,))
    if "attack" in decision.options and state.seats == 2:
        able = tuple(str(p) for p in state.battlefield
                     if state.table.can_attack(p, seat))
        plans += [("attack", s) for s in attack_sets(state, seat, able, None)]
    plans.append(("end",))
    return plans


def _priority_plans(state: DuelState, seat: int, decision: Decision,
                    guess: str) -> list[Plan]:
    plans: list[Plan] = [("pass",)]
    boosted: set[str] = set()
    for option in decision.options:
        verb = option.split(" ", 1)[0]
        if verb in {"cast", "use"}:
            plans.append((option,))
        elif verb == "boost":
            pid = option.split(" ")[1].split(".")[0]
            if pid not in boosted:  # one mana at a time: the first colour will do
                boosted.add(pid)
                plans.append((option,))
    return plans


def attack_sets(state: DuelState, seat: int, able: Sequence[str],
                guess: str | None) -> list[str]:
    """Sets of attackers worth trying: every set of a few, else the ``normal``
    computer's, all, each alone, all but each, the evasive ones."""
    table = state.table
    ranked = sorted(able, key=lambda r: -normal.threat(state, int(r)))
    sets: list[tuple[str, ...]] = []
    if guess is not None:
        sets.append(tuple(guess.split(",")))
    else:
        chosen = normal.attackers(state, seat, None)
        if chosen:
            sets.append(tuple(chosen.split(",")))
    if len(ranked) <= ALL_SUBSETS:
        for size in range(len(ranked), 0, -1):
            sets += list(combinations(ranked, size))
    else:
        sets.append(tuple(ranked))
        foe = state.others(seat)[0]
        blockers = [p.id for p in state.battlefield.values()
                    if p.controller == foe and p.card.is_creature and not p.tapped]
        evasive = tuple(r for r in ranked
                        if not any(table.can_block(b, int(r)) for b in blockers))
        if evasive:
            sets.append(evasive)
        sets += [tuple(r for r in ranked if r != out) for out in ranked[:3]]
        sets += [(r,) for r in ranked]
    order = {r: i for i, r in enumerate(able)}
    shown = [",".join(sorted(s, key=lambda r: order.get(r, 0))) for s in sets if s]
    return list(dict.fromkeys(shown))


def block_sets(state: DuelState, seat: int, guess: str) -> list[str]:
    """Sets of blocks worth trying: the ``normal`` computer's, none, blocks that
    win their fight, trades, double blocks on a big attacker, and chump blocks
    when the attack would be lethal."""
    combat = state.combat
    assert combat is not None
    table = state.table
    pairs = [tuple(int(x) for x in p.split(">")) for p in state.block_pairs()]
    units = sorted(combat.units(), key=lambda u: -sum(table.power(a) for a in u))
    incoming = sum(table.power(a) for a in combat.attackers)
    life = state.players[seat].life

    def options(unit: tuple[int, ...], used: set[int]) -> list[tuple[int, int]]:
        key = combat.unit_key(unit)
        return [(b, a) for b, a in pairs if combat.key_of(a) == key and b not in used]

    def greedy(accept: str) -> list[str]:
        used: set[int] = set()
        chosen: list[str] = []
        left = incoming
        for unit in units:
            power = sum(table.power(a) for a in unit)
            best: tuple[float, int, int] | None = None
            for blocker, member in options(unit, used):
                kills, dies = fight(table, unit, [blocker])
                gain = (normal.threat(state, unit[0]) if kills else 0.0) - (
                    normal.threat(state, blocker) if dies else 0.0)
                fits = {"win": kills and not dies, "safe": not dies,
                        "trade": kills and gain >= -0.5,
                        "chump": left >= life}[accept] or (not dies and accept != "win")
                if fits and (best is None or gain > best[0]):
                    best = (gain, blocker, member)
            if best is not None:
                used.add(best[1])
                chosen.append(f"{best[1]}>{best[2]}")
                left -= power
        return chosen

    sets = [guess, "none"]
    for accept in ("win", "safe", "trade", "chump"):
        sets.append(",".join(greedy(accept)) or "none")
    for unit in units[:2]:  # two blockers on a big attacker that one alone cannot stop
        blockers = options(unit, set())
        for (b1, m1), (b2, m2) in combinations(blockers, 2):
            kills, _ = fight(table, unit, [b1, b2])
            if kills and b1 != b2:
                sets.append(f"{b1}>{m1},{b2}>{m2}")
                break
    return [s for s in dict.fromkeys(sets) if s]


def fight(table: Table, unit: Sequence[int], blockers: Sequence[int]) -> tuple[bool, bool]:
    """A rough fight between an attacking ``unit`` and its ``blockers``: whether
    the (first) attacker dies, and whether a blocker does (the attacker's damage
    on the first blocker). First strike counts; tricks, trample and regeneration
    are the engine's to settle in a playout."""
    attack = sum(max(table.power(a), 0) for a in unit)
    defence = sum(max(table.power(b), 0) for b in blockers)
    first = unit[0]
    a_first = all(table.has(a, "first strike") for a in unit)
    b_first = all(table.has(b, "first strike") for b in blockers)
    blocker_dies = attack >= table.lethal(blockers[0])
    attacker_dies = defence >= table.lethal(first)
    if a_first and not b_first and blocker_dies and len(blockers) == 1:
        attacker_dies = False
    if b_first and not a_first and attacker_dies:
        blocker_dies = False
    return attacker_dies, blocker_dies


# -- trying the plans out -------------------------------------------------------------
def search(state: DuelState, seat: int, plans: Sequence[Plan], rng: random.Random) -> Plan:
    """The plan worth most over deals of the unseen, within :data:`BUDGET`."""
    start = clock()
    totals = [0.0] * len(plans)
    finished = 0
    partial: list[float] = []
    for _ in range(DEALS):
        world = unseen(state, seat, random.Random(rng.getrandbits(64)))
        seed = rng.getrandbits(32)
        values: list[float] = []
        for plan in plans:
            values.append(playout(world, seat, plan, seed))
            if clock() - start >= BUDGET:
                break
        if len(values) < len(plans):
            partial = values
            break
        totals = [t + v for t, v in zip(totals, values, strict=True)]
        finished += 1
        if clock() - start >= BUDGET:
            break
    scores = totals if finished else partial
    best = max(range(len(scores)), key=lambda i: (scores[i], -i))
    return plans[best]


def playout(world: DuelState, seat: int, plan: Plan, seed: int) -> float:
    """The worth to ``seat`` of playing ``plan`` in ``world``, then both sides as
    the ``normal`` computer until ``seat``'s next turn begins."""
    state = world.copy()
    turn = world.turn
    try:
        for choice in plan:
            state.apply(seat, choice)
        policy = random.Random(seed)
        moves = 0
        while state.outcome() is None and moves < PLAYOUT_LIMIT:
            if state.turn != turn and state.active == seat:
                break
            for decision in state.pending():
                choice = decision.forced or normal.choose(state, decision.seat, policy)
                state.apply(decision.seat, choice)
                moves += 1
    except RulesError:
        return -2 * 1000.0  # a plan the rules refuse is never chosen
    return worth(state, seat)
