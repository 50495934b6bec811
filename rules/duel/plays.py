"""What a player may play in a window: lands, spells, abilities and boosts,
each only if its timing allows it, its cost can be paid and a legal target
exists; and every legal target of an effect.
"""

from __future__ import annotations

from rules.duel.board import Permanent
from rules.duel.cards import Ability, CardDef, Cost, Effect, card
from rules.duel.core import DuelCore
from rules.duel.mana import Payment, Source, available, pay

MAX_X = 20
"""The largest X offered (a menu of X values stays short)."""


class Plays(DuelCore):
    """The options of a window, as part of :class:`~rules.duel.state.DuelState`."""

    def _plays(self, seat: int) -> list[str]:
        """What ``seat`` may play in the current window: lands, spells, abilities, boosts."""
        # Every option asks whether it can be paid for: the sources are looked up once.
        self._mana_known = (seat, self._sources(seat), self._keep(seat))
        try:
            return self._each_play(seat)
        finally:
            self._mana_known = None

    def _each_play(self, seat: int) -> list[str]:
        window = self.window
        if window is None:
            return []
        player = self.players[seat]
        main = self._main_turn(seat)
        options: list[str] = []
        seen: set[str] = set()
        for cid in player.hand:
            name = self.cards[cid]
            if name in seen:
                continue
            seen.add(name)
            data = card(name)
            if data.type == "land":
                if main and not player.land_played:
                    options.append(f"land {name}")
            elif self._may_cast(seat, data, main) and self._payable(seat, data.cost, 0) \
                    and self._has_target(seat, data, data.target_effect()):
                options.append(f"cast {name}")
        for perm in self.battlefield.values():
            if perm.controller != seat:
                continue
            for index in range(1, len(perm.card.abilities) + 1):
                if self._may_use(seat, perm, index):
                    options.append(f"use {perm.id}.{index}")
            for colour, _, _ in perm.card.enhance:
                if window.kind != "prevent" and self._payable(seat, colour, 0):
                    options.append(f"boost {perm.id}.{colour}")
        return options

    def _may_cast(self, seat: int, data: CardDef, main: bool) -> bool:
        window = self.window
        assert window is not None
        top_interrupt = bool(self.stack) and self.stack[-1].interrupt
        if data.type == "interrupt":
            return True
        if top_interrupt:
            return False
        if window.kind == "prevent":
            return data.type == "instant" and any(
                e.do in {"prevent", "regenerate"} for e in data.spell)
        if data.type == "instant":
            return True
        return main

    def _payable(self, seat: int, cost: str, x: int, *,
                 exclude: int | None = None) -> bool:
        return self._payment(seat, cost, x, exclude=exclude) is not None

    def _payment(self, seat: int, cost: str, x: int, *, exclude: int | None = None,
                 named: tuple[int, ...] | None = None) -> Payment | None:
        known = self._mana_known
        if named is not None:
            sources = [s for s in self._sources(seat, exclude) if s.id in named]
            keep = self._keep(seat)
        elif known is not None and known[0] == seat:
            sources, keep = known[1], known[2]
            if exclude is not None:
                sources = [s for s in sources if s.id != exclude]
        else:
            sources, keep = self._sources(seat, exclude), self._keep(seat)
        return pay(Cost.parse(cost), x, self.players[seat].pool, sources, keep)

    def _keep(self, seat: int) -> tuple[str, ...]:
        """The colours the seat's hand asks for (spent last on generic mana)."""
        return tuple(sorted({c for cid in self.players[seat].hand
                             for c in card(self.cards[cid]).cost_parts.colours}))

    def _sources(self, seat: int, exclude: int | None = None) -> list[Source]:
        """What ``seat`` could tap for mana now (lands, and permanents whose
        ability is only ``Tap: add mana``)."""
        found = []
        table = self.table
        for perm in self.battlefield.values():
            if perm.controller != seat or perm.tapped or perm.id == exclude:
                continue
            data = perm.card
            if data.type == "land" and data.produces:
                found.append(Source(perm.id, data.produces, 1 + table.extra_mana(perm.id)))
                continue
            if data.is_creature and perm.sick:
                continue
            # Every plain "Tap: add mana" ability of one permanent: one source of
            # any of their colours (it taps once).
            plain = [a for a in data.abilities if _plain_mana(a)]
            if plain:
                colours = tuple(dict.fromkeys(e.colour for a in plain for e in a.effects
                                              if e.colour))
                amount = min(sum(int(e.amount) for e in a.effects) for a in plain)
                found.append(Source(perm.id, colours, max(1, amount)))
        return found

    def _max_x(self, seat: int, cost: str, exclude: int | None = None,
               named: tuple[int, ...] | None = None) -> int:
        sources = [s for s in self._sources(seat, exclude) if named is None or s.id in named]
        spare = available(self.players[seat].pool, sources) - Cost.parse(cost).mana_value
        return max(0, min(MAX_X, spare))

    def _may_use(self, seat: int, perm: Permanent, index: int) -> bool:
        ability = perm.card.abilities[index - 1]
        window = self.window
        assert window is not None
        if _plain_mana(ability):
            return False  # a plain mana source: paid with automatically
        if ability.taps and (perm.tapped or (perm.card.is_creature and perm.sick)):
            return False
        if self.stack and self.stack[-1].interrupt and not ability.mana_only:
            return False
        if window.kind == "prevent" and not ability.mana_only and not any(
                e.do in {"prevent", "regenerate"} for e in ability.effects):
            return False
        if ability.life and self.players[seat].life <= ability.life:
            return False
        mana = ability.cost.removeprefix("T")
        exclude = perm.id if ability.taps else None
        if not self._payable(seat, mana, 0, exclude=exclude):
            return False
        target = next((e for e in ability.effects if e.chooses_target), None)
        return self._has_target(seat, perm.card, target, source=perm.id)

    # -- targets ---------------------------------------------------------------------
    def _has_target(self, seat: int, data: CardDef, effect: Effect | None, *,
                    source: int | None = None) -> bool:
        if data.enchants is not None and source is None:
            return bool(self.aura_targets(seat, data))
        return effect is None or bool(self.targets(seat, effect, data.colour, source=source))

    def aura_targets(self, seat: int, data: CardDef) -> list[str]:
        """The permanents the aura ``data`` may enchant (not those with protection from
        its colour), by number."""
        kind = data.enchants
        table = self.table
        found = []
        for perm in self.battlefield.values():
            if not perm.card.is_a(kind or ""):
                continue
            if table.protected_from(perm.id, data.colour):
                continue
            found.append(str(perm.id))
        return found


    def targets(self, seat: int, effect: Effect, colour: str | None, *,
                source: int | None = None, exclude: int | None = None) -> list[str]:
        """Every legal target of ``effect`` for a spell or ability of ``colour``
        controlled by ``seat``, in notation."""
        kind = effect.target
        found: list[str] = []
        if kind in {"any", "player"}:
            found += [self.player_ref(s) for s in range(self.seats) if s not in self.lost]
        if kind == "spell":
            return [str(item.id) for item in self.stack if item.spell and item.id != exclude
                    and (effect.colour is None or item.colour == effect.colour)]
        perm_kind = {"any": "creature", "attacking creature": "creature",
                     "blocking creature": "creature"}.get(kind, kind)
        if perm_kind in {"creature", "artifact", "enchantment", "land", "permanent"}:
            table = self.table
            combat = self.combat
            for perm in self.battlefield.values():
                if not perm.card.is_a(perm_kind):
                    continue
                if kind == "attacking creature" and (combat is None
                                                     or perm.id not in combat.attackers):
                    continue
                if kind == "blocking creature" and (combat is None
                                                    or perm.id not in combat.blocking):
                    continue
                if effect.colour is not None and effect.do not in {"recolour"} \
                        and table.colour(perm.id) != effect.colour:
                    continue
                if effect.keyword is not None and effect.do != "grant" \
                        and not table.has(perm.id, effect.keyword):
                    continue
                if table.protected_from(perm.id, colour):
                    continue
                found.append(str(perm.id))
        return found


def _plain_mana(ability: Ability) -> bool:
    """``Tap: add mana`` and nothing else: the payment taps it by itself."""
    return ability.cost == "T" and ability.mana_only and not ability.life \
        and not ability.sacrifice
