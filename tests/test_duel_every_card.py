"""Every card of the Arcane Duel set does what its rules text says.

For each card of :func:`~rules.duel.cards.card_set` a position is generated from
the card's data: its controller (p1, in their main phase) has exactly the lands
to pay for it, and there is something to aim at of every kind — a creature of
each player, an artifact, an enchantment and lands of the opponent, a spell on
the stack for a counter, an attacker for a card that answers one. The card is
cast (a land played and tapped), the stack resolves, and what each effect and
static effect of its data *should* have done is worked out from the data alone
and compared with what the engine did; nothing else on the table may change.
Activated abilities are used from a copy already in play, upkeep effects are
checked at the controller's next upkeep, mana boosts are paid for, and
prevention is checked against a later :data:`PROBE`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import get_args

import pytest

from rules.duel.cards import (
    COLOURS,
    Ability,
    CardDef,
    Cost,
    Effect,
    EffectKind,
    Static,
    card_set,
)
from rules.duel.decks import basic_land
from rules.duel.notation import act, parse, settle
from rules.duel.state import DuelState

CARDS: dict[str, CardDef] = dict(card_set())
NAMES = list(CARDS)
ME, YOU = 0, 1
X = 2
"""The X paid for every card with X in its cost."""
PROBE, PROBE_DAMAGE, PROBE_LAND = "Kindlewhip", 2, "Ashpeak"
"""The later damage a prevention effect is measured against, and its land."""
FILLER = "Dawnfield"
MY_LIBRARY = ("Vigil Squire", "Kindlewhip", "Mossvale", *[FILLER] * 5)
"""p1's library: a creature, a spell and a land to find, then filler."""
HOSTILE = frozenset({"damage", "destroy", "tap", "bounce", "discard", "lose life", "recolour",
                     "counter"})
"""Effects aimed at the opponent's things (the others help p1's)."""
PLAYER_KINDS = frozenset({"gain life", "lose life", "draw", "discard", "add mana", "search"})
PERMANENT_KINDS = frozenset({"damage", "destroy", "pump", "tap", "untap", "grant", "prevent",
                             "regenerate", "bounce", "recolour"})
FLAGS = ("no_untap", "cant_attack", "cant_block")


# -- the cards a position is built with ---------------------------------------------
def hostile(effect: Effect) -> bool:
    """Whether the effect harms what it hits (so it is aimed at the opponent)."""
    return effect.do in HOSTILE or (effect.do == "pump"
                                    and min(effect.power, effect.toughness) < 0)


def plain(data: CardDef) -> bool:
    """A creature that is only a body and keywords."""
    return data.is_creature and not (data.abilities or data.enters or data.upkeep
                                     or data.statics or data.enhance)


def vanilla(data: CardDef) -> bool:
    """A creature with no rules text at all."""
    return plain(data) and not data.keywords


BODIES = [d for d in CARDS.values() if plain(d) and d.type == "creature"
          and not any(k.startswith("protection:") for k in d.keywords)]
"""Creatures to stand on the table: nothing but a body, no protection."""


def body(*, colour: str | None = None, keyword: str | None = None,
         avoid: frozenset[str] = frozenset(), lacks: frozenset[str] = frozenset(),
         toughness: int = 3) -> str:
    """A plain creature of ``colour`` with ``keyword``, of no colour in ``avoid``,
    without the keywords ``lacks``, with at least ``toughness`` if there is one."""
    fits = [d for d in BODIES if (colour is None or d.colour == colour)
            and (keyword is None or keyword in d.keywords) and d.colour not in avoid
            and not lacks & set(d.keywords)]
    assert fits, f"no plain creature fits colour={colour} keyword={keyword} avoid={avoid}"
    best = min(fits, key=lambda d: ((d.toughness or 0) < toughness, len(d.keywords),
                                    -(d.toughness or 0), d.name))
    return best.name


def creature_costing(colour: str, amount: int) -> str:
    """A creature that needs no target and costs ``amount`` mana payable with ``colour``."""
    fits = [d for d in CARDS.values() if d.is_creature and d.colour == colour
            and d.cost_parts.mana_value == amount and not d.cost_parts.x
            and d.target_effect() is None]
    assert fits, f"no creature costs {amount} {colour}"
    return min(fits, key=lambda d: d.name).name


def artifact_costing(amount: int) -> str:
    """An artifact that is not a creature and costs ``amount`` generic mana."""
    fits = [d for d in CARDS.values() if d.type == "artifact" and d.cost == str(amount)]
    return min(fits, key=lambda d: d.name).name


def victim_of(colour: str | None) -> tuple[str, str]:
    """The spell the opponent casts for a counter to answer, and its target.
    A Kindlewhip at p1 when any spell will do, so 'without effect' shows in life."""
    if colour is None:
        return PROBE, " @p1"
    fits = [d for d in CARDS.values() if d.is_creature and d.colour == colour
            and d.target_effect() is None]
    return min(fits, key=lambda d: (d.cost_parts.mana_value, d.name)).name, ""


# -- positions ------------------------------------------------------------------------
@dataclass
class Side:
    library: list[str]
    hand: list[str] = field(default_factory=list)
    play: list[str] = field(default_factory=list)


@dataclass
class Board:
    """A position being written: permanents get numbers as they are put."""

    active: int = ME
    phase: str = "main"
    sides: tuple[Side, Side] = field(default_factory=lambda: (
        Side(list(MY_LIBRARY)), Side([FILLER] * 5, [FILLER] * 3)))
    seat_of: dict[int, int] = field(default_factory=dict)

    def put(self, seat: int, name: str, *flags: str) -> int:
        pid = len(self.seat_of) + 1
        self.seat_of[pid] = seat
        self.sides[seat].play.append(" ".join([str(pid), name, *flags]))
        return pid

    def pay(self, seat: int, cost: Cost, x: int, colour: str | None) -> list[int]:
        """Untapped basic lands that pay exactly ``cost`` with ``x``."""
        lands = [self.put(seat, basic_land(c)) for c, n in cost.coloured for _ in range(n)]
        generic = basic_land(colour or "W")
        return lands + [self.put(seat, generic) for _ in range(cost.generic + x)]

    def state(self) -> DuelState:
        parts = [f"3 p{self.active + 1} {self.phase}"]
        for seat, side in enumerate(self.sides):
            parts.append(" | ".join([
                f"p{seat + 1} 20", "lib " + (", ".join(side.library) or "-"),
                "hand " + (", ".join(side.hand) or "-"), "gy -",
                "play " + (", ".join(side.play) or "-")]))
        return parse(" // ".join(parts))


@dataclass(frozen=True)
class Roles:
    """What stands on the table to be aimed at."""

    own: int
    opp: int
    own_artifact: int
    opp_artifact: int
    own_land: int
    opp_land: int
    opp_enchantment: int


def set_table(board: Board, data: CardDef, group: tuple[Effect, ...]) -> Roles:
    """Put the targets on the table, chosen so that ``data``'s ``group`` of effects
    (and its static effects) visibly change them."""
    statics = data.statics
    colour = next((s.colour for s in statics if s.colour
                   and s.applies in {"your creatures", "each creature"}), None)
    lacks = frozenset({k for s in statics for k in s.keywords}
                      | {e.keyword for e in group if e.do == "grant" and e.keyword})
    untaps = any(e.do == "untap" for e in group)
    own_name = body(colour=colour, lacks=lacks)
    own = board.put(ME, own_name, *(["T"] if untaps else []))
    board.put(ME, body(avoid=frozenset({CARDS[own_name].colour or "", colour or ""}),
                       lacks=lacks))  # a bystander: colour filters must leave it alone
    need, keyword, their_colour, avoid = 3, None, None, set()
    for effect in group:
        if not (effect.chooses_target and hostile(effect)) or effect.target not in {
                "creature", "permanent", "attacking creature"}:
            continue
        if effect.do == "recolour":
            avoid.add(effect.colour or "")
        else:
            their_colour = effect.colour or their_colour
        if effect.keyword and effect.do != "grant":
            keyword = effect.keyword
        if effect.do == "damage":
            need = max(need, (X if effect.amount == "X" else int(effect.amount)) + 1)
        if effect.do == "pump":
            need = max(need, 1 - effect.toughness)
    opp = board.put(YOU, body(colour=their_colour, keyword=keyword, avoid=frozenset(avoid),
                              toughness=need))
    own_artifact = board.put(ME, "Sunshard Lantern", "T")
    own_land = board.put(ME, "Mossvale", "T")
    opp_artifact = board.put(YOU, "Brasswing Kestrel")
    opp_land = board.put(YOU, "Mistshore")
    host = board.put(YOU, "Murkfen")
    opp_enchantment = board.put(YOU, "Sunblessed Acre", f"@{host}")
    return Roles(own, opp, own_artifact, opp_artifact, own_land, opp_land, opp_enchantment)


def choose(effect: Effect, roles: Roles) -> str:
    """The target the test picks for a chosen-target effect (not a spell)."""
    kind, enemy = effect.target, hostile(effect)
    if kind == "player":
        return "p2" if enemy else "p1"
    if kind == "any" and effect.do == "damage":
        return "p2"
    if kind in {"any", "creature", "permanent", "attacking creature"}:
        return str(roles.opp if enemy else roles.own)
    if kind == "artifact":
        return str(roles.opp_artifact if enemy else roles.own_artifact)
    if kind == "enchantment":
        return str(roles.opp_enchantment)
    assert kind == "land", kind
    return str(roles.opp_land if enemy else roles.own_land)


def aura_hostile(data: CardDef) -> bool:
    """Whether an aura harms what it enchants (so it goes on the opponent's)."""
    bad = any(s.power < 0 or s.toughness < 0 or any(getattr(s, f) for f in FLAGS)
              for s in data.statics)
    effects = [*data.enters, *data.upkeep, *(e for a in data.abilities for e in a.effects)]
    return bad or any(e.target == "enchanted" and hostile(e) for e in effects)


def aura_target(data: CardDef, roles: Roles) -> int:
    enemy = aura_hostile(data)
    return {"creature": roles.opp if enemy else roles.own,
            "artifact": roles.opp_artifact if enemy else roles.own_artifact,
            "land": roles.opp_land if enemy else roles.own_land,
            "enchantment": roles.opp_enchantment}[data.enchants or ""]


# -- driving the engine ------------------------------------------------------------------
def options(state: DuelState) -> tuple[str, ...]:
    return state.pending()[0].options


def resolve(state: DuelState) -> None:
    """Everyone passes until the stack is empty."""
    for _ in range(50):
        if not state.stack and state.casting is None:
            return
        decision = state.pending()[0]
        assert decision.kind == "priority", f"asked {decision.kind!r} with a stack"
        state.apply(decision.seat, "pass")
    raise AssertionError("the stack never emptied")


def advance_to(state: DuelState, seat: int, phase: str) -> None:
    """Pass (and end main phases) until ``seat``'s ``phase`` has begun."""
    for _ in range(200):
        if state.active == seat and state.phase == phase:
            return
        decision = state.pending()[0]
        choice = decision.forced or {"priority": "pass", "main": "end",
                                     "block": "none"}[decision.kind]
        state.apply(decision.seat, choice)
    raise AssertionError(f"p{seat + 1}'s {phase} never came")


def tapped_lands(state: DuelState, ids: set[int]) -> set[int]:
    return {pid for pid in ids if pid in state.battlefield and state.battlefield[pid].tapped}


def lands_of(state: DuelState, seat: int, *, but: int | None = None) -> set[int]:
    return {p.id for p in state.battlefield.values() if p.controller == seat
            and p.card.type == "land" and p.id != but}


# -- what should happen ---------------------------------------------------------------------
@dataclass(frozen=True)
class Look:
    """A permanent as the rules see it."""

    power: int
    toughness: int
    damage: int
    keywords: frozenset[str]
    tapped: bool
    colour: str | None
    shields: int
    flags: frozenset[str]
    extra_mana: int
    prevent: int = 0
    """Damage still to be prevented this turn."""


def look(state: DuelState, pid: int) -> Look:
    perm, table = state.battlefield[pid], state.table
    return Look(table.power(pid), table.toughness(pid), perm.damage,
                frozenset(table.keywords(pid)), perm.tapped, table.colour(pid), perm.shields,
                frozenset(f for f in FLAGS if table.restricted(pid, f)), table.extra_mana(pid),
                perm.prevent)


def printed(data: CardDef) -> Look:
    """A card as it comes into play, before any effect."""
    return Look(data.power or 0, data.toughness or 0, 0, frozenset(data.keywords), False,
                data.colour, 0, frozenset(), 0)


@dataclass
class Change:
    """What should happen to one permanent."""

    power: int = 0
    toughness: int = 0
    damage: int = 0
    keywords: set[str] = field(default_factory=set)
    tapped: bool | None = None
    colour: str | None = None
    shields: int = 0
    destroy: bool = False
    bounce: bool = False
    sacrificed: bool = False
    flags: set[str] = field(default_factory=set)
    extra_mana: int = 0
    attached: int | None = None


class Want:
    """Everything a card's data says should change, worked out from ``before``."""

    def __init__(self, before: DuelState, data: CardDef, controller: int = ME) -> None:
        self.before, self.data, self.controller = before, data, controller
        self.life: Counter[int] = Counter()
        self.hand: Counter[int] = Counter()
        self.library: Counter[int] = Counter()
        self.pool: Counter[tuple[int, str]] = Counter()
        self.found: list[tuple[int, str]] = []
        self.perms: dict[int, Change] = {}
        self.prevent: dict[str, int] = {}
        self.countered: list[int] = []
        self.new: int | None = None
        """A permanent coming into play now (not in ``before``)."""

    def perm(self, pid: int) -> Change:
        return self.perms.setdefault(pid, Change())

    def base(self, pid: int) -> Look:
        if pid in self.before.battlefield:
            return look(self.before, pid)
        return printed(CARDS[self.before.cards[pid]])

    def controller_of(self, pid: int) -> int:
        perm = self.before.battlefield.get(pid)
        return self.controller if perm is None else perm.controller

    def creatures(self) -> list[int]:
        found = [p.id for p in self.before.battlefield.values() if p.card.is_creature]
        if self.new is not None and CARDS[self.before.cards[self.new]].is_creature:
            found.append(self.new)
        return found

    def seat(self, ref: str) -> int:
        return int(ref[1:]) - 1 if ref.startswith("p") else self.controller_of(int(ref))

    # -- effects --------------------------------------------------------------------
    def effects(self, effects: tuple[Effect, ...], *, source: int | None, target: str | None,
                host: int | None, x: int = 0) -> None:
        for effect in effects:
            refs = self.refs(effect, source, target, host)
            amount = x if effect.amount == "X" else int(effect.amount)
            self.effect(effect, refs, amount)

    def refs(self, effect: Effect, source: int | None, target: str | None,
             host: int | None) -> list[str]:
        kind, me = effect.target, self.controller
        if effect.chooses_target:
            assert target is not None
            return [target]
        if kind in {"none", "you"}:
            return [f"p{me + 1}"]
        if kind in {"opponent", "each opponent"}:
            return [f"p{2 - me}"]
        if kind == "each player":
            return ["p1", "p2"]
        if kind == "self":
            return [str(source)]
        if kind == "enchanted":
            return [str(host)]
        found = []
        for pid in self.creatures():
            mine = self.controller_of(pid) == me
            if (kind == "each other creature" and pid == source) \
                    or (kind == "each opponent creature" and mine) \
                    or (kind == "your creatures" and not mine):
                continue
            base = self.base(pid)
            if effect.colour and effect.do != "recolour" and base.colour != effect.colour:
                continue
            if effect.keyword and effect.do != "grant" and effect.keyword not in base.keywords:
                continue
            found.append(str(pid))
        assert found, f"{self.data.name}: '{effect.text()}' finds nothing in the position"
        return found

    def effect(self, effect: Effect, refs: list[str], amount: int) -> None:
        do = effect.do
        if do == "counter":
            self.countered += [int(r) for r in refs]
            return
        if do in PLAYER_KINDS:
            for seat in dict.fromkeys(self.seat(r) for r in refs):
                self.player_effect(effect, seat, amount)
            return
        assert do in PERMANENT_KINDS, do
        for ref in refs:
            if ref.startswith("p"):
                assert do in {"damage", "prevent"}, (do, ref)
                if do == "damage":
                    self.life[int(ref[1:]) - 1] -= amount
                else:
                    self.prevent[ref] = self.prevent.get(ref, 0) + amount
                continue
            pid = int(ref)
            change = self.perm(pid)
            match do:
                case "damage":
                    if f"protection:{self.data.colour}" not in self.base(pid).keywords:
                        change.damage += amount
                case "destroy":
                    change.destroy = True
                case "pump":
                    change.power += effect.power
                    change.toughness += effect.toughness
                case "tap" | "untap":
                    change.tapped = do == "tap"
                case "grant":
                    change.keywords.add(effect.keyword or "")
                case "prevent":
                    self.prevent[ref] = self.prevent.get(ref, 0) + amount
                case "regenerate":
                    change.shields += 1
                case "bounce":
                    change.bounce = True
                    self.hand[self.before.owners[pid]] += 1
                case "recolour":
                    change.colour = effect.colour

    def player_effect(self, effect: Effect, seat: int, amount: int) -> None:
        match effect.do:
            case "gain life":
                self.life[seat] += amount
            case "lose life":
                self.life[seat] -= amount
            case "draw":
                self.hand[seat] += amount
                self.library[seat] -= amount
            case "discard":
                held = len(self.before.players[seat].hand) + self.hand[seat]
                self.hand[seat] -= min(amount, held)
            case "add mana":
                self.pool[(seat, effect.colour or "")] += amount
            case "search":
                self.found.append((seat, effect.find or ""))
                self.hand[seat] += 1
                self.library[seat] -= 1

    # -- static effects -------------------------------------------------------------
    def statics(self, source: int, host: int | None) -> None:
        for static in self.data.statics:
            hit = self.static_targets(static, source, host)
            assert hit, f"{self.data.name}: '{static.text()}' affects nothing in the position"
            for pid in hit:
                change = self.perm(pid)
                change.power += static.power
                change.toughness += static.toughness
                change.keywords |= set(static.keywords)
                change.flags |= {f for f in FLAGS if getattr(static, f)}
                change.extra_mana += static.extra_mana

    def static_targets(self, static: Static, source: int, host: int | None) -> list[int]:
        if static.applies == "enchanted":
            return [host] if host is not None else []
        if static.applies == "self":
            return [source]
        found = []
        for pid in self.creatures():
            mine = self.controller_of(pid) == self.controller
            if (static.applies == "your creatures" and not mine) \
                    or (static.applies == "each opponent creature" and mine):
                continue
            base = self.base(pid)
            if static.colour and base.colour != static.colour:
                continue
            if static.keyword and static.keyword not in base.keywords:
                continue
            found.append(pid)
        return found

    # -- checking -----------------------------------------------------------------------
    def check(self, after: DuelState, *, same_turn: bool = True) -> None:
        before, name = self.before, self.data.name
        for seat in (ME, YOU):
            was, now, who = before.players[seat], after.players[seat], f"p{seat + 1}"
            assert now.life == was.life + self.life[seat], f"{name}: {who}'s life"
            if who not in self.prevent:
                assert now.prevent == was.prevent, f"{name}: damage to {who} is prevented"
            assert len(now.hand) == len(was.hand) + self.hand[seat], f"{name}: {who}'s hand"
            assert len(now.library) == len(was.library) + self.library[seat], \
                f"{name}: {who}'s library"
            for colour in COLOURS:
                assert now.pool.get(colour, 0) == was.pool.get(colour, 0) + self.pool[
                    (seat, colour)], f"{name}: {who}'s {colour} mana"
        for seat, find in self.found:
            fetched = [c for c in set(after.players[seat].hand) - set(before.players[seat].hand)
                       if c in before.players[seat].library and _is(CARDS[before.cards[c]],
                                                                     find)]
            assert fetched, f"{name}: no {find} card came from the library to the hand"
        for cid in self.countered:
            owner = before.owners[cid]
            assert all(item.id != cid for item in after.stack), f"{name}: not countered"
            assert cid not in after.battlefield and cid in after.players[owner].graveyard, \
                f"{name}: the countered spell is not in its owner's graveyard"
        gone = set()
        for pid, change in self.perms.items():
            if not self.check_perm(after, pid, change, same_turn):
                gone.add(pid)
        for pid, perm in before.battlefield.items():
            if pid in self.perms:
                continue
            if perm.attached in gone:
                assert pid in after.players[perm.owner].graveyard, \
                    f"{name}: {perm.name} should fall off what left play"
                continue
            assert pid in after.battlefield, f"{name}: {perm.name} left play"
            if perm.card.type == "land":
                continue  # tapped to pay
            was, now = look(before, pid), look(after, pid)
            if not same_turn:  # the untap and heal steps came between
                was = replace(was, damage=0, tapped=False, shields=0, prevent=0)
                now = replace(now, damage=0, tapped=False, shields=0, prevent=0)
            assert now == was, f"{name}: {perm.name} changed though the card does not say so"

    def check_perm(self, after: DuelState, pid: int, change: Change, same_turn: bool) -> bool:
        """Check one permanent; whether it is still in play."""
        name, what = self.data.name, self.before.cards[pid]
        owner = self.before.owners[pid]
        base = self.base(pid)
        creature = CARDS[what].is_creature
        toughness = base.toughness + change.toughness
        damage = base.damage + change.damage
        shields = base.shields + change.shields
        if change.bounce:
            assert pid not in after.battlefield and pid in after.players[owner].hand, \
                f"{name}: {what} should be back in its owner's hand"
            return False
        dies = change.sacrificed or (change.destroy and not shields) or (creature and (
            toughness <= 0 or (damage > 0 and damage >= toughness and not shields)))
        if dies:
            assert pid not in after.battlefield and pid in after.players[owner].graveyard, \
                f"{name}: {what} should be in the graveyard"
            return False
        assert pid in after.battlefield, f"{name}: {what} should still be in play"
        now = look(after, pid)
        if creature:
            assert (now.power, now.toughness) == (base.power + change.power, toughness), \
                f"{name}: {what}'s power/toughness"
        if same_turn:
            assert now.damage == damage, f"{name}: damage on {what}"
            assert now.shields == shields, f"{name}: regeneration shields on {what}"
        assert change.keywords | base.keywords <= now.keywords, f"{name}: {what}'s keywords"
        if change.tapped is not None:
            assert now.tapped == change.tapped, f"{name}: {what} tapped?"
        assert now.colour == (change.colour or base.colour), f"{name}: {what}'s colour"
        assert now.flags == base.flags | change.flags, f"{name}: {what}'s restrictions"
        assert now.extra_mana == base.extra_mana + change.extra_mana, f"{name}: {what}'s mana"
        if change.attached is not None:
            assert after.battlefield[pid].attached == change.attached, f"{name}: attached to"
        return True

    def probe_prevention(self, state: DuelState) -> None:
        """A later :data:`PROBE` at each protected thing deals the rest only."""
        for ref, amount in self.prevent.items():
            dealt = max(0, PROBE_DAMAGE - amount)
            if ref.startswith("p"):
                seat = int(ref[1:]) - 1
                life = state.players[seat].life
                act(state, f"cast {PROBE} @{ref}")
                resolve(state)
                assert state.players[seat].life == life - dealt, \
                    f"{self.data.name}: the prevention did not reduce later damage"
                continue
            pid = int(ref)
            damage = state.battlefield[pid].damage
            act(state, f"cast {PROBE} @{ref}")
            resolve(state)
            assert state.battlefield[pid].damage == damage + dealt, \
                f"{self.data.name}: the prevention did not reduce later damage"


def _is(data: CardDef, kind: str) -> bool:
    if kind == "creature":
        return data.is_creature
    if kind == "artifact":
        return data.artifact is not None
    return data.type == kind


def add_probes(board: Board) -> None:
    """A :data:`PROBE` and its land for each of p1's two creatures."""
    for _ in range(2):
        board.put(ME, PROBE_LAND)
        board.sides[ME].hand.append(PROBE)


# -- the checks --------------------------------------------------------------------------------
def check_land(data: CardDef) -> None:
    """Played from the hand, the land pays for a one-mana spell of each of its colours."""
    assert data.produces or data.abilities
    for colour in data.produces:
        probe = creature_costing(colour, 1)
        board = Board()
        board.sides[ME].hand += [data.name, probe]
        state = board.state()
        act(state, f"land {data.name}")
        settle(state)  # the opponent may answer a land played
        (land,) = [p.id for p in state.battlefield.values() if p.name == data.name]
        assert not state.battlefield[land].tapped and state.players[ME].land_played
        assert f"cast {probe}" in options(state), f"{data.name} cannot pay {colour}"
        act(state, f"cast {probe}")
        assert state.battlefield[land].tapped, f"{data.name} was not tapped for {colour}"
        resolve(state)
        assert any(p.name == probe for p in state.battlefield.values())


def check_cast(data: CardDef) -> None:
    """Cast from the hand in a generated position; every effect and static checked."""
    group = (*data.spell, *data.enters)
    counter = any(e.do == "counter" for e in group)
    combat = any(e.target == "attacking creature" for e in group)
    board = Board(active=YOU if counter or combat else ME)
    x = X if data.cost_parts.x else 0
    board.pay(ME, data.cost_parts, x, data.colour)
    roles = set_table(board, data, group)
    prevents = any(e.do == "prevent" for e in group)
    if prevents:
        add_probes(board)
    board.sides[ME].hand.append(data.name)
    chosen = data.target_effect()
    if counter:
        assert chosen is not None
        victim, aim = victim_of(chosen.colour)
        board.sides[YOU].hand.append(victim)
        board.pay(YOU, CARDS[victim].cost_parts, 0, CARDS[victim].colour)
    state = board.state()
    target: str | None = None
    if counter:
        vid = state.in_hand(YOU, victim)
        act(state, f"cast {victim}{aim}")
        settle(state)
        target = str(vid)
    elif combat:
        act(state, f"attack {roles.opp}")
        settle(state)
    host: int | None = None
    if data.enchants is not None:
        host = aura_target(data, roles)
        target = str(host)
    elif chosen is not None and not counter:
        target = choose(chosen, roles)
    cid = state.in_hand(ME, data.name)
    assert cid is not None
    before = state.copy()
    mine = lands_of(state, ME)
    act(state, f"cast {data.name}" + (f" X={x}" if x else "") + (f" @{target}" if target
                                                                  else ""))
    spent = tapped_lands(state, mine) - tapped_lands(before, mine)
    assert len(spent) == data.cost_parts.mana_value + x, \
        f"{data.name}: {len(spent)} lands tapped for {data.cost} with X={x}"
    assert cid not in state.players[ME].hand
    resolve(state)
    want = Want(before, data)
    want.hand[ME] -= 1
    if data.is_permanent:
        want.new = cid
        change = want.perm(cid)
        change.attached = host
        want.statics(cid, host)
    want.effects(group, source=cid if data.is_permanent else None, target=target, host=host,
                 x=x)
    want.check(state)
    if data.is_permanent:
        assert state.battlefield[cid].controller == ME
        if data.is_creature:
            assert state.battlefield[cid].sick
    else:
        assert cid in state.players[ME].graveyard, f"{data.name} is not in the graveyard"
    want.probe_prevention(state)


def check_ability(data: CardDef, index: int) -> None:
    """Used from a copy in play (not summoning sick), paid with exactly its mana."""
    ability = data.abilities[index]
    if ability.mana_only:
        check_mana_ability(data, index, ability)
        return
    group = ability.effects
    combat = any(e.target == "attacking creature" for e in group)
    board = Board(active=YOU if combat else ME)
    board.pay(ME, ability.mana, 0, data.colour)
    roles = set_table(board, data, group)
    host = aura_target(data, roles) if data.enchants else None
    src = board.put(ME, data.name, *([f"@{host}"] if host else []))
    if any(e.do == "prevent" for e in group):
        add_probes(board)
    state = board.state()
    if combat:
        act(state, f"attack {roles.opp}")
        settle(state)
    chosen = next((e for e in group if e.chooses_target), None)
    target = choose(chosen, roles) if chosen is not None else None
    before = state.copy()
    mine = lands_of(state, ME, but=src)
    use = f"use {src}.{index + 1}"
    assert use in options(state), f"{data.name}: '{ability.text()}' cannot be used"
    act(state, use + (f" @{target}" if target else ""))
    spent = tapped_lands(state, mine) - tapped_lands(before, mine)
    assert len(spent) == ability.mana.mana_value, f"{data.name}: lands tapped for {ability.cost}"
    resolve(state)
    want = Want(before, data)
    want.life[ME] -= ability.life
    if ability.sacrifice:
        want.perm(src).sacrificed = True
    elif ability.taps:
        want.perm(src).tapped = True
    want.effects(group, source=src, target=target, host=host)
    want.check(state)
    want.probe_prevention(state)


def check_mana_ability(data: CardDef, index: int, ability: Ability) -> None:
    """A mana ability pays for a spell of its colour (or fills the pool when used)."""
    (colour,) = {e.colour or "" for e in ability.effects}
    amount = sum(int(e.amount) for e in ability.effects)
    probe = creature_costing(colour, amount)
    board = Board()
    board.pay(ME, ability.mana, 0, data.colour)
    src = board.put(ME, data.name)
    board.sides[ME].hand.append(probe)
    state = board.state()
    use = f"use {src}.{index + 1}"
    if use in options(state):
        before = state.copy()
        act(state, use)
        want = Want(before, data)
        want.life[ME] -= ability.life
        want.pool[(ME, colour)] += amount
        want.perm(src).tapped = ability.taps or None
        want.check(state)
        return
    assert f"cast {probe}" in options(state), \
        f"{data.name}: '{ability.text()}' cannot pay for {probe} ({CARDS[probe].cost})"
    act(state, f"cast {probe}")
    assert state.battlefield[src].tapped == ability.taps
    assert state.players[ME].life == 20 - ability.life, f"{data.name}: life paid"
    resolve(state)
    assert any(p.name == probe for p in state.battlefield.values())


def check_upkeep(data: CardDef) -> None:
    """In play from before, its effects happen at the start of p1's next upkeep."""
    board = Board(active=YOU, phase="end")
    roles = set_table(board, data, data.upkeep)
    host = aura_target(data, roles) if data.enchants else None
    src = board.put(ME, data.name, *([f"@{host}"] if host else []))
    state = board.state()
    before = state.copy()
    advance_to(state, ME, "upkeep")
    want = Want(before, data)
    want.effects(data.upkeep, source=src, target=None, host=host)
    want.check(state, same_turn=False)


def check_enhance(data: CardDef) -> None:
    """Each boost paid raises power and toughness by the amounts written."""
    for colour, power, toughness in data.enhance:
        board = Board()
        lands = {board.put(ME, basic_land(colour)) for _ in range(2)}
        src = board.put(ME, data.name)
        state = board.state()
        was = look(state, src)
        for _ in range(2):
            act(state, f"boost {src}.{colour}")
        now = look(state, src)
        assert (now.power, now.toughness) == (was.power + 2 * power,
                                              was.toughness + 2 * toughness)
        assert tapped_lands(state, lands) == lands


def check_no_untap(data: CardDef) -> None:
    """What the aura holds down stays tapped through its controller's untap step."""
    board = Board(phase="end")
    roles = set_table(board, data, ())
    host = aura_target(data, roles)
    seat = board.seat_of[host]
    board.active = 1 - seat
    control = board.put(seat, FILLER, "T")
    board.put(ME, data.name, f"@{host}")
    state = board.state()
    state.battlefield[host].tapped = True
    advance_to(state, seat, "upkeep")
    assert not state.battlefield[control].tapped
    assert state.battlefield[host].tapped, f"{data.name}: the enchanted permanent untapped"


def check_extra_mana(data: CardDef, extra: int) -> None:
    """The enchanted land alone pays for a spell costing its extra mana more."""
    probe = artifact_costing(1 + extra)
    board = Board()
    land = board.put(ME, FILLER)
    board.put(ME, data.name, f"@{land}")
    board.sides[ME].hand.append(probe)
    state = board.state()
    assert f"cast {probe}" in options(state), f"{data.name}: the land makes no extra mana"
    act(state, f"cast {probe}")
    assert state.battlefield[land].tapped
    resolve(state)
    assert any(p.name == probe for p in state.battlefield.values())


# -- the tests ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_card_is_cast_and_does_what_its_text_says(name: str) -> None:
    data = CARDS[name]
    assert data.text() or vanilla(data), f"{name} has no rules text"
    if data.type == "land":
        check_land(data)
    else:
        check_cast(data)


@pytest.mark.parametrize("name", [n for n in NAMES if CARDS[n].abilities])
def test_activated_abilities(name: str) -> None:
    data = CARDS[name]
    for index in range(len(data.abilities)):
        check_ability(data, index)


@pytest.mark.parametrize("name", [n for n in NAMES if CARDS[n].upkeep])
def test_upkeep_effects(name: str) -> None:
    check_upkeep(CARDS[name])


@pytest.mark.parametrize("name", [n for n in NAMES if CARDS[n].enhance])
def test_mana_boosts(name: str) -> None:
    check_enhance(CARDS[name])


@pytest.mark.parametrize("name", [n for n in NAMES if any(
    s.no_untap or s.extra_mana for s in CARDS[n].statics)])
def test_static_effects_at_work(name: str) -> None:
    data = CARDS[name]
    for static in data.statics:
        if static.no_untap:
            check_no_untap(data)
        if static.extra_mana:
            check_extra_mana(data, static.extra_mana)


def test_every_effect_kind_is_checked() -> None:
    assert set(get_args(EffectKind)) == PLAYER_KINDS | PERMANENT_KINDS | {"counter"}


# -- awkward cases, by hand ------------------------------------------------------------------
def test_a_regeneration_shield_saves_from_destruction() -> None:
    board = Board()
    board.pay(ME, Cost.parse("1BBB"), 0, "B")
    own = board.put(ME, "Shieldbearer Phalanx")
    board.sides[ME].hand += ["Deathless Reprieve", "Gravecold Touch"]
    state = board.state()
    act(state, f"cast Deathless Reprieve @{own}")
    resolve(state)
    act(state, f"cast Gravecold Touch @{own}")
    resolve(state)
    perm = state.battlefield[own]
    assert (perm.tapped, perm.shields, perm.damage) == (True, 0, 0)


def test_a_tapped_continuous_artifact_is_switched_off() -> None:
    board = Board()
    own = board.put(ME, "Shieldbearer Phalanx")
    banner = board.put(ME, "Ironthread Banner", "T")
    state = board.state()
    assert state.table.power(own) == 1
    state.battlefield[banner].tapped = False
    assert state.table.power(own) == 2


def test_an_aura_falls_off_a_creature_that_is_bounced() -> None:
    board = Board()
    board.pay(ME, Cost.parse("1U"), 0, "U")
    opp = board.put(YOU, "Shieldbearer Phalanx")
    aura = board.put(YOU, "Borrowed Pinions", f"@{opp}")
    board.sides[ME].hand.append("Fold into Mist")
    state = board.state()
    act(state, f"cast Fold into Mist @{opp}")
    resolve(state)
    assert opp in state.players[YOU].hand
    assert aura in state.players[YOU].graveyard and aura not in state.battlefield


def test_a_spell_whose_target_left_does_nothing() -> None:
    board = Board(active=YOU)
    board.pay(ME, Cost.parse("1U"), 0, "U")
    board.pay(YOU, Cost.parse("R"), 0, "R")
    mine = board.put(ME, "Shieldbearer Phalanx")
    board.sides[YOU].hand.append(PROBE)
    board.sides[ME].hand.append("Fold into Mist")
    state = board.state()
    act(state, f"cast {PROBE} @{mine}")
    act(state, f"cast Fold into Mist @{mine}")
    resolve(state)
    assert mine in state.players[ME].hand
    assert state.players[ME].life == 20 and state.players[YOU].life == 20
