"""Arcane Duel's cards in words: each card's name, type line and flavour in the locale
being spoken (docs/i18n.md). The one place card keys are made from card ids
(``cards.<id>.name|type|flavour`` of the ``cards`` domain), so the catalog test lets this
domain be data-keyed; tests/test_duel_cards_i18n.py checks every card has its words in
every locale and that no card key is left over.

A card is named by its id (``wayfarers-cairn``) or by its English name as the rules
and the store keep it (``Wayfarer's Cairn``); anything else is shown as it is.

>>> card_name("kindlewhip", "en"), card_name("Kindlewhip", "pt_BR")
('Kindlewhip', 'Chicote de Brasa')
>>> card_type_line("Ashpeak", "pt_BR")
'Terreno básico — montanha'
>>> card_name("No Such Card", "pt_BR")
'No Such Card'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from bot.i18n import LOCALES, current, translate
from rules.duel.card_ids import card_by_id, card_id
from rules.duel.cards import CardDef, card_set

__all__ = ["card_def", "card_flavour", "card_key", "card_name", "card_type_line",
           "cards_named", "data_keys"]


def card_def(card: str | CardDef) -> CardDef | None:
    """The card a card id, an English card name or a card's data names, if any."""
    if isinstance(card, CardDef):
        return card
    return card_by_id(card) or card_set().get(card)


def card_key(card: str | CardDef) -> str | None:
    """The id under which ``card``'s words are kept (``None``: no such card)."""
    data = card_def(card)
    return None if data is None else card_id(data.name)


def card_name(card: str | CardDef, locale: str | None = None) -> str:
    """The card's name in ``locale`` (``None``: the locale being spoken)."""
    key = card_key(card)
    if key is None:
        return card if isinstance(card, str) else card.name
    return translate(f"cards.{key}.name", locale)


def card_type_line(card: str | CardDef, locale: str | None = None) -> str:
    """The card's type line in ``locale`` (``Criatura``, ``Artefato (mono)`` …)."""
    data = card_def(card)
    if data is None:
        return ""
    return translate(f"cards.{card_id(data.name)}.type", locale)


def card_flavour(card: str | CardDef, locale: str | None = None) -> str:
    """The card's flavour text in ``locale`` (``""``: the card has none)."""
    data = card_def(card)
    if data is None or not data.flavor:
        return ""
    return translate(f"cards.{card_id(data.name)}.flavour", locale)


def data_keys() -> frozenset[str]:
    """Every key the card set needs: a name and a type line for every card, a flavour
    for every card that has one."""
    keys: set[str] = set()
    for data in card_set().values():
        key = card_id(data.name)
        keys |= {f"cards.{key}.name", f"cards.{key}.type"}
        if data.flavor:
            keys.add(f"cards.{key}.flavour")
    return frozenset(keys)


@cache
def _names(locale: str) -> Mapping[str, str]:
    """Every card's id by its name in ``locale`` (case-folded)."""
    return {card_name(data, locale).casefold(): card_id(data.name)
            for data in card_set().values()}


def cards_named(text: str, locales: Iterable[str] = LOCALES) -> list[str]:
    """The ids of the cards whose name in any of ``locales`` is ``text`` or holds it
    (any case), exact matches first, then by name in the locale spoken.

    >>> cards_named("chicote de brasa"), cards_named("kindlewhip")
    (['kindlewhip'], ['kindlewhip'])
    """
    wanted = text.strip().casefold()
    exact: dict[str, None] = {}
    partial: dict[str, None] = {}
    for locale in dict.fromkeys(locales):
        for name, key in _names(locale).items():
            if name == wanted:
                exact[key] = None
            elif wanted in name:
                partial[key] = None
    spoken = current()
    rest = sorted(set(partial) - set(exact), key=lambda key: card_name(key, spoken).casefold())
    return [*exact, *rest]

