"""The card set's words: each card's name, type line and flavour in the locale being
spoken (docs/i18n.md). The one place card keys are made from card ids
(``cards.<id>.name|type|flavour`` of the ``cards`` domain), so the catalog test lets this
domain be data-keyed; tests/test_duel_cards_i18n.py checks every card has its words in
every locale and that no card key is left over. A card's rules text is phrases the
game's rules make from its data (``say`` them); the game's own services put it all
together for a card.

A card is named by its id (``wayfarers-cairn``) or by its English name as the rules
and the store keep it (``Wayfarer's Cairn``, read as its id); a card that is not in the
set is shown as it is. Like all of ``bot.i18n`` this module knows no game's rules (an
import contract): the set of cards is the catalog's.

>>> card_name("kindlewhip", "en"), card_name("Kindlewhip", "pt_BR")
('Kindlewhip', 'Chicote de Brasa')
>>> card_type_line("Ashpeak", "pt_BR")
'Terreno básico — montanha'
>>> card_name("No Such Card", "pt_BR"), card_flavour("kindlewhip", "en")
('No Such Card', '')
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from functools import cache

from bot.i18n import DEFAULT, LOCALES, NAMERS, Phrase, current, translate
from bot.i18n.catalogs import loaded

__all__ = ["card_flavour", "card_ids", "card_name", "card_named_exactly", "card_phrase",
           "card_type_line", "cards_named", "nearest_named"]

PREFIX = "cards."


def _id(card: str) -> str:
    """A card's id from its id or its English name: the name in lower case, every run of
    other characters a hyphen, apostrophes dropped (the rule of the card ids of the
    game's rules, which a test holds this to: ``bot.i18n`` may not import a game's
    rules)."""
    return re.sub(r"[^a-z0-9]+", "-", card.casefold().replace("'", "")).strip("-")


def _words(card: str, part: str, locale: str | None) -> str | None:
    key = f"{PREFIX}{_id(card)}.{part}"
    if key not in loaded(DEFAULT).entries:
        return None
    return translate(key, locale)


def card_name(card: str, locale: str | None = None) -> str:
    """The name of card ``card`` (its id or English name) in ``locale`` (``None``: the
    locale being spoken); ``card`` itself if the set has no such card."""
    return _words(card, "name", locale) or card


def card_phrase(card: str) -> Phrase | str:
    """Card ``card``'s name as words made later, in the reader's locale (an argument of
    a :class:`~bot.i18n.Text`); ``card`` itself if the set has no such card.

    >>> from bot.i18n import Text
    >>> Text("cards.rules.destroy", what=card_phrase("Ashpeak")).in_locale("pt_BR")
    'Destrua Pico das Cinzas.'
    """
    key = f"{PREFIX}{_id(card)}.name"
    return Phrase(key) if key in loaded(DEFAULT).entries else card


def card_type_line(card: str, locale: str | None = None) -> str:
    """The card's type line in ``locale`` (``Criatura``, ``Artefato (mono)`` …; ``""``
    if the set has no such card)."""
    return _words(card, "type", locale) or ""


def card_flavour(card: str, locale: str | None = None) -> str:
    """The card's flavour text in ``locale`` (``""``: the card has none)."""
    return _words(card, "flavour", locale) or ""


@cache
def card_ids() -> tuple[str, ...]:
    """The id of every card whose words the catalogs have."""
    entries = loaded(DEFAULT).entries
    return tuple(key[len(PREFIX):-len(".name")] for key in entries
                 if key.startswith(PREFIX) and key.endswith(".name") and key.count(".") == 2)


@cache
def _names(locale: str) -> Mapping[str, str]:
    """Every card's id by its name in ``locale`` (case-folded)."""
    return {card_name(key, locale).casefold(): key for key in card_ids()}


def card_named_exactly(text: str, locales: Iterable[str] = LOCALES) -> str | None:
    """The id of the card whose name in one of ``locales`` is ``text`` (any case,
    spaces trimmed), if any.

    >>> card_named_exactly(" chicote de BRASA "), card_named_exactly("chicote")
    ('kindlewhip', None)
    """
    wanted = text.strip().casefold()
    return next((found for locale in dict.fromkeys(locales)
                 if (found := _names(locale).get(wanted)) is not None), None)


def cards_named(text: str, locales: Iterable[str] = LOCALES) -> list[str]:
    """The ids of the cards whose name in any of ``locales`` is ``text`` or holds it
    (any case): exact matches first, then the rest by their name in the locale spoken.

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


NAMERS["cards"] = card_name  # a card the rules name in a phrase (rules.phrases.Named)


def nearest_named(text: str, locales: Iterable[str] = LOCALES, limit: int = 3) -> list[str]:
    """The ids of up to ``limit`` cards whose name in one of ``locales`` is closest to
    ``text`` (a name mistyped), closest first; none when nothing is close.

    >>> nearest_named("Chicote de Brasx")[0], nearest_named("zzzzzzzz")
    ('kindlewhip', [])
    """
    wanted = text.strip().casefold()
    if len(wanted) > 120:
        return []  # nothing is close to a paragraph, and matching it is slow
    names = {name: key for locale in dict.fromkeys(locales) for name, key in _names(locale).items()}
    close = difflib.get_close_matches(wanted, list(names), n=limit)
    return list(dict.fromkeys(names[name] for name in close))
