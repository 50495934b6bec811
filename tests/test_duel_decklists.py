"""Deck lists as text (specs/collections.md, "Decks"): export and import round-trip, every
written form players use reads, and hostile text is refused by line with a clear message,
never an internal error. Then the deck checks: size, known cards, and the cards short."""

from __future__ import annotations

import time
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import rules.duel
from bot.i18n import say
from rules.duel import deck_of
from rules.duel.cards import card_set
from rules.duel.decklists import (
    MAX_CARDS,
    MAX_PROBLEMS,
    MAX_TEXT,
    card_named,
    check_deck,
    nearest_cards,
    parse_decklist,
    render_decklist,
    shortfall,
)
from rules.duel.decks import STARTERS, starter
from rules.errors import BadOptions

PROFILE = settings(max_examples=300, deadline=None, derandomize=True, database=None)
NAMES = sorted(card_set())
BASICS = sorted(n for n, d in card_set().items() if d.basic is not None)
LANDS = {n for n, d in card_set().items() if d.type == "land"}
LONGEST_MESSAGE = 1000
"""A refusal is read in a chat reply: whatever was typed, it stays this short."""

decks = st.dictionaries(st.sampled_from(NAMES), st.integers(1, 120), max_size=25).filter(
    lambda d: sum(d.values()) <= MAX_CARDS)


def refused(text: str) -> str:
    """The message parse_decklist refuses ``text`` with (failing if it reads it)."""
    with pytest.raises(BadOptions) as caught:
        parse_decklist(text)
    message = say(caught.value.text, "en")
    assert len(message) <= LONGEST_MESSAGE and "\n" not in message
    return message


# -- reading and writing -----------------------------------------------------------------

@PROFILE
@given(decks)
def test_render_then_parse_gives_the_deck_back(deck: dict[str, int]) -> None:
    text = render_decklist(deck)
    assert parse_decklist(text) == Counter(deck)
    assert render_decklist(parse_decklist(text)) == text


def test_a_starter_deck_round_trips_with_lands_last() -> None:
    for name in STARTERS:
        deck = Counter(starter(name))
        text = render_decklist(deck)
        assert parse_decklist(text) == deck
        names = [line.split(" ", 1)[1] for line in text.splitlines()]
        is_land = [n in LANDS for n in names]
        assert is_land == sorted(is_land), "lands come last"
        spells = [n for n in names if n not in LANDS]
        assert spells == sorted(spells)


@pytest.mark.parametrize("line", [
    "4 Kindlewhip", "4x Kindlewhip", "4X Kindlewhip", "4 x Kindlewhip", "4× Kindlewhip",
    "  4   kindlewhip  ", "4 KINDLEWHIP", "04 Kindlewhip", "4\tKindlewhip",
    "4 Kindlewhip # the burn", "4 Kindlewhip\r", "0" * 5000 + "4 Kindlewhip",
])
def test_the_ways_players_write_a_line(line: str) -> None:
    assert parse_decklist(line) == Counter({"Kindlewhip": 4})


def test_names_ignore_case_spacing_and_curled_apostrophes() -> None:
    text = "2 grim   ledger\n1 WAYFARER’S CAIRN\nKindlewhip\nKindlewhip"
    assert parse_decklist(text) == Counter({"Grim Ledger": 2, "Wayfarer's Cairn": 1,
                                            "Kindlewhip": 2})


def test_comments_blank_lines_and_code_fences_are_skipped() -> None:
    text = "```\n# Burn\n\n4 Kindlewhip\n   \n# 17 lands\n17 Ashpeak\n```text\n```"
    assert parse_decklist(text) == Counter({"Kindlewhip": 4, "Ashpeak": 17})
    assert parse_decklist("") == Counter() == parse_decklist("# nothing\n\n")


def test_card_lookups() -> None:
    assert card_named("ashpeak") == "Ashpeak" and card_named("ash peak") is None
    assert nearest_cards("Ashpek")[0] == "Ashpeak"
    assert nearest_cards("x" * 5000) == []


# -- refusals ----------------------------------------------------------------------------

def test_an_unknown_card_is_named_with_its_line_and_the_nearest_cards() -> None:
    message = refused("4 Kindlewhip\n\n3 Grim Ledgr")
    assert message.startswith("line 3: there is no card 'Grim Ledgr'")
    assert "did you mean Grim Ledger" in message
    assert refused("2 Qqqqqqqqq") == "line 1: there is no card 'Qqqqqqqqq'"


@pytest.mark.parametrize(("line", "says"), [
    ("0 Kindlewhip", "from 1 to 99, not '0'"),
    ("100 Kindlewhip", "from 1 to 99, not '100'"),
    ("9" * 5000 + " Kindlewhip", "from 1 to 99"),
    ("-1 Kindlewhip", "from 1 to 99, not '-1'"),
    ("4.5 Kindlewhip", "from 1 to 99, not '4.5'"),
    ("4", "names no card"),
    ("4x", "names no card"),
    ("٤ Kindlewhip", "digits 0 to 9"),        # Arabic-Indic four
    ("４ Kindlewhip", "digits 0 to 9"),       # full-width four
    ("४ Kindlewhip", "digits 0 to 9"),        # Devanagari four
    ("4٤ Kindlewhip", "digits 0 to 9"),
    ("² Kindlewhip", "digits 0 to 9"),        # superscript two
    ("Ⅳ Kindlewhip", "digits 0 to 9"),        # Roman numeral four
])
def test_bad_counts_are_refused_by_line(line: str, says: str) -> None:
    message = refused("4 Ashpeak\n" + line)
    assert message.startswith("line 2: ") and says in message


def test_limits() -> None:
    assert "at most 10000 characters" in refused("#" * (MAX_TEXT + 1))
    assert parse_decklist("#" * MAX_TEXT) == Counter()
    assert refused("99 Ashpeak\n99 Mossvale\n99 Murkfen") == \
        "a deck list has at most 250 cards, not 297"
    assert MAX_CARDS == rules.duel.MAX_DECK


def test_many_faulty_lines_are_summed_up() -> None:
    message = refused("\n".join(f"{n} Nothing" for n in range(1, 21)))
    assert message.count("there is no card") == MAX_PROBLEMS
    assert message.endswith("; and 15 more faulty lines")


@pytest.mark.parametrize("text", [
    "**4 Kindlewhip**", "`4 Kindlewhip`", "> 4 Kindlewhip", "- 4 Kindlewhip",
    "4 @everyone", "4 <@123456789012345678>", "<@&1> <#2> @here", "4 ||Kindlewhip||",
    "4 Kindlewhip\x00", "\u202e4 Kindlewhip", "4 " + "Kindlewhip " * 900,
    "[4 Kindlewhip](https://example.com)", "\U0001F525" * 3000,
])
def test_hostile_text_is_refused_clearly(text: str) -> None:
    message = refused(text)
    assert message.startswith("line 1: ")


def test_non_text_is_refused() -> None:
    with pytest.raises(BadOptions) as caught:
        parse_decklist(b"4 Kindlewhip")  # type: ignore[arg-type]
    assert say(caught.value.text, "en").startswith("a deck list is text")
    assert say(caught.value.text, "pt_BR").startswith("uma lista de deck é um texto")


line_parts = st.one_of(
    st.sampled_from(NAMES), st.sampled_from(["4", "4x", "0", "100", "٤", "#", "```", "**"]),
    st.text(max_size=30), st.integers(-5, 200).map(str),
)
lines = st.lists(line_parts, min_size=1, max_size=4).map(" ".join)


@PROFILE
@given(st.one_of(st.text(max_size=300), st.lists(lines, max_size=30).map("\n".join)))
@example("\n".join(["4 Kindlewhip"] * 70))
@example("9" * 4400 + " Kindlewhip")
def test_any_text_reads_or_is_refused_with_a_short_message(text: str) -> None:
    try:
        cards = parse_decklist(text)
    except BadOptions as exc:
        message = say(exc.text, "en")
        assert message and len(message) <= LONGEST_MESSAGE and "\n" not in message
        return
    assert set(cards) <= set(NAMES)
    assert sum(cards.values()) <= MAX_CARDS and all(n >= 1 for n in cards.values())


def test_the_worst_text_is_refused_quickly() -> None:
    # Each line a distinct near-miss, so nothing is cached: only the first few are
    # matched with difflib, the rest just counted.
    worst = "\n".join(f"Kindlewhi{chr(97 + n % 26)}{n}" for n in range(MAX_TEXT // 16))
    assert len(worst) <= MAX_TEXT
    started = time.perf_counter()
    refused(worst)
    assert time.perf_counter() - started < 1.0


# -- deck checks -------------------------------------------------------------------------

def test_check_deck_sizes_and_cards() -> None:
    deck = {"Kindlewhip": 23, "Ashpeak": 17}
    cards = check_deck(deck)
    assert len(cards) == 40 and cards[-1] == "Ashpeak" and cards[0] == "Kindlewhip"
    assert deck_of({"deck": list(cards)}, "dawn-and-tide") == cards
    for bad, says in (({"Kindlewhip": 22, "Ashpeak": 17}, "at least 40 cards, not 39"),
                      ({"Kindlewhip": 234, "Ashpeak": 17}, "at most 250 cards, not 251"),
                      ({"Kindlewip": 23, "Ashpeak": 17},
                       "no card 'Kindlewip' (did you mean Kindlewhip?)"),
                      ({"Kindlewhip": -1, "Ashpeak": 41}, "whole number")):
        with pytest.raises(BadOptions) as caught:
            check_deck(bad)
        assert says in say(caught.value.text, "en")
    with pytest.raises(BadOptions) as caught:
        check_deck({"Kindlewip": 23, "Ashpeak": 17})
    assert say(caught.value.text, "pt_BR") == \
        "não existe nenhuma carta 'Kindlewip' (você quis dizer Chicote de Brasa?)"
    for name in STARTERS:
        assert sorted(check_deck(Counter(starter(name)))) == sorted(starter(name))


def test_shortfall_names_the_cards_short_and_never_basic_lands() -> None:
    deck = Counter({"Kindlewhip": 4, "Grim Ledger": 2, "Ashpeak": 17, "Wayfarer's Cairn": 1})
    assert shortfall(deck, {}) == {"Grim Ledger": 2, "Kindlewhip": 4, "Wayfarer's Cairn": 1}
    assert shortfall(deck, {"Kindlewhip": 3, "Grim Ledger": 5, "Wayfarer's Cairn": 1}) == \
        {"Kindlewhip": 1}
    assert shortfall(deck, deck) == {}


@PROFILE
@given(decks, st.dictionaries(st.sampled_from(NAMES), st.integers(0, 120)))
def test_shortfall_is_what_is_asked_beyond_what_is_owned(deck: dict[str, int],
                                                         owned: dict[str, int]) -> None:
    short = shortfall(deck, owned)
    assert list(short) == sorted(short)
    for name in NAMES:
        beyond = max(0, deck.get(name, 0) - owned.get(name, 0))
        assert short.get(name, 0) == (0 if name in BASICS else beyond)
