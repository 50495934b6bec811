"""Eclipse's game options: the deck, the counterattack number and the hand cap."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from rules.eclipse.cards import DECKS, Deck
from rules.options import GameOptions

DeckName = Literal.__getitem__(tuple(DECKS))  # type: ignore[attr-defined]  # decks are data


class EclipseOptions(GameOptions):
    """The options of one game of Eclipse.

    >>> EclipseOptions.parse({"counterattack": "4"}).counterattack
    4
    >>> EclipseOptions.parse({"hand-cap": "50"}).hand_cap
    50
    >>> EclipseOptions.parse({"deck": "tarot"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rules.errors.BadOptions: options.error.one_of(name='deck', ..., given="'tarot'")
    """

    title: ClassVar[str] = "Eclipse"

    deck: DeckName = Field(  # type: ignore[valid-type]
        "standard", description="which deck (standard: 60 symbol cards and 12 followers)")
    counterattack: int = Field(
        3, ge=0, le=12, description="cards a counterattack moves (0 = no counterattacks)")
    hand_cap: int = Field(400, ge=10, le=10_000, description="the game ends after this many hands")

    @property
    def cards(self) -> Deck:
        """The deck itself."""
        return DECKS[self.deck]
