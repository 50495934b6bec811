"""What the gallery knows of a card: what its entry and page show, and its picture.
Cards are found by their id in addresses (:mod:`rules.duel.card_ids`)."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass

from bot.duel import card_words
from bot.duel.collections import CardSupply
from bot.games.duel.card import CARD_H, CARD_W, render_card
from bot.i18n import current, tr
from rules.duel.card_ids import card_id
from rules.duel.cards import CardDef

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


def colour_word(colour: str) -> str:
    """A card's colour (``R``) named in the locale spoken (``red``, ``vermelho``)."""
    words = {"W": tr("web.cards.colour.white"), "U": tr("web.cards.colour.blue"),
             "B": tr("web.cards.colour.black"), "R": tr("web.cards.colour.red"),
             "G": tr("web.cards.colour.green")}
    return words.get(colour, colour)


def entry(data: CardDef, supply: CardSupply | None = None) -> Entry:
    """Card ``data`` as the page shows it, with the server's ``supply`` of it, in the
    locale spoken."""
    return Entry(
        id=card_id(data.name), name=card_words.name(data), cost=data.cost,
        mana_value=data.cost_parts.mana_value,
        colour=colour_word(data.colour) if data.colour else None,
        type_line=card_words.type_line(data), rarity=card_words.rarity_words(data.rarity),
        power=data.power, toughness=data.toughness,
        rules=tuple(line for line in card_words.rules_lines(data) if line),
        flavour=card_words.flavour(data), supply=supply)


@dataclass(frozen=True)
class Picture:
    """A card's PNG and the tag a browser revalidates it with."""

    png: bytes
    etag: str


_PICTURES: dict[tuple[str, str], Picture] = {}
"""Every card's picture once drawn, by card and locale (its words are the locale's): the
whole set is about 3.5 MB a language, and a gallery page asks for dozens at a time (the
card module's own cache holds far fewer)."""


def _draw(name: str) -> Picture:
    data = render_card(name)
    return Picture(data, '"' + hashlib.sha256(data).hexdigest()[:32] + '"')


async def picture(data: CardDef) -> Picture:
    """Card ``data``'s picture (unlimited edition) in the locale spoken, drawn off the
    event loop the first time and kept."""
    key = (data.name, current())
    found = _PICTURES.get(key)
    if found is None:
        found = _PICTURES[key] = await asyncio.to_thread(_draw, data.name)
    return found
