"""Arcane Duel's collection pictures: a pack just opened (rarest first, serials on
ribbons, black borders for limited copies, names legible on a phone), a deck (grouped,
counted, fitting 60 different cards, any title) and a trade (each side's cards)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

import bot.games.duel.collection as collection_render
from bot.games.duel.card import CARD_H, CARD_W, EDITION_BORDER, draw_face
from bot.games.duel.collection import (
    CAPTION_H,
    GROUPS,
    PACK_CARD_H,
    PACK_CARD_W,
    STRIP_H,
    Copy,
    deck_columns,
    deck_sections,
    draw_deck,
    draw_pack,
    draw_trade,
    pack_card,
    pack_layout,
    pack_order,
    render_deck,
    render_pack,
    render_trade,
    serial_words,
)
from bot.games.duel.frames import GOLD
from bot.pictures.common import MAX_SIDE, PHONE_WIDTH, clean
from rules.duel.cards import card, card_set
from rules.duel.decks import STARTERS, starter
from rules.duel.packs import PACK_SIZE, open_pack, rarest_first
from tests.images import count, direct_text_calls, drawn_text, opened, undrawable

LEGIBLE = 11
"""Smallest text, in pixels, a name may be once a phone has scaled the picture to
:data:`~bot.pictures.common.PHONE_WIDTH` (the table's 14 px text shows at about 11)."""
READABLE = 12
"""Smallest rules text, in pixels, on a pack's cards at the picture's own size: what a
phone shows when the picture is opened and zoomed, and sharp enough there to read (at
half size it was 8.5 px and blurred)."""


def a_pack(seed: int = 7) -> list[Copy]:
    """A pack as it is opened (commons first), every third copy limited: one with a run
    of 500 and serial 37, the others with serials and runs of their own."""
    copies: list[Copy] = []
    for k, (name, _) in enumerate(open_pack(random.Random(seed))):
        if k == 0:
            copies.append((name, "limited", 37, 500))
        elif k % 3 == 0:
            copies.append((name, "limited", k, 1000))
        else:
            copies.append((name, "unlimited", None, None))
    return copies


def shown_card(image: Image.Image, spot: tuple[int, int]) -> bytes:
    """The pixels of the card whose top-left corner is ``spot`` in a pack picture."""
    x, y = spot
    return image.crop((x, y, x + PACK_CARD_W, y + PACK_CARD_H)).tobytes()


# --- a pack --------------------------------------------------------------------------------


def test_a_pack_is_a_grid_of_cards_whose_rules_text_reads_at_its_own_size() -> None:
    copies = a_pack()
    assert len(copies) == PACK_SIZE
    image = opened(render_pack(copies))
    assert image.size == draw_pack(copies).size  # drawn to fit: never scaled down
    assert max(image.size) <= MAX_SIDE and 0.6 <= image.width / image.height <= 1.6
    spots = pack_layout(PACK_SIZE)
    columns, rows = len({x for x, _ in spots}), len({y for _, y in spots})
    assert (columns, rows) in {(5, 3), (4, 4)}
    scale = PACK_CARD_W / CARD_W
    assert pytest.approx(scale, abs=0.005) == PACK_CARD_H / CARD_H
    # Every card of the set, as a pack shows it: its rules text (the lines drawn in the
    # text box) at least READABLE px, and all of it there.
    for name, data in card_set().items():
        with drawn_text() as calls:
            draw_face(data)
        lines = [call for call in calls if call.anchor == "la"]
        assert lines, name
        assert min(call.size for call in lines) * scale >= READABLE, name
        written = " ".join(call.text for call in lines)
        assert all(word in written for word in clean(data.text()).split()), name


def test_a_pack_shows_each_card_whole_and_nothing_over_its_art() -> None:
    copies = a_pack()
    with drawn_text() as calls:
        image = draw_pack(copies)
    shown = pack_order(copies)
    spots = pack_layout(len(shown))
    limited = 0
    for (name, edition, serial, run), spot in zip(shown, spots, strict=True):
        # The card as it is, at the pack's size: no ribbon, mark or name laid over it.
        assert shown_card(image, spot) == pack_card(name, edition).tobytes(), name
        if serial is not None:
            limited += 1
            x, y = spot
            under = image.crop((x, y + PACK_CARD_H, x + PACK_CARD_W,
                                y + PACK_CARD_H + CAPTION_H))
            assert count(under, GOLD) > 300, name  # its ribbon, under the card
            assert serial_words(serial, run) in [c.text for c in calls]
    assert limited == 5


def test_a_pack_picture_is_the_same_every_time() -> None:
    copies = a_pack(3)
    first = render_pack(copies)
    assert render_pack(copies) == first
    collection_render._pack_card_in.cache_clear()
    assert render_pack(copies) == first
    assert render_pack(a_pack(4)) != first


def test_a_pack_is_shown_rarest_first_left_to_right_then_down() -> None:
    copies = a_pack()
    expected = [name for name, _, _ in rarest_first(
        [(name, card(name).rarity, k) for k, (name, *_) in enumerate(copies)])]
    assert [c[0] for c in pack_order(copies)] == expected
    assert card(expected[0]).rarity == "rare" and card(expected[-1]).rarity == "common"
    image = draw_pack(copies)
    spots = pack_layout(len(copies))
    assert spots == sorted(spots, key=lambda xy: (xy[1], xy[0]))  # row by row
    for (name, edition, _, _), spot in zip(pack_order(copies), spots, strict=True):
        assert shown_card(image, spot) == pack_card(name, edition).tobytes(), name
    with drawn_text() as calls:
        draw_pack(copies)
    marks = [c.text for c in calls if c.text in {"R", "U", "C"} and c.anchor == "mm"]
    assert marks == ["R"] + ["U"] * 3 + ["C"] * 11
    words = [c.text for c in calls if c.text in {"Rare", "Uncommon", "Common"}]
    assert words == ["Rare"] + ["Uncommon"] * 3 + ["Common"] * 11
    assert all(c.size >= READABLE for c in calls)


def test_limited_copies_have_a_black_border_and_their_serial_on_a_ribbon() -> None:
    copies = a_pack()
    with drawn_text() as calls:
        image = draw_pack(copies)
    drawn = [call.text for call in calls]
    assert "#37 of 500" in drawn
    serials = [t for t in drawn if t.startswith("#")]
    assert len(serials) == sum(1 for c in copies if c[1] == "limited") == 5
    assert "4 limited" not in drawn and "5 limited" in drawn
    for (name, edition, serial, _), (x, y) in zip(pack_order(copies), pack_layout(15),
                                                 strict=True):
        border = image.getpixel((x + 3, y + PACK_CARD_H // 2))
        assert border == EDITION_BORDER[edition], (name, edition)
        under = image.crop((x, y + PACK_CARD_H, x + PACK_CARD_W, y + PACK_CARD_H + CAPTION_H))
        assert (count(under, GOLD) > 300) == (serial is not None), name


def test_a_serial_without_a_run_and_odd_packs() -> None:
    name = a_pack()[1][0]
    with drawn_text() as calls:
        alone = draw_pack([(name, "limited", 8, None)])
    assert "#8" in [c.text for c in calls]
    assert alone.width < 2 * PACK_CARD_W  # one card, one column
    with drawn_text() as calls:
        draw_pack([(name, "limited", 10**30, 10**31)])  # a serial too long for its ribbon
    assert [c for c in calls if c.text.startswith("#") and c.text.endswith("…")]
    assert all(c.length <= PACK_CARD_W for c in calls if c.text.startswith("#"))
    empty = opened(render_pack([]))
    assert empty.height < 100
    big = [(n, "unlimited", None, None) for n in sorted(card_set())[:40]]
    assert max(opened(render_pack(big)).size) <= MAX_SIDE
    with pytest.raises(ValueError, match="edition"):
        render_pack([(name, "foil", None, None)])
    with pytest.raises(KeyError):
        render_pack([("No Such Card", "unlimited", None, None)])


# --- a deck --------------------------------------------------------------------------------


def test_a_deck_is_grouped_and_counted() -> None:
    deck = Counter(starter(next(iter(STARTERS))))
    sections = deck_sections(deck)
    assert [group for group, _ in sections] == list(GROUPS)
    for group, rows in sections:
        assert all({"Creatures": card(n).is_creature, "Lands": card(n).type == "land",
                    "Other spells": not card(n).is_creature and card(n).type != "land"}[group]
                   for n, _ in rows)
        values = [card(n).cost_parts.mana_value for n, _ in rows]
        assert group == "Lands" or values == sorted(values)
    assert sorted(n for _, rows in sections for n, _ in rows) == sorted(deck)
    draw_deck(deck, "Dawn and tide")
    with drawn_text() as calls:
        image = draw_deck(deck, "Dawn and tide")
    drawn = [call.text for call in calls]
    assert drawn[:2] == ["Dawn and tide", f"40 cards · {len(deck)} different"]
    heads = [t for t in drawn if t.split(" (")[0] in GROUPS]
    assert heads == [f"{group} ({sum(c for _, c in rows)})" for group, rows in sections]
    badges = [t for t in drawn if t.startswith("x")]  # "×4" drawn as the font has it
    assert badges == [f"x{c}" for _, rows in sections for _, c in rows]
    # Two columns: on a phone the name bars' 20 px names stay legible.
    assert 20 * PHONE_WIDTH / image.width >= LEGIBLE and image.height <= MAX_SIDE


def test_sixty_different_cards_fit_unscaled() -> None:
    names = sorted(n for n, c in card_set().items() if c.basic is None)[:60]
    deck = {n: k % 4 + 1 for k, n in enumerate(names)}
    image = draw_deck(deck, "Sixty")
    assert max(image.size) <= MAX_SIDE and deck_columns(deck_sections(deck)) <= 4
    assert opened(render_deck(deck, "Sixty")).size == image.size
    everything = {n: 1 for n in card_set()}
    assert max(opened(render_deck(everything, "All")).size) <= MAX_SIDE


def test_a_deck_leaves_out_empty_counts_and_draws_an_empty_deck() -> None:
    assert deck_sections({"Kindlewhip": 0, "Ashpeak": 17}) == [("Lands", [("Ashpeak", 17)])]
    with drawn_text() as calls:
        draw_deck({}, "Nothing")
    assert "No cards." in [c.text for c in calls] and "0 cards · 0 different" in [
        c.text for c in calls]
    with pytest.raises(KeyError):
        render_deck({"No Such Card": 2}, "Bad")


@pytest.mark.parametrize("title", [
    "🔥🔥 Burn 🔥🔥", "מטבע אש וים", "سطح النار", "x" * 500, "", "a\nb\tc\x00d",
    "Zoë — Ærø’s “deck” 👍🏽", "\u202eesrever\u202c", "W" * 10_000,
])
def test_any_title_makes_a_picture(title: str) -> None:
    deck = {"Kindlewhip": 4, "Ashpeak": 17, "Magma Ridgeback": 2}
    with drawn_text() as calls:
        image = draw_deck(deck, title)
    assert calls and not undrawable(calls)
    assert all(call.length <= image.width - 2 * collection_render.PAD for call in calls)
    assert opened(render_deck(deck, title)).size == image.size


def test_deck_rows_are_name_bars_of_the_cards() -> None:
    deck = {"Kindlewhip": 4}
    image = draw_deck(deck, "One")
    strip = collection_render._strip("Kindlewhip")
    x = collection_render.PAD + collection_render.BADGE_W + 4
    y = collection_render.PAD + collection_render.DECK_HEAD + collection_render.SECTION_HEAD
    assert image.crop((x, y, x + strip.width, y + STRIP_H)).tobytes() == strip.tobytes()
    assert isinstance(strip, Image.Image) and strip.height == STRIP_H


# --- a trade -------------------------------------------------------------------------------


def test_a_trade_shows_each_side_its_cards_or_a_gift() -> None:
    sides = [("Ada gives", {"Kindlewhip": 1, "Ashpeak": 2}), ("Bo gives", {})]
    with drawn_text() as calls:
        image = draw_trade(sides)
    drawn = [call.text for call in calls]
    assert drawn[0] == "Ada gives (3)" and "Bo gives (0)" in drawn
    assert "nothing (a gift)" in drawn and {"x1", "x2"} <= set(drawn)
    strip = collection_render._strip("Kindlewhip")
    x = collection_render.PAD + collection_render.BADGE_W + 4
    y = collection_render.PAD + collection_render.SECTION_HEAD
    assert image.crop((x, y, x + strip.width, y + STRIP_H)).tobytes() == strip.tobytes()
    assert opened(render_trade(sides)).size == image.size


@pytest.mark.parametrize("name", ["🔥 Zoë", "x" * 500, "", "\u202eesrever"])
def test_a_trade_of_many_cards_and_any_names_fits(name: str) -> None:
    many = {n: 1 for n in sorted(card_set())[:100]}
    with drawn_text() as calls:
        draw_trade([(f"{name} gives", many), (f"{name} gives", {"Ashpeak": 99})])
    assert calls and not undrawable(calls)
    assert max(opened(render_trade([(name, many), (name, many)])).size) <= MAX_SIDE
    with pytest.raises(KeyError):
        render_trade([("A", {"No Such Card": 1}), ("B", {})])


def test_every_text_the_collection_renderer_draws_goes_through_the_helper() -> None:
    assert direct_text_calls(Path(collection_render.__file__)) == []
