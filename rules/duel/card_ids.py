"""A card's id in addresses: its name in lower case, every run of other characters a
hyphen (apostrophes dropped), so ``Wayfarer's Cairn`` is ``wayfarers-cairn``. Readable,
stable while the name is, and never a database id; the web gallery's pages are found by
it and Discord's ``/card`` links to them with it.

>>> card_id("Wayfarer's Cairn"), card_by_id("wayfarers-cairn").name
('wayfarers-cairn', "Wayfarer's Cairn")
>>> card_by_id("no-such-card") is None, card_by_id("Wayfarers-Cairn") is None
(True, True)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

from rules.duel.cards import CardDef, card_set

ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""What a card id may look like; anything else is not looked up."""
MAX_ID = 64
"""The longest card id read (names are at most 40 characters)."""


def card_id(name: str) -> str:
    """The id of card ``name``."""
    return re.sub(r"[^a-z0-9]+", "-", name.casefold().replace("'", "")).strip("-")


@cache
def _ids() -> Mapping[str, CardDef]:
    found: dict[str, CardDef] = {}
    for data in card_set().values():
        key = card_id(data.name)
        if key in found:  # names are checked unique; their ids must be too
            raise ValueError(f"{data.name!r} and {found[key].name!r} share the id {key!r}")
        found[key] = data
    return found


def card_by_id(text: str) -> CardDef | None:
    """The card whose id is ``text``, if any."""
    if len(text) > MAX_ID or not ID.fullmatch(text):
        return None
    return _ids().get(text)
