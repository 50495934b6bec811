"""Arcane Duel's card set speaks every language (issue 33): every card has its name, type
line and flavour in every locale, no card key is left over, and a card's name is unique
in each language (``/card`` finds a card by its name in either)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.duel.card_words import face_words, flavour, name, rules_lines, type_line
from bot.games.duel.card import _rules_lines, _text_lines, _text_room, draw_face, face_boxes
from bot.i18n import LOCALES, catalog, pseudo, speaking
from bot.i18n import cards as words
from bot.i18n.cards import card_flavour, card_name, card_type_line, cards_named
from bot.pictures.common import clean
from rules.duel.card_ids import card_id
from rules.duel.cards import card, card_set
from tests.pseudo import pictures_checked

ROOT = Path(__file__).resolve().parent.parent


def data_keys() -> set[str]:
    """Every key the card set needs: a name and a type line for every card, a flavour
    for every card that has one."""
    keys: set[str] = set()
    for data in card_set().values():
        key = card_id(data.name)
        keys |= {f"cards.{key}.name", f"cards.{key}.type"}
        if data.flavor:
            keys.add(f"cards.{key}.flavour")
    return keys


def _keys(locale: str) -> set[str]:
    return {message.id[0] if isinstance(message.id, tuple) else message.id
            for message in catalog("cards", locale) if message.id}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_card_has_its_words_and_no_card_key_is_left_over(locale: str) -> None:
    card_keys = {key for key in _keys(locale) if key.split(".")[-1] in {"name", "type",
                                                                          "flavour"}
                 and key.count(".") == 2}
    assert sorted(data_keys() - card_keys) == [], f"missing in {locale}"
    assert sorted(card_keys - data_keys()) == [], f"left over in {locale}"


@pytest.mark.parametrize("locale", LOCALES)
def test_card_names_are_unique_in_each_language(locale: str) -> None:
    names = [name(data, locale).casefold() for data in card_set().values()]
    assert len(set(names)) == len(names)


def test_a_card_reads_in_portuguese_and_english_unchanged() -> None:
    for data in card_set().values():
        assert (name(data, "en"), card_name(data.name, "en")) == (data.name, data.name)
        assert type_line(data, "en") == card_type_line(card_id(data.name), "en") \
            == data.type_line()
        assert flavour(data, "en") == data.flavor
        # bot.i18n may not import the rules: it makes a card's id by the same rule
        assert words._id(data.name) == card_id(data.name)
    assert card_name("tidebane-marauder", "pt_BR") == "Flagelo das Marés"
    assert card_type_line("Gearmelt", "pt_BR") == "Mágica instantânea"
    assert card_flavour("murmuring-catacomb", "pt_BR").startswith("Os mortos pagam bem")
    assert card_flavour("kindlewhip", "pt_BR") == ""


def test_a_card_is_found_by_its_name_in_either_language() -> None:
    assert cards_named("Sufocar a Luz") == [card_id("Smother the Light")]
    assert cards_named("smother the light") == [card_id("Smother the Light")]
    assert "kindlewhip" in cards_named("brasa")
    assert cards_named("nothing like this") == []


def test_rules_text_reads_in_english_exactly_as_the_card_data_writes_it() -> None:
    for data in card_set().values():
        assert rules_lines(data, "en") == data.text().splitlines(), data.name


def test_rules_text_reads_in_portuguese() -> None:
    said = {data.name: rules_lines(data, "pt_BR") for data in card_set().values()}
    assert said["Kindlewhip"] == ["Cause 2 de dano a qualquer alvo."]
    assert said["Cinderpit Sapper"] == ["Vire, sacrifique esta carta: Destrua o artefato alvo."]
    english = {line for data in card_set().values() for line in data.text().splitlines()}
    assert not english & {line for lines in said.values() for line in lines} - {"+1/+1"}


def test_every_rules_text_key_is_written_in_the_code() -> None:
    code = "".join((ROOT / path).read_text(encoding="utf-8")
                   for path in ("rules/duel/card_text.py", "bot/duel/card_words.py"))
    for locale in LOCALES:
        words = _keys(locale) - data_keys()
        assert sorted(key for key in words if f'"{key}"' not in code) == []


def test_a_card_face_reads_in_english_as_before_and_in_portuguese() -> None:
    from rules.duel.text import card_words

    for data in card_set().values():
        assert face_words(data, "en") == card_words(data), data.name
    assert face_words(card("Murmuring Catacomb"), "pt_BR").splitlines()[1:3] == [
        "Terreno · rara", "Vire: Adicione mana preto."]
    assert card_flavour("Murmuring Catacomb", "pt_BR") in face_words(card("Murmuring Catacomb"),
                                                                    "pt_BR")


@pytest.mark.parametrize("locale", ["pt_BR", "qps"])
def test_every_card_picture_keeps_its_words_inside_in_another_language(locale: str) -> None:
    """Every card drawn in Portuguese and in the 40 % longer pseudo-locale: no text runs
    out of its picture or over another; in Portuguese every name is whole (drawn smaller
    rather than cut) and every line of rules text is drawn."""
    pseudo.enable()
    try:
        with speaking(locale), pictures_checked() as placed:
            for data in card_set().values():
                draw_face(data)
    finally:
        pseudo.enable(False)
    if locale == "pt_BR":
        drawn = {one.text for one in placed}
        with speaking(locale):
            for data in card_set().values():
                assert clean(name(data)) in drawn, name(data)
                width, height = _text_room(data, face_boxes(data)[2])
                face, lines = _text_lines(data, width, height)
                assert [line for line, flavoured in lines if not flavoured] \
                    == _rules_lines(data, face, width), data.name
