"""The computer player of Arcane Duel: a land each turn, the dearest spell it
can cast, removal on the biggest threat, attacks that do not throw creatures
away, blocks that trade well or save its life, and fast effects held for the
opponent's turn (the end of it, an attack, a spell worth countering).

It looks one decision ahead at most, so it decides in milliseconds.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from rules.core import Decision, GameState
from rules.duel.cards import CardDef, Effect, card
from rules.duel.state import DuelState

HARMFUL = frozenset({"damage", "destroy", "tap", "bounce", "counter", "discard", "lose life"})


def choose(state: GameState, seat: int, rng: random.Random) -> str:
    """The computer's choice for ``seat``."""
    assert isinstance(state, DuelState)
    decision = state.decision_for(seat)
    assert decision is not None
    if decision.forced is not None:
        return decision.forced
    match decision.kind:
        case "main":
            return _main(state, seat, decision)
        case "priority":
            return _priority(state, seat, decision)
        case "x":
            numbers = [o for o in decision.options if o.isdigit()]
            return numbers[-1]
        case "target":
            return _target(state, seat, decision)
        case "defender":  # the weakest opponent; on a tie, the next one in turn order
            order = state.others(seat)
            return min(decision.options, key=lambda ref: (
                state.players[int(ref[1:]) - 1].life, order.index(int(ref[1:]) - 1)))
        case "attack":
            return attackers(state, seat, decision)
        case "band":
            return "none"
        case "block":
            return _blocks(state, seat)
        case "assign":
            return _assign(state, seat, decision)
        case "discard":
            return _discard(state, seat, decision)
    return rng.choice(decision.options)  # pragma: no cover - every kind is matched


# -- how much things are worth ---------------------------------------------------------
def threat(state: DuelState, pid: int) -> float:
    """How much a permanent weighs on the game: a creature by its power, toughness and
    keywords, anything else by half its mana value (the easy and hard levels ask too)."""
    table = state.table
    perm = state.battlefield[pid]
    if not perm.card.is_creature:
        return perm.card.cost_parts.mana_value / 2
    words = table.keywords(pid)
    value = table.power(pid) * 1.5 + table.toughness(pid)
    value += 1.5 * ("flying" in words) + ("first strike" in words) + ("trample" in words)
    return value + 0.5 * sum(w.startswith(("landwalk", "protection")) for w in words)


def _helps(effect: Effect) -> bool:
    return effect.do not in HARMFUL


def _castable(decision: Decision, verb: str) -> list[str]:
    return [o for o in decision.options if o.startswith(verb + " ")]


def card_of(option: str) -> CardDef:
    """The card an option such as ``cast Kindlewhip`` names."""
    return card(option.split(" ", 1)[1])


# -- main phase and priority --------------------------------------------------------------
def _main(state: DuelState, seat: int, decision: Decision) -> str:
    lands = _castable(decision, "land")
    if lands:
        return max(lands, key=lambda o: _land_worth(state, seat, card_of(o)))
    spells = [o for o in _castable(decision, "cast") if worth_casting(state, seat,
                                                                        card_of(o))]
    if spells:
        return max(spells, key=lambda o: (card_of(o).is_permanent,
                                          card_of(o).cost_parts.mana_value))
    uses = [o for o in _castable(decision, "use") if _worth_using(state, seat, o)]
    if uses:
        return uses[0]
    if "attack" in decision.options and attackers(state, seat, None):
        return "attack"
    return "end"


def _land_worth(state: DuelState, seat: int, land: CardDef) -> int:
    wanted = [c for cid in state.players[seat].hand
              for c in card(state.cards[cid]).cost_parts.colours]
    return sum(wanted.count(c) for c in land.produces) + len(land.produces)


def worth_casting(state: DuelState, seat: int, data: CardDef) -> bool:
    """Whether casting ``data`` now does some good (a target worth it exists)."""
    if data.type == "interrupt":
        return False  # counters wait for a spell to answer; rituals are not worth a card
    effect = data.target_effect()
    if data.enchants is not None:
        return _aura_target(state, seat, data) is not None
    if effect is None:
        return not any(e.do in HARMFUL and e.target in {"each creature", "you"}
                       for e in (*data.spell, *data.enters)) or _mass_ok(state, seat, data)
    return _best_target(state, seat, effect, data.colour) is not None


def _mass_ok(state: DuelState, seat: int, data: CardDef) -> bool:
    mine = sum(threat(state, p.id) for p in state.battlefield.values()
               if p.controller == seat and p.card.is_creature)
    theirs = sum(threat(state, p.id) for p in state.battlefield.values()
                 if p.controller != seat and p.card.is_creature)
    return theirs > mine + 3


def _worth_using(state: DuelState, seat: int, option: str) -> bool:
    pid_text, _, index = option.split(" ", 1)[1].partition(".")
    perm = state.battlefield[int(pid_text)]
    ability = perm.card.abilities[int(index) - 1]
    if ability.sacrifice or ability.life:
        return False
    target = next((e for e in ability.effects if e.chooses_target), None)
    if target is None:
        return not any(e.do in {"regenerate", "prevent", "pump", "grant"}
                       for e in ability.effects) and not ability.mana_only
    return _helps(target) is False and _best_target(state, seat, target,
                                                    perm.card.colour) is not None


def _priority(state: DuelState, seat: int, decision: Decision) -> str:
    theirs = state.active != seat
    top = state.stack[-1] if state.stack else None
    counters = [o for o in _castable(decision, "cast")
                if any(e.do == "counter" for e in card_of(o).spell)]
    if top is not None and top.controller != seat and counters and top.spell \
            and (top.card.cost_parts.mana_value >= 3 or _aims_at_me(state, seat, top.target)):
        return counters[0]
    saving = _save_creature(state, seat, decision)
    if saving:
        return saving
    if theirs and state.phase == "end" and not state.stack:
        for option in _castable(decision, "cast"):
            data = card_of(option)
            if data.type == "instant" and worth_casting(state, seat, data):
                return option
    if state.combat is not None and state.combat.stage == "block window":
        unblocked = [a for a in state.combat.attackers
                     if state.battlefield[a].controller == seat
                     and a not in state.combat.blocked]
        boosts = [o for o in _castable(decision, "boost")
                  if int(o.split(" ")[1].split(".")[0]) in unblocked]
        if boosts:
            return boosts[0]
    return "pass"


def _aims_at_me(state: DuelState, seat: int, target: str | None) -> bool:
    if target is None:
        return False
    if target.startswith("p"):
        return int(target[1:]) - 1 == seat
    perm = state.battlefield.get(int(target))
    return perm is not None and perm.controller == seat


def _save_creature(state: DuelState, seat: int, decision: Decision) -> str | None:
    """A regeneration or prevention for a creature of ours with lethal damage."""
    window = state.window
    if window is None or window.kind != "prevent":
        return None
    table = state.table
    dying = [p for p in state.battlefield.values() if p.controller == seat
             and p.card.is_creature and p.damage >= table.toughness(p.id) and not p.shields]
    if not dying:
        return None
    for option in decision.options:
        if option.startswith("use "):
            pid = int(option.split(" ")[1].split(".")[0])
            ability = state.battlefield[pid].card.abilities[int(option.split(".")[1]) - 1]
            if any(e.do == "regenerate" and e.target == "self" for e in ability.effects) \
                    and any(p.id == pid for p in dying):
                return option
    return None


# -- targets ----------------------------------------------------------------------------
def _target(state: DuelState, seat: int, decision: Decision) -> str:
    casting = state.casting
    assert casting is not None
    data, _, effect = state.casting_parts(casting)
    options = [o for o in decision.options if o != "cancel"]
    if casting.card_id is not None and data.enchants is not None:
        return _aura_target(state, seat, data) or options[0]
    assert effect is not None
    best = _best_target(state, seat, effect, data.colour, options)
    return best if best is not None else options[0]


def _best_target(state: DuelState, seat: int, effect: Effect, colour: str | None,
                 options: Iterable[str] | None = None) -> str | None:
    refs = list(options) if options is not None else state.targets(seat, effect, colour)
    me = state.player_ref(seat)
    table = state.table
    if _helps(effect):
        mine = [r for r in refs if r == me or (r.isdigit() and int(r) in state.battlefield
                                                and state.battlefield[int(r)].controller
                                                == seat)]
        creatures = [r for r in mine if r.isdigit()]
        if creatures:
            return max(creatures, key=lambda r: threat(state, int(r)))
        return mine[0] if mine else None
    theirs = [r for r in refs if r != me and not (r.isdigit() and int(r) in state.battlefield
                                                  and state.battlefield[int(r)].controller
                                                  == seat)]
    if effect.do == "counter":
        return theirs[-1] if theirs else None
    creatures = [r for r in theirs if r.isdigit() and int(r) in state.battlefield]
    players = [r for r in theirs if r.startswith("p")]
    if effect.do == "damage":
        amount = effect.amount if isinstance(effect.amount, int) else 99
        killable = [r for r in creatures if table.lethal(int(r)) <= amount]
        if killable:
            return max(killable, key=lambda r: threat(state, int(r)))
        return players[0] if players else None
    if creatures:
        return max(creatures, key=lambda r: threat(state, int(r)))
    others = [r for r in theirs if r.isdigit()]
    return others[0] if others else (players[0] if players else None)


def _aura_target(state: DuelState, seat: int, data: CardDef) -> str | None:
    refs = state.aura_targets(seat, data)
    good = any(s.power > 0 or s.toughness > 0 or s.keywords or s.extra_mana
               for s in data.statics)
    pick = [r for r in refs if (state.battlefield[int(r)].controller == seat) == good]
    if not pick:
        return None
    return max(pick, key=lambda r: threat(state, int(r)))


# -- combat -------------------------------------------------------------------------------
def attackers(state: DuelState, seat: int, decision: Decision | None) -> str:
    """The creatures ``seat`` attacks with, comma-separated: all of them when nothing
    can block and their power is lethal, else those no untapped blocker could kill and
    survive. With ``decision`` (the declaration) at least one of its options; without
    it, before attacking, ``""`` when no attack is worth it."""
    table = state.table
    able = [p for p in state.battlefield if table.can_attack(p, seat)]
    combat = state.combat
    them = combat.defender if combat is not None and combat.defender >= 0 \
        else state.others(seat)[0]
    blockers = [p for p in state.battlefield.values() if p.controller == them
                and p.card.is_creature and not p.tapped]
    total = sum(table.power(a) for a in able)
    if total >= state.players[them].life and not blockers:
        chosen = able
    else:
        chosen = [a for a in able if table.power(a) > 0 and not any(
            table.can_block(b.id, a) and table.power(b.id) >= table.toughness(a)
            and table.toughness(b.id) > table.power(a) for b in blockers)]
    if decision is None:
        return ",".join(map(str, chosen))
    picked = [str(a) for a in chosen if str(a) in decision.options]
    return ",".join(picked or [max(decision.options,
                                   key=lambda r: table.toughness(int(r)))])


def _blocks(state: DuelState, seat: int) -> str:
    combat = state.combat
    assert combat is not None
    table = state.table
    pairs = state.block_pairs()
    used: set[int] = set()
    chosen: list[str] = []
    incoming = sum(table.power(a) for a in combat.attackers)
    danger = incoming >= state.players[seat].life
    for unit in sorted(combat.units(), key=lambda u: -sum(table.power(a) for a in u)):
        power = sum(table.power(a) for a in unit)
        toughness = min(table.toughness(a) for a in unit)
        key = combat.unit_key(unit)
        options = list(dict.fromkeys(
            int(p.split(">")[0]) for p in pairs
            if combat.key_of(int(p.split(">")[1])) == key and int(p.split(">")[0]) not in used))
        if not options:
            continue
        good = [b for b in options if table.power(b) >= toughness
                and table.toughness(b) > power]
        safe = [b for b in options if table.toughness(b) > power]
        trade = [b for b in options if table.power(b) >= toughness
                 and threat(state, b) <= threat(state, unit[0])]
        pick = (good or safe or trade or (options if danger else []))
        if pick:
            blocker = min(pick, key=lambda b: threat(state, b))
            used.add(blocker)
            member = next(int(p.split(">")[1]) for p in pairs if p.startswith(f"{blocker}>")
                          and combat.key_of(int(p.split(">")[1])) == key)
            chosen.append(f"{blocker}>{member}")
            incoming -= power
            danger = incoming >= state.players[seat].life
    return ",".join(chosen) or "none"


def _assign(state: DuelState, seat: int, decision: Decision) -> str:
    combat = state.combat
    assert combat is not None
    job = combat.assignments[0]
    table = state.table
    left = job.total
    amounts: dict[str, int] = {}
    if job.to_band:  # damage to our own band: spread it to keep creatures alive
        order = sorted(job.options, key=lambda r: -table.lethal(int(r)))
        for ref in order:
            room = max(0, table.lethal(int(ref)) - 1)
            give = min(left, room)
            if give:
                amounts[ref] = give
                left -= give
        if left:
            amounts[order[0]] = amounts.get(order[0], 0) + left
    elif job.seat != state.active:  # defender splits among its blockers: lose the least
        order = sorted(job.options, key=lambda r: (r.startswith("p"),
                                                   threat(state, int(r)) if r.isdigit()
                                                   else 0))
        amounts[order[0]] = left
    else:
        blockers = [r for r in job.options if not r.startswith("p")]
        for ref in sorted(blockers, key=lambda r: table.lethal(int(r))):
            give = min(left, max(job.lethal.get(ref, 0), table.lethal(int(ref))))
            if give:
                amounts[ref] = give
                left -= give
        if left:
            sink = job.player or blockers[0]
            amounts[sink] = amounts.get(sink, 0) + left
    return ",".join(f"{r}={n}" for r, n in amounts.items() if n)


def _discard(state: DuelState, seat: int, decision: Decision) -> str:
    lands_in_play = sum(1 for p in state.battlefield.values()
                        if p.controller == seat and p.card.type == "land")
    labels = state.hand_labels(seat)
    ranked = sorted(decision.options, key=lambda r: (
        -(card(state.cards[labels[r]]).type == "land") if lands_in_play >= 5 else 0,
        -card(state.cards[labels[r]]).cost_parts.mana_value))
    return ",".join(ranked[:decision.least])
