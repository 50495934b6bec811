"""A card in plain English words, for ``croupier cards duel`` (the command line lists a
game's cards in English; a card's words in every language are the card set's catalog and
:mod:`rules.duel.card_text`, said by ``bot.duel.card_words``). A duel's table in words
is :mod:`rules.duel.table_words`."""

from __future__ import annotations

from rules.duel.cards import CardDef, card_set


def card_words(data: CardDef) -> str:
    """A card as its face says it: name and cost, type line (with power and
    toughness), rules text, rarity.

    >>> from rules.duel.cards import card
    >>> print(card_words(card("Kindlewhip")))
    Kindlewhip  R
    Instant · common
    Deal 2 damage to any target.
    """
    body = "\n".join(filter(None, [data.text(), f"“{data.flavor}”" if data.flavor else ""]))
    stats = f" · {data.power}/{data.toughness}" if data.is_creature else ""
    head = f"{data.name}  {data.cost}".rstrip()
    return "\n".join(filter(None, [head, f"{data.type_line()}{stats} · {data.rarity}", body]))


def catalogue(search: str) -> list[str]:
    """Every card whose name holds ``search`` (any case), as :func:`card_words` says it."""
    wanted = search.strip().casefold()
    return [card_words(c) for c in card_set().values() if wanted in c.name.casefold()]
