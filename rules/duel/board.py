"""The things on the table of a duel: card instances, permanents, players, the
stack, and what a permanent *is* now once every static effect is counted.

Every card of a duel is an instance with its own number (``id``), so a card is
always in exactly one zone: a library, a hand, a graveyard, removed from the
game, the ante, the battlefield or the stack.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.duel.cards import CardDef, Effect, card


@dataclass(slots=True)
class Permanent:
    """A card in play."""

    id: int
    name: str
    owner: int
    controller: int
    tapped: bool = False
    sick: bool = True
    """Came under its controller's control since their last untap step."""
    damage: int = 0
    attached: int | None = None
    """For an aura: the permanent it enchants."""
    shields: int = 0
    """Regeneration shields, each used once, until end of turn."""
    prevent: int = 0
    """Damage still to be prevented this turn."""
    power_eot: int = 0
    toughness_eot: int = 0
    granted: tuple[str, ...] = ()
    """Keywords gained until end of turn."""
    colour_eot: str | None = None
    damaged_now: int = 0
    """Damage taken in the current combat damage step (the prevention window
    may take it back)."""
    card: CardDef = field(init=False, repr=False, compare=False)
    """The card's data (looked up once: it is asked all the time)."""

    def __post_init__(self) -> None:
        self.card = card(self.name)

    def heal(self) -> None:
        """The heal step: damage gone, until-end-of-turn effects over."""
        self.damage = self.shields = self.prevent = 0
        self.power_eot = self.toughness_eot = 0
        self.granted = ()
        self.colour_eot = None
        self.damaged_now = 0


@dataclass(slots=True)
class Player:
    """One seat's zones and counters."""

    life: int = 20
    library: list[int] = field(default_factory=list)
    """Top card first."""
    hand: list[int] = field(default_factory=list)
    graveyard: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    pool: dict[str, int] = field(default_factory=dict)
    land_played: bool = False
    prevent: int = 0
    damaged_now: int = 0
    drew_from_empty: bool = False
    auto_pass: bool = True
    """Pass a priority window at once when nothing can be played in it."""
    ante: int | None = None
    """The card set aside for ante before the opening hand (out of the game for
    the whole duel; the winner keeps it), ``None`` in a duel without ante."""

    def copy(self) -> Player:
        """An independent copy."""
        return Player(self.life, list(self.library), list(self.hand), list(self.graveyard),
                      list(self.removed), dict(self.pool), self.land_played, self.prevent,
                      self.damaged_now, self.drew_from_empty, self.auto_pass, self.ante)


@dataclass(frozen=True, slots=True)
class StackItem:
    """A spell or an ability waiting to resolve.

    ``id`` is the spell's card instance, or a fresh number for an ability
    (``source`` is then the permanent it came from).
    """

    id: int
    controller: int
    name: str
    effects: tuple[Effect, ...]
    target: str | None = None
    x: int = 0
    colour: str | None = None
    interrupt: bool = False
    source: int | None = None
    spell: bool = True
    enchanted: int | None = None
    """For an aura's ability: the permanent it enchanted when activated."""

    @property
    def card(self) -> CardDef:
        """The card this spell is, or the card whose ability this is."""
        return card(self.name)
