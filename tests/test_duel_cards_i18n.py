"""Arcane Duel's card set speaks every language (issue 33): every card has its name, type
line and flavour in every locale, no card key is left over, and a card's name is unique
in each language (``/card`` finds a card by its name in either)."""

from __future__ import annotations

import pytest

from bot.i18n import LOCALES, catalog
from bot.i18n.cards import card_flavour, card_name, card_type_line, cards_named, data_keys
from rules.duel.card_ids import card_id
from rules.duel.cards import card_set


def _keys(locale: str) -> set[str]:
    return {message.id for message in catalog("cards", locale) if message.id}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_card_has_its_words_and_no_card_key_is_left_over(locale: str) -> None:
    card_keys = {key for key in _keys(locale) if key.split(".")[-1] in {"name", "type",
                                                                          "flavour"}
                 and key.count(".") == 2}
    assert sorted(data_keys() - card_keys) == [], f"missing in {locale}"
    assert sorted(card_keys - data_keys()) == [], f"left over in {locale}"


@pytest.mark.parametrize("locale", LOCALES)
def test_card_names_are_unique_in_each_language(locale: str) -> None:
    names = [card_name(data, locale).casefold() for data in card_set().values()]
    assert len(set(names)) == len(names)


def test_a_card_reads_in_portuguese_and_english_unchanged() -> None:
    for data in card_set().values():
        assert card_name(data, "en") == data.name
        assert card_type_line(data, "en") == data.type_line()
        assert card_flavour(data, "en") == data.flavor
    assert card_name("tidebane-marauder", "pt_BR") == "Flagelo das Marés"
    assert card_type_line("Gearmelt", "pt_BR") == "Instantâneo"
    assert card_flavour("murmuring-catacomb", "pt_BR").startswith("Os mortos pagam bem")
    assert card_flavour("kindlewhip", "pt_BR") == ""


def test_a_card_is_found_by_its_name_in_either_language() -> None:
    assert cards_named("Sufocar a Luz") == [card_id("Smother the Light")]
    assert cards_named("smother the light") == [card_id("Smother the Light")]
    assert "kindlewhip" in cards_named("brasa")
    assert cards_named("nothing like this") == []
