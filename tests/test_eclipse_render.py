"""Eclipse's pictures: single cards, a hand and the table, as Pillow draws them."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image, ImageChops, ImageStat

from bot.render.common import ascii_text, drawable
from bot.render.eclipse import MAX_SIDE, render_back, render_card, render_hand, render_table
from rules.core import Outcome
from rules.eclipse.cards import Card, standard_deck
from rules.eclipse.view import EclipseView, Reveal, SubsetView

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
                 "same top: sun; defender ♀: both present a number; even total → attacker, "
                 "odd → defender; 4 + 1 + 13 + 10 = 28, even → attacker wins")
JUDGING = Reveal(1, 2, card("S2m"), card("S3m"), None, 2,
                 "same top: sun; defender ♂; emblems cog vs butterfly → cog wins; "
                 + "3 − 2 ≤ 3 → maneuver — a very long step that has to wrap, " * 6)


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
        assert 900 <= image.width <= 1200 and image.height <= MAX_SIDE
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
    short = replace(JUDGING, judging="same top: sun; defender ♂")
    assert image.height > picture(render_table(replace(out, reveal=short), NAMES)).height
    no_card = replace(NUMBERS, attacker_card=None, numbers=None, winner=None,
                      judging="attacker has no symbol card → defender wins")
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
    assert "->" in text and "<=" in text and "male" in text and "female" in text
    assert "?" not in text and all(ch.isascii() or drawable(ch) for ch in text)
    names = ["Ada Lovelace, Countess of Lovelace 🎲", "Bo – 博", "", "♂♀→", "x" * 200, "Fay"]
    mine = table(6, seat=0, hand=(card("S1m"),), counter_left=2, moving=card("M2f"))
    picture(render_table(mine, names))
    picture(render_table(table(6), names[:3]))  # too few names: seats get numbers
