"""The card gallery's query language (rules/duel/query.py): what each term finds, what it
refuses and why, its bounds, and, by property, that no text makes it raise anything but
its own error and that ``-`` before a term always keeps exactly the other cards."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.duel.cards import CardDef, card_set
from rules.duel.query import (
    COMPARISONS,
    FIELDS,
    MAX_LENGTH,
    MAX_TERMS,
    OPS,
    QueryError,
    parse,
    search,
)

CARDS = list(card_set().values())


def names(query: str) -> set[str]:
    return {c.name for c in search(query)}


def where(test: Callable[[CardDef], bool]) -> set[str]:
    return {c.name for c in CARDS if test(c)}


# -- what each term finds ---------------------------------------------------------------
def test_each_field_finds_what_the_card_data_says():
    assert names("c:red") == names("c:r") == names("COLOR:Red") == where(
        lambda c: c.colour == "R")
    assert names("c:colourless") == names("c:c") == where(lambda c: c.colour is None)
    assert names("c!=red") == where(lambda c: c.colour != "R")
    assert names("t:creature") == where(lambda c: c.is_creature)
    assert names("t:enchantment") == where(lambda c: c.is_a("enchantment"))
    assert names("t:swamp") == where(lambda c: c.basic == "swamp")
    assert names('t:"enchant creature"') == where(lambda c: c.enchants == "creature")
    assert names("t:mono") == where(lambda c: c.artifact == "mono")
    assert names("pow>=3") == where(lambda c: c.power is not None and c.power >= 3)
    assert names("tou<2") == where(lambda c: c.toughness is not None and c.toughness < 2)
    assert names("cmc=4") == names("cmc:4") == names("mv=4") == where(
        lambda c: c.cost_parts.mana_value == 4)
    assert names("cmc!=0") == where(lambda c: c.cost_parts.mana_value != 0)
    assert names("o:trample") == where(lambda c: "trample" in c.text().casefold())
    assert names('o:"first strike"') == where(lambda c: "first strike" in c.text().casefold())
    assert names("r:rare") == names("r:r") == where(lambda c: c.rarity == "rare")
    assert names("r>=uncommon") == where(lambda c: c.rarity in {"uncommon", "rare"})
    assert names("r<uncommon") == where(lambda c: c.rarity == "common")
    assert names("kindle") == where(lambda c: "kindle" in c.name.casefold())
    assert names("wayfarer's") == {"Wayfarer's Cairn"}
    assert all(names(q) for q in ("c:red", "t:creature", "pow>=3", "o:trample", "r:rare"))


def test_terms_are_all_met_and_quotes_make_a_phrase():
    both = names("c:green t:creature")
    assert both == names("c:green") & names("t:creature") and both
    assert names('"ember drake"') <= names("ember") & names("drake")
    assert names('n:"  Kindlewhip "') == {"Kindlewhip"}  # spaces squeezed, any case
    assert names("") == set(card_set())


def test_the_gallery_order_is_colour_by_colour_then_artifacts_then_lands():
    found = search("")
    groups = ["W", "U", "B", "R", "G"]
    order = [groups.index(c.colour) if c.colour else 5 + (c.type == "land") for c in found]
    assert order == sorted(order)
    assert [c.name for c in found if c.colour == "R"] == sorted(
        c.name for c in found if c.colour == "R")


# -- what it refuses --------------------------------------------------------------------
@pytest.mark.parametrize(("query", "key", "details"), [
    ("x:1", "unknown-field", ("x",)),
    ("o<3", "bad-operator", ("o", "<")),
    ("t!=land", "bad-operator", ("t", "!=")),
    ("c:", "missing-value", ("c", ":")),
    ("c: red", "missing-value", ("c", ":")),
    ("pow>= 3", "missing-value", ("pow", ">=")),
    ("-", "lone-minus", ()),
    ("drake - t:land", "lone-minus", ()),
    ('""', "empty-phrase", ()),
    ('"ember', "unclosed-quote", ()),
    ('o:"first strike"x', "glued-quote", ()),
    ('ab"c"', "glued-quote", ()),
    ("c:purple", "unknown-colour", ("purple",)),
    ("r:mythic", "unknown-rarity", ("mythic",)),
    ("pow>=lots", "not-a-number", ("pow", "lots")),
    ("cmc=1234", "not-a-number", ("cmc", "1234")),
    ("a " * (MAX_TERMS + 1), "too-many-terms", (MAX_TERMS,)),
    ("a" * (MAX_LENGTH + 1), "too-long", (MAX_LENGTH,)),
])
def test_what_does_not_read_says_why(query: str, key: str, details: tuple):
    with pytest.raises(QueryError) as caught:
        parse(query)
    assert (caught.value.key, caught.value.details) == (key, details)


def test_the_bounds_are_inclusive():
    assert len(parse(" ".join(["a"] * MAX_TERMS)).terms) == MAX_TERMS
    assert parse("a" * MAX_LENGTH).terms[0].value == "a" * MAX_LENGTH
    assert parse("pow>=-1").terms[0].value == -1 and parse("cmc<999").terms[0].value == 999


# -- properties -------------------------------------------------------------------------
QUERY_ALPHABET = st.sampled_from(
    [*'ctporwubgnm:=!<>-" 0123456789', "pow", "tou", "cmc", "red", "rare", "\t", "é",
     "\x00", "\u3000", "ß", "'"])


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(QUERY_ALPHABET, max_size=40).map("".join)))
def test_any_text_reads_or_raises_only_its_own_error(text: str):
    try:
        query = parse(text)
    except QueryError as error:
        assert error.key  # and nothing else escapes
        return
    assert len(query.terms) <= MAX_TERMS
    query.select(CARDS)


def _values(field: str) -> st.SearchStrategy[str]:
    match field:
        case "colour":
            return st.sampled_from(["white", "w", "blue", "u", "black", "b", "red", "r",
                                    "green", "g", "c", "colourless"])
        case "rarity":
            return st.sampled_from(["common", "c", "uncommon", "u", "rare", "r"])
        case "power" | "toughness" | "cmc":
            return st.integers(-2, 12).map(str)
        case "type":
            return st.sampled_from(["creature", "land", "artifact", "enchant", "instant",
                                    "swamp", "mono", "wall"])
    return st.sampled_from(["trample", "draw", "flying", "damage", "first strike", "a",
                            "ember", "of"])


@st.composite
def terms(draw: st.DrawFn) -> str:
    key = draw(st.sampled_from(sorted(FIELDS)))
    op = draw(st.sampled_from(OPS[FIELDS[key]]))
    keyed = draw(st.booleans())
    value = draw(_values(FIELDS[key] if keyed else "name"))
    shown = f'"{value}"' if " " in value else value
    return f"{key}{op}{shown}" if keyed else shown


@settings(max_examples=300, deadline=None)
@given(terms())
def test_a_minus_keeps_exactly_the_other_cards(term: str):
    kept = names(term)
    assert names("-" + term) == set(card_set()) - kept
    assert parse("-" + term).terms[0] == parse(term).terms[0].negate()


@settings(max_examples=150, deadline=None)
@given(st.lists(terms(), min_size=1, max_size=4))
def test_terms_together_keep_what_each_keeps(parts: list[str]):
    together = names(" ".join(parts))
    each = set(card_set())
    for part in parts:
        each &= names(part)
    assert together == each


def test_comparisons_are_every_operator():
    assert set(COMPARISONS) == {"=", "!=", "<", "<=", ">", ">="}
    for op in COMPARISONS:
        assert names(f"pow{op}2") == where(lambda c, op=op: c.power is not None and {
            "=": c.power == 2, "!=": c.power != 2, "<": c.power < 2, "<=": c.power <= 2,
            ">": c.power > 2, ">=": c.power >= 2}[op])


def test_a_reader_finds_cards_by_the_words_they_read() -> None:
    """With each card's words in the reader's language (``also``), name, type and text
    terms match them too; the set's own words still match."""
    from bot.duel.card_words import search_words

    also = search_words("pt_BR")
    assert [c.name for c in search('"chicote de brasa"', also=also)] == ["Kindlewhip"]
    assert [c.name for c in search("kindlewhip", also=also)] == ["Kindlewhip"]
    assert {c.name for c in search("t:feitiço", also=also)} == {
        c.name for c in search("t:sorcery")}
    assert "Kindlewhip" in {c.name for c in search('o:"qualquer alvo"', also=also)}
    assert search("chicote") == []
