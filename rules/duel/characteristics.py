"""What a permanent is now: its power, toughness, keywords and colour once the
static effects in play, the until-end-of-turn effects and the mana-enhanced
boosts are counted, and what it may block, be targeted by or be dealt.

Each question is asked of a battlefield (:class:`Table`) so that the engine,
the computer player and the views share one answer.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from rules.duel.board import Permanent
from rules.duel.cards import Static


class Table:
    """The battlefield's permanents by id, with the questions the rules ask of them."""

    def __init__(self, permanents: Mapping[int, Permanent]) -> None:
        self.permanents = permanents
        self._sources = [p for p in permanents.values() if p.card.statics and not (
            p.tapped and p.card.artifact == "continuous")]
        """The permanents with static effects on (a tapped continuous artifact
        is switched off)."""

    def statics_on(self, pid: int) -> Iterator[Static]:
        """Every static effect in play that applies to permanent ``pid``."""
        if not self._sources:
            return
        target = self.permanents[pid]
        is_creature = target.card.is_creature
        for source in self._sources:
            for static in source.card.statics:
                if self._applies(static, source, target, is_creature):
                    yield static

    def _applies(self, static: Static, source: Permanent, target: Permanent,
                 is_creature: bool) -> bool:
        match static.applies:
            case "enchanted":
                return source.attached == target.id
            case "self":
                return source.id == target.id
            case "each creature":
                hit = is_creature
            case "your creatures":
                hit = is_creature and target.controller == source.controller
            case _:  # each opponent creature
                hit = is_creature and target.controller != source.controller
        if not hit:
            return False
        if static.colour is not None and self.colour(target.id) != static.colour:
            return False
        return static.keyword is None or static.keyword in target.card.keywords

    def power(self, pid: int) -> int:
        """Power now."""
        perm = self.permanents[pid]
        base = perm.card.power or 0
        return base + perm.power_eot + sum(s.power for s in self.statics_on(pid))

    def toughness(self, pid: int) -> int:
        """Toughness now."""
        perm = self.permanents[pid]
        base = perm.card.toughness or 0
        return base + perm.toughness_eot + sum(s.toughness for s in self.statics_on(pid))

    def keywords(self, pid: int) -> tuple[str, ...]:
        """Keywords now: printed, granted until end of turn, and from static effects."""
        perm = self.permanents[pid]
        found = list(perm.card.keywords)
        for word in (*perm.granted, *(k for s in self.statics_on(pid) for k in s.keywords)):
            if word not in found:
                found.append(word)
        return tuple(found)

    def has(self, pid: int, keyword: str) -> bool:
        """Whether the permanent has ``keyword`` now."""
        return keyword in self.keywords(pid)

    def colour(self, pid: int) -> str | None:
        """Its one colour now (``None``: colourless)."""
        perm = self.permanents[pid]
        return perm.colour_eot or perm.card.colour

    def protected_from(self, pid: int, colour: str | None) -> bool:
        """Whether the permanent has protection from ``colour``."""
        return colour is not None and self.has(pid, f"protection:{colour}")

    def restricted(self, pid: int, flag: str) -> bool:
        """Whether a static effect says ``no_untap``, ``cant_attack`` or ``cant_block``."""
        return any(getattr(s, flag) for s in self.statics_on(pid))

    def extra_mana(self, pid: int) -> int:
        """Extra mana an enchanted land makes when tapped for mana."""
        return sum(s.extra_mana for s in self.statics_on(pid))

    def lethal(self, pid: int) -> int:
        """Damage still needed to destroy the creature (trample's lethal
        assignment: protection and prevention are ignored)."""
        return max(0, self.toughness(pid) - self.permanents[pid].damage)

    def controls_basic(self, seat: int, basic: str) -> bool:
        """Whether ``seat`` controls a land of that basic type (landwalk)."""
        return any(p.controller == seat and p.card.basic == basic
                   for p in self.permanents.values())

    def can_block(self, blocker: int, attacker: int) -> bool:
        """Whether ``blocker`` may block ``attacker`` (flying, landwalk, protection)."""
        perm = self.permanents[blocker]
        if not perm.card.is_creature or perm.tapped or self.restricted(blocker, "cant_block"):
            return False
        words = self.keywords(attacker)
        if "flying" in words and "flying" not in self.keywords(blocker):
            return False
        for word in words:
            if word.startswith("landwalk:") and self.controls_basic(
                    perm.controller, word.split(":", 1)[1]):
                return False
        return not self.protected_from(attacker, self.colour(blocker))

    def can_attack(self, pid: int, seat: int) -> bool:
        """Whether the permanent may be declared as an attacker by ``seat``."""
        perm = self.permanents[pid]
        return (perm.card.is_creature and perm.controller == seat and not perm.tapped
                and not perm.sick and not self.restricted(pid, "cant_attack"))
