"""The shipped Hammer & Nails decks keep the spec's constraints (docs: specs/nails.md)."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.errors import BadOptions
from rules.nails.decks import DECKS, DEFAULT_DECK
from rules.nails.tiles import MECHANICS, NINE, Deck, Tile, parse_deck

NAMES = sorted(DECKS)
WORKSHOPS = ("workshop", "workshop4")
COLOURS = {
    "workshop": ("red", "green"),
    "workshop4": ("red", "green", "blue", "yellow"),
    "space": ("red", "blue"),
}
"""The nail colours each deck may use, in deck order."""
BLANKS = {0: 12, 1: 16, 2: 12, 3: 6, 4: 2}
"""The spec's count of workshop tiles by blank zones."""
PLAIN = ("again", "remove", "search", "draw2", "null", "opp-discard", "discard")
"""The seven mechanics that name no colour."""
FIGURES = {
    1: "1 H:again R:opp-discard G H",
    2: "2 R:again H H _",
    3: "3 R:again H:search _ G",
    4: "4 R _ _ G:remove",
}
"""The seed's FIG. 1–4 tiles, exactly."""


def zones(deck: Deck) -> Counter[str]:
    """Every zone of the deck by colour (nails) or kind (hammers, blanks)."""
    return Counter(zone.colour or zone.kind for tile in deck.tiles for zone in tile.zones)


def mechanics(deck: Deck) -> Counter[str]:
    """How many zones of the deck carry each mechanic."""
    return Counter(m for tile in deck.tiles for m in tile.mechanics)


def expected_mechanics(name: str) -> set[str]:
    """The mechanics a deck must show: the seven plain ones and a cover per colour."""
    return set(PLAIN) | {f"cover-{colour}" for colour in COLOURS[name]}


def turns(tile: Tile) -> set[tuple[str | None, tuple[str, ...]]]:
    """The tile's centre and zone codes in each of its four turns."""
    codes = tuple(zone.code for zone in tile.zones)
    return {(tile.centre, codes[i:] + codes[:i]) for i in range(4)}


def test_the_decks_and_the_default() -> None:
    assert set(DECKS) == {"workshop", "workshop4", "space"}
    assert DEFAULT_DECK == "workshop" and DECKS[DEFAULT_DECK].shape == "square"
    assert all(deck.name == name for name, deck in DECKS.items())


@pytest.mark.parametrize("name", NAMES)
def test_48_tiles_numbered_1_to_48(name: str) -> None:
    deck = DECKS[name]
    assert len(deck.tiles) == 48
    assert deck.numbers == tuple(range(1, 49))
    assert all(n in deck for n in range(1, 49)) and 0 not in deck and 49 not in deck


@pytest.mark.parametrize("name", NAMES)
def test_only_the_decks_colours(name: str) -> None:
    deck = DECKS[name]
    assert deck.colours == COLOURS[name]
    assert set(zones(deck)) == {*COLOURS[name], "hammer", "blank"}


@pytest.mark.parametrize("name", NAMES)
def test_every_colour_appears_equally_often(name: str) -> None:
    deck = DECKS[name]
    counts = zones(deck)
    nails = {counts[colour] for colour in deck.colours}
    assert len(nails) == 1
    assert nails == {sum(tile.nails(colour) for tile in deck.tiles) for colour in deck.colours}


@pytest.mark.parametrize("name", NAMES)
def test_hammers_are_about_half_the_nails(name: str) -> None:
    """Enough hammers that nails can be covered: in a two-colour deck, about one colour's worth."""
    counts = zones(DECKS[name])
    nails = sum(counts[colour] for colour in COLOURS[name])
    assert abs(2 * counts["hammer"] - nails) <= nails // 10


@pytest.mark.parametrize("name", WORKSHOPS)
def test_workshop_blank_distribution(name: str) -> None:
    deck = DECKS[name]
    assert Counter(tile.blanks for tile in deck.tiles) == BLANKS
    assert zones(deck)["blank"] == sum(blanks * n for blanks, n in BLANKS.items())


def test_space_has_a_mix_of_blanks() -> None:
    by_blanks = Counter(tile.blanks for tile in DECKS["space"].tiles)
    assert set(by_blanks) == {0, 1, 2, 3, 4}
    assert max(by_blanks.values()) <= 24


@pytest.mark.parametrize("name", NAMES)
def test_every_mechanic_is_shown(name: str) -> None:
    shown = set(mechanics(DECKS[name]))
    assert shown == expected_mechanics(name)
    assert shown <= set(MECHANICS)


@pytest.mark.parametrize("name", ["workshop", "space"])
def test_two_colour_decks_show_the_seeds_nine(name: str) -> None:
    cover = {"cover-green": f"cover-{COLOURS[name][1]}"}
    assert set(mechanics(DECKS[name])) == {cover.get(m, m) for m in NINE}


@pytest.mark.parametrize("name", NAMES)
def test_mechanics_on_about_a_third_of_the_tiles(name: str) -> None:
    deck = DECKS[name]
    assert 12 <= sum(bool(tile.mechanics) for tile in deck.tiles) <= 20
    counts = mechanics(deck)
    assert max(counts.values()) <= 4
    assert 2 <= sum("null" in tile.mechanics for tile in deck.tiles) <= 3


@pytest.mark.parametrize("name", NAMES)
def test_mechanics_sit_where_they_can_fire(name: str) -> None:
    """On a nail or a hammer; a blank may carry only Ø."""
    for tile in DECKS[name].tiles:
        for zone in tile.zones:
            if zone.kind == "blank" and zone.mechanic:
                assert zone.mechanic == "null", tile.code


def test_the_seeds_figures_are_tiles_1_to_4() -> None:
    deck = DECKS["workshop"]
    assert {n: deck.tile(n).code for n in FIGURES} == FIGURES


def test_workshop4_keeps_the_figures_pattern() -> None:
    """Same zone kinds and mechanics as FIG. 1–4; only the colours differ."""
    def pattern(tile: Tile) -> tuple[tuple[str, str | None], ...]:
        return tuple((zone.kind, zone.mechanic) for zone in tile.zones)

    for n in FIGURES:
        assert pattern(DECKS["workshop4"].tile(n)) == pattern(DECKS["workshop"].tile(n))


@pytest.mark.parametrize("name", NAMES)
def test_no_two_tiles_alike(name: str) -> None:
    tiles = DECKS[name].tiles
    exact = Counter((tile.centre, tile.zones) for tile in tiles)
    assert max(exact.values()) == 1
    seen: set[tuple[str | None, tuple[str, ...]]] = set()
    for tile in tiles:
        assert not turns(tile) & seen, f"tile {tile.code} is another tile turned"
        seen |= turns(tile)


@pytest.mark.parametrize("name", NAMES)
def test_centres(name: str) -> None:
    deck = DECKS[name]
    centres = Counter(tile.centre for tile in deck.tiles)
    if deck.shape == "square":
        assert centres == {None: 48}
    else:
        assert set(centres) == {"cow", "blank"}
        assert 12 <= centres["cow"] <= 20


def test_octagon_centres_carry_no_mechanic() -> None:
    for tile in DECKS["space"].tiles:
        assert tile.code.split()[1] in ("cow", "blank") and tile.code.split()[2] == "|"


@pytest.mark.parametrize("name", NAMES)
def test_words_and_objective(name: str) -> None:
    deck = DECKS[name]
    space = name == "space"
    assert deck.shape == ("octagon" if space else "square")
    words = ("ship", "laser") if space else ("nail", "hammer")
    assert (deck.nail_word, deck.hammer_word) == words
    assert deck.most_wins is space


@pytest.mark.parametrize("name", NAMES)
def test_codes_read_back(name: str) -> None:
    deck = DECKS[name]
    text = "\n".join(tile.code for tile in deck.tiles)
    assert parse_deck(name, deck.shape, text).tiles == deck.tiles


@pytest.mark.parametrize(("shape", "text"), [
    ("square", "1 R:hammertime H _ G"),
    ("square", "1 R:again:search H _ G"),
    ("square", "1 R H _"),
    ("square", "1 R H _ G B"),
    ("square", "1 R H _ X"),
    ("square", "one R H _ G"),
    ("square", "1 R H _ G\n2 _ _ H G\n1 G G H _"),
    ("octagon", "1 R H _ B"),
    ("octagon", "1 dog | R H _ B"),
    ("octagon", "1 cow:again | R H _ B"),
    ("octagon", "1 | R H _ B"),
])
def test_parse_deck_refuses_bad_text(shape: str, text: str) -> None:
    with pytest.raises(BadOptions):
        parse_deck("bad", shape, text)  # type: ignore[arg-type]
