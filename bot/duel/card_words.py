"""A card's words in the locale being spoken (issue 33): its name, type line and flavour
from the ``cards`` catalog (:mod:`bot.i18n.cards`), its rules text written from its data
(:mod:`rules.duel.card_text`), and the whole face as ``/card`` and the terminal say it.

>>> from rules.duel.cards import card
>>> rules_lines(card("Kindlewhip"), "pt_BR")
['Cause 2 de dano a qualquer alvo.']
>>> print(face_words(card("Kindlewhip"), "pt_BR"))
Chicote de Brasa  R
Mágica instantânea · comum
Cause 2 de dano a qualquer alvo.
"""

from __future__ import annotations

from functools import cache

from bot.i18n import Phrase, say
from bot.i18n.cards import card_flavour, card_name, card_type_line
from rules.duel.card_ids import card_id
from rules.duel.card_text import card_text
from rules.duel.cards import CardDef, card_set
from rules.duel.query import Also, CardWords

__all__ = ["face_words", "flavour", "name", "rarity_words", "rules_lines", "search_words",
           "type_line"]

RARITY = {"common": Phrase("cards.rarity.common"), "uncommon": Phrase("cards.rarity.uncommon"),
          "rare": Phrase("cards.rarity.rare")}


def name(data: CardDef, locale: str | None = None) -> str:
    """The card's name in ``locale`` (``None``: the locale being spoken)."""
    return card_name(card_id(data.name), locale)


def type_line(data: CardDef, locale: str | None = None) -> str:
    """The card's type line in ``locale``."""
    return card_type_line(card_id(data.name), locale)


def flavour(data: CardDef, locale: str | None = None) -> str:
    """The card's flavour text in ``locale`` (``""``: it has none)."""
    return card_flavour(card_id(data.name), locale)


def rarity_words(rarity: str, locale: str | None = None) -> str:
    """A rarity (``common``, ``uncommon``, ``rare``) in ``locale``."""
    return say(RARITY[rarity], locale) if rarity in RARITY else rarity


def rules_lines(data: CardDef, locale: str | None = None) -> list[str]:
    """The card's rules text in ``locale``, one string a line."""
    return [say(line, locale) for line in card_text(data)]


def face_words(data: CardDef, locale: str | None = None) -> str:
    """A card as its face says it: name and cost, type line (with power and toughness)
    and rarity, rules text, flavour (as :func:`rules.duel.text.card_words` in English)."""
    quoted = say(Phrase("cards.flavour.quoted", flavour=flavour(data, locale)), locale) \
        if data.flavor else ""
    body = "\n".join(filter(None, ["\n".join(rules_lines(data, locale)), quoted]))
    stats = f" · {data.power}/{data.toughness}" if data.is_creature else ""
    head = f"{name(data, locale)}  {data.cost}".rstrip()
    kind = f"{type_line(data, locale)}{stats} · {rarity_words(data.rarity, locale)}"
    return "\n".join(filter(None, [head, kind, body]))


@cache
def search_words(locale: str) -> Also:
    """Every card's name, type line and rules text in ``locale``, case-folded: what the
    gallery's search (:func:`rules.duel.query.search`, ``also``) matches besides the
    set's own words, so that a reader finds a card by the words they read.

    >>> search_words("pt_BR")["Kindlewhip"].name
    'chicote de brasa'
    """
    return {data.name: CardWords(name(data, locale).casefold(),
                                 type_line(data, locale).casefold(),
                                 " ".join(rules_lines(data, locale)).casefold())
            for data in card_set().values()}
