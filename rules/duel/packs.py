"""Booster packs of Arcane Duel: what a pack holds and how one is opened.

A pack is 15 cards, 11 common, 3 uncommon and 1 rare (``../shared/specs/
collections.md``, "Getting cards"), drawn from the set *without* its basic
lands: basic lands are free and unlimited, so a pack never wastes a slot on
one. Within a rarity every card is equally likely, and a card appears at most
once in a pack. Which copy a pull becomes (a limited copy with a serial while
the card's print run lasts, an unlimited one after) is the store's business;
this module only decides *which cards* a pack holds, from a seeded
:class:`random.Random`, so an opening replays exactly.

>>> import random
>>> pulls = open_pack(random.Random(7))
>>> len(pulls), sorted({rarity for _, rarity in pulls})
(15, ['common', 'rare', 'uncommon'])
>>> rarest_first(pulls)[0][1]
'rare'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import TypeVar

from rules.duel.cards import card_set

PACK: Mapping[str, int] = {"common": 11, "uncommon": 3, "rare": 1}
"""How many cards of each rarity a pack holds."""
PACK_SIZE = sum(PACK.values())
"""Cards in a pack: 15."""
RUN_SIZES: Mapping[str, int] = {"rare": 100, "uncommon": 300, "common": 1000}
"""The default limited print run per card per server, by the card's rarity
(configurable when an edition is opened)."""
RARITY_RANK: Mapping[str, int] = {"rare": 0, "uncommon": 1, "common": 2}
"""Rarest first: the order a pack is shown in."""

Pull = TypeVar("Pull", bound=Sequence[object])


@cache
def pack_pool() -> Mapping[str, tuple[str, ...]]:
    """The names a pack draws from, by rarity: every card of the set but the
    basic lands, sorted by name so that a seed gives the same pack whatever
    order the card files are read in.

    >>> pool = pack_pool()
    >>> "Ashpeak" in pool["common"], len(pool["rare"]) >= PACK["rare"]
    (False, True)
    """
    pool: dict[str, list[str]] = {rarity: [] for rarity in PACK}
    for data in card_set().values():
        if data.basic is None:
            pool[data.rarity].append(data.name)
    for rarity, count in PACK.items():
        if len(pool[rarity]) < count:
            # A pack never holds a card twice, so the set must have enough.
            raise ValueError(f"a pack holds {count} {rarity} cards but the set has only "
                             f"{len(pool[rarity])}")
    return {rarity: tuple(sorted(names)) for rarity, names in pool.items()}


def open_pack(rng: random.Random) -> tuple[tuple[str, str], ...]:
    """The 15 pulls of one pack as ``(card name, rarity)``: the commons, then
    the uncommons, then the rare, each group in the order drawn. The same
    seeded ``rng`` state gives the same pack.

    >>> first = open_pack(random.Random("server-1:pack-9"))
    >>> first == open_pack(random.Random("server-1:pack-9"))
    True
    >>> [sum(r == rarity for _, r in first) for rarity in PACK]
    [11, 3, 1]
    >>> len({name for name, _ in first})
    15
    """
    pool = pack_pool()
    pulls: list[tuple[str, str]] = []
    for rarity, count in PACK.items():
        # sample() draws without replacement: no card twice in a pack.
        pulls += [(name, rarity) for name in rng.sample(pool[rarity], count)]
    return tuple(pulls)


def rarest_first(pulls: Iterable[Pull]) -> list[Pull]:
    """``pulls`` in the order a pack is shown: rares, then uncommons, then
    commons, each by name. A pull is any sequence starting with the card's
    name and rarity, so rows that also carry a serial sort the same way.

    >>> rarest_first([("Ashpeak", "common"), ("Zed", "rare"), ("Bay", "common"),
    ...               ("Moth", "uncommon")])
    [('Zed', 'rare'), ('Moth', 'uncommon'), ('Ashpeak', 'common'), ('Bay', 'common')]
    >>> rarest_first([("B", "rare", 37), ("A", "rare", None)])
    [('A', 'rare', None), ('B', 'rare', 37)]
    """
    return sorted(pulls, key=lambda pull: (RARITY_RANK[str(pull[1])], str(pull[0])))


def next_serial(printed: int, run: int) -> int | None:
    """The serial the next limited copy of a card gets when ``printed`` copies
    of its run of ``run`` exist, or ``None`` once the run is exhausted (the
    pack then gives an unlimited copy).

    >>> next_serial(0, RUN_SIZES["rare"]), next_serial(99, 100), next_serial(100, 100)
    (1, 100, None)
    """
    return printed + 1 if printed < run else None
