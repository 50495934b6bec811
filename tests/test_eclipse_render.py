"""Eclipse's pictures: single cards, a hand and the table, as Pillow draws them."""

from __future__ import annotations

import io
import random
from dataclasses import replace
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

import bot.games.eclipse.pictures as eclipse_render
from bot.games.eclipse.pictures import (
    CARD_GAP,
    FACE,
    HAND_SCALE,
    ICON_STEP,
    MAX_SIDE,
    MIN_EMBLEM_ON_PHONE,
    MIN_TEXT_ON_PHONE,
    NAME_FONT,
    REVEAL_COLUMN,
    REVEAL_SCALE,
    SUBSET_SCALES,
    WIDTH,
    Box,
    Placed,
    _reveal_band,
    draw_hand,
    draw_table,
    emblem_box,
    fan,
    number_box,
    render_back,
    render_card,
    render_hand,
    render_table,
)
from bot.i18n import pseudo, speaking
from bot.pictures.common import (
    PHONE_WIDTH,
    SHAPED,
    ascii_text,
    clean,
    drawable,
    fit,
    font,
    length,
    seat_name,
)
from rules.core import Outcome
from rules.eclipse import EclipseState, choose
from rules.eclipse.cards import Card, standard_deck
from rules.eclipse.view import EclipseView, Reveal, SubsetView
from tests.images import direct_text_calls, drawn_text, ink, opened, undrawable
from tests.pseudo import english_left, pictures_checked

DECK = standard_deck()
FOLLOWER = DECK.cards[-1]
NAMES = ["Ada", "Bo", "Cy", "Dee", "Eve", "Fay"]


def card(code: str) -> Card:
    return DECK.card_by_code(code)


def picture(data: bytes) -> Image.Image:
    """``data`` checked to be a PNG Pillow reads, opened."""
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    Image.open(io.BytesIO(data)).verify()
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image


def tint(image: Image.Image) -> tuple[float, ...]:
    """Mean colour of a card's face (its transparent corners left out)."""
    return tuple(ImageStat.Stat(image.convert("RGB"), image.getchannel("A")).mean)


def differs(a: Image.Image, b: Image.Image) -> bool:
    return a.size != b.size or ImageChops.difference(a.convert("RGB"),
                                                     b.convert("RGB")).getbbox() is not None


SUN_MALE = SubsetView(1, "male", "sun", "shield", (card("S4m"), card("S9m"), FOLLOWER))
MOON_ODD = SubsetView(2, "female", "moon", "odd",
                      (card("M3f"), card("M7f"), card("M11f"), FOLLOWER, card("M1f")))
SUN_EVEN = SubsetView(1, "female", "sun", "even", (card("S2f"),))
SAFE = SubsetView(0, "female", None, "even", (card("S6f"), card("M4f"), card("S8f")))
NUMBERS = Reveal(0, 1, card("S13f"), card("S10f"), (4, 1), 0,
                 ("same top: sun", "defender ♀: both present a number; even total → attacker, "
                  "odd → defender", "4 + 1 + 13 + 10 = 28, even → attacker wins"))
JUDGING = Reveal(1, 2, card("S2m"), card("S3m"), None, 2,
                 ("same top: sun", "defender ♂", "emblems cog vs butterfly → cog wins",
                  "3 − 2 ≤ 3 → maneuver — a very long step that has to wrap, " * 6))


def table(seats: int, **changes: object) -> EclipseView:
    """A channel's view of a game of ``seats`` seats mid-way, with ``changes``."""
    subsets = ((SUN_MALE, MOON_ODD), (SUN_EVEN,), (), (MOON_ODD,), (), (SUN_MALE,))[:seats]
    view = EclipseView(
        seat=None, seats=seats, hand=None, hand_sizes=(5, 6, 4, 3, 7, 2)[:seats],
        deck_size=30, subsets=subsets, safe_set=SAFE, out=(False,) * seats, attacker=0,
        defender=1, phase="play", waiting=(0, 1), chosen=(1,), reveal=NUMBERS,
        counterattack=(), counter_left=0, moving=None, hands_played=12, hand_cap=400,
        outcome=None, step=40)
    return replace(view, **changes)


def test_a_card_is_small_and_scales() -> None:
    assert render_card(card("S13f")).size == (64, 92)
    assert render_card(card("S13f"), scale=2).size == (128, 184)
    assert render_back().size == (64, 92) == render_card(FOLLOWER).size
    assert render_back(scale=0.5).size == render_card(card("M4m"), scale=0.5).size
    for face in (card("S12m"), card("M9f"), FOLLOWER):
        alpha = render_card(face).getchannel("A")
        assert alpha.crop((6, 6, 58, 86)).getextrema() == (255, 255)  # opaque face
        assert alpha.getpixel((0, 0)) == 0  # rounded, transparent corners


def test_every_symbol_card_has_its_own_picture() -> None:
    faces = {render_card(c).tobytes() for c in DECK.cards if not c.follower}
    assert len(faces) == 60
    followers = {render_card(c).tobytes() for c in DECK.cards if c.follower}
    assert len(followers) == 1 and not faces & followers
    assert render_back().tobytes() not in faces | followers


def test_sun_and_moon_cards_read_apart_at_a_glance() -> None:
    sun, moon = render_card(card("S7m")), render_card(card("M7m"))
    assert differs(sun, moon)
    for code in ("S7m", "S1f", "S15m"):
        red, _, blue = tint(render_card(card(code)))
        assert red - blue > 60  # warm gold
    for code in ("M7m", "M1f", "M15m"):
        red, _, blue = tint(render_card(card(code)))
        assert blue - red > 25  # blue-silver
    assert differs(render_card(card("S7m")), render_card(card("S7f")))  # ♂ vs ♀
    assert differs(render_card(card("S7m")), render_card(card("S8m")))  # number and emblem


def test_render_card_hands_out_a_copy() -> None:
    first = render_card(card("S5m"))
    first.paste((0, 0, 0, 255), (0, 0, 64, 92))
    assert differs(first, render_card(card("S5m")))


def test_a_hand_shows_each_card() -> None:
    three = picture(render_hand([card("S13f"), card("M4m"), FOLLOWER]))
    four = picture(render_hand([card("S13f"), card("M4m"), FOLLOWER, card("S2f")]))
    assert four.width > three.width and four.height == three.height
    other = picture(render_hand([card("S13f"), card("M4f"), FOLLOWER]))
    assert differs(three, other)


def test_an_empty_or_huge_hand_still_makes_a_picture() -> None:
    empty = picture(render_hand([]))
    assert empty.width < 400 and empty.height < 100
    many = picture(render_hand(DECK.cards[:40]))
    assert max(many.size) <= MAX_SIDE and many.height > 2 * 115


def test_tables_of_two_three_and_six_seats_fit_discord() -> None:
    for seats in (2, 3, 6):
        image = picture(render_table(table(seats), NAMES[:seats]))
        assert image.width == WIDTH and image.height <= MAX_SIDE
    assert picture(render_table(table(6), NAMES)).height > picture(
        render_table(table(2), NAMES[:2])).height


def test_the_table_changes_with_the_cards() -> None:
    base = picture(render_table(table(3), NAMES))
    moon = replace(NUMBERS, attacker_card=card("M13f"))
    assert differs(base, picture(render_table(table(3, reveal=moon), NAMES)))
    swapped = (SUN_MALE, replace(MOON_ODD, cards=(card("M5f"), *MOON_ODD.cards[1:])))
    subsets = (swapped, *table(3).subsets[1:])
    assert differs(base, picture(render_table(table(3, subsets=subsets), NAMES)))
    assert differs(base, picture(render_table(table(3, safe_set=None), NAMES)))


def test_out_seats_reveals_and_an_outcome_render() -> None:
    out = table(6, out=(False, False, True, False, True, False), hand_sizes=(5, 6, 0, 3, 0, 2),
                reveal=JUDGING, attacker=1, defender=3)
    image = picture(render_table(out, NAMES))
    assert image.height <= MAX_SIDE
    assert differs(image, picture(render_table(replace(out, out=(False,) * 6), NAMES)))
    short = replace(JUDGING, judging=("same top: sun", "defender ♂"))
    assert image.height > picture(render_table(replace(out, reveal=short), NAMES)).height
    no_card = replace(NUMBERS, attacker_card=None, numbers=None, winner=None,
                      judging=("attacker has no symbol card → defender wins",))
    picture(render_table(table(2, reveal=no_card, phase="numbers"), NAMES[:2]))
    over = table(2, outcome=Outcome(places=(1, 2), scores=None, reason="last one standing"),
                 out=(False, True), phase="over", waiting=(), chosen=())
    ended = picture(render_table(over, NAMES[:2]))
    assert ended.height > picture(render_table(replace(over, outcome=None), NAMES[:2])).height
    places = Outcome(places=(2, 1, 3), scores=None, reason="hand cap: fewest cards in front")
    picture(render_table(table(3, outcome=places, reveal=None), NAMES))


def test_a_crowded_table_stays_within_bounds() -> None:
    crowd = tuple((SUN_MALE, MOON_ODD, SUN_EVEN) * 4 for _ in range(6))
    image = picture(render_table(table(6, subsets=crowd), NAMES))
    assert max(image.size) <= MAX_SIDE


def test_text_the_font_lacks_is_written_another_way() -> None:
    text = ascii_text("defender ♂ vs ♀; 3 − 1 ≤ 2 → maneuver — ☀🌙🛡️⚡⚙🦋⭐")
    assert "→" in text and "<=" in text and "male" in text and "female" in text
    assert "?" not in text and all(ch.isascii() or drawable(ch) or ch in SHAPED for ch in text)
    names = ["Ada Lovelace, Countess of Lovelace 🎲", "Bo – 博", "", "♂♀→", "x" * 200, "Fay"]
    mine = table(6, seat=0, hand=(card("S1m"),), counter_left=2, moving=card("M2f"))
    picture(render_table(mine, names))
    picture(render_table(table(6), names[:3]))  # too few names: seats get numbers


# --- real tables, seen on a phone ---------------------------------------------------------


@cache
def played(seats: int, seed: int, steps: int) -> EclipseView:
    """The channel's view of a game of ``seats`` after ``steps`` rounds of computer moves."""
    state = EclipseState.new({}, seats, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        for decision in state.pending():
            if not state.has_chosen(decision.seat):
                state.apply(decision.seat, choose(state, decision.seat, rng))
    return state.observe(None)


REAL = [(2, 1, 80), (3, 7, 120), (6, 3, 231)]
"""Games mid-way: two seats, three, and six with 65 cards in front (as crowded as
hundreds of computer games get; it needs every row the picture has)."""


def scale_of(placed: Placed) -> float:
    """The scale a card was drawn at, from its size."""
    w = placed.box[2] - placed.box[0]
    h = placed.box[3] - placed.box[1]
    scales = [s for s in (*SUBSET_SCALES, REVEAL_SCALE, HAND_SCALE)
              if render_card(FOLLOWER, scale=s).size == (w, h)]
    assert scales, f"a card {w}x{h} drawn at no known scale"
    return scales[0]


def within(placed: Placed, box: Box) -> Box:
    """``box`` of a card (as :func:`emblem_box` gives it) where the card lies."""
    x, y = placed.box[:2]
    return box[0] + x, box[1] + y, box[2] + x, box[3] + y


def emblem_size(image: Image.Image, placed: Placed) -> int:
    """The longer side, in pixels, of the emblem drawn on card ``placed`` of ``image``:
    of whatever differs from the card's face and its section lines in its emblem box."""
    assert placed.card is not None and placed.card.top is not None
    face, _, line, _ = FACE[placed.card.top]
    w, h = placed.box[2] - placed.box[0], placed.box[3] - placed.box[1]
    found = ink(image, within(placed, emblem_box(w, h)), [face, line])
    assert found is not None, f"no emblem on {placed.card.code}"
    return max(found[2] - found[0], found[3] - found[1])


def faces(placed: list[Placed]) -> list[Placed]:
    return [p for p in placed if p.card is not None and not p.card.follower]


@pytest.mark.parametrize("seats, seed, steps", REAL, ids=["2", "3", "6"])
def test_emblems_on_the_table_are_big_enough_to_read_on_a_phone(seats: int, seed: int,
                                                                steps: int) -> None:
    view = played(seats, seed, steps)
    image, placed = draw_table(view, NAMES[:seats])
    assert opened(render_table(view, NAMES[:seats])).size == image.size == (WIDTH,
                                                                             image.height)
    least = MIN_EMBLEM_ON_PHONE * WIDTH / PHONE_WIDTH   # 19.2 px: 12 px on a phone
    assert len(faces(placed)) >= 4
    for card in faces(placed):
        size = emblem_size(image, card)
        assert size >= least, f"{card.card} emblem {size} px"
        assert size >= 0.4 * (card.box[2] - card.box[0])


def test_emblems_in_a_hand_are_big_enough_to_read_on_a_phone() -> None:
    for cards in (DECK.cards[:6], DECK.cards[20:30], DECK.cards[-16:]):
        image, placed = draw_hand(cards)
        shown = min(1.0, PHONE_WIDTH / image.width)   # how much a phone shrinks it
        for card in faces(placed):
            assert emblem_size(image, card) * shown >= MIN_EMBLEM_ON_PHONE


def test_a_card_keeps_its_number_and_emblem_apart() -> None:
    for scale in (*SUBSET_SCALES, REVEAL_SCALE, HAND_SCALE):
        w, h = render_card(FOLLOWER, scale=scale).size
        number, emblem = number_box(w, h), emblem_box(w, h)
        assert number[0] > 0 and number[2] <= emblem[0] and emblem[2] < w
        assert 0.4 * w <= emblem[2] - emblem[0] <= 0.5 * w


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_a_fan_never_lays_a_card_over_another_cards_number_or_emblem() -> None:
    for w in (36, 45, 48, 64):
        h = round(w * 92 / 64)
        for count in range(1, 9):
            boxes = [(x, 0, x + w, h) for x in fan(count, w)]
            assert boxes[-1][2] <= count * (w + CARD_GAP)   # as tight as that allows
            for (below, upper) in combinations(boxes, 2):   # later cards lie on top
                for part in (emblem_box(w, h), number_box(w, h)):
                    shifted = (part[0] + below[0], part[1], part[2] + below[0], part[3])
                    assert not overlaps(shifted, upper)


@pytest.mark.parametrize("seats, seed, steps", REAL, ids=["2", "3", "6"])
def test_every_number_and_emblem_on_the_table_shows_whole(seats: int, seed: int,
                                                          steps: int) -> None:
    view = played(seats, seed, steps)
    image, placed = draw_table(view, NAMES[:seats])
    assert any(len(subset.cards) >= 2 for subsets in view.subsets for subset in subsets)
    for k, card in enumerate(placed):
        for later in placed[k + 1:]:
            w, h = card.box[2] - card.box[0], card.box[3] - card.box[1]
            for part in (emblem_box(w, h), number_box(w, h)):
                assert not overlaps(within(card, part), later.box)
    for card in faces(placed):   # and the pixels say so: exactly the card's own
        assert card.card is not None
        alone = render_card(card.card, scale=scale_of(card)).convert("RGB")
        w, h = alone.size
        for part in (emblem_box(w, h), number_box(w, h)):
            assert image.crop(within(card, part)).tobytes() == alone.crop(part).tobytes()


# --- the reveal, labelled with the seats' names -------------------------------------------


ODD_NAMES = ["{boss}", "Ada Lovelace, Countess of Lovelace, " + "x" * 64, "🎲 Bo 博 — 🦋",
             "{0} {s1} %s", "", "Fay"]


@pytest.mark.parametrize("attacker, defender", [(0, 1), (1, 2), (2, 3), (4, 0)])
def test_the_reveal_names_both_seats_over_their_cards(attacker: int, defender: int) -> None:
    reveal = replace(JUDGING, attacker=attacker, defender=defender, winner=defender)
    view = table(6, reveal=reveal, attacker=attacker, defender=defender)
    assert picture(render_table(view, ODD_NAMES)).height <= MAX_SIDE
    with drawn_text() as calls:
        _, placed = _reveal_band(view, reveal, ODD_NAMES)
    assert [p.card for p in placed] == [reveal.attacker_card, reveal.defender_card]
    least = MIN_TEXT_ON_PHONE * WIDTH / PHONE_WIDTH   # 16 px: 10 px on a phone
    for seat, card in zip((attacker, defender), placed, strict=True):
        label = fit(seat_name(ODD_NAMES, seat), font(NAME_FONT),
                    REVEAL_COLUMN - 16 - ICON_STEP)
        left, top, right, _ = card.box
        over = [call for call in calls if call.text == label and call.size >= least
                and top - 30 <= call.xy[1] < top   # just over the card
                and left - REVEAL_COLUMN / 2 < call.xy[0] < right]
        assert over, f"no label {label!r} over the card of seat {seat}"
        assert over[0].xy[0] + over[0].length <= left + REVEAL_COLUMN   # in its column
    if 0 in (attacker, defender):
        assert "{boss}" in {call.text for call in calls}
    assert not undrawable(calls)


def test_the_reveal_draws_its_arrows_as_arrows_not_ascii() -> None:
    view = table(2, reveal=NUMBERS)
    with drawn_text() as calls:
        band, _ = _reveal_band(view, NUMBERS, NAMES)
    assert not [call.text for call in calls if "->" in call.text or "→" in call.text]
    # "even total → attacker, odd → defender": the words on each side of an arrow are
    # drawn apart, an arrow's width between them, and the arrow is ink on the band.
    before = next(call for call in calls if call.text.endswith("even total "))
    after = next(call for call in calls if call.text.startswith(" attacker"))
    arrow_w = length("→", font(before.size))
    assert after.xy[0] - (before.xy[0] + before.length) == pytest.approx(arrow_w, abs=0.5)
    assert after.xy[1] == before.xy[1]
    gap = (round(before.xy[0] + before.length), round(before.xy[1]) - 8,
           round(after.xy[0]), round(before.xy[1]) + 8)
    inked = ink(band, gap, [band.getpixel((gap[0], gap[1]))])  # type: ignore[list-item]
    assert inked is not None and inked[2] - inked[0] >= arrow_w * 0.7


def test_a_long_name_is_cut_to_its_column_in_the_reveal() -> None:
    view = table(2, reveal=replace(NUMBERS, attacker=1, defender=0, winner=1))
    with drawn_text() as calls:
        draw_table(view, ["Bo", "x" * 100])
    cut = [call for call in calls if call.text.startswith("xxx")]
    assert cut and all(call.text.endswith("…") for call in cut)
    assert all(call.length <= WIDTH - 20 for call in cut)


# --- text the font lacks ----------------------------------------------------------------------


def test_the_helper_knows_which_glyphs_the_font_lacks() -> None:
    used = font(16)
    assert used.getname()[0] == "DejaVu Sans Condensed"   # the shipped font every picture uses
    box = bytes(used.getmask("\ue000"))      # what it draws for a glyph it lacks
    for missing in "博🎲":
        assert bytes(used.getmask(missing)) == box and not drawable(missing)
    for present in "-Ae1{}·…éçãõâê":
        assert bytes(used.getmask(present)) != box and drawable(present)
    assert clean("José — Zoë 🎲 博") == "José - Zoë ? ?"
    assert all(drawable(ch) for ch in clean("".join(map(chr, range(0x20, 0x1000)))))


def test_no_picture_of_the_table_draws_a_glyph_the_font_lacks() -> None:
    mine = table(6, seat=0, hand=(card("S1m"),), counter_left=2, moving=card("M2f"),
                 reveal=replace(JUDGING, attacker=2, defender=3))
    over = table(3, outcome=Outcome(places=(2, 1, 3), scores=None, reason="hand cap — fewest"))
    with drawn_text() as calls:
        draw_table(mine, ODD_NAMES)
        draw_table(over, ODD_NAMES[:3])
        draw_hand(DECK.cards[:12])
        draw_hand([])
    assert calls and not undrawable(calls)


def test_every_text_the_eclipse_renderer_draws_goes_through_the_helper() -> None:
    assert direct_text_calls(Path(eclipse_render.__file__)) == []


# --- a language with longer words ------------------------------------------------------------


def test_pictures_in_a_language_with_longer_words_keep_their_text_inside_and_apart() -> None:
    """Drawn in the pseudo-locale (every word 40 % longer, bracketed), each text stays
    inside its picture and off the others, on a crowded six-seat table too; and what a
    real game's pictures say all came from the catalog."""
    crowd = tuple((SUN_MALE, MOON_ODD, SUN_EVEN) * 4 for _ in range(6))
    out = table(6, out=(False, False, True, False, True, False), hand_sizes=(5, 6, 0, 3, 0, 2),
                reveal=JUDGING, attacker=1, defender=3, chosen=(), waiting=(1, 3))
    no_card = replace(NUMBERS, attacker_card=None, numbers=None, winner=None)
    over = table(3, outcome=Outcome(places=(2, 1, 3), scores=None, reason=""),
                 out=(False, False, True), phase="over", waiting=(), chosen=())
    busy = table(3, counter_left=2, moving=card("S4m"), seat=0, hand=(card("S2f"),))
    pseudo.enable()
    try:
        with speaking("qps"), pictures_checked() as placed:
            for seats in (2, 3, 6):
                render_table(table(seats), NAMES[:seats])
            for view in (table(6, subsets=crowd), out, over, busy,
                         table(2, reveal=no_card, phase="numbers")):
                render_table(view, NAMES[:view.seats])
            render_hand([card("S13f"), FOLLOWER])
            render_hand([])
            real = len(placed)
            for seats, seed, steps in REAL:
                render_table(played(seats, seed, steps), NAMES[:seats])
                render_hand(played(seats, seed, steps).subsets[0][0].cards)
    finally:
        pseudo.enable(False)
    assert any(p.text.startswith("⟦") for p in placed)
    left = [p.text for p in placed[real:] if english_left(p.text, [*NAMES, "ECLIPSE"])]
    assert left == []


def test_the_table_picture_speaks_portuguese() -> None:
    with drawn_text() as calls, speaking("pt-BR"):
        draw_table(played(3, 7, 120), NAMES[:3])
    said = " ".join(call.text for call in calls)
    assert "Cofre" in said and "rodada" in said and "Safe set" not in said
