"""One attack in progress, as data: who attacks (and in which band), who blocks
what, and the damage splits still to be chosen. How an attack runs is
:mod:`rules.duel.combat`'s."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Assignment:
    """A split of damage somebody must choose.

    ``sources`` deal ``total`` between ``options``; ``lethal`` (trample) is the
    damage each blocker must get before the player may get any."""

    seat: int
    sources: tuple[int, ...]
    total: int
    options: tuple[str, ...]
    lethal: dict[str, int] = field(default_factory=dict)
    player: str | None = None
    to_band: bool = False


@dataclass(slots=True)
class CombatState:
    """One attack in progress."""

    defender: int
    stage: str = "declare"
    """declare → band → attack window → block → block window → damage →
    assign → prevent window → (damage again) → over."""
    attackers: list[int] = field(default_factory=list)
    band: tuple[int, ...] = ()
    blocks: dict[int, list[int]] = field(default_factory=dict)
    """Each attacking unit (an attacker, or a band's first member) → its blockers."""
    blocking: dict[int, int] = field(default_factory=dict)
    """Each blocker → the unit it blocks."""
    blocked: set[int] = field(default_factory=set)
    steps: list[str] = field(default_factory=list)
    step: str = ""
    dealt: set[int] = field(default_factory=set)
    """Creatures that dealt damage in the first-strike step."""
    assignments: list[Assignment] = field(default_factory=list)
    splits: list[tuple[Assignment, dict[str, int]]] = field(default_factory=list)

    def units(self) -> list[tuple[int, ...]]:
        """The attacking units still in combat: the band (its members still
        attacking; it keeps its first member's number as its name), then each
        attacker not in it."""
        band = tuple(m for m in self.band if m in self.attackers)
        units: list[tuple[int, ...]] = [band] if band else []
        return units + [(a,) for a in self.attackers if a not in self.band]

    def unit_key(self, unit: tuple[int, ...]) -> int:
        """The number blocks of ``unit`` are kept under."""
        return self.key_of(unit[0])

    def key_of(self, attacker: int) -> int:
        """The unit an attacker belongs to, by its number (a band: its first member)."""
        return self.band[0] if self.band and attacker in self.band else attacker

    def view(self) -> dict[str, Any]:
        """What everyone sees of the attack."""
        return {"attackers": tuple(self.attackers), "band": self.band,
                "blocks": {a: tuple(b) for a, b in self.blocks.items()},
                "stage": self.stage, "step": self.step}

    def copy(self) -> CombatState:
        """An independent copy."""
        return CombatState(self.defender, self.stage, list(self.attackers), self.band,
                           {a: list(b) for a, b in self.blocks.items()}, dict(self.blocking),
                           set(self.blocked), list(self.steps), self.step, set(self.dealt),
                           list(self.assignments), list(self.splits))
