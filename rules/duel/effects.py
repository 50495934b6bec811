"""What each word of the effect vocabulary does when a spell, an ability, a
trigger or a permanent's arrival resolves.

A spell whose chosen target is gone (or no longer legal) does nothing at all;
its mana stays spent. Damage from a source of a colour is prevented on a
permanent with protection from that colour; prevention shields take damage
first. In the combat prevention window, a prevention effect also gives back
damage its target was dealt in that damage step.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.duel import phrasing
from rules.duel.board import StackItem
from rules.duel.cards import Effect, card
from rules.duel.core import DuelCore
from rules.duel.phrasing import card_named, found, keyword, mana
from rules.phrases import Phrase, Seat, Words

PLAYER_EFFECTS = frozenset({"gain life", "lose life", "draw", "discard", "add mana", "search"})


class Effects(DuelCore):
    """Resolving effects, as part of :class:`~rules.duel.state.DuelState`."""

    def _run_effects(self, effects: Sequence[Effect], controller: int,
                     source: int | None, target: str | None, x: int, colour: str | None,
                     *, spell: StackItem | None = None, name: str | None = None,
                     enchanted: int | None = None) -> None:
        """Run ``effects`` of a spell, ability or trigger called ``name``."""
        name = name or (spell.name if spell else self.cards.get(source or 0))
        said: Words = card_named(name) if name else Phrase("duel.event.the_effect")
        chosen = next((e for e in effects if e.chooses_target), None)
        if chosen is not None and target is not None:
            legal = self.targets(controller, chosen, colour, source=source,
                                 exclude=spell.id if spell else None)
            if target not in legal:
                self._say("fizzle", Phrase("duel.event.target_gone", card=said))
                return
        for effect in effects:
            refs = self._affected(effect, controller, source, target, enchanted)
            amount = x if effect.amount == "X" else int(effect.amount)
            self._effect(effect, refs, amount, controller, colour, said)
        self._decide_outcome()  # a draw from an empty library, after every player drew

    def _affected(self, effect: Effect, controller: int, source: int | None,
                  target: str | None, enchanted: int | None = None) -> list[str]:
        kind = effect.target
        alive = [s for s in range(self.seats) if s not in self.lost]
        if effect.chooses_target:
            return [target] if target is not None else []
        if kind == "none" or kind == "you":
            return [self.player_ref(controller)]
        if kind in {"opponent", "each opponent"}:
            return [self.player_ref(s) for s in self.others(controller)]
        if kind == "each player":
            return [self.player_ref(s) for s in alive]
        if kind == "self":
            return [str(source)] if source in self.battlefield else []
        if kind == "enchanted":
            perm = self.battlefield.get(source or 0)
            attached = perm.attached if perm is not None else enchanted
            return [str(attached)] if attached in self.battlefield else []
        table = self.table
        found = []
        for perm in self.battlefield.values():
            if not perm.card.is_creature:
                continue
            if kind == "each other creature" and perm.id == source:
                continue
            if kind == "each opponent creature" and perm.controller == controller:
                continue
            if kind == "your creatures" and perm.controller != controller:
                continue
            if effect.colour is not None and effect.do != "recolour" \
                    and table.colour(perm.id) != effect.colour:
                continue
            if effect.keyword is not None and effect.do != "grant" \
                    and not table.has(perm.id, effect.keyword):
                continue
            found.append(str(perm.id))
        return found

    def _seat_of(self, ref: str) -> int | None:
        """The player a reference names, or the controller of the permanent."""
        if ref.startswith("p"):
            return int(ref[1:]) - 1
        perm = self.battlefield.get(int(ref))
        return None if perm is None else perm.controller

    def _effect(self, effect: Effect, refs: list[str], amount: int,
                controller: int, colour: str | None, source_name: Words) -> None:
        do = effect.do
        if do in PLAYER_EFFECTS:
            seats = [s for s in (self._seat_of(r) for r in refs) if s is not None]
            if do == "add mana" or do == "search":
                seats = seats or [controller]
            for seat in dict.fromkeys(seats):
                self._player_effect(effect, seat, amount)
            return
        if do == "counter":
            for ref in refs:
                self._counter(int(ref))
            return
        for ref in refs:
            if ref.startswith("p"):
                seat = int(ref[1:]) - 1
                if do == "damage":
                    self._damage(ref, amount, colour, source_name)
                elif do == "prevent":
                    self._prevent_player(seat, amount)
                continue
            pid = int(ref)
            perm = self.battlefield.get(pid)
            if perm is None:
                continue
            name = perm.name
            match do:
                case "damage":
                    self._damage(ref, amount, colour, source_name)
                case "destroy":
                    self._say("destroy", Phrase("duel.event.destroyed", card=card_named(name)))
                    self._destroy(pid)
                case "pump":
                    perm.power_eot += effect.power
                    perm.toughness_eot += effect.toughness
                    self._say("pump", Phrase("duel.event.pump", card=card_named(name),
                                             boost=f"{effect.power:+d}/{effect.toughness:+d}"))
                case "tap":
                    perm.tapped = True
                    self._say("tap", Phrase("duel.event.tapped", card=card_named(name)))
                case "untap":
                    perm.tapped = False
                    self._say("untap", Phrase("duel.event.untapped", card=card_named(name)))
                case "grant":
                    if effect.keyword and effect.keyword not in perm.granted:
                        perm.granted = (*perm.granted, effect.keyword)
                    self._say("grant", Phrase("duel.event.grant", card=card_named(name),
                                             keyword=keyword(effect.keyword)))
                case "prevent":
                    back = min(amount, perm.damaged_now) if self._in_prevention_window() else 0
                    perm.damage -= back
                    perm.damaged_now -= back
                    perm.prevent += amount - back
                    self._say("prevent", Phrase("duel.event.prevent", count=amount,
                                                target=card_named(name)))
                case "regenerate":
                    perm.shields += 1
                    self._say("regenerate", Phrase("duel.event.will_regenerate",
                                                   card=card_named(name)))
                case "bounce":
                    self._say("bounce", Phrase("duel.event.bounce", card=card_named(name)))
                    self._leave(pid, "hand")
                case "recolour":
                    perm.colour_eot = effect.colour
                    self._say("recolour", Phrase("duel.event.recolour", card=card_named(name),
                                                 colour=phrasing.colour(effect.colour)))

    def _player_effect(self, effect: Effect, seat: int, amount: int) -> None:
        player = self.players[seat]
        match effect.do:
            case "gain life":
                player.life += amount
                self._say("life", Phrase("duel.event.gains_life", count=amount, who=Seat(seat),
                                         life=player.life))
            case "lose life":
                player.life -= amount
                self._say("life", Phrase("duel.event.loses_life", count=amount, who=Seat(seat),
                                         life=player.life))
            case "draw":
                for _ in range(amount):
                    if seat in self.lost:
                        return
                    self._draw(seat)
            case "discard":
                for _ in range(min(amount, len(player.hand))):
                    cid = player.hand.pop(self.rng.randrange(len(player.hand)))
                    player.graveyard.append(cid)
                    self._say("discard", Phrase("duel.event.discards_random", who=Seat(seat),
                                                card=card_named(self.cards[cid])))
            case "add mana":
                colour = effect.colour or "W"
                player.pool[colour] = player.pool.get(colour, 0) + amount
                self._say("mana", Phrase("duel.event.adds_mana", count=amount, who=Seat(seat),
                                         mana=mana(colour)))
            case "search":
                for index, cid in enumerate(player.library):
                    if card(self.cards[cid]).is_a(effect.find or ""):
                        player.library.pop(index)
                        player.hand.append(cid)
                        self._say("search", Phrase("duel.event.search", who=Seat(seat),
                                                   find=found(effect.find, article=True)))
                        break
                else:
                    self._say("search", Phrase("duel.event.search_none", who=Seat(seat),
                                           find=found(effect.find)))
                self.rng.shuffle(player.library)

    def _damage(self, ref: str, amount: int, colour: str | None,
                source_name: Words) -> None:
        if ref.startswith("p"):
            seat = int(ref[1:]) - 1
            player = self.players[seat]
            stopped = min(player.prevent, amount)
            player.prevent -= stopped
            dealt = amount - stopped
            player.life -= dealt
            player.damaged_now += dealt
            self._say("damage", Phrase("duel.event.damage_player", source=source_name,
                                       amount=dealt, who=Seat(seat), life=player.life))
            return
        pid = int(ref)
        perm = self.battlefield.get(pid)
        if perm is None:
            return
        if self.table.protected_from(pid, colour):
            self._say("damage", Phrase("duel.event.protected", card=card_named(perm.name),
                                       source=source_name))
            return
        stopped = min(perm.prevent, amount)
        perm.prevent -= stopped
        dealt = amount - stopped
        perm.damage += dealt
        perm.damaged_now += dealt
        self._say("damage", Phrase("duel.event.damage_card", source=source_name, amount=dealt,
                                   card=card_named(perm.name)))

    def _prevent_player(self, seat: int, amount: int) -> None:
        player = self.players[seat]
        back = min(amount, player.damaged_now) if self._in_prevention_window() else 0
        player.life += back
        player.damaged_now -= back
        player.prevent += amount - back
        self._say("prevent", Phrase("duel.event.prevent", count=amount, target=Seat(seat)))

    def _in_prevention_window(self) -> bool:
        """The combat prevention window, where prevention also gives back damage
        dealt in that damage step."""
        return self.window is not None and self.window.kind == "prevent"

    def _counter(self, item_id: int) -> None:
        for index, item in enumerate(self.stack):
            if item.id == item_id:
                del self.stack[index]
                if item.spell:
                    self._to_graveyard(item.id)
                self._say("counter", Phrase("duel.event.countered", card=card_named(item.name)))
                return

    # -- leaving play -----------------------------------------------------------------
    def _destroy(self, pid: int, *, regenerate: bool = True) -> None:
        perm = self.battlefield.get(pid)
        if perm is None:
            return
        if regenerate and perm.shields:
            perm.shields -= 1
            perm.tapped = True
            perm.damage = 0
            perm.damaged_now = 0
            self._leave_combat(pid)
            self._say("regenerated", Phrase("duel.event.regenerates",
                                               card=card_named(perm.name)))
            return
        self._leave(pid, "graveyard")

    def _leave(self, pid: int, to: str) -> None:
        perm = self.battlefield.pop(pid, None)
        if perm is None:
            return
        self._leave_combat(pid)
        owner = self.players[perm.owner]
        if to == "hand":
            owner.hand.append(pid)
            self.seen_in_hand.add(pid)  # everyone saw it go back: no longer a secret
        else:
            owner.graveyard.append(pid)
        if to == "graveyard":
            self._say("dies", Phrase("duel.event.dies", card=card_named(perm.name)), card=perm.name)
        for aura in [p for p in self.battlefield.values() if p.attached == pid]:
            self._say("dies", Phrase("duel.event.falls_off", card=card_named(aura.name)))
            self._leave(aura.id, "graveyard")

    def _state_checks(self) -> None:
        """After a resolution: creatures with no toughness die; lethal damage
        destroys, except in the combat prevention window (then it waits for the
        window to close)."""
        table = self.table
        for perm in list(self.battlefield.values()):
            if perm.id in self.battlefield and perm.card.is_creature \
                    and table.toughness(perm.id) <= 0:
                self._say("dies", Phrase("duel.event.no_toughness", card=card_named(perm.name)))
                self._destroy(perm.id, regenerate=False)
        table = self.table  # what died above no longer lends its static effects
        for aura in list(self.battlefield.values()):
            if aura.id in self.battlefield and aura.attached is not None \
                    and table.protected_from(aura.attached, table.colour(aura.id)):
                self._say("dies", Phrase("duel.event.aura_protected",
                                         card=card_named(aura.name)))
                self._leave(aura.id, "graveyard")
        if not self._in_prevention_window():
            self._destroy_lethal()

    def _destroy_lethal(self) -> None:
        table = self.table
        for perm in list(self.battlefield.values()):
            if perm.id not in self.battlefield or not perm.card.is_creature:
                continue
            if perm.damage >= table.toughness(perm.id) and perm.damage > 0:
                self._say("lethal", Phrase("duel.event.lethal", card=card_named(perm.name)))
                self._destroy(perm.id)
