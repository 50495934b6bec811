"""The five starter decks, one per colour pair, built from the card set.

Each is 40 cards: 17 lands (the pair's basic lands, eight and eight, and a
special land that makes either colour when the set has one) and 23 spells of
its two colours, chosen by a fixed recipe so that every deck has a curve of
creatures, some removal or tricks, and an artifact or two. The recipe reads
the set, so a deck stays legal as cards are added.

>>> sorted(STARTERS)
['dawn-and-tide', 'ember-and-grove', 'grove-and-dawn', 'night-and-ember', 'tide-and-night']
>>> deck = starter("ember-and-grove")
>>> len(deck), deck.count("Ashpeak") >= 8
(40, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from rules.duel.cards import BASIC_OF, CardDef, card_set

DECK_SIZE = 40
LANDS = 17
STARTERS: Mapping[str, tuple[str, str]] = {
    "dawn-and-tide": ("W", "U"),
    "tide-and-night": ("U", "B"),
    "night-and-ember": ("B", "R"),
    "ember-and-grove": ("R", "G"),
    "grove-and-dawn": ("G", "W"),
}
"""Each starter deck's name and its two colours."""
CREATURES_PER_COLOUR = 7
SPELLS_PER_COLOUR = 4
ARTIFACTS = 2
RARITY_ORDER = {"common": 0, "uncommon": 1, "rare": 2}


def basic_land(colour: str) -> str:
    """The basic land that makes ``colour``'s mana.

    >>> basic_land("G")
    'Mossvale'
    """
    for data in card_set().values():
        if data.basic == BASIC_OF[colour]:
            return data.name
    raise KeyError(colour)


@cache
def starter(name: str) -> tuple[str, ...]:
    """The card names of starter deck ``name`` (:data:`STARTERS`); KeyError otherwise."""
    first, second = STARTERS[name]
    cards = list(card_set().values())
    spells: list[str] = []
    for colour in (first, second):
        own = [c for c in cards if c.colour == colour]
        creatures = sorted((c for c in own if c.is_creature), key=_curve)
        spells += _spread(creatures, CREATURES_PER_COLOUR)
        others = sorted((c for c in own if not c.is_creature and c.type != "interrupt"
                         and c.enchants is None), key=_curve)
        spells += _spread(others, SPELLS_PER_COLOUR)
    artifacts = sorted((c for c in cards if c.artifact is not None), key=_curve)
    spells += _spread(artifacts, ARTIFACTS, offset=list(STARTERS).index(name))
    duals = [c.name for c in cards if c.type == "land" and set(c.produces) == {first, second}]
    lands = duals[:1]
    while len(spells) + len(lands) + 2 * ((LANDS - len(lands)) // 2) < DECK_SIZE:
        spells.append(spells[len(spells) % 5])  # a second copy of a cheap card
    each = (DECK_SIZE - len(spells) - len(lands)) // 2
    lands += [basic_land(first)] * each + [basic_land(second)] * (
        DECK_SIZE - len(spells) - len(lands) - each)
    return tuple(spells + lands)


def _curve(data: CardDef) -> tuple[int, int, str]:
    return (data.cost_parts.mana_value, RARITY_ORDER[data.rarity], data.name)


def _spread(ranked: list[CardDef], count: int, offset: int = 0) -> list[str]:
    """``count`` cards spread evenly over ``ranked`` (cheap to dear), rares last."""
    pool = [c for c in ranked if c.rarity != "rare"] or ranked
    if len(pool) <= count:
        return [c.name for c in pool]
    step = len(pool) / count
    return [pool[(int(i * step) + offset) % len(pool)].name for i in range(count)]


def deck_colours(deck: list[str] | tuple[str, ...]) -> set[str]:
    """The colours of a deck's spells."""
    return {c for name in deck if (c := card_set()[name].colour) is not None}
