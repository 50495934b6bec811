"""Combat, exactly as the spec's "Combat" and "Combat details" say.

An attack runs: declare attackers (a band may form) → a window → the defender
declares blockers → a window → damage, in a first-strike step and then a
regular step when any creature in combat has first strike → after each damage
step a prevention window (prevention, regeneration and interrupts only) → the
creatures with lethal damage are destroyed unless a regeneration shield saves
them (a regenerated creature taps and leaves combat).

Damage is split by the right player: the attacker's controller splits an
attacker's damage among its blockers (and, with trample, the defending player
once every blocker has lethal damage, protection and prevention ignored); the
defender splits it when a blocker has banding; the controller of an attacking
band splits the damage dealt *to* the band among its members.
"""

from __future__ import annotations

from itertools import combinations

from rules.core import Decision
from rules.duel.attack import Assignment, CombatState
from rules.duel.core import DuelCore
from rules.duel.phrasing import card_named, cards
from rules.errors import IllegalChoice, MalformedChoice
from rules.phrases import Phrase, Seat

MAX_BANDS = 40
"""Most band options offered (attacks rarely have more than a handful)."""


class Combat(DuelCore):
    """The attack, as part of :class:`~rules.duel.state.DuelState`."""

    # -- declaring ----------------------------------------------------------------
    def _begin_attack(self) -> None:
        self.window = None
        opponents = self.others(self.active)
        if len(opponents) == 1:
            self.combat = CombatState(opponents[0])
        else:  # free-for-all: each attack is made on one opponent, chosen first
            self.combat = CombatState(-1, stage="defender")

    def _combat_decision(self) -> Decision | None:
        combat = self.combat
        if combat is None:
            return None
        table = self.table
        match combat.stage:
            case "defender":
                return Decision(self.active, "defender", Phrase("duel.prompt.defender"),
                                tuple(self.player_ref(s) for s in self.others(self.active)))
            case "declare":
                able = tuple(str(p) for p in self.battlefield
                             if table.can_attack(p, self.active))
                return Decision(self.active, "attack", Phrase("duel.prompt.attackers"), able,
                                pick="several", least=1, most=len(able))
            case "band":
                return Decision(self.active, "band", Phrase("duel.prompt.band"),
                                ("none", *self._bands()))
            case "block":
                pairs = self.block_pairs()
                blockers = {p.split(">")[0] for p in pairs}
                return Decision(combat.defender, "block", Phrase("duel.prompt.blockers"), pairs,
                                pick="several", least=0, most=len(blockers))
            case "assign":
                job = combat.assignments[0]
                names = cards([self.cards[s] for s in job.sources])
                prompt = (Phrase("duel.prompt.split_band", cards=names, amount=job.total)
                          if job.to_band else
                          Phrase("duel.prompt.split", cards=names, amount=job.total))
                return Decision(job.seat, "assign", prompt, job.options, pick="split",
                                total=job.total)
        return None

    def _bands(self) -> list[str]:
        combat = self.combat
        assert combat is not None
        table = self.table
        banding = [a for a in combat.attackers if table.has(a, "banding")]
        plain = [a for a in combat.attackers if a not in banding]
        found: list[str] = []
        for size in range(1, len(banding) + 1):
            for group in combinations(banding, size):
                if size >= 2:
                    found.append("+".join(map(str, sorted(group))))
                for other in plain:
                    found.append("+".join(map(str, sorted((*group, other)))))
                if len(found) >= MAX_BANDS:
                    return found[:MAX_BANDS]
        return found

    def block_pairs(self) -> tuple[str, ...]:
        """Every legal block of the attack, ``blocker>attacker`` (blocking any member of
        a band blocks the band)."""
        combat = self.combat
        assert combat is not None
        table = self.table
        pairs = []
        for blocker in self.battlefield.values():
            if blocker.controller != combat.defender:
                continue
            for unit in combat.units():
                # Blocking any member of a band blocks the whole band.
                for member in unit:
                    if table.can_block(blocker.id, member):
                        pairs.append(f"{blocker.id}>{member}")
        return tuple(pairs)

    def _canonical_blocks(self, decision: Decision, choice: str) -> str:
        if choice.strip().casefold() in {"", "none", "no blocks"}:
            return "none"
        canonical = decision.canonical(choice.replace(" ", ""))
        blockers = [part.split(">")[0] for part in Decision.picks(canonical)]
        if len(set(blockers)) != len(blockers):
            raise IllegalChoice(Phrase("duel.error.one_block"))
        return canonical

    def _canonical_band(self, decision: Decision, choice: str) -> str:
        text = choice.strip().casefold()
        if text in {"", "none"}:
            return "none"
        parts = sorted(p.strip() for p in text.split("+"))
        if not all(p.isascii() and p.isdigit() for p in parts):
            raise MalformedChoice(Phrase("duel.error.not_a_band", choice=repr(choice[:40])))
        band = "+".join(sorted(parts, key=int))
        if band not in decision.options:
            raise IllegalChoice(Phrase("duel.error.band_not_allowed", band=band,
                                       bands=", ".join(decision.options)))
        return band

    def _canonical_assignment(self, decision: Decision, choice: str) -> str:
        canonical = decision.canonical(choice.replace(" ", ""))
        combat = self.combat
        assert combat is not None
        job = combat.assignments[0]
        amounts = Decision.amounts(canonical)
        if job.player is not None and amounts.get(job.player, 0):
            short = [ref for ref, need in job.lethal.items() if amounts.get(ref, 0) < need]
            if short:
                raise IllegalChoice(Phrase("duel.error.trample_lethal", short=", ".join(short)))
        return canonical

    def _combat_choice(self, seat: int, kind: str, choice: str) -> None:
        combat = self.combat
        assert combat is not None
        if kind == "defender":
            combat.defender = int(choice[1:]) - 1
            combat.stage = "declare"
        elif kind == "attack":
            combat.attackers = [int(p) for p in Decision.picks(choice)]
            for pid in combat.attackers:
                self.battlefield[pid].tapped = True
            names = [self.cards[p] for p in combat.attackers]
            self._say("attack", Phrase("duel.event.attacks", who=Seat(seat), cards=cards(names)),
                      attackers=", ".join(names))
            combat.stage = "band" if self._bands() else "attack window"
            if combat.stage == "attack window":
                self._attack_declared()
        elif kind == "band":
            if choice != "none":
                combat.band = tuple(int(p) for p in choice.split("+"))
                self._say("band", Phrase("duel.event.band",
                                         cards=cards([self.cards[p] for p in combat.band])))
            combat.stage = "attack window"
            self._attack_declared()
        elif kind == "block":
            for pair in ([] if choice == "none" else Decision.picks(choice)):
                blocker, attacker = (int(p) for p in pair.split(">"))
                unit = combat.key_of(attacker)
                combat.blocks.setdefault(unit, []).append(blocker)
                combat.blocking[blocker] = unit
                combat.blocked.add(unit)
                blocks = card_named(self.cards[blocker])
                if unit != attacker or (combat.band and unit in combat.band):
                    self._say("block", Phrase("duel.event.blocks_band", card=blocks))
                else:
                    self._say("block", Phrase("duel.event.blocks", card=blocks,
                                              attacker=card_named(self.cards[attacker])))
            if choice == "none":
                self._say("block", Phrase("duel.event.no_block", who=Seat(seat)))
            combat.stage = "block window"
            self._open("fast")
        else:  # assign
            job = combat.assignments.pop(0)
            combat.splits.append((job, Decision.amounts(choice)))
            if not combat.assignments:
                self._deal_damage()

    def _attack_declared(self) -> None:
        if self._check_life() and self.combat is not None:  # "at the start of an attack"
            self._open("fast")

    def _combat_window_closed(self) -> None:
        combat = self.combat
        assert combat is not None
        if combat.stage == "attack window":
            combat.stage = "block"
            if not self.block_pairs():
                combat.stage = "block window"
                self._open("fast")
        elif combat.stage == "block window":
            table = self.table
            fighting = [*combat.attackers, *combat.blocking]
            first = any(table.has(p, "first strike") for p in fighting)
            combat.steps = ["first", "regular"] if first else ["regular"]
            combat.stage = "damage"
        elif combat.stage == "prevent window":
            self._after_damage()

    # -- damage ---------------------------------------------------------------------------
    def _combat_step(self) -> None:
        """Work out the next damage step (called when nobody is asked)."""
        combat = self.combat
        assert combat is not None
        if combat.stage != "damage":
            return
        combat.step = combat.steps.pop(0)
        combat.splits = []
        combat.assignments = self._assignments()
        if combat.assignments:
            combat.stage = "assign"
        else:
            self._deal_damage()

    def _deals_now(self, pid: int) -> bool:
        combat = self.combat
        assert combat is not None
        if pid not in self.battlefield:
            return False
        table = self.table
        if table.power(pid) <= 0:
            return False
        if combat.step == "first":
            return table.has(pid, "first strike")
        return pid not in combat.dealt

    def _assignments(self) -> list[Assignment]:
        """Every split of this step, the automatic ones already made."""
        combat = self.combat
        assert combat is not None
        table = self.table
        jobs: list[Assignment] = []
        defender_ref = self.player_ref(combat.defender)
        for unit in combat.units():
            members = list(unit)
            key = combat.unit_key(unit)
            blockers = [b for b in combat.blocks.get(key, ()) if b in self.battlefield
                        and combat.blocking.get(b) == key]
            defender_splits = any(table.has(b, "banding") for b in blockers)
            for attacker in members:
                if not self._deals_now(attacker):
                    continue
                power = table.power(attacker)
                trample = table.has(attacker, "trample")
                if key not in combat.blocked:
                    jobs.append(Assignment(-1, (attacker,), power, (defender_ref,)))
                    continue
                options = tuple(str(b) for b in blockers) + ((defender_ref,) if trample
                                                             else ())
                if not options:
                    continue  # blocked, and its blockers are gone: no damage
                lethal = {str(b): table.lethal(b) for b in blockers} if trample else {}
                seat = combat.defender if defender_splits else self.active
                jobs.append(Assignment(seat, (attacker,), power, options, lethal,
                                       defender_ref if trample else None))
            dealing = [b for b in blockers if self._deals_now(b)]
            if not dealing:
                continue
            for blocker in dealing:  # the band's controller splits each blocker's damage
                jobs.append(Assignment(self.active, (blocker,), table.power(blocker),
                                       tuple(str(m) for m in members),
                                       to_band=len(members) > 1))
        decided: list[Assignment] = []
        for job in jobs:
            if len(job.options) == 1:
                combat.splits.append((job, {job.options[0]: job.total}))
            else:
                decided.append(job)
        return decided

    def _deal_damage(self) -> None:
        """Every split of the step is known: all its damage is dealt at once."""
        combat = self.combat
        assert combat is not None
        table = self.table
        colours: dict[int, str | None] = {}
        for job, amounts in combat.splits:
            for ref, amount in amounts.items():
                if not amount:
                    continue
                self._damage(ref, amount, table.colour(job.sources[0]),
                             card_named(self.cards[job.sources[0]]))
            for source in job.sources:
                colours[source] = table.colour(source)
        if combat.step == "first":
            combat.dealt.update(p for p in colours if table.has(p, "first strike"))
        combat.splits = []
        combat.stage = "prevent window"
        self._open("prevent")

    def _after_damage(self) -> None:
        """The prevention window closed: lethal damage destroys (or regenerates)."""
        combat = self.combat
        assert combat is not None
        for perm in self.battlefield.values():
            perm.damaged_now = 0
        for player in self.players:
            player.damaged_now = 0
        self._destroy_lethal()
        if self.finished:
            return
        if combat.steps:
            combat.stage = "damage"
            return
        self.combat = None
        self.attacked = True
        if self._check_life():  # "at the end of an attack"
            self._open("main")

    def _leave_combat(self, pid: int) -> None:
        combat = self.combat
        if combat is None:
            return
        if pid in combat.attackers:
            combat.attackers.remove(pid)
        combat.blocking.pop(pid, None)
        for blockers in combat.blocks.values():
            if pid in blockers:
                blockers.remove(pid)
