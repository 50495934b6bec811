"""What the gallery knows of a card: what its entry and page show, and its picture.
Cards are found by their id in addresses (:mod:`rules.duel.card_ids`)."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass

from bot.duel.collections import CardSupply
from bot.games.duel.card import CARD_H, CARD_W, render_card
from rules.duel.card_ids import card_id
from rules.duel.cards import COLOUR_NAMES, CardDef

PICTURE_W, PICTURE_H = CARD_W, CARD_H
"""A card picture's size, for the page to reserve its room before it loads."""


@dataclass(frozen=True)
class Entry:
    """One card as the gallery and its page show it."""

    id: str
    name: str
    cost: str
    mana_value: int
    colour: str | None
    """The colour's name (``None``: colourless)."""
    type_line: str
    rarity: str
    power: int | None
    toughness: int | None
    rules: tuple[str, ...]
    """The rules text, a line each."""
    flavour: str
    supply: CardSupply | None
    """The server's supply of it (``None`` where it was not asked for)."""

    @property
    def alt(self) -> str:
        """The picture's alternative text: the name, the type line (with power and
        toughness) and the rules text, as the picture shows them."""
        stats = f" {self.power}/{self.toughness}" if self.power is not None else ""
        return " ".join([f"{self.name}.", f"{self.type_line}{stats}.", *self.rules]).strip()


def entry(data: CardDef, supply: CardSupply | None = None) -> Entry:
    """Card ``data`` as the page shows it, with the server's ``supply`` of it."""
    return Entry(
        id=card_id(data.name), name=data.name, cost=data.cost,
        mana_value=data.cost_parts.mana_value,
        colour=COLOUR_NAMES[data.colour] if data.colour else None,
        type_line=data.type_line(), rarity=data.rarity, power=data.power,
        toughness=data.toughness, rules=tuple(line for line in data.text().split("\n") if line),
        flavour=data.flavor, supply=supply)


@dataclass(frozen=True)
class Picture:
    """A card's PNG and the tag a browser revalidates it with."""

    png: bytes
    etag: str


_PICTURES: dict[str, Picture] = {}
"""Every card's picture once drawn: the whole set is about 3.5 MB, and a gallery page asks
for dozens at a time (the card module's own cache holds far fewer)."""


def _draw(name: str) -> Picture:
    data = render_card(name)
    return Picture(data, '"' + hashlib.sha256(data).hexdigest()[:32] + '"')


async def picture(data: CardDef) -> Picture:
    """Card ``data``'s picture (unlimited edition), drawn off the event loop the first
    time and kept."""
    found = _PICTURES.get(data.name)
    if found is None:
        found = _PICTURES[data.name] = await asyncio.to_thread(_draw, data.name)
    return found
