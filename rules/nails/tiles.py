"""Hammer & Nails' tiles and decks, as data.

A tile has a unique number and zones. A zone shows one indicia — a **nail** of
some colour, a **hammer**, or **blank** — and may carry one **mechanic**.
Square tiles have four zones, clockwise from the top-left corner; octagonal
tiles have a centre zone (a cow or blank, never covered) and four peripheral
zones, clockwise from the top.

Decks are written one tile per line::

    17  R:again H _ G          # square: top-left, top-right, bottom-right, bottom-left
    5   cow | R H:remove _ B   # octagon: centre | top, right, bottom, left

``R``, ``G``, ``B``, ``Y`` are red, green, blue and yellow nails (ships in the
Space deck), ``H`` a hammer (the laser), ``_`` blank; ``:name`` adds a mechanic.

>>> deck = parse_deck("demo", "square", "1 R:again H _ G\\n2 _ _ H:null R")
>>> deck.tile(1).zones[0]
Zone(kind='nail', colour='red', mechanic='again')
>>> deck.tile(2).zones[2].mechanic
'null'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from rules.errors import BadOptions, shown
from rules.phrases import Phrase

Kind = Literal["nail", "hammer", "blank"]
Shape = Literal["square", "octagon"]

COLOURS = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}
MECHANICS = {
    "again": "Play Again (optional)",
    "remove": "Remove one top tile from the build stack",
    "search": "Look through the deck, take one tile",
    "draw2": "Draw two (optional)",
    "null": "Ø: can never be covered",
    "cover-green": "Next player must cover a green nail",
    "cover-red": "Next player must cover a red nail",
    "cover-blue": "Next player must cover a blue nail",
    "cover-yellow": "Next player must cover a yellow nail",
    "opp-discard": "One opponent discards one tile at random",
    "discard": "Discard one tile of choice (optional)",
}
"""Every mechanic by its short name, with what it does (for whoever writes a deck: what
players read is in the ``nails`` catalog, :mod:`rules.nails.words`). ``cover-*`` name a
colour."""
NINE = ("again", "remove", "search", "draw2", "null", "cover-green", "cover-red",
        "opp-discard", "discard")
"""The nine mechanics of the seed (the ``cover`` ones in the two-colour decks' colours)."""


@dataclass(frozen=True, slots=True)
class Zone:
    """One zone of a tile."""

    kind: Kind
    colour: str | None = None
    """The nail's colour (``None`` for hammers and blanks)."""
    mechanic: str | None = None

    @property
    def null(self) -> bool:
        """A Ø zone: nothing may ever cover it."""
        return self.mechanic == "null"

    @property
    def code(self) -> str:
        """The zone in deck notation: ``R:again``, ``H``, ``_``."""
        letter = {"hammer": "H", "blank": "_"}.get(self.kind) or next(
            k for k, v in COLOURS.items() if v == self.colour)
        return letter + (f":{self.mechanic}" if self.mechanic else "")


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile: its number, its four zones (clockwise) and, if octagonal, its centre."""

    number: int
    zones: tuple[Zone, Zone, Zone, Zone]
    centre: str | None = None
    """``cow`` or ``blank`` on an octagonal tile; ``None`` on a square one."""

    @property
    def kinds(self) -> str:
        """The kinds of its four zones, unturned, in words.

        >>> Tile(7, tuple(map(parse_zone, "R H _ G".split()))).kinds
        'nail hammer blank nail'
        """
        a, b, c, d = self.zones
        return f"{a.kind} {b.kind} {c.kind} {d.kind}"

    @property
    def blanks(self) -> int:
        """How many of its four zones are blank."""
        return sum(zone.kind == "blank" for zone in self.zones)

    def nails(self, colour: str) -> int:
        """How many of its zones show a nail of ``colour``."""
        return sum(zone.kind == "nail" and zone.colour == colour for zone in self.zones)

    @property
    def mechanics(self) -> tuple[str, ...]:
        """The mechanics on its zones."""
        return tuple(zone.mechanic for zone in self.zones if zone.mechanic)

    @property
    def code(self) -> str:
        """The tile in deck notation."""
        zones = " ".join(zone.code for zone in self.zones)
        return f"{self.number} {self.centre} | {zones}" if self.centre else f"{self.number} {zones}"


@dataclass(frozen=True)
class Deck:
    """A deck of tiles and how its game reads."""

    name: str
    shape: Shape
    tiles: tuple[Tile, ...]
    colours: tuple[str, ...]
    """The nail colours the deck uses (one per player or team)."""
    nail_word: str = "nail"
    hammer_word: str = "hammer"
    most_wins: bool = False
    """The deck's default objective: ``True`` when the most nails win (Space)."""

    @cached_property
    def _by_number(self) -> dict[int, Tile]:
        return {tile.number: tile for tile in self.tiles}

    def tile(self, number: int) -> Tile:
        """The tile with this number."""
        return self._by_number[number]

    def __contains__(self, number: object) -> bool:
        return number in self._by_number

    @property
    def numbers(self) -> tuple[int, ...]:
        """Tile numbers in deck order."""
        return tuple(tile.number for tile in self.tiles)


def parse_zone(word: str) -> Zone:
    """A zone from deck notation (``R:again``, ``H``, ``_``)."""
    letter, colon, mechanic = word.partition(":")
    if colon and mechanic not in MECHANICS:
        raise BadOptions(Phrase("nails.error.deck_mechanic", mechanic=shown(mechanic),
                                zone=shown(word)))
    if letter == "H":
        return Zone("hammer", None, mechanic or None)
    if letter == "_":
        return Zone("blank", None, mechanic or None)
    if letter in COLOURS:
        return Zone("nail", COLOURS[letter], mechanic or None)
    raise BadOptions(Phrase("nails.error.deck_zone", zone=shown(word)))


def parse_deck(name: str, shape: Shape, text: str, **how: object) -> Deck:
    """A deck from text, one tile per line (``#`` starts a comment)."""
    if shape not in ("square", "octagon"):
        raise BadOptions(Phrase("nails.error.deck_shape", shape=shown(shape)))
    tiles = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        number_text, _, rest = line.replace("\t", " ").partition(" ")
        centre = None
        if shape == "octagon":
            centre_text, bar, rest = rest.partition("|")
            centre = centre_text.strip()
            if not bar or centre not in ("cow", "blank"):
                raise BadOptions(Phrase("nails.error.deck_centre", line=shown(line)))
        words = rest.split()
        if len(words) != 4 or not (number_text.isascii() and number_text.isdigit()) \
                or int(number_text) < 1:
            raise BadOptions(Phrase("nails.error.deck_tile", line=shown(line)))
        zones = tuple(parse_zone(word) for word in words)
        tiles.append(Tile(int(number_text), zones, centre))  # type: ignore[arg-type]
    numbers = [tile.number for tile in tiles]
    if len(set(numbers)) != len(numbers):
        raise BadOptions(Phrase("nails.error.deck_numbers", deck=name))
    colours = _colours(tiles)
    return Deck(name, shape, tuple(tiles), colours, **how)  # type: ignore[arg-type]


def _colours(tiles: Iterable[Tile]) -> tuple[str, ...]:
    seen = {zone.colour for tile in tiles for zone in tile.zones if zone.colour}
    return tuple(colour for colour in COLOURS.values() if colour in seen)
